package render

import (
	"image/color"
	"math"
	"strconv"

	"github.com/fogleman/gg"
)

// SandTable colours. The players' pair is blue and orange, chosen to stay
// apart under every common colour-vision deficiency (see colour_test.go);
// South's pieces are dark with white markings and North's light with dark
// markings, so the sides differ in lightness too, and Vehicles point
// towards the enemy.
var (
	southFill   = rgb(0x1F66C9)
	southDetail = rgb(0xFFFFFF)
	southLine   = rgb(0x0B1830)
	northFill   = rgb(0xF5A030)
	northDetail = rgb(0x2A1806)
	northLine   = rgb(0x2A1806)
	neutralFill = rgb(0xA6A6A6)
	neutralDet  = rgb(0x2E2E2E)
	neutralLine = rgb(0x262626)
	trackFill   = rgb(0x3C3A36)
	trackLine   = rgb(0x1A1917)

	sandLight    = rgb(0xEEE3CA)
	sandDark     = rgb(0xE4D6B7)
	sandSouthL   = mix(sandLight, southFill, 0.07)
	sandSouthD   = mix(sandDark, southFill, 0.07)
	sandNorthL   = mix(sandLight, northFill, 0.10)
	sandNorthD   = mix(sandDark, northFill, 0.10)
	sandNoMansL  = rgb(0xDCCFB0)
	sandNoMansD  = rgb(0xD5C7A6)
	sandHatch    = rgb(0xC6B692)
	sandGrid     = rgb(0xB3A27C)
	sandMidline  = rgb(0x3B3226)
	moveTint     = rgb(0xF2D526)
	moveArrow    = rgb(0x8A6D00)
	craterRim    = rgb(0x8C7453)
	craterFill   = rgb(0x4A3A2A)
	craterCore   = rgb(0x2C221A)
	badgeFill    = rgb(0xFFFFFF)
	badgeLine    = rgb(0x1A1A1A)
	droneInk     = rgb(0xC2185B)
	droneHalo    = rgb(0xFFFFFF)
	sandMarginBg = rgb(0x2F2B26)
	sandCoord    = rgb(0xDDD4C3)
	southCoord   = rgb(0x8CC4FF)
	northCoord   = rgb(0xFFC27A)
)

type sideStyle struct{ fill, detail, line color.RGBA }

func styleOf(s Side) sideStyle {
	switch s {
	case South:
		return sideStyle{southFill, southDetail, southLine}
	case North:
		return sideStyle{northFill, northDetail, northLine}
	}
	return sideStyle{neutralFill, neutralDet, neutralLine}
}

// drawSandPiece draws a SandTable piece in the square at (x, y) of edge s
// pixels. forward is the screen angle (radians, 0 = up, clockwise) that a
// Vehicle's nose points to.
func drawSandPiece(dc *gg.Context, kind SandPieceKind, owner Side, crew int, x, y, s, forward float64) {
	p := pen{dc, x, y, s / 100}
	st := styleOf(owner)
	dc.SetLineJoinRound()
	dc.SetLineCapRound()
	const w = 4.5
	switch kind {
	case Infantry:
		p.circle(50, 52, 37)
		p.paint(st.fill, st.line, w)
		// helmet, face and shoulders
		dc.Push()
		p.circle(50, 52, 35)
		dc.Clip()
		p.M(22, 94)
		p.C(22, 74, 33, 66, 50, 66)
		p.C(67, 66, 78, 74, 78, 94)
		p.Z()
		dc.SetColor(st.detail)
		dc.Fill()
		dc.ResetClip()
		dc.Pop()
		p.circle(50, 51, 11)
		dc.SetColor(st.detail)
		dc.Fill()
		p.M(31, 46)
		p.C(31, 22, 69, 22, 69, 46)
		p.Z()
		dc.SetColor(st.detail)
		dc.Fill()
		p.M(27, 46.5)
		p.L(73, 46.5)
		p.line(st.detail, 5.5)
	case Tank:
		dc.Push()
		dc.RotateAbout(forward, x+s/2, y+s*0.48)
		for _, tx := range []float64{14, 68} {
			p.rrect(tx, 20, 18, 74, 5)
			p.paint(trackFill, trackLine, 3.5)
			for ty := 30.0; ty < 90; ty += 8 {
				p.M(tx+3, ty)
				p.L(tx+15, ty)
				p.line(rgb(0x77736B), 2.4)
			}
		}
		p.rrect(27, 24, 46, 66, 6)
		p.paint(st.fill, st.line, w)
		// barrel
		p.M(50, 60)
		p.L(50, 4)
		p.line(st.line, 12)
		p.M(50, 60)
		p.L(50, 6.5)
		p.line(st.fill, 5.5)
		dc.Pop()
		// The turret carries the crew count, upright whatever the heading:
		// the turret centre (50, 62) turned about (50, 48).
		sin, cos := math.Sincos(forward)
		badge(dc, p, 50-14*sin, 48+14*cos, 21, strconv.Itoa(crew))
	case Airplane:
		dc.Push()
		dc.RotateAbout(forward, x+s/2, y+s/2)
		p.M(50, 6)
		p.C(55, 8, 57, 16, 57, 28)
		p.L(57, 38)
		p.L(92, 58)
		p.L(92, 66)
		p.L(57, 60)
		p.L(56, 77)
		p.L(70, 86)
		p.L(70, 93)
		p.L(50, 89)
		p.L(30, 93)
		p.L(30, 86)
		p.L(44, 77)
		p.L(43, 60)
		p.L(8, 66)
		p.L(8, 58)
		p.L(43, 38)
		p.L(43, 28)
		p.C(43, 16, 45, 8, 50, 6)
		p.Z()
		p.paint(st.fill, st.line, w)
		p.ellipse(50, 22, 3.6, 7)
		dc.SetColor(st.detail)
		dc.Fill()
		dc.Pop()
		badge(dc, p, 50, 52, 19, strconv.Itoa(crew))
	case Mine:
		for i := 0; i < 8; i++ {
			a := float64(i) * math.Pi / 4
			sx, sy := math.Sin(a), -math.Cos(a)
			p.M(50+sx*18, 52+sy*18)
			p.L(50+sx*29, 52+sy*29)
			p.line(st.line, 6)
		}
		for i := 0; i < 8; i++ {
			a := float64(i) * math.Pi / 4
			p.circle(50+math.Sin(a)*29, 52-math.Cos(a)*29, 4.5)
			p.paint(st.fill, st.line, 3)
		}
		p.circle(50, 52, 21)
		p.paint(st.fill, st.line, w)
		p.circle(50, 52, 7)
		dc.SetColor(st.detail)
		dc.Fill()
	case AntiAir:
		// a missile on its launcher, aimed at the sky
		p.M(16, 95)
		p.L(22, 80)
		p.L(64, 80)
		p.L(70, 95)
		p.Z()
		p.paint(st.fill, st.line, w)
		p.M(30, 80)
		p.L(46, 58)
		p.M(56, 80)
		p.L(46, 58)
		p.line(st.line, 6)
		dc.Push()
		dc.RotateAbout(0.62, x+50*p.k, y+50*p.k)
		p.M(50, 2)
		p.C(57, 9, 58, 17, 58, 24)
		p.L(58, 70)
		p.L(68, 84)
		p.L(32, 84)
		p.L(42, 70)
		p.L(42, 24)
		p.C(42, 17, 43, 9, 50, 2)
		p.Z()
		p.paint(st.fill, st.line, w)
		p.M(42, 26)
		p.L(58, 26)
		p.M(50, 70)
		p.L(50, 83)
		p.line(st.detail, 4)
		dc.Pop()
	case Base:
		p.rrect(13, 13, 74, 74, 10)
		p.paint(st.fill, st.line, w)
		p.rrect(20, 20, 60, 60, 6)
		p.line(st.detail, 2.5)
		star(p, 50, 52, 25, 10.5)
		dc.SetColor(st.detail)
		dc.Fill()
	}
}

// star adds a five-pointed star path centred at (cx, cy).
func star(p pen, cx, cy, ro, ri float64) {
	for i := 0; i < 10; i++ {
		r := ro
		if i%2 == 1 {
			r = ri
		}
		a := float64(i) * math.Pi / 5
		px, py := cx+r*math.Sin(a), cy-r*math.Cos(a)
		if i == 0 {
			p.M(px, py)
		} else {
			p.L(px, py)
		}
	}
	p.Z()
}

// badge draws a white disc with a bold number (a Vehicle's crew, a Drone's
// number).
func badge(dc *gg.Context, p pen, cx, cy, r float64, text string) {
	p.circle(cx, cy, r)
	p.paint(badgeFill, badgeLine, 3.2)
	label(dc, p, cx, cy, r*1.65, text, badgeLine)
}

// label draws text centred at (cx, cy) with an em size of px design units.
func label(dc *gg.Context, p pen, cx, cy, px float64, text string, c color.Color) {
	face := newFace(px * p.k)
	defer face.Close()
	dc.SetFontFace(face)
	dc.SetColor(c)
	dc.DrawStringAnchored(text, p.x+cx*p.k, p.y+cy*p.k, 0.5, 0.36)
}

// drawCrater draws the Crater a resolved Drone leaves.
func drawCrater(dc *gg.Context, x, y, s float64) {
	p := pen{dc, x, y, s / 100}
	// jagged rim
	n := 14
	for i := 0; i <= n; i++ {
		a := float64(i) * 2 * math.Pi / float64(n)
		r := 36.0
		if i%2 == 1 {
			r = 29
		}
		px, py := 50+r*math.Sin(a), 52-r*math.Cos(a)*0.86
		if i == 0 {
			p.M(px, py)
		} else {
			p.L(px, py)
		}
	}
	p.Z()
	p.paint(craterRim, craterCore, 3)
	p.ellipse(50, 53, 22, 17)
	dc.SetColor(craterFill)
	dc.Fill()
	p.ellipse(50, 56, 12, 9)
	dc.SetColor(craterCore)
	dc.Fill()
}

// drawRoute draws the last turn's route through a square: a line from the
// edge it came in by (in, screen direction 1..8 as compass+1, 0 none) to
// the centre, and from the centre out (out), with an arrowhead on the way
// out and a dot where a move started.
func drawRoute(dc *gg.Context, x, y, s float64, in, out int) {
	p := pen{dc, x, y, s / 100}
	edge := func(d int) (float64, float64) {
		v := compass[d-1]
		return 50 + 50*float64(v[0]), 50 - 50*float64(v[1])
	}
	if in > 0 {
		ex, ey := edge(((in - 1 + 4) % 8) + 1) // came from the opposite side
		p.M(ex, ey)
		p.L(50, 50)
		p.line(moveArrow, 7)
	}
	if out > 0 {
		ex, ey := edge(out)
		p.M(50, 50)
		p.L(ex, ey)
		p.line(moveArrow, 7)
		// arrowhead two thirds of the way out
		a := float64(out-1) * math.Pi / 4
		dc.Push()
		dc.RotateAbout(a, x+s/2, y+s/2)
		p.M(50, 12)
		p.L(37, 32)
		p.L(63, 32)
		p.Z()
		dc.SetColor(moveArrow)
		dc.Fill()
		dc.Pop()
		if in == 0 {
			p.circle(50, 50, 9)
			dc.SetColor(moveArrow)
			dc.Fill()
		}
	}
}

// drawTarget draws a pending Drone's target reticle with its number.
func drawTarget(dc *gg.Context, x, y, s float64, n int) {
	p := pen{dc, x, y, s / 100}
	ring := func(c color.Color, w float64) {
		p.circle(50, 50, 34)
		for _, d := range [][4]float64{{50, 4, 50, 26}, {50, 74, 50, 96}, {4, 50, 26, 50}, {74, 50, 96, 50}} {
			p.M(d[0], d[1])
			p.L(d[2], d[3])
		}
		p.line(c, w)
	}
	ring(droneHalo, 10)
	ring(droneInk, 5)
	if n > 0 {
		p.rrect(1, 64, 32, 35, 6)
		p.paint(droneInk, droneHalo, 3.5)
		label(dc, p, 17, 82, 30, strconv.Itoa(n), droneHalo)
	}
}

// drawSpotter marks a Drone's spotting Infantry with a small drone seen
// from above (a body carrying the Drone's number, four rotors) in the
// square's top-left corner.
func drawSpotter(dc *gg.Context, x, y, s float64, n int) {
	p := pen{dc, x, y, s / 100}
	const cx, cy, arm = 23, 23, 14
	for _, d := range [][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		p.M(cx, cy)
		p.L(cx+d[0]*arm, cy+d[1]*arm)
		p.line(droneHalo, 10)
		p.circle(cx+d[0]*arm, cy+d[1]*arm, 7.5)
		p.paint(droneInk, droneHalo, 3)
	}
	p.circle(cx, cy, 14)
	p.paint(droneInk, droneHalo, 3.5)
	if n > 0 {
		label(dc, p, cx, cy+0.5, 23, strconv.Itoa(n), droneHalo)
	}
}
