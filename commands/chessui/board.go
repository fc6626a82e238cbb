package chessui

import (
	"bytes"
	"fmt"

	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/render"
)

// boardView says how to draw an 8x8 position.
type boardView struct {
	Flipped bool // Black at the bottom
	// CaptureMarks marks the side to move's pieces that can capture
	// (Survival Chess, where capture is mandatory).
	CaptureMarks bool
}

// BoardView says how to draw an 8x8 position (see ChessBoard).
type BoardView = boardView

// ChessBoard renders pos with r as board.png of size pixels, highlighting
// the squares in last (the last move's; any number, none before the first
// move) and the king of the side to move when it is in check.
func ChessBoard(r *render.Renderer, size int, pos *chess.Position, last []chess.Square, v BoardView) (*ui.File, error) {
	b := ChessFrame(pos, last, v)
	var buf bytes.Buffer
	if err := r.ChessPNG(&buf, &b, size); err != nil {
		return nil, fmt.Errorf("rendering board: %w", err)
	}
	return &ui.File{Name: "board.png", ContentType: "image/png", Data: buf.Bytes()}, nil
}

// ChessFrame is the board ChessBoard draws: pos's pieces, the squares of
// last highlighted, the king in check marked, as v says.
func ChessFrame(pos *chess.Position, last []chess.Square, v BoardView) render.ChessBoard {
	var b render.ChessBoard
	for sq := chess.Square(0); sq < 64; sq++ {
		p := pos.PieceAt(sq)
		if p == chess.NoPiece {
			continue
		}
		b.Squares[sq] = render.ChessPiece{Kind: renderKind(p.Role()), Colour: render.Colour(p.Color())}
	}
	b.Flipped = v.Flipped
	for _, sq := range last {
		b.LastMove = append(b.LastMove, render.Square(sq))
	}
	if pos.InCheck() {
		if k, ok := pos.KingSquare(pos.Turn()); ok {
			b.Check = []render.Square{render.Square(k)}
		}
	}
	if v.CaptureMarks {
		for _, sq := range pos.Capturers().Squares() {
			b.CaptureMarks = append(b.CaptureMarks, render.Square(sq))
		}
	}
	return b
}

func renderKind(r chess.Role) render.ChessPieceKind {
	switch r {
	case chess.Pawn:
		return render.Pawn
	case chess.Knight:
		return render.Knight
	case chess.Bishop:
		return render.Bishop
	case chess.Rook:
		return render.Rook
	case chess.Queen:
		return render.Queen
	case chess.King:
		return render.King
	}
	return render.NoPiece
}

// MoveNumberText writes the last move as "12. Nf3" or "12... exd5".
func MoveNumberText(g *chess.Game) string {
	sans := g.SANs()
	if len(sans) == 0 {
		return ""
	}
	start := g.Start()
	ply := len(sans) - 1
	// Full move number of the last move, counting from the start position.
	whiteFirst := start.Turn() == chess.White
	idx := ply
	if !whiteFirst {
		idx++
	}
	num := start.FullmoveNumber() + idx/2
	if idx%2 == 0 {
		return fmt.Sprintf("%d. %s", num, sans[ply])
	}
	return fmt.Sprintf("%d... %s", num, sans[ply])
}
