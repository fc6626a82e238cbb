package chess

import (
	"fmt"
	"os"
	"testing"
)

// TestGenerateMagics prints fresh magic numbers when SANDTABLE_GENMAGICS=1.
// It is how magics.go was produced; normally it is skipped.
func TestGenerateMagics(t *testing.T) {
	t.Parallel()
	if os.Getenv("SANDTABLE_GENMAGICS") != "1" {
		t.Skip("set SANDTABLE_GENMAGICS=1 to regenerate magics.go")
	}
	seed := uint64(0x9e3779b97f4a7c15)
	rnd := func() uint64 {
		seed ^= seed >> 12
		seed ^= seed << 25
		seed ^= seed >> 27
		return seed * 2685821657736338717
	}
	for _, dirs := range []*[4][2]int{&rookDirs, &bishopDirs} {
		fmt.Println("{")
		for sq := Square(0); sq < 64; sq++ {
			edges := ((rank1 | rank8) &^ (rank1 << (8 * uint(sq.Rank())))) |
				((fileA | fileH) &^ (fileA << uint(sq.File())))
			mask := slidingAttacks(sq, 0, dirs) &^ edges
			n := mask.Count()
			var occs, atts []Bitboard
			var sub Bitboard
			for {
				occs = append(occs, sub)
				atts = append(atts, slidingAttacks(sq, sub, dirs))
				sub = (sub - mask) & mask
				if sub == 0 {
					break
				}
			}
			used := make([]Bitboard, 1<<n)
			epoch := make([]int, 1<<n)
			for try := 1; ; try++ {
				m := rnd() & rnd() & rnd()
				if Bitboard((uint64(mask)*m)>>56).Count() < 6 {
					continue
				}
				ok := true
				for i, o := range occs {
					idx := (uint64(o) * m) >> (64 - n)
					if epoch[idx] != try {
						epoch[idx] = try
						used[idx] = atts[i]
					} else if used[idx] != atts[i] {
						ok = false
						break
					}
				}
				if ok {
					fmt.Printf("0x%016x,\n", m)
					break
				}
			}
		}
		fmt.Println("}")
	}
}
