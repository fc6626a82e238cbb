package sandtable

import "testing"

// TestAccessorsReturnCopies: what the accessors return can be changed
// without changing the position, so no caller can break its invariants.
func TestAccessorsReturnCopies(t *testing.T) {
	t.Parallel()
	p := parseAdvanced(t, "sandtable-position 1\nphase main\nturn 3\nto-move south\n"+
		"piece SB1 a1\npiece ST1 c3 SI1 SI2\npiece SI3 e4\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n"+
		"drone NI1 t17\ncrater f6 south\n")
	before := p.Format()
	ds := p.Drones()
	ds[0].Target, ds[0].Side = Sq(0, 5), South
	cs := p.Craters()
	cs[0].Square = Sq(1, 1)
	ps := p.Pieces()
	for i := range ps {
		ps[i].Square = Sq(2, 2)
		if len(ps[i].Crew) > 0 {
			ps[i].Crew[0] = ID{}
		}
	}
	if pc, ok := p.At(Sq(2, 2)); ok {
		pc.Crew[0] = ID{}
	}
	if pc, ok := p.Piece(ID{South, Tank, 1}); ok {
		pc.Crew = append(pc.Crew[:0], ID{North, Infantry, 1})
	}
	if p.Format() != before {
		t.Errorf("changing what the accessors returned changed the position:\n%s", p.Format())
	}
	d := NewGame(1)
	draft := d.Draft(South)
	if err := draft.Place(Base, Sq(0, 0)); err != nil {
		t.Fatal(err)
	}
	if d.Draft(South).Len() != 0 {
		t.Error("changing a returned draft changed the position's")
	}
	if d.Confirmed(NoSide) || d.NextHazard(NoSide, Mine) != 0 || d.NextHazard(South, Tank) != 0 {
		t.Error("accessors answer for no side or no hazard kind")
	}
}
