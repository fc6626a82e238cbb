package chess

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

type perftCase struct {
	id    string
	fen   string
	depth int
	nodes uint64
	line  int
}

// readPerftFile reads testdata perft files: "id", "epd", "perft" lines.
func readPerftFile(t *testing.T, name string) []perftCase {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []perftCase
	var id, fen string
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, _ := strings.Cut(line, " ")
		switch key {
		case "id":
			id = rest
		case "epd":
			fen = rest
		case "perft":
			var c perftCase
			if _, err := fmt.Sscanf(rest, "%d %d", &c.depth, &c.nodes); err != nil {
				t.Fatalf("%s:%d: %v", name, ln, err)
			}
			c.id, c.fen, c.line = id, fen, ln
			out = append(out, c)
		default:
			t.Fatalf("%s:%d: unknown line %q", name, ln, line)
		}
	}
	return out
}

// nodeLimit bounds the perft sizes run: small under -short (and smaller
// still under the race detector, which slows the search about tenfold).
func nodeLimit() uint64 {
	if testing.Short() {
		if raceEnabled {
			return 300_000
		}
		return 3_000_000
	}
	return 200_000_000
}

func runPerftFile(t *testing.T, v Variant, name string) {
	limit := nodeLimit()
	for _, c := range readPerftFile(t, name) {
		if c.nodes > limit {
			continue
		}
		t.Run(c.id+"/"+strconv.Itoa(c.depth), func(t *testing.T) {
			p, err := ParseFEN(v, c.fen)
			if err != nil {
				t.Fatalf("%s line %d: %v", name, c.line, err)
			}
			var got uint64
			if c.nodes > 5_000_000 {
				got = PerftBulk(&p, c.depth)
			} else {
				got = Perft(&p, c.depth)
				if b := PerftBulk(&p, c.depth); b != got {
					t.Errorf("PerftBulk = %d, Perft = %d", b, got)
				}
			}
			if got != c.nodes {
				t.Errorf("%s: perft(%d) = %d, want %d (%s line %d)", c.fen, c.depth, got, c.nodes, name, c.line)
			}
		})
	}
}

func TestPerftChess(t *testing.T) { runPerftFile(t, Chess, "testdata/chess.perft") }

// TestPerftTeamChessEqualsChess: without a pawn able to reach the last rank
// within the depth, Team Chess must give exactly the FIDE counts (issue 3).
func TestPerftTeamChessEqualsChess(t *testing.T) {
	limit := nodeLimit()
	for _, c := range readPerftFile(t, "testdata/chess.perft") {
		switch c.id {
		case "start", "position3", "position6", "castle-rights", "castling-prevented",
			"short-castling-gives-check", "long-castling-gives-check":
		default:
			continue
		}
		// Black's f-pawn in position 3 reaches f1 at ply 6.
		if c.nodes > limit || (c.id == "start" && c.depth > 5) || (c.id == "position3" && c.depth > 5) {
			continue
		}
		p, err := ParseFEN(TeamChess, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := PerftBulk(&p, c.depth); got != c.nodes {
			t.Errorf("teamchess %s perft(%d) = %d, want %d", c.id, c.depth, got, c.nodes)
		}
	}
}

func TestPerftSurvival(t *testing.T) { runPerftFile(t, Survival, "testdata/survival.perft") }

func TestPerftDivideSumsAndSorted(t *testing.T) {
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
	allocs := testing.AllocsPerRun(3, func() { pf.run(&p, 4, false) })
	if allocs != 0 {
		t.Errorf("perft(4) with a prepared perfter allocated %.0f times, want 0", allocs)
	}
}
