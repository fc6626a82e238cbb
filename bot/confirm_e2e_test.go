package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/internal/discordsim"
)

// TestResignConfirmedThenThreadArchived: through the fake Discord, /resign
// asks privately; Cancel changes nothing; Confirm resigns once (a second
// Confirm says the game is over); ArchiveDelay later the thread gets its
// summary and is archived and locked, after which its players can no
// longer use commands in it.
func TestResignConfirmedThenThreadArchived(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)

	prompt := h.reply(bob, thread.ID, "resign")
	require.Contains(t, mustBeEphemeral(t, prompt, bob), "Resign this game?")
	in, err := h.srv.Click(bob, prompt, buttonID(t, prompt, "Cancel"))
	require.NoError(t, err)
	cancelled, err := in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "Cancelled") })
	require.NoError(t, err)
	require.Empty(t, cancelled.Buttons(), "the cancelled prompt has no buttons left")
	require.Empty(t, h.messagesWith(thread.ID, "resigned"))

	prompt = h.reply(bob, thread.ID, "resign")
	m := h.confirm(bob, prompt)
	require.False(t, m.Ephemeral())
	require.Contains(t, m.Text(), alice.Mention()+" (White) wins by resignation")
	again := h.confirm(bob, prompt)
	require.Contains(t, mustBeEphemeral(t, again, bob), "already over")
	require.Len(t, h.messagesWith(thread.ID, "wins by resignation"), 1, "resigned once")

	h.drained()
	require.False(t, h.srv.ChannelByID(thread.ID).Archived, "the thread stays open while the end is shown")
	h.clock.Advance(commands.ArchiveDelay)
	h.swept()
	h.drained()
	th := h.srv.ChannelByID(thread.ID)
	require.True(t, th.Archived && th.Locked, "archived and locked")
	require.Len(t, h.messagesWith(thread.ID, "Game over"), 1, "one summary")
	_, err = h.srv.Slash(alice, thread.ID, "board")
	require.Error(t, err, "nobody types in a locked thread")
	h.clock.Advance(time.Hour)
	h.swept()
	h.drained()
	require.Len(t, h.messagesWith(thread.ID, "Game over"), 1, "once")
}
