package chess

import (
	"math/rand"
	"slices"
	"testing"

	"sandtable/internal/testkit"
)

// slowLegal lists legal moves for variants with check the obvious way:
// every pseudo-legal move is played on a copy and kept if the mover's king
// is not attacked afterwards (castling also needs the king not in check and
// the square it crosses not attacked). It shares no pin or check-mask logic
// with the generator.
func slowLegal(p *Position) []string {
	var out []string
	for _, m := range p.pseudoMoves(nil) {
		q := *p
		q.play(m)
		k, ok := q.KingSquare(p.turn)
		if !ok || q.attacked(k, p.turn.Other(), q.occupied()) {
			continue
		}
		if m.IsCastle() {
			mid := (m.From() + m.To()) / 2
			if p.InCheck() || p.attacked(mid, p.turn.Other(), p.occupied()) {
				continue
			}
		}
		out = append(out, m.UCI())
	}
	slices.Sort(out)
	return out
}

// TestLegalMovesMatchSlowFilter compares the generator with slowLegal
// along random games in Chess and Team Chess.
func TestLegalMovesMatchSlowFilter(t *testing.T) {
	t.Parallel()
	games := 200
	if !testkit.Long() {
		games = 30
	}
	starts := []string{
		StandardFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	}
	rng := rand.New(rand.NewSource(3))
	for g := 0; g < games; g++ {
		v := Chess
		if g%2 == 1 {
			v = TeamChess
		}
		p, err := ParseFEN(v, starts[g%len(starts)])
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 200; ply++ {
			got, want := uciList(p.LegalMoves()), slowLegal(&p)
			if !slices.Equal(got, want) {
				t.Fatalf("%s %s:\ngenerator %v\nslow      %v", v, p.FEN(), got, want)
			}
			if len(got) == 0 {
				break
			}
			ms := p.LegalMoves()
			p.play(ms[rng.Intn(len(ms))])
			// Incremental hash equals a fresh one.
			q, err := ParseFEN(v, p.FEN())
			if err != nil {
				t.Fatalf("FEN() of a reached position does not parse: %v", err)
			}
			if q.RepetitionKey() != p.RepetitionKey() {
				t.Fatalf("incremental hash differs from fresh hash at %s", p.FEN())
			}
		}
	}
}

// TestDoubleCheckOnlyKingMoves: in double check only the king moves, though
// other pieces could capture or block one of the checkers. The random games
// of TestLegalMovesMatchSlowFilter reach a double check only after about 50
// games, beyond the fast tier's; these positions keep the rule in it.
func TestDoubleCheckOnlyKingMoves(t *testing.T) {
	t.Parallel()
	for _, fen := range []string{
		"4r2k/8/8/R7/8/3n4/8/1B2K3 w - - 0 1",                 // rook and knight; Bxd3 and Re5 would each answer one
		"r7/k2B4/3Pp1r1/8/P3P2p/5PR1/1K2q1b1/R1b5 w - - 0 49", // queen and bishop; Rxc1 would take one
	} {
		for _, v := range []Variant{Chess, TeamChess} {
			p, err := ParseFEN(v, fen)
			if err != nil {
				t.Fatal(err)
			}
			if n := (p.attackersTo(p.Pieces(p.turn, King).First(), p.occupied()) & p.byColor[p.turn.Other()]).Count(); n != 2 {
				t.Fatalf("%s: %d checkers, want a double check", fen, n)
			}
			got := uciList(p.LegalMoves())
			if want := slowLegal(&p); !slices.Equal(got, want) {
				t.Errorf("%s %s:\ngenerator %v\nslow      %v", v, fen, got, want)
			}
			for _, m := range p.LegalMoves() {
				if p.PieceAt(m.From()).Role() != King {
					t.Errorf("%s %s: %s moves a piece other than the king", v, fen, m.UCI())
				}
			}
		}
	}
}

// TestMagics checks every relevant occupancy of every square against the
// slow ray walk.
func TestMagics(t *testing.T) {
	t.Parallel()
	for sq := Square(0); sq < 64; sq++ {
		for _, c := range []struct {
			e    *magicEntry
			dirs *[4][2]int
			f    func(Square, Bitboard) Bitboard
		}{{&rookMagics[sq], &rookDirs, rookAttacks}, {&bishopMagics[sq], &bishopDirs, bishopAttacks}} {
			var sub Bitboard
			for {
				if c.f(sq, sub) != slidingAttacks(sq, sub, c.dirs) {
					t.Fatalf("slider attacks wrong on %s with occupancy %x", sq, uint64(sub))
				}
				sub = (sub - c.e.mask) & c.e.mask
				if sub == 0 {
					break
				}
			}
		}
	}
}
