package engine

import "sandtable/games/chess"

// survivalValue is the material value of each role in Survival Chess
// (index chess.Role). The king is an ordinary piece there, worth about a
// minor piece; sliders are worth a little less than in chess because
// mandatory capture can drag them into losing exchanges.
var survivalValue = [7]int{0, 100, 300, 310, 450, 800, 300}

// survivalPieceBonus is added per piece: a side with no pieces has lost
// (elimination), so numbers count beyond their material.
const survivalPieceBonus = 40

// survivalFew scores a side by how few pieces it has left (index: pieces
// left): the closer to extinction, the larger the penalty.
var survivalFew = [6]int{0, -160, -80, -35, -15, -5}

// pawnAdvance and passedAdvance reward a pawn by its rank counted from
// its own side (promotion races): every pawn, and more for a passed pawn
// (no opposing pawn ahead of it on its file or the next ones).
var (
	pawnAdvance   = [8]int{0, 0, 0, 4, 10, 20, 35, 0}
	passedAdvance = [8]int{0, 0, 10, 20, 35, 60, 100, 0}
)

// adjacentFiles[f] is the files f-1, f and f+1.
var adjacentFiles = func() (a [8]chess.Bitboard) {
	const fileA chess.Bitboard = 0x0101010101010101
	for f := range 8 {
		a[f] = fileA << f
		if f > 0 {
			a[f] |= fileA << (f - 1)
		}
		if f < 7 {
			a[f] |= fileA << (f + 1)
		}
	}
	return
}()

// ahead returns the squares of the ranks strictly ahead of sq for c.
func ahead(c chess.Color, sq chess.Square) chess.Bitboard {
	if c == chess.White {
		if sq.Rank() == 7 {
			return 0
		}
		return ^chess.Bitboard(0) << (8 * (sq.Rank() + 1))
	}
	return ^chess.Bitboard(0) >> (8 * (8 - sq.Rank()))
}

// evalSurvival: material with extinction in mind (values, a bonus per
// piece, a penalty for the last few pieces), mobility of the pieces, and
// pawn advancement with passed pawns counted as promotion races.
func evalSurvival(p *chess.Position) int {
	occ := p.AllOccupied()
	var score [2]int
	for _, c := range [2]chess.Color{chess.White, chess.Black} {
		own := p.Occupied(c)
		n := own.Count()
		score[c] += n * survivalPieceBonus
		if n < len(survivalFew) {
			score[c] += survivalFew[n]
		}
		enemyPawns := p.Pieces(c.Other(), chess.Pawn)
		for b := p.Pieces(c, chess.Pawn); b != 0; b &= b - 1 {
			sq := b.First()
			r := relRank(c, sq)
			score[c] += survivalValue[chess.Pawn] + pawnAdvance[r]
			if enemyPawns&adjacentFiles[sq.File()]&ahead(c, sq) == 0 {
				score[c] += passedAdvance[r]
			}
		}
		for _, r := range roles[1:] {
			pc := chess.MakePiece(c, r)
			for b := p.Pieces(c, r); b != 0; b &= b - 1 {
				sq := b.First()
				mob := (chess.AttacksFrom(pc, sq, occ) &^ own).Count()
				if r == chess.Queen {
					mob /= 2
				}
				score[c] += survivalValue[r] + 3*mob
			}
		}
	}
	us := p.Turn()
	v := score[us] - score[us.Other()]
	// Endgame knowledge: a side that can never eliminate the other can
	// at best draw.
	if cannotEliminate(p, us) {
		v = min(v, 0)
	}
	if cannotEliminate(p, us.Other()) {
		v = max(v, 0)
	}
	return v
}

// lightSquares are the light squares (h1 and a8 are light).
const lightSquares chess.Bitboard = 0x55aa55aa55aa55aa

// cannotEliminate reports whether c can never capture every opposing
// piece: c has only bishops, all on squares of one colour, and the
// opponent has a bishop on the other colour, which no piece of c can
// ever attack (a bishop keeps its square colour, and c will never have
// another kind of piece: only pawns promote).
func cannotEliminate(p *chess.Position, c chess.Color) bool {
	own := p.Occupied(c)
	if own == 0 || own != p.Pieces(c, chess.Bishop) {
		return false
	}
	theirs := p.Pieces(c.Other(), chess.Bishop)
	switch {
	case own&^lightSquares == 0: // all ours on light squares
		return theirs&^lightSquares != 0
	case own&lightSquares == 0: // all ours on dark squares
		return theirs&lightSquares != 0
	}
	return false
}
