package chess

import "testing"

// statusCases are positions with their automatic Status (also used by
// TestOutcomeAgreesWithStatus). Square colours used below (a1 is dark):
// dark a1 c1 d8 a3 d4 e5 g7 a5; light b1 d1 c8 e4 d3 d5 e6 g2 h1.
var statusCases = []struct {
	name string
	v    Variant
	fen  string
	want Status
}{
	// FIDE 5.1.1 checkmate, 5.2.1 stalemate.
	{"fool's mate", Chess, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Status{BlackWins, Checkmate}},
	{"stalemate", Chess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Status{Draw, Stalemate}},
	// Insufficient material (dead positions, FIDE 9.6.2).
	{"K v K", Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", Status{Draw, InsufficientMaterial}},
	{"KB v K", Chess, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Status{Draw, InsufficientMaterial}},
	{"KN v K", Chess, "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1", Status{Draw, InsufficientMaterial}},
	{"KB v KB same colour", Chess, "3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", Status{Draw, InsufficientMaterial}},
	{"KB v KB opposite colours", Chess, "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", Status{}},
	{"KNN v K", Chess, "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", Status{}},
	{"KBN v K", Chess, "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", Status{}},
	{"KP v K", Chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Status{}},
	{"KN v KN", Chess, "4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1", Status{}},
	// 75-move rule (FIDE 9.6.2); checkmate takes precedence.
	{"75 moves", Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 150 100", Status{Draw, SeventyFiveMoveRule}},
	{"74.5 moves", Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", Status{}},
	{"mate beats 75 moves", Chess, "R5k1/5ppp/8/8/8/8/8/4K3 b - - 150 100", Status{WhiteWins, Checkmate}},

	// Survival: elimination, stalemate, 75-move rule.
	{"white eliminated black", Survival, "8/8/8/8/8/8/8/K7 b - - 0 1", Status{WhiteWins, Elimination}},
	{"black eliminated white", Survival, "8/8/8/8/8/8/8/k7 w - - 0 1", Status{BlackWins, Elimination}},
	{"survival stalemate", Survival, "8/8/8/8/8/p7/P7/8 w - - 0 1", Status{Draw, Stalemate}},
	{"no stalemate: kings are ordinary", Survival, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Status{}},
	{"survival 75 moves", Survival, "4k3/8/8/8/8/8/8/R3K3 w - - 150 100", Status{Draw, SeventyFiveMoveRule}},
	// Dead positions (docs/rules/survival.md).
	{"bishops on opposite colours", Survival, "8/8/8/8/8/8/8/1bB5 w - - 0 1", Status{Draw, DeadPosition}},
	{"two dark white bishops v light black bishop", Survival, "8/8/8/8/8/B7/8/2Bb4 b - - 0 1", Status{Draw, DeadPosition}},
	{"bishops on the same colour", Survival, "8/8/8/b7/8/8/8/2B5 w - - 0 1", Status{}},
	{"white bishops on both colours", Survival, "8/8/8/8/8/8/8/1bBB4 w - - 0 1", Status{}},
	{"king present", Survival, "8/8/8/8/8/8/8/1bB4K w - - 0 1", Status{}},
	{"frozen pawns and bishops", Survival, "8/6b1/8/4p3/4P3/3B4/8/8 w - - 0 1", Status{Draw, DeadPosition}},
	{"free pawn can promote", Survival, "8/6b1/8/8/8/3B4/6P1/8 w - - 0 1", Status{}},
	{"frozen pawns, en passant available", Survival, "8/8/4p3/3pP3/3P4/8/8/B6b w - d6 0 1", Status{}},
	{"frozen pawns, no en passant", Survival, "8/8/4p3/3pP3/3P4/8/8/B6b w - - 0 1", Status{Draw, DeadPosition}},

	// Team Chess base: checkmate wins, no legal move without check is a
	// siege (game continues), no 75-move draw.
	{"team checkmate", TeamChess, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", Status{BlackWins, Checkmate}},
	{"team siege", TeamChess, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Status{Ongoing, Besieged}},
	{"team no 75-move draw", TeamChess, "4k3/8/8/8/8/8/8/R3K3 w - - 150 100", Status{}},
}

func TestPositionStatus(t *testing.T) {
	t.Parallel()
	for _, c := range statusCases {
		p, err := ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := p.Status(); got != c.want {
			t.Errorf("%s (%s): Status = %v, want %v", c.name, c.fen, got, c.want)
		}
	}
}

// TestDeadPositionIsReallyDead plays random games from every dead position
// above and checks that no capture ever becomes legal (evidence for the
// proof in docs/rules/survival.md).
func TestDeadPositionIsReallyDead(t *testing.T) {
	t.Parallel()
	for _, fen := range []string{
		"8/8/8/8/8/8/8/1bB5 w - - 0 1",
		"8/8/8/8/8/B7/8/2Bb4 b - - 0 1",
		"8/6b1/8/4p3/4P3/3B4/8/8 w - - 0 1",
		"8/8/4p3/3pP3/3P4/8/8/B6b w - - 0 1",
		"4b3/8/2p1p3/2PpPp2/3P1P2/8/8/2B5 w - - 0 1",
	} {
		p, err := ParseFEN(Survival, fen)
		if err != nil {
			t.Fatal(err)
		}
		if !p.IsDeadSurvival() {
			t.Fatalf("%s should be dead", fen)
		}
		seed := uint64(1)
		for game := 0; game < 20; game++ {
			q := p
			for ply := 0; ply < 200; ply++ {
				ms := q.LegalMoves()
				if len(ms) == 0 {
					break
				}
				for _, m := range ms {
					if q.IsCapture(m) {
						t.Fatalf("%s: capture %s became legal in %s", fen, m, q.FEN())
					}
				}
				seed = seed*6364136223846793005 + 1442695040888963407
				q.play(ms[(seed>>33)%uint64(len(ms))])
			}
		}
	}
}

func TestAccessors(t *testing.T) {
	t.Parallel()
	p, _ := ParseFEN(Chess, "4k3/8/8/8/4r3/8/3N4/4K3 w - - 0 1")
	if !p.InCheck() {
		t.Error("InCheck = false, want true")
	}
	if sq, ok := p.KingSquare(White); !ok || sq != E1 {
		t.Errorf("KingSquare(White) = %v %v", sq, ok)
	}
	if pc := p.PieceAt(SquareAt(3, 1)); pc != MakePiece(White, Knight) {
		t.Errorf("PieceAt(d2) = %v", pc)
	}
	if p.PieceAt(NoSquare) != NoPiece {
		t.Error("PieceAt(NoSquare) not empty")
	}
	if p.Turn() != White {
		t.Error("Turn")
	}
	s, _ := ParseFEN(Survival, "4k3/8/5p2/3p4/4P1N1/8/8/K7 w - - 0 1")
	if got := s.Capturers(); got != bb(SquareAt(4, 3))|bb(SquareAt(6, 3)) {
		t.Errorf("Capturers = %v, want e4 and g4", got.Squares())
	}
	if s.InCheck() {
		t.Error("Survival has no check")
	}
	if len(s.Captures()) != 2 {
		t.Errorf("Captures = %v", s.Captures())
	}
	if !s.IsAttacked(SquareAt(3, 4), White) || s.IsAttacked(SquareAt(0, 7), White) {
		t.Error("IsAttacked")
	}
}
