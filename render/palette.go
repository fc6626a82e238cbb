package render

import (
	"image"
	"image/color"
	"sort"
)

// paletteFrom builds a fixed palette of at most budget (<= 256) colours: every key colour
// exactly (the flat fills of squares, pieces and text, so flat areas are
// never dithered or shifted), then median-cut representatives of all other
// colours found in samples (the anti-aliased edges and gradients). The result
// depends only on its inputs, so the palette is the same in every process.
func paletteFrom(keys []color.RGBA, samples []*image.RGBA, budget int) color.Palette {
	pal := make(color.Palette, 0, 256)
	isKey := make(map[color.RGBA]bool, len(keys))
	for _, k := range keys {
		k.A = 255
		if !isKey[k] {
			isKey[k] = true
			pal = append(pal, k)
		}
	}
	hist := map[uint32]int{}
	for _, im := range samples {
		for y := im.Rect.Min.Y; y < im.Rect.Max.Y; y++ {
			row := im.Pix[im.PixOffset(im.Rect.Min.X, y):im.PixOffset(im.Rect.Max.X, y)]
			for i := 0; i < len(row); i += 4 {
				c := color.RGBA{row[i], row[i+1], row[i+2], 255}
				if isKey[c] {
					continue
				}
				hist[uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B)]++
			}
		}
	}
	cs := make([]weighted, 0, len(hist))
	for k, n := range hist {
		cs = append(cs, weighted{[3]int{int(k >> 16), int(k >> 8 & 255), int(k & 255)}, n})
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].key() < cs[j].key() })
	for _, c := range medianCut(cs, min(budget, 256)-len(pal)) {
		pal = append(pal, c)
	}
	return pal
}

type weighted struct {
	c [3]int
	n int
}

func (w weighted) key() int { return w.c[0]<<16 | w.c[1]<<8 | w.c[2] }

// medianCut splits the colour set into at most n boxes, always splitting the
// box with the largest weighted extent along its widest channel, and returns
// each box's weighted mean colour.
func medianCut(cs []weighted, n int) []color.RGBA {
	if len(cs) == 0 || n <= 0 {
		return nil
	}
	boxes := [][]weighted{cs}
	for len(boxes) < n {
		best, bestScore, bestCh := -1, 0, 0
		for i, b := range boxes {
			if len(b) < 2 {
				continue
			}
			ch, ext := widest(b)
			total := 0
			for _, w := range b {
				total += w.n
			}
			if s := ext * isqrt(total); s > bestScore {
				best, bestScore, bestCh = i, s, ch
			}
		}
		if best < 0 {
			break
		}
		b := boxes[best]
		sort.SliceStable(b, func(i, j int) bool { return b[i].c[bestCh] < b[j].c[bestCh] })
		total := 0
		for _, w := range b {
			total += w.n
		}
		acc, cut := 0, 1
		for i, w := range b {
			acc += w.n
			if acc*2 >= total {
				cut = i + 1
				break
			}
		}
		if cut >= len(b) {
			cut = len(b) - 1
		}
		boxes[best] = b[:cut]
		boxes = append(boxes, b[cut:])
	}
	out := make([]color.RGBA, 0, len(boxes))
	for _, b := range boxes {
		var s [3]int
		t := 0
		for _, w := range b {
			for k := 0; k < 3; k++ {
				s[k] += w.c[k] * w.n
			}
			t += w.n
		}
		out = append(out, color.RGBA{uint8((s[0] + t/2) / t), uint8((s[1] + t/2) / t), uint8((s[2] + t/2) / t), 255})
	}
	return out
}

func widest(b []weighted) (ch, ext int) {
	lo := [3]int{255, 255, 255}
	hi := [3]int{}
	for _, w := range b {
		for k := 0; k < 3; k++ {
			lo[k] = min(lo[k], w.c[k])
			hi[k] = max(hi[k], w.c[k])
		}
	}
	for k := 0; k < 3; k++ {
		if hi[k]-lo[k] > ext {
			ch, ext = k, hi[k]-lo[k]
		}
	}
	return ch, ext
}

func isqrt(n int) int {
	r := 1
	for r*r < n {
		r++
	}
	return r
}

// quantizer maps RGBA pixels to palette indices (nearest colour, weighted
// for perceived brightness), remembering every colour it has seen. It is
// used only while sprites are built, under the sprite set's lock.
type quantizer struct {
	pal   color.Palette
	rgb   [][3]int
	cache map[uint32]uint8
}

func newQuantizer(pal color.Palette) *quantizer {
	q := &quantizer{pal: pal, cache: map[uint32]uint8{}}
	for _, c := range pal {
		r, g, b, _ := c.RGBA()
		q.rgb = append(q.rgb, [3]int{int(r >> 8), int(g >> 8), int(b >> 8)})
	}
	return q
}

func (q *quantizer) index(r, g, b uint8) uint8 {
	k := uint32(r)<<16 | uint32(g)<<8 | uint32(b)
	if i, ok := q.cache[k]; ok {
		return i
	}
	best, bestD := 0, 1<<62
	for i, c := range q.rgb {
		dr, dg, db := int(r)-c[0], int(g)-c[1], int(b)-c[2]
		d := 3*dr*dr + 4*dg*dg + 2*db*db
		if d < bestD {
			best, bestD = i, d
			if d == 0 {
				break
			}
		}
	}
	q.cache[k] = uint8(best)
	return uint8(best)
}

// paletted converts an opaque RGBA image to a paletted one.
func (q *quantizer) paletted(src *image.RGBA) *image.Paletted {
	b := src.Bounds()
	dst := image.NewPaletted(image.Rect(0, 0, b.Dx(), b.Dy()), q.pal)
	for y := 0; y < b.Dy(); y++ {
		s := src.Pix[src.PixOffset(b.Min.X, b.Min.Y+y):]
		d := dst.Pix[y*dst.Stride:]
		for x := 0; x < b.Dx(); x++ {
			d[x] = q.index(s[4*x], s[4*x+1], s[4*x+2])
		}
	}
	return dst
}

// blit copies the whole of src into dst with its top-left corner at (x, y).
// Both images share one palette, so this is a plain row copy.
func blit(dst, src *image.Paletted, x, y int) {
	w := src.Rect.Dx()
	for row := 0; row < src.Rect.Dy(); row++ {
		d := dst.PixOffset(x, y+row)
		s := row * src.Stride
		copy(dst.Pix[d:d+w], src.Pix[s:s+w])
	}
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 255}
}

// mix blends a towards b by t (0..1).
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x)*(1-t) + float64(y)*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}
