package sandtable

import (
	"errors"
	"strings"
	"testing"
)

// mustParse parses a hand-written position or fails the test.
func mustParse(t *testing.T, text string) *Position {
	t.Helper()
	p, err := ParsePosition(text)
	if err != nil {
		t.Fatalf("position: %v\n%s", err, text)
	}
	return p
}

// assertRoundTrip fails unless p's text parses and prints identically,
// and so do its three views.
func assertRoundTrip(t testing.TB, p *Position) {
	t.Helper()
	for _, q := range []*Position{p, p.View(NoSide), p.View(South), p.View(North)} {
		text := q.Format()
		r, err := ParsePosition(text)
		if err != nil {
			t.Fatalf("printed position does not parse: %v\n%s", err, text)
		}
		if again := r.Format(); again != text {
			t.Fatalf("printed position prints differently after parsing:\n%s\n---\n%s", text, again)
		}
	}
}

// assertRefused fails unless err is a *RuleError citing rule whose text
// contains want, and p still prints as before.
func assertRefused(t *testing.T, p *Position, before string, err error, rule Rule, want string) {
	t.Helper()
	var re *RuleError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T), want a *RuleError", err, err)
	}
	if re.Rule != rule {
		t.Errorf("refused under %v, want %v", re.Rule, rule)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not say %q", err, want)
	}
	if p.Format() != before {
		t.Fatalf("a refused action changed the position:\n%s", p.Format())
	}
}

const limitsBase = "piece SB1 a1\npiece SI30 b2\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n"

// TestTurnCounterLimit: the action that would end the last turn the
// position format holds is refused (ruling G21); it used to print turn
// 1000000000, which the parser refuses.
func TestTurnCounterLimit(t *testing.T) {
	t.Parallel()
	// The Main action ends the turn: South has no Base, so no PostTurn.
	// The hazard use ends the turn too; a Main action followed by a
	// PostTurn does not.
	cases := []struct {
		name, pos, action string
		refused           bool
	}{
		{"hazard use ends the last turn", "phase postturn\nturn 999999999\nto-move south\nhazard-uses 1\n", "Mc3", true},
		{"Drone ends the last turn", "phase postturn\nturn 999999999\nto-move south\nhazard-uses 1\n", "Db2-d4", true},
		{"Main action with PostTurn after it", "phase main\nturn 999999999\nto-move south\n", "b2-b3", false},
		{"hazard use of the turn before", "phase postturn\nturn 999999998\nto-move south\nhazard-uses 1\n", "Mc3", false},
		{"resignation in the last turn", "phase main\nturn 999999999\nto-move south\n", "resign", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, "sandtable-position 1\n"+c.pos+limitsBase)
			before := p.Format()
			_, err := p.ApplyString(c.action)
			if c.refused {
				assertRefused(t, p, before, err, RuleTurnLimit, "999999999")
				return
			}
			if err != nil {
				t.Fatalf("%s refused: %v", c.action, err)
			}
			assertRoundTrip(t, p)
		})
	}
	// A Main action whose PostTurn is skipped (no Infantry left on the
	// ground) ends the turn at once.
	p := mustParse(t, "sandtable-position 1\nphase main\nturn 999999999\nto-move south\n"+
		"piece SB1 a1\npiece ST1 c3 SI1\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n")
	before := p.Format()
	_, err := p.ApplyString("Tc3-c6")
	assertRefused(t, p, before, err, RuleTurnLimit, "999999999")
}

// TestAdvanceTurnLimit: a hand-written position whose automatic phases
// would pass the last turn is not advanced: TryAdvance says why and the
// position is unchanged.
func TestAdvanceTurnLimit(t *testing.T) {
	t.Parallel()
	// South has no Infantry on the ground and its crewed Tank is boxed in
	// (own Bases, a Mine and neutral Tanks around it): Main and PostTurn
	// are skipped, so the turn would end by itself.
	text := "sandtable-position 1\nphase main\nturn 999999999\nto-move south\n" +
		"piece ST1 a1 SI1\npiece SB1 a2\npiece SB2 b1\npiece SM1 b2\npiece ST2 a3\npiece ST3 c1\n" +
		"piece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n"
	p := mustParse(t, text)
	before := p.Format()
	_, err := p.TryAdvance()
	assertRefused(t, p, before, err, RuleTurnLimit, "999999999")
	p.Advance()
	if p.Format() != before {
		t.Fatalf("Advance passed the last turn:\n%s", p.Format())
	}
	q := mustParse(t, strings.Replace(text, "turn 999999999", "turn 999999998", 1))
	if _, err := q.TryAdvance(); err != nil {
		t.Fatal(err)
	}
	if q.turn != 999999999 {
		t.Fatalf("turn %d after advancing", q.turn)
	}
	assertRoundTrip(t, q)
}

// TestHazardNumberLimit: a hazard whose ID would leave no number for the
// next one is refused (ruling G12); the ID after 2147483647 used to wrap
// to SM-2147483648.
func TestHazardNumberLimit(t *testing.T) {
	t.Parallel()
	pos := func(next string) string {
		return "sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\nnext-hazard " + next + "\n" + limitsBase
	}
	p := mustParse(t, pos("SM2147483647 SA2147483646 NM16 NA16"))
	before := p.Format()
	_, err := p.ApplyString("Mc3")
	assertRefused(t, p, before, err, RuleHazardNumbers, "2147483647")
	if n := countUses(t, p, ActMine); n != 0 {
		t.Errorf("LegalHazardUses offers %d Mines with the numbers used up", n)
	}
	if n := countUses(t, p, ActAntiAir); n == 0 {
		t.Errorf("LegalHazardUses offers no Anti-Air")
	}
	if _, err := p.ApplyString("Ac3"); err != nil {
		t.Fatalf("Anti-Air SA2147483646 refused: %v", err)
	}
	if _, ok := p.Piece(ID{South, AntiAir, MaxIDNumber - 1}); !ok {
		t.Fatalf("SA2147483646 not placed:\n%s", p)
	}
	assertRoundTrip(t, p)

	// The parser refuses what would wrap: a hazard numbered 2147483647
	// leaves no number for next-hazard.
	for _, text := range []string{
		"sandtable-position 1\nphase main\nto-move south\n" + limitsBase + "piece SM2147483647 c3\n",
		"sandtable-position 1\nphase main\nto-move south\nnext-hazard SM2147483647 SA1 NM1 NA1\n" + limitsBase + "piece SM2147483647 c3\n",
		"sandtable-position 1\nphase main\nto-move south\n" + limitsBase + "piece NA2147483647 c3\n",
	} {
		if q, err := ParsePosition(text); err == nil {
			t.Errorf("parsed with next-hazard %v:\n%s", q.nextHazard, text)
		} else if !strings.Contains(err.Error(), "2147483647") {
			t.Errorf("error %q does not name the number", err)
		}
	}
}

// TestDroneOnCrater: a Drone resolving on a square that already holds a
// Crater leaves one Crater there (ruling G22); it used to add a second
// crater line, which the parser refuses.
func TestDroneOnCrater(t *testing.T) {
	t.Parallel()
	// A hand-written position: North's Crater on e5 lasts until the end
	// of North's next turn, when North's Drone also hits e5.
	p := mustParse(t, "sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\n"+limitsBase+
		"piece NI2 e7\ndrone NI2 e5\ncrater e5 north\n")
	entries, err := p.ApplyString("Mc3")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range p.craters {
		if c.Square == Sq(4, 4) {
			n++
			if c.Side != North {
				t.Errorf("Crater on e5 ends with %s's turn, want North's", c.Side)
			}
		}
	}
	if n != 1 || len(p.craters) != 1 {
		t.Fatalf("%d Craters on e5 (%d in all), want one:\n%s", n, len(p.craters), p)
	}
	resolved := false
	for _, e := range entries {
		if e.Kind == EntryDroneResolved && e.To == Sq(4, 4) {
			resolved = true
		}
	}
	if !resolved {
		t.Errorf("the Drone's resolution is not logged")
	}
	assertRoundTrip(t, p)
	// The Crater goes at the end of North's turn as usual.
	if _, err := p.ApplyString("t19-t18"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.ApplyString("Ms17"); err != nil {
		t.Fatal(err)
	}
	if len(p.craters) != 0 {
		t.Fatalf("Craters left after North's turn: %v", p.craters)
	}
}

// TestDeadTurnsBound: dead-turns counts at most 3 turns in a position
// still playing (the fourth ends the game, ruling 9), so the parser refuses
// more; a large count used to be accepted and advanced past the format's
// bound.
func TestDeadTurnsBound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"phase main\nto-move south\ndead-turns 3\n", true},
		{"phase main\nto-move south\ndead-turns 4\n", false},
		{"phase main\nto-move south\ndead-turns 999999999\n", false},
		{"phase finished\nto-move south\nresult draw deadlock\ndead-turns 4\n", true},
		{"phase finished\nto-move south\nresult draw deadlock\ndead-turns 5\n", false},
	} {
		_, err := ParsePosition("sandtable-position 1\n" + c.text + limitsBase)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok=%v", c.text, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "dead-turns") {
			t.Errorf("%q: error %q does not name dead-turns", c.text, err)
		}
	}
}

// TestHazardUsesBound: PostTurn gives one hazard use per Base (G6), and a
// hand-written position may give a side three Bases; the parser bounded
// hazard-uses by 2, so the PostTurn of such a position printed hazard-uses
// 3, which it refused. The bound is now the side to move's Bases.
func TestHazardUsesBound(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "sandtable-position 1\nphase main\nto-move south\n"+limitsBase+"piece SB2 c1\npiece SB3 e1\n")
	if _, err := p.ApplyString("b2-b3"); err != nil {
		t.Fatal(err)
	}
	if p.hazardUses != 3 {
		t.Fatalf("hazard-uses %d with three Bases", p.hazardUses)
	}
	assertRoundTrip(t, p)
	for _, c := range []struct {
		extra string
		ok    bool
	}{
		{"hazard-uses 1\n", true},
		{"hazard-uses 2\n", false},
		{"hazard-uses 2\npiece SB2 c1\n", true},
		{"hazard-uses 3\npiece SB2 c1\n", false},
	} {
		_, err := ParsePosition("sandtable-position 1\nphase postturn\nto-move south\n" + limitsBase + c.extra)
		if (err == nil) != c.ok {
			t.Errorf("%q: error %v, want ok=%v", c.extra, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "hazard-uses") {
			t.Errorf("%q: error %q does not name hazard-uses", c.extra, err)
		}
	}
}

// TestDeploymentCounters: a Deployment position's counters carry into the
// game at the reveal, so the parser bounds them in Deployment too; it used
// to accept hazard-uses 5 there, and the revealed game printed hazard-uses
// 5 in Main, which it refuses.
func TestDeploymentCounters(t *testing.T) {
	t.Parallel()
	drafts := "draft south\ndraft north\n"
	for _, extra := range []string{"hazard-uses 5\n", "dead-turns 2\n", "result south resignation\n"} {
		if _, err := ParsePosition("sandtable-position 1\nphase deployment\n" + extra + drafts); err == nil {
			t.Errorf("Deployment with %q parsed", extra)
		}
	}
	p := mustParse(t, "sandtable-position 1\nphase deployment\n"+drafts)
	for _, a := range []string{"S preset phalanx", "N random 3", "S confirm", "N confirm"} {
		if _, err := p.ApplyString(a); err != nil {
			t.Fatal(err)
		}
	}
	assertRoundTrip(t, p)
}

// TestDroneCountBound: a side's pending Drones come from one PostTurn, one
// per Base, so there are at most NumSquares of them; the parser refuses
// more. It used to accept a million-byte position of Drone lines, whose
// views ("drone south hidden") printed longer than the 1 MiB the parser
// reads.
func TestDroneCountBound(t *testing.T) {
	t.Parallel()
	head := "sandtable-position 1\nphase main\nto-move north\n" + limitsBase + "piece SI2147483647 d4\n"
	many := func(n int) string {
		return head + strings.Repeat("drone SI2147483647 d5 cancelled\n", n)
	}
	p := mustParse(t, many(NumSquares))
	assertRoundTrip(t, p)
	_, err := ParsePosition(many(NumSquares + 1))
	if err == nil || !strings.Contains(err.Error(), "Drones") {
		t.Fatalf("401 South Drones: error %v", err)
	}
	// the longest text the parser reads, full of short Drone lines: if it
	// parses, it round-trips, views included
	text := head + strings.Repeat("drone SI1 d5 cancelled\n", (1<<20-len(head))/23)
	if p, err := ParsePosition(text); err == nil {
		assertRoundTrip(t, p)
	}
}

// TestDroneDeclarationBound: a hand-written PostTurn may already hold 400
// of the mover's Drones, the most the parser reads; one more Drone is
// refused (it used to be declared, printing 401 Drone lines that the
// parser refuses).
func TestDroneDeclarationBound(t *testing.T) {
	t.Parallel()
	pos := func(n int) string {
		return "sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\n" + limitsBase +
			strings.Repeat("drone SI30 b3\n", n)
	}
	p := mustParse(t, pos(NumSquares))
	before := p.Format()
	_, err := p.ApplyString("Db2-b4")
	assertRefused(t, p, before, err, RuleHazardUse, "400")
	if n := countUses(t, p, ActDrone); n != 0 {
		t.Errorf("LegalHazardUses offers %d Drones beyond the bound", n)
	}
	if _, err := p.ApplyString("Mb3"); err != nil {
		t.Fatalf("a Mine is still possible: %v", err)
	}
	p = mustParse(t, pos(NumSquares-1))
	if _, err := p.ApplyString("Db2-b4"); err != nil {
		t.Fatal(err)
	}
	assertRoundTrip(t, p)
}

// countUses counts the hazard uses of kind k that LegalHazardUses offers.
func countUses(t *testing.T, p *Position, k ActionKind) int {
	t.Helper()
	uses, err := p.LegalHazardUses()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range uses {
		if a.Kind == k {
			n++
		}
	}
	return n
}
