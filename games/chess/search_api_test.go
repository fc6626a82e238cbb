package chess

import (
	"math/rand/v2"
	"testing"
)

// TestSearchAPI checks the fast paths games/engine uses against the
// checked ones along random games of every variant: PlayUnchecked gives
// the position Play gives for every legal move; the union of AttacksFrom
// over a side's pieces is exactly the squares IsAttacked reports for it;
// AllOccupied is both sides' pieces.
func TestSearchAPI(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, v := range Variants {
		for range 20 {
			p := StartPosition(v)
			for ply := 0; ply < 80; ply++ {
				if p.AllOccupied() != p.Occupied(White)|p.Occupied(Black) {
					t.Fatalf("%s: AllOccupied", p.FEN())
				}
				for _, c := range []Color{White, Black} {
					var att Bitboard
					for b := p.Occupied(c); b != 0; b &= b - 1 {
						sq := b.First()
						att |= AttacksFrom(p.PieceAt(sq), sq, p.AllOccupied())
					}
					for sq := Square(0); sq < 64; sq++ {
						if att.Has(sq) != p.IsAttacked(sq, c) {
							t.Fatalf("%s: %s attacks %s: AttacksFrom %v, IsAttacked %v", p.FEN(), c, sq, att.Has(sq), p.IsAttacked(sq, c))
						}
					}
				}
				moves := p.LegalMoves()
				if len(moves) == 0 {
					break
				}
				for _, m := range moves {
					want, err := p.Play(m)
					if err != nil {
						t.Fatal(err)
					}
					if got := p.PlayUnchecked(m); got != want {
						t.Fatalf("%s: PlayUnchecked(%s) = %s, Play gives %s", p.FEN(), m, got.FEN(), want.FEN())
					}
				}
				p = p.PlayUnchecked(moves[rng.IntN(len(moves))])
			}
		}
	}
	if AttacksFrom(MakePiece(White, Rook), NoSquare, 0) != 0 || AttacksFrom(NoPiece, A1, 0) != 0 {
		t.Fatal("AttacksFrom of no square or no piece")
	}
}
