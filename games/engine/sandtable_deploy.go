package engine

import (
	"math/rand/v2"

	"sandtable/games/sandtable"
)

// SandTableDeployment returns a legal deployment (Deployment.Validate
// passes) for side, built by plan and varied by seed (the same side, level
// and seed give the same deployment on any machine):
//
//   - both Bases in the back corners, each a fortress: Anti-Air on the
//     three squares next to it (every Airplane line to the Base ends on
//     one) and, from the level "easy" up, Mines across every Tank line
//     to those squares (a Tank that ends next to a Base takes it with a
//     dismount), with two Infantry holding them;
//   - the four Tanks and two Airplanes spread across the width a few ranks
//     in front, each with two Infantry beside it to crew it on the first
//     turn (Vehicles start neutral, ruling 2);
//   - a front line of Infantry near the middle of the board, Mines in
//     front of it on the approaches and the remaining Anti-Air in its
//     gaps, over the Vehicles.
//
// Should a plan ever fail to validate, another draw is tried, and in the
// end sandtable.RandomDeployment (never seen in tests of many seeds).
func SandTableDeployment(side sandtable.Side, level Level, seed uint64) *sandtable.Deployment {
	r := rand.New(rand.NewPCG(seed, 0x5a4d7ab1e))
	ringMines := levelIndex(level.Name) >= 1
	for range 50 {
		if d := planDeployment(side, r, ringMines); d != nil && d.Validate() == nil {
			return d
		}
	}
	return sandtable.RandomDeployment(side, r)
}

// levelIndex returns a level's index in Levels (0 for an unknown name;
// an alias names its level).
func levelIndex(name string) int {
	name = CanonicalLevel(name)
	for i, l := range Levels {
		if l.Name == name {
			return i
		}
	}
	return 0
}

// deployGrid is a deployment being planned in side-relative coordinates:
// file 0–19, rank 0 (the side's back rank) to 8 (its front row).
type deployGrid struct {
	cells [sandtable.Files][9]sandtable.Kind
	left  map[sandtable.Kind]int
}

func (g *deployGrid) free(f, r int) bool {
	return f >= 0 && f < sandtable.Files && r >= 0 && r < 9 && g.cells[f][r] == sandtable.NoKind
}

// put places k on (f, r) when that square is free and k is left.
func (g *deployGrid) put(k sandtable.Kind, f, r int) bool {
	if !g.free(f, r) || g.left[k] == 0 {
		return false
	}
	g.cells[f][r] = k
	g.left[k]--
	return true
}

// infantryNear reports whether (f, r) has an Infantry next to it.
func (g *deployGrid) infantryNear(f, r int) bool {
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			ff, rr := f+df, r+dr
			if (df != 0 || dr != 0) && ff >= 0 && ff < sandtable.Files && rr >= 0 && rr < 9 && g.cells[ff][rr] == sandtable.Infantry {
				return true
			}
		}
	}
	return false
}

func planDeployment(side sandtable.Side, r *rand.Rand, ringMines bool) *sandtable.Deployment {
	g := &deployGrid{left: map[sandtable.Kind]int{}}
	for k, n := range sandtable.Required {
		g.left[k] = n
	}
	// The Bases in the back corners, each a fortress (drawn for the a-file
	// corner, mirrored for the t-file one): Anti-Air on the three squares
	// next to the Base, so every Airplane line to it ends on one; Mines
	// across every Tank line to those three squares (a Tank that ends
	// next to a Base takes it by a dismount); two Infantry holding them.
	for _, mirror := range []bool{false, true} {
		fx := func(f int) int {
			if mirror {
				return sandtable.Files - 1 - f
			}
			return f
		}
		g.put(sandtable.Base, fx(0), 0)
		for _, sq := range [][2]int{{1, 0}, {0, 1}, {1, 1}} {
			g.put(sandtable.AntiAir, fx(sq[0]), sq[1])
		}
		for _, sq := range [][2]int{{2, 1}, {0, 2}} {
			g.put(sandtable.Infantry, fx(sq[0]), sq[1])
		}
		if ringMines {
			for _, sq := range [][2]int{{2, 0}, {3, 1}, {0, 3}, {1, 2}} {
				g.put(sandtable.Mine, fx(sq[0]), sq[1])
			}
		}
	}
	// Vehicles across the width, each with two Infantry to crew it.
	slots := [][2]int{{0, 2}, {3, 5}, {6, 9}, {10, 13}, {14, 16}, {17, 19}}
	kinds := []sandtable.Kind{sandtable.Tank, sandtable.Tank, sandtable.Tank, sandtable.Tank}
	planeSlots := r.Perm(4)[:2] // Airplanes in two of the four middle slots
	vr := 4 + r.IntN(2)
	for i, s := range slots {
		k := sandtable.Tank
		if i >= 1 && i <= 4 && (planeSlots[0] == i-1 || planeSlots[1] == i-1) {
			k = sandtable.Airplane
		} else if len(kinds) > 0 {
			kinds = kinds[1:]
		}
		f := s[0] + r.IntN(s[1]-s[0]+1)
		row := vr
		if k == sandtable.Airplane {
			row = vr - 1
		}
		if !g.put(k, f, row) {
			return nil
		}
		crew := 0
		for _, c := range [][2]int{{f, row - 1}, {f - 1, row - 1}, {f + 1, row - 1}, {f - 1, row}, {f + 1, row}} {
			if crew < 2 && g.put(sandtable.Infantry, c[0], c[1]) {
				crew++
			}
		}
	}
	// The front line: the remaining Infantry on rank 7 (side-relative),
	// Mines in front of it, Anti-Air in its gaps.
	front := g.left[sandtable.Infantry]
	off := r.IntN(2)
	var line []int
	for i := 0; i < front && i < 10; i++ {
		if f := off + 2*i; g.put(sandtable.Infantry, f, 7) {
			line = append(line, f)
		}
	}
	// a second line behind, from the centre out
	for i := 0; g.left[sandtable.Infantry] > 0 && i < 10; i++ {
		f := 9 + (1-off)%2 + 2*((i+1)/2)*(1-2*(i%2))
		g.put(sandtable.Infantry, f, 6)
	}
	r.Shuffle(len(line), func(i, j int) { line[i], line[j] = line[j], line[i] })
	for _, f := range line {
		g.put(sandtable.Mine, f, 8)
		if g.left[sandtable.Mine] > 0 {
			g.put(sandtable.Mine, f+1, 8)
		}
	}
	for _, f := range line {
		if !g.put(sandtable.AntiAir, f+1, 7) {
			g.put(sandtable.AntiAir, f-1, 7)
		}
	}
	// Whatever is left (a crowded draw): any free square next to Infantry
	// for hazards, any free square for the rest.
	for _, k := range []sandtable.Kind{sandtable.Infantry, sandtable.Mine, sandtable.AntiAir, sandtable.Tank, sandtable.Airplane, sandtable.Base} {
		for rr := 6; rr >= 0 && g.left[k] > 0; rr-- {
			for f := 0; f < sandtable.Files && g.left[k] > 0; f++ {
				if g.free(f, rr) && (!k.IsHazard() || g.infantryNear(f, rr)) {
					g.put(k, f, rr)
				}
			}
		}
		if g.left[k] > 0 {
			return nil
		}
	}
	d := sandtable.NewDeployment(side)
	for f := range sandtable.Files {
		for rr := range 9 {
			if k := g.cells[f][rr]; k != sandtable.NoKind {
				rank := rr
				if side == sandtable.North {
					rank = sandtable.Ranks - 1 - rr
				}
				if err := d.Place(k, sandtable.Sq(f, rank)); err != nil {
					return nil
				}
			}
		}
	}
	return d
}
