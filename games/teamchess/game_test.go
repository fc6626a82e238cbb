package teamchess

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"sandtable/games/chess"
	"sandtable/internal/testkit"
)

func ids(s string) []Member { return members(strings.Fields(s)) }

// TestTeamsValidation covers ruling 1 and rule 1.1: queues, double commands.
func TestTeamsValidation(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, white, black string
		err                string // "" when valid
	}{
		{"one each", "ann", "cid", ""},
		{"two against one", "ann bob", "cid", ""},
		{"double command balances 1v2", "ann ann", "cid dan", ""},
		{"double command in 2v3", "ann bob ann", "cid dan eve", ""},
		{"empty side", "", "cid", "White needs at least one commander"},
		{"empty black", "ann", "", "Black needs at least one commander"},
		{"both sides", "ann", "ann", "cannot command on both sides"},
		{"three commands", "ann ann ann", "cid dan eve fay", "at most two commands"},
		{"two doubled members", "ann bob ann bob", "cid dan eve fay", "only one member of a team may have a second command"},
		{"double on the larger team", "ann bob bob", "cid", "only for the smaller team"},
		{"double on an equal team", "ann ann", "cid", "only for the smaller team"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewGame(Setup{White: ids(c.white), Black: ids(c.black)})
			if c.err == "" && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error %v, want %q", err, c.err)
			}
		})
	}
	// A second command may not make the smaller team's queue longer than the other's.
	_, err := NewGame(Setup{White: ids("ann bob ann"), Black: ids("cid dan dan")})
	if err == nil || !strings.Contains(err.Error(), "only for the smaller team") {
		t.Errorf("equal distinct counts with doubles: %v", err)
	}
	_, err = NewGame(Setup{White: []Member{{ID: " "}}, Black: ids("cid")})
	if err == nil || !strings.Contains(err.Error(), "without an ID") {
		t.Errorf("blank ID: %v", err)
	}
	// Names are measured in characters: 100 emoji (400 bytes) are a name,
	// 101 or broken UTF-8 are not.
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{strings.Repeat("🐉", 100), true},
		{strings.Repeat("🐉", 101), false},
		{"ann\xff", false},
	} {
		_, err = NewGame(Setup{White: []Member{{ID: "ann", Name: c.name}}, Black: ids("cid")})
		if (err == nil) != c.ok {
			t.Errorf("name of %d bytes: %v, want ok=%v", len(c.name), err, c.ok)
		}
	}
	if _, err = NewGame(Setup{White: []Member{{ID: strings.Repeat("1", 101)}}, Black: ids("cid")}); err == nil {
		t.Error("an ID of 101 bytes accepted")
	}
}

func TestNewGamePositions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ fen, err string }{
		{"", ""},
		{"not a fen", "invalid FEN"},
		{"4k3/8/8/8/8/8/8/4K2Q w - - 0 1", ""},
		{"4k3/8/8/8/8/8/8/8 w - - 0 1", "exactly one is required"},
		{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn stands on the first or last rank"},
		// Black to move is mated (back-rank mate by the rook a8).
		{"R5k1/5ppp/8/8/8/8/8/4K3 b - - 0 1", "already checkmate"},
	} {
		_, err := NewGame(Setup{FEN: c.fen, White: ids("ann"), Black: ids("cid")})
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("FEN %q: error %v, want %q", c.fen, err, c.err)
		}
	}
	// A besieged side to move in the start position passes at once.
	g, err := NewGame(Setup{FEN: "7k/5K2/6Q1/8/8/8/8/8 b - - 0 1", White: ids("ann"), Black: ids("cid")})
	if err != nil {
		t.Fatal(err)
	}
	if g.Phase() != SiegeDecision || g.Turn() != chess.White || g.Stagnation(chess.Black) != 1 {
		t.Errorf("besieged start: phase %v turn %v stagnation %d", g.Phase(), g.Turn(), g.Stagnation(chess.Black))
	}
	// The pass works whatever the clocks of the FEN (the largest ParseFEN
	// accepts used to make the pass panic): the halfmove clock and, after
	// Black's pass, the move number grow by one, as after a move.
	for _, c := range []struct{ fen, want string }{
		{"7k/5K2/6Q1/8/8/8/8/8 b - - 100000 7", "7k/5K2/6Q1/8/8/8/8/8 w - - 100001 8"},
		{"7k/5K2/6Q1/8/8/8/8/8 b - - 3 100000", "7k/5K2/6Q1/8/8/8/8/8 w - - 4 100001"},
	} {
		g, err := NewGame(Setup{FEN: c.fen, White: ids("ann"), Black: ids("cid")})
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if p := g.Position(); g.Phase() != SiegeDecision || p.FEN() != c.want {
			t.Errorf("%s: phase %v, position %s, want %s", c.fen, g.Phase(), p.FEN(), c.want)
		}
	}
}

// TestRefusedActionsChangeNothing: every refusal leaves the game as it was.
func TestRefusedActionsChangeNothing(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(Setup{White: ids("ann bob"), Black: ids("cid dan")})
	g.Play("ann", "e4")
	before := snapshot(g)
	state, _ := json.Marshal(g.State())
	for _, a := range []Action{
		{Kind: ActMove, Side: "black", By: "dan", Move: "e7e5"},
		{Kind: ActMove, Side: "white", By: "ann", Move: "d2d4"},
		{Kind: ActMove, Side: "black", By: "cid", Move: "e7e4"},
		{Kind: ActMove, Side: "black", By: "cid", Move: "nonsense"},
		{Kind: ActTagOut, Side: "white", By: "ann"},
		{Kind: ActSiegeWin, Side: "black", By: "cid"},
		{Kind: ActSiegeContinue, Side: "black", By: "cid"},
		{Kind: ActResign, Side: "black", By: "dan"},
		{Kind: ActResign, Side: "purple", By: "cid"},
		{Kind: "dance", Side: "black", By: "cid"},
		{Kind: ActTimeout, Side: "white"},
	} {
		if _, err := g.Apply(a); err == nil {
			t.Errorf("%+v accepted", a)
		}
		if after := snapshot(g); after != before {
			t.Fatalf("%+v changed the game", a)
		}
	}
	if s, _ := json.Marshal(g.State()); string(s) != string(state) {
		t.Error("refusals were stored")
	}
	var re *RuleError
	_, err := g.Play("dan", "e5")
	if !asRuleError(err, &re) || re.Rule != "1.1" {
		t.Errorf("non-active commander: %T %v", err, err)
	}
}

func asRuleError(err error, re **RuleError) bool {
	r, ok := err.(*RuleError)
	*re = r
	return ok
}

// TestStateRoundTrip: the stored JSON is small and readable and replays
// to the same game; a corrupted state is refused with the failing action.
func TestStateRoundTrip(t *testing.T) {
	t.Parallel()
	g, _ := NewGame(Setup{FEN: "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", White: ids("ann bob"), Black: ids("cid dan")})
	for _, s := range [][2]string{{"ann", "a8=Saboteur:Rh1+"}, {"cid", "Rh1"}, {"ann", "Kd2"}} {
		if _, err := g.Play(s[0], s[1]); err != nil {
			t.Fatalf("%s: %v", s[1], err)
		}
	}
	if _, err := g.TagOut("dan"); err == nil {
		t.Fatal("dan is not active")
	}
	if _, err := g.TagOut("cid"); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":2,"start_fen":"4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1",` +
		`"white":[{"id":"ann","name":"Ann"},{"id":"bob","name":"Bob"}],"black":[{"id":"cid","name":"Cid"},{"id":"dan","name":"Dan"}],` +
		`"actions":[{"kind":"move","side":"white","by":"ann","move":"a7a8s:h8h1"},{"kind":"move","side":"black","by":"cid","move":"h8h1"},` +
		`{"kind":"move","side":"white","by":"ann","move":"e1d2"},{"kind":"tagout","side":"black","by":"cid"}]}`
	if string(data) != want {
		t.Errorf("state JSON\n%s\nwant\n%s", data, want)
	}
	if m, ok := g.LastMove(); !ok || m.UCI() != "e1d2" {
		t.Errorf("LastMove = %v, %v", m, ok)
	}
	if n := g.CountLegalMoves(); n != len(g.LegalMoves()) || n == 0 {
		t.Errorf("CountLegalMoves = %d, LegalMoves %d", n, len(g.LegalMoves()))
	}
	if s := g.Setup(); s.FEN != "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1" || len(s.White) != 2 {
		t.Errorf("Setup = %+v", s)
	}
	h, err := Load(data)
	if err != nil {
		t.Fatal(err)
	}
	if snapshot(h) != snapshot(g) {
		t.Error("restored game differs")
	}
	bad := strings.Replace(string(data), `"e1d2"`, `"e1e3"`, 1)
	if _, err := Load([]byte(bad)); err == nil || !strings.Contains(err.Error(), "action 3") {
		t.Errorf("corrupt state: %v", err)
	}
	if _, err := Load([]byte(`{"version":3}`)); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("future version: %v", err)
	}
	if _, err := Load([]byte(`{`)); err == nil {
		t.Error("bad JSON accepted")
	}
}

// TestRandomGames plays random games at the game level (moves, tag-outs,
// siege decisions, occasional resignations) and checks the invariants after
// every action, and that State replays to the same game.
func TestRandomGames(t *testing.T) {
	t.Parallel()
	fens := []string{
		chess.StandardFEN,
		"4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1",
		"r3k2r/1P4P1/8/3n4/4N3/8/1p4p1/R3K2R w KQkq - 0 1",
		"7k/5K2/8/6Q1/8/8/8/8 w - - 0 1",
		"1n2k1n1/P6P/8/3q4/3Q4/8/p6p/1N2K1N1 w - - 0 1",
	}
	games := 40
	if !testkit.Long() {
		games = 10
	}
	rng := rand.New(rand.NewPCG(1, 6))
	seen := map[Category]int{}
	defer func() { t.Logf("results: %v", seen) }()
	for i := 0; i < games; i++ {
		g, err := NewGame(Setup{FEN: fens[i%len(fens)], White: ids("ann bob ann"), Black: ids("cid dan eve")})
		if err != nil {
			t.Fatal(err)
		}
		for step := 0; step < 300 && g.Phase() != Finished; step++ {
			randomAction(t, g, rng)
			checkInvariants(t, g)
		}
		seen[g.Result().Category]++
		h, err := Restore(g.State())
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if snapshot(h) != snapshot(g) {
			t.Fatalf("game %d: replay differs", i)
		}
	}
}

func randomAction(t *testing.T, g *Game, rng *rand.Rand) {
	t.Helper()
	side := g.Turn()
	active, _ := g.Active(side)
	var err error
	switch {
	case g.Phase() == SiegeDecision && rng.IntN(6) == 0 && !g.LastCommander(side.Other()):
		besieged, _ := g.Active(side.Other())
		_, err = g.TagOut(besieged.ID) // ruling A2
	case g.Phase() == SiegeDecision && rng.IntN(2) == 0:
		_, err = g.SiegeWin(active.ID)
	case g.Phase() == SiegeDecision:
		_, err = g.SiegeContinue(active.ID)
	case rng.IntN(40) == 0 && !g.SiegeContinuing() && !g.LastCommander(side):
		_, err = g.TagOut(active.ID)
	case rng.IntN(300) == 0:
		_, err = g.Resign(active.ID)
	default:
		ts := g.Complete("", 60)
		if len(ts) == 0 {
			t.Fatalf("no legal move while playing:\n%s", snapshot(g))
		}
		_, err = g.Play(active.ID, ts[rng.IntN(len(ts))].SAN)
	}
	if err != nil && !strings.Contains(err.Error(), "no legal move to continue") {
		t.Fatalf("action refused: %v\n%s", err, snapshot(g))
	}
}

func checkInvariants(t *testing.T, g *Game) {
	t.Helper()
	p := g.Position()
	switch g.Phase() {
	case Playing:
		if !HasLegalMove(&p) {
			t.Fatalf("playing without a legal move:\n%s", snapshot(g))
		}
		if f, ok := g.Forced(); ok && !isLegal(&p, f) {
			t.Fatalf("illegal forced move %s", f)
		}
	case SiegeDecision:
		if p.InCheck() {
			t.Fatal("attacker in check during a siege decision")
		}
	case Finished:
		if !g.Result().Over() {
			t.Fatal("finished without a result")
		}
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		if g.Stagnation(c) < 0 || g.Stagnation(c) > 4 {
			t.Fatalf("stagnation %d", g.Stagnation(c))
		}
		idx := g.ActiveIndex(c)
		for i, cm := range g.Commanders(c) {
			switch {
			case (idx < 0 || i < idx) && !cm.Lost:
				t.Fatalf("commander %d before the active one (or of an exhausted team) without a loss", i)
			case idx >= 0 && i > idx && (cm.Lost || cm.Wins > 0):
				t.Fatalf("commander %d after the active one has a record", i)
			}
		}
	}
	// Personal wins and losses balance, except the mutual loss (two losses)
	// and a game still going (never unbalanced).
	var wins, losses int
	for _, c := range []chess.Color{chess.White, chess.Black} {
		for _, cm := range g.Commanders(c) {
			wins += cm.Wins
			if cm.Lost {
				losses++
			}
		}
	}
	if g.Result().Category == MutualLoss {
		wins += 2
	}
	if wins != losses {
		t.Fatalf("%d personal wins, %d losses\n%s", wins, losses, snapshot(g))
	}
}

// FuzzLoad: any stored state either loads or is refused with an error;
// nothing panics, and a loaded game re-encodes to a state that loads to
// the same game.
func FuzzLoad(f *testing.F) {
	g, _ := NewGame(Setup{FEN: "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", White: ids("ann bob"), Black: ids("cid dan")})
	for _, s := range []string{"a8=Saboteur:Rh1+", "Rh1", "Kd2"} {
		if _, err := g.Play("", s); err != nil {
			f.Fatal(err)
		}
	}
	data, _ := json.Marshal(g)
	f.Add(data)
	f.Add([]byte(`{"version":1,"white":[{"id":"a"}],"black":[{"id":"b"}],"actions":[{"kind":"tagout","side":"white"},{"kind":"siege_win","side":"black"}]}`))
	f.Add([]byte(`{"version":1,"start_fen":"7k/5K2/8/6Q1/8/8/8/8 w - - 0 1","white":[{"id":"a"}],"black":[{"id":"b"}],"actions":[{"kind":"move","side":"white","move":"g5g6"},{"kind":"siege_continue","side":"white"},{"kind":"move","side":"white","move":"g6h6"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Load(data)
		if err != nil {
			return
		}
		again, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		h, err := Load(again)
		if err != nil {
			t.Fatalf("re-encoded state refused: %v", err)
		}
		if snapshot(g) != snapshot(h) {
			t.Fatal("re-encoded state differs")
		}
	})
}

// TestOldLastCommanderTagOutStillLoads: before issue 26 a team's last
// commander could tag out, losing the game by Fatigue (ruling A3 of its
// time). Such a stored game replays to the result it was given; playing
// the same tag-out now is refused.
func TestOldLastCommanderTagOutStillLoads(t *testing.T) {
	t.Parallel()
	const stored = `{"version":2,"start_fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",` +
		`"white":[{"id":"ann","name":"Ann"}],"black":[{"id":"cid","name":"Cid"}],` +
		`"actions":[{"kind":"move","side":"white","by":"ann","move":"e2e4"},{"kind":"tagout","side":"black","by":"cid"}],` +
		`"result":{"category":"fatigue_victory","winner":"white"}}`
	g, err := Load([]byte(stored))
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Result(); got != (Result{Category: FatigueVictory, Winner: chess.White}) {
		t.Fatalf("result %v", got)
	}
	if w, l := g.PersonalRecord("cid"); w != 0 || l != 1 {
		t.Fatalf("cid's record %d-%d", w, l)
	}
	h, _ := NewGame(Setup{White: ids("ann"), Black: ids("cid")})
	playAll(t, h, "e4")
	if _, err := h.TagOut("cid"); err == nil || !strings.Contains(err.Error(), "last commander") {
		t.Fatalf("a last commander's tag-out now: %v", err)
	}
	if _, err := h.Apply(Action{Kind: ActTagOut, Side: "black", By: "cid"}); err == nil {
		t.Fatal("Apply accepted a last commander's tag-out outside Restore")
	}
}
