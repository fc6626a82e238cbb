package teamchess

import (
	"sandtable/games/chess"
)

// Move is one Team Chess move. Board is the move on the board; for an
// 8th-rank sacrifice it is a chess.Sacrifice whose tag is the Role, with the
// Royal Guard's Queen as its placed piece (WithPlaced) and the Assassin's
// victim as its removed square (WithRemoved). Forced is set only for a
// Saboteur: the opponent's next move, named in full (a Saboteur forced
// reply names its own forced reply, and so on; each one consumes a pawn, so
// the chain is finite). The zero Move is not a legal move.
type Move struct {
	Board  chess.Move
	Forced *Move
}

// IsSacrifice reports whether m is an 8th-rank sacrifice (rule 3).
func (m Move) IsSacrifice() bool { return m.Board.IsSacrifice() }

// Role returns the sacrifice's role, or NoRole for any other move.
func (m Move) Role() Role {
	if !m.Board.IsSacrifice() {
		return NoRole
	}
	return Role(m.Board.Tag())
}

// Target returns the square of the piece an Assassin removes.
func (m Move) Target() (chess.Square, bool) {
	if m.Role() != Assassin {
		return chess.NoSquare, false
	}
	return m.Board.Removed()
}

// Equal reports whether m and o are the same move, forced replies included.
func (m Move) Equal(o Move) bool {
	for {
		if m.Board != o.Board || (m.Forced == nil) != (o.Forced == nil) {
			return false
		}
		if m.Forced == nil {
			return true
		}
		m, o = *m.Forced, *o.Forced
	}
}

// UCI returns the UCI-style form used by perft -divide and stored game
// states: an ordinary move is plain UCI ("e2e4", "e1g1"); a sacrifice is the
// pawn's from and to squares, the role letter (g Royal Guard, a Assassin,
// s Saboteur, p Political Agent), then for an Assassin ":" and the removed
// square, for a Saboteur ":" and the forced reply in this same form:
// "e7e8g", "e7d8a:d4", "e7e8p", "e7e8s:g8f6", "e7e8s:d2d1s:g1f3".
func (m Move) UCI() string {
	b := make([]byte, 0, 16)
	return string(m.appendUCI(b))
}

func (m Move) appendUCI(b []byte) []byte {
	if !m.IsSacrifice() {
		return append(b, m.Board.UCI()...)
	}
	b = append(b, m.Board.From().String()...)
	b = append(b, m.Board.To().String()...)
	r := m.Role()
	if r == NoRole {
		return b // a bare sacrifice is never legal in Team Chess
	}
	b = append(b, r.Letter())
	switch r {
	case Assassin:
		sq, _ := m.Board.Removed()
		b = append(b, ':')
		b = append(b, sq.String()...)
	case Saboteur:
		if m.Forced != nil {
			b = append(b, ':')
			b = m.Forced.appendUCI(b)
		}
	}
	return b
}

// String returns the UCI-style form.
func (m Move) String() string { return m.UCI() }

// sacrifice builds the role form of the bare sacrifice bare.
func sacrifice(bare chess.Move, r Role, target chess.Square) chess.Move {
	m := bare.WithTag(uint8(r))
	switch r {
	case RoyalGuard:
		m = m.WithPlaced(chess.Queen)
	case Assassin:
		m = m.WithRemoved(target)
	}
	return m
}

// chain returns m and its forced replies in order.
func (m Move) chain() []chess.Move {
	out := []chess.Move{m.Board}
	for f := m.Forced; f != nil; f = f.Forced {
		out = append(out, f.Board)
	}
	return out
}
