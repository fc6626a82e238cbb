package chess

import (
	"errors"
	"fmt"
	"strings"
)

// MoveKind says how a move changes the board beyond moving one piece.
type MoveKind uint8

// The move kinds.
const (
	Normal      MoveKind = iota // any ordinary move or capture
	DoublePush                  // pawn double step from its own second rank
	EnPassant                   // en passant capture
	CastleShort                 // O-O; From/To are the king's squares
	CastleLong                  // O-O-O; From/To are the king's squares
	Promotion                   // pawn reaches the last rank and becomes Promoted()
	Sacrifice                   // Team Chess: pawn reaches the last rank and is consumed
)

// Move is a compact move: from (bits 0-5), to (6-11), kind (12-14),
// promotion or placed role (15-17), removal target (18-23, flag 24) and an
// opaque variant tag (25-27). The zero Move is NullMove, never legal.
//
// For Sacrifice moves (Team Chess, rule 3) the pawn moves (capturing if the
// target square is occupied), is removed, and then the optional effects
// apply: a piece of role Placed() and the mover's colour is put on To(), and
// the opposing piece on Removed() is taken off. Tag() labels the sacrifice
// for the variant layer (for example which role was named); the core never
// interprets it.
type Move uint32

// NullMove is the zero Move.
const NullMove Move = 0

// NewMove returns a move of the given kind. promo is the promotion role for
// Promotion (NoRole otherwise).
func NewMove(from, to Square, kind MoveKind, promo Role) Move {
	return Move(uint32(from) | uint32(to)<<6 | uint32(kind)<<12 | uint32(promo)<<15)
}

// NewSacrifice returns a bare Team Chess sacrificial move (no effects).
func NewSacrifice(from, to Square) Move { return NewMove(from, to, Sacrifice, NoRole) }

// From returns the origin square (the king's for castling).
func (m Move) From() Square { return Square(m & 63) }

// To returns the destination square (the king's for castling).
func (m Move) To() Square { return Square(m >> 6 & 63) }

// Kind returns the move kind.
func (m Move) Kind() MoveKind { return MoveKind(m >> 12 & 7) }

// Promoted returns the promotion role (Promotion) or the role placed on To()
// (Sacrifice), else NoRole.
func (m Move) Promoted() Role { return Role(m >> 15 & 7) }

// IsPromotion reports whether the move is a promotion.
func (m Move) IsPromotion() bool { return m.Kind() == Promotion }

// IsSacrifice reports whether the move is a Team Chess sacrificial move.
func (m Move) IsSacrifice() bool { return m.Kind() == Sacrifice }

// IsCastle reports whether the move is castling.
func (m Move) IsCastle() bool { k := m.Kind(); return k == CastleShort || k == CastleLong }

// Removed returns the square whose opposing piece a sacrifice removes.
func (m Move) Removed() (Square, bool) {
	if m&(1<<24) == 0 {
		return NoSquare, false
	}
	return Square(m >> 18 & 63), true
}

// Tag returns the sacrifice's opaque variant tag (0..7).
func (m Move) Tag() uint8 { return uint8(m >> 25 & 7) }

// WithPlaced returns the sacrifice m that also places a piece of role r on To().
func (m Move) WithPlaced(r Role) Move { return m&^(7<<15) | Move(r)<<15 }

// WithRemoved returns the sacrifice m that also removes the opposing piece on sq.
func (m Move) WithRemoved(sq Square) Move {
	return m&^(127<<18) | Move(sq&63)<<18 | 1<<24
}

// WithTag returns m carrying the tag t (0..7).
func (m Move) WithTag(t uint8) Move { return m&^(7<<25) | Move(t&7)<<25 }

// UCI returns the move in UCI notation ("e2e4", "e7e8q", "e1g1").
// A promotion to king is written with 'k' (Survival Chess). A sacrifice is
// written as the pawn move, then the placed role's letter, then "x" and the
// removed square when present, then "~" and the tag when non-zero; the Team
// Chess layer may define its own player-facing form.
func (m Move) UCI() string {
	if m == NullMove {
		return "0000"
	}
	b := make([]byte, 0, 12)
	b = append(b, m.From().String()...)
	b = append(b, m.To().String()...)
	if r := m.Promoted(); r != NoRole {
		b = append(b, r.Letter()+('a'-'A'))
	}
	if m.IsSacrifice() {
		if sq, ok := m.Removed(); ok {
			b = append(b, 'x')
			b = append(b, sq.String()...)
		}
		if t := m.Tag(); t != 0 {
			b = append(b, '~', '0'+t)
		}
	}
	return string(b)
}

// String returns the UCI form.
func (m Move) String() string { return m.UCI() }

var moveKindKeys = [...]string{
	Normal:      "normal",
	DoublePush:  "double_push",
	EnPassant:   "en_passant",
	CastleShort: "castle_short",
	CastleLong:  "castle_long",
	Promotion:   "promotion",
	Sacrifice:   "sacrifice",
}

// String returns the kind's stable name ("en_passant").
func (k MoveKind) String() string {
	if int(k) < len(moveKindKeys) {
		return moveKindKeys[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// MarshalText implements encoding.TextMarshaler with String.
func (k MoveKind) MarshalText() ([]byte, error) {
	if int(k) >= len(moveKindKeys) {
		return nil, errors.New("chess: unknown move kind")
	}
	return []byte(moveKindKeys[k]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: it reads String's
// names and refuses any other text.
func (k *MoveKind) UnmarshalText(b []byte) error {
	for i, s := range moveKindKeys {
		if s == string(b) {
			*k = MoveKind(i)
			return nil
		}
	}
	return fmt.Errorf("chess: unknown move kind %q", b)
}

// moveFromUCI rebuilds the move of kind k whose UCI text is s, without a
// position (the inverse of UCI once the kind is known).
func moveFromUCI(s string, k MoveKind) (Move, error) {
	bad := fmt.Errorf("%q is not a UCI move", s)
	if len(s) < 4 || int(k) >= len(moveKindKeys) {
		return NullMove, bad
	}
	from, err1 := ParseSquare(s[:2])
	to, err2 := ParseSquare(s[2:4])
	if err1 != nil || err2 != nil || from == to {
		return NullMove, bad
	}
	m := NewMove(from, to, k, NoRole)
	rest := s[4:]
	if rest != "" && rest[0] >= 'a' && rest[0] <= 'z' && rest[0] != 'x' {
		r := roleFromLetter(rest[0])
		if r == NoRole || r == Pawn {
			return NullMove, bad
		}
		m = m.WithPlaced(r)
		rest = rest[1:]
	}
	if k == Sacrifice && strings.HasPrefix(rest, "x") && len(rest) >= 3 {
		sq, err := ParseSquare(rest[1:3])
		if err != nil {
			return NullMove, bad
		}
		m = m.WithRemoved(sq)
		rest = rest[3:]
	}
	if k == Sacrifice && len(rest) == 2 && rest[0] == '~' && rest[1] >= '1' && rest[1] <= '7' {
		m = m.WithTag(rest[1] - '0')
		rest = ""
	}
	if rest != "" || (k == Promotion) != (m.Promoted() != NoRole && k != Sacrifice) {
		return NullMove, bad
	}
	if m.UCI() != s {
		return NullMove, bad
	}
	return m, nil
}
