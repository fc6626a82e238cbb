package engine

import "sandtable/games/chess"

// Score bounds, in centipawns. A win in n plies scores Mate-n; anything
// above MateBound is a forced win (elimination or checkmate).
const (
	Infinity  = 32000
	Mate      = 31000
	MateBound = Mate - 2*MaxPly
)

// evaluate returns the static evaluation of p from the side to move's
// point of view, in centipawns.
func evaluate(p *chess.Position) int {
	if p.Variant() == chess.Survival {
		return evalSurvival(p)
	}
	return evalChess(p)
}

// roles lists the piece roles, for loops over a side's pieces.
var roles = [...]chess.Role{chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen, chess.King}

// relRank returns the rank of sq counted from c's own side (0 = c's first
// rank, 7 = the rank c's pawns promote on).
func relRank(c chess.Color, sq chess.Square) int {
	if c == chess.White {
		return sq.Rank()
	}
	return 7 - sq.Rank()
}
