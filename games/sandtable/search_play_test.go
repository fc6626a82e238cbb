package sandtable

import (
	"math/rand/v2"
	"testing"

	"sandtable/internal/testkit"
)

// TestPlayForSearchAgreesWithApply: in random games every legal action
// gives the same position through PlayForSearch as through Apply, and a
// refused one is refused by both.
func TestPlayForSearchAgreesWithApply(t *testing.T) {
	t.Parallel()
	games := testkit.Size(3, 20)
	for g := range games {
		seed := uint64(2000 + g)
		r := rand.New(rand.NewPCG(seed, 9))
		p := startRandomGame(t, seed)
		for p.phase != PhaseFinished && p.turn <= 80 {
			if junk, err := ParseAction(randomJunkAction(r)); err == nil {
				q := p.Clone()
				_, e1 := q.Apply(junk)
				e2 := p.Clone().PlayForSearch(junk)
				if (e1 == nil) != (e2 == nil) {
					t.Fatalf("%s: Apply says %v, PlayForSearch %v", junk, e1, e2)
				}
			}
			a := randomAction(t, p, r)
			q := p.Clone()
			if err := q.PlayForSearch(a); err != nil {
				t.Fatalf("%s refused by PlayForSearch: %v\n%s", a, err, p)
			}
			if _, err := p.Apply(a); err != nil {
				t.Fatalf("%s refused by Apply: %v", a, err)
			}
			if got, want := q.Format(), p.Format(); got != want {
				t.Fatalf("after %s PlayForSearch gave\n%s\nApply\n%s", a, got, want)
			}
		}
	}
}
