package render

import (
	"bytes"
	"testing"
)

func sandPNG(t *testing.T, r *Renderer, b SandTableBoard, v View) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := r.SandTablePNG(&buf, &b, v, 600); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDrawsWhatItIsGiven: the renderer filters nothing (what a viewer may
// see is decided by the engine's view, which render/sandboard converts):
// Drone orders and drafts in the board are drawn whatever the frame, and a
// board without them is drawn without them.
func TestDrawsWhatItIsGiven(t *testing.T) {
	t.Parallel()
	r := New()
	b := midgame(t)
	none := b
	none.Drones = nil
	for _, v := range []View{ViewPublic, ViewSouth, ViewNorth} {
		if bytes.Equal(sandPNG(t, r, b, v), sandPNG(t, r, none, v)) {
			t.Errorf("%s frame: the Drone orders given are not drawn", v)
		}
	}
	onlySouth := secretsOf(b, South)
	if bytes.Equal(sandPNG(t, r, onlySouth, ViewSouth), sandPNG(t, r, none, ViewSouth)) {
		t.Error("South's own Drone orders are not drawn")
	}
	d := drafting(t)
	if bytes.Equal(sandPNG(t, r, d, ViewPublic), sandPNG(t, r, SandTableBoard{}, ViewPublic)) {
		t.Error("the drafts given are not drawn")
	}
	southOnly := d
	southOnly.Drafts[North] = nil
	if bytes.Equal(sandPNG(t, r, d, ViewSouth), sandPNG(t, r, southOnly, ViewSouth)) {
		t.Error("North's draft, given, is not drawn")
	}
}

// TestPrivateFrameDiffers: a private view is framed in its player's
// colour, so it cannot be mistaken for the public image.
func TestPrivateFrameDiffers(t *testing.T) {
	t.Parallel()
	r := New()
	var b SandTableBoard
	pub, _ := r.SandTableImage(&b, ViewPublic, 500)
	for _, v := range []View{ViewSouth, ViewNorth} {
		img, _ := r.SandTableImage(&b, v, 500)
		if img.At(2, 2) == pub.At(2, 2) {
			t.Errorf("%s view has the public frame colour", v)
		}
	}
}
