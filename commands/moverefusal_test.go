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

// TestTeamChessRefusalNamesLegalMoves: the example through /move:
// after d4, Black's Kb7 is refused naming exd3, the only legal move; the
// pinned bishop's reason comes with bd3; sacrifice roles are one entry
// each.
func TestTeamChessRefusalNamesLegalMoves(t *testing.T) {
	a, p := testApp(t)
	g, pub, _ := tcTestGame(t, a, p, "k7/8/1Q6/8/4p3/4P3/3P4/K7 w - - 0 1", []User{alice}, []User{bob})
	_, err := a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "d4"}))
	require.NoError(t, err)
	_, err = a.Handle(tcCmd(bob, pub, "move", "", map[string]string{"move": "Kb7"}))
	require.Equal(t, "`Kb7` is not a legal move: the king cannot move to b7: it would be in check there\nThe only legal move is `exd3`.", userMsg(t, err))
	_, err = a.Handle(tcCmd(bob, pub, "move", "", map[string]string{"move": "e4e3"}))
	require.Contains(t, userMsg(t, err), "\nThe only legal move is `e4d3`.")
	require.Len(t, tcLoad(t, a, g.ID).game.State().Actions, 1, "refused moves play nothing")

	a, p = testApp(t)
	_, pub, _ = tcTestGame(t, a, p, "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", []User{alice}, []User{bob})
	_, err = a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "bd3"}))
	require.Equal(t, "`bd3` is not a legal move: the bishop on e2 is pinned: moving it would expose your king to check\nThe legal moves are `Kd1`, `Kd2`, `Kf1`, `Kf2`.", userMsg(t, err))

	a, p = testApp(t)
	_, pub, _ = tcTestGame(t, a, p, "4k3/P7/8/8/8/pp6/PP6/QK6 w - - 0 1", []User{alice}, []User{bob})
	_, err = a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "Kc2"}))
	require.Contains(t, userMsg(t, err), "\nThe legal moves are `axb3`, `bxa3`, `a8=Assassin:<target>`, `a8=PoliticalAgent`, `a8=Saboteur:<move>`, `Kc1`.")
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
