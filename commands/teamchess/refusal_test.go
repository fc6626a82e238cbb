package teamchess

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
)

// TestTeamChessRefusalNamesLegalMoves: the example through /move:
// after d4, Black's Kb7 is refused naming exd3, the only legal move; the
// pinned bishop's reason comes with bd3; sacrifice roles are one entry
// each.
func TestTeamChessRefusalNamesLegalMoves(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "k7/8/1Q6/8/4p3/4P3/3P4/K7 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "d4"}))
	require.NoError(t, err)
	_, err = a.Handle(in(bob, pub, "move", "", map[string]string{"move": "Kb7"}))
	require.Equal(t, "`Kb7` is not a legal move: the king cannot move to b7: it would be in check there\nThe only legal move is `exd3`.", commandstest.UserMsg(t, err))
	_, err = a.Handle(in(bob, pub, "move", "", map[string]string{"move": "e4e3"}))
	require.Contains(t, commandstest.UserMsg(t, err), "\nThe only legal move is `e4d3`.")
	require.Len(t, load(t, store, g.ID).game.State().Actions, 1, "refused moves play nothing")

	a, _, store = newApp(t)
	_, pub, _ = startGame(t, a, store, "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "bd3"}))
	require.Equal(t, "`bd3` is not a legal move: the bishop on e2 is pinned: moving it would expose your king to check\nThe legal moves are `Kd1`, `Kd2`, `Kf1`, `Kf2`.", commandstest.UserMsg(t, err))

	a, _, store = newApp(t)
	_, pub, _ = startGame(t, a, store, "4k3/P7/8/8/8/pp6/PP6/QK6 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	_, err = a.Handle(in(alice, pub, "move", "", map[string]string{"move": "Kc2"}))
	require.Contains(t, commandstest.UserMsg(t, err), "\nThe legal moves are `axb3`, `bxa3`, `a8=Assassin:<target>`, `a8=PoliticalAgent`, `a8=Saboteur:<move>`, `Kc1`.")
}

// TestNotAMoveHint: the hint after text that is not a move shows Team
// Chess's own notation: sacrifices, no promotion.
func TestNotAMoveHint(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "", []commands.User{carol}, []commands.User{bob})
	_, err := a.Handle(in(carol, pub, "move", "", map[string]string{"move": "hello"}))
	msg := commandstest.UserMsg(t, err)
	require.Contains(t, msg, "e8=Assassin:xd4")
	require.NotContains(t, msg, "e8=Q")
}

// TestPIsNoRoleInSAN: /move a8=P is refused, saying that P names no role
// in SAN and how to write a Political Agent, and changes nothing; a
// one-commander team's game used to end at once by it (ruling A5).
func TestPIsNoRoleInSAN(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "a8=P"}))
	msg := commandstest.UserMsg(t, err)
	require.Contains(t, msg, "the letter P names no role")
	require.Contains(t, msg, "a8=PoliticalAgent")
	require.Empty(t, load(t, store, g.ID).game.State().Actions, "nothing played")
	require.True(t, commandstest.Game(t, store, g.ID).Active)
}
