package sandtable

import (
	"math/rand/v2"
	"testing"
)

// TestPlayable: a player's view becomes a playable position without the
// other side's Drone orders (so two positions that differ only in them
// give the same playable copy), keeping the viewer's own; full positions
// and public views are refused.
func TestPlayable(t *testing.T) {
	t.Parallel()
	p := NewGame(7)
	for _, s := range []Side{South, North} {
		if _, err := p.Apply(Action{Kind: ActDeployRandom, Side: s, Seed: uint64(s)}); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Apply(Action{Kind: ActDeployConfirm, Side: s}); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	// Play until the mover declares a Drone, then into the other side's turn.
	var declarer Side
	for i := 0; i < 200 && declarer == NoSide; i++ {
		if p.phase == PhasePostTurn {
			h, _ := p.LegalHazardUses()
			for _, a := range h {
				if a.Kind == ActDrone {
					declarer = p.toMove
					if _, err := p.Apply(a); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			continue
		}
		if _, err := p.Apply(randomAction(t, p, r)); err != nil {
			t.Fatal(err)
		}
	}
	if declarer == NoSide || p.PendingDrones(declarer) == 0 {
		t.Fatalf("no pending Drone to test with:\n%s", p)
	}
	other := declarer.Opp()
	q, err := p.View(other).Playable()
	if err != nil {
		t.Fatal(err)
	}
	if q.Redacted() || q.PendingDrones(declarer) != 0 {
		t.Fatalf("playable copy: redacted %v, %d of %s's Drones kept", q.Redacted(), q.PendingDrones(declarer), declarer)
	}
	// Another secret target gives the same playable copy.
	p2 := p.Clone()
	for i := range p2.drones {
		if p2.drones[i].Side == declarer {
			p2.drones[i].Target = Sq((p2.drones[i].Target.File()+1)%Files, p2.drones[i].Target.Rank())
		}
	}
	q2, _ := p2.View(other).Playable()
	if q.Format() != q2.Format() {
		t.Fatalf("playable copies differ by the other side's secrets:\n%s\n%s", q.Format(), q2.Format())
	}
	own, _ := p.View(declarer).Playable()
	if own.PendingDrones(declarer) != p.PendingDrones(declarer) {
		t.Fatalf("the viewer's own Drones were dropped")
	}
	if _, err := p.Playable(); err == nil {
		t.Fatal("a full position was accepted")
	}
	if _, err := p.View(NoSide).Playable(); err == nil {
		t.Fatal("a public view was accepted")
	}
}
