package replay

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

// TestReplayFileFits: a replay that fits is every frame at its size (8x8
// games at most 480 px); one that does not is made within the limit
// (smaller, then fewer frames, by the renderer); a replay nothing fits is
// an error, not a file over the limit.
func TestReplayFileFits(t *testing.T) {
	t.Parallel()
	r := render.New()
	rp := &Replay{Name: "x.gif", Chess: chessFrames(40)}
	f, err := File(r, rp, 640, MaxBytes)
	require.NoError(t, err)
	g := gifOf(t, f)
	require.Len(t, g.Image, 40, "every frame")
	require.Equal(t, 480, g.Config.Width, "8x8 replays at most 480 px")
	require.Equal(t, "image/gif", f.ContentType)
	full := len(f.Data)

	f, err = File(r, rp, 640, full/3)
	require.NoError(t, err)
	require.LessOrEqual(t, len(f.Data), full/3)
	g = gifOf(t, f)
	require.True(t, g.Config.Width < 480 || len(g.Image) < 40, "smaller or fewer frames")

	_, err = File(r, rp, 640, 100)
	require.ErrorIs(t, err, render.ErrReplayTooLarge, "nothing fits 100 bytes")
	_, err = File(r, &Replay{Name: "none.gif"}, 640, MaxBytes)
	require.Error(t, err)
}
