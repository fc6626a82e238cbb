package teamchess

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"sandtable/games/chess"
	"sandtable/games/chess/perfttest"
	"sandtable/internal/testkit"
)

// refMoves is a deliberately simple, brute-force reading of ruling 3, kept
// independent of legal.go: ordinary moves from the chess core; then for
// every own pawn, every destination square, every role and every target
// square, the sacrifice form is kept when the rule text allows it and the
// chess core says the mover's king is safe after it (chess.IsLegal).
func refMoves(p *chess.Position) []Move {
	var out []Move
	for _, m := range p.LegalMoves() {
		if !m.IsSacrifice() {
			out = append(out, Move{Board: m})
		}
	}
	us := p.Turn()
	queenOnBoard := false
	for sq := chess.Square(0); sq < 64; sq++ {
		if p.PieceAt(sq) == chess.MakePiece(us, chess.Queen) {
			queenOnBoard = true
		}
	}
	for from := chess.Square(0); from < 64; from++ {
		if p.PieceAt(from) != chess.MakePiece(us, chess.Pawn) {
			continue
		}
		for to := chess.Square(0); to < 64; to++ {
			bare := chess.NewSacrifice(from, to)
			if !queenOnBoard {
				m := bare.WithPlaced(chess.Queen).WithTag(uint8(RoyalGuard))
				if p.IsLegal(m) {
					out = append(out, Move{Board: m})
				}
				continue
			}
			for sq := chess.Square(0); sq < 64; sq++ {
				pc := p.PieceAt(sq)
				if pc == chess.NoPiece || pc.Color() == us || pc.Role() == chess.King || sq == to {
					continue
				}
				if m := bare.WithRemoved(sq).WithTag(uint8(Assassin)); p.IsLegal(m) {
					out = append(out, Move{Board: m})
				}
			}
			agent := bare.WithTag(uint8(PoliticalAgent))
			if !p.IsLegal(agent) {
				continue
			}
			out = append(out, Move{Board: agent})
			sab := bare.WithTag(uint8(Saboteur))
			after, err := p.Play(sab)
			if err != nil {
				panic(err)
			}
			for _, r := range refMoves(&after) {
				r := r
				out = append(out, Move{Board: sab, Forced: &r})
			}
		}
	}
	return out
}

func refPerft(p *chess.Position, depth int, forced *Move) uint64 {
	if depth == 0 {
		return 1
	}
	moves := refMoves(p)
	if forced != nil {
		moves = []Move{*forced}
	}
	var n uint64
	for _, m := range moves {
		q, err := p.Play(m.Board)
		if err != nil {
			panic(err)
		}
		n += refPerft(&q, depth-1, m.Forced)
	}
	return n
}

// TestPerftReference checks every perft value of testdata/teamchess.perft
// within the node limit against the reference generator.
func TestPerftReference(t *testing.T) {
	t.Parallel()
	limit := nodeLimit() / 10
	for _, c := range perfttest.Read(t, "testdata/teamchess.perft") {
		if c.Nodes > limit {
			continue
		}
		t.Run(c.ID+"/"+strconv.Itoa(c.Depth), func(t *testing.T) {
			p, _ := chess.ParseFEN(chess.TeamChess, c.FEN)
			if got := refPerft(&p, c.Depth, nil); got != c.Nodes {
				t.Errorf("reference perft(%d) = %d, file says %d", c.Depth, got, c.Nodes)
			}
		})
	}
}

// TestRandomGamesAgainstReference plays random games from positions with
// pawns near the last rank and checks, at every ply: the move list equals
// the reference's (as sets of UCI-style texts), CountLegalMoves and
// HasLegalMove agree with it, and for a random sample of moves the SAN and
// UCI-style texts parse back to the same move and Complete finds the move
// from its SAN.
func TestRandomGamesAgainstReference(t *testing.T) {
	t.Parallel()
	starts := []string{
		"4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1",
		"4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1",
		"r3k2r/1P4P1/8/3n4/4N3/8/1p4p1/R3K2R w KQkq - 0 1",
		"1n2k1n1/P6P/8/3q4/3Q4/8/p6p/1N2K1N1 w - - 0 1",
		"2r1k3/1P1P4/8/8/8/8/4p1p1/3RK3 b - - 0 1",
	}
	games, plies := 6, 24
	if !testkit.Long() {
		games, plies = 2, 12
	}
	rng := rand.New(rand.NewPCG(6, 3))
	for _, fen := range starts {
		for gi := 0; gi < games; gi++ {
			p, err := chess.ParseFEN(chess.TeamChess, fen)
			if err != nil {
				t.Fatal(err)
			}
			var forced *Move
			for ply := 0; ply < plies; ply++ {
				moves := LegalMoves(&p)
				if forced == nil {
					checkAgainstReference(t, &p, moves, rng)
				} else {
					moves = []Move{*forced}
				}
				if len(moves) == 0 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				next, err := p.Play(m.Board)
				if err != nil {
					t.Fatalf("%s: %s: %v", p.FEN(), m, err)
				}
				p, forced = next, m.Forced
			}
		}
	}
}

func checkAgainstReference(t *testing.T, p *chess.Position, moves []Move, rng *rand.Rand) {
	t.Helper()
	ref := refMoves(p)
	set := map[string]bool{}
	for _, m := range moves {
		if set[m.UCI()] {
			t.Fatalf("%s: duplicate move %s", p.FEN(), m)
		}
		set[m.UCI()] = true
	}
	for _, m := range ref {
		if !set[m.UCI()] {
			t.Fatalf("%s: reference move %s missing", p.FEN(), m)
		}
	}
	if len(ref) != len(moves) {
		t.Fatalf("%s: %d moves, reference %d", p.FEN(), len(moves), len(ref))
	}
	if n := CountLegalMoves(p); n != uint64(len(moves)) {
		t.Fatalf("%s: CountLegalMoves %d, want %d", p.FEN(), n, len(moves))
	}
	if HasLegalMove(p) != (len(moves) > 0) {
		t.Fatalf("%s: HasLegalMove disagrees with %d moves", p.FEN(), len(moves))
	}
	texts := MoveTexts(p)
	rng.Shuffle(len(texts), func(i, j int) { texts[i], texts[j] = texts[j], texts[i] })
	for _, mt := range texts[:min(len(texts), 12)] {
		for _, text := range []string{mt.SAN, mt.UCI} {
			got, err := ParseMove(p, text)
			if err != nil || !got.Equal(mt.Move) {
				t.Fatalf("%s: ParseMove(%q) = %v, %v; want %s", p.FEN(), text, got, err, mt.Move)
			}
		}
		found := false
		for _, c := range Complete(p, mt.SAN, 0) {
			if c.Move.Equal(mt.Move) && c.SAN == mt.SAN {
				found = true
			}
		}
		if !found {
			t.Fatalf("%s: Complete(%q) does not list it", p.FEN(), mt.SAN)
		}
	}
}
