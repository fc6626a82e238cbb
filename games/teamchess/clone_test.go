package teamchess

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
)

// look is what a game shows: its state, record, queues and counters.
type look struct {
	json       string
	records    []string
	white      []Commander
	black      []Commander
	stagnation [2]int
	phase      Phase
}

func lookAt(t *testing.T, g *Game) look {
	t.Helper()
	raw, err := g.MarshalJSON()
	require.NoError(t, err)
	return look{string(raw), g.RecordLines(), g.Commanders(chess.White), g.Commanders(chess.Black),
		[2]int{g.Stagnation(chess.White), g.Stagnation(chess.Black)}, g.Phase()}
}

// TestCloneIsIndependent: in random games, a clone taken at every step
// plays on exactly as a replay of the game would; playing on the clone
// never changes the original, nor playing on the original the clone.
func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 7))
	for range 20 {
		g, err := NewGame(Setup{White: ids("a c"), Black: ids("b d")})
		require.NoError(t, err)
		for g.Phase() != Finished && len(g.State().Actions) < 120 {
			before := lookAt(t, g)
			c := g.Clone()
			replayed, err := Restore(g.State())
			require.NoError(t, err)
			seed := rng.Uint64()
			randomAction(t, c, rand.New(rand.NewPCG(seed, seed)))
			randomAction(t, replayed, rand.New(rand.NewPCG(seed, seed)))
			require.Equal(t, lookAt(t, replayed), lookAt(t, c), "the clone plays on as a replay")
			require.Equal(t, before, lookAt(t, g), "the original is unchanged")
			cloned := lookAt(t, c)
			randomAction(t, g, rand.New(rand.NewPCG(seed+1, seed)))
			require.Equal(t, cloned, lookAt(t, c), "the clone is unchanged by the original")
			g = c
		}
	}
}
