package sandtable

import "testing"

// TestFormatRoundTripEndedInDeployment: a game resigned or drawn during
// Deployment formats into a position that reads back (its next hazard IDs
// are the first ones, SM1 SA1 NM1 NA1).
func TestFormatRoundTripEndedInDeployment(t *testing.T) {
	t.Parallel()
	for _, end := range []string{"N resign", "draw"} {
		g := NewGame(3)
		for _, a := range []string{"S preset phalanx", "S confirm", end} {
			if _, err := g.ApplyString(a); err != nil {
				t.Fatal(err)
			}
		}
		text := g.Format()
		q, err := ParsePosition(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", end, err, text)
		}
		if q.Format() != text || q.phase != PhaseFinished {
			t.Fatalf("%s: round trip differs:\n%s\n---\n%s", end, text, q.Format())
		}
	}
}
