package commands_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// notifyCmd runs /notify for u, in the server "g" or (dm) in direct
// messages.
func notifyCmd(t *testing.T, a *commands.App, u commands.User, where string, dm bool) (*commands.Response, error) {
	t.Helper()
	opts := map[string]string{}
	if where != "" {
		opts["where"] = where
	}
	r := commandstest.Cmd(u, "notify", "", opts)
	if dm {
		r.GuildID, r.ChannelID = "", "dm-"+u.ID
	}
	return a.Handle(r)
}

// threadPings are the turn pings posted in channel, in order.
func threadPings(p *commandstest.Platform, channel string) []string {
	posts, _ := p.Snapshot()
	var out []string
	for _, s := range posts {
		if s.Channel == channel && strings.Contains(s.Msg.Content, ", your move") && len(s.Msg.Cards) == 0 {
			out = append(out, s.Msg.Content)
		}
	}
	return out
}

// TestNotifyChoices: /notify where:dm sends a player's turn pings by
// direct message (naming the game, linking its thread), each replacing the
// one before; where:off pings nobody; /notify in direct messages sets the
// choice for every server, forgetting each server's own; a bad choice is
// refused and changes nothing.
func TestNotifyChoices(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })

	_, err := notifyCmd(t, a, alice, "loud", false)
	require.Contains(t, commandstest.UserMsg(t, err), "thread, dm or off")
	r, err := notifyCmd(t, a, alice, "", false)
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, "a message in the game's thread mentions you", "the default")
	r, err = notifyCmd(t, a, alice, "dm", false)
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, "direct message")
	_, err = notifyCmd(t, a, bob, "off", false)
	require.NoError(t, err)
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		w, err := tx.Notify().Get("g", alice.ID)
		require.Equal(t, storage.NotifyDM, w)
		return err
	}))

	// A game: alice (X) moves first.
	c := commandstest.Cmd(alice, "ttt", "challenge", nil)
	c.ChannelID = "general"
	c.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(c)
	require.NoError(t, err)
	var accept string
	for _, comp := range ch.Rows[0] {
		if b := comp.(ui.Button); b.Label == "Accept" {
			accept = b.Route
		}
	}
	_, err = a.Handle(commandstest.Click(bob, accept, "challenge-msg"))
	require.NoError(t, err)
	commandstest.Deliver(t, a, commandstest.T0)
	require.Empty(t, threadPings(p, "challenge-msg"), "alice chose direct messages")
	require.Len(t, p.DMs[alice.ID], 1)
	dm := p.DMs[alice.ID][0].Content
	require.Contains(t, dm, "Your move in Tic-tac-toe")
	require.Contains(t, dm, "https://discord.com/channels/g/challenge-msg", "the DM links the thread")

	move := func(u commands.User, cell string, at time.Duration) {
		t.Helper()
		r := commandstest.Cmd(u, "move", "", map[string]string{"move": cell})
		r.ChannelID, r.Now = "challenge-msg", commandstest.T0.Add(at)
		_, err := a.Handle(r)
		require.NoError(t, err)
		commandstest.Deliver(t, a, commandstest.T0.Add(at))
	}
	move(alice, "1", time.Minute)
	require.Empty(t, threadPings(p, "challenge-msg"), "bob chose off: no ping")
	require.Len(t, p.DMs[alice.ID], 1)
	require.Len(t, p.Deleted, 1, "alice's DM ping deleted with her turn")
	require.True(t, strings.HasPrefix(p.Deleted[0], "dm:"+alice.ID+"/"))
	move(bob, "4", 2*time.Minute)
	require.Len(t, p.DMs[alice.ID], 2, "a new DM ping for alice's new turn")

	// From direct messages: every server, the server's own choice gone.
	r, err = notifyCmd(t, a, alice, "thread", true)
	require.NoError(t, err)
	require.Contains(t, r.Content, "In every server")
	r, err = notifyCmd(t, a, alice, "", true)
	require.NoError(t, err)
	require.NotContains(t, r.Content, "Server g", "no server has a choice of its own left")
	move(alice, "2", 3*time.Minute)
	move(bob, "5", 4*time.Minute)
	pings := threadPings(p, "challenge-msg")
	require.Len(t, pings, 1)
	require.True(t, strings.HasPrefix(pings[0], alice.Mention()+", your move"), pings[0])
	require.Len(t, p.DMs[alice.ID], 2, "no DM any more")

	// The end deletes the last ping.
	move(alice, "3", 5*time.Minute)
	require.Len(t, threadPings(p, "challenge-msg"), 1)
	shown := 0
	for _, s := range p.Shown() {
		if s.Channel == "challenge-msg" && strings.Contains(s.Msg.Content, ", your move") && len(s.Msg.Cards) == 0 {
			shown++
		}
	}
	require.Zero(t, shown, "no ping left once the game is over")
	commandstest.Deliver(t, a, commandstest.T0.Add(commands.ArchiveDelay+time.Hour))
	require.Zero(t, a.Pending())
}

// TestNotifyInDirectMessagesListsServers: /notify without a choice in
// direct messages says the choice for every server and each server's own.
func TestNotifyInDirectMessagesListsServers(t *testing.T) {
	t.Parallel()
	a, _, _ := commandstest.NewApp(t)
	alice := commandstest.Alice
	_, err := notifyCmd(t, a, alice, "off", false)
	require.NoError(t, err)
	r, err := notifyCmd(t, a, alice, "", true)
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, "In every server: a message in the game's thread mentions you.")
	require.Contains(t, r.Content, "Server g: no ping")
}

// TestPingPostedButNotRecorded: a turn's ping reached Discord but its
// answer was lost: the retry deletes the pings before it again (done: a
// delete of a message gone counts as done), finds the ping among the
// recent messages instead of posting it twice, and records it as the one
// ping left.
func TestPingPostedButNotRecorded(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	c := commandstest.Cmd(alice, "ttt", "challenge", nil)
	c.ChannelID = "general"
	c.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(c)
	require.NoError(t, err)
	var accept string
	for _, comp := range ch.Rows[0] {
		if b := comp.(ui.Button); b.Label == "Accept" {
			accept = b.Route
		}
	}
	_, err = a.Handle(commandstest.Click(bob, accept, "challenge-msg"))
	require.NoError(t, err)
	commandstest.Deliver(t, a, commandstest.T0)
	first := threadPings(p, "challenge-msg")
	require.Len(t, first, 1)

	a.Platform = &losingPlatform{Platform: p, lose: 1}
	r := commandstest.Cmd(alice, "move", "", map[string]string{"move": "1"})
	r.ChannelID = "challenge-msg"
	_, err = a.Handle(r)
	require.NoError(t, err)
	commandstest.Deliver(t, a, commandstest.T0)
	require.Equal(t, 1, a.Pending(), "the ping's answer was lost: it waits for a retry")
	commandstest.Deliver(t, a, commandstest.T0.Add(time.Hour))
	require.Zero(t, a.Pending())
	pings := threadPings(p, "challenge-msg")
	require.Len(t, pings, 2, "bob's ping posted once")
	require.True(t, strings.HasPrefix(pings[1], bob.Mention()+", your move"))
	posts, _ := p.Snapshot()
	g := commandstest.Game(t, store, g0(t, store))
	require.Equal(t, []storage.Ping{{Channel: "challenge-msg", Message: posts[len(posts)-1].ID}}, g.Pings, "the one ping left is bob's")
	require.Len(t, p.Deleted, 2, "alice's ping deleted, again on the retry")
	require.Equal(t, p.Deleted[0], p.Deleted[1])
}

// TestDMPingToClosedDMsStillReplaces: a turn's DM ping to a player whose
// direct messages are closed posts nothing, and still deletes the pings
// before it: none is left recorded.
func TestDMPingToClosedDMsStillReplaces(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	_, err := notifyCmd(t, a, bob, "dm", false)
	require.NoError(t, err)
	p.Closed[bob.ID] = true
	c := commandstest.Cmd(alice, "ttt", "challenge", nil)
	c.ChannelID = "general"
	c.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(c)
	require.NoError(t, err)
	var accept string
	for _, comp := range ch.Rows[0] {
		if b := comp.(ui.Button); b.Label == "Accept" {
			accept = b.Route
		}
	}
	_, err = a.Handle(commandstest.Click(bob, accept, "challenge-msg"))
	require.NoError(t, err)
	commandstest.Deliver(t, a, commandstest.T0)
	require.Len(t, commandstest.Game(t, store, g0(t, store)).Pings, 1, "alice's ping")
	r := commandstest.Cmd(alice, "move", "", map[string]string{"move": "1"})
	r.ChannelID = "challenge-msg"
	_, err = a.Handle(r)
	require.NoError(t, err)
	commandstest.Deliver(t, a, commandstest.T0)
	require.Zero(t, a.Pending())
	require.Empty(t, p.DMs[bob.ID], "bob's DMs are closed")
	require.Len(t, p.Deleted, 1, "alice's ping deleted")
	require.Empty(t, commandstest.Game(t, store, g0(t, store)).Pings, "no ping left recorded")
}
