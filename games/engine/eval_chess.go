package engine

import "sandtable/games/chess"

// chessValue is the material value of each role in standard chess
// (index chess.Role; the king's is 0: it is never captured).
var chessValue = [7]int{0, 100, 320, 330, 500, 900, 0}

// Piece-square tables for White, written as seen from White's side (the
// first row is rank 8): Tomasz Michniewski's "Simplified Evaluation
// Function". Black reads them mirrored.
var chessPST = [7][64]int{
	chess.Pawn: {
		0, 0, 0, 0, 0, 0, 0, 0,
		50, 50, 50, 50, 50, 50, 50, 50,
		10, 10, 20, 30, 30, 20, 10, 10,
		5, 5, 10, 25, 25, 10, 5, 5,
		0, 0, 0, 20, 20, 0, 0, 0,
		5, -5, -10, 0, 0, -10, -5, 5,
		5, 10, 10, -20, -20, 10, 10, 5,
		0, 0, 0, 0, 0, 0, 0, 0,
	},
	chess.Knight: {
		-50, -40, -30, -30, -30, -30, -40, -50,
		-40, -20, 0, 0, 0, 0, -20, -40,
		-30, 0, 10, 15, 15, 10, 0, -30,
		-30, 5, 15, 20, 20, 15, 5, -30,
		-30, 0, 15, 20, 20, 15, 0, -30,
		-30, 5, 10, 15, 15, 10, 5, -30,
		-40, -20, 0, 5, 5, 0, -20, -40,
		-50, -40, -30, -30, -30, -30, -40, -50,
	},
	chess.Bishop: {
		-20, -10, -10, -10, -10, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 10, 10, 5, 0, -10,
		-10, 5, 5, 10, 10, 5, 5, -10,
		-10, 0, 10, 10, 10, 10, 0, -10,
		-10, 10, 10, 10, 10, 10, 10, -10,
		-10, 5, 0, 0, 0, 0, 5, -10,
		-20, -10, -10, -10, -10, -10, -10, -20,
	},
	chess.Rook: {
		0, 0, 0, 0, 0, 0, 0, 0,
		5, 10, 10, 10, 10, 10, 10, 5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		-5, 0, 0, 0, 0, 0, 0, -5,
		0, 0, 0, 5, 5, 0, 0, 0,
	},
	chess.Queen: {
		-20, -10, -10, -5, -5, -10, -10, -20,
		-10, 0, 0, 0, 0, 0, 0, -10,
		-10, 0, 5, 5, 5, 5, 0, -10,
		-5, 0, 5, 5, 5, 5, 0, -5,
		0, 0, 5, 5, 5, 5, 0, -5,
		-10, 5, 5, 5, 5, 5, 0, -10,
		-10, 0, 5, 0, 0, 0, 0, -10,
		-20, -10, -10, -5, -5, -10, -10, -20,
	},
	chess.King: { // middlegame
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-30, -40, -40, -50, -50, -40, -40, -30,
		-20, -30, -30, -40, -40, -30, -30, -20,
		-10, -20, -20, -20, -20, -20, -20, -10,
		20, 20, 0, 0, 0, 0, 20, 20,
		20, 30, 10, 0, 0, 10, 30, 20,
	},
}

// kingEndPST is the king's table once the queens and most pieces are off.
var kingEndPST = [64]int{
	-50, -40, -30, -20, -20, -30, -40, -50,
	-30, -20, -10, 0, 0, -10, -20, -30,
	-30, -10, 20, 30, 30, 20, -10, -30,
	-30, -10, 30, 40, 40, 30, -10, -30,
	-30, -10, 30, 40, 40, 30, -10, -30,
	-30, -10, 20, 30, 30, 20, -10, -30,
	-30, -30, 0, 0, 0, 0, -30, -30,
	-50, -30, -30, -30, -30, -30, -30, -50,
}

// pstIndex maps a square to its index in a table written from White's side.
func pstIndex(c chess.Color, sq chess.Square) int {
	if c == chess.White {
		return int(sq) ^ 56
	}
	return int(sq)
}

// evalChess: material, piece-square tables, the bishop pair, and the
// king's endgame table when little material is left (phase by non-pawn
// material).
func evalChess(p *chess.Position) int {
	var score [2]int
	phase := 0 // non-pawn material of both sides, kings excluded
	for _, c := range [2]chess.Color{chess.White, chess.Black} {
		for _, r := range roles {
			for b := p.Pieces(c, r); b != 0; b &= b - 1 {
				sq := b.First()
				if r == chess.King {
					continue
				}
				score[c] += chessValue[r] + chessPST[r][pstIndex(c, sq)]
				if r != chess.Pawn {
					phase += chessValue[r]
				}
			}
		}
		if p.Pieces(c, chess.Bishop).More() {
			score[c] += 30
		}
	}
	endgame := phase <= 2600
	for _, c := range [2]chess.Color{chess.White, chess.Black} {
		for b := p.Pieces(c, chess.King); b != 0; b &= b - 1 {
			i := pstIndex(c, b.First())
			if endgame {
				score[c] += kingEndPST[i]
			} else {
				score[c] += chessPST[chess.King][i]
			}
		}
	}
	us := p.Turn()
	return score[us] - score[us.Other()] + 10 // a small bonus for the move
}
