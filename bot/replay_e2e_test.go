package bot_test

import (
	"bytes"
	"image/gif"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/internal/discordsim"
)

// gifOf is m's animated GIF attachment decoded, or nil when m has none.
func gifOf(t *testing.T, m *discordsim.Message) *gif.GIF {
	t.Helper()
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Filename, ".gif") {
			g, err := gif.DecodeAll(bytes.NewReader(a.Data))
			require.NoError(t, err, "a valid GIF")
			return g
		}
	}
	return nil
}

// TestReplayAndArchiveThroughDiscord: through the real discordgo client
// and the simulator, a finished Survival game's replay follows its final
// board in the thread (one frame per position), the final board's 🎞
// Replay sends it privately, and /history lists the game in the archive
// outside the thread (with its Replay button) while keeping the viewer
// inside it.
func TestReplayAndArchiveThroughDiscord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")

	empty := h.reply(alice, h.gen.ID, "history")
	require.Contains(t, mustBeEphemeral(t, empty, alice), "no finished games in this server")

	thread := h.survivalGame(alice, bob)
	moves := eliminationGame[:4]
	for i, mv := range moves {
		player := alice
		if i%2 == 1 {
			player = bob
		}
		h.move(player, thread, mv)
	}
	h.replyConfirmed(bob, thread.ID, "resign")
	final := h.liveBoard(thread)
	require.Contains(t, final.Text(), "wins by resignation")
	replayID := buttonID(t, final, "Replay")
	for _, m := range h.srv.Messages(thread.ID) {
		require.Nil(t, gifOf(t, m), "no replay before ReplayDelay")
	}

	h.clock.Advance(commands.ReplayDelay)
	h.swept()
	var posted *discordsim.Message
	for _, m := range h.srv.Messages(thread.ID) {
		if !m.Ephemeral() && gifOf(t, m) != nil {
			require.Nil(t, posted, "one replay in the thread")
			posted = m
		}
	}
	require.NotNil(t, posted, "the replay follows the end in the thread")
	require.Contains(t, posted.Text(), "Replay")
	require.Len(t, gifOf(t, posted).Image, len(moves)+1, "the start and every ply")
	require.Greater(t, posted.ID, final.ID, "after the final board")

	in := h.click(carol(h), final, replayID)
	m, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return gifOf(t, m) != nil })
	require.NoError(t, err)
	mustBeEphemeral(t, m, carol(h))
	require.Len(t, gifOf(t, m).Image, len(moves)+1)

	// The archive, outside the thread: the game, won by alice.
	arch := h.reply(alice, h.gen.ID, "history")
	text := mustBeEphemeral(t, arch, alice)
	require.Contains(t, text, "Survival Chess")
	require.Contains(t, text, "**won** (resignation)")
	require.Contains(t, text, "vs "+bob.Mention())
	require.Contains(t, text, "https://discord.com/channels/"+thread.GuildID+"/"+thread.ID)
	in = h.click(alice, arch, buttonID(t, arch, "1"))
	m, err = in.WaitReply(wait, func(m *discordsim.Message) bool { return gifOf(t, m) != nil })
	require.NoError(t, err)
	mustBeEphemeral(t, m, alice)

	// bob's, asked in the thread with an option: the archive too.
	arch = h.reply(alice, thread.ID, "history", discordsim.Opt("user", bob), discordsim.Opt("game", "survival"))
	require.Contains(t, mustBeEphemeral(t, arch, alice), "**lost** (resignation)")
	// No option in the thread: the game's viewer, as before.
	viewer := h.reply(alice, thread.ID, "history")
	require.Contains(t, mustBeEphemeral(t, viewer, alice), "history")
	require.NotContains(t, viewer.Text(), "Game archive")
	require.NotNil(t, viewer.Attachment("board.png"), "the viewer shows a board")
}

// carol is the harness's third user, a spectator.
func carol(h *harness) *discordsim.User { return h.srv.User("carol") }
