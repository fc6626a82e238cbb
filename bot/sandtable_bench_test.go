package bot_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
)

// sandDeployBoth deploys both sides with presets and confirms: the game is
// revealed and waits for the first Main action.
func (g *sandGame) sandDeployBoth(south, north string) {
	g.h.t.Helper()
	for _, c := range []struct {
		u      string
		preset string
	}{{"south", south}, {"north", north}} {
		u := g.south
		if c.u == "north" {
			u = g.north
		}
		p := g.dmPanel(u)
		sel, err := g.h.srv.Select(u, p, presetID(p), c.preset)
		require.NoError(g.h.t, err)
		p = g.h.answerOf(sel, p.Version)
		g.press(u, p, "Confirm")
	}
	require.Equal(g.h.t, 1, g.pos().Turn())
}

// BenchmarkSandTableMove measures, through the fake Discord, the time from
// an injected /move interaction to the bot's answer and to the new 20x20
// board image (1000x1000 PNG) in the game thread, one game at a time. The actions are
// random legal Main actions and Mine or Anti-Air placements (seeded);
// finished games are replaced by new ones outside the timer.
func BenchmarkSandTableMove(b *testing.B) {
	h := newHarness(b)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	rng := rand.New(rand.NewPCG(7, 7))
	var g *sandGame
	newGame := func() {
		g = h.sandStart(alice, bob)
		g.sandDeployBoth("phalanx", "fortress")
	}
	newGame()
	var answer, board []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		p := g.pos()
		if p.Phase() == sandtable.PhaseFinished {
			newGame()
			p = g.pos()
		}
		var acts, drones []sandtable.Action
		for _, a := range p.LegalActions() {
			if a.Kind == sandtable.ActDrone {
				drones = append(drones, a)
			} else {
				acts = append(acts, a)
			}
		}
		if len(acts) == 0 {
			// At the hazard cap only Drones remain: order one (untimed).
			require.NotEmpty(b, drones, "no action in\n%s", p.Format())
			d := drones[rng.IntN(len(drones))]
			g.drone(g.user(p.ToMove()), d.From.String(), d.To.String())
			i--
			continue
		}
		act := acts[rng.IntN(len(acts))]
		before := liveBoard(h, g.thread.ID)
		b.StartTimer()
		start := time.Now()
		in, err := h.srv.Slash(g.user(p.ToMove()), g.thread.ID, "move", optMove(act.String()))
		require.NoError(b, err)
		r, err := in.WaitResponse(wait)
		require.NoError(b, err)
		require.NoError(b, waitNewBoard(h, g.thread.ID, before), "%s: no new board in the thread", act)
		answer, board = append(answer, r.Latency), append(board, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, answer, board)
}
