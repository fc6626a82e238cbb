package sandtable

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sandtable/internal/testkit"
)

// The position format's promise (docs/rules/sandtable.md): whatever the
// engine prints, after any sequence of legal or refused actions, parses
// and prints identically, and so do the views. These tests play random
// actions from random deployments, from every scenario's hand-written
// position, from positions at the format's limits and from random
// hand-written positions, and check it after every action.

// edgePositions are hand-written positions where counters, IDs and sets
// run out or collide: the last turns, the last hazard numbers, a Crater
// that a Drone hits again, three Bases, a nearly deadlocked game, large
// IDs, positions that advance on loading, and Deployment.
var edgePositions = []string{
	// the last turns the format holds (G21)
	"sandtable-position 1\nphase postturn\nturn 999999998\nto-move south\nhazard-uses 1\n" + limitsBase + "piece ST1 c3 SI1\npiece NI2 h18\n",
	"sandtable-position 1\nphase main\nturn 999999999\nto-move north\n" + limitsBase + "piece NT1 k15 NI2\npiece SB2 c1\n",
	// the last hazard numbers (G12)
	"sandtable-position 1\nphase main\nturn 7\nto-move south\nnext-hazard SM2147483645 SA2147483646 NM2147483646 NA2147483645\n" + limitsBase +
		"piece SB2 c1\npiece SI1 d4\npiece NB2 q20\npiece NI2 p18\npiece SM2147483644 e4\npiece NA2147483644 p17\n",
	// a Crater of the side not to move, which its own Drone hits again (G22)
	"sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\n" + limitsBase + "piece NI2 e7\ndrone NI2 e5\ndrone NI2 e6\ndrone NI1 t19 cancelled\ncrater e5 north\ncrater e6 north\n",
	"sandtable-position 1\nphase preturn\nturn 4\nto-move north\n" + limitsBase + "piece NI2 e7\ndrone NI2 e5\ndrone NI2 e5\ncrater e5 north\n",
	// three Bases: three hazard uses
	"sandtable-position 1\nphase main\nto-move south\n" + limitsBase + "piece SB2 c1\npiece SB3 e1\npiece SI2 f2\npiece SI3 g2\n",
	// three deadlocked turns: the next one draws
	"sandtable-position 1\nphase main\nto-move south\ndead-turns 3\n" + limitsBase,
	// the highest IDs for spotters and crews
	"sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\n" + limitsBase + "piece SI2147483647 d4\npiece ST2147483647 f4 SI2147483646\npiece NI2147483647 e6\n",
	// PostTurn with no use left, and PreTurn: both advance on loading
	"sandtable-position 1\nphase postturn\nturn 12\nto-move north\nhazard-uses 0\n" + limitsBase + "drone SI30 c4\n",
	"sandtable-position 1\nphase preturn\nturn 5\nto-move south\n" + limitsBase + "drone SI30 c3\ndrone SI30 c3\ndrone SI29 b4 cancelled\npiece NI2 c3\n",
	// finished, also in Deployment
	"sandtable-position 1\nphase finished\nturn 40\nto-move south\nresult draw deadlock\ndead-turns 4\n" + limitsBase + "crater h8 south\n",
	"sandtable-position 1\nphase finished\nturn 0\nresult north resignation\n",
	// Deployment: empty, and one side confirmed
	"sandtable-position 1\nphase deployment\nseed 18446744073709551615\n",
	"sandtable-position 1\nphase deployment\nseed 5\ndraft south confirmed\n" + mustLayout(South, "phalanx") + "draft north\n 20 IIIII...............\n",
}

func mustLayout(side Side, preset string) string {
	d, err := Preset(side, preset)
	if err != nil {
		panic(err)
	}
	return d.Layout()
}

// handWrittenPositions returns the edge positions and every scenario's
// starting position that parses.
func handWrittenPositions(tb testing.TB) []string {
	out := append([]string(nil), edgePositions...)
	for _, sc := range loadScenarios(tb) {
		if _, err := ParsePosition(sc.position); err == nil {
			out = append(out, sc.position)
		}
	}
	return out
}

// randomRoundTripAction returns an action for p, usually a legal one: a
// random Infantry turn or Vehicle move in Main, a hazard use in PostTurn,
// deployment commands (legal or not) in Deployment, now and then a
// resignation, a draw or a random action that is usually illegal. legal
// says the action comes from the legal action generators, so Apply must
// accept it; ok is false when p is finished.
func randomRoundTripAction(p *Position, r *rand.Rand) (a string, legal, ok bool) {
	if p.phase == PhaseFinished {
		return "", false, false
	}
	switch n := r.IntN(400); {
	case n == 0:
		return "draw", true, true
	case n == 1:
		return []string{"resign", "S resign", "N resign"}[r.IntN(3)], true, true
	case n < 30:
		return randomJunkAction(r), false, true
	}
	sq := func() string { return Sq(r.IntN(Files), r.IntN(Ranks)).String() }
	switch p.phase {
	case PhaseDeployment:
		side := []string{"S", "N"}[r.IntN(2)]
		switch r.IntN(10) {
		case 0, 1:
			return fmt.Sprintf("%s random %d", side, r.Uint64()), false, true
		case 2:
			names := PresetNames()
			return side + " preset " + names[r.IntN(len(names))], false, true
		case 3:
			return side + " place " + string(AllKinds[r.IntN(len(AllKinds))].Letter()) + sq(), false, true
		case 4:
			return side + " move " + sq() + "-" + sq(), false, true
		case 5:
			return side + " remove " + sq(), false, true
		case 6:
			return side + " clear", false, true
		case 7:
			return side + " unconfirm", false, true
		default:
			return side + " confirm", false, true
		}
	case PhaseMain:
		if r.IntN(3) == 0 {
			if vm, _ := p.LegalVehicleMoves(); len(vm) > 0 {
				return vm[r.IntN(len(vm))].String(), true, true
			}
		}
		var steps []Step
		for {
			next, err := p.LegalNextSteps(steps)
			if err != nil || len(next) == 0 {
				break
			}
			steps = append(steps, next[r.IntN(len(next))])
			if r.IntN(3) == 0 {
				break
			}
		}
		if len(steps) > 0 {
			return Action{Kind: ActInfantry, Steps: steps}.String(), true, true
		}
		if vm, _ := p.LegalVehicleMoves(); len(vm) > 0 {
			return vm[r.IntN(len(vm))].String(), true, true
		}
	case PhasePostTurn:
		if h, _ := p.LegalHazardUses(); len(h) > 0 {
			return h[r.IntN(len(h))].String(), true, true
		}
	}
	return randomJunkAction(r), false, true
}

// playRoundTrip advances p, then applies up to n random actions, checking
// after each that a refused action changed nothing and that the printed
// position and its views parse and print identically. It returns the
// number of actions applied.
func playRoundTrip(tb testing.TB, p *Position, r *rand.Rand, n int) int {
	tb.Helper()
	if _, err := p.TryAdvance(); err != nil {
		tb.Logf("not advanced: %v", err)
	}
	assertRoundTrip(tb, p)
	applied := 0
	for range n {
		s, legal, ok := randomRoundTripAction(p, r)
		if !ok {
			break
		}
		a, err := ParseAction(s)
		if err != nil {
			tb.Fatalf("generated action %q does not parse: %v", s, err)
		}
		if again := a.String(); again != s {
			tb.Fatalf("action %q prints as %q", s, again)
		}
		before := p.Format()
		if _, err := p.Apply(a); err != nil {
			if p.Format() != before {
				tb.Fatalf("refused action %q changed the position:\n%s\n---\n%s", s, before, p.Format())
			}
			// the generators offer only what Apply accepts, except
			// where G21 refuses the end of the last turn
			var re *RuleError
			if legal && !(errors.As(err, &re) && re.Rule == RuleTurnLimit) {
				tb.Fatalf("legal action %q refused: %v\n%s", s, err, before)
			}
			continue
		}
		applied++
		assertRoundTripAfter(tb, p, before, s)
	}
	return applied
}

// assertRoundTripAfter is assertRoundTrip with the position before the
// action in the failure message.
func assertRoundTripAfter(tb testing.TB, p *Position, before, action string) {
	tb.Helper()
	for _, q := range []*Position{p, p.View(NoSide), p.View(South), p.View(North)} {
		text := q.Format()
		r, err := ParsePosition(text)
		if err != nil {
			tb.Fatalf("after %q the printed position does not parse: %v\n%s\nbefore:\n%s", action, err, text, before)
		}
		if again := r.Format(); again != text {
			tb.Fatalf("after %q the printed position prints differently after parsing:\n%s\n---\n%s\nbefore:\n%s", action, text, again, before)
		}
	}
}

// TestRoundTripProperty plays random action sequences from random
// deployments and from hand-written positions; after every action the
// printed position parses and prints identically (see playRoundTrip).
func TestRoundTripProperty(t *testing.T) {
	t.Parallel()
	games, gameActions, runs, runActions := 10, 1000, 4, 100
	if !testkit.Long() {
		games, gameActions, runs, runActions = 2, 100, 1, 8
	}
	total := 0
	for g := range games {
		seed := uint64(7000 + g)
		r := rand.New(rand.NewPCG(seed, 11))
		p := NewGame(seed)
		// half the games start from random deployments, half find their
		// way through the deployment commands
		if g%2 == 0 {
			p = startRandomGame(t, seed)
		}
		total += playRoundTrip(t, p, r, gameActions)
	}
	positions := handWrittenPositions(t)
	for i, text := range positions {
		for run := range runs {
			r := rand.New(rand.NewPCG(uint64(i), uint64(run)))
			p := mustParse(t, text)
			total += playRoundTrip(t, p, r, runActions)
		}
	}
	t.Logf("%d actions applied from %d games and %d hand-written positions", total, games, len(positions))
}

// FuzzRoundTrip: from any position the parser accepts, the fuzzed actions
// and then random legal ones (from the fuzzed seed) never print a position
// that does not parse and print identically. In plain go test it runs the
// seeds: the edge positions and every scenario's position.
func FuzzRoundTrip(f *testing.F) {
	for i, text := range edgePositions {
		f.Add(text, "", uint64(i))
	}
	f.Add(edgePositions[0], "Mc3\nb2-b3\nMc4", uint64(1))
	f.Add(edgePositions[2], "d4-d5\nMe5\nAe6\np18-p17\nMp16", uint64(2))
	f.Add("sandtable-position 1\nphase deployment\n", "S preset phalanx\nN preset fortress\nS confirm\nN confirm", uint64(3))
	for i, sc := range loadScenarios(f) {
		// TestRoundTripProperty starts from every scenario; in the fast tier the
		// seeds take a quarter of them, with their actions
		if testkit.Long() || i%4 == 0 {
			f.Add(sc.position, strings.Join(sc.actions, "\n"), uint64(len(sc.actions)))
		}
	}
	f.Fuzz(func(t *testing.T, text, actions string, seed uint64) {
		p, err := ParsePosition(text)
		if err != nil || p.redacted {
			return
		}
		assertRoundTrip(t, p)
		if _, err := p.TryAdvance(); err != nil {
			return
		}
		assertRoundTrip(t, p)
		for i, s := range strings.Split(actions, "\n") {
			if i == 8 {
				break
			}
			before := p.Format()
			if _, err := p.ApplyString(s); err != nil {
				if p.Format() != before {
					t.Fatalf("refused action %q changed the position", s)
				}
				continue
			}
			assertRoundTripAfter(t, p, before, s)
		}
		playRoundTrip(t, p, rand.New(rand.NewPCG(seed, 3)), 6)
	})
}

// randomPositionText writes a random hand-written position: random pieces
// of both sides on random squares (Vehicles with random crews), Craters of
// either side, Drones of either side (some cancelled), and settings near
// the format's limits now and then. The parser refuses some of them.
func randomPositionText(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(FormatHeader + "\n")
	phases := []string{"preturn", "main", "main", "postturn", "postturn", "finished"}
	phase := phases[r.IntN(len(phases))]
	fmt.Fprintf(&b, "phase %s\n", phase)
	side := []string{"south", "north"}[r.IntN(2)]
	fmt.Fprintf(&b, "to-move %s\n", side)
	turn := 1 + r.IntN(40)
	if r.IntN(3) == 0 {
		turn = maxCounter - r.IntN(3)
	}
	fmt.Fprintf(&b, "turn %d\n", turn)
	// hazard numbers: small, or the last ones (next-hazard above them)
	big := r.IntN(3) == 0
	if r.IntN(2) == 0 {
		next := func() int {
			if big {
				return MaxIDNumber - r.IntN(3)
			}
			return 100 + r.IntN(40)
		}
		fmt.Fprintf(&b, "next-hazard SM%d SA%d NM%d NA%d\n", next(), next(), next(), next())
	}
	if r.IntN(3) == 0 {
		fmt.Fprintf(&b, "dead-turns %d\n", r.IntN(DeadlockTurns))
	}
	if phase == "finished" {
		b.WriteString([]string{"result south resignation\n", "result north all-tanks\n", "result draw agreement\n"}[r.IntN(3)])
	}
	used := map[Square]bool{}
	free := func() Square {
		for {
			if sq := Square(r.IntN(NumSquares)); !used[sq] {
				used[sq] = true
				return sq
			}
		}
	}
	var inf [3][]ID
	bases := map[Square]bool{}
	for s := South; s <= North; s++ {
		// a few Bases, Infantry, Vehicles and hazards per side
		counts := map[Kind]int{Base: 1 + r.IntN(3), Infantry: 1 + r.IntN(12), Tank: r.IntN(3), Airplane: r.IntN(3), Mine: r.IntN(4), AntiAir: r.IntN(4)}
		n := int32(0)
		for _, k := range AllKinds {
			for range counts[k] {
				n++
				num := n
				if k.IsHazard() && big {
					num = MaxIDNumber - 3 - n
				}
				id := ID{s, k, num}
				if k == Infantry {
					inf[s] = append(inf[s], id)
				}
				if !k.IsVehicle() {
					sq := free()
					bases[sq] = k == Base
					fmt.Fprintf(&b, "piece %s %s\n", id, sq)
					continue
				}
				fmt.Fprintf(&b, "piece %s %s", id, free())
				for range r.IntN(3) {
					n++
					c := ID{s, Infantry, n}
					inf[s] = append(inf[s], c)
					fmt.Fprintf(&b, " %s", c)
				}
				b.WriteByte('\n')
			}
		}
	}
	for range r.IntN(4) {
		fmt.Fprintf(&b, "crater %s %s\n", free(), []string{"south", "north"}[r.IntN(2)])
	}
	for range r.IntN(5) {
		s := Side(1 + r.IntN(2))
		spot := inf[s][r.IntN(len(inf[s]))]
		target := Sq(r.IntN(Files), r.IntN(Ranks))
		for bases[target] {
			target = Sq(r.IntN(Files), r.IntN(Ranks))
		}
		if r.IntN(2) == 0 {
			// aim at a Crater, where G22 applies
			for sq := range used {
				if !bases[sq] {
					target = sq
					break
				}
			}
		}
		fmt.Fprintf(&b, "drone %s %s", spot, target)
		if r.IntN(4) == 0 {
			b.WriteString(" cancelled")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestRoundTripRandomPositions plays random actions from random
// hand-written positions (randomPositionText) that the parser accepts.
func TestRoundTripRandomPositions(t *testing.T) {
	t.Parallel()
	positions, actions := 600, 30
	if !testkit.Long() {
		positions, actions = 60, 6
	}
	r := rand.New(rand.NewPCG(99, 1))
	parsed, applied := 0, 0
	for range positions {
		text := randomPositionText(r)
		p, err := ParsePosition(text)
		if err != nil {
			continue
		}
		parsed++
		applied += playRoundTrip(t, p, r, actions)
	}
	if parsed < positions/4 {
		t.Fatalf("only %d of %d random positions parsed", parsed, positions)
	}
	t.Logf("%d of %d random positions parsed, %d actions applied", parsed, positions, applied)
}
