package bot_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// boards are the messages in channelID whose text contains substr.
func (h *harness) messagesWith(channelID, substr string) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range h.srv.Messages(channelID) {
		if strings.Contains(m.Text(), substr) {
			out = append(out, m)
		}
	}
	return out
}

// TestFirstBoardFailsThenArrives: a 500 on a new game's first board does
// not undo the start: the challenge is closed (a second Accept starts no
// second game), the game is listed once, and the board arrives once, when
// the outbox retries it.
func TestFirstBoardFailsThenArrives(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	h.srv.ServerErrorNext("POST /channels/*/messages", 1)
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	accepted, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	require.Empty(t, accepted.Buttons(), "the challenge is closed: no second Accept")
	threads := h.srv.Threads(h.gen.ID)
	require.Len(t, threads, 1)
	thread := threads[0]
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.CallsTo("POST /channels/*/messages")) > 0 }))
	require.Empty(t, h.messagesWith(thread.ID, "first move must be a promotion"), "the first post failed")

	games := h.reply(alice, h.gen.ID, "games")
	require.Equal(t, 1, strings.Count(games.Text(), "Survival Chess"), games.Text())

	// The retry is due a second later.
	h.clock.Advance(2 * time.Second)
	h.swept()
	require.Len(t, h.messagesWith(thread.ID, "first move must be a promotion"), 1, "the board arrives once")
	require.Len(t, h.srv.Threads(h.gen.ID), 1)
	h.move(alice, h.srv.ChannelByID(thread.ID), "g7g8q")
}

// TestLostMoveAnswerIsPosted: a 500 on a move's answer loses no move: the
// move is saved, so its board is posted in the thread through the outbox,
// once, and the opponent plays on.
func TestLostMoveAnswerIsPosted(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	in := h.slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.messagesWith(thread.ID, "played **g8=Q**")) > 0 }))
	h.drained()
	require.Nil(t, in.Response(), "the answer itself failed")
	require.Len(t, h.messagesWith(thread.ID, "played **g8=Q**"), 1, "posted once")
	m := h.move(bob, thread, "e2e1k")
	require.Contains(t, m.Text(), "e1=K")
}

// TestBoardWithLostAnswerIsPostedOnce: Discord makes a move's board but its
// answer never reaches the bot (the connection drops, or the answer comes
// after the delivery gave up): the retry finds the board already posted
// (reconciled, and its create carries the same nonce), so the thread shows
// it once, with one live board.
func TestBoardWithLostAnswerIsPostedOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault func(srv *discordsim.Server, pattern string)
	}{
		{"answer lost", func(srv *discordsim.Server, pattern string) { srv.LoseAnswerNext(pattern, 1) }},
		// A delivery gets 1 s here (Options.DeliveryTimeout).
		{"answer late", func(srv *discordsim.Server, pattern string) { srv.LateAnswerNext(pattern, 1, 3*time.Second) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := discordsim.Start(t, discordsim.Options{})
			h := startBotConfigured(t, srv, filepath.Join(t.TempDir(), "bot.db"), time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC),
				nil, bot.Options{DeliveryTimeout: time.Second})
			alice, bob := h.srv.User("alice"), h.srv.User("bob")
			thread := h.survivalGame(alice, bob)
			pattern := "POST /channels/" + thread.ID + "/messages"
			tc.fault(h.srv, pattern)
			h.move(alice, thread, "e7e8r")
			require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.CallsTo(pattern)) > 0 }))
			h.clock.Advance(5 * time.Second) // past the retry's backoff
			h.swept()
			h.clock.Advance(5 * time.Second)
			h.swept()
			c := h.countBotMessages(thread.ID)
			require.Equal(t, 2, c.messages, "the first board and the move's, once: %q", c.compact)
			require.Equal(t, 1, c.images, "one live board")
			board := h.liveBoard(thread)
			require.NotEmpty(t, board.Buttons(), "the live board keeps its controls")
			require.Contains(t, board.Text(), bob.Mention()+", your move")
			var games []*storage.Game
			require.NoError(t, h.store.View(context.Background(), func(tx storage.Tx) (err error) {
				games, err = tx.Games().Active(alice.ID)
				return err
			}))
			require.Len(t, games, 1)
			g := games[0]
			require.Len(t, g.Boards, 1)
			require.Equal(t, board.ID, g.Boards[0].Message, "the game knows the board Discord made")
		})
	}
}
