package chess

import (
	"strings"
)

// SAN returns the move in Standard Algebraic Notation for this position:
// piece letter, the least disambiguation that suffices (file, then rank,
// then both), "x" for captures, the destination, "=Q" for promotions (=K
// allowed in Survival Chess), and "+" or "#" where the variant has check.
// Castling is "O-O"/"O-O-O". A Team Chess sacrifice is the pawn move, then
// "=Q" when it places a piece, ":x" and the square when it removes one, and
// "~" and the tag when it has one. m must be legal in p (or a legal
// sacrifice form); otherwise the result is the UCI text.
func (p *Position) SAN(m Move) string {
	var buf [256]Move
	legal := p.AppendLegalMoves(buf[:0])
	if !containsMove(legal, m) && !(m.IsSacrifice() && p.IsLegal(m)) {
		return m.UCI()
	}
	return p.sanWith(m, legal, true)
}

func containsMove(ms []Move, m Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// sanWith formats m given the legal moves of p (for disambiguation).
func (p *Position) sanWith(m Move, legal []Move, suffix bool) string {
	b := make([]byte, 0, 12)
	from, to := m.From(), m.To()
	switch m.Kind() {
	case CastleShort:
		b = append(b, "O-O"...)
	case CastleLong:
		b = append(b, "O-O-O"...)
	default:
		pc := p.board[from]
		capture := p.board[to] != NoPiece || m.Kind() == EnPassant
		if pc.Role() == Pawn {
			if capture {
				b = append(b, byte('a'+from.File()), 'x')
			}
		} else {
			b = append(b, pc.Role().Letter())
			sameFile, sameRank, other := false, false, false
			for _, x := range legal {
				if x.To() == to && x.From() != from && p.board[x.From()] == pc && !x.IsCastle() {
					other = true
					if x.From().File() == from.File() {
						sameFile = true
					}
					if x.From().Rank() == from.Rank() {
						sameRank = true
					}
				}
			}
			if other {
				if !sameFile {
					b = append(b, byte('a'+from.File()))
				} else if !sameRank {
					b = append(b, byte('1'+from.Rank()))
				} else {
					b = append(b, from.String()...)
				}
			}
			if capture {
				b = append(b, 'x')
			}
		}
		b = append(b, to.String()...)
		if r := m.Promoted(); r != NoRole {
			b = append(b, '=', r.Letter())
		}
		if m.IsSacrifice() {
			if sq, ok := m.Removed(); ok {
				b = append(b, ':', 'x')
				b = append(b, sq.String()...)
			}
			if t := m.Tag(); t != 0 {
				b = append(b, '~', '0'+t)
			}
		}
	}
	if suffix && p.rules().royalKing {
		q := *p
		q.play(m)
		if q.InCheck() {
			if q.HasLegalMove() {
				b = append(b, '+')
			} else {
				b = append(b, '#')
			}
		}
	}
	return string(b)
}

// MoveText is one legal move with its SAN and UCI forms.
type MoveText struct {
	Move Move
	SAN  string
	UCI  string
}

// LegalMoveTexts returns every legal move with its SAN and UCI, sorted by
// SAN, for listings and autocomplete.
func (p *Position) LegalMoveTexts() []MoveText {
	legal := p.LegalMoves()
	out := make([]MoveText, len(legal))
	for i, m := range legal {
		out[i] = MoveText{m, p.sanWith(m, legal, true), m.UCI()}
	}
	sortMoveTexts(out)
	return out
}

func sortMoveTexts(ts []MoveText) {
	// insertion sort keeps this file free of extra imports; lists are short
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].SAN < ts[j-1].SAN; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// SANs returns the SAN of each legal move in ms (which must be legal in p).
func (p *Position) sans(ms []Move) []string {
	var buf [256]Move
	legal := p.AppendLegalMoves(buf[:0])
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = p.sanWith(m, legal, true)
	}
	return out
}

// joinOr joins items as "a, b or c", showing at most max items.
func joinOr(items []string, max int) string {
	more := 0
	if len(items) > max {
		more = len(items) - max
		items = items[:max]
	}
	var s string
	switch len(items) {
	case 0:
		return ""
	case 1:
		s = items[0]
	default:
		s = strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
	}
	if more > 0 {
		s = strings.Join(items, ", ") + " and " + itoa(more) + " more"
	}
	return s
}

// joinList joins items as "a, b, c" showing at most max items.
func joinList(items []string, max int) string {
	if len(items) > max {
		return strings.Join(items[:max], ", ") + " and " + itoa(len(items)-max) + " more"
	}
	return strings.Join(items, ", ")
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
