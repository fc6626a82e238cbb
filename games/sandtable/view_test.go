package sandtable

import (
	"strings"
	"testing"
)

// secretPosition is North's PostTurn with two pending South Drones (one
// cancelled); North's hazard use will declare a North Drone.
const secretPosition = `sandtable-position 1
phase postturn
turn 4
to-move north
first south
hazard-uses 1
seed 987654321
piece SB1 a1
piece SI1 d4
piece SI2 q3
piece NB1 t20
piece NI1 t19
piece NI2 h15
piece NT9 k20
piece NP9 l20
drone SI1 f6
drone SI2 q5 cancelled
`

func TestViewRemovesDroneSecrets(t *testing.T) {
	t.Parallel()
	p, err := ParsePosition(secretPosition)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := p.ApplyString("Dh15-j17") // North's Drone, then South's PreTurn
	if err != nil {
		t.Fatal(err)
	}
	// At South's turn: South's Drones resolved; North's Drone pending.
	if p.toMove != South || p.PendingDrones(North) != 1 || p.PendingDrones(South) != 0 {
		t.Fatalf("unexpected state:\n%s", p)
	}
	for _, viewer := range []Side{NoSide, South} {
		v := p.View(viewer)
		text := v.Format()
		if strings.Contains(text, "j17") || strings.Contains(text, "NI2 j17") || strings.Contains(text, "987654321") {
			t.Errorf("view for %s leaks North's Drone or the seed:\n%s", viewer, text)
		}
		if !strings.Contains(text, "drone north hidden") {
			t.Errorf("view for %s lost the public Drone count", viewer)
		}
		// The view equals the full position with the secrets removed by hand.
		q := p.Clone()
		q.drones = []Drone{{Side: North, Target: NoSquare, Hidden: true}}
		q.seed, q.redacted, q.viewer = 0, true, viewer
		if q.Format() != text {
			t.Errorf("view for %s differs from the position minus its secrets:\n%s\n---\n%s", viewer, text, q.Format())
		}
		for _, e := range FilterLog(entries, viewer) {
			if strings.Contains(e.Text, "j17") {
				t.Errorf("log for %s leaks the target: %s", viewer, e)
			}
		}
		// A view parses back as a view and is refused for play.
		w, err := ParsePosition(text)
		if err != nil || w.Format() != text || !w.redacted {
			t.Fatalf("view does not round-trip: %v", err)
		}
		if _, err := w.ApplyString("d4-d5"); err == nil {
			t.Errorf("a parsed view accepted an action")
		}
		if _, err := w.LegalNextSteps(nil); err == nil {
			t.Errorf("a view gave legal steps")
		}
	}
	// North's own view keeps its Drone order.
	if !strings.Contains(p.View(North).Format(), "drone NI2 j17") {
		t.Errorf("North's view lost North's own Drone")
	}
	found := false
	for _, e := range FilterLog(entries, North) {
		if e.Kind == EntryDroneOrder && e.To.String() == "j17" {
			found = true
		}
	}
	if !found {
		t.Errorf("North's log lacks its own Drone order")
	}
}

func TestViewDuringDeployment(t *testing.T) {
	t.Parallel()
	p := NewGame(5)
	for _, a := range []string{"S preset phalanx", "N preset skirmish", "N confirm"} {
		if _, err := p.ApplyString(a); err != nil {
			t.Fatal(err)
		}
	}
	pub := p.View(NoSide)
	if pub.Draft(South) != nil || pub.Draft(North) != nil {
		t.Fatalf("public view shows a draft")
	}
	if !pub.confirmed[North] || pub.confirmed[South] {
		t.Fatalf("public view lost who confirmed")
	}
	text := pub.Format()
	if strings.ContainsAny(strings.Join(rowsOf(text), ""), "BTPIMA") {
		t.Fatalf("public view text holds layout rows:\n%s", text)
	}
	s := p.View(South)
	if s.Draft(North) != nil || s.Draft(South) == nil || s.Draft(South).Len() != RequiredTotal {
		t.Fatalf("South's view must show its own draft only")
	}
	n := p.View(North).Format()
	if !strings.Contains(n, "draft south hidden\n") || !strings.Contains(n, "draft north confirmed\n") {
		t.Fatalf("North's view:\n%s", n)
	}
	// After the reveal nothing of the deployment is secret.
	if _, err := p.ApplyString("S confirm"); err != nil {
		t.Fatal(err)
	}
	if got, want := len(p.View(NoSide).Pieces()), 2*RequiredTotal; got != want {
		t.Fatalf("public view after reveal has %d pieces, want %d", got, want)
	}
}

// rowsOf returns the layout rows (lines starting with a digit or space-digit).
func rowsOf(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimLeft(l, " "); t != "" && t[0] >= '0' && t[0] <= '9' {
			out = append(out, l)
		}
	}
	return out
}

func TestDeploymentLogIsSecret(t *testing.T) {
	t.Parallel()
	p := NewGame(5)
	entries, err := p.ApplyString("S place Ia5")
	if err != nil {
		t.Fatal(err)
	}
	if len(FilterLog(entries, NoSide)) != 0 || len(FilterLog(entries, North)) != 0 || len(FilterLog(entries, South)) != 1 {
		t.Fatalf("a draft edit must be visible to its side only: %v", entries)
	}
}

func TestCounts(t *testing.T) {
	t.Parallel()
	p, err := ParsePosition(`sandtable-position 1
phase main
turn 2
to-move north
piece SB1 a1
piece SI1 d4
piece ST1 c3 SI2 SI3
piece SM1 e5
piece SA1 e6
piece NT1 h8
piece NP1 h9 NI1
piece NB1 t20
drone SI1 f6
`)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Counts(South)
	want := SideCounts{GroundInfantry: 1, CrewInfantry: 2, Tanks: 1, Bases: 1, Mines: 1, AntiAir: 1, Hazards: 2, PendingDrones: 1}
	if s != want {
		t.Errorf("South %+v, want %+v", s, want)
	}
	if n := p.Counts(NoSide); n.Tanks != 1 || n.Airplanes != 0 {
		t.Errorf("neutral %+v", n)
	}
	if n := p.Counts(North); n.Airplanes != 1 || n.CrewInfantry != 1 || n.Bases != 1 {
		t.Errorf("North %+v", n)
	}
}

// TestPublicViewCarriesNoSecret: the public view is a function of public
// information only. Two games that differ in nothing but their secrets
// (the coin's seed, every deployment draft, confirmed or not, every Drone
// order of both sides, cancelled ones included) have identical public
// views, and no secret appears in the view's text or accessors. (G20:
// these are all the secrets; hazards are public once revealed.)
func TestPublicViewCarriesNoSecret(t *testing.T) {
	t.Parallel()
	deploying := func(seed uint64, south, north string) *Position {
		p := NewGame(seed)
		for _, a := range []string{"S preset " + south, "N preset " + north, "N confirm"} {
			if _, err := p.ApplyString(a); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	play := func(seed, drones string) *Position {
		p, err := ParsePosition("sandtable-position 1\nphase main\nturn 7\nto-move south\nfirst north\nseed " + seed + "\n" +
			"piece SB1 a1\npiece SB2 b1\npiece ST1 c3 SI1\npiece SI2 e4\npiece SI3 f4\npiece SM1 e5\npiece SA1 f5\n" +
			"piece NB1 t20\npiece NI1 t19\npiece NI2 g12\npiece NI3 h14\npiece NM1 j12\npiece NA1 k12\npiece NT9 k20\npiece NP9 l20\n" + drones)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name    string
		a, b    *Position
		secrets []string // texts of a's secrets that must not appear in its public view
	}{
		{"deployment", deploying(11, "phalanx", "skirmish"), deploying(987654321, "fortress", "phalanx"), []string{"seed 11"}},
		{"play", play("11", "drone NI2 g10\ndrone NI3 h16 cancelled\n"), play("987654321", "drone NI3 j15\ndrone NI2 h10 cancelled\n"),
			[]string{"seed 11", "NI2 g10", "g10", "h16"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			va, vb := c.a.View(NoSide), c.b.View(NoSide)
			if va.Format() != vb.Format() {
				t.Errorf("public views differ with the secrets:\n%s\n---\n%s", va.Format(), vb.Format())
			}
			text := va.Format()
			for _, s := range c.secrets {
				if strings.Contains(text, s) {
					t.Errorf("public view shows %q:\n%s", s, text)
				}
			}
			if len(rowsOf(text)) != 0 || va.Draft(South) != nil || va.Draft(North) != nil {
				t.Errorf("public view holds a draft:\n%s", text)
			}
			for _, d := range va.Drones() {
				if !d.Hidden || !d.Spotter.IsZero() || d.Target != NoSquare || d.Cancelled {
					t.Errorf("public view holds a Drone order: %+v", d)
				}
			}
			if va.PendingDrones(North) != c.a.PendingDrones(North) || va.Confirmed(North) != c.a.Confirmed(North) {
				t.Error("public view lost a public count")
			}
			// A view of the view hides no more and shows no less.
			if va.View(NoSide).Format() != text {
				t.Error("the public view of the public view differs")
			}
		})
	}
}
