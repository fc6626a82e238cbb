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
	t.Parallel()
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

// TestMultiProcessComputerMovesOnce: three bots share one store, each
// sweeping for pending computer moves; in alice's game against the
// computer every computer move is made once and posted once, whichever
// bot's worker makes it.
func TestMultiProcessComputerMovesOnce(t *testing.T) {
	t.Parallel()
	m := startMulti(t, 3, 1, []int{0}, []int{1}, []int{2})
	h1 := m.hs[1]
	alice := m.srv.User("alice")
	start := h1.reply(alice, m.gen.ID, "survival challenge", discordsim.Opt("opponent", m.srv.Bot()),
		discordsim.Opt("color", "black"), discordsim.Opt("level", "beginner"))
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(start.Text())
	require.NotNil(t, link, start.Text())
	thread := m.srv.ChannelByID(link[1])
	played := m.srv.Bot().Mention() + " played **"
	computerBoards := func() int {
		n := 0
		for _, msg := range m.srv.Messages(thread.ID) {
			if strings.HasPrefix(msg.Content, played) || strings.HasSuffix(msg.Content, "— "+m.srv.Bot().Mention()) {
				n++
			}
		}
		return n
	}
	for n := 1; n <= 4; n++ {
		require.NoError(t, m.srv.WaitFor(wait, func() bool { return computerBoards() >= n }), "computer move %d", n)
		// Every bot sweeps at least once more: none moves for the computer again.
		m.clock.Advance(time.Second)
		m.sweptAll()
		require.Equal(t, n, computerBoards(), "one board per computer move")
		in, err := m.srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", ""))
		require.NoError(t, err)
		require.NoError(t, m.srv.WaitFor(wait, func() bool { return len(in.Choices()) > 0 }))
		if n < 4 {
			h1.move(alice, thread, in.Choices()[0].Value.(string))
		}
	}
	var plies int
	require.NoError(t, m.store.View(t.Context(), func(tx storage.Tx) error {
		g, err := tx.Games().ByChannel(thread.ID)
		if err != nil {
			return err
		}
		var s struct{ Moves []string }
		if err := json.Unmarshal(g.State, &s); err != nil {
			return err
		}
		plies = len(s.Moves)
		return nil
	}))
	require.Equal(t, 7, plies, "four computer moves and alice's three")
	m.postedOnce(thread.ID)
}
