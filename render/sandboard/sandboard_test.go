package sandboard

import (
	"reflect"
	"testing"

	"sandtable/games/sandtable"
	"sandtable/render"
)

func parse(t *testing.T, text string) *sandtable.Position {
	t.Helper()
	p, err := sandtable.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const game = "sandtable-position 1\nphase main\nturn 7\nto-move north\nfirst north\n" +
	"piece SB1 a1\npiece ST1 c3 SI1\npiece SI2 e4\npiece SI3 f4\n" +
	"piece NB1 t20\npiece NI1 t19\npiece NI2 g12\npiece NI3 h14\npiece NT9 k20\npiece NP9 l20\n"

// TestPublicBoardDependsOnNoSecret: the public board of two positions that
// differ only in their secrets (seed, Drone orders) is the same, and holds
// no Drone order; each player's board holds its own orders only.
func TestPublicBoardDependsOnNoSecret(t *testing.T) {
	t.Parallel()
	a := parse(t, game+"seed 5\ndrone SI2 e6\ndrone NI2 g10\n")
	b := parse(t, game+"seed 6\ndrone SI3 f6\ndrone NI3 h16\n")
	ba, va, err := Board(a, nil, sandtable.NoSide)
	if err != nil {
		t.Fatal(err)
	}
	bb, _, err := Board(b, nil, sandtable.NoSide)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ba, bb) || va != render.ViewPublic {
		t.Errorf("public boards differ with the secrets:\n%+v\n%+v", ba, bb)
	}
	if len(ba.Drones) != 0 || len(ba.Drafts[render.South])+len(ba.Drafts[render.North]) != 0 {
		t.Errorf("public board: Drones %v, drafts %v", ba.Drones, ba.Drafts)
	}
	if a.ToMove() != sandtable.North || ba.Flipped {
		t.Errorf("the public board with %s to move is flipped (North at the bottom): %v; it is always drawn from South's side", a.ToMove(), ba.Flipped)
	}
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		bs, v, err := Board(a, nil, side)
		if err != nil {
			t.Fatal(err)
		}
		if len(bs.Drones) != 1 || bs.Drones[0].Owner != sides[side] || v == render.ViewPublic || bs.Flipped != (side == sandtable.North) {
			t.Errorf("%s's board: Drones %+v, frame %v, flipped %v", side, bs.Drones, v, bs.Flipped)
		}
	}
}

// TestDraftsOnlyInTheirOwnersBoard: in Deployment the public board shows
// no draft and each player's board only its own.
func TestDraftsOnlyInTheirOwnersBoard(t *testing.T) {
	t.Parallel()
	p := sandtable.NewGame(1)
	for _, a := range []string{"S preset phalanx", "N preset fortress"} {
		if _, err := p.ApplyString(a); err != nil {
			t.Fatal(err)
		}
	}
	pub, _, err := Board(p, nil, sandtable.NoSide)
	if err != nil || len(pub.Drafts[render.South])+len(pub.Drafts[render.North]) != 0 {
		t.Fatalf("public board holds drafts (%v)", err)
	}
	s, _, _ := Board(p, nil, sandtable.South)
	if len(s.Drafts[render.South]) != sandtable.RequiredTotal || len(s.Drafts[render.North]) != 0 {
		t.Errorf("South's board drafts %d/%d", len(s.Drafts[render.South]), len(s.Drafts[render.North]))
	}
	if _, err := FromView(p); err == nil {
		t.Error("a full position was converted")
	}
}
