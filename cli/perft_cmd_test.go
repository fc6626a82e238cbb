package cli

import (
	"bytes"
	"strings"
	"testing"
)

func runPerft(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	code := perftMain(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestPerftCommandTotal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-depth", "3"}, "8902\n"},
		{[]string{"-variant", "chess", "-fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "-depth", "2"}, "2039\n"},
		{[]string{"-variant", "survival", "-depth", "2"}, "400\n"},
		{[]string{"-variant", "survival", "-fen", "8/8/8/8/8/8/8/k1K5 b KQ - 0 1", "-depth", "2"}, "7\n"},
		// A finished Survival position (Black has no piece): no legal move
		// (Fairy-Stockfish: 0; 3 before issue 26), with or without -divide.
		{[]string{"-variant", "survival", "-fen", "8/8/8/8/8/8/8/K7 w - - 0 1", "-depth", "1"}, "0\n"},
		{[]string{"-variant", "survival", "-fen", "8/8/8/8/8/8/8/K7 w - - 0 1", "-depth", "2", "-divide"}, "0\n"},
		{[]string{"-variant", "teamchess", "-depth", "3"}, "8902\n"},
		// Team Chess sacrifices, counted per role choice (games/teamchess/testdata/teamchess.perft).
		{[]string{"-variant", "teamchess", "-fen", "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", "-depth", "2"}, "90\n"},
		{[]string{"-variant", "teamchess", "-fen", "4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1", "-depth", "1"}, "72\n"},
		{[]string{"-depth", "0"}, "1\n"},
		// a FEN copied from a file saved with a UTF-8 byte-order mark
		{[]string{"-fen", "\uFEFFrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "-depth", "1"}, "20\n"},
	} {
		out, errOut, code := runPerft(c.args...)
		if code != 0 || out != c.want {
			t.Errorf("perft %v: code %d, stdout %q, want %q (stderr %q)", c.args, code, out, c.want, errOut)
		}
		if !strings.Contains(errOut, "nodes/s") {
			t.Errorf("perft %v: timing should go to stderr, got %q", c.args, errOut)
		}
	}
}

func TestPerftCommandDivide(t *testing.T) {
	t.Parallel()
	out, _, code := runPerft("-variant", "survival", "-depth", "2", "-divide")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 21 || lines[20] != "400" {
		t.Fatalf("divide output: %q", out)
	}
	if lines[0] != "a7a8b 20" || lines[4] != "a7a8r 20" || lines[19] != "g7g8r 20" {
		t.Errorf("divide lines not sorted by UCI: %v", lines[:5])
	}
	for _, l := range lines[:20] {
		if f := strings.Fields(l); len(f) != 2 || f[1] != "20" {
			t.Errorf("bad divide line %q", l)
		}
	}
}

// TestPerftCommandTeamChessDivide: hand count in the comments of
// games/teamchess/testdata/teamchess.perft ("assassin-agent-saboteur"):
// king 5 + Queen 15 + a8: Assassin xh8 1, Political Agent 1, Saboteur 14.
func TestPerftCommandTeamChessDivide(t *testing.T) {
	t.Parallel()
	out, _, code := runPerft("-variant", "teamchess", "-fen", "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", "-depth", "1", "-divide")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 37 || lines[36] != "36" {
		t.Fatalf("divide output: %q", out)
	}
	want := []string{"a1a2 1", "a1a3 1", "a1a4 1", "a1a5 1", "a1a6 1", "a1b1 1", "a1b2 1", "a1c1 1",
		"a1c3 1", "a1d1 1", "a1d4 1", "a1e5 1", "a1f6 1", "a1g7 1", "a1h8 1",
		"a7a8a:h8 1", "a7a8p 1",
		"a7a8s:e8d7 1", "a7a8s:e8d8 1", "a7a8s:e8e7 1", "a7a8s:e8f7 1", "a7a8s:e8f8 1",
		"a7a8s:h8f8 1", "a7a8s:h8g8 1", "a7a8s:h8h1 1", "a7a8s:h8h2 1", "a7a8s:h8h3 1",
		"a7a8s:h8h4 1", "a7a8s:h8h5 1", "a7a8s:h8h6 1", "a7a8s:h8h7 1",
		"e1d1 1", "e1d2 1", "e1e2 1", "e1f1 1", "e1f2 1"}
	if strings.Join(lines[:36], ",") != strings.Join(want, ",") {
		t.Errorf("divide lines:\n%s", strings.Join(lines[:36], "\n"))
	}
	// Depth 2: a Saboteur has exactly its forced reply below it.
	out, _, _ = runPerft("-variant", "teamchess", "-fen", "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", "-depth", "2", "-divide")
	if !strings.Contains(out, "\na7a8s:h8h1 1\n") || !strings.Contains(out, "\na7a8p 14\n") || !strings.HasSuffix(out, "\n266\n") {
		t.Errorf("depth 2 divide: %q", out)
	}
}

func TestPerftCommandErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{}, "-depth is required"},
		{[]string{"-depth", "-1"}, "at least 0"},
		{[]string{"-depth", "-5"}, "-depth -5 is negative"},
		{[]string{"-depth", "21"}, "too deep"},
		{[]string{"-depth", "x"}, "invalid value"},
		{[]string{"-variant", "xiangqi", "-depth", "1"}, "unknown variant"},
		{[]string{"-fen", "8/8/8 w - - 0 1", "-depth", "1"}, "expected 8 ranks"},
		{[]string{"-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "-depth", "1"}, "quote the FEN"},
		{[]string{"-depth", "1", "extra"}, "unexpected argument"},
		{[]string{"-bogus"}, "flag provided but not defined"},
	} {
		out, errOut, code := runPerft(c.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.msg) {
			t.Errorf("perft %v: code %d stdout %q stderr %q, want exit 2 and %q", c.args, code, out, errOut, c.msg)
		}
	}
	out, _, code := runPerft("-h")
	if code != 0 || !strings.Contains(out, "usage: sandtable perft") {
		t.Errorf("-h: code %d out %q", code, out)
	}
}
