package render

import (
	"image/color"

	"github.com/fogleman/gg"
)

// pen draws in a 100x100 design space mapped onto one square: (0,0) is the
// square's top-left corner and 100 its edge. gg does not scale line widths
// with the transform, so pen does.
type pen struct {
	dc   *gg.Context
	x, y float64 // top-left of the square in pixels
	k    float64 // pixels per design unit
}

func (p pen) M(x, y float64) { p.dc.MoveTo(p.x+x*p.k, p.y+y*p.k) }
func (p pen) L(x, y float64) { p.dc.LineTo(p.x+x*p.k, p.y+y*p.k) }
func (p pen) Q(x1, y1, x, y float64) {
	p.dc.QuadraticTo(p.x+x1*p.k, p.y+y1*p.k, p.x+x*p.k, p.y+y*p.k)
}
func (p pen) C(x1, y1, x2, y2, x, y float64) {
	p.dc.CubicTo(p.x+x1*p.k, p.y+y1*p.k, p.x+x2*p.k, p.y+y2*p.k, p.x+x*p.k, p.y+y*p.k)
}
func (p pen) Z() { p.dc.ClosePath() }
func (p pen) circle(x, y, r float64) {
	p.dc.NewSubPath()
	p.dc.DrawCircle(p.x+x*p.k, p.y+y*p.k, r*p.k)
}
func (p pen) ellipse(x, y, rx, ry float64) {
	p.dc.NewSubPath()
	p.dc.DrawEllipse(p.x+x*p.k, p.y+y*p.k, rx*p.k, ry*p.k)
}
func (p pen) rrect(x, y, w, h, r float64) {
	p.dc.NewSubPath()
	p.dc.DrawRoundedRectangle(p.x+x*p.k, p.y+y*p.k, w*p.k, h*p.k, r*p.k)
}
func (p pen) rect(x, y, w, h float64) {
	p.dc.NewSubPath()
	p.dc.DrawRectangle(p.x+x*p.k, p.y+y*p.k, w*p.k, h*p.k)
}

// paint fills the current path with fill and strokes it with line of width w
// design units.
func (p pen) paint(fill, line color.Color, w float64) {
	p.dc.SetColor(fill)
	p.dc.FillPreserve()
	p.dc.SetColor(line)
	p.dc.SetLineWidth(w * p.k)
	p.dc.Stroke()
}

// line strokes the current path only.
func (p pen) line(c color.Color, w float64) {
	p.dc.SetColor(c)
	p.dc.SetLineWidth(w * p.k)
	p.dc.Stroke()
}

// chessStyle holds the colours of one side's pieces.
type chessStyle struct {
	fill, line, detail color.RGBA
}

const outlineW = 3.6 // outline width in design units

// drawChessPiece draws a Staunton-like piece of our own design in the square
// whose top-left corner is (x, y) and edge s pixels.
func drawChessPiece(dc *gg.Context, kind ChessPieceKind, st chessStyle, x, y, s float64) {
	// The design space is drawn 8% larger than the square, centred, so the
	// pieces fill it the way players expect.
	const grow = 1.08
	p := pen{dc, x - s*(grow-1)/2, y - s*(grow-1)/2, s * grow / 100}
	dc.SetLineJoinRound()
	dc.SetLineCapRound()
	f, l, d := st.fill, st.line, st.detail
	w := outlineW
	base := func(top float64) {
		p.rrect(20, top, 60, 90-top, 3.5)
		p.paint(f, l, w)
	}
	switch kind {
	case Pawn:
		p.M(41, 46)
		p.C(41, 60, 36, 70, 28, 80)
		p.L(72, 80)
		p.C(64, 70, 59, 60, 59, 46)
		p.Z()
		p.paint(f, l, w)
		base(79)
		p.ellipse(50, 45, 14, 4.5)
		p.paint(f, l, w)
		p.circle(50, 30, 12)
		p.paint(f, l, w)
	case Rook:
		p.M(35, 38)
		p.L(65, 38)
		p.L(67, 71)
		p.L(33, 71)
		p.Z()
		p.paint(f, l, w)
		p.rrect(27, 70, 46, 8, 2)
		p.paint(f, l, w)
		base(78)
		p.M(27, 16)
		p.L(37, 16)
		p.L(37, 23)
		p.L(45, 23)
		p.L(45, 16)
		p.L(55, 16)
		p.L(55, 23)
		p.L(63, 23)
		p.L(63, 16)
		p.L(73, 16)
		p.L(73, 31)
		p.L(67, 38)
		p.L(33, 38)
		p.L(27, 31)
		p.Z()
		p.paint(f, l, w)
		p.M(29, 31)
		p.L(71, 31)
		p.line(d, 2.6)
	case Bishop:
		p.M(41, 62)
		p.C(41, 68, 35, 72, 30, 78)
		p.L(70, 78)
		p.C(65, 72, 59, 68, 59, 62)
		p.Z()
		p.paint(f, l, w)
		base(77)
		p.M(50, 17)
		p.C(33, 27, 30, 45, 37, 57)
		p.L(63, 57)
		p.C(70, 45, 67, 27, 50, 17)
		p.Z()
		p.paint(f, l, w)
		p.rrect(34, 56, 32, 8, 3)
		p.paint(f, l, w)
		p.circle(50, 12, 5.5)
		p.paint(f, l, w)
		p.M(57, 30)
		p.L(47, 43)
		p.line(d, 3.2)
	case Knight:
		// A horse's head facing left: chest, throat, jaw, muzzle, forehead,
		// ear, then the crest of the mane down the back of the neck.
		p.M(27, 80)
		p.C(27, 70, 33, 63, 44, 58)
		p.C(38, 58, 31, 62, 25, 63)
		p.C(19, 64, 13, 61, 13, 55)
		p.C(13, 51, 15, 48, 18, 45)
		p.C(24, 38, 30, 31, 36, 25)
		p.L(38, 12)
		p.L(47, 20)
		p.C(66, 17, 79, 30, 81, 48)
		p.C(83, 62, 78, 72, 76, 80)
		p.Z()
		p.paint(f, l, w)
		base(79)
		// mane
		p.M(53, 26)
		p.C(65, 28, 71, 39, 72, 52)
		p.C(73, 62, 70, 70, 68, 76)
		p.line(d, 2.4)
		// eye
		p.ellipse(35, 35, 3.4, 2.6)
		p.dc.SetColor(d)
		p.dc.Fill()
		// nostril and mouth
		p.circle(18.5, 52.5, 2)
		p.dc.SetColor(d)
		p.dc.Fill()
		p.M(14.5, 58.5)
		p.L(23, 58.5)
		p.line(d, 2)
	case Queen:
		p.M(31, 69)
		p.L(19, 30)
		p.L(33, 51)
		p.L(34, 22)
		p.L(44, 48)
		p.L(50, 17)
		p.L(56, 48)
		p.L(66, 22)
		p.L(67, 51)
		p.L(81, 30)
		p.L(69, 69)
		p.Z()
		p.paint(f, l, w)
		p.rrect(28, 68, 44, 9, 3)
		p.paint(f, l, w)
		base(77)
		for _, b := range [][2]float64{{19, 28}, {34, 20}, {50, 15}, {66, 20}, {81, 28}} {
			p.circle(b[0], b[1], 5)
			p.paint(f, l, w)
		}
		p.M(33, 61)
		p.C(44, 58, 56, 58, 67, 61)
		p.line(d, 2.6)
	case King:
		p.M(31, 68)
		p.C(16, 54, 20, 32, 38, 33)
		p.C(44, 34, 48, 38, 50, 43)
		p.C(52, 38, 56, 34, 62, 33)
		p.C(80, 32, 84, 54, 69, 68)
		p.Z()
		p.paint(f, l, w)
		p.M(50, 43)
		p.C(45, 35, 44, 30, 50, 26)
		p.C(56, 30, 55, 35, 50, 43)
		p.Z()
		p.paint(f, l, w)
		p.rrect(28, 67, 44, 10, 3)
		p.paint(f, l, w)
		base(77)
		// cross
		p.M(50, 8)
		p.L(50, 25)
		p.M(43, 14.5)
		p.L(57, 14.5)
		p.line(l, 8.5)
		p.M(50, 8)
		p.L(50, 25)
		p.M(43, 14.5)
		p.L(57, 14.5)
		p.line(f, 3.4)
		p.M(50, 45)
		p.L(50, 66)
		p.line(d, 2.6)
		p.M(32, 60)
		p.C(44, 56, 56, 56, 68, 60)
		p.line(d, 2.6)
	}
}
