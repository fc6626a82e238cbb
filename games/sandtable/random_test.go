package sandtable

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"sandtable/internal/testkit"
)

// randomAction picks a legal action of the phase at random: a Vehicle move
// or a random sequence of legal Infantry steps in Main, a hazard use in
// PostTurn.
func randomAction(t testing.TB, p *Position, r *rand.Rand) Action {
	t.Helper()
	switch p.phase {
	case PhaseMain:
		if r.IntN(3) == 0 {
			vm, err := p.LegalVehicleMoves()
			if err != nil {
				t.Fatal(err)
			}
			if len(vm) > 0 {
				return vm[r.IntN(len(vm))]
			}
		}
		var steps []Step
		for {
			next, err := p.LegalNextSteps(steps)
			if err != nil {
				t.Fatalf("legal prefix %v refused: %v", steps, err)
			}
			if len(next) == 0 {
				break
			}
			steps = append(steps, next[r.IntN(len(next))])
			if r.IntN(3) == 0 {
				break
			}
		}
		if len(steps) == 0 {
			vm, _ := p.LegalVehicleMoves()
			if len(vm) == 0 {
				t.Fatalf("Main without any legal action:\n%s", p)
			}
			return vm[r.IntN(len(vm))]
		}
		return Action{Kind: ActInfantry, Steps: steps}
	case PhasePostTurn:
		h, err := p.LegalHazardUses()
		if err != nil || len(h) == 0 {
			t.Fatalf("PostTurn without hazard use (%v):\n%s", err, p)
		}
		// favour placements so the cap is reached in long games
		if r.IntN(4) > 0 && h[0].Kind != ActDrone {
			var pl []Action
			for _, a := range h {
				if a.Kind != ActDrone {
					pl = append(pl, a)
				}
			}
			return pl[r.IntN(len(pl))]
		}
		return h[r.IntN(len(h))]
	}
	t.Fatalf("no action in phase %s", p.phase)
	return Action{}
}

type census struct {
	ids map[ID]bool
}

func takeCensus(p *Position) census {
	c := census{ids: map[ID]bool{}}
	for _, pc := range p.pieces {
		c.ids[pc.ID] = true
	}
	return c
}

// checkInvariants asserts the invariants of the package doc after an
// action; prev is the census before it.
func checkInvariants(t testing.TB, p *Position, prev census, next [3][2]int32) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\nposition:\n%s", fmt.Sprintf(format, args...), p)
	}
	switch p.phase {
	case PhaseMain, PhaseFinished:
		if p.hazardUses != 0 {
			fail("hazard uses %d outside PostTurn", p.hazardUses)
		}
	case PhasePostTurn:
		if p.hazardUses < 1 || p.hazardUses > p.Count(p.toMove, Base) {
			fail("PostTurn with %d hazard uses and %d Bases", p.hazardUses, p.Count(p.toMove, Base))
		}
	default:
		fail("position rests in phase %s", p.phase)
	}
	seen := map[Square]ID{}
	for i := 1; i < len(p.pieces); i++ {
		if !p.pieces[i-1].ID.less(p.pieces[i].ID) {
			fail("pieces not sorted by ID at %s", p.pieces[i].ID)
		}
	}
	for _, pc := range p.pieces {
		if !pc.Square.Valid() {
			fail("%s has no square", pc.ID)
		}
		if pc.ID.Kind != Infantry && !pc.Carrier.IsZero() {
			fail("%s is carried", pc.ID)
		}
		if pc.Carrier.IsZero() {
			if o, ok := seen[pc.Square]; ok {
				fail("%s and %s share %s", o, pc.ID, pc.Square)
			}
			seen[pc.Square] = pc.ID
			if p.board[pc.Square] < 0 || p.pieces[p.board[pc.Square]].ID != pc.ID {
				fail("board index wrong on %s", pc.Square)
			}
			if p.hasCrater(pc.Square) {
				fail("%s stands on a Crater", pc.ID)
			}
		} else {
			v := p.get(pc.Carrier)
			if v == nil || v.Square != pc.Square || !contains(v.Crew, pc.ID) {
				fail("%s crews %s inconsistently", pc.ID, pc.Carrier)
			}
		}
		if !pc.ID.Kind.IsVehicle() && pc.Owner != pc.ID.Side {
			fail("%s changed side", pc.ID)
		}
		if pc.ID.Kind.IsVehicle() {
			if len(pc.Crew) > MaxCrew {
				fail("%s has %d crew", pc.ID, len(pc.Crew))
			}
			if (len(pc.Crew) == 0) != (pc.Owner == NoSide) {
				fail("%s owner %s with %d crew", pc.ID, pc.Owner, len(pc.Crew))
			}
			for _, c := range pc.Crew {
				cp := p.get(c)
				if cp == nil || cp.Carrier != pc.ID || c.Side != pc.Owner {
					fail("crew %s of %s inconsistent", c, pc.ID)
				}
			}
		} else if len(pc.Crew) > 0 {
			fail("%s has crew", pc.ID)
		}
		if !prev.ids[pc.ID] {
			// only newly placed hazards may appear, with fresh numbers
			if !pc.ID.Kind.IsHazard() || pc.ID.N < next[pc.ID.Side][map[Kind]int{Mine: 0, AntiAir: 1}[pc.ID.Kind]] {
				fail("piece %s appeared", pc.ID)
			}
		}
	}
	for _, s := range []Side{South, North} {
		if p.Hazards(s) > HazardCap && p.Hazards(s) > prevHazards(prev, s) {
			fail("%s has %d hazards, above the cap", s, p.Hazards(s))
		}
	}
	for _, c := range p.craters {
		if c.Side != p.toMove {
			fail("Crater on %s of %s outlived its turn", c.Square, c.Side)
		}
	}
	for _, d := range p.drones {
		if !d.Cancelled && p.get(d.Spotter) == nil {
			fail("Drone of lost spotter %s not cancelled", d.Spotter)
		}
		if d.Side == p.toMove && p.phase == PhaseMain {
			fail("Drone of %s still pending in its own Main", d.Side)
		}
	}
}

func prevHazards(c census, s Side) int {
	n := 0
	for id := range c.ids {
		if id.Side == s && id.Kind.IsHazard() {
			n++
		}
	}
	return n
}

func contains(ids []ID, id ID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// startRandomGame deploys both sides at random and confirms.
func startRandomGame(t testing.TB, seed uint64) *Position {
	t.Helper()
	p := NewGame(seed)
	for _, s := range []string{fmt.Sprintf("S random %d", seed), fmt.Sprintf("N random %d", seed+1), "S confirm", "N confirm"} {
		if _, err := p.ApplyString(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return p
}

// TestRandomGames plays random legal games from random deployments and
// checks the invariants after every action, the format round trip, that
// a random wrong action changes nothing, and that views hide the Drones.
func TestRandomGames(t *testing.T) {
	t.Parallel()
	games, turns := 40, 400
	if !testkit.Long() {
		games, turns = 6, 120
	}
	finished, actions := 0, 0
	results := map[string]int{}
	for g := range games {
		seed := uint64(1000 + g)
		r := rand.New(rand.NewPCG(seed, 7))
		p := startRandomGame(t, seed)
		for p.phase != PhaseFinished && p.turn <= turns {
			prev := takeCensus(p)
			next := p.nextHazard
			a := randomAction(t, p, r)
			before := p.Format()
			// a random, usually illegal, action changes nothing when refused
			junk := randomJunkAction(r)
			if _, err := p.ApplyString(junk); err != nil && p.Format() != before {
				t.Fatalf("refused action %q changed the position", junk)
			} else if err == nil {
				before = p.Format()
				prev = takeCensus(p)
				next = p.nextHazard
				checkInvariants(t, p, prev, next)
				if p.phase == PhaseFinished {
					break
				}
				a = randomAction(t, p, r)
			}
			entries, err := p.Apply(a)
			if err != nil {
				t.Fatalf("game %d: generated action %q refused: %v\nbefore:\n%s", g, a, err, before)
			}
			actions++
			if len(entries) == 0 {
				t.Fatalf("action %q logged nothing", a)
			}
			checkInvariants(t, p, prev, next)
			text := p.Format()
			q, err := ParsePosition(text)
			if err != nil {
				t.Fatalf("cannot parse own format: %v\n%s", err, text)
			}
			if q.Format() != text {
				t.Fatalf("format round trip differs")
			}
			checkViews(t, p, entries)
		}
		if p.phase == PhaseFinished {
			finished++
			results[p.result.Reason.String()]++
		}
	}
	t.Logf("%d games, %d actions, %d finished: %v", games, actions, finished, results)
}

func randomJunkAction(r *rand.Rand) string {
	sq := func() string { return Sq(r.IntN(Files), r.IntN(Ranks)).String() }
	switch r.IntN(5) {
	case 0:
		return sq() + "-" + sq()
	case 1:
		return "T" + sq() + "-" + sq()
	case 2:
		return "P" + sq() + "-" + sq() + "/" + sq()
	case 3:
		return "M" + sq()
	default:
		return "D" + sq() + "-" + sq()
	}
}

// checkViews asserts that the public view and the other side's view carry
// no Drone order of a side, and that secret log entries are filtered.
func checkViews(t testing.TB, p *Position, entries []Entry) {
	t.Helper()
	for _, viewer := range []Side{NoSide, South, North} {
		v := p.View(viewer)
		for _, d := range v.drones {
			if d.Side != viewer && (!d.Hidden || !d.Spotter.IsZero() || d.Target != NoSquare) {
				t.Fatalf("view for %s shows a Drone order of %s", viewer, d.Side)
			}
		}
		if v.PendingDrones(South) != p.PendingDrones(South) || v.PendingDrones(North) != p.PendingDrones(North) {
			t.Fatalf("view changed the public Drone counts")
		}
		if v.seed != 0 {
			t.Fatalf("view shows the seed")
		}
		text := v.Format()
		for _, d := range p.drones {
			if d.Side != viewer && strings.Contains(text, "drone "+d.Spotter.String()) {
				t.Fatalf("view text for %s leaks a Drone", viewer)
			}
		}
		for _, e := range FilterLog(entries, viewer) {
			if e.Secret != NoSide && e.Secret != viewer {
				t.Fatalf("log filter let a secret through")
			}
			if e.Kind == EntryDroneOrder && e.Secret != e.Side {
				t.Fatalf("Drone order not secret")
			}
		}
		if _, err := v.Apply(Action{Kind: ActDraw}); err == nil {
			t.Fatalf("a view accepted an action")
		}
	}
}
