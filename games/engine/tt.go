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

// ttEntry is one transposition table slot (16 bytes).
type ttEntry struct {
	key   uint64
	move  chess.Move
	score int16
	depth int8
	bound bound
}

// table is a transposition table indexed by the low bits of the Zobrist
// hash, with the whole hash stored to tell positions apart. Replacement:
// a new entry replaces an older one of another position, or of the same
// position searched no deeper.
type table struct {
	entries []ttEntry
	mask    uint64
}

func newTable(bits int) *table {
	return &table{entries: make([]ttEntry, 1<<bits), mask: 1<<bits - 1}
}

func (t *table) clear() { clear(t.entries) }

func (t *table) probe(key uint64) (ttEntry, bool) {
	e := t.entries[key&t.mask]
	return e, e.key == key && e.bound != boundNone
}

func (t *table) store(key uint64, m chess.Move, score, depth, ply int, b bound) {
	e := &t.entries[key&t.mask]
	if e.key == key && int(e.depth) > depth && b != boundExact {
		return
	}
	if m == chess.NullMove && e.key == key {
		m = e.move
	}
	// Mate scores are stored relative to this node, read back relative to
	// the probing one.
	if score > MateBound {
		score += ply
	} else if score < -MateBound {
		score -= ply
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), bound: b}
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
