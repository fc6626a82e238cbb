package teamchess

import (
	"sort"

	"sandtable/games/chess"
)

// Perft counts the leaf nodes of the Team Chess move tree of the given
// depth from p (issue 6): every ordinary legal move once, and each
// 8th-rank sacrifice once per distinct choice: Royal Guard 1, Assassin one
// per removable piece, Political Agent 1, Saboteur one per legal forced
// reply, after which the opponent has exactly that one move. It is a board
// count: team state (commanders, stagnation, siege passes, a Political
// Agent exhausting a team) is not part of it, and a side without a legal
// move is a leaf with no children.
func Perft(p *chess.Position, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return CountLegalMoves(p)
	}
	var n uint64
	for _, m := range appendLegal(p, make([]Move, 0, 48), true) {
		n += perftMove(p, m, depth)
	}
	return n
}

// perftMove counts the leaves below playing m in p with depth plies left
// (m included).
func perftMove(p *chess.Position, m Move, depth int) uint64 {
	if depth <= 1 {
		return 1
	}
	q, _ := p.Play(m.Board)
	if m.Forced != nil {
		return perftMove(&q, *m.Forced, depth-1)
	}
	return Perft(&q, depth-1)
}

// DivideEntry is one root move of PerftDivide with its UCI-style text and
// leaf count.
type DivideEntry struct {
	Move  Move
	UCI   string
	Nodes uint64
}

// PerftDivide returns the Perft count below each root move, sorted by the
// UCI-style text (Move.UCI). depth must be at least 1.
func PerftDivide(p *chess.Position, depth int) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var out []DivideEntry
	for _, m := range LegalMoves(p) {
		out = append(out, DivideEntry{Move: m, UCI: m.UCI(), Nodes: perftMove(p, m, depth)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].UCI < out[j].UCI })
	return out
}
