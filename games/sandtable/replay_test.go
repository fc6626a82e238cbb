package sandtable

import (
	"math/rand/v2"
	"strings"
	"testing"

	"sandtable/internal/testkit"
)

// TestReplayRebuildsEveryTurn: from the position right after the reveal,
// the turn log rebuilds the board at the end of every turn exactly, in
// random games with Drones, captures and game ends.
func TestReplayRebuildsEveryTurn(t *testing.T) {
	t.Parallel()
	games := 12
	if !testkit.Long() {
		games = 4
	}
	for g := range games {
		r := rand.New(rand.NewPCG(uint64(g), 77))
		p := NewGame(uint64(g))
		var log []Entry
		for _, a := range []string{"S random " + itoa(g), "N random " + itoa(g+100), "S confirm", "N confirm"} {
			e, err := p.ApplyString(a)
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, e...)
		}
		start := p.Clone()
		// Replay skips Deployment entries: give it those of the reveal too.
		var after []Entry
		ends := map[int]string{} // turn -> the board when the next turn began
		for i := 0; i < 300 && p.Phase() != PhaseFinished; i++ {
			turn := p.Turn()
			e, err := p.Apply(randomAction(t, p, r))
			if err != nil {
				t.Fatal(err)
			}
			after = append(after, e...)
			if p.Turn() != turn || p.Phase() == PhaseFinished {
				ends[turn] = p.Format()
			}
		}
		full := append(log, after...)
		for turn, want := range ends {
			got, err := Replay(start, full, turn)
			if err != nil {
				t.Fatalf("game %d turn %d: %v", g, turn, err)
			}
			if got.Format() != want {
				t.Fatalf("game %d: the replay of turn %d differs:\n%s\n---\n%s", g, turn, got.Format(), want)
			}
		}
		end, err := Replay(start, full, maxCounter)
		if err != nil || end.Format() != p.Format() {
			t.Fatalf("game %d: replaying the whole log: %v", g, err)
		}
		if before, _ := Replay(start, full, 0); before.Format() != start.Format() {
			t.Errorf("game %d: upTo 0 is not the start", g)
		}
	}
}

func TestReplayRefusesAForeignLog(t *testing.T) {
	t.Parallel()
	p := parseAdvanced(t, completePos)
	log, err := p.Clone().ApplyString("e4-e5")
	if err != nil {
		t.Fatal(err)
	}
	other := parseAdvanced(t, strings.Replace(completePos, "piece SI2 e4\n", "", 1))
	if _, err := Replay(other, log, 5); err == nil || !strings.Contains(err.Error(), "e4-e5") {
		t.Errorf("a log that does not follow: %v", err)
	}
	if _, err := Replay(p.View(NoSide), log, 5); err == nil {
		t.Error("replayed on a view")
	}
}
