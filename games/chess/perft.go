package chess

import "sort"

// Perft counts the leaf nodes of the legal move tree of the given depth
// (plies), making every move including those at the last ply. Team Chess
// sacrifices are counted once each as bare sacrifices (the base rule; the
// Team Chess layer defines its own counting with the roles).
func Perft(p *Position, depth int) uint64 {
	return newPerfter(depth).run(p, depth, false)
}

// PerftBulk is Perft with bulk counting: at the last ply it counts the
// generated moves instead of making them. Same results, faster.
func PerftBulk(p *Position, depth int) uint64 {
	return newPerfter(depth).run(p, depth, true)
}

// perfter holds one move buffer and one child position per ply, so the
// search allocates nothing after setup (a recursive function's locals
// whose address is passed down would otherwise escape to the heap).
type perfter struct {
	bufs [][]Move
	pos  []Position
	bulk bool
}

func newPerfter(depth int) *perfter {
	if depth < 1 {
		depth = 1
	}
	pf := &perfter{bufs: make([][]Move, depth+1), pos: make([]Position, depth+1)}
	for i := range pf.bufs {
		pf.bufs[i] = make([]Move, 0, 256)
	}
	return pf
}

func (pf *perfter) run(p *Position, depth int, bulk bool) uint64 {
	if depth <= 0 {
		return 1
	}
	pf.bulk = bulk
	pf.pos[depth] = *p
	return pf.perft(depth)
}

// perft counts below pf.pos[depth].
func (pf *perfter) perft(depth int) uint64 {
	p := &pf.pos[depth]
	moves := p.AppendLegalMoves(pf.bufs[depth][:0])
	pf.bufs[depth] = moves[:0] // keep a grown buffer
	if depth == 1 {
		if pf.bulk {
			return uint64(len(moves))
		}
		var n uint64
		q := &pf.pos[0]
		for _, m := range moves {
			*q = *p
			q.play(m)
			n++
		}
		return n
	}
	var n uint64
	q := &pf.pos[depth-1]
	for _, m := range moves {
		*q = *p
		q.play(m)
		n += pf.perft(depth - 1)
	}
	return n
}

// DivideEntry is one root move of PerftDivide and its leaf count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// PerftDivide returns the perft count below each root move, sorted by the
// moves' UCI text. depth must be at least 1.
func PerftDivide(p *Position, depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var out []DivideEntry
	for _, m := range p.LegalMoves() {
		q := *p
		q.play(m)
		out = append(out, DivideEntry{m, PerftBulk(&q, depth-1)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Move.UCI() < out[j].Move.UCI() })
	return out
}
