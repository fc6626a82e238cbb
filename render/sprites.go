package render

import (
	"image"
	"sync"
	"sync/atomic"
)

// spriteSet holds the tiles of one board kind at one size, by integer key.
// A tile is drawn with gg the first time it is needed, converted to the
// fixed palette and kept; afterwards it is one lookup in an immutable map
// (replaced, copied, when a tile is added), with no lock and no
// allocation. Safe for concurrent use.
type spriteSet struct {
	mu    sync.Mutex // serialises drawing and guards q
	q     *quantizer
	tiles atomic.Pointer[map[int]*image.Paletted]
	draw  func(key int) *image.RGBA
}

func newSpriteSet(q *quantizer, draw func(key int) *image.RGBA) *spriteSet {
	s := &spriteSet{q: q, draw: draw}
	s.tiles.Store(&map[int]*image.Paletted{})
	return s
}

func (s *spriteSet) tile(key int) *image.Paletted {
	if t, ok := (*s.tiles.Load())[key]; ok {
		return t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := *s.tiles.Load()
	if t, ok := old[key]; ok {
		return t
	}
	t := s.q.paletted(s.draw(key))
	m := make(map[int]*image.Paletted, len(old)+1)
	for k, v := range old {
		m[k] = v
	}
	m[key] = t
	s.tiles.Store(&m)
	return t
}

// once builds a value under the set's lock the first time it is asked for.
func (s *spriteSet) once(p *atomic.Pointer[image.Paletted], build func() *image.RGBA) *image.Paletted {
	if f := p.Load(); f != nil {
		return f
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := p.Load(); f != nil {
		return f
	}
	f := s.q.paletted(build())
	p.Store(f)
	return f
}

// sizeCache keeps the sprite sets of the few sizes in use. Sizes come from
// configuration or a command line, so a small bound suffices; when full, an
// arbitrary set is dropped (images already rendered keep working).
type sizeCache[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*V
}

const maxCachedSizes = 6

func (c *sizeCache[K, V]) get(k K, mk func() *V) *V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	if c.m == nil {
		c.m = map[K]*V{}
	}
	if len(c.m) >= maxCachedSizes {
		for old := range c.m {
			delete(c.m, old)
			break
		}
	}
	v := mk()
	c.m[k] = v
	return v
}
