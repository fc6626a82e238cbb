package teamchess

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
)

// TestTeamChessReplay: the end is followed, in the public thread only, by
// the replay: the start and the board after every move; the public final
// board's Replay button sends it privately; the archive names the teams.
func TestTeamChessReplay(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	for i, mv := range []string{"e4", "e5", "Nf3"} {
		u := []commands.User{alice, bob, alice}[i]
		_, err := a.Handle(in(u, pub, "move", "", map[string]string{"move": mv}))
		require.NoError(t, err, mv)
	}
	_, err := a.Handle(click(erin, "g:"+g.ID+":replay"))
	require.Contains(t, commandstest.UserMsg(t, err), "once the game is over")
	_, err = commandstest.Confirm(t, a, in(bob, pub, "resign", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0.Add(commands.ReplayDelay))
	gifs, posts := p.GIFs()
	require.Len(t, gifs, 1, "one replay")
	require.Equal(t, pub, posts[0].Channel, "in the public thread, not in %v", team)
	require.Len(t, commandstest.GIFFrames(t, gifs[0].Data), 4, "the start and 3 moves")

	r, err := a.Handle(click(erin, "g:"+g.ID+":replay"))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Len(t, commandstest.GIFFrames(t, r.Files[0].Data), 4)

	h := commandstest.Cmd(carol, "history", "", nil)
	h.ChannelID = "general"
	r, err = a.Handle(h)
	require.NoError(t, err)
	d := r.Cards[0].Description
	require.Contains(t, d, "**won** (resignation)")
	require.Contains(t, d, "for White with <@"+alice.ID+"> vs <@"+bob.ID+">, <@"+dan.ID+">")
	require.Contains(t, d, "[final board and PGN]")
	for _, th := range team {
		require.NotContains(t, d, th, "a team's private thread is never linked")
	}
}
