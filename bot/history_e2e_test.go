package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestHistoryViewerThroughDiscord: through the fake Discord, the board's
// History button opens a viewer only the clicker sees; its ◀ updates that
// same message in place (still ephemeral, nothing new in the thread); the
// slash command /history opens one too; and nobody else ever sees them;
// whether the bot answers at once or defers.
func TestHistoryViewerThroughDiscord(t *testing.T) {
	t.Parallel()
	t.Run("at once", func(t *testing.T) { historyViewerThroughDiscord(t, newHarness(t)) })
	t.Run("deferred", func(t *testing.T) { historyViewerThroughDiscord(t, newDeferringHarness(t)) })
}

func historyViewerThroughDiscord(t *testing.T, h *harness) {
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	thread := h.survivalGame(alice, bob)
	h.move(alice, thread, "a7a8k")
	board := h.move(bob, thread, eliminationGame[1])
	public := len(h.srv.VisibleMessages(bob, thread.ID))

	in := h.click(carol, board, buttonID(t, board, "History"))
	viewer := h.answerOf(in, board.Version) // a follow-up, after a deferral
	require.Contains(t, mustBeEphemeral(t, viewer, carol), "(ply 2 of 2)")
	require.NotNil(t, viewer.Attachment("board.png"))
	require.Len(t, viewer.Buttons(), 5)

	var back string
	for _, b := range viewer.Buttons() {
		if b.Emoji != nil && b.Emoji.Name == "◀" {
			back = b.CustomID
		}
	}
	require.NotEmpty(t, back)
	_, err := h.srv.Click(carol, viewer, back)
	require.NoError(t, err)
	var now *discordsim.Message
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		now = h.srv.Message(viewer.ID)
		return now != nil && now.Version > viewer.Version
	}), "◀ edits the viewer")
	require.Contains(t, mustBeEphemeral(t, now, carol), "(ply 1 of 2)")
	require.NotNil(t, now.Attachment("board.png"))
	require.Len(t, now.Attachments, 1, "the new board replaces the old one")

	slash := h.reply(carol, thread.ID, "history")
	require.Contains(t, mustBeEphemeral(t, slash, carol), "(ply 2 of 2)")

	require.Len(t, h.srv.VisibleMessages(bob, thread.ID), public, "nobody else sees a viewer")
	for _, m := range h.srv.VisibleMessages(bob, thread.ID) {
		require.False(t, strings.Contains(m.Text(), "· history"), "a viewer in public: %q", m.Text())
	}
}
