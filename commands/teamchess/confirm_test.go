package teamchess

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
)

// TestTagOutAsksFirst: /tagout (a permanent personal loss) asks privately
// first; Cancel, someone else's click and a click after the minute change
// nothing; a Confirm in time tags out once; /resign asks too.
func TestTagOutAsksFirst(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice, bob}, []commands.User{carol, dan})
	version := func() int64 { return commandstest.Game(t, store, g.ID).Version }
	commanding := func() string { m, _ := load(t, store, g.ID).game.Active(chess.White); return m.ID }
	before := version()
	clickAt := func(u commands.User, customID string, d time.Duration) *commands.Request {
		r := commandstest.Click(u, customID, "")
		r.ChannelID, r.Now = pub, t0.Add(d)
		return r
	}

	// Refused at once when it cannot be done: no prompt.
	_, err := a.Handle(in(bob, pub, "tagout", "", nil))
	require.Error(t, err)

	prompt, err := a.Handle(in(alice, pub, "tagout", "", nil))
	require.NoError(t, err)
	require.True(t, prompt.Ephemeral)
	r, err := a.Handle(clickAt(alice, commandstest.ButtonOf(t, prompt.Message, "Cancel"), time.Second))
	require.NoError(t, err)
	require.True(t, r.Update)
	confirm := commandstest.ButtonOf(t, prompt.Message, "Confirm")
	_, err = a.Handle(clickAt(bob, confirm, time.Second))
	require.Contains(t, commandstest.UserMsg(t, err), "not yours")
	_, err = a.Handle(clickAt(alice, confirm, time.Minute))
	require.Contains(t, commandstest.UserMsg(t, err), "expired")
	require.Equal(t, before, version(), "nothing changed")
	require.Equal(t, alice.ID, commanding())

	prompt, err = a.Handle(in(alice, pub, "tagout", "", nil))
	require.NoError(t, err)
	confirm = commandstest.ButtonOf(t, prompt.Message, "Confirm")
	_, err = a.Handle(clickAt(alice, confirm, 10*time.Second))
	require.NoError(t, err)
	require.Equal(t, bob.ID, commanding(), "alice tagged out")
	after := version()
	// A double click: alice no longer commands; nothing changes.
	_, err = a.Handle(clickAt(alice, confirm, 11*time.Second))
	require.Error(t, err)
	require.Equal(t, after, version())
	require.Equal(t, bob.ID, commanding())

	// /resign asks the same way.
	prompt, err = a.Handle(in(bob, pub, "resign", "", nil))
	require.NoError(t, err)
	require.True(t, commandstest.Game(t, store, g.ID).Active)
	_, err = a.Handle(clickAt(bob, commandstest.ButtonOf(t, prompt.Message, "Confirm"), 12*time.Second))
	require.NoError(t, err)
	require.False(t, commandstest.Game(t, store, g.ID).Active)
}

// TestLastCommanderTagOutPointsToResign: a team's last commander cannot
// tag out (ruling A3): /tagout is refused at once, without a prompt,
// pointing to /resign, and nothing changes.
func TestLastCommanderTagOutPointsToResign(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{carol, dan})
	before := commandstest.Game(t, store, g.ID).Version
	_, err := a.Handle(in(alice, pub, "tagout", "", nil))
	msg := commandstest.UserMsg(t, err)
	require.Contains(t, msg, "last commander")
	require.Contains(t, msg, "`/resign`")
	require.Equal(t, before, commandstest.Game(t, store, g.ID).Version, "nothing changed")
	require.True(t, commandstest.Game(t, store, g.ID).Active)
}

// TestBesiegedCommanderTagsOut: the besieged side's active commander may
// tag out from its pass until the attacker decides (ruling A2): the
// prompt, then the next commander takes over, still besieged, and the
// attacker decides; the besieged team's last commander is refused.
func TestBesiegedCommanderTagsOut(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", []commands.User{alice}, []commands.User{carol, dan})
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "Qg6"}))
	require.NoError(t, err)
	_, err = a.Handle(in(dan, pub, "tagout", "", nil))
	require.Contains(t, commandstest.UserMsg(t, err), "Only Black's active commander")
	prompt, err := a.Handle(in(carol, pub, "tagout", "", nil))
	require.NoError(t, err)
	r := commandstest.Click(carol, commandstest.ButtonOf(t, prompt.Message, "Confirm"), "")
	r.ChannelID, r.Now = pub, t0.Add(time.Second)
	_, err = a.Handle(r)
	require.NoError(t, err)
	s := load(t, store, g.ID)
	m, _ := s.game.Active(chess.Black)
	require.Equal(t, dan.ID, m.ID)
	require.Equal(t, chess.White, s.game.Turn(), "the attacker still decides")
	_, err = a.Handle(in(dan, pub, "tagout", "", nil))
	require.Contains(t, commandstest.UserMsg(t, err), "`/resign`")
	_, err = a.Handle(in(alice, pub, "siege", "win", nil))
	require.NoError(t, err)
	require.False(t, commandstest.Game(t, store, g.ID).Active)
}
