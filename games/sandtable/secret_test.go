package sandtable

import (
	"bytes"
	"fmt"
	"testing"
)

// retarget is rec with the target of its action k (a Drone) moved to the
// spotter's own square (G2), or nil when that is the same target or the
// result does not walk.
func retarget(t *testing.T, rec *Record, k int) *Record {
	t.Helper()
	d := rec.Actions[k].Drone
	if d.Target == d.From {
		return nil
	}
	c := *rec
	c.Actions = append([]RecordAction(nil), rec.Actions...)
	nd := *d
	nd.Target = d.From
	c.Actions[k].Drone = &nd
	c.Actions[k].Action = fmt.Sprintf("D%s-%s", d.From, d.From)
	if c.Walk(func(*Position, []Entry) error { return nil }) != nil {
		return nil
	}
	return &c
}

// publicLog is the public turn log of a record's walk.
func publicLog(t *testing.T, rec *Record) string {
	t.Helper()
	var b bytes.Buffer
	if err := rec.Walk(func(_ *Position, entries []Entry) error {
		for _, e := range FilterLog(entries, NoSide) {
			b.WriteString(e.String() + "\n")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestPublicRecordHidesUnresolvedDrones (ruling D6): in random games, two
// records that differ only in the target of a Drone that never resolved
// (the same public log) have the same public record, which still walks;
// each side's own record keeps its own Drones' targets; a Drone that
// resolved keeps its target in the public record.
func TestPublicRecordHidesUnresolvedDrones(t *testing.T) {
	t.Parallel()
	unresolved, resolved, cancelled, pending := 0, 0, 0, 0
	for g := 0; g < 12 && (unresolved < 3 || resolved < 3 || cancelled == 0 || pending == 0); g++ {
		start, log, _, p := playedGame(t, 300+g, 160)
		if p.Phase() != PhaseFinished {
			e, err := p.ApplyString("S resign")
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, e...)
		}
		rec, err := NewRecord(start, log)
		if err != nil {
			t.Fatal(err)
		}
		pub, err := rec.Public(NoSide)
		if err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		pubJSON, _ := pub.Marshal()
		if _, err := ParseRecord(pubJSON); err != nil {
			t.Fatalf("game %d: the public record does not read back: %v", g, err)
		}
		for k, a := range rec.Actions {
			if a.Drone == nil {
				continue
			}
			other := retarget(t, rec, k)
			if other == nil {
				continue
			}
			otherPub, err := other.Public(NoSide)
			if err != nil {
				t.Fatal(err)
			}
			otherJSON, _ := otherPub.Marshal()
			if publicLog(t, rec) == publicLog(t, other) {
				unresolved++
				if !bytes.Equal(pubJSON, otherJSON) {
					t.Errorf("game %d action %d (%s): the public records of two games differing only in an unresolved Drone's target differ", g, k+1, a.Action)
				}
				if h := pub.Actions[k].Drone; h == nil || !h.Hidden || h.Target != NoSquare {
					t.Errorf("game %d action %d: public order %+v, want hidden", g, k+1, h)
				} else if h.Spotter.IsZero() {
					pending++
				} else {
					cancelled++ // its spotter's loss was public
				}
				own, err := rec.Public(a.Side)
				if err != nil {
					t.Fatal(err)
				}
				if *own.Actions[k].Drone != *a.Drone || own.Actions[k].Action != a.Action {
					t.Errorf("game %d action %d: %s's own record has %+v, want %+v", g, k+1, a.Side, own.Actions[k].Drone, a.Drone)
				}
				opp, _ := rec.Public(a.Side.Opp())
				if !opp.Actions[k].Drone.Hidden {
					t.Errorf("game %d action %d: the opponent's record shows the target", g, k+1)
				}
			} else {
				resolved++
				if *pub.Actions[k].Drone != *a.Drone {
					t.Errorf("game %d action %d: a resolved Drone's order %+v in the public record, want %+v", g, k+1, pub.Actions[k].Drone, a.Drone)
				}
			}
		}
	}
	if unresolved < 3 || resolved < 3 || cancelled == 0 || pending == 0 {
		t.Fatalf("%d unresolved (%d cancelled, %d pending at the end) and %d resolved Drones seen; want at least 3 each, of both kinds", unresolved, cancelled, pending, resolved)
	}
}

// TestHiddenDroneThatResolvesIsRefused: a record that hides the target of a
// Drone that resolved does not walk.
func TestHiddenDroneThatResolvesIsRefused(t *testing.T) {
	t.Parallel()
	for g := 0; g < 12; g++ {
		start, log, _, _ := playedGame(t, 300+g, 160)
		rec, err := NewRecord(start, log)
		if err != nil {
			t.Fatal(err)
		}
		pub, _ := rec.Public(NoSide)
		for k, a := range pub.Actions {
			if a.Drone == nil || a.Drone.Hidden || k+1 == len(pub.Actions) {
				continue
			}
			c := *pub
			c.Actions = append([]RecordAction(nil), pub.Actions...)
			c.Actions[k].Action = "D" + a.Drone.Spotter.String() + "-?"
			c.Actions[k].Drone = &RecordDrone{Spotter: a.Drone.Spotter, From: a.Drone.From, Target: NoSquare, Hidden: true}
			if err := c.Walk(func(*Position, []Entry) error { return nil }); err == nil {
				t.Fatalf("game %d: a record hiding the resolved Drone of action %d walks", g, k+1)
			}
			return
		}
	}
	t.Fatal("no resolved Drone found")
}
