package commands_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// Several processes share one store (docs/architecture.md, "Many
// processes"): here, several Apps on one storage.Memory, each with its own
// locks and outbox dispatcher, all posting to one fake Discord.

// counterGame counts actions; hold, when set, is called by each run of
// an action or a timeout after it read the game, so that a test can let
// another process commit in between.
type counterGame struct {
	hold func(kind string)
	runs *atomic.Int32
}

type counterState struct {
	N int `json:"n"`
}

func (g counterGame) Spec() commands.Spec[*counterState] {
	return commands.Spec[*counterState]{Name: "counter", Title: "Counter", Definitions: defs("inc"), Thread: map[string]commands.Action[*counterState]{
		"inc": func(t *commands.Turn[*counterState]) (*commands.Response, error) {
			g.runs.Add(1)
			s := *t.State
			if g.hold != nil {
				g.hold("inc")
			}
			s.N++
			t.Save(&s)
			t.Post(commands.Message{Content: fmt.Sprint("count ", s.N)})
			return &commands.Response{Message: commands.Message{Content: fmt.Sprint("now ", s.N)}}, nil
		},
	}}
}

func (counterGame) Version() int                           { return 1 }
func (counterGame) Encode(s *counterState) ([]byte, error) { return json.Marshal(s) }
func (counterGame) Decode(v int, raw []byte) (*counterState, error) {
	var s counterState
	return &s, json.Unmarshal(raw, &s)
}
func (counterGame) Clock(s *counterState) commands.Clock {
	return commands.Clock{Rule: commands.PerMove, Key: fmt.Sprint(s.N), Period: time.Hour}
}
func (counterGame) Outcome(s *counterState) (storage.Outcome, bool) { return storage.Outcome{}, false }
func (g counterGame) Timeout(t *commands.Turn[*counterState]) error {
	g.runs.Add(1)
	if g.hold != nil {
		g.hold("timeout")
	}
	s := *t.State
	s.N += 100
	t.Save(&s)
	t.Post(commands.Message{Content: fmt.Sprint("timeout at ", s.N)})
	return nil
}
func (counterGame) Summary(*storage.Game, *counterState, string) string { return "" }

// process is one App of a multi-process test: its own locks, dispatcher
// and log, sharing the store and the fake Discord.
func process(t *testing.T, store storage.Store, p *commandstest.Platform, g counterGame, now func() time.Time) (*commands.App, *bytes.Buffer) {
	var logs bytes.Buffer
	a := commands.New(store, p, commands.Settings{BoardSize: 320, MoveTime: time.Hour, ChallengeTTL: time.Hour, LobbyTTL: time.Hour},
		slog.New(slog.NewTextHandler(&syncWriter{w: &logs}, nil)))
	a.Now = now
	a.AnswerCopies, a.DeliverInline = false, false
	if m, ok := store.(*storage.Memory); ok {
		l, err := m.Grant(t.Context(), a.Process, storage.DefaultLeaseTTL)
		require.NoError(t, err)
		a.SetLease(l)
		leasesOf.Store(a, l)
	}
	commands.Register[*counterState](a, g)
	return a, &logs
}

// leasesOf holds each process's fake lease (storage.MemoryLease).
var leasesOf sync.Map

// kill ends a's lease as its death would (its claims vanish).
func kill(a *commands.App) {
	l, _ := leasesOf.Load(a)
	l.(*storage.MemoryLease).Expire()
}

type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

func counterSetup(t *testing.T, store storage.Store, deadline time.Time) {
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game1", Kind: "counter", ThreadID: "th1", Players: []string{commandstest.Alice.ID},
			Active: true, Deadline: deadline, State: []byte(`{"n":0}`), StateVersion: 1}, commandstest.T0)
	}))
}

func fixed(at time.Time) func() time.Time { return func() time.Time { return at } }

func postTexts(p *commandstest.Platform) []string {
	posts, _ := p.Snapshot()
	var out []string
	for _, s := range posts {
		out = append(out, s.Msg.Content)
	}
	return out
}

// TestActionRunsAgainAfterAConflict: two processes act on one game at once;
// the one whose commit finds the game changed reads it again and runs its
// action again: no update is lost, no error reaches the user, and only the
// committed runs' effects are posted.
func TestActionRunsAgainAfterAConflict(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(time.Hour))
	read, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	runsA, runsB := &atomic.Int32{}, &atomic.Int32{}
	a, logsA := process(t, store, p, counterGame{runs: runsA, hold: func(string) {
		once.Do(func() { close(read); <-release }) // the first run waits after reading
	}}, fixed(commandstest.T0))
	b, _ := process(t, store, p, counterGame{runs: runsB}, fixed(commandstest.T0))

	var respA *commands.Response
	var errA error
	done := make(chan struct{})
	go func() {
		defer close(done)
		respA, errA = a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
	}()
	<-read
	respB, err := b.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
	require.NoError(t, err)
	require.Equal(t, "now 1", respB.Content)
	close(release)
	<-done
	require.NoError(t, errA)
	require.Equal(t, "now 2", respA.Content, "run again on the game as B left it")
	require.Equal(t, int32(2), runsA.Load())
	require.Contains(t, logsA.String(), "running the action again")
	require.Contains(t, logsA.String(), "owner="+a.Process)

	var st counterState
	g := commandstest.Game(t, store, "game1")
	require.NoError(t, json.Unmarshal(g.State, &st))
	require.Equal(t, 2, st.N, "no update lost")
	require.Equal(t, int64(3), g.Version)
	// Each process delivers what it queued: B's post first (its stream's
	// head), then A's.
	require.Equal(t, 0, commandstest.Deliver(t, a, commandstest.T0), "the stream's head is B's")
	require.Equal(t, 1, commandstest.Deliver(t, b, commandstest.T0))
	require.Equal(t, 1, commandstest.Deliver(t, a, commandstest.T0))
	require.Equal(t, []string{"count 1", "count 2"}, postTexts(p), "each committed action's effect once, the discarded run's none")
}

// TestActionGivenUpAfterMaxRuns: while process A's action runs, process B
// changes the game every time, so each of A's commits conflicts: A gives
// up after its last run with a private "try again" (not an internal
// error), and only B's increments count.
func TestActionGivenUpAfterMaxRuns(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(time.Hour))
	b, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(commandstest.T0))
	runsA := &atomic.Int32{}
	a, logsA := process(t, store, p, counterGame{runs: runsA, hold: func(string) {
		_, err := b.Handle(commandstest.Cmd(commandstest.Bob, "inc", "", nil))
		require.NoError(t, err)
	}}, fixed(commandstest.T0))
	_, err := a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
	var ue *commands.UserError
	require.ErrorAs(t, err, &ue, "a private refusal, not an internal error")
	require.Contains(t, ue.Msg, "nothing changed")
	require.Contains(t, logsA.String(), "given up")
	var st counterState
	require.NoError(t, json.Unmarshal(commandstest.Game(t, store, "game1").State, &st))
	require.Equal(t, int(runsA.Load()), st.N, "B's increments (one per run of A) count, A's none")
	require.Greater(t, runsA.Load(), int32(1))
}

// TestManyProcessesNoLostUpdate: three processes increment one game
// concurrently; every increment answered as done counts once, and one
// given up after maxRuns conflicting runs (possible on a busy machine) is
// refused as busy and counts nothing.
func TestManyProcessesNoLostUpdate(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(time.Hour))
	var apps []*commands.App
	for range 3 {
		a, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}, hold: func(string) { runtime.Gosched() }}, fixed(commandstest.T0))
		apps = append(apps, a)
	}
	const each = 20
	var wg sync.WaitGroup
	var done, busy atomic.Int32
	errs := make(chan error, 3*each)
	for _, a := range apps {
		wg.Go(func() {
			for range each {
				_, err := a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
				var ue *commands.UserError
				switch {
				case errors.As(err, &ue) && strings.Contains(ue.Msg, "Try again"):
					busy.Add(1)
				case err != nil:
					errs <- err
				default:
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	var st counterState
	require.NoError(t, json.Unmarshal(commandstest.Game(t, store, "game1").State, &st))
	require.Equal(t, int(done.Load()), st.N, "every increment answered as done counts once, a busy one none")
	require.Equal(t, 3*each, int(done.Load()+busy.Load()))
	require.Positive(t, done.Load())
	t.Logf("%d increments done, %d given up as busy", done.Load(), busy.Load())
}

// TestTimerFiresOnceAcrossProcesses: every process sweeps; a due game
// times out once. The process whose timeout loses the race reads the game
// again, finds it no longer due, and does nothing, silently.
func TestTimerFiresOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	due := commandstest.T0.Add(time.Hour)
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, due)
	read, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	runsA, runsB := &atomic.Int32{}, &atomic.Int32{}
	a, logsA := process(t, store, p, counterGame{runs: runsA, hold: func(string) {
		once.Do(func() { close(read); <-release })
	}}, fixed(due))
	b, _ := process(t, store, p, counterGame{runs: runsB}, fixed(due))

	errA := make(chan error, 1)
	go func() { errA <- a.Sweep(due) }()
	<-read
	require.NoError(t, b.Sweep(due))
	close(release)
	require.NoError(t, <-errA)
	require.Equal(t, int32(1), runsA.Load(), "A's second run found the game no longer due")
	require.Equal(t, int32(1), runsB.Load())
	require.NotContains(t, logsA.String(), "level=ERROR")

	var st counterState
	g := commandstest.Game(t, store, "game1")
	require.NoError(t, json.Unmarshal(g.State, &st))
	require.Equal(t, 100, st.N, "one timeout")
	require.True(t, g.Deadline.Equal(due.Add(time.Hour)))
	require.Equal(t, 1, a.Pending(), "its effect queued once")
	commandstest.Deliver(t, b, due)
	commandstest.Deliver(t, a, due)
	require.Equal(t, []string{"timeout at 100"}, postTexts(p))

	// And many sweeps at once, of a game due again.
	var wg sync.WaitGroup
	for _, x := range []*commands.App{a, b, a, b} {
		wg.Go(func() { require.NoError(t, x.Sweep(due.Add(time.Hour))) })
	}
	wg.Wait()
	require.NoError(t, json.Unmarshal(commandstest.Game(t, store, "game1").State, &st))
	require.Equal(t, 200, st.N)
}

// TestOutboxDeliveredOnceAcrossProcesses: the effects an action queues are
// its process's to deliver; the other processes leave them alone while
// that process lives, however long (its claims are bound to its lease).
// When that process dies before delivering everything, its lease ends and
// another takes the effects over, reconciling them (what the dead process
// posted is not posted again), and says so in its log.
func TestOutboxDeliveredOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(time.Hour))
	a, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(commandstest.T0))
	b, logsB := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(commandstest.T0))
	for range 2 {
		_, err := a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
		require.NoError(t, err)
	}
	// A performed the first post, then died before recording it.
	_, err := p.Send(t.Context(), "th1", commands.Message{Content: "count 1"})
	require.NoError(t, err)

	require.Equal(t, 0, commandstest.Deliver(t, b, commandstest.T0.Add(30*time.Second)), "A's claim lives")
	require.Equal(t, 0, commandstest.Deliver(t, b, commandstest.T0.Add(24*time.Hour)), "A's claim lives a day later: no TTL")
	kill(a)
	require.Equal(t, 2, commandstest.Deliver(t, b, commandstest.T0.Add(24*time.Hour)), "taken over once A's lease ended")
	require.Equal(t, []string{"count 1", "count 2"}, postTexts(p), "the first reconciled, not posted twice")
	require.Contains(t, logsB.String(), "took over an effect claimed before")
	require.Contains(t, logsB.String(), "owner="+b.Process)
	require.Equal(t, 0, a.Pending())
}

// TestLiveProcessKeepsItsBacklog: a live process with a long backlog keeps
// every claim past any old claim TTL (the minute claims lasted before
// leases) while it delivers slowly: the other process never takes one, so
// nothing is reconciled or posted twice.
func TestLiveProcessKeepsItsBacklog(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(24*time.Hour))
	var now atomic.Int64
	now.Store(commandstest.T0.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	a, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, clock)
	b, logsB := process(t, store, p, counterGame{runs: &atomic.Int32{}}, clock)
	const n = 5
	for range n {
		_, err := a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
		require.NoError(t, err)
	}
	for i := range n {
		// Each effect waits ten minutes in A's backlog.
		now.Add(int64(10 * time.Minute))
		require.Equal(t, 0, commandstest.Deliver(t, b, clock()), "B takes none of A's backlog")
		d, err := a.Deliver(t.Context(), clock())
		require.NoError(t, err)
		require.Positive(t, d, "A delivers its own (round %d)", i)
		if d == n {
			break
		}
	}
	require.Equal(t, 0, a.Pending())
	require.Len(t, postTexts(p), n, "each post once")
	require.NotContains(t, logsB.String(), "took over")
}

// TestLostLeaseStopsDelivering: a live process that loses its lease (the
// store lost its majority for a whole TTL) delivers nothing until it holds
// a new one; then it takes its old effects again as another owner's,
// reconciling them: a post it made under the old lease is not repeated.
func TestLostLeaseStopsDelivering(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(time.Hour))
	a, logsA := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(commandstest.T0))
	for range 2 {
		_, err := a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
		require.NoError(t, err)
	}
	_, err := p.Send(t.Context(), "th1", commands.Message{Content: "count 1"}) // performed, not recorded
	require.NoError(t, err)
	kill(a)
	require.Equal(t, 0, commandstest.Deliver(t, a, commandstest.T0), "no lease: no delivery")
	// An action without a lease still commits, its effects unclaimed.
	_, err = a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
	require.NoError(t, err)
	l, err := store.Grant(t.Context(), a.Process, storage.DefaultLeaseTTL)
	require.NoError(t, err)
	a.SetLease(l)
	require.Equal(t, 3, commandstest.Deliver(t, a, commandstest.T0))
	require.Equal(t, []string{"count 1", "count 2", "count 3"}, postTexts(p))
	require.Contains(t, logsA.String(), "took over an effect claimed before")
}

// TestConcurrentDispatchersDeliverOnce: effects nobody holds (their
// writer died) are delivered once although every process's dispatcher
// goes for them at the same time.
func TestConcurrentDispatchersDeliverOnce(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	const n = 30
	dead, err := store.Grant(t.Context(), "dead-process", storage.DefaultLeaseTTL)
	require.NoError(t, err)
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for i := range n {
			id, err := tx.Outbox().Add(fmt.Sprint("s", i), commands.Effect{Op: commands.OpDM, User: fmt.Sprint("u", i),
				Body: &commands.Message{Content: fmt.Sprint("dm ", i)}})
			if err != nil {
				return err
			}
			if err := tx.Outbox().Claim(id, "dead-process", dead.ID()); err != nil {
				return err
			}
		}
		return nil
	}))
	dead.(*storage.MemoryLease).Expire()
	later := commandstest.T0.Add(2 * time.Minute)
	var apps []*commands.App
	for range 3 {
		a, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(later))
		apps = append(apps, a)
	}
	var wg sync.WaitGroup
	var delivered atomic.Int32
	for _, a := range apps {
		wg.Go(func() {
			d, err := a.Deliver(context.Background(), later)
			require.NoError(t, err)
			delivered.Add(int32(d))
		})
	}
	wg.Wait()
	require.Equal(t, int32(n), delivered.Load())
	for i := range n {
		require.Len(t, p.DMs[fmt.Sprint("u", i)], 1, "dm %d", i)
	}
}

// TestDowntimeCreditedOnceByManyProcesses: downtime is credited only when
// no process was serving (the heartbeat every process writes is stale),
// and once when several processes start together.
func TestDowntimeCreditedOnceByManyProcesses(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Meta().SetHeartbeat(commandstest.T0) }))
	start := commandstest.T0.Add(time.Hour)
	var credited atomic.Int64
	var wg sync.WaitGroup
	for range 3 {
		a, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(start))
		wg.Go(func() {
			d, err := a.CreditDowntime(start)
			require.NoError(t, err)
			credited.Add(int64(d))
		})
	}
	wg.Wait()
	require.Equal(t, int64(time.Hour), credited.Load(), "one of them credits the hour")
	offset := func() time.Duration {
		var off time.Duration
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
			var err error
			off, err = tx.Meta().ClockOffset()
			return err
		}))
		return off
	}
	require.Equal(t, time.Hour, offset())

	// One process stops while another serves (and beats): a process
	// starting then credits nothing.
	serving, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(start))
	require.NoError(t, serving.Heartbeat(start.Add(2*time.Hour)))
	late, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(start))
	d, err := late.CreditDowntime(start.Add(2*time.Hour + 10*time.Second))
	require.NoError(t, err)
	require.Zero(t, d)
	require.Equal(t, time.Hour, offset())
}

// rerunStore runs every Update function twice, the first run thrown away:
// what an optimistic backend (etcd) does when another process wrote what
// the transaction read. Whatever the framework does must come out the same.
type rerunStore struct{ storage.Store }

var errThrowAway = errors.New("thrown away")

func (s rerunStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	if err := s.Store.Update(ctx, func(tx storage.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errThrowAway
	}); !errors.Is(err, errThrowAway) {
		return err
	}
	return s.Store.Update(ctx, fn)
}

// TestUpdatesSafeToRunAgain: the toy game from challenge to win, a
// timeout, challenge expiry and downtime credit on a store that runs every
// transaction function twice: the same outcome, each effect once.
func TestUpdatesSafeToRunAgain(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	p := commandstest.NewPlatform()
	mem := storage.NewMemory()
	store := rerunStore{mem}
	a := commands.New(store, p, commands.Settings{BoardSize: 320, MoveTime: time.Hour, ChallengeTTL: time.Hour, LobbyTTL: time.Hour,
		RemindAt: 0.75}, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	a.Now = fixed(commandstest.T0)
	a.DeliverInline = false
	commands.Register[*tttState](a, ticTacToe{})

	require.NoError(t, mem.Update(t.Context(), func(tx storage.Tx) error { return tx.Meta().SetHeartbeat(commandstest.T0.Add(-time.Hour)) }))
	down, err := a.CreditDowntime(commandstest.T0)
	require.NoError(t, err)
	require.Equal(t, time.Hour, down)

	challenge := func(msg string) string {
		r := commandstest.Cmd(alice, "ttt", "challenge", nil)
		r.ChannelID = "general"
		r.Options["opponent"] = commands.Option{User: &bob}
		ch, err := a.Handle(r)
		require.NoError(t, err)
		ch.Posted(msg)
		return commandstest.ButtonOf(t, ch.Message, "Accept")
	}
	// One challenge expires, one is accepted.
	challenge("old-msg")
	require.NoError(t, a.Sweep(commandstest.T0.Add(2*time.Hour)))
	acc, err := a.Handle(commandstest.Click(bob, challenge("challenge-msg"), "challenge-msg"))
	require.NoError(t, err)
	a.AnswerSent(acc)
	move := func(u commands.User, cell string) {
		r := commandstest.Cmd(u, "move", "", map[string]string{"move": cell})
		r.ChannelID = "challenge-msg"
		resp, err := a.Handle(r)
		require.NoError(t, err)
		a.AnswerSent(resp)
	}
	for i, m := range []string{"1", "4", "2", "5"} {
		move([]commands.User{alice, bob}[i%2], m)
	}
	// Alice, to move, is reminded, then runs out of time.
	require.NoError(t, a.Sweep(commandstest.T0.Add(45*time.Minute)))
	require.NoError(t, a.Sweep(commandstest.T0.Add(3*time.Hour)))
	commandstest.Deliver(t, a, commandstest.T0.Add(4*time.Hour))
	require.Equal(t, 0, a.Pending())

	posts, edits := p.Snapshot()
	seen := map[string]int{}
	pings := 0
	for _, s := range posts {
		if strings.Contains(s.Msg.Content, ", your move (time runs out") {
			pings++ // each turn's ping: the same text when the clock stands still
			continue
		}
		seen[s.Channel+"|"+s.Msg.Content+"|"+fmt.Sprint(len(s.Msg.Cards))]++
	}
	require.Equal(t, 5, pings, "one ping per turn: the first and after each of 4 moves")
	for k, n := range seen {
		require.Equal(t, 1, n, "posted twice: %s", k)
	}
	require.Len(t, p.Members["challenge-msg"], 2, "each player added once")
	require.Equal(t, 1, seen["challenge-msg|"+fmt.Sprintf("Reminder: <@%s>, 15 minutes left on your move in https://discord.com/channels/g/challenge-msg (time runs out <t:%d:R>).",
		alice.ID, commandstest.T0.Add(time.Hour).Unix())+"|0"], "the reminder, once")
	expired := 0
	for _, e := range edits {
		if e.ID == "old-msg" {
			expired++
		}
	}
	require.Equal(t, 1, expired, "the expired challenge's message edited once")
	g := commandstest.Game(t, mem, g0(t, mem))
	require.False(t, g.Active, "the timeout ended the game")
}

// TestHandOverAtShutdown: a process that stops hands its claimed effects
// over: another delivers them at once, reconciled; the answer copies it
// knew were shown are dropped, not handed over.
func TestHandOverAtShutdown(t *testing.T) {
	t.Parallel()
	store, p := storage.NewMemory(), commandstest.NewPlatform()
	counterSetup(t, store, commandstest.T0.Add(time.Hour))
	a, logsA := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(commandstest.T0))
	a.AnswerCopies = true
	b, _ := process(t, store, p, counterGame{runs: &atomic.Int32{}}, fixed(commandstest.T0))
	resp, err := a.Handle(commandstest.Cmd(commandstest.Alice, "inc", "", nil))
	require.NoError(t, err)
	a.AnswerSent(resp) // shown: its copy is not for anybody else
	require.Equal(t, 2, a.Pending(), "the post and the answer's copy")
	require.Equal(t, 0, commandstest.Deliver(t, b, commandstest.T0), "A's claims run")

	require.NoError(t, a.HandOver(commandstest.T0))
	require.Contains(t, logsA.String(), "handed over")
	require.Equal(t, 1, a.Pending(), "the shown copy dropped")
	require.Equal(t, 1, commandstest.Deliver(t, b, commandstest.T0), "taken over at once")
	require.Equal(t, []string{"count 1"}, postTexts(p))
}
