package chess

import (
	"reflect"
	"strings"
	"testing"
)

// TestPGNWithComments: a comment follows its move, Black's move after a
// comment carries its number again, and the record reads back to its
// moves (ReadPGN skips comments).
func TestPGNWithComments(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "f3", "e5", "g4", "Qh4#")
	pgn := g.PGNWithComments([]Tag{{"TimeControl", "300+3"}}, "", []string{"[%clk 0:04:58]", "[%clk 0:05:01]", "[%clk 0:04:40]", "[%clk 0:04:59]"})
	if !strings.Contains(pgn, "\n[TimeControl \"300+3\"]\n") {
		t.Errorf("no TimeControl tag:\n%s", pgn)
	}
	want := "1. f3 { [%clk 0:04:58] } 1... e5 { [%clk 0:05:01] } 2. g4 { [%clk 0:04:40] }\n2... Qh4# { [%clk 0:04:59] } 0-1\n"
	if !strings.HasSuffix(pgn, want) {
		t.Errorf("movetext:\n%s\nwant the end:\n%s", pgn, want)
	}
	got, err := ReadPGN(pgn)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Moves, g.SANs()) {
		t.Errorf("read back %v, want %v", got.Moves, g.SANs())
	}
	// Fewer comments than moves: the rest have none; none at all is PGN.
	if a, b := g.PGNWithComments(nil, "", []string{"x"}), g.PGN(nil, ""); !strings.Contains(a, "1. f3 { x } 1... e5 2. g4 Qh4# 0-1") || strings.Contains(b, "{") {
		t.Errorf("partial comments:\n%s\nplain:\n%s", a, b)
	}
}
