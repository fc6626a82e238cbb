package engine

import (
	"testing"

	"sandtable/games/sandtable"
	"sandtable/internal/testkit"
)

// TestSandTableDeployment: for many seeds, levels and both sides the
// planned deployment is valid, never the random fallback's, its Bases are
// on the back rank ringed by Anti-Air, every Vehicle has Infantry next to
// it to crew it, and seeds vary it.
func TestSandTableDeployment(t *testing.T) {
	t.Parallel()
	n := 300
	if !testkit.Long() {
		n = 60
	}
	layouts := map[string]bool{}
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		for _, lv := range Levels {
			for seed := uint64(0); seed < uint64(n)/uint64(len(Levels)); seed++ {
				d := SandTableDeployment(side, lv, seed)
				if err := d.Validate(); err != nil {
					t.Fatalf("%s %s seed %d: %v\n%s", side, lv.Name, seed, err, d.Layout())
				}
				if d.Side != side {
					t.Fatalf("deployment for %s, want %s", d.Side, side)
				}
				layouts[d.Layout()] = true
				back := 0
				if side == sandtable.North {
					back = sandtable.Ranks - 1
				}
				for sq := sandtable.Square(0); sq < sandtable.NumSquares; sq++ {
					switch d.At(sq) {
					case sandtable.Base:
						if sq.Rank() != back {
							t.Fatalf("%s seed %d: Base on %s, not on the back rank\n%s", side, seed, sq, d.Layout())
						}
						for _, nb := range around(sq) {
							if d.At(nb) != sandtable.AntiAir {
								t.Fatalf("%s seed %d: Base on %s without Anti-Air on %s\n%s", side, seed, sq, nb, d.Layout())
							}
						}
					case sandtable.Tank, sandtable.Airplane:
						crew := 0
						for _, nb := range around(sq) {
							if d.At(nb) == sandtable.Infantry {
								crew++
							}
						}
						if crew == 0 {
							t.Fatalf("%s seed %d: no Infantry next to the %s on %s\n%s", side, seed, d.At(sq), sq, d.Layout())
						}
					}
				}
				if lv.Name == "strongest" {
					if again := SandTableDeployment(side, lv, seed); again.Layout() != d.Layout() {
						t.Fatalf("seed %d: not reproducible", seed)
					}
				}
			}
		}
	}
	if len(layouts) < n/2 {
		t.Fatalf("only %d different layouts from %d draws", len(layouts), 2*n)
	}
}

func around(sq sandtable.Square) []sandtable.Square {
	var out []sandtable.Square
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			if n := sandtable.Sq(sq.File()+df, sq.Rank()+dr); (df != 0 || dr != 0) && n != sandtable.NoSquare {
				out = append(out, n)
			}
		}
	}
	return out
}
