package chess

import "fmt"

// Color is a side: White or Black.
type Color uint8

// The two sides.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing side.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Title returns "White" or "Black", for sentences.
func (c Color) Title() string {
	if c == White {
		return "White"
	}
	return "Black"
}

// Role is a kind of piece without colour.
type Role uint8

// The roles. NoRole marks "no piece" and "no promotion".
const (
	NoRole Role = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

const roleLetters = " PNBRQK"

// Letter returns the upper-case SAN letter ('P' for a pawn), or 0 for NoRole.
func (r Role) Letter() byte {
	if r == NoRole || r > King {
		return 0
	}
	return roleLetters[r]
}

// String returns the English name of the role ("knight").
func (r Role) String() string {
	switch r {
	case Pawn:
		return "pawn"
	case Knight:
		return "knight"
	case Bishop:
		return "bishop"
	case Rook:
		return "rook"
	case Queen:
		return "queen"
	case King:
		return "king"
	}
	return "none"
}

// roleFromLetter maps a letter of either case to a role (NoRole if none).
func roleFromLetter(c byte) Role {
	switch c {
	case 'P', 'p':
		return Pawn
	case 'N', 'n':
		return Knight
	case 'B', 'b':
		return Bishop
	case 'R', 'r':
		return Rook
	case 'Q', 'q':
		return Queen
	case 'K', 'k':
		return King
	}
	return NoRole
}

// Piece is a coloured piece: colour<<3 | role. NoPiece is the empty square.
type Piece uint8

// NoPiece is the value of an empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of the given colour and role.
func MakePiece(c Color, r Role) Piece { return Piece(uint8(c)<<3 | uint8(r)) }

// Color returns the piece's side (White for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// Role returns the piece's role (NoRole for NoPiece).
func (p Piece) Role() Role { return Role(p & 7) }

// FENChar returns the FEN letter: upper case for White, lower case for Black.
func (p Piece) FENChar() byte {
	l := p.Role().Letter()
	if l == 0 {
		return '.'
	}
	if p.Color() == Black {
		return l + ('a' - 'A')
	}
	return l
}

// String returns for example "white knight".
func (p Piece) String() string {
	if p == NoPiece {
		return "empty"
	}
	return p.Color().String() + " " + p.Role().String()
}

// Square is a board square, 0 = a1, 7 = h1, 63 = h8. NoSquare is 64.
type Square uint8

// NoSquare marks an absent square (no en passant square, no king).
const NoSquare Square = 64

// Named squares used by the rules.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
)

// Rank 8 squares.
const (
	A8 Square = 56 + iota
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// SquareAt returns the square on file 0..7 (a..h) and rank 0..7 (1..8).
func SquareAt(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0..7 for a..h.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0..7 for ranks 1..8.
func (s Square) Rank() int { return int(s) >> 3 }

// IsLight reports whether the square is a light square (h1 and a8 are light).
func (s Square) IsLight() bool { return (s.File()+s.Rank())%2 == 1 }

// String returns the algebraic name ("e4"), or "-" for NoSquare.
func (s Square) String() string {
	if s >= NoSquare {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare parses an algebraic square name such as "e4" (lower case).
func ParseSquare(s string) (Square, error) {
	if len(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8' {
		return NoSquare, fmt.Errorf("%q is not a square (expected a1 to h8)", s)
	}
	return SquareAt(int(s[0]-'a'), int(s[1]-'1')), nil
}

// CastlingRights is a set of castling rights (bits for K, Q, k, q).
type CastlingRights uint8

// Castling right bits.
const (
	WhiteKingside CastlingRights = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
	NoCastling  CastlingRights = 0
	AllCastling CastlingRights = 15
)

// String returns the FEN castling field ("KQkq", "-").
func (c CastlingRights) String() string {
	if c == 0 {
		return "-"
	}
	b := make([]byte, 0, 4)
	for i, l := range "KQkq" {
		if c&(1<<i) != 0 {
			b = append(b, byte(l))
		}
	}
	return string(b)
}
