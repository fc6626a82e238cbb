package bot_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// TestComputerMovePostFailsThenRetried: Discord answers 500 to the posts
// of the computer's reply (its new live board): the move is made once, in
// the store at once, and its board is posted once when the outbox retries;
// the computer does not move again meanwhile.
func TestComputerMovePostFailsThenRetried(t *testing.T) {
	h := newHarness(t)
	alice := h.srv.User("alice")
	start := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", h.srv.Bot()),
		discordsim.Opt("color", "white"), discordsim.Opt("level", "beginner"))
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(start.Text())
	require.NotNil(t, link, start.Text())
	thread := h.srv.ChannelByID(link[1])
	played := h.srv.Bot().Mention() + " played **"
	computerBoards := func() int {
		n := 0
		for _, m := range h.srv.Messages(thread.ID) {
			if strings.HasPrefix(m.Content, played) || strings.HasSuffix(m.Content, "— "+h.srv.Bot().Mention()) {
				n++
			}
		}
		return n
	}
	plies := func() int {
		var n int
		require.NoError(t, h.store.View(t.Context(), func(tx storage.Tx) error {
			g, err := tx.Games().ByChannel(thread.ID)
			if err == nil {
				var s struct{ Moves []string }
				err = json.Unmarshal(g.State, &s)
				n = len(s.Moves)
			}
			return err
		}))
		return n
	}
	h.drained()
	failed := func() int {
		n := 0
		for _, c := range h.srv.CallsTo("POST /channels/" + thread.ID + "/messages") {
			if c.Status == 500 {
				n++
			}
		}
		return n
	}
	// Every post to the thread fails twice from here: alice's board, then the computer's.
	h.srv.ServerErrorNext("POST /channels/"+thread.ID+"/messages", 3)
	h.move(alice, thread, "g7g8q")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return plies() == 2 }), "the computer moved in the store; log:\n%s", h.logs.String())
	for i := 0; i < 20 && (failed() < 3 || computerBoards() < 1); i++ {
		h.clock.Advance(10 * time.Second)
		h.swept()
	}
	require.Equal(t, 3, failed(), "the injected faults were met")
	require.Equal(t, 1, computerBoards(), "the computer's board is posted once")
	require.Equal(t, 2, plies(), "the computer moved once")
	board := h.liveBoard(thread)
	require.True(t, strings.HasPrefix(board.Content, played), "the live board is the computer's move: %s", board.Content)
	require.Contains(t, board.Content, alice.Mention()+", your move.")
	public := 0
	for _, m := range h.messagesWith(thread.ID, "g8=Q") {
		if m.Flags&discordgo.MessageFlagsEphemeral == 0 {
			public++
		}
	}
	require.Equal(t, 1, public, "alice's move is shown once (her board, compacted to a line)")
}
