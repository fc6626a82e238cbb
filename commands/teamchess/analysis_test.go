package teamchess

import (
	"bytes"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
)

// TestTeamChessAnalysis: a Team Chess game of two commanders a side,
// resigned after a few moves, has an Analysis button on its public final
// board; a click answers privately with each team's accuracy (its
// members named) and the evaluation graph, computed once.
func TestTeamChessAnalysis(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	a.Settings.AnalysisMoveTime, a.Settings.AnalysisDepth = 10*time.Millisecond, 2
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	for i, mv := range []string{"e4", "e5", "Nf3", "Nc6"} {
		u := alice
		if i%2 == 1 {
			u = bob
		}
		_, err := a.Handle(in(u, pub, "move", "", map[string]string{"move": mv}))
		require.NoError(t, err, mv)
	}
	_, err := commandstest.Confirm(t, a, in(alice, pub, "resign", "", nil))
	require.NoError(t, err)
	final := boardIn(t, a, p, pub)
	id := buttonOf(t, final, "Analysis")
	require.Equal(t, "g:"+g.ID+":analysis", id)

	r, err := a.Handle(click(erin, id))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, alice.Mention()+", "+carol.Mention()+" (White): accuracy")
	require.Contains(t, r.Content, bob.Mention()+", "+dan.Mention()+" (Black): accuracy")
	require.Len(t, r.Files, 1)
	_, err = png.Decode(bytes.NewReader(r.Files[0].Data))
	require.NoError(t, err)
	r2, err := a.Handle(click(bob, id))
	require.NoError(t, err)
	require.Equal(t, r.Content, r2.Content, "from the store")
	require.EqualValues(t, 1, a.AnalysesComputed())
}
