package commands_test

import (
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// tttThink is the Think of tic-tac-toe's computer.
type tttThink = func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, budget time.Duration) (commands.Action[*tttState], error)

// tttComputer is tic-tac-toe with a computer player: think is its Think
// (tttFirstFree when nil), first its First. Its levels are easy, normal
// and hard; "casual" is a former name of easy.
type tttComputer struct {
	ticTacToe
	think tttThink
	first func(s *tttState, seat storage.ComputerSeat, seed uint64) (commands.Action[*tttState], error)
}

func (g tttComputer) Spec() commands.Spec[*tttState] {
	s := g.ticTacToe.Spec()
	s.Definitions[0].Options[0].Options = append(s.Definitions[0].Options[0].Options,
		commands.LevelOption([]string{"easy", "normal", "hard"}, "normal"))
	think := g.think
	if think == nil {
		think = tttFirstFree
	}
	s.Computer = &commands.Computer[*tttState]{Levels: []string{"easy", "normal", "hard"}, Default: "normal",
		Aliases: map[string]string{"casual": "easy"}, Think: think, First: g.first}
	return s
}

// tttFirstFree plays the first free cell, through the game's own /move.
func tttFirstFree(_ context.Context, s *tttState, _ storage.ComputerSeat, _ uint64, _ time.Duration) (commands.Action[*tttState], error) {
	return tttPlayFirst(s, storage.ComputerSeat{}, 0)
}

// tttPlayFirst is tttFirstFree as a First.
func tttPlayFirst(s *tttState, _ storage.ComputerSeat, _ uint64) (commands.Action[*tttState], error) {
	for i, c := range s.Cells {
		if c == 0 {
			return func(t *commands.Turn[*tttState]) (*commands.Response, error) {
				t.Req.Options["move"] = commands.Option{String: strconv.Itoa(i + 1)}
				return tttMove(t)
			}, nil
		}
	}
	return nil, nil
}

func newTTTComputer(t *testing.T, g tttComputer, settings func(*commands.Settings)) (*commands.App, *commandstest.Platform, storage.Store) {
	return commandstest.NewApp(t, func(a *commands.App) {
		if settings != nil {
			settings(&a.Settings)
		}
		commands.Register[*tttState](a, g)
	})
}

// challengeComputer is alice's /ttt challenge of the bot at level.
func challengeComputer(t *testing.T, a *commands.App, level string) (*commands.Response, error) {
	r := commandstest.Cmd(commandstest.Alice, "ttt", "challenge", nil)
	r.ChannelID = "general"
	opp := commandstest.Computer
	r.Options["opponent"] = commands.Option{User: &opp}
	if level != "" {
		r.Options["level"] = commands.Option{String: level}
	}
	return a.Handle(r)
}

// onlyGame is the only game of store, alice's.
func onlyGame(t *testing.T, store storage.Store) *storage.Game {
	return commandstest.Game(t, store, g0(t, store))
}

// waitGame waits (a generous deadline, polling the store) until the only
// game satisfies ok.
func waitGame(t *testing.T, store storage.Store, ok func(g *storage.Game, s *tttState) bool) *storage.Game {
	t.Helper()
	var g *storage.Game
	require.Eventually(t, func() bool {
		g = onlyGame(t, store)
		s, err := ticTacToe{}.Decode(g.StateVersion, g.State)
		require.NoError(t, err)
		return ok(g, s)
	}, 30*time.Second, 5*time.Millisecond)
	return g
}

func moves(n int) func(*storage.Game, *tttState) bool {
	return func(_ *storage.Game, s *tttState) bool { return s.Moves >= n }
}

// TestComputerGameStartsAtOnceAndReplies: a challenge naming the bot
// starts the game at once, unrated, the computer in the opponent's seat at
// the level asked; each human move is answered by a computer move through
// the game's own action; /games says "vs Computer".
func TestComputerGameStartsAtOnceAndReplies(t *testing.T) {
	t.Parallel()
	a, p, store := newTTTComputer(t, tttComputer{}, nil)
	resp, err := challengeComputer(t, a, "hard")
	require.NoError(t, err)
	require.True(t, resp.Committed)
	require.Contains(t, resp.Cards[0].Description, "Computer (hard)")
	g := onlyGame(t, store)
	require.True(t, g.Active)
	require.True(t, g.Unrated, "a computer game changes no rating")
	require.Equal(t, []storage.ComputerSeat{{User: commandstest.Computer.ID, Level: "hard"}}, g.Computers)
	require.True(t, g.ComputerMove.IsZero(), "X (alice) moves first: nothing pending for the computer")
	require.Contains(t, resp.Cards[0].Description, "<#"+g.ThreadID+">")
	commandstest.Deliver(t, a, commandstest.T0)
	require.Contains(t, p.Members[g.ThreadID], commandstest.Alice.ID)

	move := func(cell string) {
		r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": cell})
		r.ChannelID = g.ThreadID
		_, err := a.Handle(r)
		require.NoError(t, err)
	}
	move("5")
	g = waitGame(t, store, moves(2))
	s, _ := ticTacToe{}.Decode(g.StateVersion, g.State)
	require.Equal(t, byte('O'), s.Cells[0], "the computer played the first free cell")
	require.True(t, g.ComputerMove.IsZero(), "alice's turn: nothing pending")
	require.False(t, g.Deadline.IsZero(), "the clock runs on alice again")
	list, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: commandstest.Alice, Now: commandstest.T0})
	require.NoError(t, err)
	require.Contains(t, list.Cards[0].Description, "vs Computer (hard)")

	// Play to the end: the finished game has no pending computer move.
	for i := 0; i < 9; i++ {
		g = onlyGame(t, store)
		if !g.Active {
			break
		}
		s, _ := ticTacToe{}.Decode(g.StateVersion, g.State)
		if s.mark() == 'O' {
			g = waitGame(t, store, moves(s.Moves+1))
			continue
		}
		for c := range s.Cells {
			if s.Cells[c] == 0 {
				move(strconv.Itoa(c + 1))
				break
			}
		}
	}
	g = onlyGame(t, store)
	require.False(t, g.Active)
	require.True(t, g.ComputerMove.IsZero())
}

// TestComputerChallengeRefusals: another bot is refused, a level against
// a person or a level not offered is refused, and nothing is saved.
func TestComputerChallengeRefusals(t *testing.T) {
	t.Parallel()
	a, _, store := newTTTComputer(t, tttComputer{}, nil)
	_, err := challengeComputer(t, a, "grandmaster")
	require.Contains(t, commandstest.UserMsg(t, err), "level must be one of easy, normal, hard")

	r := commandstest.Cmd(commandstest.Alice, "ttt", "challenge", map[string]string{"level": "easy"})
	r.ChannelID = "general"
	bob := commandstest.Bob
	r.Options["opponent"] = commands.Option{User: &bob}
	_, err = a.Handle(r)
	require.Contains(t, commandstest.UserMsg(t, err), "level option is for games against the computer")

	r = commandstest.Cmd(commandstest.Alice, "ttt", "challenge", nil)
	r.ChannelID = "general"
	other := commands.User{ID: "777", Name: "OtherBot", Bot: true}
	r.Options["opponent"] = commands.Option{User: &other}
	_, err = a.Handle(r)
	require.Contains(t, commandstest.UserMsg(t, err), "is a bot and cannot play")

	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(commandstest.Alice.ID)
		require.Empty(t, act)
		return err
	}))
}

// TestComputerWithoutEngineRefused: a game whose Spec has no Computer
// refuses a challenge of the bot.
func TestComputerWithoutEngineRefused(t *testing.T) {
	t.Parallel()
	a, _, _ := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	r := commandstest.Cmd(commandstest.Alice, "ttt", "challenge", nil)
	r.ChannelID = "general"
	opp := commandstest.Computer
	r.Options["opponent"] = commands.Option{User: &opp}
	_, err := a.Handle(r)
	require.Contains(t, commandstest.UserMsg(t, err), "do not play")
}

// TestComputerMoveResumedAfterARestart: the computer's pending move is
// stored with the game in the transaction of the human's move; the
// handler answers while the search runs (it never searches inside it); a
// new App on the same store (a restarted bot) resumes the move from the
// sweep; the first App's search, finishing later on a game that changed,
// applies nothing.
func TestComputerMoveResumedAfterARestart(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	var mu sync.Mutex
	var seeds []uint64
	blocked := tttComputer{think: func(_ context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		mu.Lock()
		seeds = append(seeds, seed)
		mu.Unlock()
		started <- struct{}{}
		<-release
		// A different cell from the one the restarted bot plays.
		return func(t *commands.Turn[*tttState]) (*commands.Response, error) {
			t.Req.Options["move"] = commands.Option{String: "9"}
			return tttMove(t)
		}, nil
	}}
	a1, _, store := newTTTComputer(t, blocked, nil)
	defer close(release)
	_, err := challengeComputer(t, a1, "")
	require.NoError(t, err)
	g := onlyGame(t, store)
	require.Equal(t, "normal", g.Computers[0].Level, "the default level")
	r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": "5"})
	r.ChannelID = g.ThreadID
	_, err = a1.Handle(r)
	require.NoError(t, err, "the move is answered while the computer thinks")
	select {
	case <-started:
	case <-time.After(30 * time.Second):
		t.Fatal("the computer never started thinking")
	}
	g = onlyGame(t, store)
	require.False(t, g.ComputerMove.IsZero(), "the pending computer move is stored with the move")
	require.False(t, g.ComputerMove.After(commandstest.T0), "due at once")

	// The restarted bot: another App on the same store, its own workers.
	var seeds2 []uint64
	a2 := commands.New(store, commandstest.NewPlatform(), a1.Settings, nil)
	a2.Now = a1.Now
	a2.AnswerCopies, a2.DeliverInline = false, false
	a2.SetSelf(commandstest.Computer.ID)
	t.Cleanup(a2.StopComputers)
	commands.Register[*tttState](a2, tttComputer{think: func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		mu.Lock()
		seeds2 = append(seeds2, seed)
		mu.Unlock()
		return tttFirstFree(ctx, s, seat, seed, b)
	}})
	require.NoError(t, a2.Sweep(commandstest.T0))
	g = waitGame(t, store, moves(2))
	s, _ := ticTacToe{}.Decode(g.StateVersion, g.State)
	require.Equal(t, byte('O'), s.Cells[0], "the restarted bot made the move")
	version := g.Version

	// The first bot's search ends now: the game changed, so it rethinks on
	// the new state, finds nothing pending and applies nothing.
	release <- struct{}{}
	a1.StopComputers()
	g = onlyGame(t, store)
	s, _ = ticTacToe{}.Decode(g.StateVersion, g.State)
	require.Equal(t, version, g.Version, "the stale search applied nothing")
	require.Equal(t, byte(0), s.Cells[8])
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, seeds, seeds2, "the seed is fixed by the game and ply, whichever process thinks")
}

// TestComputerPoolIsBounded: with one worker, two games' computer moves
// are computed one at a time, and both are made.
func TestComputerPoolIsBounded(t *testing.T) {
	t.Parallel()
	var running, most atomic.Int32
	gate := make(chan struct{})
	think := func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		<-gate
		running.Add(-1)
		return tttFirstFree(ctx, s, seat, seed, b)
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think}, func(s *commands.Settings) { s.ComputerWorkers = 1 })
	var threads []string
	for _, u := range []commands.User{commandstest.Alice, commandstest.Bob} {
		r := commandstest.Cmd(u, "ttt", "challenge", nil)
		r.ChannelID = "general"
		opp := commandstest.Computer
		r.Options["opponent"] = commands.Option{User: &opp}
		_, err := a.Handle(r)
		require.NoError(t, err)
	}
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		for _, u := range []commands.User{commandstest.Alice, commandstest.Bob} {
			act, err := tx.Games().Active(u.ID)
			require.NoError(t, err)
			require.Len(t, act, 1)
			threads = append(threads, act[0].ThreadID)
		}
		return nil
	}))
	for i, u := range []commands.User{commandstest.Alice, commandstest.Bob} {
		r := commandstest.Cmd(u, "move", "", map[string]string{"move": "5"})
		r.ChannelID = threads[i]
		_, err := a.Handle(r)
		require.NoError(t, err)
	}
	gate <- struct{}{}
	gate <- struct{}{}
	require.Eventually(t, func() bool {
		done := 0
		for _, th := range threads {
			var g *storage.Game
			require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
				var err error
				g, err = tx.Games().ByChannel(th)
				return err
			}))
			if g.ComputerMove.IsZero() {
				done++
			}
		}
		return done == 2
	}, 30*time.Second, 5*time.Millisecond)
	require.Equal(t, int32(1), most.Load(), "one worker: one search at a time")
}

// TestComputerPanicIsRetriedLater: a Think that panics (an engine bug)
// neither kills the worker nor loops: the pending move is postponed a
// minute, and the sweep after that minute makes it.
func TestComputerPanicIsRetriedLater(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	think := func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		if calls.Add(1) == 1 {
			panic("engine bug")
		}
		return tttFirstFree(ctx, s, seat, seed, b)
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think}, nil)
	var mu sync.Mutex
	now := commandstest.T0
	a.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	_, err := challengeComputer(t, a, "")
	require.NoError(t, err)
	g := onlyGame(t, store)
	r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": "5"})
	r.ChannelID = g.ThreadID
	_, err = a.Handle(r)
	require.NoError(t, err)
	g = waitGame(t, store, func(g *storage.Game, s *tttState) bool {
		return g.ComputerMove.Equal(commandstest.T0.Add(time.Minute))
	})
	s, _ := ticTacToe{}.Decode(g.StateVersion, g.State)
	require.Equal(t, 1, s.Moves)
	require.NoError(t, a.Sweep(commandstest.T0.Add(30*time.Second)))
	require.Equal(t, int32(1), calls.Load(), "not due yet: the sweep hands nothing to the workers")
	mu.Lock()
	now = commandstest.T0.Add(time.Minute)
	mu.Unlock()
	require.NoError(t, a.Sweep(now))
	waitGame(t, store, moves(2))
	require.Equal(t, int32(2), calls.Load())
}

// TestStatsOfTheComputer: /stats naming the bot, after a game against it,
// says that the computer is not rated (its games are unrated), rather than
// promising it a rating that starts at 1500; its recent games are listed.
func TestStatsOfTheComputer(t *testing.T) {
	t.Parallel()
	a, _, store := newTTTComputer(t, tttComputer{}, nil)
	_, err := challengeComputer(t, a, "easy")
	require.NoError(t, err)
	g := onlyGame(t, store)
	// alice plays the first free cell, the computer too, to the end.
	for i := 0; i < 9; i++ {
		g = onlyGame(t, store)
		if !g.Active {
			break
		}
		s, _ := ticTacToe{}.Decode(g.StateVersion, g.State)
		if s.mark() == 'O' {
			waitGame(t, store, moves(s.Moves+1))
			continue
		}
		for c := range s.Cells {
			if s.Cells[c] == 0 {
				r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": strconv.Itoa(c + 1)})
				r.ChannelID = g.ThreadID
				_, err := a.Handle(r)
				require.NoError(t, err)
				break
			}
		}
	}
	require.False(t, onlyGame(t, store).Active)

	st := commandstest.Cmd(commandstest.Alice, "stats", "", nil)
	bot := commandstest.Computer
	st.Options["user"] = commands.Option{User: &bot}
	sr, err := a.Handle(st)
	require.NoError(t, err)
	ratings := sr.Cards[0].Fields[0].Value
	require.NotContains(t, ratings, "1500", "the computer never gets a rating")
	require.Contains(t, ratings, "unrated")
	require.Contains(t, sr.Cards[0].Fields[1].Value, "vs <@"+commandstest.Alice.ID+"> (unrated)")
}

// TestComputerChallengeOutsideAServer: a challenge of the computer that
// reaches the bot without a server (a direct message, which the command's
// registration forbids but an HTTP interaction could still carry) is
// refused and starts nothing.
func TestComputerChallengeOutsideAServer(t *testing.T) {
	t.Parallel()
	a, _, store := newTTTComputer(t, tttComputer{}, nil)
	r := commandstest.Cmd(commandstest.Alice, "ttt", "challenge", nil)
	r.ChannelID, r.GuildID = "dm-alice", ""
	opp := commandstest.Computer
	r.Options["opponent"] = commands.Option{User: &opp}
	_, err := a.Handle(r)
	require.NotEmpty(t, commandstest.UserMsg(t, err))
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(commandstest.Alice.ID)
		require.Empty(t, act)
		return err
	}))
}

// TestComputerRefusalKeepsItsTextOutOfTheLog: a computer action the rules
// refuse (an engine's bug) is logged and retried later, but the refusal's
// text, which may name the computer's secret (a SandTable Drone target),
// is not written to the log.
func TestComputerRefusalKeepsItsTextOutOfTheLog(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	think := func(_ context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		calls.Add(1)
		return func(t *commands.Turn[*tttState]) (*commands.Response, error) {
			return nil, commands.Errorf("target k12 (hidden-xyzzy) is out of range")
		}, nil
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think}, nil)
	logs := &testkit.SyncBuffer{}
	a.Log = slog.New(slog.NewTextHandler(logs, nil))
	_, err := challengeComputer(t, a, "")
	require.NoError(t, err)
	g := onlyGame(t, store)
	r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": "5"})
	r.ChannelID = g.ThreadID
	_, err = a.Handle(r)
	require.NoError(t, err)
	waitGame(t, store, func(g *storage.Game, s *tttState) bool {
		return g.ComputerMove.After(commandstest.T0) && calls.Load() >= 1
	})
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "computer") }, 30*time.Second, 5*time.Millisecond)
	require.NotContains(t, logs.String(), "k12")
	require.NotContains(t, logs.String(), "hidden-xyzzy")
}

// fakeTimers is the computer watchdog's clock in a test: a timer fires
// when advance moves the clock to its time; a stopped one is dropped.
type fakeTimers struct {
	mu     sync.Mutex
	now    time.Duration
	next   int
	timers map[int]fakeTimer
}

type fakeTimer struct {
	at time.Duration
	ch chan time.Time
}

func newFakeTimers(a *commands.App) *fakeTimers {
	f := &fakeTimers{timers: map[int]fakeTimer{}}
	commands.SetComputerTimer(a, f.after)
	return f
}

func (f *fakeTimers) after(d time.Duration) (<-chan time.Time, func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.next
	f.next++
	ch := make(chan time.Time, 1)
	f.timers[id] = fakeTimer{at: f.now + d, ch: ch}
	return ch, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.timers, id)
	}
}

// waitTimers waits (a generous deadline) until n timers are running, and
// returns the time the earliest is due in.
func (f *fakeTimers) waitTimers(t *testing.T, n int) time.Duration {
	t.Helper()
	var in time.Duration
	require.Eventually(t, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		in = -1
		for _, tm := range f.timers {
			if in < 0 || tm.at-f.now < in {
				in = tm.at - f.now
			}
		}
		return len(f.timers) == n
	}, 30*time.Second, time.Millisecond)
	return in
}

// advance moves the clock by d, firing the timers due.
func (f *fakeTimers) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now += d
	for id, tm := range f.timers {
		if tm.at <= f.now {
			tm.ch <- time.Time{}
			delete(f.timers, id)
		}
	}
}

func (f *fakeTimers) elapsed() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// twoComputerGames starts alice's and bob's games against the computer
// and plays alice's "5" and bob's "3": the computer must answer both.
// It returns the games' thread IDs, alice's first.
func twoComputerGames(t *testing.T, a *commands.App, store storage.Store) [2]string {
	t.Helper()
	var threads [2]string
	for i, u := range []commands.User{commandstest.Alice, commandstest.Bob} {
		r := commandstest.Cmd(u, "ttt", "challenge", nil)
		r.ChannelID = "general"
		opp := commandstest.Computer
		r.Options["opponent"] = commands.Option{User: &opp}
		_, err := a.Handle(r)
		require.NoError(t, err)
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
			act, err := tx.Games().Active(u.ID)
			require.Len(t, act, 1)
			threads[i] = act[0].ThreadID
			return err
		}))
		r = commandstest.Cmd(u, "move", "", map[string]string{"move": []string{"5", "3"}[i]})
		r.ChannelID = threads[i]
		_, err = a.Handle(r)
		require.NoError(t, err)
	}
	return threads
}

// cellsIn is the cells of the game in thread.
func cellsIn(t *testing.T, store storage.Store, thread string) [9]byte {
	t.Helper()
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel(thread)
		return err
	}))
	s, err := ticTacToe{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	return s.Cells
}

// waitCell waits (a generous deadline) until the computer (O) holds
// cell (0-8) in the game of thread.
func waitCell(t *testing.T, store storage.Store, thread string, cell int) {
	t.Helper()
	require.Eventually(t, func() bool { return cellsIn(t, store, thread)[cell] == 'O' }, 30*time.Second, time.Millisecond)
}

// isAlices tells alice's game (she played the centre) from bob's.
func isAlices(s *tttState) bool { return s.Cells[4] != 0 }

// play is the action of the computer's move to cell (1-9).
func play(cell string) commands.Action[*tttState] {
	return func(t *commands.Turn[*tttState]) (*commands.Response, error) {
		t.Req.Options["move"] = commands.Option{String: cell}
		return tttMove(t)
	}
}

// TestStuckComputerDoesNotDelayAnotherGame: a search that ignores its
// budget (alice's game: it returns only when cancelled) does not delay
// another game's computer (bob's game is answered while alice's search
// runs, no watchdog time having passed: the pool has two workers by
// default); once its budget and the grace are spent, the watchdog cancels
// it and its best move so far is played, which is logged.
func TestStuckComputerDoesNotDelayAnotherGame(t *testing.T) {
	t.Parallel()
	require.Equal(t, 2, commands.DefaultComputerWorkers)
	think := func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		if !isAlices(s) {
			return tttFirstFree(ctx, s, seat, seed, b)
		}
		<-ctx.Done()
		return play("9"), nil // its best so far
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think}, nil)
	logs := &testkit.SyncBuffer{}
	a.Log = slog.New(slog.NewTextHandler(logs, nil))
	clock := newFakeTimers(a)
	threads := twoComputerGames(t, a, store)

	waitCell(t, store, threads[1], 0)
	require.Zero(t, clock.elapsed(), "bob's game is answered while alice's search runs")
	require.Zero(t, cellsIn(t, store, threads[0])[8], "alice's search is still running")

	budget := commands.DefaultComputerBudget
	in := clock.waitTimers(t, 1)
	require.Equal(t, budget+commands.ComputerGrace(budget), in, "alice's search is cancelled after its budget and the grace")
	clock.advance(in)
	waitCell(t, store, threads[0], 8)
	require.Contains(t, logs.String(), "past its budget")
	require.Zero(t, commands.AbandonedComputerSearches(a))
}

// TestComputerThatNeverStopsIsAbandoned: with one worker, a search that
// does not stop even when cancelled (alice's game) is abandoned a grace
// after its cancellation: alice's game gets the first legal move (First),
// and the worker, free again, answers bob's game, which so waited no
// longer than alice's budget and two graces. While the abandoned search
// runs (the cap: as many as the workers), the computer plays First at
// once without searching, and says so in the log; the abandoned search's
// result, when it comes, is dropped.
func TestComputerThatNeverStopsIsAbandoned(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var alicesThinks atomic.Int32
	think := func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		if !isAlices(s) {
			return tttFirstFree(ctx, s, seat, seed, b)
		}
		alicesThinks.Add(1)
		<-release // deaf to ctx
		return play("9"), nil
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think, first: tttPlayFirst}, func(s *commands.Settings) { s.ComputerWorkers = 1 })
	logs := &testkit.SyncBuffer{}
	a.Log = slog.New(slog.NewTextHandler(logs, nil))
	clock := newFakeTimers(a)
	defer close(release)
	threads := twoComputerGames(t, a, store)

	budget := commands.DefaultComputerBudget
	grace := commands.ComputerGrace(budget)
	require.Equal(t, budget+grace, clock.waitTimers(t, 1))
	require.Zero(t, cellsIn(t, store, threads[1])[0], "one worker, busy with alice's game: bob's waits")
	clock.advance(budget + grace)
	require.Equal(t, grace, clock.waitTimers(t, 1), "cancelled; abandoned a grace later")
	clock.advance(grace)
	waitCell(t, store, threads[0], 0) // First: the first free cell
	waitCell(t, store, threads[1], 0)
	require.Equal(t, budget+2*grace, clock.elapsed(), "bob's game waited for alice's budget and two graces, no more")
	require.Equal(t, 1, commands.AbandonedComputerSearches(a))
	require.Contains(t, logs.String(), "did not stop when cancelled: abandoned")

	// At the cap: alice's next move is answered by First, without a search.
	r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": "4"})
	r.ChannelID = threads[0]
	_, err := a.Handle(r)
	require.NoError(t, err)
	waitCell(t, store, threads[0], 1)
	require.Equal(t, int32(1), alicesThinks.Load(), "no search started at the cap")
	require.Contains(t, logs.String(), "without searching")
	require.Equal(t, budget+2*grace, clock.elapsed(), "no watchdog time at the cap")

	// The abandoned search ends: its move (9) is dropped, the cap freed.
	release <- struct{}{}
	require.Eventually(t, func() bool { return commands.AbandonedComputerSearches(a) == 0 }, 30*time.Second, time.Millisecond)
	require.Zero(t, cellsIn(t, store, threads[0])[8], "an abandoned search applies nothing")
}

// TestComputerWatchdogOnTheClock: with the real clock, a search that
// returns only when cancelled gets its move played, not before its
// budget and the grace.
func TestComputerWatchdogOnTheClock(t *testing.T) {
	t.Parallel()
	budget := 100 * time.Millisecond
	var cancelledAfter atomic.Int64
	var start time.Time // before alice's move, so before the watchdog starts
	think := func(ctx context.Context, s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		<-ctx.Done()
		cancelledAfter.Store(int64(time.Since(start)))
		return tttFirstFree(ctx, s, seat, seed, b)
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think}, func(s *commands.Settings) { s.ComputerBudget = budget })
	_, err := challengeComputer(t, a, "")
	require.NoError(t, err)
	g := onlyGame(t, store)
	r := commandstest.Cmd(commandstest.Alice, "move", "", map[string]string{"move": "5"})
	r.ChannelID = g.ThreadID
	start = time.Now()
	_, err = a.Handle(r)
	require.NoError(t, err)
	waitGame(t, store, moves(2))
	require.GreaterOrEqual(t, time.Duration(cancelledAfter.Load()), budget+commands.ComputerGrace(budget))
}

// TestLevelAliasIsItsLevel: level:casual, a former name of easy, is
// accepted and is easy.
func TestLevelAliasIsItsLevel(t *testing.T) {
	t.Parallel()
	a, _, store := newTTTComputer(t, tttComputer{}, nil)
	resp, err := challengeComputer(t, a, "Casual")
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Description, "Computer (easy)")
	require.Equal(t, "easy", onlyGame(t, store).Computers[0].Level)
}
