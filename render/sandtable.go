package render

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fogleman/gg"
)

// SandTable image sizes in pixels (edge of the whole square image).
const (
	DefaultSandTableSize = 1000
	MinSandTableSize     = 400
	MaxSandTableSize     = 3000
)

// sandLayout places the 20x20 grid: squares of sq pixels separated by grid
// lines of g pixels, with a thicker midline between ranks 10 and 11, centred
// in margins that hold the coordinates.
type sandLayout struct {
	size, sq, g, mid, x0, y0, margin int
}

func newSandLayout(size int) sandLayout {
	g := max(1, int(math.Round(float64(size)/1000)))
	mid := 2 * g // extra width of the midline
	m := int(math.Round(float64(size) * 0.036))
	sq := (size - 2*m - 21*g - mid) / 20
	w := 20*sq + 21*g
	h := w + mid
	return sandLayout{size: size, sq: sq, g: g, mid: mid, x0: (size-w)/2 + g, y0: (size-h)/2 + g, margin: (size - w) / 2}
}

// cell returns the top-left pixel of a square.
func (l sandLayout) cell(s Square, flipped bool) (x, y int) {
	col, row := l.screen(s, flipped)
	y = l.y0 + row*(l.sq+l.g)
	if row >= 10 {
		y += l.mid
	}
	return l.x0 + col*(l.sq+l.g), y
}

func (l sandLayout) screen(s Square, flipped bool) (col, row int) {
	file, rank := int(s)%SandTableFiles, int(s)/SandTableFiles
	if flipped {
		return 19 - file, rank
	}
	return file, 19 - rank
}

// Square backgrounds: area (0 South's deployment zone, 1 the two ranks no
// one deploys on, 2 North's zone) x shade x movement highlight. The
// highlight is the last turn's route through the square: the screen
// direction it entered by and the one it left by (each 0 for none, else
// compass direction + 1), hl = in*9 + out.
const nHL = 81

func hlIn(hl int) int  { return hl / 9 }
func hlOut(hl int) int { return hl % 9 }

func sandArea(s Square) int {
	switch r := int(s) / SandTableFiles; {
	case r <= 8:
		return 0
	case r <= 10:
		return 1
	}
	return 2
}

func sandShade(s Square) int { return (int(s)%SandTableFiles + int(s)/SandTableFiles + 1) % 2 }

// Tile contents: 0 empty, 1 Crater, then one per (kind, owner, crew).
func pieceContent(p SandPiece) int {
	return 2 + ((int(p.Kind)-1)*3+int(p.Owner))*5 + p.Crew
}

type sandKey struct {
	content, area, shade, hl, target, spotter int
	flipped                                   bool
}

func (k sandKey) int() int {
	f := 0
	if k.flipped {
		f = 1
	}
	return ((((((k.content*3+k.area)*2+k.shade)*nHL+k.hl)*10+k.target)*10+k.spotter)*2 + f)
}

func sandKeyOf(i int) sandKey {
	var k sandKey
	k.flipped = i%2 == 1
	i /= 2
	k.spotter = i % 10
	i /= 10
	k.target = i % 10
	i /= 10
	k.hl = i % nHL
	i /= nHL
	k.shade = i % 2
	i /= 2
	k.area = i % 3
	k.content = i / 3
	return k
}

func areaColour(area, shade int) color.RGBA {
	return [3][2]color.RGBA{{sandSouthL, sandSouthD}, {sandNoMansL, sandNoMansD}, {sandNorthL, sandNorthD}}[area][shade]
}

// drawSandTile draws one square of edge sq pixels.
func drawSandTile(sq int, k sandKey) *image.RGBA {
	dc := gg.NewContext(sq, sq)
	s := float64(sq)
	bg := areaColour(k.area, k.shade)
	if k.hl != 0 {
		t := 0.38 // start or passed square
		if hlOut(k.hl) == 0 {
			t = 0.6 // final square
		}
		bg = mix(bg, moveTint, t)
	}
	dc.SetColor(bg)
	dc.Clear()
	if k.area == 1 && k.hl == 0 {
		// hatching: no one deploys on these two ranks
		dc.SetColor(sandHatch)
		dc.SetLineWidth(math.Max(1, s/30))
		for d := -s; d < s; d += s / 4 {
			dc.DrawLine(d, s, d+s, 0)
		}
		dc.Stroke()
	}
	if k.hl != 0 {
		drawRoute(dc, 0, 0, s, hlIn(k.hl), hlOut(k.hl))
	}
	switch {
	case k.content == 1:
		drawCrater(dc, 0, 0, s)
	case k.content >= 2:
		c := k.content - 2
		crew := c % 5
		owner := Side(c / 5 % 3)
		kind := SandPieceKind(c/15 + 1)
		drawSandPiece(dc, kind, owner, crew, 0, 0, s, forwardAngle(owner, k.flipped))
	}
	if k.target > 0 {
		drawTarget(dc, 0, 0, s, k.target)
	}
	if k.spotter > 0 {
		drawSpotter(dc, 0, 0, s, k.spotter)
	}
	return dc.Image().(*image.RGBA)
}

// forwardAngle is the screen angle a side's Vehicles point to: towards the
// enemy's half; neutral Vehicles point east (sideways), belonging to no one.
func forwardAngle(owner Side, flipped bool) float64 {
	a := 0.0
	switch owner {
	case North:
		a = math.Pi
	case Neutral:
		return math.Pi / 2
	}
	if flipped {
		a += math.Pi
	}
	return a
}

func marginColour(v View) color.RGBA {
	switch v {
	case ViewSouth:
		return rgb(0x10264A)
	case ViewNorth:
		return rgb(0x4A2A08)
	}
	return sandMarginBg
}

// drawSandFrame draws margins, coordinates, grid lines and the midline; the
// squares themselves are tiles copied on top.
func drawSandFrame(l sandLayout, flipped bool, v View) *image.RGBA {
	dc := gg.NewContext(l.size, l.size)
	dc.SetColor(marginColour(v))
	dc.Clear()
	x0, y0 := float64(l.x0-l.g), float64(l.y0-l.g)
	w := float64(20*l.sq + 21*l.g)
	dc.SetColor(sandGrid)
	dc.DrawRectangle(x0, y0, w, w+float64(l.mid))
	dc.Fill()
	dc.SetColor(sandMidline)
	dc.DrawRectangle(x0, float64(l.y0+10*(l.sq+l.g)-l.g), w, float64(l.g+l.mid))
	dc.Fill()
	face := newFace(float64(l.sq) * 0.42)
	defer face.Close()
	dc.SetFontFace(face)
	m := float64(l.margin)
	half := float64(l.sq) / 2
	for i := 0; i < 20; i++ {
		fx, _ := l.cell(Square(i), flipped)
		_, ry := l.cell(Square(i*SandTableFiles), flipped)
		file := string(rune('a' + i))
		dc.SetColor(sandCoord)
		dc.DrawStringAnchored(file, float64(fx)+half, m/2, 0.5, 0.36)
		dc.DrawStringAnchored(file, float64(fx)+half, float64(l.size)-m/2, 0.5, 0.36)
		switch {
		case i <= 8:
			dc.SetColor(southCoord)
		case i >= 11:
			dc.SetColor(northCoord)
		}
		rank := strconv.Itoa(i + 1)
		dc.DrawStringAnchored(rank, m/2, float64(ry)+half, 0.5, 0.36)
		dc.DrawStringAnchored(rank, float64(l.size)-m/2, float64(ry)+half, 0.5, 0.36)
	}
	return dc.Image().(*image.RGBA)
}

// sandPaletteSize is the number of colours of the SandTable palette: the
// whole 256, since the board has many flat colours (zones, highlights,
// three sides) and a full-size image stays near 40 KB anyway (64 colours:
// 38 KB, 256: 45 KB on a busy 1000 px board).
const sandPaletteSize = 256

var sandPalette = sync.OnceValue(sandPaletteBuild)

func sandPaletteBuild() color.Palette {
	keys := []color.RGBA{sandMarginBg, marginColour(ViewSouth), marginColour(ViewNorth), sandCoord, southCoord, northCoord,
		sandGrid, sandMidline, sandHatch, southFill, southDetail, southLine, northFill, northDetail, neutralFill, neutralDet,
		neutralLine, trackFill, trackLine, badgeFill, badgeLine, droneInk, craterRim, craterFill, craterCore, moveArrow}
	for a := 0; a < 3; a++ {
		for sh := 0; sh < 2; sh++ {
			c := areaColour(a, sh)
			keys = append(keys, c, mix(c, moveTint, 0.6), mix(c, moveTint, 0.38))
		}
	}
	l := newSandLayout(DefaultSandTableSize)
	var samples []*image.RGBA
	for _, v := range []View{ViewPublic, ViewSouth, ViewNorth} {
		samples = append(samples, drawSandFrame(l, false, v))
	}
	const sq = 48
	for area := 0; area < 3; area++ {
		for shade := 0; shade < 2; shade++ {
			for _, hl := range []int{0, 1 * 9, 2, 4*9 + 4} {
				for c := 0; c < 2+6*15; c++ {
					if c >= 2 {
						crew, owner, kind := (c-2)%5, Side((c-2)/5%3), SandPieceKind((c-2)/15+1)
						if validPiece(SandPiece{Kind: kind, Owner: owner, Crew: crew}) != nil {
							continue
						}
					}
					samples = append(samples, drawSandTile(sq, sandKey{content: c, area: area, shade: shade, hl: hl}))
				}
				samples = append(samples, drawSandTile(sq, sandKey{content: 2, area: area, shade: shade, hl: hl, target: 1, spotter: 2}))
			}
		}
	}
	return paletteFrom(keys, samples, sandPaletteSize)
}

// sandSet is the sprite set of one SandTable image size.
type sandSet struct {
	layout sandLayout
	tiles  *spriteSet
	frames [2][3]atomic.Pointer[image.Paletted] // by orientation and view
	bases  [2][3]atomic.Pointer[image.Paletted] // frames with empty squares
	pool   sync.Pool
}

func newSandSet(size int) *sandSet {
	l := newSandLayout(size)
	q := newQuantizer(sandPalette())
	return &sandSet{layout: l, tiles: newSpriteSet(q, func(k int) *image.RGBA { return drawSandTile(l.sq, sandKeyOf(k)) })}
}

func (ss *sandSet) frame(flipped bool, v View) *image.Paletted {
	f := 0
	if flipped {
		f = 1
	}
	return ss.tiles.once(&ss.frames[f][v], func() *image.RGBA { return drawSandFrame(ss.layout, flipped, v) })
}

// base returns the frame with every square's empty tile copied in, built
// once per orientation and view; an image starts as a copy of it.
func (ss *sandSet) base(flipped bool, v View) *image.Paletted {
	f := 0
	if flipped {
		f = 1
	}
	p := &ss.bases[f][v]
	if b := p.Load(); b != nil {
		return b
	}
	fr := ss.frame(flipped, v)
	b := image.NewPaletted(fr.Rect, fr.Palette)
	copy(b.Pix, fr.Pix)
	for s := Square(0); s < SandTableFiles*SandTableRanks; s++ {
		x, y := ss.layout.cell(s, flipped)
		blit(b, ss.tiles.tile(sandKey{area: sandArea(s), shade: sandShade(s)}.int()), x, y)
	}
	p.CompareAndSwap(nil, b)
	return p.Load()
}

// SandTableImage renders the board as a size x size paletted image
// (coordinates and margins included), framed for view v: the public frame,
// or a player's private frame in that player's colour. Everything b holds
// is drawn, Drafts and Drones included: b must hold only what the viewer
// may see (render/sandboard fills it from the engine's view). Errors: size outside
// MinSandTableSize..MaxSandTableSize, an unknown view, or an invalid board
// (square off the board, two things on one square, a crew outside 0..4 or
// not matching the owner, a path that is not straight single steps).
func (r *Renderer) SandTableImage(b *SandTableBoard, v View, size int) (*image.Paletted, error) {
	ss, err := r.sandSet(b, v, size)
	if err != nil {
		return nil, err
	}
	img := image.NewPaletted(image.Rect(0, 0, size, size), sandPalette())
	ss.compose(img, b, v)
	return img, nil
}

// SandTablePNG renders like SandTableImage and writes a PNG to w.
func (r *Renderer) SandTablePNG(w io.Writer, b *SandTableBoard, v View, size int) error {
	if r.Observe != nil {
		defer r.observe("sandtable_"+v.String(), time.Now())
	}
	ss, err := r.sandSet(b, v, size)
	if err != nil {
		return err
	}
	img, _ := ss.pool.Get().(*image.Paletted)
	if img == nil {
		img = image.NewPaletted(image.Rect(0, 0, size, size), sandPalette())
	}
	defer ss.pool.Put(img)
	ss.compose(img, b, v)
	return encodePNG(w, img)
}

func (r *Renderer) sandSet(b *SandTableBoard, v View, size int) (*sandSet, error) {
	if size < MinSandTableSize || size > MaxSandTableSize {
		return nil, fmt.Errorf("render: SandTable image size %d px is outside %d..%d", size, MinSandTableSize, MaxSandTableSize)
	}
	if v > ViewNorth {
		return nil, fmt.Errorf("render: unknown SandTable view %d", v)
	}
	if err := b.validate(); err != nil {
		return nil, err
	}
	return r.sand.get(size, func() *sandSet { return newSandSet(size) }), nil
}

// compose fills img: frame, then one tile per square, every field of b
// drawn.
func (ss *sandSet) compose(img *image.Paletted, b *SandTableBoard, v View) {
	const n = SandTableFiles * SandTableRanks
	var content [n]int
	var hl [n]int
	var target, spotter [n]int
	for _, p := range b.Pieces {
		content[p.Square] = pieceContent(p)
	}
	for _, c := range b.Craters {
		content[c] = 1
	}
	// screen direction (compass + 1) of a board step
	sdir := func(a, c Square) int {
		d, _ := direction(a, c)
		if b.Flipped {
			d = (d + 4) % 8
		}
		return d + 1
	}
	var in, out [n]int
	for _, st := range b.InfantrySteps {
		out[st.From] = sdir(st.From, st.To)
		in[st.To] = sdir(st.From, st.To)
	}
	for i := 1; i < len(b.VehiclePath); i++ {
		a, c := b.VehiclePath[i-1], b.VehiclePath[i]
		d, n, _ := line(a, c)
		step := Square(compass[d][0] + SandTableFiles*compass[d][1])
		for j := 0; j < n; j++ {
			out[a] = sdir(a, a+step)
			in[a+step] = sdir(a, a+step)
			a += step
		}
	}
	for s := range hl {
		hl[s] = in[s]*9 + out[s]
	}
	// Secrets are drawn as given: the caller fills b from the viewer's
	// view, which holds only what that viewer may see.
	for _, side := range []Side{South, North} {
		for _, p := range b.Drafts[side] {
			content[p.Square] = pieceContent(p)
		}
	}
	var k [3]int // each owner's Drones are numbered from 1
	for _, d := range b.Drones {
		k[d.Owner] = min(k[d.Owner]+1, 9)
		if target[d.Target] == 0 {
			target[d.Target] = k[d.Owner]
		}
		if spotter[d.Spotter] == 0 {
			spotter[d.Spotter] = k[d.Owner]
		}
	}
	copy(img.Pix, ss.base(b.Flipped, v).Pix)
	for s := Square(0); s < n; s++ {
		if content[s] == 0 && hl[s] == 0 && target[s] == 0 && spotter[s] == 0 {
			continue // the base already shows this empty square
		}
		k := sandKey{content: content[s], area: sandArea(s), shade: sandShade(s), hl: hl[s],
			target: target[s], spotter: spotter[s], flipped: b.Flipped}
		if c := k.content; c < 2 || !SandPieceKind((c-2)/15+1).IsVehicle() {
			k.flipped = false // only Vehicles point differently when flipped
		}
		x, y := ss.layout.cell(s, b.Flipped)
		blit(img, ss.tiles.tile(k.int()), x, y)
	}
}
