package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestResignConfirmedThenThreadArchived: through the fake Discord, /resign
// asks privately; Cancel changes nothing; Confirm resigns once (a second
// Confirm says the game is over); ArchiveDelay later the thread gets its
// summary and is archived and locked, after which its players can no
// longer use commands in it. Before that, the final board's Rematch opens
// a challenge with colours swapped.
func TestResignConfirmedThenThreadArchived(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)

	prompt := h.reply(bob, thread.ID, "resign")
	require.Contains(t, mustBeEphemeral(t, prompt, bob), "Resign this game?")
	in, err := h.srv.Click(bob, prompt, buttonID(t, prompt, "Cancel"))
	require.NoError(t, err)
	cancelled, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "Cancelled") })
	require.NoError(t, err)
	require.Empty(t, cancelled.Buttons(), "the cancelled prompt has no buttons left")
	require.Empty(t, h.messagesWith(thread.ID, "resigned"))

	prompt = h.reply(bob, thread.ID, "resign")
	done := h.confirm(bob, prompt)
	require.Contains(t, mustBeEphemeral(t, done, bob), "You resigned", "the resigner is answered privately")
	m := h.liveBoard(thread)
	require.Contains(t, m.Text(), alice.Mention()+" (White) wins by resignation", "the final board says it")
	again := h.confirm(bob, prompt)
	require.Contains(t, mustBeEphemeral(t, again, bob), "already over")
	require.Len(t, public(h.messagesWith(thread.ID, "wins by resignation")), 1, "resigned once")

	// Rematch, from the final board: a challenge in the text channel,
	// colours swapped, which bob accepts.
	in, err = h.srv.Click(alice, m, buttonID(t, m, "Rematch"))
	require.NoError(t, err)
	offered, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, offered, alice), "Rematch offered")
	challenge, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == h.gen.ID && strings.Contains(m.Text(), "rematch of game")
	})
	require.NoError(t, err)
	require.Contains(t, challenge.Text(), bob.Mention())
	accepted := h.click(bob, challenge, buttonID(t, challenge, "Accept"))
	_, err = accepted.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	second, err := h.srv.WaitThread(wait, func(c *discordsim.Channel) bool { return c.ID != thread.ID && c.ParentID == h.gen.ID })
	require.NoError(t, err)
	require.Equal(t, "Survival · "+bob.Name+" vs "+alice.Name, second.Name, "bob has White in the rematch")

	h.drained()
	require.False(t, h.srv.ChannelByID(thread.ID).Archived, "the thread stays open while the end is shown")
	h.requireSummaryLinks(thread, m) // the summary links to the final board
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

// requireOnlyRematch asserts that a finished game's message offers nothing
// but a Rematch, its History, its Replay and its Analysis (no Flip, no
// deployment or Drone controls).
func requireOnlyRematch(t *testing.T, m *discordsim.Message) {
	t.Helper()
	var labels []string
	for _, b := range m.Buttons() {
		labels = append(labels, b.Label)
	}
	require.Equal(t, []string{"Rematch", "History", "Replay", "Analysis"}, labels, "a finished game offers only a rematch, its history, its replay and its analysis")
}

// requireOnlySandRematch is requireOnlyRematch for a SandTable game that
// ended after Deployment, whose final board also offers each player their
// own record (My full record, ruling D23).
func requireOnlySandRematch(t *testing.T, m *discordsim.Message) {
	t.Helper()
	var labels []string
	for _, b := range m.Buttons() {
		labels = append(labels, b.Label)
	}
	require.Equal(t, []string{"Rematch", "History", "Replay", "My full record"}, labels, "a finished game offers only a rematch, its history, its replay and each player's record")
}
