package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
)

// hugeTeamChessFEN has four pawns a side one step from promotion: chains
// of Saboteurs forcing Saboteurs give 507,247 legal moves, which take
// seconds to list. Before the Team Chess player could stop inside that
// list and sorted it in O(n log n), it gave no answer in 120 s.
const hugeTeamChessFEN = "rn1qk1nr/PP4PP/8/8/8/8/pp4pp/RN1QK1NR w KQkq - 0 1"

// within runs f and fails the test when it has not returned before the
// deadline (a hang, not a timing check: the deadline is generous).
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: no answer within %v", what, d)
	}
}

// TestTeamChessHugePositionAnswers: in the 507k-move position the player
// answers a legal action under a short time cap, under a cancelled
// context and under a context cancelled during the search, each well
// within a minute.
func TestTeamChessHugePositionAnswers(t *testing.T) {
	g := tcGame(t, hugeTeamChessFEN)
	if n := teamchess.CountLegalMoves(new(g.Position())); n != 507_247 {
		t.Fatalf("%d legal moves, want 507247", n)
	}
	check := func(what string, r TeamChessResult) {
		t.Helper()
		if _, err := g.Clone().Apply(r.Action); err != nil {
			t.Fatalf("%s: %+v is not legal: %v", what, r.Action, err)
		}
	}
	p := tcPlayer(t, "strongest", 1)
	var r TeamChessResult
	within(t, time.Minute, "Choose with a 500 ms cap", func() { r = p.Choose(g, 500*time.Millisecond) })
	check("Choose with a 500 ms cap", r)

	// Without a cap the level's node budget ends the search: it finds a
	// Political Agent's revolution, which wins at once with one commander
	// a side.
	within(t, time.Minute, "Choose without a cap", func() { r = p.Choose(g, 0) })
	check("Choose without a cap", r)
	if !strings.HasSuffix(r.Action.Move, "p") || r.Score < Mate-5*MaxPly {
		t.Errorf("Choose without a cap: %s scoring %d; want a winning revolution", r.Action.Move, r.Score)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	within(t, time.Minute, "ChooseContext, cancelled", func() { r = p.ChooseContext(ctx, g) })
	check("ChooseContext, cancelled", r)

	// No budget at all: only the cancellation ends it.
	p.Level.Nodes, p.Level.Depth = 0, MaxDepth
	ctx, cancel = context.WithCancel(context.Background())
	started := make(chan struct{})
	go func() {
		<-started
		cancel()
	}()
	within(t, time.Minute, "ChooseContext, cancelled while searching", func() {
		close(started)
		r = p.ChooseContext(ctx, g)
	})
	check("ChooseContext, cancelled while searching", r)
}

// TestTeamChessStopBeforeChooseContext: a context cancelled before the
// search gives a legal action in ordinary positions too, and a finished
// game no action.
func TestTeamChessStopBeforeChooseContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, fen := range []string{"", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "4k3/1P6/2n5/7q/8/8/8/Q3K3 w - - 0 1"} {
		g := tcGame(t, fen)
		r := tcPlayer(t, "strongest", 1).ChooseContext(ctx, g)
		if _, err := g.Apply(r.Action); err != nil {
			t.Fatalf("%q: %+v: %v", fen, r.Action, err)
		}
	}
}

// TestTeamChessActionsSorted: the move list is ordered by tcOrder,
// descending, ties in generation order (what the insertion sort it
// replaced gave, so the seeded choices are unchanged).
func TestTeamChessActionsSorted(t *testing.T) {
	for _, fen := range []string{"", "4k3/1P6/2n5/7q/8/8/8/Q3K3 w - - 0 1", "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1"} {
		g := tcGame(t, fen)
		pos := g.Position()
		gen := teamchess.LegalMoves(&pos)
		want := slices.Clone(gen)
		keys := make([]int, len(want))
		for i, m := range want {
			keys[i] = tcOrder(&pos, m)
		}
		for i := 1; i < len(want); i++ {
			for j := i; j > 0 && keys[j] > keys[j-1]; j-- {
				keys[j], keys[j-1] = keys[j-1], keys[j]
				want[j], want[j-1] = want[j-1], want[j]
			}
		}
		got := (&tcSearch{}).actions(g, 0)
		if len(got) != len(want) {
			t.Fatalf("%q: %d actions, want %d", fen, len(got), len(want))
		}
		for i := range want {
			if !got[i].move.Equal(want[i]) {
				t.Fatalf("%q: action %d is %v, want %v", fen, i, got[i].move, want[i])
			}
		}
	}
}

// TestSortMovesStable: the root ordering is descending and stable.
func TestSortMovesStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 300 {
		moves := make([]chess.Move, n)
		scores := make([]int, n)
		for i := range moves {
			moves[i] = chess.Move(i)
			scores[i] = r.IntN(8)
		}
		sortMoves(moves, scores)
		for i := 1; i < n; i++ {
			if scores[i] > scores[i-1] || scores[i] == scores[i-1] && moves[i] < moves[i-1] {
				t.Fatalf("n=%d: not a stable descending order at %d", n, i)
			}
		}
	}
}

// TestSearchContextStops: a cancelled context, before or during the
// search, gives a legal move at once in each variant; SearchContext's
// deadline caps the time like Limits.Time.
func TestSearchContextStops(t *testing.T) {
	for _, v := range []chess.Variant{chess.Chess, chess.Survival} {
		pos := chess.StartPosition(v)
		s := NewSearcher(16)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var r Result
		within(t, time.Minute, v.String()+", cancelled", func() { r = s.SearchContext(ctx, pos, nil, Limits{}) })
		if !pos.IsLegal(r.Move) {
			t.Fatalf("%s, cancelled: %v is not legal", v, r.Move)
		}
		ctx, cancel = context.WithCancel(context.Background())
		s.OnInfo = func(in Info) {
			if in.Depth == 2 {
				cancel()
			}
		}
		within(t, time.Minute, v.String()+", cancelled at depth 2", func() { r = s.SearchContext(ctx, pos, nil, Limits{}) })
		if !pos.IsLegal(r.Move) || r.Depth < 2 {
			t.Fatalf("%s, cancelled at depth 2: %v at depth %d", v, r.Move, r.Depth)
		}
		s.OnInfo = nil
		ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
		within(t, time.Minute, v.String()+", deadline", func() { r = s.SearchContext(ctx, pos, nil, Limits{}) })
		cancel()
		if !pos.IsLegal(r.Move) {
			t.Fatalf("%s, deadline: %v is not legal", v, r.Move)
		}
	}
	// The Player form.
	p, _ := NewPlayer("strongest", 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pos := chess.StartPosition(chess.Chess)
	if r := ChooseContext(ctx, p, pos, nil, 0); !pos.IsLegal(r.Move) {
		t.Fatalf("ChooseContext: %v is not legal", r.Move)
	}
}

// TestSandTableChooseContextCancelled: a cancelled context still gives a
// legal action.
func TestSandTableChooseContextCancelled(t *testing.T) {
	pos := stStarted(t, 1)
	p := mustSTPlayer(t, "strongest", 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := p.ChooseContext(ctx, pos.View(pos.ToMove()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pos.Clone().Apply(a); err != nil {
		t.Fatalf("%v is not legal: %v", a, err)
	}
	if p.Capped != 1 {
		t.Fatalf("Capped %d, want 1 (the search was cut short)", p.Capped)
	}
}
