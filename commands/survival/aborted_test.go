package survival

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
)

// TestAbortedBoardSaysUnrated: the final board of a game aborted before
// its first move says "aborted · unrated", and offers no Replay of zero
// moves.
func TestAbortedBoardSaysUnrated(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, kingsShuffle)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	final := liveBoard(t, a, p)
	require.Contains(t, final.Cards[0].Footer, "aborted · unrated")
	require.NotContains(t, final.Cards[0].Footer, "· rated")
	for _, row := range final.Rows {
		for _, c := range row {
			require.NotEqual(t, "Replay", c.(ui.Button).Label, "no replay of zero moves")
		}
	}
	buttonOf(t, final, "Rematch")
}
