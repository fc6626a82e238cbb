package commands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Computer players (issue 16 item 2). A seat of a game may be played by
// the bot's computer player: storage.Game.Computers names those seats (a
// user ID the game knows the seat by, and the engine level), and the game
// is unrated.
//
// A pending computer move is a framework timer, stored with the game like
// its deadline and reminder: storage.Game.ComputerMove, indexed with them.
// finish sets it (due at once) whenever a computer seat is among those
// who must act (Clock.Actors) after a change, in the transaction of that
// change, and clears it otherwise; so a restart finds it and resumes the
// move. Sweep hands due games to a bounded pool of workers (started on
// first use; Settings.ComputerWorkers of them), and so does every commit
// that leaves one pending, so that the move is made at once rather than at
// the next sweep. A worker makes one computer action of a game and then
// hands the game back to the end of the queue if another is pending (the
// next action of a SandTable turn, another computer seat, a thought made
// stale): games waiting take turns.
//
// A worker reads the game, decodes its state and asks the game's
// Computer.Think for an action, with a time budget (Settings.ComputerBudget)
// and a seed fixed by the game ID, the clock's key (the ply, turn or phase)
// and the seat: all outside the game's lock, and never in an interaction's
// handler. Then it takes the lock and runs the action through the normal
// path (a Turn, the clock rule, one transaction with the effects) only if
// the game's state is still the one it read (same codec version, same
// bytes; a change of the record alone, such as a live board recorded as
// delivered, leaves the search valid); else it thinks again on the new
// state. The move is so posted exactly as a human's is.
//
// Never stuck: Think runs in a goroutine of its own, watched by its
// worker. Past its budget plus a grace (ComputerGrace) its context is
// cancelled, and it must then return at once its best action so far; if
// it returns none, the computer plays First (a legal action found without
// a search). Go cannot stop a goroutine: a Think still running a grace
// after its cancellation is abandoned (left to end alone; it applies
// nothing, its result is dropped) and the computer plays First, so its
// worker is free again: the abandoned search's slot in the pool is
// replaced by it. While as many searches are abandoned and still running
// as there are workers (the cap: each may hold a core), no Think starts:
// the computer plays First at once, and this is logged. So one game holds
// a worker for at most its budget plus three graces (a stuck Think, then
// a stuck First), and another game's computer never waits longer for it.

// Computer is what a game offers to let the bot's computer player take a
// seat (Spec.Computer).
type Computer[S any] struct {
	// Levels are the engine's level names, weakest first; Default is the
	// level of a challenge that names none.
	Levels  []string
	Default string
	// Aliases are former level names that the level option still accepts,
	// each with the level it names now ("casual": "easy"). A stored seat
	// may hold one: Think and First must accept them.
	Aliases map[string]string
	// Think chooses what the computer seat does next in s: an action run
	// (through a Turn whose Req is from the seat's user, with no
	// interaction) on s as it is, or on nothing else: the framework runs it
	// only while the game is unchanged. It runs outside the game's lock and
	// must not touch the store; seed fixes every choice it makes, budget
	// caps its search time. When ctx is cancelled (the budget and a grace
	// are spent) it must return at once with its best action so far.
	Think func(ctx context.Context, s S, seat storage.ComputerSeat, seed uint64, budget time.Duration) (Action[S], error)
	// First is a legal action in s found at once, without a search (the
	// first legal move found, without generating them all): what the
	// computer plays when Think was stopped and returned none, was
	// abandoned, or may not start (see "Never stuck" above). nil: Think
	// with a context already cancelled.
	First func(s S, seat storage.ComputerSeat, seed uint64) (Action[S], error)
	// Name is how messages name the computer of seat ("Computer
	// (easy)"); nil: "Computer (<level>)".
	Name func(seat storage.ComputerSeat) string
}

// ComputerName is how the computer playing seat is named in messages and
// lists: "Computer (easy)".
func ComputerName(seat storage.ComputerSeat) string {
	if seat.Level == "" {
		return "Computer"
	}
	return "Computer (" + seat.Level + ")"
}

// DefaultComputerWorkers and DefaultComputerBudget apply when Settings
// leaves them zero.
const (
	DefaultComputerWorkers = 2
	DefaultComputerBudget  = 5 * time.Second
)

// ComputerGrace is how long past its budget a Think may run before it is
// cancelled, and how long after that before it is abandoned: a quarter of
// the budget, from 1 s to 5 s (an engine stops at its budget by itself;
// the grace covers a busy machine).
func ComputerGrace(budget time.Duration) time.Duration {
	return min(max(budget/4, time.Second), 5*time.Second)
}

// computerRetry is when a computer move that failed is tried again.
const computerRetry = time.Minute

// computerKind is the state-typed part of the computer player of a kind
// registered with Register.
type computerKind struct {
	levels  []string
	deflt   string
	aliases map[string]string
	nameOf  func(storage.ComputerSeat) string
	actor   func(a *App, rec *storage.Game) (storage.ComputerSeat, string, bool, error)
	move    func(a *App, rec *storage.Game, seat storage.ComputerSeat, key string) (stale bool, err error)
}

// computerPool is the bounded pool of workers that compute computer moves.
type computerPool struct {
	once    sync.Once
	queue   chan string
	mu      sync.Mutex
	pending map[string]bool // queued or being computed
	again   map[string]bool // handed again while being computed: run once more
	runs    map[string]int  // thoughts since the game was handed (maxComputerRuns)
	stop    chan struct{}
	wg      sync.WaitGroup
	stopped bool
	workers int
	// abandoned counts the thoughts abandoned and still running (see
	// "Never stuck"); at workers, no Think starts.
	abandoned atomic.Int32
	// after is the watchdog's timer (nil: time's); tests drive their own.
	after func(time.Duration) (<-chan time.Time, func())
}

// timer is a channel that receives once d has passed, and its stop.
func (p *computerPool) timer(d time.Duration) (<-chan time.Time, func()) {
	if p.after != nil {
		return p.after(d)
	}
	t := time.NewTimer(d)
	return t.C, func() { t.Stop() }
}

// SetSelf records the bot's own user ID: a challenge naming it as the
// opponent is a game against the computer.
func (a *App) SetSelf(userID string) {
	a.selfMu.Lock()
	a.self = userID
	a.selfMu.Unlock()
}

// Self is the bot's own user ID ("" while unknown).
func (a *App) Self() string {
	a.selfMu.Lock()
	defer a.selfMu.Unlock()
	return a.self
}

// computerDue is when a computer must next act in rec, whose clock after
// a change is c: now when one of c's actors is a computer seat, else zero.
func computerDue(rec *storage.Game, c Clock, now time.Time) time.Time {
	for _, id := range c.Actors {
		if _, ok := rec.Computer(id); ok {
			return now
		}
	}
	return time.Time{}
}

// computerSeed is the seed of the computer's choice in game id when the
// clock's key is key, for seat: the same game at the same ply plays the
// same move.
func computerSeed(id, key, seat string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id + "/" + key + "/" + seat))
	return h.Sum64()
}

// scheduleComputer hands the game id to the computer workers, unless it
// is queued or computing already, or the queue is full (the next sweep
// hands it again).
func (a *App) scheduleComputer(id string) {
	p := &a.computers
	p.once.Do(func() {
		n := a.Settings.ComputerWorkers
		if n <= 0 {
			n = DefaultComputerWorkers
		}
		p.queue = make(chan string, 256)
		p.pending, p.again, p.runs = map[string]bool{}, map[string]bool{}, map[string]int{}
		p.stop = make(chan struct{})
		p.workers = n
		for range n {
			p.wg.Add(1)
			go a.computerWorker()
		}
	})
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	if p.pending[id] {
		// Its worker may have read the game just before this change: it
		// looks again once done (see computerWorker).
		p.again[id] = true
		return
	}
	select {
	case p.queue <- id:
		p.pending[id] = true
	default:
	}
}

// StopComputers stops the computer workers (a search running finishes
// first; what it finds is applied, or, if the store is gone, resumed by
// the next start) and waits for them.
func (a *App) StopComputers() {
	p := &a.computers
	p.once.Do(func() {}) // never start them after this
	p.mu.Lock()
	if p.stop != nil && !p.stopped {
		close(p.stop)
	}
	p.stopped = true
	p.mu.Unlock()
	p.wg.Wait()
}

func (a *App) computerWorker() {
	p := &a.computers
	defer p.wg.Done()
	for {
		select {
		case <-p.stop:
			return
		case id := <-p.queue:
			more, err := a.safeComputerMove(id)
			if err != nil {
				a.Log.Error("computer move failed", "game", id, "err", err)
			}
			p.mu.Lock()
			// Handed again while computing (its worker may have read the
			// game just before a change), or another action pending: to
			// the end of the queue, so that games waiting take turns.
			again := (p.again[id] || more) && !p.stopped
			delete(p.again, id)
			if again {
				p.runs[id]++
				if p.runs[id] >= maxComputerRuns {
					again = false // the next sweep hands it again
				}
			}
			if again {
				select {
				case p.queue <- id:
				default:
					again = false // the queue is full: the next sweep hands it again
				}
			}
			if !again {
				delete(p.pending, id)
				delete(p.runs, id)
			}
			p.mu.Unlock()
		}
	}
}

// safeComputerMove is computerMove with a panic (an engine's bug) turned
// into an error: the worker goes on, and the game's move is tried again
// after computerRetry (its clock still runs).
func (a *App) safeComputerMove(id string) (more bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
			if rec, serr := a.snapshot(id); serr == nil {
				if cerr := a.clearComputer(rec, a.Now().Add(computerRetry)); cerr != nil {
					a.Log.Error("postponing a computer move failed", "game", id, "err", cerr)
				}
			}
		}
	}()
	return a.computerMove(id)
}

// maybeComputer hands rec to the computer workers when a computer move is
// pending in it and due.
func (a *App) maybeComputer(rec *storage.Game, now time.Time) {
	if rec != nil && rec.Active && !rec.ComputerMove.IsZero() && !rec.ComputerMove.After(now) {
		a.scheduleComputer(rec.ID)
	}
}

// computerMove makes the pending computer action of the game id, if due:
// think on a snapshot, apply if the game is unchanged. more says that the
// game may need the computer again (an action was made, or the thought
// was stale): the worker hands it back to the queue, where the computer
// reads it again.
func (a *App) computerMove(id string) (more bool, err error) {
	rec, err := a.snapshot(id)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	now := a.Now()
	if !rec.Active || rec.ComputerMove.IsZero() || rec.ComputerMove.After(now) {
		return false, nil
	}
	k := a.kinds[rec.Kind]
	if k == nil || k.computer == nil {
		return false, a.clearComputer(rec, time.Time{})
	}
	seat, key, ok, err := k.computer.actor(a, rec)
	if err != nil {
		return false, err
	}
	if !ok {
		return false, a.clearComputer(rec, time.Time{}) // no computer must act: nothing pending
	}
	stale, err := k.computer.move(a, rec, seat, key)
	if err != nil {
		// Try again later rather than at every sweep; the game's clock
		// still runs.
		if cerr := a.clearComputer(rec, now.Add(computerRetry)); cerr != nil {
			a.Log.Error("postponing a computer move failed", "game", id, "err", cerr)
		}
		return false, err
	}
	if stale {
		a.Log.Info("the game changed while the computer thought: thinking again", "game", id)
	}
	return true, nil
}

// maxComputerRuns bounds the thoughts of the workers on one game handed
// once (actions and stale thoughts): the next sweep hands it again.
const maxComputerRuns = 64

// clearComputer sets the computer timer of rec to at (zero: none), under
// the game's lock, if the game is still as read.
func (a *App) clearComputer(rec *storage.Game, at time.Time) error {
	unlock := a.lock(rec.ID)
	defer unlock()
	cur, err := a.snapshot(rec.ID)
	if err != nil || cur.Version != rec.Version {
		return err
	}
	next := *cur
	next.ComputerMove = at
	err = a.update(func(tx storage.Tx) error {
		_, err := putGame(tx, &next, a.Now())
		return err
	})
	if errors.Is(err, storage.ErrConflict) {
		return nil
	}
	return err
}

// errStale: the game changed between the computer's read and its action.
var errStale = errors.New("the game changed while the computer thought")

// computerOf builds the computer part of the kind k from its Spec.
func computerOf[S any](k *kindOf[S], c *Computer[S]) *computerKind {
	nameOf := c.Name
	if nameOf == nil {
		nameOf = ComputerName
	}
	ck := &computerKind{levels: c.Levels, deflt: c.Default, aliases: c.Aliases, nameOf: nameOf}
	ck.actor = func(a *App, rec *storage.Game) (storage.ComputerSeat, string, bool, error) {
		st, err := k.decode(rec)
		if err != nil {
			return storage.ComputerSeat{}, "", false, err
		}
		if k.over(st) {
			return storage.ComputerSeat{}, "", false, nil
		}
		clk := k.g.Clock(st)
		for _, id := range clk.Actors {
			if seat, ok := rec.Computer(id); ok {
				return seat, clk.Key, true, nil
			}
		}
		return storage.ComputerSeat{}, "", false, nil
	}
	ck.move = func(a *App, rec *storage.Game, seat storage.ComputerSeat, key string) (bool, error) {
		st, err := k.decode(rec)
		if err != nil {
			return false, err
		}
		budget := a.Settings.ComputerBudget
		if budget <= 0 {
			budget = DefaultComputerBudget
		}
		act, err := watchThink(a, rec.ID, c, st, seat, computerSeed(rec.ID, key, seat.User), budget)
		if err != nil {
			return false, fmt.Errorf("thinking: %w", err)
		}
		// What the search read: the action runs only on this state. A
		// change of the record alone (a live board recorded as delivered)
		// does not make the search stale.
		read, readVersion := rec.State, rec.StateVersion
		unchanged := func(g *storage.Game) bool { return g.StateVersion == readVersion && bytes.Equal(g.State, read) }
		req := &Request{Type: CommandRequest, GuildID: rec.GuildID, ChannelID: rec.ThreadID,
			User: User{ID: seat.User, Name: nameOf(seat), Bot: true}, Options: map[string]Option{}}
		_, err = a.withGame(rec.ID, req, func(a *App, req *Request, cur *storage.Game) (*Response, error) {
			if !unchanged(cur) {
				return nil, errStale
			}
			req.Now = a.Now()
			return k.run(a, req, cur, func(t *Turn[S]) (*Response, error) {
				if !unchanged(t.Game) {
					return nil, errStale
				}
				return act(t)
			})
		})
		if errors.Is(err, errStale) || errors.Is(err, errBusy) {
			return true, nil
		}
		var ue *UserError
		if errors.As(err, &ue) {
			// The refusal's text is not kept: it may name what the computer
			// keeps secret (a SandTable Drone's target), and this error is logged.
			return false, errors.New("the computer's action was refused by the rules (the refusal is not logged: it may name a secret)")
		}
		return false, err
	}
	return ck
}

// thought is what one Think (or First) returned.
type thought[S any] struct {
	act Action[S]
	err error
}

// watchThink asks c for the action of seat in st within budget, never
// holding its worker longer than the budget and three graces: see "Never
// stuck" above.
func watchThink[S any](a *App, id string, c *Computer[S], st S, seat storage.ComputerSeat, seed uint64, budget time.Duration) (Action[S], error) {
	p := &a.computers
	grace := ComputerGrace(budget)
	first := func() (Action[S], error) {
		if n := p.abandoned.Load(); int(n) >= 2*p.workers {
			return nil, fmt.Errorf("%d computer searches abandoned are still running: none more starts", n)
		}
		r, _, ok := watched(p, 0, grace, func(ctx context.Context) (Action[S], error) {
			if c.First != nil {
				return c.First(st, seat, seed)
			}
			return c.Think(ctx, st, seat, seed, budget)
		})
		if !ok {
			return nil, errors.New("the computer's first legal action did not come in time either: abandoned")
		}
		if r.err == nil && r.act == nil {
			r.err = errors.New("the computer found no legal action")
		}
		return r.act, r.err
	}
	if n := p.abandoned.Load(); int(n) >= p.workers {
		a.Log.Warn("computer searches abandoned are still running, as many as the workers: this one plays a first legal action without searching",
			"game", id, "abandoned", n)
		return first()
	}
	r, cancelled, ok := watched(p, budget+grace, grace, func(ctx context.Context) (Action[S], error) {
		return c.Think(ctx, st, seat, seed, budget)
	})
	switch {
	case !ok:
		a.Log.Error("a computer search ran past its budget and did not stop when cancelled: abandoned; the computer plays a first legal action",
			"game", id, "budget", budget, "abandoned", p.abandoned.Load())
		return first()
	case cancelled && (r.err != nil || r.act == nil):
		a.Log.Warn("a computer search ran past its budget and returned no action when stopped: the computer plays a first legal action",
			"game", id, "budget", budget, "err", r.err)
		return first()
	case cancelled:
		a.Log.Warn("a computer search ran past its budget: stopped, it plays its best action so far", "game", id, "budget", budget)
	}
	return r.act, r.err
}

// watched runs f in a goroutine of its own and waits for it: f's context
// is cancelled once cancelAfter has passed (at once when zero), and f is
// abandoned a grace after that (ok false; p.abandoned counts it until it
// returns). A panic of f is its error.
func watched[S any](p *computerPool, cancelAfter, grace time.Duration, f func(ctx context.Context) (Action[S], error)) (r thought[S], cancelled, ok bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// 0 running, 1 returned, 2 abandoned: the first to move it decides.
	var state atomic.Int32
	done := make(chan thought[S], 1)
	go func() {
		var r thought[S]
		defer func() {
			if v := recover(); v != nil {
				r = thought[S]{err: fmt.Errorf("panic: %v", v)}
			}
			if state.CompareAndSwap(0, 1) {
				done <- r
			} else {
				p.abandoned.Add(-1)
			}
		}()
		r.act, r.err = f(ctx)
	}()
	if cancelAfter > 0 {
		t, stop := p.timer(cancelAfter)
		select {
		case r := <-done:
			stop()
			return r, false, true
		case <-t:
		}
	}
	cancel()
	t, stop := p.timer(grace)
	defer stop()
	select {
	case r := <-done:
		return r, true, true
	case <-t:
	}
	p.abandoned.Add(1)
	if state.CompareAndSwap(0, 2) {
		return thought[S]{}, true, false
	}
	p.abandoned.Add(-1)
	return <-done, true, true // it returned just now
}

// LevelOption is the "level" option of a challenge command for a game
// whose computer plays levels (weakest first), defaulting to deflt.
func LevelOption(levels []string, deflt string) *ui.CommandOption {
	o := &ui.CommandOption{Type: ui.String, Name: "level",
		Description: "Against the computer (opponent: this bot): its level (default: " + deflt + ")"}
	for _, l := range levels {
		o.Choices = append(o.Choices, &ui.Choice{Name: l, Value: l})
	}
	return o
}

// computerLevel reads req's level option for kind k: its default when
// absent, a UserError when not one of k's levels.
func computerLevel(k *kindTable, req *Request) (string, error) {
	lv := strings.ToLower(strings.TrimSpace(req.Str("level")))
	if lv == "" {
		return k.computer.deflt, nil
	}
	if now, ok := k.computer.aliases[lv]; ok {
		lv = now
	}
	if !slices.Contains(k.computer.levels, lv) {
		return "", Errorf("level must be one of %s, not %s.", strings.Join(k.computer.levels, ", "), QuoteInput(lv))
	}
	return lv, nil
}

// isSelf reports whether u is the bot itself.
func (a *App) isSelf(u *User) bool {
	self := a.Self()
	return u != nil && self != "" && u.ID == self
}

// startComputerGame starts at once, without acceptance, the game of the
// challenge ch whose opponent is the bot: the computer takes the
// opponent's seat at level. The thread is opened first (a retry finds it
// again by name), then one transaction saves the game (unrated, the seat
// recorded, a computer move pending if it must act first) with its first
// effects. The answer, in the channel, links the thread.
func (a *App) startComputerGame(req *Request, k *kindTable, ch *Challenge, level string) (*Response, error) {
	seat := storage.ComputerSeat{User: ch.Opponent.ID, Level: level}
	ch.Opponent.Name = k.computer.nameOf(seat)
	// The game takes the (never stored) challenge's ID.
	rec := &storage.Game{ID: ch.ID, Kind: k.Name, GuildID: ch.GuildID, ChannelID: ch.ChannelID,
		Players: []string{ch.Challenger.ID, ch.Opponent.ID}, Active: true, Unrated: true,
		Computers: []storage.ComputerSeat{seat}}
	name, effects, err := k.start(a, req, ch, rec)
	if err != nil {
		return nil, err
	}
	threadID, err := a.OpenThread(req.Context(), ch.GuildID, ch.ChannelID, "", name, false)
	if err != nil {
		msg, _ := ThreadRefused("the game's thread", err, "start it again.")
		a.Log.Warn("starting a game against the computer failed", "err", err)
		return nil, Errorf("%s", msg)
	}
	rec.ThreadID = threadID
	effects = append([]Effect{{Op: OpAddMember, Channel: threadID, User: ch.Challenger.ID}}, effects...)
	if err := a.commitNewGame(req, rec, false, effects, func(tx storage.Tx) error { return a.countStart(tx, req) }); err != nil {
		return nil, err
	}
	return &Response{Committed: true, Message: Message{Cards: []*ui.Card{{
		Title:       k.Title + " against the computer",
		Description: fmt.Sprintf("%s is playing **%s** against **%s**, an unrated game. It is on in <#%s>.", ch.Challenger.Mention(), k.Title, k.computer.nameOf(seat), threadID),
		Color:       ColorClosed,
	}}}}, nil
}

// ComputerSeats says who the computers of rec are, for a game's header
// and /games: "vs Computer (easy)", or "" when rec has none.
func ComputerSeats(rec *storage.Game) string {
	if rec == nil || len(rec.Computers) == 0 {
		return ""
	}
	names := make([]string, 0, len(rec.Computers))
	for _, c := range rec.Computers {
		names = append(names, ComputerName(c))
	}
	return "vs " + andList(names)
}

// computerPrefix starts the user IDs of computer commanders that are not
// the bot's own user (ComputerUser).
const computerPrefix = "computer-"

// ComputerUser is the n-th computer seat of a game that may have several
// (Team Chess commanders), at level: a user whose ID ("computer-<n>-<level>")
// is no Discord user, so it is never mentioned, pinged or added to a
// thread (see IsComputer), and whose mention is its name in bold.
func ComputerUser(n int, level string) User {
	return User{ID: fmt.Sprintf("%s%d-%s", computerPrefix, n, level), Name: fmt.Sprintf("Computer %d (%s)", n, level), Bot: true}
}

// IsComputer reports whether id is a computer seat made by ComputerUser.
func IsComputer(id string) bool { return strings.HasPrefix(id, computerPrefix) }

// ComputerSeatOf is the seat of the computer user id made by ComputerUser
// (ok false for any other ID).
func ComputerSeatOf(id string) (storage.ComputerSeat, bool) {
	if !IsComputer(id) {
		return storage.ComputerSeat{}, false
	}
	i := strings.LastIndexByte(id, '-')
	return storage.ComputerSeat{User: id, Level: id[i+1:]}, true
}

// mentionID mentions the user id in a message: "<@id>", or "the computer"
// for a computer seat made by ComputerUser (no Discord user).
func mentionID(id string) string {
	if IsComputer(id) {
		return "the computer"
	}
	return "<@" + id + ">"
}
