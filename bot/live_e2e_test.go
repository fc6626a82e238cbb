package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/internal/discordsim"
)

// threadCount is what a channel shows: the bot's public messages (their
// final versions; deleted ones are gone), those carrying an image, and
// the bot's private answers there.
type threadCount struct {
	messages, images, private int
	compact                   []string // the messages without image, in order
}

func (h *harness) countBotMessages(channelID string) threadCount {
	h.t.Helper()
	h.drained()
	var c threadCount
	for _, m := range h.srv.Messages(channelID) {
		if m.Author == nil || m.Author.ID != h.srv.Bot().ID {
			continue
		}
		if m.Ephemeral() {
			c.private++
			continue
		}
		c.messages++
		if hasImage(m) {
			c.images++
		} else {
			c.compact = append(c.compact, m.Text())
		}
	}
	return c
}

// TestSurvivalThreadKeepsOneLiveBoard: a 40-ply Survival game played with
// /move, then resigned, leaves its thread at most 48 bot messages and at
// most 2 carrying a board image: each move's board replaces the one
// before, which becomes a line of the move list (issue 15 item 1).
func TestSurvivalThreadKeepsOneLiveBoard(t *testing.T) {
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	var last *discordsim.Message
	for i, mv := range eliminationGame[:40] {
		player := alice
		if i%2 == 1 {
			player = bob
		}
		last = h.move(player, thread, mv)
		c := h.countBotMessages(thread.ID)
		require.Equal(t, 1, c.images, "after ply %d: one board image in the thread", i+1)
		require.Equal(t, i+2, c.messages, "after ply %d: the first board and one per move", i+1)
		next := bob
		if player == bob {
			next = alice
		}
		require.Contains(t, last.Text(), next.Mention()+", your move", "the new board pings the player to move")
		require.NotEmpty(t, last.Buttons(), "the live board keeps its controls")
	}
	c := h.countBotMessages(thread.ID)
	require.Contains(t, c.compact[1], "1. g8=Q — "+alice.Mention(), "the boards read as a move list")
	require.Contains(t, c.compact[2], "1... e1=K — "+bob.Mention())
	for _, m := range h.srv.Messages(thread.ID) {
		if !hasImage(m) && m.Author != nil && m.Author.ID == h.srv.Bot().ID && !m.Ephemeral() {
			require.Empty(t, m.Buttons(), "a compacted board has no buttons: %q", m.Text())
			require.Empty(t, m.Embeds, "a compacted board has no card: %q", m.Text())
			require.LessOrEqual(t, m.Version, 2, "a board is edited once at most")
		}
	}
	t.Logf("Survival, 40 plies played with /move: %d bot messages in the thread, %d with an image, %d private answers", c.messages, c.images, c.private)

	h.replyConfirmed(bob, thread.ID, "resign")
	end := h.liveBoard(thread)
	require.Contains(t, end.Text(), "wins by resignation")
	requireOnlyRematch(t, end)
	c = h.countBotMessages(thread.ID)
	t.Logf("Survival, 40 plies then a resignation: %d bot messages in the thread, %d with an image, %d private answers", c.messages, c.images, c.private)
	require.LessOrEqual(t, c.messages, 48)
	require.LessOrEqual(t, c.images, 2)
	if c.images != 1 {
		for _, m := range h.srv.Messages(thread.ID) {
			t.Logf("v%d img=%v eph=%v %q", m.Version, hasImage(m), m.Ephemeral(), m.Text()[:min(80, len(m.Text()))])
		}
	}
	require.Equal(t, 1, c.images, "the final board is the only image left")
	require.True(t, strings.HasPrefix(c.compact[0], "**Survival Chess: Tartan Grid**"), "the first board became the game's title line: %q", c.compact[0])

	// The thread is archived with its summary: one message more.
	h.clock.Advance(commands.ArchiveDelay)
	h.swept()
	c = h.countBotMessages(thread.ID)
	t.Logf("Survival, archived: %d bot messages in the thread, %d with an image", c.messages, c.images)
	require.LessOrEqual(t, c.messages, 48)
	require.Equal(t, 1, c.images)
}

// public is ms without the ephemeral messages.
func public(ms []*discordsim.Message) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range ms {
		if !m.Ephemeral() {
			out = append(out, m)
		}
	}
	return out
}

// lastPublic is the newest message of channelID that everyone sees, or nil.
func (h *harness) lastPublic(channelID string) *discordsim.Message {
	ms := h.srv.Messages(channelID)
	for i := len(ms) - 1; i >= 0; i-- {
		if !ms[i].Ephemeral() {
			return ms[i]
		}
	}
	return nil
}
