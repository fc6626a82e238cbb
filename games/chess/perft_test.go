package chess

import (
	"strconv"
	"testing"

	"sandtable/games/chess/perfttest"
	"sandtable/internal/testkit"
)

// nodeLimit bounds the perft sizes run: small in the fast tier (and smaller
// still under the race detector, which slows the search about tenfold).
func nodeLimit() uint64 {
	if !testkit.Long() {
		if raceEnabled {
			return 300_000
		}
		return 3_000_000
	}
	return 200_000_000
}

func runPerftFile(t *testing.T, v Variant, name string) {
	limit := nodeLimit()
	for _, c := range perfttest.Read(t, name) {
		if c.Nodes > limit {
			continue
		}
		t.Run(c.ID+"/"+strconv.Itoa(c.Depth), func(t *testing.T) {
			p, err := ParseFEN(v, c.FEN)
			if err != nil {
				t.Fatalf("%s line %d: %v", name, c.Line, err)
			}
			var got uint64
			if c.Nodes > 5_000_000 {
				got = PerftBulk(&p, c.Depth)
			} else {
				got = Perft(&p, c.Depth)
				if b := PerftBulk(&p, c.Depth); b != got {
					t.Errorf("PerftBulk = %d, Perft = %d", b, got)
				}
			}
			if got != c.Nodes {
				t.Errorf("%s: perft(%d) = %d, want %d (%s line %d)", c.FEN, c.Depth, got, c.Nodes, name, c.Line)
			}
		})
	}
}

func TestPerftChess(t *testing.T) { runPerftFile(t, Chess, "testdata/chess.perft") }

// TestPerftTeamChessEqualsChess: without a pawn able to reach the last rank
// within the depth, Team Chess must give exactly the FIDE counts (issue 3).
func TestPerftTeamChessEqualsChess(t *testing.T) {
	t.Parallel()
	limit := nodeLimit()
	for _, c := range perfttest.Read(t, "testdata/chess.perft") {
		switch c.ID {
		case "start", "position3", "position6", "castle-rights", "castling-prevented",
			"short-castling-gives-check", "long-castling-gives-check":
		default:
			continue
		}
		// Black's f-pawn in position 3 reaches f1 at ply 6.
		if c.Nodes > limit || (c.ID == "start" && c.Depth > 5) || (c.ID == "position3" && c.Depth > 5) {
			continue
		}
		p, err := ParseFEN(TeamChess, c.FEN)
		if err != nil {
			t.Fatal(err)
		}
		if got := PerftBulk(&p, c.Depth); got != c.Nodes {
			t.Errorf("teamchess %s perft(%d) = %d, want %d", c.ID, c.Depth, got, c.Nodes)
		}
	}
}

func TestPerftSurvival(t *testing.T) { runPerftFile(t, Survival, "testdata/survival.perft") }

func TestPerftDivideSumsAndSorted(t *testing.T) {
	t.Parallel()
	p := StartPosition(Chess)
	d := PerftDivide(&p, 3)
	if len(d) != 20 {
		t.Fatalf("divide has %d root moves, want 20", len(d))
	}
	var sum uint64
	for i, e := range d {
		sum += e.Nodes
		if i > 0 && d[i-1].Move.UCI() >= e.Move.UCI() {
			t.Errorf("divide not sorted: %s before %s", d[i-1].Move, e.Move)
		}
	}
	if sum != 8902 {
		t.Errorf("divide sum = %d, want 8902", sum)
	}
	if PerftDivide(&p, 0) != nil {
		t.Error("divide at depth 0 should be empty")
	}
	if Perft(&p, 0) != 1 || PerftBulk(&p, 0) != 1 {
		t.Error("perft(0) must be 1")
	}
}

func TestPerftZeroAllocsPerNode(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under the race detector")
	}
	p := StartPosition(Chess)
	pf := newPerfter(4)
	allocs := allocsPerRun(3, func() { pf.run(&p, 4, false) })
	if allocs != 0 {
		t.Errorf("perft(4) with a prepared perfter allocated %.0f times, want 0", allocs)
	}
}
