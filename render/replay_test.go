package render

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// randomGame returns n+1 boards of a made-up game from the start position:
// each ply moves a random piece of the side to move to a random square
// that holds no piece of its own (capturing what is there), with the
// move's squares highlighted; a few boards carry a check, capture marks
// or the other orientation, and one ply repeats the board before.
func randomGame(t testing.TB, n int, seed uint64) []ChessBoard {
	rng := rand.New(rand.NewPCG(seed, 1))
	b := placement(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
	out := []ChessBoard{b}
	side := White
	for ply := 1; ply <= n; ply++ {
		b.LastMove, b.Check, b.CaptureMarks = nil, nil, nil
		var own []Square
		for s, p := range b.Squares {
			if p.Kind != NoPiece && p.Colour == side {
				own = append(own, Square(s))
			}
		}
		from := own[rng.IntN(len(own))]
		to := Square(rng.IntN(64))
		for b.Squares[to].Kind != NoPiece && b.Squares[to].Colour == side {
			to = Square(rng.IntN(64))
		}
		b.Squares[to], b.Squares[from] = b.Squares[from], ChessPiece{}
		b.LastMove = []Square{from, to}
		switch ply % 17 {
		case 5:
			b.Check = []Square{to}
		case 9:
			b.CaptureMarks = []Square{from, to, 0}
		case 13:
			out = append(out, b) // the same board twice: an empty change
		}
		b.Flipped = ply%37 == 36
		out = append(out, b)
		side = 1 - side
	}
	return out
}

// composed decodes a GIF and returns the palette index image shown after
// each frame (every frame drawn over the ones before, transparent pixels
// keeping what is under them), checking the global palette and that
// every frame keeps what is under it (disposal none).
func composed(t *testing.T, data []byte, pal color.Palette) (*gif.GIF, [][]byte) {
	t.Helper()
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding the replay: %v", err)
	}
	gp, ok := g.Config.ColorModel.(color.Palette)
	if !ok || len(gp) < len(pal) {
		t.Fatalf("global palette %T of %d colours, want %d", g.Config.ColorModel, len(gp), len(pal))
	}
	for i, c := range pal {
		r1, g1, b1, _ := c.RGBA()
		r2, g2, b2, _ := gp[i].RGBA()
		if r1>>8 != r2>>8 || g1>>8 != g2>>8 || b1>>8 != b2>>8 {
			t.Fatalf("global palette entry %d is %v, want %v", i, gp[i], c)
		}
	}
	w, h := g.Config.Width, g.Config.Height
	canvas := make([]byte, w*h)
	var out [][]byte
	for k, fr := range g.Image {
		if k > 0 && g.Disposal[k] != gif.DisposalNone {
			t.Errorf("frame %d has disposal %d, want none", k, g.Disposal[k])
		}
		tr := -1
		for i, c := range fr.Palette {
			if _, _, _, a := c.RGBA(); a == 0 {
				tr = i
			}
		}
		for y := fr.Rect.Min.Y; y < fr.Rect.Max.Y; y++ {
			for x := fr.Rect.Min.X; x < fr.Rect.Max.X; x++ {
				if v := fr.ColorIndexAt(x, y); int(v) != tr {
					canvas[y*w+x] = v
				}
			}
		}
		out = append(out, append([]byte(nil), canvas...))
	}
	return g, out
}

func TestChessReplayFramesAreTheBoards(t *testing.T) {
	t.Parallel()
	r := New()
	boards := randomGame(t, 60, 7)
	var buf bytes.Buffer
	opt := ReplayOptions{Size: 320, FrameDelay: 250 * time.Millisecond, LastDelay: 3 * time.Second}
	if err := r.ChessReplay(&buf, boards, opt); err != nil {
		t.Fatal(err)
	}
	g, frames := composed(t, buf.Bytes(), chessPalette())
	if len(frames) != len(boards) || g.Config.Width != 320 || g.Config.Height != 320 {
		t.Fatalf("%d frames of %dx%d, want %d of 320x320", len(frames), g.Config.Width, g.Config.Height, len(boards))
	}
	for i := range boards {
		want, err := r.ChessImage(&boards[i], 320)
		if err != nil {
			t.Fatal(err)
		}
		if n := countDiff(frames[i], want.Pix); n != 0 {
			t.Fatalf("frame %d differs from ChessImage of its board in %d pixels", i, n)
		}
		wantDelay := 25
		if i == len(boards)-1 {
			wantDelay = 300
		}
		if g.Delay[i] != wantDelay {
			t.Errorf("frame %d delay %d cs, want %d", i, g.Delay[i], wantDelay)
		}
	}
	// Later frames hold only their change: a plain move (no orientation
	// change) covers at most the rectangle of four squares' span, far less
	// than the board; the repeated board is one transparent pixel.
	whole := g.Image[0].Rect
	small, tiny := 0, 0
	for k := 1; k < len(g.Image); k++ {
		a := g.Image[k].Rect.Dx() * g.Image[k].Rect.Dy()
		if a < whole.Dx()*whole.Dy()/2 {
			small++
		}
		if a == 1 {
			tiny++
		}
	}
	if small < len(g.Image)/3 || tiny == 0 {
		t.Errorf("%d of %d later frames are under half the image, %d are one pixel: changed regions are not cut out", small, len(g.Image)-1, tiny)
	}
	if whole != image.Rect(0, 0, 320, 320) {
		t.Errorf("first frame %v, want the whole image", whole)
	}
}

func countDiff(a, b []byte) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n + len(b) - len(a)
}

func TestReplayDefaultDelaysAndSize(t *testing.T) {
	t.Parallel()
	r := New()
	boards := randomGame(t, 3, 1)
	var buf bytes.Buffer
	if err := r.ChessReplay(&buf, boards, ReplayOptions{}); err != nil {
		t.Fatal(err)
	}
	g, _ := composed(t, buf.Bytes(), chessPalette())
	if g.Config.Width != DefaultChessSize || g.LoopCount != 0 {
		t.Errorf("width %d loop %d, want %d and forever (0)", g.Config.Width, g.LoopCount, DefaultChessSize)
	}
	want := []int{100, 100, 100, 400}
	for i, d := range g.Delay {
		if d != want[i] {
			t.Errorf("delays %v, want %v", g.Delay, want)
			break
		}
	}
	// One board alone shows for the last delay.
	buf.Reset()
	if err := r.ChessReplay(&buf, boards[:1], ReplayOptions{Size: 200, LastDelay: 1500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	g, _ = composed(t, buf.Bytes(), chessPalette())
	if len(g.Image) != 1 || g.Delay[0] != 150 {
		t.Errorf("one board: %d frames, delays %v, want 1 frame of 150 cs", len(g.Image), g.Delay)
	}
}

func TestReplayFitsMaxBytes(t *testing.T) {
	t.Parallel()
	r := New()
	boards := randomGame(t, 40, 3)
	var full bytes.Buffer
	if err := r.ChessReplay(&full, boards, ReplayOptions{Size: 480}); err != nil {
		t.Fatal(err)
	}
	// Half the bytes: a smaller image, every board kept.
	var buf bytes.Buffer
	limit := full.Len() / 2
	if err := r.ChessReplay(&buf, boards, ReplayOptions{Size: 480, MaxBytes: limit}); err != nil {
		t.Fatal(err)
	}
	g, frames := composed(t, buf.Bytes(), chessPalette())
	size := g.Config.Width
	if buf.Len() > limit || size >= 480 || size < MinChessSize || len(frames) != len(boards) {
		t.Fatalf("limit %d: %d bytes, %d px, %d frames (want within the limit, smaller than 480, %d frames)", limit, buf.Len(), size, len(frames), len(boards))
	}
	last, _ := r.ChessImage(&boards[len(boards)-1], size)
	if countDiff(frames[len(frames)-1], last.Pix) != 0 {
		t.Error("the shrunk replay's last frame is not the last board")
	}
	// Less than the smallest size holds: fewer boards, first and last kept.
	var small bytes.Buffer
	if err := r.ChessReplay(&small, boards, ReplayOptions{Size: MinChessSize}); err != nil {
		t.Fatal(err)
	}
	limit = small.Len() * 2 / 3
	buf.Reset()
	if err := r.ChessReplay(&buf, boards, ReplayOptions{Size: 480, MaxBytes: limit}); err != nil {
		t.Fatal(err)
	}
	g, frames = composed(t, buf.Bytes(), chessPalette())
	if buf.Len() > limit || g.Config.Width != MinChessSize || len(frames) >= len(boards) || len(frames) < 2 {
		t.Fatalf("limit %d: %d bytes, %d px, %d frames (want within the limit, %d px, fewer than %d)", limit, buf.Len(), g.Config.Width, len(frames), MinChessSize, len(boards))
	}
	first, _ := r.ChessImage(&boards[0], MinChessSize)
	last, _ = r.ChessImage(&boards[len(boards)-1], MinChessSize)
	if countDiff(frames[0], first.Pix) != 0 || countDiff(frames[len(frames)-1], last.Pix) != 0 {
		t.Error("the thinned replay does not start with the first board and end with the last")
	}
	if g.Delay[len(g.Delay)-1] != 400 {
		t.Errorf("the thinned replay's last delay is %d cs, want 400", g.Delay[len(g.Delay)-1])
	}
	// Too small for anything: an error, nothing written.
	buf.Reset()
	err := r.ChessReplay(&buf, boards, ReplayOptions{Size: 480, MaxBytes: 500})
	if !errors.Is(err, ErrReplayTooLarge) || buf.Len() != 0 {
		t.Errorf("limit 500 bytes: error %v, %d bytes written; want ErrReplayTooLarge and nothing", err, buf.Len())
	}
}

func TestReplayBadInputWritesNothing(t *testing.T) {
	t.Parallel()
	r := New()
	good := randomGame(t, 2, 1)
	bad := append([]ChessBoard(nil), good...)
	bad[2].LastMove = []Square{64}
	cases := map[string]func(w *bytes.Buffer) error{
		"no boards":      func(w *bytes.Buffer) error { return r.ChessReplay(w, nil, ReplayOptions{}) },
		"size too small": func(w *bytes.Buffer) error { return r.ChessReplay(w, good, ReplayOptions{Size: MinChessSize - 1}) },
		"invalid board":  func(w *bytes.Buffer) error { return r.ChessReplay(w, bad, ReplayOptions{Size: 200}) },
		"no sand boards": func(w *bytes.Buffer) error { return r.SandTableReplay(w, nil, ReplayOptions{}) },
		"sand size": func(w *bytes.Buffer) error {
			return r.SandTableReplay(w, []SandTableBoard{{}}, ReplayOptions{Size: 100})
		},
		"sand invalid": func(w *bytes.Buffer) error {
			return r.SandTableReplay(w, []SandTableBoard{{}, {Craters: []Square{400}}}, ReplayOptions{Size: 400})
		},
	}
	for name, f := range cases {
		var buf bytes.Buffer
		if err := f(&buf); err == nil || buf.Len() != 0 {
			t.Errorf("%s: error %v, %d bytes written; want an error and nothing", name, err, buf.Len())
		}
	}
}

func TestSandTableReplayFramesAreTheBoards(t *testing.T) {
	t.Parallel()
	r := New()
	a := fullBoard(true)
	b := midgame(t)
	c := b
	c.Drones = c.Drones[:1]
	c.Craters = nil
	c.VehiclePath, c.InfantrySteps = nil, []Step{{sq(t, "a6", 20), sq(t, "a7", 20)}}
	boards := []SandTableBoard{{}, a, b, c, c}
	var buf bytes.Buffer
	if err := r.SandTableReplay(&buf, boards, ReplayOptions{Size: 500}); err != nil {
		t.Fatal(err)
	}
	g, frames := composed(t, buf.Bytes(), sandPalette())
	if len(frames) != len(boards) {
		t.Fatalf("%d frames, want %d", len(frames), len(boards))
	}
	for i := range boards {
		want, err := r.SandTableImage(&boards[i], ViewPublic, 500)
		if err != nil {
			t.Fatal(err)
		}
		if n := countDiff(frames[i], want.Pix); n != 0 {
			t.Errorf("frame %d differs from SandTableImage of its board in %d pixels", i, n)
		}
	}
	if r := g.Image[3].Rect; r.Dx() >= 500 && r.Dy() >= 500 {
		t.Errorf("frame 3 covers %v: not cut to its change", r)
	}
}

// TestDeltaFrameWithoutAFreeColour: when the changed pixels use every
// colour of the palette, no index is free for transparency and the
// changed rectangle is written whole, still composing to the board.
func TestDeltaFrameWithoutAFreeColour(t *testing.T) {
	t.Parallel()
	pal := make(color.Palette, 256)
	for i := range pal {
		pal[i] = color.RGBA{uint8(i), uint8(255 - i), 0, 255}
	}
	// Board 0 has 0, 1, ... 255 in 256 pixels, board 1 the same pixels
	// one colour on: every pixel changes and the change uses all colours.
	draw := func(i int, img *image.Paletted) {
		clear(img.Pix)
		for x := 0; x < 256; x++ {
			img.Pix[20*img.Stride+x] = uint8(x + i)
		}
	}
	g, frames := composed(t, encodeReplay(pal, 64, []int{0, 1, 0}, draw, 10, 10), pal)
	for _, c := range g.Image[1].Palette {
		if _, _, _, a := c.RGBA(); a == 0 {
			t.Error("frame 1 has a transparent colour, though its change uses all 256")
		}
	}
	for i, want := range []int{0, 1, 0} {
		img := image.NewPaletted(image.Rect(0, 0, 64, 64), pal)
		draw(want, img)
		if n := countDiff(frames[i], img.Pix); n != 0 {
			t.Errorf("frame %d differs in %d pixels", i, n)
		}
	}
}

// uciGame returns the boards of a game given as UCI moves from the start
// position (castling moves the rook too; en passant and promotion as UCI
// writes them), each with its move highlighted.
func uciGame(t testing.TB, moves string) []ChessBoard {
	b := placement(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
	out := []ChessBoard{b}
	kinds := map[byte]ChessPieceKind{'q': Queen, 'r': Rook, 'b': Bishop, 'n': Knight}
	for _, m := range strings.Fields(moves) {
		from, to := sq(t, m[0:2], 8), sq(t, m[2:4], 8)
		p := b.Squares[from]
		if p.Kind == Pawn && from%8 != to%8 && b.Squares[to].Kind == NoPiece {
			b.Squares[from/8*8+to%8] = ChessPiece{} // en passant: the pawn beside
		}
		if p.Kind == King && (to-from == 2 || from-to == 2) {
			rf, rt := from+3, from+1
			if to < from {
				rf, rt = from-4, from-1
			}
			b.Squares[rt], b.Squares[rf] = b.Squares[rf], ChessPiece{}
		}
		if len(m) == 5 {
			p.Kind = kinds[m[4]]
		}
		b.Squares[to], b.Squares[from] = p, ChessPiece{}
		b.LastMove = []Square{from, to}
		out = append(out, b)
	}
	return out
}

// BenchmarkChessReplay100: a 100-ply game (the first 100 plies of an
// engine game, testdata/game100.uci) at 480 px (issue 17's target: at most
// 100 ms and 1 MB; lila-gif: 93 frames in about 60 ms, 348 KiB).
func BenchmarkChessReplay100(b *testing.B) {
	data, err := os.ReadFile("testdata/game100.uci")
	if err != nil {
		b.Fatal(err)
	}
	benchChessReplay(b, uciGame(b, string(data)))
}

// BenchmarkChessReplayRandom100: 100 random plies, each between two random
// squares (changed rectangles far larger than in a real game): a worst
// case.
func BenchmarkChessReplayRandom100(b *testing.B) {
	benchChessReplay(b, randomGame(b, 100, 11))
}

func benchChessReplay(b *testing.B, boards []ChessBoard) {
	r := New()
	var buf bytes.Buffer
	if err := r.ChessReplay(&buf, boards, ReplayOptions{Size: 480}); err != nil {
		b.Fatal(err)
	}
	cpu := CPUTime()
	for b.Loop() {
		buf.Reset()
		if err := r.ChessReplay(&buf, boards, ReplayOptions{Size: 480}); err != nil {
			b.Fatal(err)
		}
	}
	ReportCPU(b, cpu)
	b.ReportMetric(float64(buf.Len()), "bytes/gif")
	b.ReportMetric(float64(len(boards)), "frames")
}
