package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"sync"
)

// This file writes animated GIFs for replays: one global palette, frames
// as sub-rectangles drawn over the frame before (disposal "none"), each
// with its own transparent index. image/gif's encoder wants every frame
// in memory first and spends most of a replay's time in compress/lzw's
// hashed table (profiled: about half of the CPU time); this one writes
// each frame as it comes and looks LZW strings up in a table indexed by
// (code, byte), about three times faster on replays.

// gifWriter appends a GIF to buf.
type gifWriter struct {
	buf  []byte
	lit  uint // LZW literal width: log2 of the colour table's size, at least 2
	lzw  *lzwEncoder
	data []byte // LZW output of one frame
}

// begin writes the header, the logical screen of w x h pixels with pal
// as the global colour table, and the loop-forever extension.
func (g *gifWriter) begin(w, h int, pal color.Palette) {
	n := uint(1) // colour table of 2^(n+1) entries
	for 1<<(n+1) < len(pal) {
		n++
	}
	g.lit = max(2, n+1)
	g.buf = append(g.buf, "GIF89a"...)
	g.buf = binary.LittleEndian.AppendUint16(g.buf, uint16(w))
	g.buf = binary.LittleEndian.AppendUint16(g.buf, uint16(h))
	g.buf = append(g.buf, 0x80|0x70|byte(n), 0, 0) // global table, 8-bit colour resolution
	for i := 0; i < 1<<(n+1); i++ {
		if i < len(pal) {
			r, gr, b, _ := pal[i].RGBA()
			g.buf = append(g.buf, byte(r>>8), byte(gr>>8), byte(b>>8))
		} else {
			g.buf = append(g.buf, 0, 0, 0)
		}
	}
	g.buf = append(g.buf, 0x21, 0xFF, 11)
	g.buf = append(g.buf, "NETSCAPE2.0"...)
	g.buf = append(g.buf, 3, 1, 0, 0, 0) // loop count 0: forever
	g.lzw = lzwPool.Get().(*lzwEncoder)
	g.lzw.setup(g.lit)
}

// frame writes one frame: pix (r.Dx() x r.Dy() indexes, rows packed)
// placed at r, shown delay hundredths of a second, drawn over the frame
// before (disposal "none"), pixels of index transparent (when >= 0)
// leaving what is under them.
func (g *gifWriter) frame(r image.Rectangle, pix []byte, delay, transparent int) {
	flags := byte(1 << 2) // disposal 1: leave in place
	t := byte(0)
	if transparent >= 0 {
		flags |= 1
		t = byte(transparent)
	}
	g.buf = append(g.buf, 0x21, 0xF9, 4, flags)
	g.buf = binary.LittleEndian.AppendUint16(g.buf, uint16(delay))
	g.buf = append(g.buf, t, 0, 0x2C)
	for _, v := range []int{r.Min.X, r.Min.Y, r.Dx(), r.Dy()} {
		g.buf = binary.LittleEndian.AppendUint16(g.buf, uint16(v))
	}
	g.buf = append(g.buf, 0, byte(g.lit)) // no local table; LZW minimum code size
	g.data = g.lzw.encode(g.data[:0], pix, transparent)
	for d := g.data; len(d) > 0; {
		n := min(255, len(d))
		g.buf = append(g.buf, byte(n))
		g.buf = append(g.buf, d[:n]...)
		d = d[n:]
	}
	g.buf = append(g.buf, 0)
}

// end writes the trailer and returns the GIF.
func (g *gifWriter) end() []byte {
	lzwPool.Put(g.lzw)
	g.lzw = nil
	return append(g.buf, 0x3B)
}

// lzwEncoder is GIF's variable-width LZW (GIF89a appendix F) with the
// code-width steps of compress/lzw's LSB writer. Its table maps a string
// (code) extended by a byte to the string's code: tab[code<<lit|byte]
// holds gen<<12|code, so a table reset only bumps gen.
type lzwEncoder struct {
	lit          uint
	tab          []uint32
	gen          uint32
	bits         uint64
	nbits, width uint
	hi, overflow uint32
	runCode      [lzwMaxCode + 2]uint16
}

const (
	lzwMaxCode = 4095
	lzwMaxGen  = 1<<20 - 1
)

var lzwPool = sync.Pool{New: func() any { return &lzwEncoder{} }}

func (e *lzwEncoder) setup(lit uint) {
	if e.lit != lit || e.tab == nil {
		e.lit = lit
		e.tab = make([]uint32, (lzwMaxCode+1)<<lit)
		e.gen = 0
	}
}

// reset starts a new string table.
func (e *lzwEncoder) reset() {
	c := uint32(1) << e.lit
	e.width, e.hi, e.overflow = e.lit+1, c+1, c<<1
	if e.gen++; e.gen > lzwMaxGen {
		clear(e.tab)
		e.gen = 1
	}
}

// encode appends the LZW code stream of p (every byte below 1<<lit) to
// dst: a clear code, the codes, the end code. run (-1: none) is a byte
// that comes in long runs (a delta frame's transparent index): the codes
// of its runs (the strings run^k) are kept in a small array of their own,
// which the runs walk through without touching the big table.
func (e *lzwEncoder) encode(dst, p []byte, run int) []byte {
	clearCode := uint32(1) << e.lit
	e.bits, e.nbits = 0, 0
	e.reset()
	dst = e.emit(dst, clearCode)
	if len(p) > 0 {
		tab, gen, lit := e.tab, e.gen<<12, e.lit
		// runCode[k] is the code of run^k while the string table holds it
		// (0: not yet); runLen is the current string's length when it is
		// run^runLen, else 0. Strings run^k+run are looked up here only.
		runCode := &e.runCode
		clear(runCode[:])
		rb := byte(run)
		code := uint32(p[0])
		runLen := 0
		if run >= 0 && p[0] == rb {
			runLen = 1
		}
		for i := 1; i < len(p); i++ {
			x := p[i]
			if runLen > 0 && x == rb {
				if c := runCode[runLen+1]; c != 0 {
					code = uint32(c)
					runLen++
					continue
				}
				dst = e.emit(dst, code)
				if e.incHi() {
					dst = e.emit(dst, clearCode)
					e.reset()
					gen = e.gen << 12
					clear(runCode[:])
				} else {
					runCode[runLen+1] = uint16(e.hi)
				}
				code, runLen = uint32(x), 1
				continue
			}
			key := code<<lit | uint32(x)
			if t := tab[key]; t&^lzwMaxCode == gen {
				code = t & lzwMaxCode
				runLen = 0
				continue
			}
			dst = e.emit(dst, code)
			code, runLen = uint32(x), 0
			if run >= 0 && x == rb {
				runLen = 1
			}
			if e.incHi() {
				dst = e.emit(dst, clearCode)
				e.reset()
				gen = e.gen << 12
				clear(runCode[:])
				continue
			}
			tab[key] = gen | e.hi
		}
		dst = e.emit(dst, code)
		if e.incHi() {
			dst = e.emit(dst, clearCode)
			e.reset()
		}
	}
	dst = e.emit(dst, clearCode+1)
	if e.nbits > 0 {
		dst = append(dst, byte(e.bits))
	}
	return dst
}

// incHi counts the code just made and widens codes when it needs another
// bit; it reports when the table is full (the caller then sends a clear
// code and resets).
func (e *lzwEncoder) incHi() bool {
	e.hi++
	if e.hi == e.overflow {
		e.width++
		e.overflow <<= 1
	}
	return e.hi == lzwMaxCode
}

func (e *lzwEncoder) emit(dst []byte, code uint32) []byte {
	e.bits |= uint64(code) << e.nbits
	e.nbits += e.width
	for e.nbits >= 8 {
		dst = append(dst, byte(e.bits))
		e.bits >>= 8
		e.nbits -= 8
	}
	return dst
}
