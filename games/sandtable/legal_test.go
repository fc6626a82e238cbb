package sandtable

import (
	"slices"
	"strings"
	"testing"
)

const legalPos = `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SI1 b2
piece SI2 d4
piece ST1 d6 SI3
piece SM1 c3
piece NB1 t20
piece NI1 e5
piece NT9 k20
piece NP9 l20
`

func stepStrings(ss []Step) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.String()
	}
	return out
}

func TestLegalNextSteps(t *testing.T) {
	t.Parallel()
	p, err := ParsePosition(legalPos)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := p.LegalNextSteps(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(stepStrings(steps), " ")
	// SI1 on b2: not a1 (own Base), not c3 (own Mine). SI2 on d4: not c3
	// (own Mine); e5 is an enemy. Crew of ST1 on d6: all 8 neighbours.
	want := "b2-b1 b2-c1 b2-c2 b2-a2 b2-a3 b2-b3 d4-d3 d4-e3 d4-c4 d4-e4 d4-c5 d4-d5 d4-e5 d6-c5 d6-d5 d6-e5 d6-c6 d6-e6 d6-c7 d6-d7 d6-e7"
	if got != sortedSteps(want) {
		t.Errorf("legal first steps\n%s\nwant\n%s", got, sortedSteps(want))
	}
	// After d4-d5, SI2 is done and d5 is taken.
	steps, err = p.LegalNextSteps([]Step{{From: Sq(3, 3), To: Sq(3, 4)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		if s.From == Sq(3, 4) || s.From == Sq(3, 3) {
			t.Errorf("moved Infantry offered again: %s", s)
		}
		if s.From == Sq(3, 5) && s.To == Sq(3, 4) {
			t.Errorf("crew offered onto the friendly Infantry on d5")
		}
	}
	if _, err := p.LegalNextSteps([]Step{{From: Sq(3, 3), To: Sq(3, 5)}}); err == nil {
		t.Errorf("illegal prefix accepted")
	}
	// Every offered step really is legal as a one-step action.
	for _, s := range steps {
		q := p.Clone()
		if _, err := q.Apply(Action{Kind: ActInfantry, Steps: []Step{{From: Sq(3, 3), To: Sq(3, 4)}, s}}); err != nil {
			t.Errorf("offered step %s refused: %v", s, err)
		}
	}
}

func sortedSteps(s string) string {
	var ss []Step
	for _, f := range strings.Fields(s) {
		st, err := parseStep(f)
		if err != nil {
			panic(err)
		}
		ss = append(ss, st)
	}
	slices.SortFunc(ss, func(a, b Step) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		return int(a.To) - int(b.To)
	})
	return strings.Join(stepStrings(ss), " ")
}

func TestVehicleMovesFrom(t *testing.T) {
	t.Parallel()
	p, err := ParsePosition(`sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SI9 b1
piece ST1 d6 SI1
piece SM1 d8
piece SP1 a20
piece NM1 f6
piece NI2 c6
piece NB1 t20
piece NI1 t19
piece NT9 k20
piece NP9 l20
`)
	if err != nil {
		t.Fatal(err)
	}
	acts, err := p.VehicleMovesFrom(Sq(3, 5))
	if err != nil {
		t.Fatal(err)
	}
	var plain []string
	dismounts := map[string]int{}
	for _, a := range acts {
		if a.Dismount == nil {
			plain = append(plain, a.To.String())
		} else {
			dismounts[a.To.String()]++
		}
	}
	// Up: d7, d8 own Mine (pass only), d9..d20 (d20 included). Down: d5..d1.
	// Right: e6, f6 (enemy Mine: legal, destroyed), g6..t6 (legal past the
	// Mine, G1). Left: c6 (enemy Infantry), b6, a6.
	want := []string{"d7", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "d16", "d17", "d18", "d19", "d20",
		"e6", "f6", "g6", "h6", "i6", "j6", "k6", "l6", "m6", "n6", "o6", "p6", "q6", "r6", "s6", "t6",
		"d5", "d4", "d3", "d2", "d1", "c6", "b6", "a6"}
	slices.Sort(plain)
	slices.Sort(want)
	if strings.Join(plain, " ") != strings.Join(want, " ") {
		t.Errorf("destinations\n%v\nwant\n%v", plain, want)
	}
	if dismounts["f6"] != 0 || dismounts["t6"] != 0 {
		t.Errorf("dismount offered after a move through the enemy Mine")
	}
	if dismounts["d9"] != 7 { // d8 is the own Mine: 8 neighbours minus 1
		t.Errorf("dismounts from d9: %d, want 7", dismounts["d9"])
	}
	if _, err := p.VehicleMovesFrom(Sq(0, 19)); err == nil {
		t.Errorf("moves offered for a neutral Airplane")
	}
	for _, a := range acts {
		if _, err := p.Clone().Apply(a); err != nil {
			t.Errorf("generated %s refused: %v", a, err)
		}
	}
}

func TestLegalHazardUses(t *testing.T) {
	t.Parallel()
	p, err := ParsePosition(`sandtable-position 1
phase postturn
to-move south
hazard-uses 1
piece SB1 a1
piece SI1 a3
piece NB1 t20
piece NI1 t19
piece NT9 k20
piece NP9 l20
`)
	if err != nil {
		t.Fatal(err)
	}
	uses, err := p.LegalHazardUses()
	if err != nil {
		t.Fatal(err)
	}
	count := map[ActionKind]int{}
	for _, u := range uses {
		count[u.Kind]++
		if _, err := p.Clone().Apply(u); err != nil {
			t.Errorf("generated %s refused: %v", u, err)
		}
	}
	// Neighbours of a3: a2 b2 b3 b4 a4 (5). Drone targets within 2 of a3:
	// files a–c, ranks 1–5 = 15 squares minus the Base on a1 = 14.
	if count[ActMine] != 5 || count[ActAntiAir] != 5 || count[ActDrone] != 14 {
		t.Errorf("hazard uses %v", count)
	}
	if _, err := p.LegalVehicleMoves(); err == nil {
		t.Errorf("vehicle moves offered in PostTurn")
	}
}
