package commands

import (
	"maps"
	"time"
)

// Forms a player filled in and the game refused are kept here, in this
// process's memory only, for a while: Discord cannot answer a form with
// a form, so the refusal offers a button that opens the form again with
// what was typed. What was typed may be a secret (a Drone's target): it
// never goes into a custom ID (they are logged), a log line or the store.
// A click that reaches another process, or comes after draftTTL, opens
// the form empty.

// draftTTL is how long a refused form's fields are kept.
const draftTTL = 15 * time.Minute

type draft struct {
	fields map[string]string
	until  time.Time
}

func draftKey(game, user, form string) string { return game + "/" + user + "/" + form }

// KeepDraft keeps fields, what t's user typed in the form named form of
// t's game, for Draft.
func (t *Turn[S]) KeepDraft(form string, fields map[string]string) {
	if t.Req == nil {
		return
	}
	a := t.app
	a.draftsMu.Lock()
	defer a.draftsMu.Unlock()
	if a.drafts == nil {
		a.drafts = map[string]draft{}
	}
	for k, d := range a.drafts {
		if !t.Now.Before(d.until) {
			delete(a.drafts, k)
		}
	}
	a.drafts[draftKey(t.Game.ID, t.Req.User.ID, form)] = draft{fields: maps.Clone(fields), until: t.Now.Add(draftTTL)}
}

// Draft returns what KeepDraft kept for t's user and the form named form
// of t's game, nil when nothing (or it expired).
func (t *Turn[S]) Draft(form string) map[string]string {
	if t.Req == nil {
		return nil
	}
	a := t.app
	a.draftsMu.Lock()
	defer a.draftsMu.Unlock()
	d, ok := a.drafts[draftKey(t.Game.ID, t.Req.User.ID, form)]
	if !ok || !t.Now.Before(d.until) {
		return nil
	}
	return maps.Clone(d.fields)
}

// DropDraft forgets what KeepDraft kept for t's user and form.
func (t *Turn[S]) DropDraft(form string) {
	if t.Req == nil {
		return
	}
	a := t.app
	a.draftsMu.Lock()
	defer a.draftsMu.Unlock()
	delete(a.drafts, draftKey(t.Game.ID, t.Req.User.ID, form))
}
