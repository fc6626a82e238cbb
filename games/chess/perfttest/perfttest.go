// Package perfttest reads the perft files the 8x8 engines are tested
// against (games/chess/testdata/*.perft, games/teamchess/testdata/*.perft).
//
// A file has one item per line; blank lines and lines starting with '#' are
// skipped:
//
//	id <name>              names the positions that follow
//	epd <FEN>              the position the next perft lines count from
//	perft <depth> <nodes>  the leaf count at that depth
package perfttest

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Case is one "perft" line with the id and position in force there.
type Case struct {
	ID    string
	FEN   string
	Depth int
	Nodes uint64
	Line  int // 1-based line number in the file
}

// Read returns the cases of the perft file name in file order. A missing
// file or a malformed line fails the test t, naming the file and line.
func Read(t testing.TB, name string) []Case {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Case
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
			c := Case{ID: id, FEN: fen, Line: ln}
			if _, err := fmt.Sscanf(rest, "%d %d", &c.Depth, &c.Nodes); err != nil {
				t.Fatalf("%s:%d: %v", name, ln, err)
			}
			out = append(out, c)
		default:
			t.Fatalf("%s:%d: unknown line %q", name, ln, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}
