package chess

import (
	"slices"
	"strings"
	"testing"
)

// White king a8 is checked by the rook e8; the pawn c7 can reach c8.
const teamCheckFEN = "K3r2k/2P5/8/8/8/8/8/8 w - - 0 1"

func TestTeamChessSacrificeHooks(t *testing.T) {
	t.Parallel()
	fide, _ := ParseFEN(Chess, teamCheckFEN)
	team, _ := ParseFEN(TeamChess, teamCheckFEN)
	// FIDE: promoting on c8 blocks the check. Team Chess: the pawn is
	// consumed, so the bare sacrifice does not block and is illegal.
	if n := len(fide.LegalMoves()); n != 6 {
		t.Errorf("FIDE legal moves = %d, want 6 (Ka7 Kb7 c8=Q/R/B/N)", n)
	}
	if got := uciList(team.LegalMoves()); !slices.Equal(got, []string{"a8a7", "a8b7"}) {
		t.Errorf("Team Chess legal moves = %v, want [a8a7 a8b7]", got)
	}
	c7, c8, e8, h8, a8 := SquareAt(2, 6), SquareAt(2, 7), SquareAt(4, 7), SquareAt(7, 7), SquareAt(0, 7)
	bare := NewSacrifice(c7, c8)
	if got := team.SacrificeCandidates(nil); !slices.Equal(got, []Move{bare}) {
		t.Errorf("SacrificeCandidates = %v", got)
	}
	if fide.SacrificeCandidates(nil) != nil {
		t.Error("no sacrifices in FIDE chess")
	}
	cases := []struct {
		m     Move
		legal bool
		san   string
	}{
		{bare, false, ""},
		{bare.WithRemoved(e8), true, "c8:xe8"},        // an effect removing the checker
		{bare.WithPlaced(Queen), true, "c8=Q"},        // a queen placed on c8 blocks
		{bare.WithRemoved(h8), false, ""},             // never the king
		{bare.WithRemoved(a8), false, ""},             // never an own piece
		{bare.WithRemoved(SquareAt(3, 3)), false, ""}, // nothing there
		{bare.WithPlaced(King), false, ""},
		{bare.WithPlaced(Queen).WithTag(2), true, "c8=Q~2"},
	}
	for _, c := range cases {
		if got := team.IsLegal(c.m); got != c.legal {
			t.Errorf("IsLegal(%s) = %v, want %v", c.m, got, c.legal)
		}
		if c.legal {
			if got := team.SAN(c.m); got != c.san {
				t.Errorf("SAN(%s) = %q, want %q", c.m, got, c.san)
			}
		}
	}
	after, err := team.Play(bare.WithRemoved(e8))
	if err != nil {
		t.Fatal(err)
	}
	if after.PieceAt(c7) != NoPiece || after.PieceAt(c8) != NoPiece || after.PieceAt(e8) != NoPiece {
		t.Errorf("after Assassin-like sacrifice: %s", after.FEN())
	}
	after, _ = team.Play(bare.WithPlaced(Queen))
	if after.PieceAt(c8) != MakePiece(White, Queen) || after.HalfmoveClock() != 0 {
		t.Errorf("after Royal-Guard-like sacrifice: %s", after.FEN())
	}
	m := bare.WithPlaced(Queen).WithTag(5)
	if m.Tag() != 5 || m.Promoted() != Queen || m.UCI() != "c7c8q~5" {
		t.Errorf("tag/placed encoding: %v %v %s", m.Tag(), m.Promoted(), m.UCI())
	}
	if sq, ok := bare.WithRemoved(e8).Removed(); !ok || sq != e8 || bare.WithRemoved(e8).UCI() != "c7c8xe8" {
		t.Error("removed encoding")
	}
}

func TestTeamChessBareSacrifice(t *testing.T) {
	t.Parallel()
	p, _ := ParseFEN(TeamChess, "r3k2r/1P6/8/8/8/8/8/4K3 w kq - 0 1")
	got := uciList(p.LegalMoves())
	for _, want := range []string{"b7a8", "b7b8"} {
		if !slices.Contains(got, want) {
			t.Errorf("legal moves %v lack %s", got, want)
		}
	}
	m, err := p.ParseMove("bxa8")
	if err != nil || !m.IsSacrifice() {
		t.Fatalf("bxa8 = %v, %v", m, err)
	}
	after, _ := p.Play(m)
	if after.PieceAt(SquareAt(0, 7)) != NoPiece || after.PieceAt(SquareAt(1, 6)) != NoPiece {
		t.Errorf("bare sacrifice capture: %s", after.FEN())
	}
	if after.Castling() != BlackKingside {
		t.Errorf("capturing the a8 rook must remove q: %v", after.Castling())
	}
	// Removing the h8 rook by an effect also removes the right k.
	after, err = p.Play(NewSacrifice(SquareAt(1, 6), SquareAt(1, 7)).WithRemoved(H8))
	if err != nil {
		t.Fatal(err)
	}
	if after.Castling() != BlackQueenside {
		t.Errorf("removing the h8 rook must remove k: %v", after.Castling())
	}
}

func uciList(ms []Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.UCI()
	}
	slices.Sort(out)
	return out
}

// TestPassTurn: a besieged Team Chess side passes (rule 2.1): the other
// side moves, the en passant right lapses, the clocks advance as after a
// move, and the result is the position its FEN describes (same hash).
func TestPassTurn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ fen, want string }{
		{"7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", "7k/5K2/6Q1/8/8/8/8/8 w - - 1 2"},
		{"7k/5K2/6Q1/8/8/8/8/8 w - - 4 9", "7k/5K2/6Q1/8/8/8/8/8 b - - 5 9"},
		// The en passant right (exd6) lapses with the pass.
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/3pP3/8/8/8/4K3 b - - 1 1"},
		// Clocks beyond what a FEN may say are no error.
		{"7k/5K2/6Q1/8/8/8/8/8 b - - 100000 100000", "7k/5K2/6Q1/8/8/8/8/8 w - - 100001 100001"},
	} {
		p, err := ParseFEN(TeamChess, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		q, err := p.PassTurn()
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if q.FEN() != c.want {
			t.Errorf("%s: after the pass %s, want %s", c.fen, q.FEN(), c.want)
		}
		if p.FEN() != c.fen {
			t.Errorf("%s: PassTurn changed the position to %s", c.fen, p.FEN())
		}
		if r, err := ParseFEN(TeamChess, c.want); err == nil && r.Hash() != q.Hash() {
			t.Errorf("%s: hash after the pass differs from the FEN's", c.fen)
		}
	}
	for _, c := range []struct {
		v        Variant
		fen, err string
	}{
		{TeamChess, "4k3/8/8/8/8/8/8/4K2r w - - 0 1", "White is in check and cannot pass"},
		{Chess, "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", "only Team Chess has a pass"},
		{Survival, "8/8/8/8/8/p7/P7/8 w - - 0 1", "only Team Chess has a pass"},
	} {
		p, _ := ParseFEN(c.v, c.fen)
		if _, err := p.PassTurn(); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: PassTurn error %v, want %q", c.fen, err, c.err)
		}
	}
}
