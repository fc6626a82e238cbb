package bot_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestGamesStartOnlyInTextChannels: a challenge or a lobby opened in a
// thread is refused at once, privately, with where to open it instead
// (Discord cannot create the game's thread inside a thread). The bot
// knows the channel's type from its state cache, or asks Discord.
func TestGamesStartOnlyInTextChannels(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	const want = "Use this in a server text channel, not in a thread"
	for _, c := range []struct {
		command string
		opts    []discordsim.Option
	}{
		{"survival challenge", []discordsim.Option{discordsim.Opt("opponent", bob)}},
		{"sandtable challenge", []discordsim.Option{discordsim.Opt("opponent", bob)}},
		{"teamchess new", nil},
	} {
		m := h.reply(alice, thread.ID, c.command, c.opts...)
		require.Contains(t, mustBeEphemeral(t, m, alice), want, "/%s", c.command)
	}
	for _, m := range h.srv.Messages(thread.ID) {
		if !m.Ephemeral() {
			require.NotContains(t, m.Text(), "challenge", "no challenge was posted in the thread")
			require.NotContains(t, m.Text(), "lobby", "no lobby was posted in the thread")
		}
	}

	// Not in the state cache: the bot asks Discord for the channel.
	st := h.bot.Session().State
	ch, err := st.Channel(thread.ID)
	require.NoError(t, err)
	require.NoError(t, st.ChannelRemove(ch))
	before := len(h.srv.CallsTo("GET /channels/" + thread.ID))
	m := h.reply(alice, thread.ID, "survival challenge", discordsim.Opt("opponent", bob))
	require.Contains(t, mustBeEphemeral(t, m, alice), want)
	require.Greater(t, len(h.srv.CallsTo("GET /channels/"+thread.ID)), before, "the type came from Discord")

	// In a text channel the challenge is posted as usual.
	ok := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	require.False(t, ok.Ephemeral())
}

// TestThreadRefusedAtAccept: when Discord still refuses the game's thread
// at acceptance, the answer says what happened. A channel that cannot hold
// threads (50024) closes the challenge or lobby for good; any other
// refusal keeps it open for another try.
func TestThreadRefusedAtAccept(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	noThreads := discordsim.Fault{Status: 400, Code: 50024, Message: "Cannot execute action on this channel type"}

	ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	// A challenge's game thread is started from the challenge's message.
	h.srv.FailNext("POST /channels/*/messages/*/threads", 1, noThreads)
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	m := h.answerOf(in, ch.Version)
	require.False(t, m.Ephemeral())
	require.Contains(t, m.Text(), "This game cannot start here")
	require.Contains(t, m.Text(), "server text channel")
	require.Empty(t, m.Buttons(), "the challenge is closed")

	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	h.srv.FailNext("POST /channels/*/messages/*/threads", 1, discordsim.Fault{Status: 403, Code: 50013, Message: "Missing Permissions"})
	r := h.tcPress(alice, lobby, "Start")
	text := mustBeEphemeral(t, r, alice)
	require.Contains(t, text, `I could not create the game's thread: Discord said "Missing Permissions" (error 50013)`)
	require.Contains(t, text, "The lobby is still open")
	h.srv.FailNext("POST /channels/*/messages/*/threads", 1, noThreads)
	closed := h.tcPress(alice, lobby, "Start")
	require.Contains(t, closed.Text(), "This game cannot start here")
	require.Empty(t, closed.Buttons())
}
