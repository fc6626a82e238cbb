package chess

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

func TestMoveScenarios(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/moves.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 4 {
			t.Fatalf("moves.txt:%d: want 4 fields", ln)
		}
		v, err := ParseVariant(parts[0])
		if err != nil {
			t.Fatalf("moves.txt:%d: %v", ln, err)
		}
		fen := strings.TrimSpace(parts[1])
		if fen == "start" {
			fen = v.StartFEN()
		}
		p, err := ParseFEN(v, fen)
		if err != nil {
			t.Fatalf("moves.txt:%d: %v", ln, err)
		}
		input := strings.TrimPrefix(strings.TrimSuffix(parts[2], " "), " ")
		want := strings.TrimSpace(parts[3])
		m, err := p.ParseMove(input)
		kind, rest, _ := strings.Cut(want, " ")
		switch kind {
		case "ok":
			if err != nil {
				t.Errorf("moves.txt:%d: %s %q: unexpected error %v", ln, v, input, err)
				continue
			}
			got := m.UCI() + " " + p.SAN(m)
			if got != rest {
				t.Errorf("moves.txt:%d: %s %q = %s, want %s", ln, v, input, got, rest)
			}
		case "err":
			if err == nil {
				t.Errorf("moves.txt:%d: %s %q: accepted as %s, want error containing %q", ln, v, input, m, rest)
				continue
			}
			if !strings.Contains(err.Error(), rest) {
				t.Errorf("moves.txt:%d: %s %q: error %q does not contain %q", ln, v, input, err, rest)
			}
			if _, ok := err.(*MoveError); !ok {
				t.Errorf("moves.txt:%d: error is %T, want *MoveError", ln, err)
			}
		default:
			t.Fatalf("moves.txt:%d: bad expectation %q", ln, want)
		}
	}
}

// TestSANRoundTripAllLegal: for many positions, every legal move's SAN and
// UCI parse back to the same move, and SANs are unique.
func TestSANRoundTripAllLegal(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v   Variant
		fen string
	}{
		{Chess, StandardFEN},
		{Chess, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
		{Chess, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
		{Chess, "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1"},
		{Survival, TartanFEN},
		{Survival, "1n6/P7/8/8/8/8/8/7k w - - 0 1"},
		{TeamChess, "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"},
	} {
		p, err := ParseFEN(c.v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, mt := range p.LegalMoveTexts() {
			if seen[mt.SAN] {
				t.Errorf("%s: duplicate SAN %s", c.fen, mt.SAN)
			}
			seen[mt.SAN] = true
			for _, s := range []string{mt.SAN, mt.UCI} {
				m, err := p.ParseMove(s)
				if err != nil || m != mt.Move {
					t.Errorf("%s: ParseMove(%q) = %v, %v; want %v", c.fen, s, m, err, mt.Move)
				}
			}
			if m, err := p.ParseUCI(mt.UCI); err != nil || m != mt.Move {
				t.Errorf("%s: ParseUCI(%q) = %v, %v", c.fen, mt.UCI, m, err)
			}
		}
	}
}

func TestCheckAndMateMarks(t *testing.T) {
	t.Parallel()
	p, _ := ParseFEN(Chess, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1")
	m, err := p.ParseMove("Ra8")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.SAN(m); got != "Ra8#" {
		t.Errorf("SAN = %q, want Ra8#", got)
	}
	m, _ = p.ParseMove("Ra7")
	if got := p.SAN(m); got != "Ra7" {
		t.Errorf("SAN = %q, want Ra7", got)
	}
	// Survival has no check: no marks even when a king is attacked.
	s, _ := ParseFEN(Survival, "6k1/8/8/8/8/8/8/R7 w - - 0 1")
	m, _ = s.ParseMove("Ra8")
	if got := s.SAN(m); got != "Ra8" {
		t.Errorf("Survival SAN = %q, want Ra8", got)
	}
}

func TestParseUCIStrict(t *testing.T) {
	t.Parallel()
	p := StartPosition(Chess)
	for _, bad := range []string{"E2E4", "e2-e4", "e4", "e2e4=q", ""} {
		if _, err := p.ParseUCI(bad); err == nil {
			t.Errorf("ParseUCI(%q) accepted", bad)
		}
	}
}

func TestPlayRejectsIllegalMoveWithReason(t *testing.T) {
	t.Parallel()
	p := StartPosition(Chess)
	before := p.FEN()
	_, err := p.Play(NewMove(SquareAt(4, 1), SquareAt(4, 4), Normal, NoRole))
	if err == nil || !strings.Contains(err.Error(), "the pawn on e2 cannot move to e5") {
		t.Errorf("Play(e2e5) error = %v", err)
	}
	if p.FEN() != before {
		t.Error("illegal Play changed the position")
	}
	if _, err := p.Play(NullMove); err == nil {
		t.Error("Play(NullMove) accepted")
	}
	if _, err := p.Play(NewSacrifice(SquareAt(4, 6), SquareAt(4, 7))); err == nil || !strings.Contains(err.Error(), "only in Team Chess") {
		t.Errorf("sacrifice in chess: %v", err)
	}
	// A Move refused in Survival names the forced captures, in UCI.
	s, _ := ParseFEN(Survival, "4k3/8/8/3p4/4P3/8/8/N7 w - - 0 1")
	_, err = s.Play(NewMove(A1, SquareAt(1, 2), Normal, NoRole))
	if err == nil || err.Error() != "that move does not capture; capture is mandatory: the only legal capture is e4d5" {
		t.Errorf("Play(a1b3) in Survival: %v", err)
	}
}
