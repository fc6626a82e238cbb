package commands

import (
	"bytes"
	"image/gif"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/render"
)

// chessFrames is n boards, a rook walking along the first rank and
// back, each with its move highlighted: frames that all differ.
func chessFrames(n int) []render.ChessBoard {
	out := make([]render.ChessBoard, n)
	for i := range out {
		sq := i % 8
		if (i/8)%2 == 1 {
			sq = 7 - sq
		}
		out[i].Squares[sq] = render.ChessPiece{Kind: render.Rook, Colour: render.White}
		out[i].Squares[63-sq] = render.ChessPiece{Kind: render.King, Colour: render.Black}
		out[i].LastMove = []render.Square{render.Square(sq)}
	}
	return out
}

func gifOf(t *testing.T, f *ui.File) *gif.GIF {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(f.Data))
	require.NoError(t, err)
	return g
}

// TestReplayFileFits: a replay that fits is every frame at the first size;
// one that does not keeps fewer frames (the first and the last always),
// then a smaller size, and a replay nothing fits is an error, not a file
// over the limit.
func TestReplayFileFits(t *testing.T) {
	r := render.New()
	rp := &Replay{Name: "x.gif", Chess: chessFrames(40)}
	f, err := replayFile(r, rp, 640, MaxReplayBytes)
	require.NoError(t, err)
	g := gifOf(t, f)
	require.Len(t, g.Image, 40, "every frame")
	require.Equal(t, 480, g.Config.Width, "8x8 replays at most 480 px")
	require.Equal(t, "image/gif", f.ContentType)
	full := len(f.Data)

	// A limit of about a third: fewer frames at the same size.
	f, err = replayFile(r, rp, 640, full/3)
	require.NoError(t, err)
	require.LessOrEqual(t, len(f.Data), full/3)
	g = gifOf(t, f)
	require.Less(t, len(g.Image), 40, "fewer frames")
	require.GreaterOrEqual(t, len(g.Image), 10, "at most four times fewer")
	require.Equal(t, 480, g.Config.Width)

	// Too small for a quarter of the frames at 480: a smaller size.
	f, err = replayFile(r, rp, 640, full/8)
	require.NoError(t, err)
	require.LessOrEqual(t, len(f.Data), full/8)
	require.Less(t, gifOf(t, f).Config.Width, 480)

	_, err = replayFile(r, rp, 640, 100)
	require.Error(t, err, "nothing fits 100 bytes")
	_, err = replayFile(r, &Replay{Name: "none.gif"}, 640, MaxReplayBytes)
	require.Error(t, err)
}

// TestThin: every step-th frame, the first and the last always.
func TestThin(t *testing.T) {
	in := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	require.Equal(t, in, thin(in, 1))
	require.Equal(t, []int{0, 2, 4, 6, 8, 9}, thin(in, 2))
	require.Equal(t, []int{0, 3, 6, 9}, thin(in, 3))
	require.Equal(t, []int{0, 4, 8, 9}, thin(in, 4))
	require.Equal(t, []int{0, 1}, thin([]int{0, 1}, 4))
}
