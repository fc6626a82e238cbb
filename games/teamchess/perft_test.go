package teamchess

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"sandtable/games/chess"
)

type perftCase struct {
	id    string
	fen   string
	depth int
	nodes uint64
	line  int
}

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

// nodeLimit keeps -short (and the race detector) fast.
func nodeLimit() uint64 {
	if testing.Short() {
		if raceEnabled {
			return 20_000
		}
		return 300_000
	}
	return 50_000_000
}

func TestPerftFile(t *testing.T) {
	for _, c := range readPerftFile(t, "testdata/teamchess.perft") {
		if c.nodes > nodeLimit() {
			continue
		}
		t.Run(c.id+"/"+strconv.Itoa(c.depth), func(t *testing.T) {
			p, err := chess.ParseFEN(chess.TeamChess, c.fen)
			if err != nil {
				t.Fatalf("line %d: %v", c.line, err)
			}
			if got := Perft(&p, c.depth); got != c.nodes {
				t.Errorf("line %d: perft(%d) = %d, want %d", c.line, c.depth, got, c.nodes)
			}
			var sum uint64
			for _, e := range PerftDivide(&p, c.depth) {
				sum += e.Nodes
			}
			if sum != c.nodes {
				t.Errorf("line %d: divide sums to %d, want %d", c.line, sum, c.nodes)
			}
		})
	}
}

// TestPerftDivideForms checks the UCI-style texts of -divide and that a
// Saboteur's subtree is exactly its one forced reply.
func TestPerftDivideForms(t *testing.T) {
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
