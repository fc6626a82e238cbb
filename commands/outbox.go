package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Effects are what an action does on Discord besides answering its own
// interaction: posts, edits, direct messages, threads and their members.
// They are values: an action asks for them (Turn.Post, ...), the framework
// saves them in the outbox (storage.Outbox) in the transaction that saves
// the state, and Deliver performs them afterwards, in order per game, with
// retries. So a state change happens exactly once and its effects at least
// once; a Discord failure or a crash after the commit delays an effect and
// never loses it. Deliveries are reconciled so that a retry never shows
// users a duplicate: a post is not repeated when one of the bot's recent
// messages in the channel already is it (Platform.Recent), a public thread
// is started from a message (a second start of it is Discord's 160004, which
// StartThreadFrom answers with the same thread), and a new thread's retry
// first looks for it by name (Platform.FindThreads).

// Op is what an effect does.
type Op string

// The effects.
const (
	OpPost         Op = "post"          // post Body in Channel
	OpEdit         Op = "edit"          // make Message of Channel Body
	OpDM           Op = "dm"            // send Body to User by direct message (dropped when their DMs are closed: the result is DMClosed)
	OpEditDM       Op = "edit_dm"       // make the direct message Message to User Body
	OpStartThread  Op = "start_thread"  // start thread Name under Channel: from the message Message when set, else a new one (Private or public)
	OpAddMember    Op = "add_member"    // add User to the thread Channel
	OpRemoveMember Op = "remove_member" // remove User from the thread Channel
	OpArchive      Op = "archive"       // archive and lock the thread Channel (idempotent)
	OpBoard        Op = "board"         // post Body in Channel as the game's live board there; the board it replaces becomes its compact form (see Turn.Board)
	OpCompact      Op = "compact"       // make the replaced board Message of Channel its compact form Body (queued by an OpBoard's delivery)
)

// ChannelOfGame as an effect's Channel is the game's public thread, read
// when the effect is delivered (the thread an earlier effect started).
const ChannelOfGame = "@game"

// ResultThread as a start_thread effect's Result makes the started thread
// the game's public thread.
const ResultThread = "thread"

// DMClosed is what a dm effect with a Result yields when the user's direct
// messages are closed (Discord's 50007): the game's Delivered hook learns
// that the message was not sent (and may, say, tell the user in public).
const DMClosed = "dm-closed"

// Effect is one thing to do on Discord, stored in the outbox until done.
type Effect struct {
	Op      Op          `json:"op"`
	Channel string      `json:"channel,omitempty"`
	Message string      `json:"message,omitempty"`
	User    string      `json:"user,omitempty"`
	Guild   string      `json:"guild,omitempty"` // start_thread: the guild, to find the thread again
	Name    string      `json:"name,omitempty"`
	Private bool        `json:"private,omitempty"`
	Body    *ui.Message `json:"body,omitempty"`
	// Game is the game the effect belongs to (set by the framework).
	Game string `json:"game,omitempty"`
	// Reconcile makes even the first attempt of a post look for the
	// message among the bot's recent ones (an answer whose sending failed
	// may have been shown after all).
	Reconcile bool `json:"reconcile,omitempty"`
	// Result names what the ID the effect yields (a thread's, a message's)
	// is to the game: ResultThread, or a name the game's Delivered hook
	// knows. "" when nobody needs it.
	Result string `json:"result,omitempty"`
	// Final marks the post (or edit) that shows the game's end in its
	// public thread: the ID it yields becomes the game's FinalMessage, which
	// the closing summary links to (see markFinal).
	Final bool `json:"final,omitempty"`
	// Closing marks a thread's closing summary: its body is written again
	// when delivered, from the game as stored then (closingSummary), so it
	// links to the final message learnt meanwhile.
	Closing bool `json:"closing,omitempty"`
	// Compact is, for a board (OpBoard), what its message becomes once a
	// newer board of its channel replaces it: text only.
	Compact *ui.Message `json:"compact,omitempty"`
	// InPlace makes a board (OpBoard) edit the live board of its channel
	// instead of replacing it (see Turn.UpdateBoard).
	InPlace bool `json:"in_place,omitempty"`
	// Replay attaches to a post the replay of its game (an animated GIF),
	// drawn when the post is delivered from the game as stored then: the
	// outbox never holds the file. A game without a replay posts nothing.
	Replay bool `json:"replay,omitempty"`
	// Queued is when the effect was saved (for the outbox age metric);
	// zero in effects saved before it was recorded.
	Queued time.Time `json:"queued,omitempty"`
}

// maxAttempts is how many failed attempts an effect gets before it is
// dropped (logged as an error): with the backoff, about a day of retries.
const maxAttempts = 30

// backoff is the wait after the n-th failed attempt (1, 2, 4 ... seconds,
// at most an hour).
func backoff(n int) time.Duration {
	if n > 12 {
		return time.Hour
	}
	d := time.Second << (n - 1)
	if d > time.Hour {
		d = time.Hour
	}
	return d
}

// Several processes may share one store (docs/architecture.md, "Many
// processes"). An effect is delivered by the process holding its claim
// (storage.Outbox.Claim): the process that queues effects claims them in
// the same transaction, for its claim TTL (Settings.ClaimTTL), so it
// delivers them itself right after its commit with no further round trip;
// any process's dispatcher
// takes the effects nobody holds (HeadsFor), claiming each before
// performing it. A claim runs out only when its process died or stalled:
// another process then takes the effect over and, since it may have been
// performed already, reconciles it first.

// DefaultClaimTTL is how long a claim lasts unless Settings.ClaimTTL says
// otherwise.
const DefaultClaimTTL = 60 * time.Second

// claimTTL is how long a claim lasts: the longest an effect of a process
// that died waits before another process takes it over.
func (a *App) claimTTL() time.Duration {
	if a.Settings.ClaimTTL > 0 {
		return a.Settings.ClaimTTL
	}
	return DefaultClaimTTL
}

// deliveryTimeout bounds one delivery, well inside a claim (a third of it),
// so a live owner finishes before its claim runs out.
func (a *App) deliveryTimeout() time.Duration { return a.claimTTL() / 3 }

// enqueue saves effects in the outbox stream of stream, in tx, claimed by
// this process. It changes nothing outside tx, so a transaction run again
// (storage.Store.Update) may call it again.
func (a *App) enqueue(tx storage.Tx, stream string, rec *storage.Game, effects []Effect) error {
	return a.addEffects(tx, stream, rec, effects, func(id string, now time.Time) error {
		return tx.Outbox().Claim(id, a.Process, now, now.Add(a.claimTTL()))
	})
}

// addEffects adds effects to stream in tx, stamped with their game and the
// time, calling then with each new effect's ID.
func (a *App) addEffects(tx storage.Tx, stream string, rec *storage.Game, effects []Effect, then func(id string, now time.Time) error) error {
	now := a.Now()
	for _, e := range effects {
		if rec != nil {
			e.Game = rec.ID
		}
		e.Queued = now
		id, err := tx.Outbox().Add(stream, e)
		if err != nil {
			return err
		}
		if err := then(id, now); err != nil {
			return err
		}
	}
	return nil
}

// fresh reports whether p is surely not performed yet: queued and claimed
// by this process alone (one claim, its writer's), never failed, and not
// attempted by this process since (an attempt whose outcome could not be
// recorded). Any other effect (claimed by another process whose claim ran
// out, or queued before claims existed) may have been performed by a
// process that died before recording it: its delivery is reconciled first.
func (a *App) fresh(p storage.Pending) bool {
	if p.Attempts > 0 || p.Claims != 1 || p.Owner != a.Process {
		return false
	}
	a.shownMu.Lock()
	defer a.shownMu.Unlock()
	return !a.tried[p.ID]
}

// try notes that this process is about to perform the effect id (see
// fresh); settled forgets it once its outcome is recorded.
func (a *App) try(id string) {
	a.shownMu.Lock()
	defer a.shownMu.Unlock()
	if a.tried == nil {
		a.tried = map[string]bool{}
	}
	a.tried[id] = true
}

func (a *App) settled(id string) {
	a.shownMu.Lock()
	defer a.shownMu.Unlock()
	delete(a.tried, id)
}

// claim makes sure this process holds the claim on p for a whole delivery:
// its own claim with enough time left needs no transaction. ok false: the
// effect is another live process's, or done.
func (a *App) claim(p storage.Pending, now time.Time) (ok bool, err error) {
	if p.Owner == a.Process && p.Until.After(now.Add(2*a.deliveryTimeout())) {
		return true, nil
	}
	err = a.update(func(tx storage.Tx) error { return tx.Outbox().Claim(p.ID, a.Process, now, now.Add(a.claimTTL())) })
	if errors.Is(err, storage.ErrClaimed) || errors.Is(err, storage.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if p.Owner != "" && p.Owner != a.Process {
		a.Log.Info("took over an effect whose claim ran out", "owner", a.Process, "effect", p.ID,
			"previous_owner", p.Owner, "claim_ended", p.Until)
	}
	return true, nil
}

// deliverNowBudget bounds how long an action waits for its own effects
// before answering (see deliverNow).
const deliverNowBudget = time.Second

// deliverNow performs, right after an action's commit and before its
// answer, the effects the action queued on stream (a game's), in order,
// while they succeed and within deliverNowBudget: so a game's thread shows
// an action's posts before the next action can be made, in the usual case.
// It does nothing while the dispatcher is delivering (it never waits for
// it), and leaves whatever fails or remains to the dispatcher, which
// retries as usual; a failure here is an attempt like any other.
func (a *App) deliverNow(ctx context.Context, stream string, gameLocked bool) {
	if !a.DeliverInline || !a.deliverMu.TryLock() {
		return
	}
	defer a.deliverMu.Unlock()
	start := time.Now()
	for time.Since(start) < deliverNowBudget && ctx.Err() == nil {
		var head *storage.Pending
		now := a.Now()
		if err := a.view(func(tx storage.Tx) error {
			ps, err := tx.Outbox().HeadsFor(a.Process, now, 1<<20)
			for i := range ps {
				if ps[i].Stream == stream || ps[i].Stream == compactions(stream) {
					head = &ps[i]
					break
				}
			}
			return err
		}); err != nil || head == nil {
			return
		}
		ok, err := a.deliverOne(ctx, *head, now, gameLocked)
		if err != nil || !ok {
			return
		}
	}
}

// kick wakes the dispatcher: there is something new to deliver.
func (a *App) kick() {
	select {
	case a.kicks <- struct{}{}:
	default:
	}
}

// Kicks receives a value whenever effects were saved: the bot's dispatcher
// loop then calls Deliver.
func (a *App) Kicks() <-chan struct{} { return a.kicks }

// NextDelivery is when Deliver next has work (a retry's due time), the
// zero time when the outbox is empty, or now when it has work now.
func (a *App) NextDelivery() time.Time {
	var t time.Time
	_ = a.view(func(tx storage.Tx) error {
		n, err := tx.Outbox().Len()
		if err != nil || n == 0 {
			return err
		}
		t, err = tx.Outbox().NextDue()
		if err == nil && t.IsZero() {
			t = a.Now()
		}
		return err
	})
	return t
}

// answerGrace is how long the saved copy of an answer waits for the
// adapter to show the answer itself (AnswerSent) before the outbox shows it.
const answerGrace = 30 * time.Second

// saveAnswer queues in tx, due after answerGrace, a copy of resp, the
// public answer to req whose change tx saves: the adapter confirms it once
// the answer is shown (AnswerSent), and the copy is then dropped; after a
// failed send AnswerLost posts the whole answer instead, and after a crash
// before the answer the outbox posts the copy, unless it was shown. An
// answer that updates the clicked message is not copied: replayed after a
// restart, it could undo a later edit of that message (the framework
// closes a challenge's message with an effect of its own).
func (a *App) saveAnswer(tx storage.Tx, req *Request, resp *Response, now time.Time) error {
	if !a.AnswerCopies || resp == nil || req == nil || resp.Ephemeral || resp.Modal != nil || resp.Update || req.ChannelID == "" {
		return nil
	}
	m := withoutFiles(resp.Message)
	e := Effect{Op: OpPost, Channel: req.ChannelID, Body: &m, Reconcile: true, Queued: now, Game: resp.final, Final: resp.final != ""}
	id, err := tx.Outbox().Add("answer-"+newID(), e)
	if err != nil {
		return err
	}
	if err := tx.Outbox().Retry(id, 0, now.Add(answerGrace)); err != nil {
		return err
	}
	// Only this process can learn that the answer was shown (AnswerSent):
	// the copy is its own until past its due time; another process takes
	// it only when this one died, and reconciles it (Reconcile).
	if err := tx.Outbox().Claim(id, a.Process, now, now.Add(answerGrace+a.claimTTL())); err != nil {
		return err
	}
	resp.Committed, resp.answerID = true, id
	return nil
}

// withoutFiles is m without its files (and without card images that show
// them): the copy saved with every answer stays small, so saving it costs
// the action almost nothing. It is what a crash before the answer shows;
// an answer lost in sending is shown whole (AnswerLost has it).
func withoutFiles(m Message) Message {
	if len(m.Files) == 0 {
		return m
	}
	names := map[string]bool{}
	for _, f := range m.Files {
		names[f.Name] = true
	}
	cards := make([]*ui.Card, len(m.Cards))
	for i, c := range m.Cards {
		cc := *c
		if names[cc.Image] {
			cc.Image = ""
		}
		if names[cc.Thumbnail] {
			cc.Thumbnail = ""
		}
		cards[i] = &cc
	}
	m.Cards, m.Files = cards, nil
	return m
}

// AnswerSent is called by the adapter once the answer r is shown: its
// saved copy (see saveAnswer) will be dropped instead of delivered.
func (a *App) AnswerSent(r *Response) {
	if r == nil || r.answerID == "" {
		return
	}
	a.shownMu.Lock()
	if a.shown == nil {
		a.shown = map[string]bool{}
	}
	a.shown[r.answerID] = true
	a.shownMu.Unlock()
}

// AnswerLost is called by the adapter when the public answer r, in
// channelID (messageID: the clicked component's message, if any), could not
// be sent although its change was saved (r.Committed): its saved copy is
// delivered at once; an answer that updates the clicked message, which has
// no saved copy, is queued now as the edit of that message.
func (a *App) AnswerLost(channelID, messageID string, r *Response) {
	if r == nil || !r.Committed || r.Ephemeral || r.Modal != nil {
		return
	}
	if r.answerID == "" {
		if !r.Update || messageID == "" {
			return
		}
		m := r.Message
		e := Effect{Op: OpEdit, Channel: channelID, Message: messageID, Body: &m}
		if err := a.update(func(tx storage.Tx) error { return a.enqueue(tx, "answer-"+newID(), nil, []Effect{e}) }); err != nil {
			a.Log.Error("saving a lost answer failed", "channel", channelID, "err", err)
			return
		}
		a.kick()
		return
	}
	// The saved copy has no files: post the whole answer instead.
	m := r.Message
	e := Effect{Op: OpPost, Channel: channelID, Body: &m, Reconcile: true, Game: r.final, Final: r.final != ""}
	err := a.update(func(tx storage.Tx) error {
		if err := tx.Outbox().Done(r.answerID); err != nil {
			return err
		}
		return a.enqueue(tx, "answer-"+newID(), nil, []Effect{e})
	})
	if err != nil {
		a.Log.Error("showing a lost answer failed", "effect", r.answerID, "err", err)
		return
	}
	a.kick()
}

// dropShownBatch bounds the copies one transaction drops: each is two
// writes, within etcd's 128 operations per transaction.
const dropShownBatch = 50

// dropShown removes from the outbox the answer copies confirmed shown
// (AnswerSent) so far, in a few transactions: left until due, they would
// fill the outbox with a copy of every answer of the last answerGrace,
// which every delivery pass scans. A batch that fails goes back to the set
// (dropped later, or when due).
func (a *App) dropShown() error {
	a.shownMu.Lock()
	ids := make([]string, 0, len(a.shown))
	for id := range a.shown {
		ids = append(ids, id)
	}
	a.shown = nil
	a.shownMu.Unlock()
	for len(ids) > 0 {
		batch := ids[:min(dropShownBatch, len(ids))]
		ids = ids[len(batch):]
		err := a.update(func(tx storage.Tx) error {
			for _, id := range batch {
				if err := tx.Outbox().Done(id); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			a.shownMu.Lock()
			if a.shown == nil {
				a.shown = map[string]bool{}
			}
			for _, id := range append(batch, ids...) {
				a.shown[id] = true
			}
			a.shownMu.Unlock()
			return err
		}
	}
	return nil
}

// wasShown reports, once, whether the answer copy id was confirmed shown.
func (a *App) wasShown(id string) bool {
	a.shownMu.Lock()
	defer a.shownMu.Unlock()
	ok := a.shown[id]
	delete(a.shown, id)
	return ok
}

// Due counts the effects Deliver would perform at now (each game's next
// one, when due, unless another process holds it): zero means everything
// due by now that this process may deliver has been delivered.
func (a *App) Due(now time.Time) int {
	n := 0
	_ = a.view(func(tx storage.Tx) error {
		ps, err := tx.Outbox().HeadsFor(a.Process, now, 1<<20)
		n = len(ps)
		return err
	})
	return n
}

// HandOver is called when this process stops, after its last Deliver: the
// answer copies it knows were shown are dropped, and its claims on the
// rest end at once, so that the other processes (or this one, restarted)
// deliver them without waiting for the claims to run out. What it hands
// over is reconciled by whoever takes it.
func (a *App) HandOver(now time.Time) error {
	a.shownMu.Lock()
	shown := make([]string, 0, len(a.shown))
	for id := range a.shown {
		shown = append(shown, id)
	}
	a.shownMu.Unlock()
	var n int
	err := a.update(func(tx storage.Tx) error {
		for _, id := range shown {
			if err := tx.Outbox().Done(id); err != nil {
				return err
			}
		}
		var err error
		n, err = tx.Outbox().Release(a.Process, now)
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		a.Log.Info("handed over the effects this process had claimed", "owner", a.Process, "count", n)
	}
	return nil
}

// Pending counts the effects not delivered yet.
func (a *App) Pending() int {
	n := 0
	_ = a.view(func(tx storage.Tx) error {
		var err error
		n, err = tx.Outbox().Len()
		return err
	})
	return n
}

// Deliver performs every effect due at now, each stream in order, until
// none is due; it returns how many it performed. A failed effect is retried
// later with backoff (its stream waits); a refusal that retrying cannot
// change (a 4xx other than 429) drops it, logged. Deliver is safe to call
// from one goroutine at a time.
func (a *App) Deliver(ctx context.Context, now time.Time) (int, error) {
	a.deliverMu.Lock()
	defer a.deliverMu.Unlock()
	if err := a.dropShown(); err != nil {
		return 0, err
	}
	done := 0
	for {
		var heads []storage.Pending
		if err := a.view(func(tx storage.Tx) error {
			var err error
			heads, err = tx.Outbox().HeadsFor(a.Process, now, 64)
			return err
		}); err != nil {
			return done, err
		}
		if len(heads) == 0 {
			return done, nil
		}
		progress := false
		for _, p := range heads {
			if err := ctx.Err(); err != nil {
				return done, err
			}
			ok, err := a.deliverOne(ctx, p, now, false)
			if err != nil {
				return done, err
			}
			if ok {
				done++
				progress = true
			}
		}
		if !progress {
			return done, nil
		}
	}
}

// deliverOne performs one effect and records the result; ok reports it is
// done (performed or dropped). gameLocked says the caller holds the lock of
// the effect's game (an action delivering its own effects).
func (a *App) deliverOne(ctx context.Context, p storage.Pending, now time.Time, gameLocked bool) (ok bool, err error) {
	if a.wasShown(p.ID) {
		return true, a.update(func(tx storage.Tx) error { return tx.Outbox().Done(p.ID) })
	}
	var e Effect
	if err := json.Unmarshal(p.Effect, &e); err != nil {
		a.Log.Error("dropping a corrupt effect", "effect", p.ID, "err", err)
		return true, a.update(func(tx storage.Tx) error { return tx.Outbox().Done(p.ID) })
	}
	maybeDone := !a.fresh(p)
	if mine, err := a.claim(p, now); err != nil || !mine {
		return false, err
	}
	a.try(p.ID)
	pctx, cancel := context.WithTimeout(ctx, a.deliveryTimeout())
	id, err := a.perform(pctx, &e, maybeDone)
	cancel()
	if errors.Is(err, errWaiting) {
		err = a.update(func(tx storage.Tx) error { return tx.Outbox().Retry(p.ID, p.Attempts, now.Add(time.Second)) })
		return false, err
	}
	if err != nil && !permanent(err) && p.Attempts+1 < maxAttempts {
		a.Log.Warn("delivering an effect failed; retrying later", "effect", p.ID, "op", e.Op, "attempt", p.Attempts+1, "err", err)
		if a.OnRetry != nil {
			a.OnRetry()
		}
		err := a.update(func(tx storage.Tx) error {
			return tx.Outbox().Retry(p.ID, p.Attempts+1, now.Add(backoff(p.Attempts+1)))
		})
		if err == nil {
			a.settled(p.ID) // Attempts says it now
		}
		return false, err
	}
	if err != nil {
		a.Log.Error("dropping an effect Discord refuses", "effect", p.ID, "op", e.Op, "game", e.Game, "attempts", p.Attempts+1, "err", err)
		id = ""
	}
	board := id != "" && e.Op == OpBoard && e.Game != ""
	yields := id != "" && (e.Result != "" || e.Final) && e.Game != ""
	if (yields || board) && !gameLocked {
		unlock := a.lock(e.Game) // the result changes the game
		defer unlock()
	}
	err = a.update(func(tx storage.Tx) error {
		if err := tx.Outbox().Done(p.ID); err != nil {
			return err
		}
		if board {
			// In the transaction that marks the post done: each board
			// replaces the live one exactly once, whatever retries or
			// crashes came before.
			if err := a.replaceBoard(tx, p.Stream, &e, id); err != nil {
				return err
			}
		}
		if !yields {
			return nil
		}
		return a.delivered(tx, &e, id)
	})
	if err == nil {
		a.settled(p.ID)
	}
	return true, err
}

// codeTooManyEdits is Discord's refusal to edit a message older than an
// hour too many times (30046): the edit is posted as a new message.
const codeTooManyEdits = 30046

// errWaiting: the effect cannot be performed yet (its game's thread is
// not started).
var errWaiting = errors.New("waiting for the game's thread")

// permanent reports whether retrying err cannot help: Discord refused the
// request itself (4xx but 429), or the channel holds no threads.
func permanent(err error) bool {
	if errors.Is(err, ErrNoThreads) {
		return true
	}
	var pe *PlatformError
	return errors.As(err, &pe) && pe.HTTPStatus >= 400 && pe.HTTPStatus < 500 && pe.HTTPStatus != 429
}

// perform does e on the platform and returns the ID it yields (a message's
// or a thread's, "" for others). maybeDone means an earlier attempt (of
// this process, or of one that crashed) may have done it already: a post
// or a direct message is then looked for among the recent ones first.
func (a *App) perform(ctx context.Context, e *Effect, maybeDone bool) (string, error) {
	ch := e.Channel
	var rec *storage.Game
	if ch == ChannelOfGame || (e.Closing && e.Game != "") || (e.Op == OpBoard && e.InPlace) || (e.Replay && e.Game != "") {
		if err := a.view(func(tx storage.Tx) error {
			var err error
			rec, err = tx.Games().Get(e.Game)
			return err
		}); err != nil {
			return "", err
		}
	}
	if ch == ChannelOfGame {
		if rec.ThreadID == "" {
			return "", errWaiting
		}
		ch = rec.ThreadID
	}
	body := Message{}
	if e.Body != nil {
		body = *e.Body
	}
	if e.Closing && rec != nil {
		body = closingSummary(rec, e.Channel)
	}
	if e.Replay && rec != nil {
		f, caption, err := a.replayOf(rec)
		if err != nil {
			// Retrying cannot draw it: the thread's closing, queued
			// behind it, must not wait for retries.
			a.Log.Error("drawing a game's replay failed; it is not posted", "game", rec.ID, "err", err)
			return "", nil
		}
		if f == nil {
			return "", nil // nothing to replay: nothing to post
		}
		if caption != "" {
			body.Content += ": " + caption + "."
		}
		body.Files = append(append([]*ui.File(nil), body.Files...), f)
	}
	kind, ok := effectKinds[e.Op]
	if !ok {
		return "", fmt.Errorf("unknown effect %q", e.Op)
	}
	d := &delivery{e: e, ch: ch, body: body, rec: rec, maybeDone: maybeDone}
	if kind.reconcile != nil {
		if id, err := kind.reconcile(ctx, a, d); err != nil || id != "" {
			return id, err
		}
	}
	return kind.perform(ctx, a, d)
}

// delivery is one attempt at the effect e: its channel ch (ChannelOfGame
// resolved), its body as built for this attempt, its game rec when it was
// read, and maybeDone, whether an earlier attempt may have done it.
type delivery struct {
	e         *Effect
	ch        string
	body      Message
	rec       *storage.Game
	maybeDone bool
}

// effectKind is how the effects of one Op are delivered: reconcile (nil:
// nothing to reconcile) runs first and returns the ID of what an earlier
// attempt already did, "" when it finds nothing and perform must run;
// perform does the effect on the platform and returns the ID it yields.
type effectKind struct {
	reconcile func(ctx context.Context, a *App, d *delivery) (string, error)
	perform   func(ctx context.Context, a *App, d *delivery) (string, error)
}

// effectKinds is the delivery of every Op. An Op missing here is refused
// as unknown (and dropped: retrying cannot help).
var effectKinds = map[Op]effectKind{
	OpPost: {reconcile: reconcilePost, perform: send},
	// A board updated in place is reconciled by editing the live board
	// into its body (an edit does the same whatever came before); a board
	// line only (Turn.BoardLine) yields the live board and posts nothing.
	OpBoard: {
		reconcile: func(ctx context.Context, a *App, d *delivery) (string, error) {
			e := d.e
			if e.InPlace && e.Body == nil {
				return LiveBoard(d.rec, e.Channel), nil
			}
			if e.InPlace {
				if id, err := a.editBoard(ctx, d.rec, e.Channel, d.ch, d.body); err != nil || id != "" {
					return id, err
				}
			}
			return reconcilePost(ctx, a, d)
		},
		perform: send,
	},
	OpEdit: {perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
		err := a.Platform.Edit(ctx, d.ch, d.e.Message, d.body)
		var pe *PlatformError
		if errors.As(err, &pe) && pe.Code == codeTooManyEdits {
			// Discord allows no more edits of this message: post it anew.
			return a.Platform.Send(ctx, d.ch, d.body)
		}
		return "", err
	}},
	OpDM: {
		reconcile: func(ctx context.Context, a *App, d *delivery) (string, error) {
			if !d.maybeDone {
				return "", nil
			}
			recent, err := a.Platform.RecentDM(ctx, d.e.User, recentLimit)
			if id := findPost(recent, d.body); err != nil || id != "" {
				return id, err
			}
			return "", nil
		},
		perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
			e := d.e
			id, err := a.Platform.DM(ctx, e.User, d.body)
			if errors.Is(err, ErrDMClosed) {
				a.Log.Info("a direct message was not delivered: the user's DMs are closed", "user", e.User, "game", e.Game)
				if e.Result != "" {
					return DMClosed, nil
				}
				return "", nil
			}
			return id, err
		},
	},
	OpCompact: {perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
		err := a.Platform.Edit(ctx, d.ch, d.e.Message, d.body)
		var pe *PlatformError
		if errors.As(err, &pe) && pe.Code == codeTooManyEdits {
			// Posted anew, the line would land below the newer board:
			// wait until Discord allows the edit again.
			return "", fmt.Errorf("compacting board %s: Discord allows no edit of it now (%d), trying later", d.e.Message, codeTooManyEdits)
		}
		if errors.As(err, &pe) && pe.HTTPStatus == 404 {
			return "", nil // deleted meanwhile: nothing left to compact
		}
		return "", err
	}},
	OpEditDM: {perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
		err := a.Platform.EditDM(ctx, d.e.User, d.e.Message, d.body)
		var pe *PlatformError
		if errors.As(err, &pe) && pe.Code == codeTooManyEdits {
			return a.Platform.DM(ctx, d.e.User, d.body)
		}
		return "", err
	}},
	// A thread started from a message needs no reconciling: starting it
	// again yields the same thread (StartThreadFrom).
	OpStartThread: {
		reconcile: func(ctx context.Context, a *App, d *delivery) (string, error) {
			if d.e.Message != "" || !d.maybeDone {
				return "", nil
			}
			return a.unownedThread(ctx, d.e.Guild, d.ch, d.e.Name)
		},
		perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
			if d.e.Message != "" {
				return a.Platform.StartThreadFrom(ctx, d.ch, d.e.Message, d.e.Name)
			}
			return a.Platform.StartThread(ctx, d.ch, d.e.Name, d.e.Private)
		},
	},
	OpAddMember: {perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
		return "", a.Platform.AddThreadMember(ctx, d.ch, d.e.User)
	}},
	OpRemoveMember: {perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
		return "", a.Platform.RemoveThreadMember(ctx, d.ch, d.e.User)
	}},
	OpArchive: {perform: func(ctx context.Context, a *App, d *delivery) (string, error) {
		return "", a.Platform.ArchiveThread(ctx, d.ch)
	}},
}

// reconcilePost finds a post an earlier attempt made (or, with
// Effect.Reconcile, one an answer's failed sending may have shown).
func reconcilePost(ctx context.Context, a *App, d *delivery) (string, error) {
	if !d.maybeDone && !d.e.Reconcile {
		return "", nil
	}
	return a.alreadyPosted(ctx, d.ch, d.body)
}

// send posts the delivery's body in its channel.
func send(ctx context.Context, a *App, d *delivery) (string, error) {
	return a.Platform.Send(ctx, d.ch, d.body)
}

// alreadyPosted finds body among the bot's recent messages in channelID:
// the ID of the message an earlier attempt posted, or "".
func (a *App) alreadyPosted(ctx context.Context, channelID string, body Message) (string, error) {
	recent, err := a.Platform.Recent(ctx, channelID, recentLimit)
	if err != nil {
		return "", err
	}
	return findPost(recent, body), nil
}

// recentLimit is how many recent messages reconciliation reads (Discord's
// most per request).
const recentLimit = 100

// findPost is the ID of the message of recent that is body, or "".
func findPost(recent []Posted, body Message) string {
	for _, p := range recent {
		if samePost(p, body) {
			return p.ID
		}
	}
	return ""
}

// samePost compares what Recent reads back of a message with a body.
func samePost(p Posted, m Message) bool {
	if p.Content != m.Content || len(p.Cards) != len(m.Cards) {
		return false
	}
	for i, c := range m.Cards {
		if p.Cards[i].Title != c.Title || p.Cards[i].Description != c.Description || p.Cards[i].Footer != c.Footer {
			return false
		}
	}
	return true
}

// delivered feeds an effect's result back to its game, in tx: the final
// message's ID is recorded (Effect.Final); a started public thread becomes
// the game's thread; a lobby's message ID goes into the lobby
// (resultLobby); other results go to the kind.
func (a *App) delivered(tx storage.Tx, e *Effect, id string) error {
	rec, err := tx.Games().Get(e.Game)
	if err != nil {
		return err
	}
	if e.Final && rec.FinalMessage != id {
		rec.FinalMessage = id
		if err := tx.Games().Put(rec, a.Now()); err != nil {
			return err
		}
	}
	if lobby, ok := strings.CutPrefix(e.Result, resultLobby); ok {
		return setLobbyMessage(tx, lobby, id)
	}
	switch e.Result {
	case "":
		return nil
	case ResultThread:
		rec.ThreadID = id
		return tx.Games().Put(rec, a.Now())
	}
	k := a.kinds[rec.Kind]
	if k == nil || k.delivered == nil {
		return nil
	}
	return k.delivered(a, tx, rec, e.Result, id)
}

// TakeOverClaims ends, at start-up, every claim in the outbox: for a store
// only this process can be using (a bbolt file), where every claim is a
// dead run's, so its effects are delivered at once (reconciled first, as
// any effect another run claimed) instead of when the claims run out.
func (a *App) TakeOverClaims(now time.Time) error {
	var n int
	err := a.update(func(tx storage.Tx) error {
		var err error
		n, err = tx.Outbox().Release(storage.AnyOwner, now)
		return err
	})
	if err == nil && n > 0 {
		a.Log.Info("took over the effects an earlier run had claimed", "owner", a.Process, "count", n)
		a.kick()
	}
	return err
}
