package commands_test

import (
	"bytes"
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
	"sandtable/storage"
)

// tttComputer is tic-tac-toe with a computer player: think is its Think
// (tttFirstFree when nil).
type tttComputer struct {
	ticTacToe
	think func(s *tttState, seat storage.ComputerSeat, seed uint64, budget time.Duration) (commands.Action[*tttState], error)
}

func (g tttComputer) Spec() commands.Spec[*tttState] {
	s := g.ticTacToe.Spec()
	s.Definitions[0].Options[0].Options = append(s.Definitions[0].Options[0].Options,
		commands.LevelOption([]string{"easy", "casual", "hard"}, "casual"))
	think := g.think
	if think == nil {
		think = tttFirstFree
	}
	s.Computer = &commands.Computer[*tttState]{Levels: []string{"easy", "casual", "hard"}, Default: "casual", Think: think}
	return s
}

// tttFirstFree plays the first free cell, through the game's own /move.
func tttFirstFree(s *tttState, _ storage.ComputerSeat, _ uint64, _ time.Duration) (commands.Action[*tttState], error) {
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
	require.Contains(t, commandstest.UserMsg(t, err), "level must be one of easy, casual, hard")

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
	blocked := tttComputer{think: func(s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
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
	require.Equal(t, "casual", g.Computers[0].Level, "the default level")
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
	commands.Register[*tttState](a2, tttComputer{think: func(s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		mu.Lock()
		seeds2 = append(seeds2, seed)
		mu.Unlock()
		return tttFirstFree(s, seat, seed, b)
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
	think := func(s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		n := running.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		<-gate
		running.Add(-1)
		return tttFirstFree(s, seat, seed, b)
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
	think := func(s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		if calls.Add(1) == 1 {
			panic("engine bug")
		}
		return tttFirstFree(s, seat, seed, b)
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

// lockedBuffer is a log sink for several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestComputerRefusalKeepsItsTextOutOfTheLog: a computer action the rules
// refuse (an engine's bug) is logged and retried later, but the refusal's
// text, which may name the computer's secret (a SandTable Drone target),
// is not written to the log.
func TestComputerRefusalKeepsItsTextOutOfTheLog(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	think := func(s *tttState, seat storage.ComputerSeat, seed uint64, b time.Duration) (commands.Action[*tttState], error) {
		calls.Add(1)
		return func(t *commands.Turn[*tttState]) (*commands.Response, error) {
			return nil, commands.Errorf("target k12 (hidden-xyzzy) is out of range")
		}, nil
	}
	a, _, store := newTTTComputer(t, tttComputer{think: think}, nil)
	logs := &lockedBuffer{}
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
