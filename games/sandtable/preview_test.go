package sandtable

import (
	"strings"
	"testing"
)

// TestPreviewHidesOtherDrones: a preview that runs to the end of the turn
// does not resolve the other side's Drones, which would show their secret
// targets; the real position is unchanged.
func TestPreviewHidesOtherDrones(t *testing.T) {
	t.Parallel()
	// South's only ground Infantry boards the Tank: PostTurn is skipped, the
	// turn passes, and North's Drone on c5 resolves at North's PreTurn.
	p := parseAdvanced(t, `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece ST1 c3 SI1
piece SI2 c4
piece SI3 d4
piece NB1 t20
piece NI1 c7
piece NT9 k20
piece NP9 l20
drone NI1 c5
`)
	act, err := ParseAction("c4-c3 d4-c3")
	if err != nil {
		t.Fatal(err)
	}
	plain := p.Clone()
	plainLog, err := plain.Apply(act)
	if err != nil || plain.ToMove() != North {
		t.Fatalf("the turn should pass in the plain copy: %v", err)
	}
	resolved := false
	for _, e := range plainLog {
		resolved = resolved || e.Kind == EntryDroneResolved
	}
	if !resolved {
		t.Fatal("a plain copy would resolve North's Drone")
	}
	before := p.Format()
	view, entries, err := p.Preview(South, act)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Kind == EntryDroneResolved || strings.Contains(e.Text, "c5") || !e.VisibleTo(South) {
			t.Errorf("South's preview shows %s", e)
		}
	}
	if !view.Redacted() || view.Viewer() != South || view.ToMove() != North || view.CraterAt(sq(t, "c5")) {
		t.Errorf("preview is not South's view after the action:\n%s", view.Format())
	}
	for _, d := range view.Drones() {
		if !d.Hidden && d.Side == North {
			t.Errorf("North's Drone order in South's preview: %+v", d)
		}
	}
	if p.Format() != before || len(p.Drones()) != 1 {
		t.Error("Preview changed the position")
	}
}

func TestPreviewRefusals(t *testing.T) {
	t.Parallel()
	p := parseAdvanced(t, completePos)
	for _, c := range []struct {
		side Side
		act  string
		want string
	}{
		{North, "t19-t18", "side to move"},
		{South, "e4-e6", "cannot reach"},
		{South, "resign", "not a Main action"},
		{South, "Mf5", "PostTurn"},
	} {
		a, err := ParseAction(c.act)
		if err != nil {
			t.Fatal(err)
		}
		before := p.Format()
		if _, _, err := p.Preview(c.side, a); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: error %v, want %q", c.side, c.act, err, c.want)
		}
		if p.Format() != before {
			t.Errorf("%s %s: refused preview changed the position", c.side, c.act)
		}
	}
	d := NewGame(1)
	if _, _, err := d.Preview(South, Action{Kind: ActDeployConfirm, Side: South}); err == nil {
		t.Error("a deployment action was previewed")
	}
	if _, _, err := p.View(South).Preview(South, Action{Kind: ActInfantry, Steps: []Step{{From: sq(t, "e4"), To: sq(t, "e5")}}}); err == nil {
		t.Error("a view was previewed on")
	}
}

// TestPreviewOfOwnDrone: a Drone order's preview shows its owner the
// order, in the owner's view.
func TestPreviewOfOwnDrone(t *testing.T) {
	t.Parallel()
	p := parseAdvanced(t, "sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 2\npiece SB1 a1\npiece SB2 b1\npiece SI2 e4\npiece NB1 t20\npiece NI1 t19\npiece NI2 g6\npiece NT9 k20\npiece NP9 l20\ndrone NI2 e5\n")
	a, _ := ParseAction("De4-f6")
	view, entries, err := p.Preview(South, a)
	if err != nil {
		t.Fatal(err)
	}
	order := false
	for _, e := range entries {
		order = order || e.Kind == EntryDroneOrder && e.To == sq(t, "f6")
	}
	if !order {
		t.Errorf("no order entry in %v", entries)
	}
	ds := view.Drones()
	if len(ds) != 1 || ds[0].Side != South || ds[0].Target != sq(t, "f6") {
		t.Errorf("South's view holds %+v, want its own order only", ds)
	}
}

func sq(t testing.TB, s string) Square {
	t.Helper()
	q, err := ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
