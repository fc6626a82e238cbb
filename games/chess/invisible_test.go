package chess

import "testing"

// TestParseMoveIgnoresInvisibleCharacters: zero-width, bidi and control
// characters pasted with a move are removed before it is read, as the
// echo of the move removes them (internal/playertext), so a visibly legal
// move is accepted; a no-break space is white space.
func TestParseMoveIgnoresInvisibleCharacters(t *testing.T) {
	t.Parallel()
	p := StartPosition(Chess)
	for _, s := range []string{"Nf3\u200b", "\u200bNf3", "N\x00f3", "N\u200df3", "\u202eNf3\u202c",
		"\ufeffNf3", "Nf3\u00a0", "\u00a0g1f3\u2060", "g1\u200bf3"} {
		m, err := p.ParseMove(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if got := p.SAN(m); got != "Nf3" {
			t.Errorf("%q read as %s", s, got)
		}
	}
	if _, err := p.ParseMove("\u200b\x00"); err == nil {
		t.Error("nothing but invisible characters is not a move")
	}
}
