package engine

import (
	"testing"

	"sandtable/games/sandtable"
)

func stParse(t *testing.T, text string) *sandtable.Position {
	t.Helper()
	p, err := sandtable.ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSandTableLevelNames: the SandTable levels have the 8x8 engines'
// names, in the same order, so one level option serves every game.
func TestSandTableLevelNames(t *testing.T) {
	t.Parallel()
	var names []string
	for _, l := range SandTableLevels {
		names = append(names, l.Name)
	}
	if len(names) != len(LevelNames()) {
		t.Fatalf("SandTable levels %v, 8x8 levels %v", names, LevelNames())
	}
	for i, n := range LevelNames() {
		if names[i] != n {
			t.Fatalf("SandTable levels %v, 8x8 levels %v", names, LevelNames())
		}
		if i > 0 && SandTableLevels[i].Nodes <= SandTableLevels[i-1].Nodes {
			t.Errorf("%s does not try more positions than %s", n, names[i-1])
		}
	}
}

// TestSandTableTakesTheLastBase: with a Tank's clear file to the
// opponent's only Base, every level and greedy win at once.
func TestSandTableTakesTheLastBase(t *testing.T) {
	t.Parallel()
	pos := stParse(t, `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece ST1 c3 SI1
piece SI2 a3
piece SI3 h5
piece NB1 c18
piece NI1 t19
piece NI2 s19
piece NI3 h7
piece NT9 k20
piece NP9 l20
`)
	for _, spec := range append([]string{"greedy"}, LevelNames()...) {
		a, err := mustSTPlayer(t, spec, 3).Choose(pos.View(sandtable.South), 0)
		if err != nil {
			t.Fatal(err)
		}
		q := pos.Clone()
		if _, err := q.Apply(a); err != nil {
			t.Fatalf("%s: %s: %v", spec, a, err)
		}
		if r := q.Result(); r.Winner != sandtable.South {
			t.Errorf("%s played %s, not a win (%s)", spec, a, q.ResultText())
		}
	}
}

// TestSandTableBlocksATank: an enemy Tank has a clear file to the only
// Base; the one hazard use that saves it is a Mine on that file (Anti-Air
// does not stop a Tank, a Drone resolves too late), and every level finds
// it.
func TestSandTableBlocksATank(t *testing.T) {
	t.Parallel()
	pos := stParse(t, `sandtable-position 1
phase postturn
to-move south
hazard-uses 1
piece SB1 m1
piece SI1 l5
piece SI2 a2
piece NB1 a20
piece NT1 m20 NI1
piece NI2 t19
piece NT9 s10
piece NP9 t12
`)
	for _, spec := range LevelNames() {
		a, err := mustSTPlayer(t, spec, 3).Choose(pos.View(sandtable.South), 0)
		if err != nil {
			t.Fatal(err)
		}
		if a.Kind != sandtable.ActMine || a.To.File() != 12 {
			t.Errorf("%s played %s, leaving the m-file open to the Base", spec, a)
		}
	}
}
