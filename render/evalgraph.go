package render

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// EvalGraph is a finished game's evaluation graph as lichess draws it:
// White's winning chances (0 to 100) at the start and after every ply, the
// area under the curve White's (light: the higher the curve, the more of
// the plot is White's), above it Black's (dark), and the judged moves
// marked.
type EvalGraph struct {
	// WinPercents are White's winning chances in percent: the start
	// position's first, then one a ply (at least the start).
	WinPercents []float64
	// FirstMove is the full-move number of the first ply (1 for a game
	// from the start position); BlackFirst says Black made it.
	FirstMove  int
	BlackFirst bool
	// Marks are the judged plies.
	Marks []EvalMark
	// Title is a line above the graph ("" : none); Sides are the two
	// sides' lines shown in the graph's halves (White's at the bottom, in
	// White's light area), e.g.
	// "White: accuracy 91%".
	Title string
	Sides [2]string
}

// EvalMark marks ply Ply (from 1) with a judgement's severity: 1 an
// inaccuracy, 2 a mistake, 3 a blunder (lichess's colours).
type EvalMark struct {
	Ply      int
	Severity int
}

// Evaluation graph sizes: EvalGraphPNG refuses others.
const (
	MinEvalGraphWidth, MaxEvalGraphWidth   = 300, 2000
	MinEvalGraphHeight, MaxEvalGraphHeight = 150, 1200
)

var (
	graphBackground = color.RGBA{0x2b, 0x2d, 0x31, 0xff} // Discord's dark theme
	graphWhite      = color.RGBA{0xf2, 0xf2, 0xf2, 0xff}
	graphBlack      = color.RGBA{0x11, 0x11, 0x11, 0xff}
	graphPlot       = color.RGBA{0x6e, 0x6e, 0x6e, 0xff} // the plot's background (no advantage drawn)
	graphLine       = color.RGBA{0xd8, 0x8a, 0x2b, 0xff} // the evaluation line, lichess's orange
	graphGrid       = color.RGBA{0x9a, 0x9a, 0x9a, 0xff}
	graphText       = color.RGBA{0xdc, 0xdd, 0xde, 0xff}
	graphMarks      = [4]color.RGBA{{}, {0x56, 0xb4, 0xe9, 0xff}, {0xe6, 0x9f, 0x00, 0xff}, {0xdb, 0x30, 0x31, 0xff}}
	graphMarkNames  = [4]string{"", "inaccuracy", "mistake", "blunder"}
)

// EvalGraphPNG draws g as a width x height PNG and writes it to w.
// Errors: a size outside the bounds, no point, a point outside 0..100 or
// not a number, a mark outside the plies.
func (r *Renderer) EvalGraphPNG(w io.Writer, g *EvalGraph, width, height int) error {
	if r.Observe != nil {
		defer r.observe("eval_graph", time.Now())
	}
	if width < MinEvalGraphWidth || width > MaxEvalGraphWidth || height < MinEvalGraphHeight || height > MaxEvalGraphHeight {
		return fmt.Errorf("render: evaluation graph size %dx%d outside %dx%d..%dx%d", width, height,
			MinEvalGraphWidth, MinEvalGraphHeight, MaxEvalGraphWidth, MaxEvalGraphHeight)
	}
	if len(g.WinPercents) == 0 {
		return fmt.Errorf("render: an evaluation graph needs at least the start's point")
	}
	for i, p := range g.WinPercents {
		if math.IsNaN(p) || p < 0 || p > 100 {
			return fmt.Errorf("render: evaluation graph point %d is %v, want 0..100", i, p)
		}
	}
	plies := len(g.WinPercents) - 1
	for _, m := range g.Marks {
		if m.Ply < 1 || m.Ply > plies || m.Severity < 1 || m.Severity > 3 {
			return fmt.Errorf("render: evaluation graph mark %+v outside plies 1..%d or severities 1..3", m, plies)
		}
	}
	dc := gg.NewContext(width, height)
	dc.SetColor(graphBackground)
	dc.Clear()

	scale := float64(height) / 300
	small := newFace(math.Round(13 * scale))
	defer small.Close()
	big := newFace(math.Round(15 * scale))
	defer big.Close()

	// The plot: left margin for the y labels, bottom for the move numbers,
	// top for the title and the legend.
	left, right := math.Round(66*scale), float64(width)-math.Round(14*scale)
	top, bottom := math.Round(28*scale), float64(height)-math.Round(30*scale)
	pw, ph := right-left, bottom-top
	mid := top + ph/2
	xOf := func(i int) float64 {
		if plies == 0 {
			return left
		}
		return left + pw*float64(i)/float64(plies)
	}
	yOf := func(p float64) float64 { return bottom - ph*p/100 }

	dc.SetColor(graphPlot)
	dc.DrawRectangle(left, top, pw, ph)
	dc.Fill()

	// Black's area from the top of the plot down to the curve, White's
	// from the curve down to the bottom: each side's share at a glance.
	dc.SetColor(graphBlack)
	dc.MoveTo(left, top)
	for i, p := range g.WinPercents {
		dc.LineTo(xOf(i), yOf(p))
	}
	dc.LineTo(xOf(plies), top)
	dc.ClosePath()
	dc.Fill()
	dc.SetColor(graphWhite)
	dc.MoveTo(left, bottom)
	for i, p := range g.WinPercents {
		dc.LineTo(xOf(i), yOf(p))
	}
	dc.LineTo(xOf(plies), bottom)
	dc.ClosePath()
	dc.Fill()

	// The grid: the even line and the quarters, dashed.
	dc.SetColor(graphGrid)
	dc.SetLineWidth(math.Max(1, scale))
	dc.SetDash(4*scale, 4*scale)
	for _, p := range []float64{25, 75} {
		dc.DrawLine(left, yOf(p), right, yOf(p))
		dc.Stroke()
	}
	dc.SetDash()
	dc.SetLineWidth(math.Max(1, 1.5*scale))
	dc.DrawLine(left, mid, right, mid)
	dc.Stroke()

	// The curve.
	dc.SetColor(graphLine)
	dc.SetLineWidth(math.Max(1.5, 2*scale))
	for i, p := range g.WinPercents {
		dc.LineTo(xOf(i), yOf(p))
	}
	dc.Stroke()

	// Move numbers on the x axis: about one label per 70 px, on round
	// move numbers.
	dc.SetFontFace(small)
	moves := (plies + 1) / 2
	if g.FirstMove < 1 {
		g.FirstMove = 1
	}
	step := niceStep(float64(moves) * 70 * scale / pw)
	first := g.FirstMove
	for n := (first + step - 1) / step * step; ; n += step {
		if n < 1 {
			continue
		}
		// The ply of White's move n (x of the point after it).
		ply := 2*(n-first) + 1
		if g.BlackFirst {
			ply = 2*(n-first) + 0
		}
		if ply > plies {
			break
		}
		if ply < 1 {
			continue
		}
		x := xOf(ply)
		dc.SetColor(graphGrid)
		dc.DrawLine(x, bottom, x, bottom+4*scale)
		dc.Stroke()
		dc.SetColor(graphText)
		dc.DrawStringAnchored(strconv.Itoa(n), x, bottom+6*scale, 0.5, 1)
	}
	dc.SetColor(graphText)
	dc.DrawStringAnchored("move", left-6*scale, bottom+6*scale, 1, 1)

	// The y axis: White's winning chances, named along it.
	dc.Push()
	dc.RotateAbout(-math.Pi/2, 10*scale, mid)
	dc.DrawStringAnchored("White's winning chances", 10*scale, mid, 0.5, 0.5)
	dc.Pop()
	for _, t := range []struct {
		p     float64
		label string
	}{{100, "100%"}, {75, "75%"}, {50, "50%"}, {25, "25%"}, {0, "0%"}} {
		dc.DrawStringAnchored(t.label, left-6*scale, yOf(t.p), 1, 0.35)
	}

	// The judged moves: a dot on the curve in the judgement's colour.
	for _, m := range g.Marks {
		dc.SetColor(graphMarks[m.Severity])
		dc.DrawCircle(xOf(m.Ply), yOf(g.WinPercents[m.Ply]), math.Max(3, 4.5*scale))
		dc.FillPreserve()
		dc.SetColor(graphBackground)
		dc.SetLineWidth(math.Max(1, scale))
		dc.Stroke()
	}

	// Each side's line inside its half, on a plate so it reads over the
	// curve; the title and the legend of the marks above the plot.
	plate := func(s string, face font.Face, x, y float64, fg, bg color.Color) {
		if s == "" {
			return
		}
		dc.SetFontFace(face)
		tw, th := dc.MeasureString(s)
		pad := 4 * scale
		dc.SetColor(bg)
		dc.DrawRoundedRectangle(x-pad, y-pad, tw+2*pad, th+2*pad, 3*scale)
		dc.Fill()
		dc.SetColor(fg)
		dc.DrawStringAnchored(s, x, y, 0, 0.85)
	}
	plate(g.Sides[0], small, left+8*scale, bottom-24*scale, graphBlack, color.NRGBA{0xf2, 0xf2, 0xf2, 0xe0})
	plate(g.Sides[1], small, left+8*scale, top+8*scale, graphWhite, color.NRGBA{0x11, 0x11, 0x11, 0xe0})
	y := 6 * scale
	if g.Title != "" {
		dc.SetFontFace(big)
		dc.SetColor(graphText)
		dc.DrawStringAnchored(g.Title, left, y, 0, 0.85)
	}
	dc.SetFontFace(small)
	x := right
	for sev := 3; sev >= 1; sev-- {
		tw, _ := dc.MeasureString(graphMarkNames[sev])
		dc.SetColor(graphText)
		dc.DrawStringAnchored(graphMarkNames[sev], x, y+2*scale, 1, 0.85)
		x -= tw + 8*scale
		dc.SetColor(graphMarks[sev])
		dc.DrawCircle(x, y+8*scale, 4.5*scale)
		dc.Fill()
		x -= 16 * scale
	}
	return encodePNG(w, dc.Image())
}

// niceStep is the smallest of 1, 2, 5, 10, 20, 50... at least x.
func niceStep(x float64) int {
	for m := 1; ; m *= 10 {
		for _, k := range []int{1, 2, 5} {
			if float64(k*m) >= x {
				return k * m
			}
		}
	}
}
