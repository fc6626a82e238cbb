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
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	board, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool { return m.ChannelID == thread.ID })
	require.NoError(t, err)
	open := buttonID(t, board, "Pick a move")

	in := h.click(bob, board, open)
	refusal, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, refusal, bob), "It is not your turn")

	in = h.click(alice, board, open)
	picker, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
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
	require.NoError(t, err)
	step, err := in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "Pawn e7") })
	require.NoError(t, err)
	require.Equal(t, picker.ID, step.ID, "the picker is updated in place")
	sel = step.SelectMenus()
	require.Len(t, sel, 1)
	require.Len(t, sel[0].Options, 5, "e8=Q, e8=R, e8=B, e8=N, e8=K")

	in, err = h.srv.Select(alice, step, sel[0].CustomID, "e7e8k")
	require.NoError(t, err)
	played, err := in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "played") })
	require.NoError(t, err)
	require.False(t, played.Ephemeral(), "the move is announced as /move announces it")
	require.Equal(t, thread.ID, played.ChannelID)
	require.Contains(t, played.Text(), "played **e8=K**")
	require.NotNil(t, played.Attachment("board.png"))

	// The old picker refuses: the game moved on.
	in, err = h.srv.Select(alice, step, sel[0].CustomID, "e7e8q")
	require.NoError(t, err)
	stale, err := in.WaitMessage(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "moved on") })
	require.NoError(t, err)
	mustBeEphemeral(t, stale, alice)
}
