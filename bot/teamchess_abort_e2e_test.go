package bot_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestTeamChessNoPersonSeatedAborts (ruling D31): alice commands White
// with a computer behind her against a computer; when she tags out, only
// computers remain seated, and the game is aborted at once with a message
// saying why, instead of the computers playing it out at machine speed:
// no computer acts after, the game ends aborted (unrated, no winner).
func TestTeamChessNoPersonSeatedAborts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.srv.User("alice")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcChoose(alice, lobby, "computer", "w:beginner")
	lobby = h.tcChoose(alice, lobby, "computer", "b:beginner")
	tb := h.tcBegin(alice, lobby, []*discordsim.User{alice}, nil)

	m := tb.do(alice, tb.pub, "tagout")
	require.Contains(t, m.Text(), "aborted")
	require.Contains(t, m.Text(), "no person is left seated")
	h.drained()
	h.idle()
	require.Equal(t, 1, tb.storedActions(), "no computer action after the abort")
	rec := tb.stored()
	require.False(t, rec.Active)
	require.NotNil(t, rec.Outcome)
	require.Equal(t, "aborted", string(rec.Outcome.Method))
	require.Empty(t, rec.Outcome.Winners)
	tb.refresh()
	require.Contains(t, tb.last(tb.team[tcWhite]).Text(), "no person is left seated")
}
