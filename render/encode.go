package render

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"io"
	"sync"
)

// encodePaletted writes img as an 8-bit palette PNG. Go's image/png does
// not filter palette images; this encoder gives every row after the first
// the PNG "Up" filter (rows that repeat the row above, and the inside of
// pieces and squares, become runs of zeros), then deflates at the fastest
// level: as fast as image/png at BestSpeed, with files about a sixth smaller.
func encodePaletted(w io.Writer, img *image.Paletted) error {
	b := img.Rect
	wd, ht := b.Dx(), b.Dy()
	if wd <= 0 || ht <= 0 || len(img.Palette) == 0 || len(img.Palette) > 256 {
		return errors.New("render: cannot encode an empty image or a palette of more than 256 colours")
	}
	e := encPool.Get().(*pngEnc)
	defer encPool.Put(e)
	e.bw.Reset(w)
	e.bw.Write(pngSignature)

	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(wd))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(ht))
	ihdr[8] = 8 // bit depth
	ihdr[9] = 3 // colour type: palette
	e.chunk("IHDR", ihdr[:])

	plte := e.plte[:0]
	for _, c := range img.Palette {
		r, g, bl, _ := c.RGBA()
		plte = append(plte, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	e.plte = plte
	e.chunk("PLTE", plte)

	e.idat.Reset()
	e.zw.Reset(&e.idat)
	if cap(e.row) < 2*(wd+1) {
		e.row = make([]byte, 2*(wd+1))
	}
	row := e.row[:wd+1]
	for y := 0; y < ht; y++ {
		cur := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:wd]
		if y == 0 {
			row[0] = 0 // no filter
			copy(row[1:], cur)
		} else {
			row[0] = 2 // Up: each byte minus the byte above, modulo 256
			prev := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y-1):][:wd]
			if string(cur) == string(prev) {
				clear(row[1:]) // a repeated row filters to zeros
			} else {
				subBytes(row[1:], cur, prev)
			}
		}
		if _, err := e.zw.Write(row); err != nil {
			return err
		}
	}
	if err := e.zw.Close(); err != nil {
		return err
	}
	e.chunk("IDAT", e.idat.Bytes())
	e.chunk("IEND", nil)
	return e.bw.Flush()
}

// subBytes sets dst[i] = a[i] - b[i] (mod 256), eight bytes at a time.
func subBytes(dst, a, b []byte) {
	const hi = 0x8080808080808080
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x := binary.LittleEndian.Uint64(a[i:])
		y := binary.LittleEndian.Uint64(b[i:])
		// Bytewise subtraction without borrows crossing byte lanes.
		d := ((x | hi) - (y &^ hi)) ^ ((x ^ ^y) & hi)
		binary.LittleEndian.PutUint64(dst[i:], d)
	}
	for ; i < len(a); i++ {
		dst[i] = a[i] - b[i]
	}
}

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

type pngEnc struct {
	bw   *bufio.Writer
	zw   *zlib.Writer
	idat growBuf
	plte []byte
	row  []byte
	hdr  [8]byte
	err  error
}

var encPool = sync.Pool{New: func() any {
	e := &pngEnc{bw: bufio.NewWriterSize(nil, 32<<10)}
	e.zw, _ = zlib.NewWriterLevel(&e.idat, zlib.BestSpeed)
	return e
}}

// chunk writes one PNG chunk; write errors surface at Flush.
func (e *pngEnc) chunk(name string, data []byte) {
	binary.BigEndian.PutUint32(e.hdr[:4], uint32(len(data)))
	copy(e.hdr[4:], name)
	e.bw.Write(e.hdr[:])
	e.bw.Write(data)
	crc := crc32.NewIEEE()
	crc.Write(e.hdr[4:])
	crc.Write(data)
	var c [4]byte
	binary.BigEndian.PutUint32(c[:], crc.Sum32())
	e.bw.Write(c[:])
}

// growBuf is a minimal reusable byte buffer.
type growBuf struct{ b []byte }

func (g *growBuf) Write(p []byte) (int, error) { g.b = append(g.b, p...); return len(p), nil }
func (g *growBuf) Reset()                      { g.b = g.b[:0] }
func (g *growBuf) Bytes() []byte               { return g.b }
