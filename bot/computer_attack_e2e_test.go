package bot_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// TestComputerMovePostFailsThenRetried: Discord answers 500 to the edits
// of the live board (alice's move, then the computer's reply): the move is
// made once, in the store at once, and shown once when the outbox retries
// (one ping); the computer does not move again meanwhile.
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
	// The computer's moves: alice's turn pings after her first (the live
	// board is edited in place; each computer move pings her once).
	computerBoards := func() int {
		n := -1
		for _, no := range h.srv.Notifications(alice.ID) {
			if no.ChannelID == thread.ID {
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
	first := h.liveBoard(thread)
	failed := func() int {
		n := 0
		for _, c := range h.srv.CallsTo("PATCH /channels/" + thread.ID + "/messages/*") {
			if c.Status == 500 {
				n++
			}
		}
		return n
	}
	// The live board's edits fail from here: alice's board, then the computer's.
	h.srv.ServerErrorNext("PATCH /channels/"+thread.ID+"/messages/*", 3)
	h.move(alice, thread, "g7g8q")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return plies() == 2 }), "the computer moved in the store; log:\n%s", h.logs.String())
	for i := 0; i < 20 && (failed() < 3 || computerBoards() < 1); i++ {
		h.clock.Advance(10 * time.Second)
		h.swept()
	}
	require.Equal(t, 3, failed(), "the injected faults were met")
	require.Equal(t, 1, computerBoards(), "the computer's move is shown once (one ping)")
	require.Equal(t, 2, plies(), "the computer moved once")
	board := h.liveBoard(thread)
	require.True(t, strings.HasPrefix(board.Content, played), "the live board is the computer's move: %s", board.Content)
	require.Contains(t, board.Content, alice.Mention()+", your move.")
	require.Equal(t, first.ID, board.ID, "the live board edited in place")
	require.Equal(t, 1, h.countBotMessages(thread.ID).images, "one board in the thread")
	require.Len(t, h.pingMessages(thread.ID), 1, "one ping left, alice's")
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
	// Each computer move edits the live board and pings alice once.
	computerBoards := func() int {
		n := 0
		for _, no := range m.srv.Notifications(alice.ID) {
			if no.ChannelID == thread.ID {
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
		require.Equal(t, n, computerBoards(), "one ping per computer move")
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
