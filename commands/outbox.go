package commands

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"sandtable/commands/outbox"
	"sandtable/commands/ui"
	"sandtable/internal/retry"
	"sandtable/storage"
)

// Several processes may share one store (docs/architecture.md, "Many
// processes"). An effect is delivered by the process holding its claim
// (storage.Outbox.Claim), which is bound to the process's lease
// (SetLease): the process that queues effects claims them in the same
// transaction, so it delivers them itself right after its commit with no
// further round trip; any process's dispatcher takes the effects nobody
// holds (HeadsFor), claiming each before performing it. A claim lives as
// long as its process: however long its backlog, nobody takes an effect
// from a live process. A process that dies loses its lease, so its claims
// vanish with it: another process then takes its effects over and, since
// they may have been performed already, reconciles them first. A process
// that loses its lease while alive (the store lost its majority for a
// whole TTL) stops delivering until it holds a new one, and treats its
// old claims as another's: taken again, they are reconciled first. On a
// store only one process uses (a bbolt file) there is no lease: claims
// are unbound and the process takes every claim over at start
// (TakeOverClaims).

// DefaultDeliveryTimeout bounds one delivery unless
// Settings.DeliveryTimeout says otherwise: a Discord request that hangs is
// given up and retried later (reconciled first).
const DefaultDeliveryTimeout = 20 * time.Second

func (a *App) deliveryTimeout() time.Duration {
	if a.Settings.DeliveryTimeout > 0 {
		return a.Settings.DeliveryTimeout
	}
	return DefaultDeliveryTimeout
}

// leases is the lease this process's claims are bound to.
type leases struct {
	mu     sync.Mutex
	shared bool          // the store is shared: a claim needs a live lease
	lease  storage.Lease // nil: none yet, or lost
}

// SetLease gives the App the lease its claims are bound to (the store is
// shared by several processes); nil says the lease was lost: the App stops
// delivering until it is given a new one. Without a call, claims are bound
// to nothing (a store one process uses).
func (a *App) SetLease(l storage.Lease) {
	a.leases.mu.Lock()
	a.leases.shared, a.leases.lease = true, l
	a.leases.mu.Unlock()
	if l != nil {
		a.kick() // the claims of a lost lease are this process's to take again
	}
}

// currentLease is the lease to bind claims to and whether this process may
// claim and deliver at all: always without a lease (0) on a store one
// process uses; on a shared store, only while it holds a live lease.
func (a *App) currentLease() (storage.Lease, int64, bool) {
	a.leases.mu.Lock()
	defer a.leases.mu.Unlock()
	if !a.leases.shared {
		return nil, 0, true
	}
	l := a.leases.lease
	if l == nil {
		return nil, 0, false
	}
	select {
	case <-l.Done():
		return nil, 0, false
	default:
		return l, l.ID(), true
	}
}

// enqueue saves effects in the outbox stream of stream, in tx, claimed by
// this process (left unclaimed, for any process, when it holds no lease).
// It changes nothing outside tx, so a transaction run again
// (storage.Store.Update) may call it again.
func (a *App) enqueue(tx storage.Tx, stream string, rec *storage.Game, effects []Effect) error {
	effects, err := a.expandPings(tx, rec, effects)
	if err != nil {
		return err
	}
	_, lease, ok := a.currentLease()
	return a.addEffects(tx, stream, rec, effects, func(id string, now time.Time) error {
		if !ok {
			return nil
		}
		return tx.Outbox().Claim(id, a.Process, lease)
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
// by this process alone under its current lease (one claim, its writer's),
// never failed, and not attempted by this process since (an attempt whose
// outcome could not be recorded). Any other effect (claimed by a process
// that died, or by this one under a lease it lost, or queued unclaimed)
// may have been performed by a process that could not record it: its
// delivery is reconciled first.
func (a *App) fresh(p storage.Pending) bool {
	_, lease, ok := a.currentLease()
	if !ok || p.Attempts > 0 || p.Claims != 1 || p.Owner != a.Process || p.Lease != lease {
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

// markDone remembers that this process recorded the effect id done
// (wasDone).
func (a *App) markDone(id string) {
	a.shownMu.Lock()
	defer a.shownMu.Unlock()
	if a.done == nil {
		a.done = map[string]bool{}
	}
	if len(a.doneOrder) >= recentlyDone {
		delete(a.done, a.doneOrder[0])
		a.doneOrder = a.doneOrder[1:]
	}
	a.done[id] = true
	a.doneOrder = append(a.doneOrder, id)
}

// recentlyDone is how many effects this process remembers having recorded
// done (wasDone).
const recentlyDone = 4096

// wasDone reports whether this process recorded the effect id done: a head
// read before another of its deliveries finished it (the dispatcher's and
// an action's own delivery take turns on a stream) must not be performed
// again. A Replace ping performed twice deleted the first post (its own,
// recorded by then) and posted again: the player was pinged twice.
func (a *App) wasDone(id string) bool {
	a.shownMu.Lock()
	defer a.shownMu.Unlock()
	return a.done[id]
}

// claim makes sure this process holds the claim on p under its current
// lease and returns that lease (nil without one): a claim it holds already
// needs no transaction. ok false: the effect is another live process's, or
// done, or this process holds no lease.
func (a *App) claim(p storage.Pending) (lease storage.Lease, ok bool, err error) {
	l, id, live := a.currentLease()
	if !live {
		return nil, false, nil
	}
	if p.Owner == a.Process && p.Lease == id {
		return l, true, nil
	}
	err = a.update(func(tx storage.Tx) error { return tx.Outbox().Claim(p.ID, a.Process, id) })
	if errors.Is(err, storage.ErrClaimed) || errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrLeaseLost) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if p.Claims > 0 {
		a.Log.Info("took over an effect claimed before", "owner", a.Process, "effect", p.ID, "claims", p.Claims+1)
	}
	return l, true, nil
}

// whileLeased is ctx, ended also when lease (if any) is lost: a process
// that lost its lease stops delivering, since others may take its effects.
func whileLeased(ctx context.Context, lease storage.Lease) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	if lease == nil {
		return ctx, cancel
	}
	go func() {
		select {
		case <-lease.Done():
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// deliverNowBudget bounds how long an action waits for its own effects
// before answering (see deliverNow).
const deliverNowBudget = time.Second

// deliverNow performs, right after an action's commit and before its
// answer, the effects the action queued on stream (a game's) and on its
// board compactions, in order, while they succeed and within
// deliverNowBudget: so a game's thread shows an action's posts before the
// next action can be made, in the usual case. It does not wait for other
// games' deliveries: only a worker delivering this very stream makes it
// wait (not when the caller holds the game's lock, which that worker may
// need: it then leaves the effects to the worker). Whatever fails or
// remains is the dispatcher's, which retries as usual; a failure here is an
// attempt like any other.
func (a *App) deliverNow(ctx context.Context, stream string, gameLocked bool) {
	a.deliverNowFrom(ctx, stream, gameLocked, nil, nil)
}

// deliverNowFrom is deliverNow given stream's head as the action's
// transaction read it (nil: not read) and, when gameLocked, the game as
// that transaction saved it (nil: not saved), and reports whether it left
// the streams empty (false when it cannot tell).
func (a *App) deliverNowFrom(ctx context.Context, stream string, gameLocked bool, first *storage.Pending, game *storage.Game) (drained bool) {
	if _, _, ok := a.currentLease(); !a.DeliverInline || !ok {
		return false
	}
	deadline := time.Now().Add(deliverNowBudget)
	streams := []string{stream, compactions(stream)}
	next := &nextHeads{streams: streams}
	if first != nil && a.deliverable(*first, a.Now()) {
		next.heads, next.read = []*storage.Pending{first}, true
	}
	for time.Now().Before(deadline) && ctx.Err() == nil {
		var head *storage.Pending
		now := a.Now()
		heads := next.heads
		if !next.read {
			// The first round, or the last delivery did not read them.
			if err := a.view(func(tx storage.Tx) (err error) {
				heads, err = tx.Outbox().StreamHeads(streams...)
				return err
			}); err != nil {
				return false
			}
		}
		for _, p := range heads {
			if p != nil && a.deliverable(*p, now) {
				head = p
				break
			}
		}
		if head == nil {
			return len(heads) == len(streams) && heads[0] == nil && heads[1] == nil
		}
		wait := time.Until(deadline)
		if gameLocked {
			wait = 0
		}
		if !a.streams.acquire(ctx, head.Stream, wait) {
			return false
		}
		next = &nextHeads{streams: streams}
		if !gameLocked {
			game = nil
		}
		ok, err := a.deliverOne(ctx, *head, now, gameLocked, game, next)
		a.streams.release(head.Stream)
		if err != nil || !ok {
			return false
		}
		game = next.game
	}
	return false
}

// nextHeads asks deliverOne to read, in the transaction that records an
// effect done, the heads of streams that follow (instead of a View
// after it); read says it did. game is the effect's game as that
// transaction left it, when it read it (see deliverOne's known).
type nextHeads struct {
	streams []string
	heads   []*storage.Pending
	read    bool
	game    *storage.Game
}

// kick wakes the dispatcher: there is something new to deliver.
func (a *App) kick() {
	select {
	case a.kicks <- struct{}{}:
	default:
	}
}

// Kick wakes the dispatcher from outside: another process's change may
// have given it work (a process gone: its claims are free).
func (a *App) Kick() { a.kick() }

// Kicks receives a value whenever effects were saved: the bot's dispatcher
// loop then calls Deliver.
func (a *App) Kicks() <-chan struct{} { return a.kicks }

// NextDelivery is when Deliver next has work (a retry's due time), the
// zero time when the outbox is empty, or now when it has work now.
func (a *App) NextDelivery() time.Time {
	var t time.Time
	_ = a.view(func(tx storage.Tx) (err error) {
		t, err = a.nextDelivery(tx)
		return err
	})
	return t
}

// answerGrace is how long the saved copy of an answer waits for the
// adapter to show the answer itself (AnswerSent) before the outbox shows it.
const answerGrace = 30 * time.Second

// saveAnswer queues in tx (on stream, a new one), due after answerGrace, a copy of resp, the
// public answer to req whose change tx saves: the adapter confirms it once
// the answer is shown (AnswerSent), and the copy is then dropped; after a
// failed send AnswerLost posts the whole answer instead, and after a crash
// before the answer the outbox posts the copy, unless it was shown. An
// answer that updates the clicked message is not copied: replayed after a
// restart, it could undo a later edit of that message (the framework
// closes a challenge's message with an effect of its own).
func (a *App) saveAnswer(tx storage.Tx, stream string, req *Request, resp *Response, now time.Time) error {
	if !a.AnswerCopies || resp == nil || req == nil || resp.Ephemeral || resp.Modal != nil || resp.Update || req.ChannelID == "" {
		return nil
	}
	m := withoutFiles(resp.Message)
	e := Effect{Op: OpPost, Channel: req.ChannelID, Body: &m, Reconcile: true, Queued: now, Game: resp.final, Final: resp.final != ""}
	id, err := tx.Outbox().Add(stream, e)
	if err != nil {
		return err
	}
	if err := tx.Outbox().Retry(id, 0, now.Add(answerGrace)); err != nil {
		return err
	}
	// Only this process can learn that the answer was shown (AnswerSent):
	// the copy is its own while it lives; another process takes it only
	// when this one died, and reconciles it (Reconcile).
	if _, lease, ok := a.currentLease(); ok {
		if err := tx.Outbox().Claim(id, a.Process, lease); err != nil {
			return err
		}
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
// rest end at once (its lease is revoked), so that the other processes (or
// this one, restarted) deliver them without waiting for the lease to run
// out. What it hands over is reconciled by whoever takes it.
func (a *App) HandOver(now time.Time) error {
	a.shownMu.Lock()
	shown := make([]string, 0, len(a.shown))
	for id := range a.shown {
		shown = append(shown, id)
	}
	a.shownMu.Unlock()
	lease, _, _ := a.currentLease()
	var n int
	err := a.update(func(tx storage.Tx) error {
		for _, id := range shown {
			if err := tx.Outbox().Done(id); err != nil {
				return err
			}
		}
		if lease != nil {
			return nil // revoked below
		}
		var err error
		n, err = tx.Outbox().Release(a.Process)
		return err
	})
	if err != nil {
		return err
	}
	if lease != nil {
		// Its claims end with it, however many (one transaction could not
		// delete more than etcd's 128 operations).
		if err := lease.Revoke(context.Background()); err != nil {
			return err
		}
		a.Log.Info("handed over the effects this process had claimed: its lease is revoked", "owner", a.Process)
	} else if n > 0 {
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

// DefaultWorkers is how many streams Deliver delivers at once unless
// App.Workers says otherwise.
const DefaultWorkers = 8

func (a *App) workers() int {
	if a.Workers > 0 {
		return a.Workers
	}
	return DefaultWorkers
}

// Deliver performs every effect due at now, each stream in order, until
// none is due; it returns how many it performed. The streams are delivered
// in parallel by at most App.Workers workers, each stream by one at a time
// (a stream an action is delivering itself, or parked behind its replay,
// is skipped). A failed effect is retried later with the retry policy's
// delay (its stream waits); a refusal that retrying cannot change drops
// it, logged. Deliver may be called from several goroutines.
func (a *App) Deliver(ctx context.Context, now time.Time) (int, error) {
	n, _, _, err := a.DeliverNext(ctx, now)
	return n, err
}

// DeliverNext is Deliver, and then NextDelivery when it could tell it
// without a read of its own (known): when its last look at the outbox
// found nothing due for it, that look's next due time.
func (a *App) DeliverNext(ctx context.Context, now time.Time) (n int, next time.Time, known bool, err error) {
	if _, _, ok := a.currentLease(); !ok {
		return 0, time.Time{}, false, nil // no lease: nothing to deliver until the next one
	}
	if err := a.dropShown(); err != nil {
		return 0, time.Time{}, false, err
	}
	n, next, known, err = a.deliver(ctx, now)
	return n, next, known && err == nil, err
}

// nextDelivery is NextDelivery's answer in tx.
func (a *App) nextDelivery(tx storage.Tx) (time.Time, error) {
	t, err := tx.Outbox().NextDue()
	if err != nil || !t.IsZero() {
		return t, err
	}
	// Zero: an empty outbox, or a head due at once.
	now := a.Now()
	hs, err := tx.Outbox().Heads(now, 1)
	if err == nil && len(hs) > 0 {
		t = now
	}
	return t, err
}

// deliver is Deliver, with NextDelivery when its last look found nothing
// due for it.
func (a *App) deliver(ctx context.Context, now time.Time) (int, time.Time, bool, error) {
	var (
		mu       sync.Mutex
		done     int
		firstErr error
	)
	for {
		var heads []storage.Pending
		var next time.Time
		if err := a.view(func(tx storage.Tx) error {
			var err error
			if heads, err = tx.Outbox().HeadsFor(a.Process, now, 64); err != nil || len(heads) > 0 {
				return err
			}
			next, err = a.nextDelivery(tx)
			return err
		}); err != nil {
			return done, time.Time{}, false, err
		}
		if len(heads) == 0 {
			return done, next, true, nil
		}
		progress := false
		sem := make(chan struct{}, a.workers())
		var wg sync.WaitGroup
		for _, p := range heads {
			if err := ctx.Err(); err != nil {
				wg.Wait()
				return done, time.Time{}, false, err
			}
			if !a.streams.acquire(ctx, p.Stream, 0) {
				continue
			}
			sem <- struct{}{}
			wg.Add(1)
			go func(p storage.Pending) {
				defer func() { a.streams.release(p.Stream); <-sem; wg.Done() }()
				n, err := a.deliverStream(ctx, p, now)
				mu.Lock()
				defer mu.Unlock()
				done += n
				progress = progress || n > 0
				if err != nil && firstErr == nil {
					firstErr = err
				}
			}(p)
		}
		wg.Wait()
		if firstErr != nil {
			return done, time.Time{}, false, firstErr
		}
		if !progress {
			return done, time.Time{}, false, nil
		}
	}
}

// deliverable reports whether a stream's head p is this process's to
// deliver at now (as HeadsFor offers it): due, and not another live
// process's.
func (a *App) deliverable(p storage.Pending, now time.Time) bool {
	return !p.Due.After(now) && (p.Owner == "" || p.Owner == a.Process)
}

// deliverStream delivers head and the effects of its stream that follow
// it, in order, while they are due and succeed; the caller holds the
// stream (a.streams). It returns how many it performed.
func (a *App) deliverStream(ctx context.Context, head storage.Pending, now time.Time) (int, error) {
	n := 0
	p := &head
	for p != nil && ctx.Err() == nil {
		after := &nextHeads{streams: []string{head.Stream}}
		ok, err := a.deliverOne(ctx, *p, now, false, nil, after)
		if err != nil || !ok {
			return n, err
		}
		n++
		next := after.heads
		if !after.read {
			if err := a.view(func(tx storage.Tx) (err error) {
				next, err = tx.Outbox().StreamHeads(head.Stream)
				return err
			}); err != nil {
				return n, err
			}
		}
		p = nil
		if next[0] != nil && a.deliverable(*next[0], now) {
			p = next[0]
		}
	}
	return n, nil
}

// deliverOne performs one effect and records the result; ok reports it is
// done (performed or dropped). gameLocked says the caller holds the lock of
// the effect's game (an action delivering its own effects). When it
// records the effect performed, the transaction that does reads the heads
// of after.streams too (after.read). known, when gameLocked, is the game as
// the last transaction of the caller's sequence (the action's commit, or
// the previous effect's record) left it: the delivery reads it instead of
// the store. Under the game's lock nothing else in this process changes
// the game, and what a delivery reads of it (its thread, live boards,
// pings, final message) changes only when its streams' effects are
// recorded done, in order, which this sequence does; so it is the game a
// View would have read right after that transaction, and whatever the
// delivery then records is read and compared again in its own
// transaction.
func (a *App) deliverOne(ctx context.Context, p storage.Pending, now time.Time, gameLocked bool, known *storage.Game, after *nextHeads) (ok bool, err error) {
	if a.wasDone(p.ID) {
		return true, nil // a stale head: delivered meanwhile (the caller reads the heads again)
	}
	if a.wasShown(p.ID) {
		return true, a.update(func(tx storage.Tx) error { return tx.Outbox().Done(p.ID) })
	}
	var e Effect
	if err := json.Unmarshal(p.Effect, &e); err != nil {
		a.Log.Error("dropping a corrupt effect", "effect", p.ID, "err", err)
		return true, a.update(func(tx storage.Tx) error { return tx.Outbox().Done(p.ID) })
	}
	var drawn *drawnReplay
	if e.Replay && e.Game != "" {
		var rec *storage.Game
		if err := a.view(func(tx storage.Tx) (err error) { rec, err = tx.Games().Get(e.Game); return err }); err != nil {
			return false, err
		}
		if drawn = a.replay(p.ID, p.Stream, rec); drawn == nil {
			return false, nil // parked until drawn
		}
		defer a.forgetReplay(p.ID)
	}
	maybeDone := !a.fresh(p)
	lease, mine, err := a.claim(p)
	if err != nil || !mine {
		return false, err
	}
	a.try(p.ID)
	lctx, stop := whileLeased(ctx, lease)
	pctx, cancel := context.WithTimeout(lctx, a.deliveryTimeout())
	// Every create the delivery makes carries the effect's nonce, so a
	// repeat (a retry after a lost answer) is answered with the message
	// already created; 429s and 5xx reach the retry policy below.
	pctx = retry.WithoutTransportRetries(retry.WithNonce(pctx, retry.Nonce(p.ID)))
	if !gameLocked || known == nil || known.ID != e.Game {
		known = nil
	}
	id, err := a.perform(pctx, &e, maybeDone, drawn, known)
	cancel()
	lost := lctx.Err() != nil && ctx.Err() == nil
	stop()
	if lost {
		return false, nil // the lease is lost: whoever takes the effect reconciles it
	}
	if errors.Is(err, errWaiting) {
		err = a.update(func(tx storage.Tx) error { return tx.Outbox().Retry(p.ID, p.Attempts, now.Add(time.Second)) })
		return false, err
	}
	if errors.Is(err, outbox.ErrNoThreads) {
		err = retry.Permanent(err)
	}
	if delay, again := retry.Effects.Delay(p.Attempts+1, err); again {
		a.Log.Warn("delivering an effect failed; retrying later", "effect", p.ID, "op", e.Op, "attempt", p.Attempts+1, "delay", delay, "err", err)
		if a.OnRetry != nil {
			a.OnRetry()
		}
		err := a.update(func(tx storage.Tx) error {
			return tx.Outbox().Retry(p.ID, p.Attempts+1, now.Add(delay))
		})
		if errors.Is(err, storage.ErrNotFound) {
			err = nil // replaced meanwhile (a newer rename: App.enqueueLatest)
		}
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
	// A replacing ping deleted the pings before it even when it posted
	// nothing (a direct message to closed DMs, a refusal).
	ping := (id != "" && e.Op == OpPing || e.Op == OpUnping || e.Op == OpPing && e.Replace) && e.Game != ""
	yields := id != "" && (e.Result != "" || e.Final) && e.Game != ""
	if (yields || board || ping) && !gameLocked {
		unlock := a.lock(e.Game) // the result changes the game
		defer unlock()
	}
	var heads []*storage.Pending
	var game *storage.Game // as this transaction leaves it, when it reads it
	// Under ctx's values (an action's storage.Carry), not its end: the
	// outcome is recorded whatever happens to the caller.
	err = a.Store.Update(context.WithoutCancel(ctx), func(tx storage.Tx) error {
		game = nil
		hints := []storage.Hint{storage.HintDone(p.ID)}
		if board || yields || ping {
			hints = append(hints, storage.HintGame(e.Game))
		}
		if board {
			hints = append(hints, storage.HintAdd(compactions(p.Stream))) // the replaced board's compaction
		}
		if after != nil {
			for _, s := range after.streams {
				hints = append(hints, storage.HintNextHead(s))
			}
		}
		tx.Prefetch(hints...)
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
		if ping {
			// Recorded with the ping's post (or cleared with the deletes):
			// each ping is deleted by the next turn's, whatever retries or
			// crashes came before.
			if err := a.recordPing(tx, &e, id); err != nil {
				return err
			}
		}
		if yields {
			if err := a.delivered(tx, &e, id); err != nil {
				return err
			}
		}
		if after == nil {
			return nil
		}
		if gameLocked && (board || yields || ping) {
			// Read above (hinted): no request of its own.
			g, err := tx.Games().Get(e.Game)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			game = g
		}
		var err error
		heads, err = tx.Outbox().StreamHeads(after.streams...)
		return err
	})
	if yields && e.Result == ResultThread {
		a.forgetThread(e.Game)
	}
	if err == nil {
		a.settled(p.ID)
		a.markDone(p.ID)
		a.observeDone(p, e.Queued)
		if after != nil {
			after.heads, after.read, after.game = heads, true, game
		}
	}
	return true, err
}

// errWaiting: the effect cannot be performed yet (its game's thread is
// not started).
var errWaiting = errors.New("waiting for the game's thread")

// perform does e on the platform and returns the ID it yields (a message's
// or a thread's, "" for others). maybeDone means an earlier attempt (of
// this process, or of one that crashed) may have done it already: a post
// or a direct message is then looked for among the recent ones first.
// drawn is a replay's drawing (Effect.Replay).
func (a *App) perform(ctx context.Context, e *Effect, maybeDone bool, drawn *drawnReplay, known *storage.Game) (string, error) {
	ch := e.Channel
	var rec *storage.Game
	needGame := (e.Closing && e.Game != "") || (e.Op == OpBoard && e.InPlace) || (e.Replay && e.Game != "") || e.Op == OpUnping || (e.Op == OpPing && e.Replace)
	thread := ""
	if ch == ChannelOfGame && !needGame {
		thread = a.threadOf(e.Game)
	}
	if known != nil && (needGame || (ch == ChannelOfGame && thread == "")) {
		rec, thread = known, known.ThreadID
		a.learnThread(rec)
	} else if needGame || (ch == ChannelOfGame && thread == "") {
		if err := a.view(func(tx storage.Tx) error {
			var err error
			rec, err = tx.Games().Get(e.Game)
			return err
		}); err != nil {
			return "", err
		}
		thread = rec.ThreadID
		a.learnThread(rec)
	}
	if ch == ChannelOfGame {
		if thread == "" {
			return "", errWaiting
		}
		ch = thread
	}
	body := Message{}
	if e.Body != nil {
		body = *e.Body
	}
	if e.Closing && rec != nil {
		body = closingSummary(rec, e.Channel)
	}
	if e.Replay && rec != nil && drawn != nil {
		if drawn.err != nil {
			// Retrying cannot draw it: the thread's closing, queued
			// behind it, must not wait for retries.
			a.Log.Error("drawing a game's replay failed; it is not posted", "game", rec.ID, "err", drawn.err)
			return "", nil
		}
		if drawn.file == nil {
			return "", nil // nothing to replay: nothing to post
		}
		if drawn.caption != "" {
			body.Content += ": " + drawn.caption + "."
		}
		body.Files = append(append([]*ui.File(nil), body.Files...), drawn.file)
	}
	return outbox.Perform(ctx, a.Platform, a.Log, deliveryHost{a}, &outbox.Delivery{Effect: e, Channel: ch, Body: body, Game: rec, MaybeDone: maybeDone})
}

// threadOf is the thread of the game id as last read by this process, ""
// when not known. A game's thread, once stored, never changes (a game
// gets it when created, or from a started thread's result when it had
// none), so what was read stays true.
func (a *App) threadOf(id string) string {
	a.threadsMu.Lock()
	defer a.threadsMu.Unlock()
	return a.threads[id]
}

// maxThreads bounds App.threads (then it is forgotten all at once).
const maxThreads = 4096

// learnThread remembers rec's thread (threadOf).
func (a *App) learnThread(rec *storage.Game) {
	if rec == nil || rec.ThreadID == "" {
		return
	}
	a.threadsMu.Lock()
	defer a.threadsMu.Unlock()
	if a.threads == nil || len(a.threads) >= maxThreads {
		a.threads = map[string]string{}
	}
	a.threads[rec.ID] = rec.ThreadID
}

// forgetThread forgets what threadOf knows of the game id.
func (a *App) forgetThread(id string) {
	a.threadsMu.Lock()
	defer a.threadsMu.Unlock()
	delete(a.threads, id)
}

// deliveryHost is the App as outbox.Perform needs it.
type deliveryHost struct{ a *App }

func (h deliveryHost) EditBoard(ctx context.Context, rec *storage.Game, channel, ch string, body Message) (string, error) {
	return h.a.editBoard(ctx, rec, channel, ch, body)
}

func (h deliveryHost) UnownedThread(ctx context.Context, guildID, parentID, name string) (string, error) {
	return h.a.unownedThread(ctx, guildID, parentID, name)
}

// delivered feeds an effect's result back to its game, in tx: the final
// message's ID is recorded (Effect.Final); a started public thread becomes
// the game's thread; a lobby's message ID goes into the lobby
// (resultLobby), a challenge's into the challenge (resultChallenge); other results go to the kind.
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
	if ch, ok := strings.CutPrefix(e.Result, resultChallenge); ok {
		return setChallengeMessage(tx, ch, id)
	}
	switch e.Result {
	case "":
		return nil
	case ResultThread:
		a.forgetThread(rec.ID) // and again once committed (deliverOne)
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
		n, err = tx.Outbox().Release(storage.AnyOwner)
		return err
	})
	if err == nil && n > 0 {
		a.Log.Info("took over the effects an earlier run had claimed", "owner", a.Process, "count", n)
		a.kick()
	}
	return err
}
