package commands

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWithRatingLine puts the line in the final effect, else the answer
// that is the final message, else a post of its own; a run again starts
// from the action's own message.
func TestWithRatingLine(t *testing.T) {
	t.Parallel()
	board := Message{Content: "Checkmate."}
	effects := []Effect{{Op: OpPost, Channel: ChannelOfGame, Body: &Message{Content: "x"}}, {Op: OpPost, Channel: ChannelOfGame, Body: &board, Final: true}}
	out := withRatingLine(effects, nil, Message{}, false, "Ratings: …")
	require.Equal(t, "Checkmate.\nRatings: …", out[1].Body.Content)
	require.Equal(t, "Checkmate.", board.Content, "the action's effect untouched")
	resp := &Response{Message: Message{Content: "Mate."}}
	orig := resp.Message
	withRatingLine(nil, resp, orig, true, "R")
	withRatingLine(nil, resp, orig, true, "R")
	require.Equal(t, "Mate.\nR", resp.Content, "once, however many runs")
	out = withRatingLine(nil, nil, Message{}, false, "R")
	require.Len(t, out, 1)
	require.Equal(t, "R", out[0].Body.Content)
}
