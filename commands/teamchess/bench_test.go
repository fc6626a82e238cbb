package teamchess

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	tc "sandtable/games/teamchess"
)

// BenchmarkDecode200 measures what every /move, button and autocomplete
// keystroke of a game of 200 actions pays to read its state: version 1
// replays the actions, version 2 resumes the snapshot.
func BenchmarkDecode200(b *testing.B) {
	var queues [2][]tc.Member
	for i := range 16 {
		// Discord IDs and names, as stored.
		queues[0] = append(queues[0], tc.Member{ID: fmt.Sprint(110000000000000000 + i), Name: fmt.Sprint("white player ", i)})
		queues[1] = append(queues[1], tc.Member{ID: fmt.Sprint(120000000000000000 + i), Name: fmt.Sprint("black player ", i)})
	}
	var g *tc.Game
	for seed := uint64(1); g == nil || g.Phase() != tc.Playing || g.ActionCount() < 200; seed++ {
		g, _ = tc.NewGame(tc.Setup{White: queues[0], Black: queues[1]})
		rng := rand.New(rand.NewPCG(seed, 2))
		for g.Phase() == tc.Playing && g.ActionCount() < 200 {
			ts := g.MoveTexts()
			active, _ := g.Active(g.Turn())
			if _, err := g.PlayMove(active.ID, ts[rng.IntN(len(ts))].Move); err != nil {
				b.Fatal(err)
			}
		}
	}
	v2, err := Game{}.Encode(&State{game: g})
	if err != nil {
		b.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(v2, &m); err != nil {
		b.Fatal(err)
	}
	delete(m, "position")
	v1, err := json.Marshal(m)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		version int
		raw     []byte
	}{{"replay-v1", 1, v1}, {"resume-v2", 2, v2}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := (Game{}).Decode(c.version, c.raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
