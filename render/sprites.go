package render

import (
	"image"
	"sync"
	"sync/atomic"
)

// spriteSet holds the tiles of one board kind at one size. Tiles are drawn
// with gg the first time they are needed, converted to the fixed palette and
// kept; afterwards a tile is an atomic load. Safe for concurrent use.
type spriteSet struct {
	mu    sync.Mutex // serialises drawing and guards q
	q     *quantizer
	tiles []atomic.Pointer[image.Paletted]
	draw  func(key int) *image.RGBA
}

func newSpriteSet(q *quantizer, n int, draw func(key int) *image.RGBA) *spriteSet {
	return &spriteSet{q: q, tiles: make([]atomic.Pointer[image.Paletted], n), draw: draw}
}

func (s *spriteSet) tile(key int) *image.Paletted {
	if t := s.tiles[key].Load(); t != nil {
		return t
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.tiles[key].Load(); t != nil {
		return t
	}
	t := s.q.paletted(s.draw(key))
	s.tiles[key].Store(t)
	return t
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
