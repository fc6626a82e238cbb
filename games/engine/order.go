package engine

import "sandtable/games/chess"

// Move ordering scores: the table's move first, then captures by MVV-LVA
// (most valuable victim, least valuable attacker) and promotions, then
// the two killer moves of the ply, then quiet moves by history.
const (
	orderTT      = 1 << 30
	orderCapture = 1 << 28
	orderKiller1 = 1 << 27
	orderKiller2 = orderKiller1 - 1
)

// orderValue ranks roles for MVV-LVA (a king counts as a victim in
// Survival Chess, where it can be captured).
var orderValue = [7]int{0, 1, 3, 3, 5, 9, 4}

// scoreMoves fills scores for moves at ply.
func (s *Searcher) scoreMoves(p *chess.Position, moves []chess.Move, scores []int, ttMove chess.Move, ply int) {
	us := p.Turn()
	for i, m := range moves {
		var sc int
		switch {
		case m == ttMove:
			sc = orderTT
		case p.IsCapture(m):
			victim := p.PieceAt(m.To()).Role()
			if m.Kind() == chess.EnPassant {
				victim = chess.Pawn
			}
			attacker := p.PieceAt(m.From()).Role()
			sc = orderCapture + orderValue[victim]*16 - orderValue[attacker] + orderValue[m.Promoted()]*16
		case m.IsPromotion():
			sc = orderCapture + orderValue[m.Promoted()]*8 - 64
		case ply < MaxPly && m == s.killers[ply][0]:
			sc = orderKiller1
		case ply < MaxPly && m == s.killers[ply][1]:
			sc = orderKiller2
		default:
			sc = int(s.history[us][m.From()][m.To()])
		}
		scores[i] = sc
	}
}

// pickNext moves the best-scored move of moves[i:] to index i
// (selection sort, one step at a time: a cut-off makes the rest moot).
func pickNext(moves []chess.Move, scores []int, i int) {
	best := i
	for j := i + 1; j < len(moves); j++ {
		if scores[j] > scores[best] {
			best = j
		}
	}
	moves[i], moves[best] = moves[best], moves[i]
	scores[i], scores[best] = scores[best], scores[i]
}
