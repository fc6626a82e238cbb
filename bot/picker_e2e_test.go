package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestSurvivalPickerThroughDiscord plays a Survival move with the move
// picker through the fake Discord: the board's Pick a move button refuses
// the player not to move privately, opens a private picker for the one to
// move, whose selects update it in place (pieces, then moves) until the
// chosen move is played and its board posted in the thread, as /move's;
// the old picker then refuses.
func TestSurvivalPickerThroughDiscord(t *testing.T) {
	t.Parallel()
	t.Run("answered at once", func(t *testing.T) { survivalPicker(t, newHarness(t)) })
	t.Run("deferred", func(t *testing.T) { survivalPicker(t, newDeferringHarness(t)) })
}

func survivalPicker(t *testing.T, h *harness) {
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	board, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool { return m.ChannelID == thread.ID })
	require.NoError(t, err)
	open := buttonID(t, board, "Pick a move")
	answer := func(m *discordsim.Message, in *discordsim.Interaction, err error) *discordsim.Message {
		t.Helper()
		require.NoError(t, err)
		return h.tcAnswer(in, m)
	}

	in, err := h.srv.Click(bob, board, open)
	refusal := answer(board, in, err)
	require.Contains(t, mustBeEphemeral(t, refusal, bob), "It is not your turn")

	in, err = h.srv.Click(alice, board, open)
	picker := answer(board, in, err)
	require.Contains(t, mustBeEphemeral(t, picker, alice), "Pick a move")
	require.False(t, picker.VisibleFor(bob.ID), "the picker is alice's alone")
	sel := picker.SelectMenus()
	require.Len(t, sel, 1)
	var pieces []string
	for _, o := range sel[0].Options {
		pieces = append(pieces, o.Label)
	}
	require.Equal(t, []string{"Pawn a7", "Pawn c7", "Pawn e7", "Pawn g7"}, pieces)

	in, err = h.srv.Select(alice, picker, sel[0].CustomID, "e7")
	step := answer(picker, in, err)
	require.Equal(t, picker.ID, step.ID, "the picker is updated in place")
	require.Contains(t, step.Text(), "Pawn e7")
	sel = step.SelectMenus()
	require.Len(t, sel, 1)
	require.Len(t, sel[0].Options, 5, "e8=Q, e8=R, e8=B, e8=N, e8=K")

	// A second picker, opened before the move, for the stale check below.
	in, err = h.srv.Click(alice, board, open)
	old := answer(board, in, err)
	oldSel := old.SelectMenus()
	require.Len(t, oldSel, 1)

	in, err = h.srv.Select(alice, step, sel[0].CustomID, "e7e8k")
	played := answer(step, in, err)
	// As /move: the mover is answered privately (here in the picker's
	// place), and the new live board is posted in the thread.
	require.Contains(t, mustBeEphemeral(t, played, alice), "You played **e8=K**")
	require.Equal(t, step.ID, played.ID, "the answer replaces the picker in place")
	live, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == thread.ID && !m.Ephemeral() && strings.Contains(m.Text(), "played **e8=K**") && m.Attachment("board.png") != nil
	})
	require.NoError(t, err)
	require.Contains(t, live.Text(), bob.Mention(), "the new board pings bob, to move")

	// The old picker refuses: the game moved on.
	in, err = h.srv.Select(alice, old, oldSel[0].CustomID, "e7")
	stale := answer(old, in, err)
	require.Contains(t, mustBeEphemeral(t, stale, alice), "The game moved on")
}

// TestTeamChessPickerThroughDiscord: the commander picks an 8th-rank
// sacrifice (pawn, square, role) from the board in the team thread; the
// move is answered there and its board posted in the other two threads.
func TestTeamChessPickerThroughDiscord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	tb := h.tcStart("r3k3/1P6/8/3n4/8/8/8/Q3K3 w - - 0 1", []*discordsim.User{alice, carol}, []*discordsim.User{bob})
	board := tb.last(tb.team[tcWhite])
	open := buttonID(t, board, "Pick a move")

	in, err := h.srv.Click(carol, board, open)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, h.tcAnswer(in, board), carol), "Only the active commander may move")

	in, err = h.srv.Click(alice, board, open)
	require.NoError(t, err)
	picker := h.tcAnswer(in, board)
	mustBeEphemeral(t, picker, alice)
	for _, v := range []string{"b7", "b7b8", "b7b8p"} {
		sel := picker.SelectMenus()
		require.Len(t, sel, 1, picker.Text())
		in, err = h.srv.Select(alice, picker, sel[0].CustomID, v)
		require.NoError(t, err)
		picker = h.tcAnswer(in, picker)
	}
	played := picker
	require.Contains(t, mustBeEphemeral(t, played, alice), "played **b8=PoliticalAgent**", "answered privately, as /move")
	require.Equal(t, tb.team[tcWhite].ID, played.ChannelID, "answered in the thread the picker was used in")
	for _, ch := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		require.NoError(t, h.srv.WaitFor(wait, func() bool {
			return strings.Contains(tb.last(ch).Text(), "played **b8=PoliticalAgent**")
		}), "the board in %s", ch.Name)
	}
}
