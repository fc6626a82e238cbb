package render

import "fmt"

// Square is a board square index: on the 8x8 board a1=0, b1=1, … h1=7,
// a2=8, … h8=63 (file + 8*rank); on the SandTable 20x20 board a1=0, … t1=19,
// a2=20, … t20=399 (file + 20*rank).
type Square int

// ChessPieceKind is the kind of an 8x8 chess piece; NoPiece is an empty square.
type ChessPieceKind uint8

// The piece kinds, in the engine's order (pawn 1 … king 6).
const (
	NoPiece ChessPieceKind = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// Colour is the side a chess piece belongs to.
type Colour uint8

// The two colours.
const (
	White Colour = iota
	Black
)

// ChessPiece is one piece on an 8x8 board; the zero value is an empty square.
type ChessPiece struct {
	Kind   ChessPieceKind
	Colour Colour
}

// ChessBoard is everything a chess board image shows. It is plain data: the
// caller converts its engine position into it.
type ChessBoard struct {
	// Squares holds the pieces, indexed a1=0 … h8=63.
	Squares [64]ChessPiece
	// Flipped puts Black at the bottom (rank 8 nearest the viewer, files h…a
	// from left to right). White is at the bottom otherwise.
	Flipped bool
	// LastMove lists the squares of the last move to highlight (normally its
	// from and to squares; castling may add the rook's); empty for none.
	LastMove []Square
	// Check lists squares whose king is in check (tinted red); empty for none.
	Check []Square
	// CaptureMarks lists squares whose piece can capture (Survival Chess:
	// capture is mandatory); each gets a corner mark.
	CaptureMarks []Square
}

func (b *ChessBoard) validate() error {
	for i, p := range b.Squares {
		if p.Kind > King {
			return fmt.Errorf("render: square %s: unknown piece kind %d", chessSquareName(Square(i)), p.Kind)
		}
		if p.Kind != NoPiece && p.Colour > Black {
			return fmt.Errorf("render: square %s: unknown colour %d", chessSquareName(Square(i)), p.Colour)
		}
	}
	for _, set := range []struct {
		name string
		sq   []Square
	}{{"last move", b.LastMove}, {"check", b.Check}, {"capture mark", b.CaptureMarks}} {
		for _, s := range set.sq {
			if s < 0 || s > 63 {
				return fmt.Errorf("render: %s square %d is off the 8x8 board (0..63)", set.name, s)
			}
		}
	}
	return nil
}

func chessSquareName(s Square) string {
	if s < 0 || s > 63 {
		return fmt.Sprintf("#%d", int(s))
	}
	return string(rune('a'+s%8)) + string(rune('1'+s/8))
}
