package commands

import (
	"errors"
	"fmt"
	"time"

	"sandtable/commands/ui"
	"sandtable/internal/duration"
	"sandtable/storage"
)

// adminGame runs /admin game <action> on the game named by the game
// option, or else the game of the thread it is used in. Each action is
// announced in the game's thread (who, what, why) and kept in the audit
// log, in the transaction that makes it.
func (a *App) adminGame(req *Request, action string) (*Response, error) {
	id := req.Str("game")
	if id == "" {
		g, err := a.gameInChannel(req.ChannelID)
		if err != nil {
			return nil, Errorf("Use /admin game in a game's thread, or name the game with the game option (its ID).")
		}
		id = g.ID
	} else if !isID(id) {
		return nil, Errorf("%s is not a game ID. Nothing was done.", QuoteInput(id))
	}
	reason := req.Text("reason")
	if reason == "" {
		return nil, Errorf("Say why in the reason option: it is shown in the game's thread and kept in the log.")
	}
	h := func(a *App, req *Request, rec *storage.Game) (*Response, error) {
		k := a.kinds[rec.Kind]
		if k == nil {
			return nil, fmt.Errorf("game %s has unknown kind %q", rec.ID, rec.Kind)
		}
		logged := func(detail string) func(storage.Tx) error {
			return func(tx storage.Tx) error {
				return tx.Guilds().AddLog(req.GuildID, req.Now, AdminEntry{By: req.User, Action: action, Game: rec.ID, Reason: reason, Detail: detail})
			}
		}
		switch action {
		case "abort":
			if k.abort == nil {
				return nil, Errorf("%s games cannot be aborted. Nothing was done.", k.Title)
			}
			why := fmt.Sprintf("aborted by %s, a server manager: %s", req.User.Mention(), EscapeText(reason, 300))
			if _, err := k.abort(a, req, rec, why, logged("")); err != nil {
				return nil, err
			}
			return Private("Aborted game `%s` (%s): unrated, nobody's record changes. Said in <#%s>.", rec.ID, k.Title, rec.ThreadID), nil
		case "adjudicate":
			if k.adjudicate == nil {
				return nil, Errorf("%s games cannot be adjudicated. Nothing was done.", k.Title)
			}
			result := req.Str("result")
			why := fmt.Sprintf("adjudicated by %s, a server manager: %s", req.User.Mention(), EscapeText(reason, 300))
			if _, err := k.adjudicate(a, req, rec, result, why, logged("result "+result)); err != nil {
				return nil, err
			}
			return Private("Adjudicated game `%s` (%s): %s. Said in <#%s>.", rec.ID, k.Title, result, rec.ThreadID), nil
		case "extend":
			return a.extend(req, k, rec, reason, logged)
		case "end-thread":
			return a.endThread(req, k, rec, reason, logged)
		}
		return nil, Errorf("Unknown subcommand /admin game %s.", action)
	}
	resp, err := a.withGame(id, req, h)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, Errorf("There is no game %s. Nothing was done.", QuoteInput(id))
	}
	return resp, err
}

// adjudicateChoices offers the results of the game req's thread (or its
// game option) can have, to a manager typing the result option.
func (a *App) adjudicateChoices(req *Request) *Response {
	var rec *storage.Game
	if id := req.Str("game"); id != "" {
		if !isID(id) {
			return &Response{}
		}
		_ = a.view(func(tx storage.Tx) error {
			var err error
			rec, err = tx.Games().Get(id)
			return err
		})
	} else {
		rec, _ = a.gameInChannel(req.ChannelID)
	}
	if rec == nil || rec.GuildID != req.GuildID {
		return &Response{}
	}
	k := a.kinds[rec.Kind]
	if k == nil || k.results == nil {
		return &Response{}
	}
	var out []*ui.Choice
	for _, c := range k.results(a, rec) {
		out = append(out, &ui.Choice{Name: c.Name, Value: c.Value})
	}
	return &Response{Choices: out}
}

// extend gives whoever must act in rec more time: the running deadline
// (a move's, a turn's, a deployment's, for both sides at once) and its
// reminder move later by the time asked.
func (a *App) extend(req *Request, k *kindTable, rec *storage.Game, reason string, logged func(string) func(storage.Tx) error) (*Response, error) {
	raw := req.Str("time")
	d, err := duration.Parse(raw)
	if err != nil || d < time.Minute || d > 30*24*time.Hour {
		return nil, Errorf("time must be between 1m and 30d, written like 30m, 24h or 3d; %s is not. Nothing was done.", QuoteInput(raw))
	}
	if !rec.Active {
		return nil, Errorf("This game is over: there is no time to extend. Nothing was done.")
	}
	if rec.Deadline.IsZero() {
		return nil, Errorf("No deadline runs in this game (it has no move time): there is nothing to extend. Nothing was done.")
	}
	cp := *rec
	cp.Deadline = rec.Deadline.Add(d)
	if !cp.Remind.IsZero() {
		cp.Remind = cp.Remind.Add(d)
	}
	who := "whoever must act"
	if k.clockOf != nil {
		if c, err := k.clockOf(a, rec); err == nil && len(c.Actors) > 0 {
			who = ""
			for i, u := range c.Actors {
				if i > 0 {
					who += ", "
				}
				who += (&User{ID: u}).Mention()
			}
		}
	}
	note := Message{Content: fmt.Sprintf("⏱️ %s, a server manager, gave %s more time: %s now until <t:%d:f> (<t:%d:R>). Why: %s",
		req.User.Mention(), duration.Format(d), who, cp.Deadline.Unix(), cp.Deadline.Unix(), EscapeText(reason, 300))}
	if err := a.Store.Update(req.Context(), func(tx storage.Tx) error {
		if req.InteractionID != "" {
			if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
				return err
			}
		}
		if _, err := putGame(tx, &cp, req.Now); err != nil {
			return err
		}
		if err := logged(fmt.Sprintf("+%s, until %s", duration.Format(d), cp.Deadline.UTC().Format(time.RFC3339)))(tx); err != nil {
			return err
		}
		return a.enqueue(tx, rec.ID, rec, []Effect{{Op: OpPost, Channel: ChannelOfGame, Body: &note}})
	}); err != nil {
		return nil, err
	}
	a.deliverNow(req.Context(), rec.ID, true)
	a.kick()
	return Private("Extended game `%s` by %s: the deadline is now <t:%d:f>. Said in <#%s>.", rec.ID, duration.Format(d), cp.Deadline.Unix(), rec.ThreadID), nil
}

// endThread archives and locks the threads of the finished game rec now,
// for a thread whose automatic archive failed or is still pending: on an
// outbox stream of its own, so nothing queued for the game holds it.
func (a *App) endThread(req *Request, k *kindTable, rec *storage.Game, reason string, logged func(string) func(storage.Tx) error) (*Response, error) {
	if rec.Active {
		return nil, Errorf("This game is still on: end-thread is for a finished game's threads (abort or adjudicate it first). Nothing was done.")
	}
	if rec.ThreadID == "" {
		return nil, Errorf("This game has no thread. Nothing was done.")
	}
	note := Message{Content: fmt.Sprintf("🔒 %s, a server manager, archived and locked this thread. Why: %s", req.User.Mention(), EscapeText(reason, 300))}
	effects := []Effect{{Op: OpPost, Channel: ChannelOfGame, Body: &note}, {Op: OpArchive, Channel: ChannelOfGame}}
	if k.others != nil {
		for _, th := range k.others(a, rec) {
			if th != "" && th != rec.ThreadID {
				m := note
				effects = append(effects, Effect{Op: OpPost, Channel: th, Body: &m}, Effect{Op: OpArchive, Channel: th})
			}
		}
	}
	stream := "admin-" + rec.ID + "-" + newID()
	if err := a.Store.Update(req.Context(), func(tx storage.Tx) error {
		if req.InteractionID != "" {
			if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
				return err
			}
		}
		if err := logged("")(tx); err != nil {
			return err
		}
		return a.enqueue(tx, stream, rec, effects)
	}); err != nil {
		return nil, err
	}
	a.deliverNow(req.Context(), stream, true)
	a.kick()
	return Private("Archiving and locking the threads of game `%s`.", rec.ID), nil
}

// gameInChannel reads the game of a thread (an admin command's lookup: no
// lock, no carried reads; the action that changes the game reads it again).
func (a *App) gameInChannel(channelID string) (*storage.Game, error) {
	var g *storage.Game
	err := a.view(func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel(channelID)
		return err
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, Errorf("There is no game in this channel. Use this command in a game's thread (see /games for yours).")
	}
	return g, err
}
