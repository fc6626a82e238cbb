package engine

import (
	"fmt"
	"testing"
	"time"

	"sandtable/games/sandtable"
	"sandtable/internal/testkit"
)

// stGame deploys both sides with their players (through Deploy, SetDraft
// and the confirmation Choose returns) and plays until the game ends or
// maxTurns turns have passed, each player seeing only its own view. Every
// action a player returns must be legal. It returns the final position.
func stGame(t testing.TB, south, north *SandTablePlayer, seed uint64, maxTurns int) *sandtable.Position {
	t.Helper()
	pos := sandtable.NewGame(seed)
	players := map[sandtable.Side]*SandTablePlayer{sandtable.South: south, sandtable.North: north}
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		if err := pos.SetDraft(side, players[side].Deploy(side)); err != nil {
			t.Fatal(err)
		}
		a, err := players[side].Choose(pos.View(side), 0)
		if err != nil {
			t.Fatalf("%s in Deployment: %v", side, err)
		}
		if _, err := pos.Apply(a); err != nil {
			t.Fatalf("%s's confirmation %s: %v", side, a, err)
		}
	}
	for pos.Phase() != sandtable.PhaseFinished && pos.Turn() <= maxTurns {
		side := pos.ToMove()
		a, err := players[side].Choose(pos.View(side), 0)
		if err != nil {
			t.Fatalf("turn %d, %s (%s): %v\n%s", pos.Turn(), side, players[side].Name(), err, pos)
		}
		if _, err := pos.Apply(a); err != nil {
			t.Fatalf("turn %d, %s (%s) chose the illegal %s: %v\n%s", pos.Turn(), side, players[side].Name(), a, err, pos)
		}
	}
	return pos
}

// stBounded caps p's budget at 20,000 positions per action: the same
// search on a bounded budget for whole-game tests (strongest's search of
// every candidate takes up to about 50,000, seconds an action, in the
// middle game).
func stBounded(p *SandTablePlayer) *SandTablePlayer {
	p.level.Nodes = min(p.level.Nodes, 20_000)
	return p
}

func mustSTPlayer(t testing.TB, spec string, seed uint64) *SandTablePlayer {
	t.Helper()
	p, err := NewSandTablePlayer(spec, seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSandTableSelfPlay: games between every kind of player finish (or
// reach the turn cap) with only legal actions; the long version plays
// more and longer games.
func TestSandTableSelfPlay(t *testing.T) {
	t.Parallel()
	pairs := [][2]string{{"random", "random"}, {"greedy", "random"}, {"beginner", "greedy"}, {"intermediate", "easy"}}
	games, turns := 1, 60
	if testkit.Long() {
		pairs = append(pairs, [2]string{"advanced", "greedy"}, [2]string{"strongest", "beginner"})
		games, turns = 3, 400
	}
	for _, pr := range pairs {
		for g := range games {
			t.Run(fmt.Sprintf("%s-%s-%d", pr[0], pr[1], g), func(t *testing.T) {
				seed := uint64(g*31 + 7)
				pos := stGame(t, stBounded(mustSTPlayer(t, pr[0], seed)), mustSTPlayer(t, pr[1], seed+1), seed, turns)
				t.Logf("%s: turn %d, %s", pos.Phase(), pos.Turn(), pos.ResultText())
			})
		}
	}
}

// TestSandTableStrength: in short games the strongest level beats random
// and greedy: it wins, or at the turn cap is ahead in material.
func TestSandTableStrength(t *testing.T) {
	t.Parallel()
	testkit.SkipUnlessLong(t, "plays whole games")
	for i, opp := range []string{"random", "greedy"} {
		seed := uint64(100 + i)
		pos := stGame(t, stBounded(mustSTPlayer(t, "strongest", seed)), mustSTPlayer(t, opp, seed), seed, 300)
		won := pos.Phase() == sandtable.PhaseFinished && pos.Result().Winner == sandtable.South
		ahead := pos.Phase() != sandtable.PhaseFinished && stMaterial(pos, sandtable.South) > 0
		if !won && !ahead {
			t.Errorf("strongest against %s: %s, turn %d, material %d", opp, pos.ResultText(), pos.Turn(), stMaterial(pos, sandtable.South))
		}
	}
}

// TestSandTableChooseRefusesFullPositions: a full position or the public
// view is refused, and so is a view of the side not to move.
func TestSandTableChooseRefusesFullPositions(t *testing.T) {
	t.Parallel()
	p := mustSTPlayer(t, "strongest", 1)
	pos := stStarted(t, 5)
	if _, err := p.Choose(pos, 0); err == nil {
		t.Fatal("a full position was accepted")
	}
	if _, err := p.Choose(pos.View(sandtable.NoSide), 0); err == nil {
		t.Fatal("the public view was accepted")
	}
	if _, err := p.Choose(pos.View(pos.ToMove().Opp()), 0); err == nil {
		t.Fatal("the view of the side not to move was accepted")
	}
	if _, err := p.Choose(pos.View(pos.ToMove()), 0); err != nil {
		t.Fatal(err)
	}
	// Deployment: the confirmation comes only once the draft is valid.
	g := sandtable.NewGame(1)
	if _, err := p.Choose(g.View(sandtable.North), 0); err == nil {
		t.Fatal("an empty draft was confirmed")
	}
	if err := g.SetDraft(sandtable.North, p.Deploy(sandtable.North)); err != nil {
		t.Fatal(err)
	}
	a, err := p.Choose(g.View(sandtable.North), 0)
	if err != nil || a.Kind != sandtable.ActDeployConfirm || a.Side != sandtable.North {
		t.Fatalf("Deployment: %s, %v", a, err)
	}
	if _, err := NewSandTablePlayer("uci:foo", 1); err == nil {
		t.Fatal("an unknown spec was accepted")
	}
}

// stStarted returns a game just past Deployment (both sides deployed by
// beginner plans of the seed).
func stStarted(t testing.TB, seed uint64) *sandtable.Position {
	t.Helper()
	pos := sandtable.NewGame(seed)
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		if err := pos.SetDraft(side, SandTableDeployment(side, Levels[2], seed+uint64(side))); err != nil {
			t.Fatal(err)
		}
		if _, err := pos.Apply(sandtable.Action{Kind: sandtable.ActDeployConfirm, Side: side}); err != nil {
			t.Fatal(err)
		}
	}
	return pos
}

// TestSandTableSecretsDoNotMatter: the choice depends only on the side's
// view. In positions where the opponent has pending Drone orders, every
// level chooses the same action whatever those orders' targets and
// spotters are; in Deployment, whatever the opponent's draft is.
func TestSandTableSecretsDoNotMatter(t *testing.T) {
	t.Parallel()
	pos := stStarted(t, 11)
	r := mustSTPlayer(t, "greedy", 3)
	// Play on (greedy against itself) until the side to move in Main faces
	// pending Drones of the other side.
	for i := 0; i < 400; i++ {
		if pos.Phase() == sandtable.PhaseMain && pos.PendingDrones(pos.ToMove().Opp()) > 0 {
			break
		}
		a, err := r.Choose(pos.View(pos.ToMove()), 0)
		if err != nil {
			t.Fatal(err)
		}
		if pos.Phase() == sandtable.PhasePostTurn && i%3 == 0 {
			// make sure Drones get declared
			uses, _ := pos.LegalHazardUses()
			for _, u := range uses {
				if u.Kind == sandtable.ActDrone {
					a = u
					break
				}
			}
		}
		if _, err := pos.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	me := pos.ToMove()
	if pos.Phase() != sandtable.PhaseMain || pos.PendingDrones(me.Opp()) == 0 {
		t.Fatalf("no position with the opponent's Drones pending:\n%s", pos)
	}
	other := stOtherDrones(t, pos, me.Opp())
	if other.Format() == pos.Format() {
		t.Fatal("the two positions do not differ")
	}
	for _, spec := range append([]string{"random", "greedy"}, LevelNames()...) {
		p1, p2 := mustSTPlayer(t, spec, 9), mustSTPlayer(t, spec, 9)
		if !testkit.Long() && p1.level.Nodes > 6_000 {
			// the same search, on a smaller budget in the fast tier
			p1.level.Nodes, p2.level.Nodes = 6_000, 6_000
		}
		a1, err1 := p1.Choose(pos.View(me), 0)
		a2, err2 := p2.Choose(other.View(me), 0)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if a1.String() != a2.String() {
			t.Errorf("%s: %s with one set of the opponent's Drone orders, %s with another", spec, a1, a2)
		}
	}
	// Deployment: the other side's draft.
	d1, d2 := sandtable.NewGame(4), sandtable.NewGame(4)
	_ = d1.SetDraft(sandtable.North, SandTableDeployment(sandtable.North, Levels[4], 1))
	_ = d2.SetDraft(sandtable.North, SandTableDeployment(sandtable.North, Levels[4], 2))
	p := mustSTPlayer(t, "strongest", 4)
	for _, d := range []*sandtable.Position{d1, d2} {
		if err := d.SetDraft(sandtable.South, p.Deploy(sandtable.South)); err != nil {
			t.Fatal(err)
		}
	}
	a1, err1 := p.Choose(d1.View(sandtable.South), 0)
	a2, err2 := p.Choose(d2.View(sandtable.South), 0)
	if err1 != nil || err2 != nil || a1.String() != a2.String() || a1.Kind != sandtable.ActDeployConfirm {
		t.Fatalf("Deployment: %s (%v) and %s (%v)", a1, err1, a2, err2)
	}
}

// stOtherDrones returns pos with side's pending Drone orders replaced by
// others: the same number, other spotters and targets (through the
// position format, as a test writes hand-made positions).
func stOtherDrones(t *testing.T, pos *sandtable.Position, side sandtable.Side) *sandtable.Position {
	t.Helper()
	var spotter sandtable.Piece
	found := false
	for _, pc := range pos.Pieces() {
		if pc.ID.Kind == sandtable.Infantry && pc.Owner == side && pc.Carrier.IsZero() {
			spotter, found = pc, true // the last one: likely another than the real spotter
		}
	}
	if !found {
		t.Fatal("no spotter")
	}
	text := pos.Format()
	var lines []string
	for _, l := range splitLines(text) {
		if len(l) > 6 && l[:6] == "drone " && l[6] == side.Letter() {
			l = fmt.Sprintf("drone %s %s", spotter.ID, spotter.Square)
		}
		lines = append(lines, l)
	}
	out := ""
	for _, l := range lines {
		out += l + "\n"
	}
	q, err := sandtable.ParsePosition(out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return q
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// TestSandTableDeterministic: the same view, spec and seed give the same
// action; the time cap is only a cap.
func TestSandTableDeterministic(t *testing.T) {
	t.Parallel()
	pos := stStarted(t, 21)
	for _, spec := range []string{"greedy", "intermediate", "advanced"} {
		a1, _ := mustSTPlayer(t, spec, 5).Choose(pos.View(pos.ToMove()), 0)
		a2, _ := mustSTPlayer(t, spec, 5).Choose(pos.View(pos.ToMove()), time.Hour)
		if a1.String() != a2.String() {
			t.Errorf("%s: %s, then %s", spec, a1, a2)
		}
	}
}

// BenchmarkSandTableChoose reports the planner's speed from the first
// position of a game: actions chosen and positions tried per second.
func BenchmarkSandTableChoose(b *testing.B) {
	for _, spec := range append([]string{"greedy"}, LevelNames()...) {
		b.Run(spec, func(b *testing.B) {
			pos := stStarted(b, 21)
			view := pos.View(pos.ToMove())
			p := mustSTPlayer(b, spec, 1)
			b.ResetTimer()
			for range b.N {
				if _, err := p.Choose(view, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Calls)/b.Elapsed().Seconds(), "actions/s")
			b.ReportMetric(float64(p.Nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// stMidgame plays greedy against itself from a started game until Main
// of a later turn, for searches with many candidates on both sides.
func stMidgame(t testing.TB, seed uint64, turn int) *sandtable.Position {
	t.Helper()
	pos := stStarted(t, seed)
	g := mustSTPlayer(t, "greedy", seed)
	for pos.Phase() != sandtable.PhaseFinished && (pos.Turn() < turn || pos.Phase() != sandtable.PhaseMain) {
		a, err := g.Choose(pos.View(pos.ToMove()), 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pos.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if pos.Phase() != sandtable.PhaseMain {
		t.Fatalf("the game ended before turn %d:\n%s", turn, pos)
	}
	return pos
}

// TestSandTableStopsAnywhere: a search stopped at any point (here by the
// node budget, which stops it where a time cap would) returns a legal
// action, and a larger budget searches more candidates over whole turns.
func TestSandTableStopsAnywhere(t *testing.T) {
	t.Parallel()
	pos := stMidgame(t, 5, 6)
	view := pos.View(pos.ToMove())
	prev := -1
	for _, nodes := range []int{1, 30, 150, 600, 2_000, 6_000} {
		p := mustSTPlayer(t, "strongest", 2)
		p.level.Nodes = nodes
		a, err := p.Choose(view, 0)
		if err != nil {
			t.Fatalf("%d positions: %v", nodes, err)
		}
		if _, err := pos.Clone().Apply(a); err != nil {
			t.Fatalf("%d positions: %s is not legal: %v", nodes, a, err)
		}
		if p.Nodes > nodes+1 {
			t.Errorf("%d positions: %d tried", nodes, p.Nodes)
		}
		if p.Deepened < prev {
			t.Errorf("%d positions: %d candidates searched over whole turns, fewer than %d with a smaller budget", nodes, p.Deepened, prev)
		}
		prev = p.Deepened
	}
	if prev == 0 {
		t.Error("no candidate was searched over whole turns with 6,000 positions")
	}
}
