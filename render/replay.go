package render

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"time"
)

// Replay defaults and limits.
const (
	// DefaultReplayFrameDelay is how long each board but the last shows.
	DefaultReplayFrameDelay = time.Second
	// DefaultReplayLastDelay is how long the last board shows before the
	// animation starts again.
	DefaultReplayLastDelay = 4 * time.Second
	// MaxReplayBytes is Discord's upload limit for a file (10 MiB): the
	// default cap of a replay's size.
	MaxReplayBytes = 10 << 20
)

// ErrReplayTooLarge is returned (wrapped) when a replay does not fit
// ReplayOptions.MaxBytes even at the smallest image size with only its
// first and last boards.
var ErrReplayTooLarge = errors.New("render: the replay does not fit the size limit")

// ReplayOptions shape an animated GIF replay.
type ReplayOptions struct {
	// Size is the edge of the square image in pixels, as ChessImage's and
	// SandTableImage's size (0: DefaultChessSize or DefaultSandTableSize).
	Size int
	// FrameDelay is how long each board but the last shows (0:
	// DefaultReplayFrameDelay). GIF delays count in hundredths of a
	// second: it is rounded to one, at least 2 (browsers show shorter
	// delays as 10) and at most 655.35 s.
	FrameDelay time.Duration
	// LastDelay is how long the last board shows (0:
	// DefaultReplayLastDelay), rounded as FrameDelay.
	LastDelay time.Duration
	// MaxBytes caps the file's size in bytes (0: MaxReplayBytes, Discord's
	// 10 MiB). A replay that would be larger is made again at a smaller
	// size, down to the smallest image size (MinChessSize,
	// MinSandTableSize), and then with fewer boards (every second one,
	// every fourth, ..., always keeping the first and the last), until it
	// fits; w receives only the replay that fits. If even the first and
	// last board at the smallest size do not fit, nothing is written and
	// the error wraps ErrReplayTooLarge.
	MaxBytes int
}

// ChessReplay writes an animated GIF of the boards in frames, in order,
// each shown as ChessImage draws it (highlights as the board carries
// them), looping forever. Every frame but the first holds only the
// bounding rectangle of the pixels that changed since the board before,
// with the unchanged pixels inside it transparent, drawn over the board
// before (disposal "none"), in one global palette (the technique of
// lichess's lila-gif). Errors: no frames, a size outside
// MinChessSize..MaxChessSize, an invalid board (as ChessImage), or one
// wrapping ErrReplayTooLarge; on any error nothing is written to w.
func (r *Renderer) ChessReplay(w io.Writer, frames []ChessBoard, opt ReplayOptions) error {
	if r.Observe != nil {
		defer r.observe("chess_replay", time.Now())
	}
	if len(frames) == 0 {
		return errors.New("render: a replay needs at least one board")
	}
	if opt.Size == 0 {
		opt.Size = DefaultChessSize
	}
	for i := range frames {
		if _, err := r.chessSet(&frames[i], opt.Size); err != nil {
			return fmt.Errorf("board %d: %w", i+1, err)
		}
	}
	return writeReplay(w, len(frames), opt, MinChessSize, chessPalette(), func(size int) func(i int, img *image.Paletted) {
		cs, _ := r.chessSet(&frames[0], size)
		return func(i int, img *image.Paletted) { cs.compose(img, &frames[i]) }
	})
}

// SandTableReplay writes an animated GIF of the SandTable boards in
// frames, each drawn as SandTableImage draws it in the public frame
// (ViewPublic), in the same way as ChessReplay. Everything the boards
// hold is drawn: a replay is made once a game is over, when both
// deployments and every Drone order are public (render/sandboard builds
// the boards from a game record). Errors as ChessReplay, sizes
// MinSandTableSize..MaxSandTableSize.
func (r *Renderer) SandTableReplay(w io.Writer, frames []SandTableBoard, opt ReplayOptions) error {
	if r.Observe != nil {
		defer r.observe("sandtable_replay", time.Now())
	}
	if len(frames) == 0 {
		return errors.New("render: a replay needs at least one board")
	}
	if opt.Size == 0 {
		opt.Size = DefaultSandTableSize
	}
	for i := range frames {
		if _, err := r.sandSet(&frames[i], ViewPublic, opt.Size); err != nil {
			return fmt.Errorf("board %d: %w", i+1, err)
		}
	}
	return writeReplay(w, len(frames), opt, MinSandTableSize, sandPalette(), func(size int) func(i int, img *image.Paletted) {
		ss, _ := r.sandSet(&frames[0], ViewPublic, size)
		return func(i int, img *image.Paletted) { ss.compose(img, &frames[i], ViewPublic) }
	})
}

// writeReplay encodes n boards, shrinking the size and then thinning the
// boards until the GIF fits opt.MaxBytes, and writes the first that fits.
// drawer returns the function that composes board i at a size.
func writeReplay(w io.Writer, n int, opt ReplayOptions, minSize int, pal color.Palette, drawer func(size int) func(i int, img *image.Paletted)) error {
	limit := opt.MaxBytes
	if limit <= 0 {
		limit = MaxReplayBytes
	}
	frameCS, lastCS := centis(opt.FrameDelay, DefaultReplayFrameDelay), centis(opt.LastDelay, DefaultReplayLastDelay)
	size, step := opt.Size, 1
	for {
		idx := thin(n, step)
		data := encodeReplay(pal, size, idx, drawer(size), frameCS, lastCS)
		if len(data) <= limit {
			_, err := w.Write(data)
			return err
		}
		switch {
		case size > minSize:
			// Bytes grow about with the area: aim a little under the limit.
			next := int(float64(size) * math.Sqrt(float64(limit)/float64(len(data))) * 0.95)
			size = max(minSize, min(next, size-1))
		case len(idx) > 2:
			step *= 2
		default:
			return fmt.Errorf("%w: %d bytes with %d boards at %d px, the limit is %d bytes", ErrReplayTooLarge, len(data), len(idx), size, limit)
		}
	}
}

// thin returns the indexes of the boards kept when only every step-th of n
// is shown: 0, step, 2*step, ..., and always n-1.
func thin(n, step int) []int {
	idx := make([]int, 0, n/step+2)
	for i := 0; i < n; i += step {
		idx = append(idx, i)
	}
	if idx[len(idx)-1] != n-1 {
		idx = append(idx, n-1)
	}
	return idx
}

// centis converts a delay to GIF hundredths of a second (def when d is 0).
func centis(d, def time.Duration) int {
	if d <= 0 {
		d = def
	}
	return max(2, min(65535, int((d+5*time.Millisecond)/(10*time.Millisecond))))
}

// encodeReplay returns the GIF of the boards idx (composed by draw) at
// size: the first whole, each later one as the bounding rectangle of its
// changed pixels with the unchanged ones transparent.
func encodeReplay(pal color.Palette, size int, idx []int, draw func(i int, img *image.Paletted), frameCS, lastCS int) []byte {
	rect := image.Rect(0, 0, size, size)
	prev := image.NewPaletted(rect, pal)
	cur := image.NewPaletted(rect, pal)
	var g gifWriter
	g.begin(size, size, pal)
	var scratch []byte
	for k, i := range idx {
		draw(i, cur)
		delay := frameCS
		if k == len(idx)-1 {
			delay = lastCS
		}
		if k == 0 {
			g.frame(rect, cur.Pix, delay, -1)
		} else {
			r, t, pix := deltaFrame(prev, cur, len(pal), scratch)
			g.frame(r, pix, delay, t)
			scratch = pix
		}
		prev, cur = cur, prev
	}
	return g.end()
}

// deltaFrame returns the frame that turns prev into cur when drawn over
// it: the bounding rectangle r of the pixels that differ, and its pixels
// (rows packed, in dst's memory when it is large enough): those that
// differ as in cur, the others the index t that none of them uses (a 1x1
// transparent frame when nothing differs). If the changed pixels use all
// n colours of the palette, t is -1 and the rectangle is copied whole.
func deltaFrame(prev, cur *image.Paletted, n int, dst []byte) (r image.Rectangle, t int, pix []byte) {
	r = changedRect(prev, cur)
	if r.Empty() {
		r = image.Rect(0, 0, 1, 1)
	}
	w := r.Dx()
	var used [256]bool
	for y := r.Min.Y; y < r.Max.Y; y++ {
		o := cur.PixOffset(r.Min.X, y)
		c, p := cur.Pix[o:o+w], prev.Pix[o:o+w]
		for x := 0; x < w; x++ {
			if x+8 <= w && binary.LittleEndian.Uint64(c[x:]) == binary.LittleEndian.Uint64(p[x:]) {
				x += 7
				continue
			}
			if c[x] != p[x] {
				used[c[x]] = true
			}
		}
	}
	t = -1
	for i := 0; i < n; i++ {
		if !used[i] {
			t = i
			break
		}
	}
	if cap(dst) < w*r.Dy() {
		dst = make([]byte, w*r.Dy())
	}
	pix = dst[:w*r.Dy()]
	tt := uint64(t&0xFF) * 0x0101010101010101
	for y := r.Min.Y; y < r.Max.Y; y++ {
		o := cur.PixOffset(r.Min.X, y)
		c, p := cur.Pix[o:o+w], prev.Pix[o:o+w]
		d := pix[(y-r.Min.Y)*w:][:w]
		if t < 0 {
			copy(d, c)
			continue
		}
		x := 0
		for ; x+8 <= w; x += 8 {
			a := binary.LittleEndian.Uint64(c[x:])
			if a == binary.LittleEndian.Uint64(p[x:]) {
				binary.LittleEndian.PutUint64(d[x:], tt)
				continue
			}
			for j := x; j < x+8; j++ {
				if c[j] != p[j] {
					d[j] = c[j]
				} else {
					d[j] = byte(t)
				}
			}
		}
		for ; x < w; x++ {
			if c[x] != p[x] {
				d[x] = c[x]
			} else {
				d[x] = byte(t)
			}
		}
	}
	return r, t, pix
}

// changedRect returns the bounding rectangle of the pixels where a and b
// (same bounds, origin 0,0) differ; empty when they are equal.
func changedRect(a, b *image.Paletted) image.Rectangle {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	row := func(y int) (x, y2 []byte) { return a.Pix[y*a.Stride:][:w], b.Pix[y*b.Stride:][:w] }
	y0 := 0
	for y0 < h {
		p, q := row(y0)
		if string(p) != string(q) {
			break
		}
		y0++
	}
	if y0 == h {
		return image.Rectangle{}
	}
	y1 := h - 1
	for {
		p, q := row(y1)
		if string(p) != string(q) {
			break
		}
		y1--
	}
	x0, x1 := w, -1
	for y := y0; y <= y1; y++ {
		p, q := row(y)
		for x := 0; x < x0; x++ {
			if p[x] != q[x] {
				x0 = x
				break
			}
		}
		for x := w - 1; x > x1; x-- {
			if p[x] != q[x] {
				x1 = x
				break
			}
		}
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}
