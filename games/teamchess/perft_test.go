package teamchess

import (
	"strconv"
	"testing"

	"sandtable/games/chess"
	"sandtable/games/chess/perfttest"
	"sandtable/internal/testkit"
)

// nodeLimit keeps the fast tier (and the race detector) fast.
func nodeLimit() uint64 {
	if !testkit.Long() {
		if raceEnabled {
			return 20_000
		}
		return 300_000
	}
	return 50_000_000
}

func TestPerftFile(t *testing.T) {
	t.Parallel()
	for _, c := range perfttest.Read(t, "testdata/teamchess.perft") {
		if c.Nodes > nodeLimit() {
			continue
		}
		t.Run(c.ID+"/"+strconv.Itoa(c.Depth), func(t *testing.T) {
			p, err := chess.ParseFEN(chess.TeamChess, c.FEN)
			if err != nil {
				t.Fatalf("line %d: %v", c.Line, err)
			}
			if got := Perft(&p, c.Depth); got != c.Nodes {
				t.Errorf("line %d: perft(%d) = %d, want %d", c.Line, c.Depth, got, c.Nodes)
			}
			var sum uint64
			for _, e := range PerftDivide(&p, c.Depth) {
				sum += e.Nodes
			}
			if sum != c.Nodes {
				t.Errorf("line %d: divide sums to %d, want %d", c.Line, sum, c.Nodes)
			}
		})
	}
}

// TestPerftDivideForms checks the UCI-style texts of -divide and that a
// Saboteur's subtree is exactly its one forced reply.
func TestPerftDivideForms(t *testing.T) {
	t.Parallel()
	p, _ := chess.ParseFEN(chess.TeamChess, "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1")
	got := map[string]uint64{}
	var order []string
	for _, e := range PerftDivide(&p, 2) {
		got[e.UCI] = e.Nodes
		order = append(order, e.UCI)
	}
	for i := 1; i < len(order); i++ {
		if order[i-1] >= order[i] {
			t.Fatalf("divide not sorted by UCI: %q before %q", order[i-1], order[i])
		}
	}
	want := map[string]uint64{
		"a7a8a:h8":   5,  // rook removed: the black king's 5 moves
		"a7a8p":      14, // pawn consumed: king 5 + rook 9
		"a7a8s:e8d7": 1,  // a Saboteur's subtree is its one forced reply
		"a7a8s:h8h1": 1,
		"a1h8":       3, // Qxh8+: only Kd7, Ke7, Kf7 (d8 and f8 are on the checking rank)
	}
	for uci, n := range want {
		if got[uci] != n {
			t.Errorf("divide %s = %d, want %d", uci, got[uci], n)
		}
	}
}
