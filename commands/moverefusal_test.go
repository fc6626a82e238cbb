package commands

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
)

// TestSurvivalRefusalNamesForcedCaptures: a refused /move names the forced
// captures on a line of its own, in the notation typed, and the count
// with the first 8 when there are more; nothing is played.
func TestSurvivalRefusalNamesForcedCaptures(t *testing.T) {
	a, _ := testApp(t)
	id := putSurvival(t, a, "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1")
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka3"})) // a UserError: answered privately (bot e2e)
	require.Equal(t, "`Ka3` is not a legal move: no king can move to a3\nCapture is mandatory: the only legal capture is `exd5`.", userMsg(t, err))
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "a1a2"}))
	require.Contains(t, userMsg(t, err), "\nCapture is mandatory: the only legal capture is `e4d5`.")
	_, st := loadState(t, a, id)
	require.Empty(t, st.Moves, "a refused move plays nothing")

	a, _ = testApp(t)
	putSurvival(t, a, "8/8/8/2ppp3/2pQp3/1pppp3/8/N6K w - - 0 1")
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Kg2"}))
	msg := userMsg(t, err)
	require.Contains(t, msg, "Capture is mandatory: 9 legal captures, the first 8: `Nxb3`, `Qxc3`, `Qxc4`, `Qxc5`, `Qxd3`, `Qxd5`, `Qxe3`, `Qxe4`.")
	require.NotContains(t, msg, "Qxe5")

	// A draw claim with a refused move is answered the same way.
	a, _ = testApp(t)
	putSurvival(t, a, "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1")
	_, err = a.Handle(cmd(alice, "draw", "claim", map[string]string{"move": "Kb1"}))
	require.Contains(t, userMsg(t, err), "Capture is mandatory: the only legal capture is `exd5`.")
}

// TestListingLineFits: the longest listing the engines can give (8 moves
// of the longest text quoted) keeps a refusal within Discord's 2000
// characters, with a reason and an echo at their limits.
func TestListingLineFits(t *testing.T) {
	long := strings.Repeat("d1=Saboteur:", 20)
	l := chess.Listing{Total: 30, MustCapture: true}
	for range chess.MaxListed {
		l.Moves = append(l.Moves, long)
	}
	me := &chess.MoveError{Reason: strings.Repeat("why ", 300), Legal: l}
	msg := userMsg(t, MoveRefused(strings.Repeat("x", 500), me))
	require.LessOrEqual(t, len([]rune(msg)), 2000)
	require.Equal(t, chess.MaxListed, strings.Count(msg, "`d1=Saboteur:"))
}
