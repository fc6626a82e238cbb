package chessui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/games/chess"
)

// TestListingLineFits: the longest listing the engines can give (8 moves
// of the longest text quoted) keeps a refusal within Discord's 2000
// characters, with a reason and an echo at their limits.
func TestListingLineFits(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("d1=Saboteur:", 20)
	l := chess.Listing{Total: 30, MustCapture: true}
	for range chess.MaxListed {
		l.Moves = append(l.Moves, long)
	}
	me := &chess.MoveError{Reason: strings.Repeat("why ", 300), Legal: l}
	var ue *commands.UserError
	require.ErrorAs(t, MoveRefused(strings.Repeat("x", 500), me), &ue)
	msg := ue.Msg
	require.LessOrEqual(t, len([]rune(msg)), 2000)
	require.Equal(t, chess.MaxListed, strings.Count(msg, "`d1=Saboteur:"))
}
