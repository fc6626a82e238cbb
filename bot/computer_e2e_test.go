package bot_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// TestSurvivalAgainstTheComputer: alice challenges the bot itself (the
// opponent option naming it, level beginner, she plays Black): the game
// starts at once in its thread, the computer moves first and each of
// alice's moves gets a computer reply, posted as the thread's live board
// pinging her. Then the bot is stopped with a computer move pending in the
// store (its workers stopped before alice's move, as if it died before
// searching): the restarted bot resumes the move from its timer.
func TestSurvivalAgainstTheComputer(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice := srv.User("alice")
	other := srv.AddBot("OtherBot")
	refused := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", other))
	require.Contains(t, refused.Text(), "is a bot and cannot play")

	start := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", srv.Bot()),
		discordsim.Opt("color", "black"), discordsim.Opt("level", "beginner"))
	require.Contains(t, start.Text(), "Computer (beginner)")
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(start.Text())
	require.NotNil(t, link, "the answer links the game's thread: %s", start.Text())
	thread := srv.ChannelByID(link[1])
	require.NotNil(t, thread)

	// computerMoves counts the computer's moves by alice's turn pings in
	// the thread (the live board is edited in place; each computer move
	// pings her once, and nothing else does: the computer moves first).
	played := srv.Bot().Mention() + " played **"
	computerMoves := func() int {
		n := 0
		for _, no := range srv.Notifications(alice.ID) {
			if no.ChannelID == thread.ID {
				n++
			}
		}
		return n
	}
	waitComputer := func(n int) *discordsim.Message {
		t.Helper()
		require.NoError(t, srv.WaitFor(wait, func() bool { return computerMoves() >= n }), "no computer move %d; log:\n%s", n, h.logs.String())
		board := h.liveBoard(thread)
		require.True(t, strings.HasPrefix(board.Content, played), "the live board is the computer's move: %s", board.Content)
		require.Contains(t, board.Content, alice.Mention()+", your move.", "the computer's move pings alice")
		require.Contains(t, board.Text(), "vs Computer (beginner)")
		return board
	}
	waitComputer(1)
	// alice plays the first legal move autocomplete offers her.
	play := func() {
		t.Helper()
		in, err := srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", ""))
		require.NoError(t, err)
		require.NoError(t, srv.WaitFor(wait, func() bool { return len(in.Choices()) > 0 }))
		h.move(alice, thread, in.Choices()[0].Value.(string))
	}
	play()
	waitComputer(2)
	play()
	waitComputer(3)

	games := h.reply(alice, h.gen.ID, "games")
	require.Contains(t, games.Text(), "vs Computer (beginner)")

	// A move pending when the bot goes down is resumed by the next one.
	h.bot.App().StopComputers()
	play()
	h.drained()
	require.Equal(t, 3, computerMoves(), "the stopped workers made no move")
	h.stop()
	st, err := storage.Open(db, wait)
	require.NoError(t, err)
	var pending bool
	require.NoError(t, st.View(t.Context(), func(tx storage.Tx) error {
		g, err := tx.Games().ByChannel(thread.ID)
		if err == nil {
			pending = !g.ComputerMove.IsZero() && g.Unrated
		}
		return err
	}))
	require.NoError(t, st.Close())
	require.True(t, pending, "the computer's move is pending in the store")

	h = startBot(t, srv, db)
	waitComputer(4)
	require.Equal(t, 4, computerMoves(), "resumed once")
}
