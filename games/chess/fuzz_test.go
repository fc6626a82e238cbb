package chess

import (
	"strings"
	"testing"
)

// FuzzParseFEN: any input gives a position or an error, never a panic;
// printing a parsed position and parsing it again is stable, and the
// position's legal moves can all be printed and parsed back.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{
		StandardFEN, TartanFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "8/8/8/8/8/8/8/k1K5 b - - 0 1",
		"", "8/8/8/8 w", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	} {
		for v := byte(0); v < 3; v++ {
			f.Add(v, s)
		}
	}
	f.Fuzz(func(t *testing.T, vb byte, s string) {
		v := Variant(vb % 3)
		p, err := ParseFEN(v, s)
		if err != nil {
			return
		}
		out := p.FEN()
		q, err := ParseFEN(v, out)
		if err != nil {
			t.Fatalf("FEN() output %q does not parse: %v (input %q)", out, err, s)
		}
		if q.FEN() != out {
			t.Fatalf("round trip: %q -> %q", out, q.FEN())
		}
		if q.RepetitionKey() != p.RepetitionKey() {
			t.Fatalf("hash differs after round trip of %q", out)
		}
		_ = p.Status()
		for _, mt := range p.LegalMoveTexts() {
			m, err := p.ParseMove(mt.SAN)
			if err != nil || m != mt.Move {
				t.Fatalf("%s: SAN %q parsed as %v, %v", out, mt.SAN, m, err)
			}
			m, err = p.ParseUCI(mt.UCI)
			if err != nil || m != mt.Move {
				t.Fatalf("%s: UCI %q parsed as %v, %v", out, mt.UCI, m, err)
			}
		}
	})
}

var fuzzPositions = []struct {
	v   Variant
	fen string
}{
	{Chess, StandardFEN},
	{Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
	{Chess, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
	{Survival, TartanFEN},
	{Survival, "4k3/8/5p2/3p4/4P1N1/8/8/K7 w - - 0 1"},
	{TeamChess, "r3k2r/1P6/8/8/8/8/8/4K3 w kq - 0 1"},
	{Chess, "k7/8/1Q6/8/3Pp3/4P3/8/K7 b - d3 0 1"},         // one legal move, en passant
	{Survival, "8/8/8/2ppp3/2pQp3/1pppp3/8/N6K w - - 0 1"}, // nine forced captures
}

// FuzzParseMove: any text gives a legal move or a *MoveError, never a
// panic; an accepted move prints to SAN and UCI that parse to the same move.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e4", "Nf3", "O-O", "0-0-0", "exd5", "e8=Q", "a8K", "e2e4", "e7e8q", "Nbd2",
		"bxc3", "b8", "Ng1-f3", "exd6 e.p.", "Qxe7+", "K", "=", "x", "e9", "(", "a7a8=k"} {
		for i := range fuzzPositions {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, idx uint8, s string) {
		c := fuzzPositions[int(idx)%len(fuzzPositions)]
		p, err := ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.ParseMove(s)
		if err != nil {
			if _, ok := err.(*MoveError); !ok {
				t.Fatalf("error %T is not *MoveError", err)
			}
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			// What the refusal names as legal is legal and counted right.
			l := err.(*MoveError).Legal
			for _, text := range l.Moves {
				if _, err := p.ParseMove(text); err != nil {
					t.Fatalf("%q: listed move %q does not parse: %v", s, text, err)
				}
			}
			if len(l.Moves) > 0 && l.Total != len(p.LegalMoves()) {
				t.Fatalf("%q: listing total %d, %d legal moves", s, l.Total, len(p.LegalMoves()))
			}
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%q accepted as illegal move %s", s, m)
		}
		san := p.SAN(m)
		if m2, err := p.ParseMove(san); err != nil || m2 != m {
			t.Fatalf("SAN %q of %q parsed as %v, %v", san, s, m2, err)
		}
		if m2, err := p.ParseUCI(m.UCI()); err != nil || m2 != m {
			t.Fatalf("UCI %q of %q parsed as %v, %v", m.UCI(), s, m2, err)
		}
	})
}

// FuzzParseUCI: strict UCI parsing never panics and round-trips.
func FuzzParseUCI(f *testing.F) {
	for _, s := range []string{"e2e4", "e7e8q", "e1g1", "a7a8k", "0000", "e2e4e5", "h9h1", "a1a1"} {
		for i := range fuzzPositions {
			f.Add(uint8(i), s)
		}
	}
	f.Fuzz(func(t *testing.T, idx uint8, s string) {
		c := fuzzPositions[int(idx)%len(fuzzPositions)]
		p, _ := ParseFEN(c.v, c.fen)
		m, err := p.ParseUCI(s)
		if err != nil {
			return
		}
		if !p.IsLegal(m) {
			t.Fatalf("%q accepted as illegal %s", s, m)
		}
		// e1h1-style castling input is not UCI output; everything else echoes.
		if m.UCI() != strings.ToLower(s) && !m.IsCastle() {
			t.Fatalf("UCI %q printed back as %q", s, m.UCI())
		}
	})
}
