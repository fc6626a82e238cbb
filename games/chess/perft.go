package chess

import "sort"

// Perft counts the leaf nodes of the legal move tree of the given depth
// (plies), making every move including those at the last ply. Team Chess
// sacrifices are counted once each as bare sacrifices (the base rule; the
// Team Chess layer defines its own counting with the roles).
func Perft(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return perft(p, depth, bufs, false)
}

// PerftBulk is Perft with bulk counting: at the last ply it counts the
// generated moves instead of making them. Same results, faster.
func PerftBulk(p *Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 256)
	}
	return perft(p, depth, bufs, true)
}

func perft(p *Position, depth int, bufs [][]Move, bulk bool) uint64 {
	moves := p.AppendLegalMoves(bufs[depth-1][:0])
	bufs[depth-1] = moves[:0] // keep a grown buffer
	if depth == 1 && bulk {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		q := *p
		q.play(m)
		if depth == 1 {
			n++
		} else {
			n += perft(&q, depth-1, bufs, bulk)
		}
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
