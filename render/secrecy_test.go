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

// TestPublicViewIgnoresSecrets: the public image of a position with pending
// Drone orders (rule text, Drones: "You are not to tell them where") or
// deployment drafts (Deployment: placed in secret) is byte-identical to
// the image of the same position without them.
func TestPublicViewIgnoresSecrets(t *testing.T) {
	r := New()
	withDrones := midgame(t)
	if len(withDrones.Drones) == 0 {
		t.Fatal("test position has no Drone orders")
	}
	without := withDrones
	without.Drones = nil
	if !bytes.Equal(sandPNG(t, r, withDrones, ViewPublic), sandPNG(t, r, without, ViewPublic)) {
		t.Error("public image differs when Drone orders are pending")
	}

	drafts := drafting(t)
	noDrafts := drafts
	noDrafts.Drafts = [3][]SandPiece{}
	if !bytes.Equal(sandPNG(t, r, drafts, ViewPublic), sandPNG(t, r, noDrafts, ViewPublic)) {
		t.Error("public image differs when deployment drafts exist")
	}
}

// TestPrivateViewShowsOnlyOwnSecrets: a player's private view adds that
// player's own secrets and none of the opponent's.
func TestPrivateViewShowsOnlyOwnSecrets(t *testing.T) {
	r := New()
	b := midgame(t)
	onlySouth, onlyNorth := b, b
	onlySouth.Drones, onlyNorth.Drones = nil, nil
	for _, d := range b.Drones {
		if d.Owner == South {
			onlySouth.Drones = append(onlySouth.Drones, d)
		} else {
			onlyNorth.Drones = append(onlyNorth.Drones, d)
		}
	}
	none := b
	none.Drones = nil

	south := sandPNG(t, r, b, ViewSouth)
	if !bytes.Equal(south, sandPNG(t, r, onlySouth, ViewSouth)) {
		t.Error("South's view changes with North's Drone orders")
	}
	if bytes.Equal(south, sandPNG(t, r, none, ViewSouth)) {
		t.Error("South's view does not show South's Drone orders")
	}
	north := sandPNG(t, r, b, ViewNorth)
	if !bytes.Equal(north, sandPNG(t, r, onlyNorth, ViewNorth)) {
		t.Error("North's view changes with South's Drone orders")
	}
	if bytes.Equal(north, sandPNG(t, r, none, ViewNorth)) {
		t.Error("North's view does not show North's Drone orders")
	}

	d := drafting(t)
	southOnly := d
	southOnly.Drafts[North] = nil
	if !bytes.Equal(sandPNG(t, r, d, ViewSouth), sandPNG(t, r, southOnly, ViewSouth)) {
		t.Error("South's view changes with North's deployment draft")
	}
	if bytes.Equal(sandPNG(t, r, d, ViewSouth), sandPNG(t, r, d, ViewPublic)) {
		t.Error("South's view does not show South's deployment draft")
	}
}

// TestPrivateFrameDiffers: a private view is framed in its player's
// colour, so it cannot be mistaken for the public image.
func TestPrivateFrameDiffers(t *testing.T) {
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
