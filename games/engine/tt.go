package engine

import "sandtable/games/chess"

// Bound says what a stored score is: exact, or a lower or upper bound.
type bound uint8

const (
	boundNone bound = iota
	boundExact
	boundLower // the score failed high: the true score is at least this
	boundUpper // the score failed low: the true score is at most this
)

// ttEntry is one transposition table slot (16 bytes). meta holds the
// bound in its low 2 bits and the search generation (age) above.
type ttEntry struct {
	key   uint64
	move  chess.Move
	score int16
	depth int8
	meta  uint8
}

func (e *ttEntry) bound() bound { return bound(e.meta & 3) }
func (e *ttEntry) age() uint8   { return e.meta >> 2 }

// bucketSize is the number of entries of a bucket (64 bytes: one cache
// line).
const bucketSize = 4

// table is a transposition table of buckets of bucketSize entries: a
// position's bucket is chosen by the low bits of its Zobrist hash, and
// the whole hash is stored to tell positions apart. Replacement: a
// position's own entry is updated unless it holds a deeper search's
// bound (an exact score always replaces); otherwise the new position
// takes an empty entry, else the bucket's least valuable one: of an
// older search first, then the shallowest. gen is the current search's
// generation (the age an entry stores), advanced by newSearch.
type table struct {
	entries []ttEntry
	mask    uint64 // bucket index mask
	gen     uint8
}

func newTable(bits int) *table {
	return &table{entries: make([]ttEntry, 1<<bits), mask: 1<<(bits-2) - 1}
}

func (t *table) clear() { clear(t.entries); t.gen = 0 }

// newSearch starts a new generation: entries of earlier searches stay
// usable but are the first replaced.
func (t *table) newSearch() { t.gen = (t.gen + 1) & 63 }

func (t *table) bucket(key uint64) []ttEntry {
	i := (key & t.mask) * bucketSize
	return t.entries[i : i+bucketSize : i+bucketSize]
}

func (t *table) probe(key uint64) (ttEntry, bool) {
	b := t.bucket(key)
	for i := range b {
		if b[i].key == key && b[i].bound() != boundNone {
			return b[i], true
		}
	}
	return ttEntry{}, false
}

// worth ranks an entry for replacement: the lowest is replaced first.
// An entry of an older generation counts 8 plies less per generation.
func (t *table) worth(e *ttEntry) int {
	if e.bound() == boundNone {
		return -1 << 20
	}
	age := int((t.gen - e.age()) & 63)
	return int(e.depth) - 8*age
}

func (t *table) store(key uint64, m chess.Move, score, depth, ply int, b bound) {
	bk := t.bucket(key)
	var e *ttEntry
	for i := range bk {
		if bk[i].key == key && bk[i].bound() != boundNone {
			e = &bk[i]
			break
		}
	}
	if e != nil {
		if int(e.depth) > depth && b != boundExact && e.age() == t.gen {
			return
		}
		if m == chess.NullMove {
			m = e.move
		}
	} else {
		e = &bk[0]
		for i := 1; i < len(bk); i++ {
			if t.worth(&bk[i]) < t.worth(e) {
				e = &bk[i]
			}
		}
	}
	// Mate scores are stored relative to this node, read back relative to
	// the probing one.
	if score > MateBound {
		score += ply
	} else if score < -MateBound {
		score -= ply
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), meta: uint8(b) | t.gen<<2}
}

// scoreFromTT converts a stored score back to the probing node's ply.
func scoreFromTT(score, ply int) int {
	if score > MateBound {
		return score - ply
	}
	if score < -MateBound {
		return score + ply
	}
	return score
}
