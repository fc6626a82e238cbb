package teamchess

import (
	"testing"

	"sandtable/games/chess"
)

// TestParseMoveIgnoresInvisibleCharacters: Team Chess moves, sacrifices
// included, are read without the invisible characters the echo removes.
func TestParseMoveIgnoresInvisibleCharacters(t *testing.T) {
	t.Parallel()
	p := chess.StartPosition(chess.TeamChess)
	for _, s := range []string{"Nf3\u200b", "\u200bNf3", "N\x00f3", "Nf3\u00a0", "g1f3\ufeff"} {
		m, err := ParseMove(&p, s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if got := SAN(&p, m); got != "Nf3" {
			t.Errorf("%q read as %s", s, got)
		}
	}
	q, _ := chess.ParseFEN(chess.TeamChess, "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1")
	for _, s := range []string{"a8=Assassin:xh8\u200b", "a8=Assa\u200dssin:x\u2060h8", "a8=Saboteur:K\x00d7"} {
		if _, err := ParseMove(&q, s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}
