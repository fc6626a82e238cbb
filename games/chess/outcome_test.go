package chess

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// endings lists every way to end a game from outside the board, for the
// refusal tests.
var endingCalls = []struct {
	name string
	call func(g *Game) error
}{
	{"Resign(White)", func(g *Game) error { return g.Resign(White) }},
	{"Resign(Black)", func(g *Game) error { return g.Resign(Black) }},
	{"AgreeDraw", func(g *Game) error { return g.AgreeDraw() }},
	{"ClaimDraw", func(g *Game) error { _, err := g.ClaimDraw(); return err }},
	{"ClaimDrawWithMove", func(g *Game) error {
		ms := g.Position().LegalMoves()
		m := NullMove
		if len(ms) > 0 {
			m = ms[0]
		}
		_, err := g.ClaimDrawWithMove(m)
		return err
	}},
	{"Timeout(White)", func(g *Game) error { return g.Timeout(White) }},
	{"Timeout(Black)", func(g *Game) error { return g.Timeout(Black) }},
	{"Play", func(g *Game) error {
		ms := g.Position().LegalMoves()
		if len(ms) == 0 {
			return g.Play(NewMove(A1, B1, Normal, NoRole))
		}
		return g.Play(ms[0])
	}},
	{"PlayText", func(g *Game) error { _, _, err := g.PlayText("a1b1"); return err }},
}

// assertRefusesEverything checks that every ending and every move is
// refused with a *GameOverError naming want, and that nothing changes.
func assertRefusesEverything(t *testing.T, g *Game, want Outcome) {
	t.Helper()
	for _, c := range endingCalls {
		before := gameState(g)
		err := c.call(g)
		var over *GameOverError
		if !errors.As(err, &over) || over.Outcome != want {
			t.Errorf("%s on a finished game (%v): err = %v, want a *GameOverError with %v", c.name, want, err, want)
		}
		if o, ok := g.Outcome(); !ok || o != want {
			t.Errorf("%s changed the outcome to %v %v", c.name, o, ok)
		}
		if after := gameState(g); after != before {
			t.Errorf("%s changed the game: %s -> %s", c.name, before, after)
		}
	}
}

// gameState sums up what a refused call must not change.
func gameState(g *Game) string {
	o, ok := g.Outcome()
	return fmt.Sprintf("%s %v %d %v %v", g.Position().FEN(), g.SANs(), g.RepetitionCount(), o, ok)
}

func TestResign(t *testing.T) {
	t.Parallel()
	for _, v := range Variants {
		for _, c := range []Color{White, Black} {
			g := NewGame(v)
			if _, ok := g.Outcome(); ok {
				t.Fatalf("%s: a new game has an outcome", v)
			}
			// Resignation is open to either side on either turn (FIDE 5.1.2).
			if err := g.Resign(c); err != nil {
				t.Fatalf("%s: Resign(%s): %v", v, c, err)
			}
			want := Outcome{Result: winFor(c.Other(), NoReason).Result, Method: MethodResignation}
			if o, ok := g.Outcome(); !ok || o != want {
				t.Errorf("%s: Resign(%s) outcome %v %v, want %v", v, c, o, ok, want)
			}
			if w, ok := want.Winner(); !ok || w != c.Other() {
				t.Errorf("%s: winner %v %v", v, w, ok)
			}
			if g.Status().Over() {
				t.Errorf("%s: Status shows the board only, got %v", v, g.Status())
			}
			if len(g.Claims()) != 0 {
				t.Errorf("%s: claims after resignation", v)
			}
			assertRefusesEverything(t, g, want)
		}
	}
	g := NewGame(Chess)
	if err := g.Resign(Color(2)); err == nil {
		t.Error("Resign(2) accepted")
	}
	if _, ok := g.Outcome(); ok {
		t.Error("a refused resignation ended the game")
	}
}

func TestAgreeDraw(t *testing.T) {
	t.Parallel()
	for _, v := range []Variant{Chess, Survival} {
		g := NewGame(v)
		play(t, g, g.Position().LegalMoves()[0].UCI())
		if err := g.AgreeDraw(); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		want := Outcome{Result: Draw, Method: MethodAgreement}
		if o, ok := g.Outcome(); !ok || o != want {
			t.Errorf("%s: outcome %v, want %v", v, o, want)
		}
		if !strings.Contains(g.PGN(nil, ""), "\n1. ") || !strings.HasSuffix(g.PGN(nil, ""), " 1/2-1/2\n") {
			t.Errorf("%s: PGN does not end with the agreed draw:\n%s", v, g.PGN(nil, ""))
		}
		assertRefusesEverything(t, g, want)
	}
	// Team Chess has no draws (issue 6 ruling 6).
	g := NewGame(TeamChess)
	if err := g.AgreeDraw(); !errors.Is(err, ErrNotInVariant) {
		t.Errorf("Team Chess AgreeDraw: %v, want ErrNotInVariant", err)
	}
	if _, ok := g.Outcome(); ok {
		t.Error("a refused draw ended the Team Chess game")
	}
}

func TestClaimDraw(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "Nf3", "Nf6", "Ng1", "Ng8")
	_, err := g.ClaimDraw()
	var ce *ClaimError
	if !errors.As(err, &ce) || ce.Repetitions != 2 || ce.HalfmoveClock != 4 || ce.Move != NullMove {
		t.Fatalf("claim on the second occurrence: %v (%+v)", err, ce)
	}
	if _, ok := g.Outcome(); ok || g.Ply() != 4 {
		t.Fatal("a refused claim changed the game")
	}
	play(t, g, "Nf3", "Nf6", "Ng1", "Ng8")
	c, err := g.ClaimDraw()
	if err != nil || c != ThreefoldRepetition {
		t.Fatalf("threefold claim: %v %v", c, err)
	}
	want := Outcome{Result: Draw, Method: MethodThreefoldRepetition, Claimed: true}
	if o, ok := g.Outcome(); !ok || o != want {
		t.Errorf("outcome %v, want %v", o, want)
	}
	assertRefusesEverything(t, g, want)

	// The 50-move rule (FIDE 9.3): 100 plies without capture or pawn move.
	g, _ = NewGameFromFEN(Survival, "4k3/8/8/8/8/8/8/R3K3 w - - 100 80")
	if c, err := g.ClaimDraw(); err != nil || c != FiftyMoveRule {
		t.Fatalf("fifty-move claim: %v %v", c, err)
	}
	if o, _ := g.Outcome(); o != (Outcome{Result: Draw, Method: MethodFiftyMoveRule, Claimed: true}) {
		t.Errorf("outcome %v", o)
	}

	g = NewGame(TeamChess)
	if _, err := g.ClaimDraw(); !errors.Is(err, ErrNotInVariant) {
		t.Errorf("Team Chess ClaimDraw: %v, want ErrNotInVariant", err)
	}
	if _, err := g.ClaimDrawWithMove(g.Position().LegalMoves()[0]); !errors.Is(err, ErrNotInVariant) || g.Ply() != 0 {
		t.Errorf("Team Chess ClaimDrawWithMove: %v (ply %d), want ErrNotInVariant", err, g.Ply())
	}
}

func TestClaimDrawWithMove(t *testing.T) {
	t.Parallel()
	g := NewGame(Chess)
	play(t, g, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
	ng8, _ := g.Position().ParseMove("Ng8")
	nh5, err := g.Position().ParseMove("Nh5")
	if err != nil {
		t.Fatal(err)
	}

	// An illegal move: a *MoveError, nothing played.
	if _, err := g.ClaimDrawWithMove(NewMove(SquareAt(4, 1), SquareAt(4, 4), Normal, NoRole)); !isMoveError(err) {
		t.Errorf("illegal declared move: %v", err)
	}
	// A legal move that brings no claim: the counts after it, nothing played.
	_, err = g.ClaimDrawWithMove(nh5)
	var ce *ClaimError
	if !errors.As(err, &ce) || ce.Move != nh5 || ce.Repetitions != 1 || ce.HalfmoveClock != 8 {
		t.Errorf("Nh5 claim: %v (%+v)", err, ce)
	}
	if g.Ply() != 7 {
		t.Fatalf("a refused claim played a move: ply %d", g.Ply())
	}
	// Ng8 brings the third occurrence: played, then drawn.
	if c, err := g.ClaimDrawWithMove(ng8); err != nil || c != ThreefoldRepetition {
		t.Fatalf("Ng8 claim: %v %v", c, err)
	}
	if g.Ply() != 8 || g.SANs()[7] != "Ng8" || g.RepetitionCount() != 3 {
		t.Errorf("the declared move was not played: %v", g.SANs())
	}
	if o, _ := g.Outcome(); o != (Outcome{Result: Draw, Method: MethodThreefoldRepetition, Claimed: true}) {
		t.Errorf("outcome %v", o)
	}

	// The 50th move declared (FIDE 9.3.1).
	g, _ = NewGameFromFEN(Chess, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
	ra2, _ := g.Position().ParseMove("Ra2")
	if c, err := g.ClaimDrawWithMove(ra2); err != nil || c != FiftyMoveRule {
		t.Fatalf("Ra2 claim: %v %v", c, err)
	}
	// A claim with a move that mates still ends by the claim: it is decided
	// before the move appears on the board (FIDE 9.3.1).
	g, _ = NewGameFromFEN(Chess, "6k1/5ppp/8/8/8/8/8/R3K3 w - - 99 80")
	ra8, _ := g.Position().ParseMove("Ra8")
	if c, err := g.ClaimDrawWithMove(ra8); err != nil || c != FiftyMoveRule {
		t.Fatalf("Ra8# claim: %v %v", c, err)
	}
	if st := g.Status(); st != (Status{WhiteWins, Checkmate}) {
		t.Fatalf("board after Ra8: %v", st)
	}
	if o, _ := g.Outcome(); o.Method != MethodFiftyMoveRule || o.Result != Draw {
		t.Errorf("outcome %v, want the claimed draw", o)
	}
}

func isMoveError(err error) bool {
	var me *MoveError
	return errors.As(err, &me)
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		v    Variant
		fen  string
		who  Color
		want Outcome
	}{
		{"chess: the side to move loses", Chess, StandardFEN, White, Outcome{Result: BlackWins, Method: MethodTime}},
		{"chess: the other side's flag", Chess, StandardFEN, Black, Outcome{Result: WhiteWins, Method: MethodTime}},
		// FIDE 6.9: a lone king cannot mate; any other material can, with help.
		{"chess: opponent has a lone king", Chess, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", White, Outcome{Result: Draw, Method: MethodTime}},
		{"chess: opponent has a knight", Chess, "4k3/8/8/8/8/8/3QP3/1n2K3 w - - 0 1", White, Outcome{Result: BlackWins, Method: MethodTime}},
		{"chess: opponent has a pawn", Chess, "4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", White, Outcome{Result: BlackWins, Method: MethodTime}},
		// Survival ruling 16: the side that ran out loses, even with one piece
		// against many.
		{"survival: the side to move loses", Survival, TartanFEN, White, Outcome{Result: BlackWins, Method: MethodTime}},
		{"survival: a lone king still wins", Survival, "k7/8/8/8/8/8/PPP5/8 w - - 0 1", White, Outcome{Result: BlackWins, Method: MethodTime}},
	} {
		g, err := NewGameFromFEN(c.v, c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Timeout(c.who); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if o, ok := g.Outcome(); !ok || o != c.want {
			t.Errorf("%s: outcome %v, want %v", c.name, o, c.want)
		}
		if c.name == "chess: the side to move loses" {
			assertRefusesEverything(t, g, c.want)
		}
	}
	g := NewGame(TeamChess)
	if err := g.Timeout(White); !errors.Is(err, ErrNotInVariant) {
		t.Errorf("Team Chess Timeout: %v, want ErrNotInVariant", err)
	}
	if err := NewGame(Chess).Timeout(Color(7)); err == nil {
		t.Error("Timeout(7) accepted")
	}
}

// TestOutcomeAgreesWithStatus: for board endings Outcome is Status, with
// the Reason's Method, and a finished board refuses every ending.
func TestOutcomeAgreesWithStatus(t *testing.T) {
	t.Parallel()
	for _, c := range statusCases {
		g, err := NewGameFromFEN(c.v, c.fen)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		st := g.Status()
		o, ok := g.Outcome()
		if ok != st.Over() {
			t.Errorf("%s: Outcome ok = %v, Status %v", c.name, ok, st)
			continue
		}
		if !ok {
			continue
		}
		want := Outcome{Result: st.Result, Method: st.Reason.Method()}
		if o != want || o.Method == NoMethod {
			t.Errorf("%s: Outcome %v, Status %v", c.name, o, st)
		}
		assertRefusesEverything(t, g, want)
	}
	// Fivefold repetition comes from the history, not the position.
	g, _ := NewGameFromFEN(Survival, "k7/8/8/8/8/8/8/7K w - - 0 1")
	for i := 0; i < 4; i++ {
		play(t, g, "Kh2", "Kb8", "Kh1", "Ka8")
	}
	if o, ok := g.Outcome(); !ok || o != (Outcome{Result: Draw, Method: MethodFivefoldRepetition}) {
		t.Errorf("fivefold: %v %v (status %v)", o, ok, g.Status())
	}
}

func TestMethodJSON(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, m := range Methods {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%d: %v", m, err)
		}
		key := string(b)
		if key != strings.ToLower(key) || seen[key] || key == `"none"` {
			t.Errorf("method %v marshals to %s (lower case, unique, not none)", m, b)
		}
		seen[key] = true
		var back Method
		if err := json.Unmarshal(b, &back); err != nil || back != m {
			t.Errorf("%s round-trips to %v, %v", b, back, err)
		}
		if m.String() == "" {
			t.Errorf("method %s has no prose", b)
		}
	}
	// The stored names are a contract with the database: pin some.
	for m, want := range map[Method]string{MethodResignation: "resignation", MethodAgreement: "agreement",
		MethodTime: "time", MethodFiftyMoveRule: "fifty_move_rule", MethodElimination: "elimination"} {
		if m.Key() != want {
			t.Errorf("%v key %q, want %q", m, m.Key(), want)
		}
	}
	var m Method
	if err := json.Unmarshal([]byte(`"resigned"`), &m); err == nil {
		t.Error("unknown method accepted")
	}
	if _, err := json.Marshal(Method(200)); err == nil {
		t.Error("method 200 marshalled")
	}

	for _, o := range []Outcome{
		{Result: WhiteWins, Method: MethodCheckmate},
		{Result: BlackWins, Method: MethodTime},
		{Result: Draw, Method: MethodThreefoldRepetition, Claimed: true},
	} {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil || back != o {
			t.Errorf("%s round-trips to %v, %v", b, back, err)
		}
	}
	b, _ := json.Marshal(Outcome{Result: WhiteWins, Method: MethodResignation})
	if string(b) != `{"result":"1-0","method":"resignation"}` {
		t.Errorf("outcome JSON %s", b)
	}
	for o, want := range map[Outcome]string{
		{Result: BlackWins, Method: MethodTime}:                    "Black wins by time",
		{Result: Draw, Method: MethodFiftyMoveRule, Claimed: true}: "draw by the 50-move rule (claimed)",
		{Result: WhiteWins, Method: MethodElimination}:             "White wins by elimination of the last piece",
		{}: "ongoing",
	} {
		if o.String() != want {
			t.Errorf("%#v: %q, want %q", o, o.String(), want)
		}
	}
	var r Result
	if err := json.Unmarshal([]byte(`"2-0"`), &r); err == nil {
		t.Error("result 2-0 accepted")
	}
}
