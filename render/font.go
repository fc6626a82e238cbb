package render

import (
	"bytes"
	"image"
	"image/png"
	"io"
	"sync"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
)

// boldFont is the embedded Go Bold font, parsed once. A *truetype.Font is
// read-only and may be shared; the faces made from it keep glyph caches and
// may not, so every drawing makes its own.
var boldFont = sync.OnceValue(func() *truetype.Font {
	f, err := truetype.Parse(gobold.TTF)
	if err != nil {
		panic("render: embedded gofont does not parse: " + err.Error())
	}
	return f
})

// newFace returns a new face of the embedded bold font with the given pixel
// height (em size). The caller owns it: faces are not safe for concurrent use.
func newFace(px float64) font.Face {
	return truetype.NewFace(boldFont(), &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull})
}

// encodePNG writes img as a PNG: paletted images with encodePaletted,
// anything else with image/png.
func encodePNG(w io.Writer, img image.Image) error {
	if p, ok := img.(*image.Paletted); ok {
		return encodePaletted(w, p)
	}
	return png.Encode(w, img)
}

// pngBytes encodes img into a new byte slice.
func pngBytes(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := encodePNG(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
