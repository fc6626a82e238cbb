package sandtable

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
)

// TestZoomShowsAQuarterAt2x: the live board's Zoom button offers the four
// quarters privately; each shows one quarter of the 20x20 board at twice
// the board's scale (as wide as the whole board image), privately; a
// quarter that does not exist is refused.
func TestZoomShowsAQuarterAt2x(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, mainPos)
	board, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	r, err := a.Handle(click(carol, buttonOf(t, board.Message, "Zoom")))
	require.NoError(t, err, "anyone watching may zoom")
	require.True(t, r.Ephemeral)
	var quarters []string
	for _, row := range r.Rows {
		for _, c := range row {
			quarters = append(quarters, c.(ui.Button).Route)
		}
	}
	require.Len(t, quarters, 4)
	r, err = a.Handle(click(alice, quarters[0]))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Len(t, r.Files, 1)
	img, err := png.Decode(bytes.NewReader(r.Files[0].Data))
	require.NoError(t, err)
	require.Equal(t, imageSize, img.Bounds().Dx(), "a quarter at 2x is as wide as the whole board")
	bad := commands.CustomID{Scope: "g", ID: "sand1", Action: "zoom", Arg: "xx"}.String()
	_, err = a.Handle(click(alice, bad))
	require.Contains(t, commandstest.UserMsg(t, err), "quarter")
}
