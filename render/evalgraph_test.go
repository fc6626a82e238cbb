package render

import (
	"bytes"
	"image/png"
	"math"
	"os"
	"testing"
)

// sampleGraph is a 61-ply game that swings both ways, with marks.
func sampleGraph() *EvalGraph {
	g := &EvalGraph{FirstMove: 1, Title: "Analysis of game 1234 (Survival Chess)",
		Sides: [2]string{"White: accuracy 87%", "Black: accuracy 64%"}}
	for i := 0; i <= 61; i++ {
		g.WinPercents = append(g.WinPercents, 50+45*math.Sin(float64(i)/9)*math.Min(1, float64(i)/20))
	}
	g.WinPercents[61] = 100
	g.Marks = []EvalMark{{Ply: 12, Severity: 1}, {Ply: 27, Severity: 2}, {Ply: 44, Severity: 3}}
	return g
}

// TestEvalGraphPNG draws a graph at two sizes (a valid PNG of the size
// asked, both sides' colours in it) and refuses bad input.
// SANDTABLE_GRAPH_OUT=file writes the first one, to look at.
func TestEvalGraphPNG(t *testing.T) {
	t.Parallel()
	r := New()
	for i, size := range [][2]int{{800, 300}, {400, 150}} {
		var buf bytes.Buffer
		if err := r.EvalGraphPNG(&buf, sampleGraph(), size[0], size[1]); err != nil {
			t.Fatal(err)
		}
		if out := os.Getenv("SANDTABLE_GRAPH_OUT"); out != "" && i == 0 {
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != size[0] || b.Dy() != size[1] {
			t.Fatalf("size %v, want %v", b, size)
		}
		seen := map[[3]uint32]bool{}
		for y := 0; y < size[1]; y++ {
			for x := 0; x < size[0]; x++ {
				r, g, b, _ := img.At(x, y).RGBA()
				seen[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
			}
		}
		for _, c := range []struct{ r, g, b uint32 }{{0xf2, 0xf2, 0xf2}, {0x11, 0x11, 0x11}, {0xdb, 0x30, 0x31}} {
			if !seen[[3]uint32{c.r, c.g, c.b}] {
				t.Errorf("%v: colour %v not drawn", size, c)
			}
		}
	}
	one := &EvalGraph{WinPercents: []float64{50}}
	if err := r.EvalGraphPNG(&bytes.Buffer{}, one, 800, 300); err != nil {
		t.Errorf("a graph of the start alone: %v", err)
	}
	for name, g := range map[string]*EvalGraph{
		"no point":   {},
		"over 100":   {WinPercents: []float64{50, 101}},
		"NaN":        {WinPercents: []float64{50, math.NaN()}},
		"mark ply 0": {WinPercents: []float64{50, 60}, Marks: []EvalMark{{Ply: 0, Severity: 1}}},
		"mark past":  {WinPercents: []float64{50, 60}, Marks: []EvalMark{{Ply: 2, Severity: 1}}},
		"severity":   {WinPercents: []float64{50, 60}, Marks: []EvalMark{{Ply: 1, Severity: 4}}},
	} {
		if err := r.EvalGraphPNG(&bytes.Buffer{}, g, 800, 300); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := r.EvalGraphPNG(&bytes.Buffer{}, sampleGraph(), 100, 300); err == nil {
		t.Error("a width under the minimum: no error")
	}
}
