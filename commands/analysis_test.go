package commands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
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

// anlState is a game that is over or not, with some moves: enough to
// analyse.
type anlState struct {
	Moves int  `json:"moves"`
	Over  bool `json:"over"`
}

// analyser is a game whose analysis waits for release (or its context),
// counting its computations.
type analyser struct {
	release chan struct{}
	started chan struct{}
	runs    atomic.Int32
}

func (g *analyser) Spec() commands.Spec[*anlState] {
	return commands.Spec[*anlState]{
		Name: "anl", Title: "Analysed",
		// ping answers under the game's lock.
		Components: map[string]commands.Action[*anlState]{"ping": func(t *commands.Turn[*anlState]) (*commands.Response, error) {
			return &commands.Response{Ephemeral: true, Message: commands.Message{Content: "pong"}}, nil
		}},
		Analysis: &commands.Analysis[*anlState]{
			Version: 1,
			Check: func(s *anlState) error {
				if s.Moves == 0 {
					return commands.Errorf("No move: nothing to analyse.")
				}
				return nil
			},
			Analyse: func(ctx context.Context, t *commands.Turn[*anlState], opt commands.AnalysisOptions) (any, error) {
				g.runs.Add(1)
				g.started <- struct{}{}
				select {
				case <-g.release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				return map[string]int{"moves": t.State.Moves}, nil
			},
			Answer: func(t *commands.Turn[*anlState], raw json.RawMessage) (commands.Message, error) {
				return commands.Message{Content: "analysis " + string(raw)}, nil
			},
		},
	}
}

func (*analyser) Version() int                       { return 1 }
func (*analyser) Encode(s *anlState) ([]byte, error) { return json.Marshal(s) }
func (*analyser) Decode(v int, raw []byte) (*anlState, error) {
	var s anlState
	return &s, json.Unmarshal(raw, &s)
}
func (*analyser) Clock(*anlState) commands.Clock { return commands.Clock{Rule: commands.NoClock} }
func (*analyser) Outcome(s *anlState) (storage.Outcome, bool) {
	return storage.Outcome{Method: storage.Resignation}, s.Over
}
func (*analyser) Timeout(*commands.Turn[*anlState]) error         { return nil }
func (*analyser) Summary(*storage.Game, *anlState, string) string { return "" }

// waitStarted waits until the analysis started, failing the test when a
// click was answered first.
func (g *analyser) waitStarted(t *testing.T, answers chan result) {
	t.Helper()
	select {
	case <-g.started:
	case r := <-answers:
		t.Fatalf("answered before the analysis started: %+v, %v", r.resp, r.err)
	}
}

func newAnalyser() *analyser {
	return &analyser{release: make(chan struct{}), started: make(chan struct{}, 8)}
}

// putAnlGame stores a game of the analyser's kind.
func putAnlGame(t *testing.T, store storage.Store, id string, s anlState) *storage.Game {
	t.Helper()
	raw, err := json.Marshal(s)
	require.NoError(t, err)
	g := &storage.Game{ID: id, Kind: "anl", GuildID: "g", ThreadID: "th-" + id, Players: []string{"alice", "bob"},
		Active: !s.Over, State: raw, StateVersion: 1}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().Put(g, commandstest.T0) }))
	return g
}

// clickAll clicks the Analysis button of game g once per user, each in a
// goroutine, and returns the answers' channel.
func clickAll(a *commands.App, g *storage.Game, users ...string) chan result {
	out := make(chan result, len(users))
	var wg sync.WaitGroup
	for _, u := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := a.Handle(commandstest.Click(commands.User{ID: u, Name: u}, commands.AnalysisButton(g).Route, "m1"))
			out <- result{r, err}
		}()
	}
	return out
}

type result struct {
	resp *commands.Response
	err  error
}

// TestAnalysisOnceForWaitingClicks: three clicks on a game whose analysis
// is being computed wait for that one computation and are all answered
// privately; a later click answers from the store.
func TestAnalysisOnceForWaitingClicks(t *testing.T) {
	t.Parallel()
	g := newAnalyser()
	a, _, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*anlState](a, g) })
	rec := putAnlGame(t, store, "game1", anlState{Moves: 3, Over: true})
	answers := clickAll(a, rec, "alice")
	g.waitStarted(t, answers)
	more := clickAll(a, rec, "bob", "carol")
	require.Eventually(t, func() bool { return a.AnalysesWaiting() == 3 }, testkit.Wait, 1e7, "the clicks wait")
	// Meanwhile the game's lock is free: its other actions go on.
	ping, err := a.Handle(commandstest.Click(commands.User{ID: "erin"}, commands.GameButton(rec, "ping", "Ping", 0).Route, "m1"))
	require.NoError(t, err)
	require.Equal(t, "pong", ping.Message.Content)
	close(g.release)
	for _, ch := range []chan result{answers, more, more} {
		r := <-ch
		require.NoError(t, r.err)
		require.True(t, r.resp.Ephemeral)
		require.Equal(t, `analysis {"moves":3}`, r.resp.Message.Content)
	}
	require.EqualValues(t, 1, g.runs.Load(), "one computation")
	require.EqualValues(t, 1, a.AnalysesComputed())

	r := <-clickAll(a, rec, "dave")
	require.NoError(t, r.err)
	require.Equal(t, `analysis {"moves":3}`, r.resp.Message.Content)
	require.EqualValues(t, 1, g.runs.Load(), "answered from the store")
}

// TestAnalysisStoppedLosesNothing: a bot stopping while it computes an
// analysis answers the waiting clicks (come back later) and stores
// nothing; the next process computes it again.
func TestAnalysisStoppedLosesNothing(t *testing.T) {
	t.Parallel()
	g := newAnalyser()
	a, _, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*anlState](a, g) })
	rec := putAnlGame(t, store, "game1", anlState{Moves: 2, Over: true})
	answers := clickAll(a, rec, "alice", "bob")
	g.waitStarted(t, answers)
	require.Eventually(t, func() bool { return a.AnalysesWaiting() == 2 }, testkit.Wait, 1e7)
	a.StopAnalyses()
	for range 2 {
		r := <-answers
		require.Contains(t, commandstest.UserMsg(t, r.err), "click again")
	}
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		_, err := tx.Analyses().Get("game1")
		require.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")
		return nil
	}))
	r := <-clickAll(a, rec, "carol")
	require.Contains(t, commandstest.UserMsg(t, r.err), "click again", "a stopped pool takes no work")

	// The next process, on the same store, computes it.
	g2 := newAnalyser()
	close(g2.release)
	a2 := commands.New(store, commandstest.NewPlatform(), a.Settings, a.Log)
	a2.Now = a.Now
	t.Cleanup(a2.StopAnalyses)
	commands.Register[*anlState](a2, g2)
	r = <-clickAll(a2, rec, "alice")
	require.NoError(t, r.err)
	require.Equal(t, `analysis {"moves":2}`, r.resp.Message.Content)
	require.EqualValues(t, 1, g2.runs.Load())
}

// TestAnalysisRefusals: a running game and a game with nothing to analyse
// are refused with a clear message, computing nothing.
func TestAnalysisRefusals(t *testing.T) {
	t.Parallel()
	g := newAnalyser()
	a, _, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*anlState](a, g) })
	for _, c := range []struct {
		s    anlState
		want string
	}{{anlState{Moves: 2}, "once the game is over"}, {anlState{Over: true}, "nothing to analyse"}} {
		rec := putAnlGame(t, store, fmt.Sprintf("game%d", c.s.Moves), c.s)
		r := <-clickAll(a, rec, "alice")
		require.Contains(t, commandstest.UserMsg(t, r.err), c.want)
	}
	require.Zero(t, g.runs.Load())
	require.Zero(t, a.AnalysesComputed())
}

// sharedApp is a second process's App on store, holding a lease of its
// own, with g registered.
func sharedApp(t *testing.T, store *storage.Memory, g *analyser, settings commands.Settings) (*commands.App, storage.Lease) {
	t.Helper()
	a := commands.New(store, commandstest.NewPlatform(), settings, slog.New(slog.NewTextHandler(io.Discard, nil)))
	a.Now = func() time.Time { return commandstest.T0 }
	l, err := store.Grant(t.Context(), a.Process, time.Minute)
	require.NoError(t, err)
	a.SetLease(l)
	t.Cleanup(a.StopAnalyses)
	commands.Register[*anlState](a, g)
	return a, l
}

// TestAnalysisOnceAcrossProcesses: two processes share a store. A click
// in the second while the first computes the game's analysis waits for
// the first's (no second computation) and is answered from the store;
// when the first dies while computing, its claim ends with its lease and
// the second computes the analysis itself.
func TestAnalysisOnceAcrossProcesses(t *testing.T) {
	t.Parallel()
	store := storage.NewMemory()
	settings := commands.Settings{BoardSize: 320}
	g1, g2 := newAnalyser(), newAnalyser()
	a1, _ := sharedApp(t, store, g1, settings)
	a2, _ := sharedApp(t, store, g2, settings)
	close(g2.release) // were it to compute, it would not wait
	rec := putAnlGame(t, store, "game1", anlState{Moves: 4, Over: true})
	first := clickAll(a1, rec, "alice")
	g1.waitStarted(t, first)
	second := clickAll(a2, rec, "bob")
	require.Eventually(t, func() bool { return a2.AnalysesWaiting() == 1 }, testkit.Wait, 1e7)
	close(g1.release)
	for _, ch := range []chan result{first, second} {
		r := <-ch
		require.NoError(t, r.err)
		require.Equal(t, `analysis {"moves":4}`, r.resp.Message.Content)
	}
	require.EqualValues(t, 1, g1.runs.Load())
	require.Zero(t, g2.runs.Load(), "the second process waited for the first's analysis")

	// The first process dies while computing another game's analysis.
	g3, g4 := newAnalyser(), newAnalyser()
	a3, l3 := sharedApp(t, store, g3, settings)
	a4, _ := sharedApp(t, store, g4, settings)
	close(g4.release)
	rec = putAnlGame(t, store, "game2", anlState{Moves: 5, Over: true})
	lost := clickAll(a3, rec, "alice")
	g3.waitStarted(t, lost)
	waiting := clickAll(a4, rec, "bob")
	require.Eventually(t, func() bool { return a4.AnalysesWaiting() == 1 }, testkit.Wait, 1e7)
	require.NoError(t, l3.Revoke(t.Context()))
	r := <-waiting
	require.NoError(t, r.err)
	require.Equal(t, `analysis {"moves":5}`, r.resp.Message.Content)
	require.EqualValues(t, 1, g4.runs.Load(), "computed by the survivor")
	a3.StopAnalyses()
	<-lost
}
