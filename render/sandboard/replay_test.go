package sandboard

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"sandtable/games/sandtable"
	"sandtable/render"
)

// PlayedRecord plays a random game from random deployments (a Drone for
// every other hazard use) and returns its record.
func playedRecord(t testing.TB, seed uint64, actions int) *sandtable.Record {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 5))
	p := sandtable.NewGame(seed)
	var log []sandtable.Entry
	for _, a := range []string{"S random " + strconv.FormatUint(seed, 10), "N random " + strconv.FormatUint(seed+1, 10), "S confirm", "N confirm"} {
		e, err := p.ApplyString(a)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	start := p.Clone()
	for i := 0; i < actions && p.Phase() != sandtable.PhaseFinished; i++ {
		acts := p.LegalActions()
		if len(acts) == 0 {
			t.Fatalf("no legal action:\n%s", p)
		}
		a := acts[r.IntN(len(acts))]
		if r.IntN(2) == 0 {
			for _, d := range acts {
				if d.Kind == sandtable.ActDrone {
					a = d
					break
				}
			}
		}
		e, err := p.Apply(a)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	rec, err := sandtable.NewRecord(start, log)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestReplayBoardsShowEverything: the first board holds both deployments;
// after each Drone action that resolved its owner's order is on the board
// (the public board would not show it), one that never resolved is on no
// board (ruling D6); a board per action or per turn.
func TestReplayBoardsShowEverything(t *testing.T) {
	t.Parallel()
	rec := playedRecord(t, 3, 120)
	all, err := ReplayBoards(rec, EveryAction)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(rec.Actions)+1 {
		t.Fatalf("%d boards for %d actions, want one more", len(all), len(rec.Actions))
	}
	start, err := rec.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	var sides [3]int
	for _, p := range all[0].Pieces {
		sides[p.Owner]++
	}
	if sides[render.South] < 30 || sides[render.North] < 30 || len(all[0].Pieces) != len(start.Pieces()) {
		t.Errorf("first board: %d pieces (South %d, North %d), the start has %d: both deployments are not shown", len(all[0].Pieces), sides[render.South], sides[render.North], len(start.Pieces()))
	}
	pub, err := rec.Public(sandtable.NoSide)
	if err != nil {
		t.Fatal(err)
	}
	orders, hidden := 0, 0
	for i, a := range rec.Actions {
		if a.Drone == nil {
			continue
		}
		if pub.Actions[i].Drone.Hidden {
			// A Drone that never resolved (ruling D6): drawn nowhere.
			hidden++
			want := render.Square(a.Drone.Target)
			for k := i + 1; k <= i+1; k++ { // the board after it, where it was pending
				for _, d := range all[k].Drones {
					if d.Target == want && d.Spotter == render.Square(a.Drone.From) {
						t.Errorf("action %d (%s, turn %d), a Drone that never resolved, is drawn on board %d", i+1, a.Action, a.Turn, k)
					}
				}
			}
			continue
		}
		orders++
		want := render.DroneOrder{Owner: map[sandtable.Side]render.Side{sandtable.South: render.South, sandtable.North: render.North}[a.Side],
			Spotter: render.Square(a.Drone.From), Target: render.Square(a.Drone.Target)}
		found := false
		for _, d := range all[i+1].Drones {
			found = found || d == want
		}
		if !found {
			t.Errorf("action %d (%s, turn %d): its Drone order %+v is not on the board after it: %+v", i+1, a.Action, a.Turn, want, all[i+1].Drones)
		}
	}
	if orders == 0 || hidden == 0 {
		t.Fatalf("%d Drones that resolved, %d that did not: want both", orders, hidden)
	}
	// One board per turn: the start, each turn's end, the final board.
	turns, err := ReplayBoards(rec, EveryTurn)
	if err != nil {
		t.Fatal(err)
	}
	first, last := rec.Actions[0].Turn, rec.Actions[len(rec.Actions)-1].Turn
	if n := len(turns); n < last-first+1 || n > last-first+2 {
		t.Errorf("%d boards per turn for turns %d..%d", n, first, last)
	}
	if len(turns[0].Pieces) != len(all[0].Pieces) {
		t.Error("the per-turn replay does not start with the reveal")
	}
}

// TestRevealedAddsOnlyTheDrones: the revealed board is the public board
// with both sides' Drone orders.
func TestRevealedAddsOnlyTheDrones(t *testing.T) {
	t.Parallel()
	a := parse(t, game+"seed 5\ndrone SI2 e6\ndrone NI2 g10\n")
	b, err := Revealed(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _ := Board(a, nil, sandtable.NoSide)
	if len(b.Drones) != 2 || b.Drones[0].Owner == b.Drones[1].Owner || len(b.Pieces) != len(pub.Pieces) {
		t.Errorf("revealed board: Drones %+v, %d pieces (public %d)", b.Drones, len(b.Pieces), len(pub.Pieces))
	}
}

// BenchmarkSandTableReplay60: a replay of 60 turns (61 boards: the
// reveal and each turn's end) at 800 px (issue 17's target: at most 1 s
// and 5 MB).
func BenchmarkSandTableReplay60(b *testing.B) {
	rec := playedRecord(b, 11, 400)
	boards, err := ReplayBoards(rec, EveryTurn)
	if err != nil {
		b.Fatal(err)
	}
	if len(boards) > 61 {
		boards = boards[:61]
	}
	if len(boards) < 61 {
		b.Fatalf("only %d boards", len(boards))
	}
	r := render.New()
	var buf bytes.Buffer
	if err := r.SandTableReplay(&buf, boards, render.ReplayOptions{Size: 800}); err != nil {
		b.Fatal(err)
	}
	cpu := CPUTime()
	for b.Loop() {
		buf.Reset()
		if err := r.SandTableReplay(&buf, boards, render.ReplayOptions{Size: 800}); err != nil {
			b.Fatal(err)
		}
	}
	ReportCPU(b, cpu)
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
	b.ReportMetric(float64(len(boards)), "frames")
}
