package survival

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// clickAt is u's click on customID at t0+d.
func clickAt(u commands.User, customID string, d time.Duration) *commands.Request {
	r := commandstest.Click(u, customID, "")
	r.ChannelID, r.Now = "th1", t0.Add(d)
	return r
}

// TestResignAsksFirst: /resign answers with a private prompt and changes
// nothing; Cancel drops it; only the asked player's Confirm within a minute,
// with the game as it was when asked, resigns, once.
func TestResignAsksFirst(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	version := func() int64 { return commandstest.Game(t, store, id).Version }
	before := version()

	prompt, err := a.Handle(cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	require.True(t, prompt.Ephemeral, "the prompt is private")
	require.Equal(t, before, version(), "asking changes nothing")

	// Cancel: the prompt is updated, nothing else.
	r, err := a.Handle(clickAt(bob, buttonOf(t, prompt.Message, "Cancel"), time.Second))
	require.NoError(t, err)
	require.True(t, r.Update && r.Ephemeral)
	require.Empty(t, r.Rows, "a cancelled prompt has no buttons")
	require.Equal(t, before, version())

	// Someone else's click, and a click after the minute, change nothing.
	prompt, err = a.Handle(cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	confirm := buttonOf(t, prompt.Message, "Confirm")
	_, err = a.Handle(clickAt(alice, confirm, time.Second))
	require.Contains(t, userMsg(t, err), "not yours")
	_, err = a.Handle(clickAt(bob, confirm, commands.ConfirmTTL))
	require.Contains(t, userMsg(t, err), "expired")
	g, st := load(t, store, id)
	require.True(t, g.Active)
	require.Empty(t, st.Result)
	require.Equal(t, before, version())

	// A prompt answered after the game changed (a move) changes nothing:
	// the player confirms what they saw.
	prompt, err = a.Handle(cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka2"}))
	require.NoError(t, err)
	before = version()
	_, err = a.Handle(clickAt(bob, buttonOf(t, prompt.Message, "Confirm"), time.Second))
	require.Contains(t, userMsg(t, err), "moved on since you were asked")
	require.True(t, commandstest.Game(t, store, id).Active)
	require.Equal(t, before, version())

	// A fresh prompt confirmed in time resigns.
	prompt, err = a.Handle(cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	confirm = buttonOf(t, prompt.Message, "Confirm")
	r, err = a.Handle(clickAt(bob, confirm, commands.ConfirmTTL-time.Second))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "the resigner is answered privately")
	require.True(t, r.Update, "in place of the prompt")
	require.Contains(t, r.Content, "You resigned")
	require.Contains(t, liveBoard(t, a, p).Content, "wins by resignation", "the final board announces it")
	g, st = load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, "1-0", st.Result)
	require.Equal(t, storage.Resignation, g.Outcome.Method)
	after := version()

	// A double click: nothing more.
	_, err = a.Handle(clickAt(bob, confirm, 2*time.Second))
	require.Contains(t, userMsg(t, err), "already over")
	require.Equal(t, after, version())
}

// TestDrawAcceptAsksFirst: accepting a draw, by command or by the offer's
// button, asks first; a decline does not; a Confirm answers only the offer
// it was asked about.
func TestDrawAcceptAsksFirst(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	active := func() bool { return commandstest.Game(t, store, id).Active }

	offer, err := a.Handle(cmd(alice, "draw", "offer", nil))
	require.NoError(t, err)
	// The offer's button asks.
	prompt, err := a.Handle(clickAt(bob, buttonOf(t, offer.Message, "Accept draw"), 0))
	require.NoError(t, err)
	require.True(t, prompt.Ephemeral)
	require.True(t, active())
	// The offerer cannot be asked to accept their own offer.
	_, err = a.Handle(cmd(alice, "draw", "accept", nil))
	require.Contains(t, userMsg(t, err), "You made this draw offer")
	// The offer lapses with a move: the prompt's Confirm then changes nothing.
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka2"}))
	require.NoError(t, err)
	_, err = a.Handle(clickAt(bob, buttonOf(t, prompt.Message, "Confirm"), time.Second))
	require.Contains(t, userMsg(t, err), "moved on since you were asked")
	require.True(t, active())

	// A decline needs no confirmation.
	_, err = a.Handle(cmd(bob, "draw", "offer", nil))
	require.NoError(t, err)
	r, err := a.Handle(cmd(alice, "draw", "decline", nil))
	require.NoError(t, err)
	require.Contains(t, r.Content, "declined")

	// /draw accept asks, Confirm draws the game.
	_, err = a.Handle(cmd(bob, "draw", "offer", nil))
	require.NoError(t, err)
	prompt, err = a.Handle(cmd(alice, "draw", "accept", nil))
	require.NoError(t, err)
	require.True(t, prompt.Ephemeral)
	require.True(t, active())
	r, err = a.Handle(clickAt(alice, buttonOf(t, prompt.Message, "Confirm"), time.Second))
	require.NoError(t, err)
	require.Contains(t, r.Content, "accepted the draw offer")
	g, st := load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, "1/2-1/2", st.Result)
	_, err = a.Handle(clickAt(alice, buttonOf(t, prompt.Message, "Confirm"), 2*time.Second))
	require.Contains(t, userMsg(t, err), "already over")
}

// TestEndArchivesTheThread: ArchiveDelay after the end (time for the answer
// and its outbox copy to show first), a summary is posted and the thread
// archived and locked, once.
func TestEndArchivesTheThread(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, kingsShuffle)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0.Add(commands.ArchiveDelay-time.Second))
	require.False(t, p.Archived["th1"], "not before everything the end shows")
	commandstest.Deliver(t, a, t0.Add(commands.ArchiveDelay))
	require.True(t, p.Archived["th1"])
	posts, _ := p.Snapshot()
	require.Len(t, posts, 2, "the final board, then the summary")
	require.Equal(t, "th1", posts[1].Channel)
	require.Contains(t, posts[0].Msg.Content, alice.Mention()+" (White) wins by resignation")
	require.Contains(t, posts[1].Msg.Content, alice.Mention()+" wins by resignation")
	commandstest.Deliver(t, a, t0.Add(2*commands.ArchiveDelay))
	posts, _ = p.Snapshot()
	require.Len(t, posts, 2, "once")
}

// TestRematch: the final board's Rematch button opens, in the game's text
// channel, a challenge to the same opponent with colours swapped and the
// same move time; accepting it starts a game with the colours swapped.
func TestRematch(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	button := buttonOf(t, liveBoard(t, a, p), "Rematch")
	_, err = a.Handle(clickAt(carol, button, time.Second))
	require.Contains(t, userMsg(t, err), "Only")

	r, err := a.Handle(clickAt(alice, button, time.Second))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "the clicker is answered privately")
	commandstest.Deliver(t, a, t0.Add(time.Second))
	posts, _ := p.Snapshot()
	var challenge *commands.Message
	for _, s := range posts {
		if s.Channel == "general" && strings.Contains(s.Msg.Content, "challenged") {
			challenge = &s.Msg
		}
	}
	require.NotNil(t, challenge, "the challenge is posted in the game's text channel: %+v", posts)
	require.Contains(t, challenge.Content, bob.Mention())

	accept := commandstest.Click(bob, buttonOf(t, *challenge, "Accept"), "m-rematch")
	accept.Now = t0.Add(2 * time.Second)
	_, err = a.Handle(accept)
	require.NoError(t, err)
	g, st := gameIn(t, store, "m-rematch")
	require.NotEqual(t, id, g.ID)
	require.True(t, g.Active)
	require.Equal(t, bob.ID, st.White.ID, "colours swapped: alice had White")
	require.Equal(t, alice.ID, st.Black.ID)
	require.Equal(t, time.Hour, st.MoveTime)
}
