package sandtable

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// TestRematchSwapsSides: the final board's Rematch button opens, in the
// game's text channel, a challenge to the opponent with sides swapped and
// the same turn time; accepting it starts that game.
func TestRematchSwapsSides(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, mainPos)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	button := commandstest.ButtonOf(t, lastPost(t, a, p), "Rematch")
	_, err = a.Handle(click(carol, button))
	require.Contains(t, userMsg(t, err), "Only")

	r, err := a.Handle(click(alice, button))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	commandstest.Deliver(t, a, t0.Add(time.Second))
	posts, _ := p.Snapshot()
	var challenge *commands.Message
	for _, s := range posts {
		if s.Channel == "general" && strings.Contains(s.Msg.Content, "challenged") {
			challenge = &s.Msg
		}
	}
	require.NotNil(t, challenge, "the challenge is posted in the game's text channel: %+v", posts)

	accept := commandstest.Click(bob, commandstest.ButtonOf(t, *challenge, "Accept"), "m-rematch")
	_, err = a.Handle(accept)
	require.NoError(t, err)
	var g *storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel("m-rematch")
		return err
	}))
	st, err := Game{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	require.Equal(t, bob.ID, st.South.ID, "sides swapped: alice had South")
	require.Equal(t, alice.ID, st.North.ID)
	require.Equal(t, time.Hour, st.TurnTime)
}

// TestRematchOnce: a second Rematch click, by either player, while the
// first rematch is open opens no second challenge.
func TestRematchOnce(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, mainPos)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	button := commandstest.ButtonOf(t, lastPost(t, a, p), "Rematch")
	for _, u := range []commands.User{alice, alice, bob} {
		_, err := a.Handle(click(u, button))
		require.NoError(t, err)
	}
	commandstest.Deliver(t, a, t0.Add(time.Second))
	n := 0
	for _, s := range p.Shown() {
		if s.Channel == "general" && strings.Contains(s.Msg.Content, "challenged") {
			n++
		}
	}
	require.Equal(t, 1, n, "one rematch challenge")
}
