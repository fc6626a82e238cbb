package render

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fogleman/gg"
)

// Chess image sizes in pixels (edge of the whole square image).
const (
	DefaultChessSize = 640
	MinChessSize     = 160
	MaxChessSize     = 2048
)

var (
	chessMargin      = rgb(0x302E2B)
	chessCoord       = rgb(0xC9C2B6)
	chessLight       = rgb(0xEBD9B8)
	chessDark        = rgb(0xB18A65)
	chessLastTint    = rgb(0xCDD04A)
	chessLastLight   = mix(chessLight, chessLastTint, 0.55)
	chessLastDark    = mix(chessDark, chessLastTint, 0.45)
	chessCheckRed    = rgb(0xE2231A)
	chessMarkFill    = rgb(0xD9480F)
	chessMarkLine    = rgb(0xFFF4E6)
	chessWhitePieces = chessStyle{fill: rgb(0xF7F4EC), line: rgb(0x1B1B1B), detail: rgb(0x1B1B1B)}
	chessBlackPieces = chessStyle{fill: rgb(0x2E2B29), line: rgb(0x0E0E0E), detail: rgb(0xD9D4CA)}
)

// Tile keys: content (0 empty, 1..6 White pawn..king, 7..12 Black) x square
// colour (0 light, 1 dark) x highlight (0 none, 1 last move, 2 check) x mark.
const (
	chessContents   = 13
	chessHighlights = 3
	chessKeys       = chessContents * 2 * chessHighlights * 2
)

func chessKey(content, dark, hl, mark int) int {
	return ((content*2+dark)*chessHighlights+hl)*2 + mark
}

// chessLayout places the board inside the image: equal margins on all four
// sides hold the coordinates.
type chessLayout struct {
	size, sq, x0, y0, margin int
}

func newChessLayout(size int) chessLayout {
	m := int(math.Round(float64(size) * 0.05))
	sq := (size - 2*m) / 8
	off := (size - 8*sq) / 2
	return chessLayout{size: size, sq: sq, x0: off, y0: off, margin: off}
}

// squareAt returns the top-left pixel of a square for the given orientation.
func (l chessLayout) squareAt(s Square, flipped bool) (x, y int) {
	file, rank := int(s)%8, int(s)/8
	col, row := file, 7-rank
	if flipped {
		col, row = 7-file, rank
	}
	return l.x0 + col*l.sq, l.y0 + row*l.sq
}

// chessPaletteSize is the number of colours of the chess palette. Fewer
// colours make smaller files (anti-aliased edges repeat more) and 64 still
// keeps edges smooth: on the 640 px start position, 256 colours gave
// 26.1 KB, 128 gave 24.4 KB, 64 gave 22.0 KB, 32 gave 19.9 KB.
const chessPaletteSize = 64

var chessPalette = sync.OnceValue(chessPaletteBuild)

func chessPaletteBuild() color.Palette {
	keys := []color.RGBA{chessMargin, chessCoord, chessLight, chessDark, chessLastLight, chessLastDark,
		chessWhitePieces.fill, chessWhitePieces.line, chessBlackPieces.fill, chessBlackPieces.line,
		chessBlackPieces.detail, chessMarkFill, chessMarkLine}
	l := newChessLayout(640)
	samples := []*image.RGBA{drawChessFrame(l, false)}
	for k := 0; k < chessKeys; k++ {
		samples = append(samples, drawChessTile(80, k))
	}
	return paletteFrom(keys, samples, chessPaletteSize)
}

// chessSet is the sprite set of one image size.
type chessSet struct {
	layout chessLayout
	tiles  *spriteSet
	frames [2]atomic.Pointer[image.Paletted] // by orientation
	pool   sync.Pool                         // *image.Paletted scratch images for PNG output
}

func newChessSet(size int) *chessSet {
	l := newChessLayout(size)
	q := newQuantizer(chessPalette())
	return &chessSet{layout: l, tiles: newSpriteSet(q, func(k int) *image.RGBA { return drawChessTile(l.sq, k) })}
}

func (cs *chessSet) frame(flipped bool) *image.Paletted {
	i := 0
	if flipped {
		i = 1
	}
	return cs.tiles.once(&cs.frames[i], func() *image.RGBA { return drawChessFrame(cs.layout, flipped) })
}

// drawChessFrame draws the empty board with its margins and coordinates.
func drawChessFrame(l chessLayout, flipped bool) *image.RGBA {
	dc := gg.NewContext(l.size, l.size)
	dc.SetColor(chessMargin)
	dc.Clear()
	for s := Square(0); s < 64; s++ {
		x, y := l.squareAt(s, flipped)
		dc.SetColor(chessLight)
		if (int(s)%8+int(s)/8)%2 == 0 {
			dc.SetColor(chessDark)
		}
		dc.DrawRectangle(float64(x), float64(y), float64(l.sq), float64(l.sq))
		dc.Fill()
	}
	face := newFace(float64(l.margin) * 0.62)
	defer face.Close()
	dc.SetFontFace(face)
	dc.SetColor(chessCoord)
	m := float64(l.margin)
	for i := 0; i < 8; i++ {
		x, y := l.squareAt(Square(i*9), flipped) // a1, b2, … h8: one square per file and rank
		cx, cy := float64(x)+float64(l.sq)/2, float64(y)+float64(l.sq)/2
		file := string(rune('a' + i))
		rank := string(rune('1' + i))
		dc.DrawStringAnchored(file, cx, m/2-1, 0.5, 0.35)
		dc.DrawStringAnchored(file, cx, float64(l.size)-m/2-1, 0.5, 0.35)
		dc.DrawStringAnchored(rank, m/2, cy, 0.5, 0.35)
		dc.DrawStringAnchored(rank, float64(l.size)-m/2, cy, 0.5, 0.35)
	}
	return dc.Image().(*image.RGBA)
}

// drawChessTile draws one square of edge sq pixels for a tile key.
func drawChessTile(sq, key int) *image.RGBA {
	mark := key % 2
	hl := key / 2 % chessHighlights
	dark := key / (2 * chessHighlights) % 2
	content := key / (2 * chessHighlights * 2)
	dc := gg.NewContext(sq, sq)
	s := float64(sq)
	drawChessSquare(dc, 0, 0, s, dark == 1, hl, mark == 1)
	if content > 0 {
		st := chessWhitePieces
		if content > 6 {
			st = chessBlackPieces
		}
		drawChessPiece(dc, ChessPieceKind((content-1)%6+1), st, 0, 0, s)
	}
	return dc.Image().(*image.RGBA)
}

// drawChessSquare paints a square's background, highlight and capture mark.
func drawChessSquare(dc *gg.Context, x, y, s float64, dark bool, hl int, mark bool) {
	bg := chessLight
	if dark {
		bg = chessDark
	}
	if hl == 1 {
		bg = chessLastLight
		if dark {
			bg = chessLastDark
		}
	}
	dc.SetColor(bg)
	dc.DrawRectangle(x, y, s, s)
	dc.Fill()
	if hl == 2 {
		g := gg.NewRadialGradient(x+s/2, y+s/2, 0, x+s/2, y+s/2, s*0.62)
		g.AddColorStop(0, chessCheckRed)
		g.AddColorStop(0.5, color.NRGBA{chessCheckRed.R, chessCheckRed.G, chessCheckRed.B, 190})
		g.AddColorStop(1, color.NRGBA{chessCheckRed.R, chessCheckRed.G, chessCheckRed.B, 0})
		dc.SetFillStyle(g)
		dc.DrawRectangle(x, y, s, s)
		dc.Fill()
	}
	if mark {
		t := s * 0.34
		dc.MoveTo(x, y)
		dc.LineTo(x+t, y)
		dc.LineTo(x, y+t)
		dc.ClosePath()
		dc.SetColor(chessMarkFill)
		dc.FillPreserve()
		dc.SetColor(chessMarkLine)
		dc.SetLineWidth(math.Max(1, s*0.025))
		dc.Stroke()
	}
}

// Renderer draws board images. It caches sprites per image size and is safe
// for concurrent use by many goroutines; the zero value is not usable, call
// New.
type Renderer struct {
	chess *sizeCache[int, chessSet]
	sand  *sizeCache[int, sandSet]
	// Observe, when set before use, is told how long each PNG took to
	// render and encode, and what it was: "chess", or "sandtable_" and the
	// view ("sandtable_public"); and each replay: "chess_replay",
	// "sandtable_replay". The bot's metrics set it.
	Observe func(what string, took time.Duration)
}

// The sprite caches every Renderer of the process shares: sprites depend
// only on the size, so a second Renderer (each App, each test's bot) draws
// none again.
var (
	sharedChess sizeCache[int, chessSet]
	sharedSand  sizeCache[int, sandSet]
)

// New returns a Renderer; sprites are drawn on first use of a size and
// kept for the whole process (at most a few sizes per game kind).
func New() *Renderer { return &Renderer{chess: &sharedChess, sand: &sharedSand} }

func (r *Renderer) observe(what string, start time.Time) { r.Observe(what, time.Since(start)) }

// ChessImage renders b as a size x size paletted image (coordinates and
// margins included). Errors: size outside MinChessSize..MaxChessSize, an
// unknown piece kind or colour, a highlight square outside 0..63.
func (r *Renderer) ChessImage(b *ChessBoard, size int) (*image.Paletted, error) {
	cs, err := r.chessSet(b, size)
	if err != nil {
		return nil, err
	}
	img := image.NewPaletted(image.Rect(0, 0, size, size), chessPalette())
	cs.compose(img, b)
	return img, nil
}

// ChessPNG renders b like ChessImage and writes it to w as a PNG.
func (r *Renderer) ChessPNG(w io.Writer, b *ChessBoard, size int) error {
	if r.Observe != nil {
		defer r.observe("chess", time.Now())
	}
	cs, err := r.chessSet(b, size)
	if err != nil {
		return err
	}
	img, _ := cs.pool.Get().(*image.Paletted)
	if img == nil {
		img = image.NewPaletted(image.Rect(0, 0, size, size), chessPalette())
	}
	defer cs.pool.Put(img)
	cs.compose(img, b)
	return encodePNG(w, img)
}

func (r *Renderer) chessSet(b *ChessBoard, size int) (*chessSet, error) {
	if size < MinChessSize || size > MaxChessSize {
		return nil, fmt.Errorf("render: chess image size %d px is outside %d..%d", size, MinChessSize, MaxChessSize)
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	return r.chess.get(size, func() *chessSet { return newChessSet(size) }), nil
}

// compose copies the frame and then one tile per non-plain square into img.
func (cs *chessSet) compose(img *image.Paletted, b *ChessBoard) {
	copy(img.Pix, cs.frame(b.Flipped).Pix)
	var hl [64]uint8
	var mark [64]bool
	for _, s := range b.LastMove {
		hl[s] = 1
	}
	for _, s := range b.Check {
		hl[s] = 2
	}
	for _, s := range b.CaptureMarks {
		mark[s] = true
	}
	for s := 0; s < 64; s++ {
		p := b.Squares[s]
		if p.Kind == NoPiece && hl[s] == 0 && !mark[s] {
			continue
		}
		content := 0
		if p.Kind != NoPiece {
			content = int(p.Kind) + 6*int(p.Colour)
		}
		dark := 1 - (s%8+s/8)%2
		m := 0
		if mark[s] {
			m = 1
		}
		x, y := cs.layout.squareAt(Square(s), b.Flipped)
		blit(img, cs.tiles.tile(chessKey(content, dark, int(hl[s]), m)), x, y)
	}
}
