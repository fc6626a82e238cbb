package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// TestEncodePalettedRoundTrip: what encodePaletted writes decodes (with the
// standard library) to exactly the pixels it was given, for widths that
// are and are not multiples of eight, with sub-image offsets.
func TestEncodePalettedRoundTrip(t *testing.T) {
	t.Parallel()
	pal := color.Palette{}
	for i := 0; i < 256; i++ {
		pal = append(pal, color.RGBA{uint8(i), uint8(255 - i), uint8(i * 7), 255})
	}
	for _, sz := range [][2]int{{1, 1}, {7, 3}, {8, 8}, {13, 29}, {640, 5}} {
		big := image.NewPaletted(image.Rect(0, 0, sz[0]+3, sz[1]+2), pal)
		for i := range big.Pix {
			big.Pix[i] = uint8(i*31 + i/7)
		}
		img := big.SubImage(image.Rect(2, 1, sz[0]+2, sz[1]+1)).(*image.Paletted)
		var buf bytes.Buffer
		if err := encodePaletted(&buf, img); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		if got.Bounds().Dx() != sz[0] || got.Bounds().Dy() != sz[1] {
			t.Fatalf("%v: decoded size %v", sz, got.Bounds())
		}
		for y := 0; y < sz[1]; y++ {
			for x := 0; x < sz[0]; x++ {
				if got.At(x, y) != img.At(x+2, y+1) {
					t.Fatalf("%v: pixel (%d,%d) is %v, want %v", sz, x, y, got.At(x, y), img.At(x+2, y+1))
				}
			}
		}
	}
}

func TestEncodePalettedRefusesEmpty(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := encodePaletted(&buf, image.NewPaletted(image.Rect(0, 0, 0, 0), color.Palette{color.Black})); err == nil {
		t.Error("empty image encoded")
	}
	if err := encodePaletted(&buf, image.NewPaletted(image.Rect(0, 0, 2, 2), nil)); err == nil {
		t.Error("image without palette encoded")
	}
}

// TestRenderedPNGDecodes: a rendered board decodes to the image that was
// composed (same pixels as ChessImage).
func TestRenderedPNGDecodes(t *testing.T) {
	t.Parallel()
	r := New()
	b := placement(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR")
	var buf bytes.Buffer
	if err := r.ChessPNG(&buf, &b, 333); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := r.ChessImage(&b, 333)
	if n, _ := differingPixels(got, want, 0); n != 0 {
		t.Errorf("%d pixels differ between the PNG and the image", n)
	}
}

func TestPaletteKeepsKeyColours(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		pal  color.Palette
		keys []color.RGBA
	}{
		{"chess", chessPalette(), []color.RGBA{chessLight, chessDark, chessLastLight, chessWhitePieces.fill, chessBlackPieces.fill, chessMargin}},
		{"sand", sandPalette(), []color.RGBA{sandSouthL, sandNorthD, sandNoMansL, southFill, northFill, neutralFill, sandGrid, badgeFill}},
	} {
		if len(c.pal) > 256 {
			t.Errorf("%s palette has %d colours", c.name, len(c.pal))
		}
		has := map[color.RGBA]bool{}
		for _, p := range c.pal {
			has[color.RGBAModel.Convert(p).(color.RGBA)] = true
		}
		for _, k := range c.keys {
			if !has[k] {
				t.Errorf("%s palette lacks key colour %v", c.name, k)
			}
		}
	}
}

func TestSubBytes(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 7, 8, 9, 301} {
		a := make([]byte, n)
		b := make([]byte, n)
		for i := range a {
			a[i] = byte(i * 37)
			b[i] = byte(i*91 + 7)
		}
		d := make([]byte, n)
		subBytes(d, a, b)
		for i := range a {
			if d[i] != a[i]-b[i] {
				t.Fatalf("n=%d at %d: %d want %d", n, i, d[i], a[i]-b[i])
			}
		}
	}
}
