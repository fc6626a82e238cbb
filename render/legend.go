package render

import (
	"bytes"
	"image"
	"io"
	"sync"

	"github.com/fogleman/gg"
)

// legendRow is one line of the legend: up to three tiles and a caption.
type legendRow struct {
	tiles []sandKey
	text  string
}

func legendRows() []legendRow {
	pc := func(k SandPieceKind, o Side, crew int) int {
		return pieceContent(SandPiece{Kind: k, Owner: o, Crew: crew})
	}
	return []legendRow{
		{[]sandKey{{content: pc(Infantry, South, 0)}, {content: pc(Infantry, North, 0), area: 2}}, "Infantry: South blue, North orange"},
		{[]sandKey{{content: pc(Tank, South, 2)}, {content: pc(Tank, North, 4), area: 2}}, "Tank, pointing at the enemy; the number is its crew (1-4)"},
		{[]sandKey{{content: pc(Airplane, South, 1)}, {content: pc(Airplane, North, 3), area: 2}}, "Airplane, pointing at the enemy; the number is its crew"},
		{[]sandKey{{content: pc(Tank, Neutral, 0), area: 1}, {content: pc(Airplane, Neutral, 0), area: 1}}, "Vehicle without crew (0): neutral, grey, sideways"},
		{[]sandKey{{content: pc(Mine, South, 0)}, {content: pc(Mine, North, 0), area: 2}}, "Mine"},
		{[]sandKey{{content: pc(AntiAir, South, 0)}, {content: pc(AntiAir, North, 0), area: 2}}, "Anti-Air"},
		{[]sandKey{{content: pc(Base, South, 0)}, {content: pc(Base, North, 0), area: 2}}, "Base"},
		{[]sandKey{{content: 1, area: 1}}, "Crater: blocks Units until its side's turn ends"},
		{[]sandKey{{hl: 1}, {hl: 1*9 + 1}, {hl: 1 * 9, content: pc(Tank, South, 1)}}, "Last turn's move: start, route, end"},
		{[]sandKey{{area: 0}, {area: 1}, {area: 2}}, "South's zone, ranks 10-11 (no deployment), North's"},
		{[]sandKey{{content: pc(Infantry, South, 0), spotter: 1}, {target: 1, content: pc(Tank, North, 2), area: 2}}, "Private view only: your Drone 1, spotter and target"},
	}
}

// drawLegend draws the legend of the SandTable icons.
func drawLegend() *image.RGBA {
	const tile, pad, gap = 60, 18, 10
	rows := legendRows()
	w := 860
	h := pad*2 + 44 + len(rows)*(tile+gap)
	dc := gg.NewContext(w, h)
	dc.SetColor(sandMarginBg)
	dc.Clear()
	title := newFace(26)
	defer title.Close()
	dc.SetFontFace(title)
	dc.SetColor(sandCoord)
	dc.DrawStringAnchored("SandTable Chess: what the board shows", pad, pad+14, 0, 0.4)
	body := newFace(21)
	defer body.Close()
	for i, r := range rows {
		y := pad + 44 + i*(tile+gap)
		for j, k := range r.tiles {
			x := pad + j*(tile+6)
			dc.SetColor(sandGrid)
			dc.DrawRectangle(float64(x-1), float64(y-1), tile+2, tile+2)
			dc.Fill()
			dc.DrawImage(drawSandTile(tile, k), x, y)
		}
		dc.SetFontFace(body)
		dc.SetColor(sandCoord)
		dc.DrawStringAnchored(r.text, float64(pad+3*(tile+6)+14), float64(y)+tile/2, 0, 0.36)
	}
	return dc.Image().(*image.RGBA)
}

var legendPNG = sync.OnceValues(func() ([]byte, error) {
	var buf bytes.Buffer
	err := encodePaletted(&buf, newQuantizer(sandPalette()).paletted(drawLegend()))
	return buf.Bytes(), err
})

// LegendPNG writes the legend of the SandTable icons (for the help
// command) as a PNG. The image is drawn once and kept.
func LegendPNG(w io.Writer) error {
	b, err := legendPNG()
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// LegendText is the same legend as plain text (Discord markdown) for an
// embed, when an image is not wanted.
const LegendText = `**SandTable board images**
South is blue (dark pieces with white marks), North orange (light pieces with dark marks).
- **Infantry**: round token with a helmeted soldier.
- **Tank** (tracks and turret seen from above) and **Airplane**: they point at the enemy's side, and the number on them is their crew (1-4). A grey Vehicle pointing sideways with 0 has no crew and is neutral.
- **Mine**: spiked disc. **Anti-Air**: missile on a launcher. **Base**: square with a star.
- **Crater**: dark hole; no Unit may enter it until the end of its side's turn.
- **Last turn**: yellow squares with a line; a dot where a move started, arrows along the route, the strongest yellow where it ended.
- **Zones**: rank numbers 1-9 in blue are South's deployment zone, 12-20 in orange North's; the hatched ranks 10 and 11 take no deployment. The thick line is the border between the halves.
- **Private views** (sent only to you, framed in your colour): your deployment draft, and your pending Drones: a numbered drone on the spotting Infantry and a reticle with the same number on the target.`
