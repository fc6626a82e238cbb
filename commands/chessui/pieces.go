package chessui

import (
	"strings"

	"sandtable/games/chess"
)

// PieceLabel names a piece for a picker's option: "Pawn e7", "Knight g8".
func PieceLabel(r chess.Role, sq chess.Square) string {
	name := r.String()
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	return name + " " + sq.String()
}

// PieceOrder is a piece's place in a picker's list of pieces: King,
// Queen, Rook, Bishop, Knight, Pawn (then by square).
func PieceOrder(r chess.Role) int {
	switch r {
	case chess.King:
		return 0
	case chess.Queen:
		return 1
	case chess.Rook:
		return 2
	case chess.Bishop:
		return 3
	case chess.Knight:
		return 4
	}
	return 5
}
