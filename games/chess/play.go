package chess

import "fmt"

// IsLegal reports whether m is legal in p. For Team Chess sacrifice forms
// with effects (WithPlaced, WithRemoved, WithTag) it checks the pawn move,
// that a removed square holds an opposing piece other than a king (and not
// the piece the pawn captured), that a placed role is a knight, bishop,
// rook or queen, and that the mover's king is not in check after the whole
// sacrifice (issue 3, Team Chess base).
func (p *Position) IsLegal(m Move) bool {
	if m.IsSacrifice() {
		return p.legalSacrifice(m)
	}
	var buf [256]Move
	return containsMove(p.AppendLegalMoves(buf[:0]), m)
}

func (p *Position) legalSacrifice(m Move) bool {
	if !p.rules().sacrifices {
		return false
	}
	bare := NewSacrifice(m.From(), m.To())
	var buf [64]Move
	if !containsMove(p.SacrificeCandidates(buf[:0]), bare) {
		return false
	}
	switch m.Promoted() {
	case NoRole, Knight, Bishop, Rook, Queen:
	default:
		return false
	}
	if sq, ok := m.Removed(); ok {
		pc := p.board[sq]
		if sq == m.To() || pc == NoPiece || pc.Color() == p.turn || pc.Role() == King {
			return false
		}
	}
	ksq, ok := p.KingSquare(p.turn)
	if !ok {
		return false
	}
	return p.safeAfter(m, ksq)
}

// SacrificeCandidates appends the Team Chess bare sacrificial moves (every
// pawn push or pawn capture reaching the last rank) without checking king
// safety: a role's effect (for example removing the checking piece) can make
// a sacrifice legal that is illegal bare. The Team Chess layer expands each
// candidate into its role forms and keeps those for which IsLegal holds.
// Other variants append nothing.
func (p *Position) SacrificeCandidates(dst []Move) []Move {
	if !p.rules().sacrifices {
		return dst
	}
	last := rank7
	if p.turn == Black {
		last = rank2
	}
	return p.genPawns(dst, p.Pieces(p.turn, Pawn)&last, ^Bitboard(0), true, true)
}

// PassTurn returns the position after the side to move passes, as a
// besieged side must in Team Chess (rule 2.1; docs/rules/teamchess.md A10):
// the other side is to move, the en passant right lapses, the halfmove
// clock grows by one and, after Black's pass, the fullmove number, as after
// a move; nothing else changes. p is unchanged. Errors: the position is not
// Team Chess, or the side to move is in check (passing would leave its king
// attacked). Whether the side has a legal move is the Team Chess layer's
// decision (its roles can make pawn moves legal), not checked here.
func (p *Position) PassTurn() (Position, error) {
	if !p.rules().pass {
		return *p, fmt.Errorf("only Team Chess has a pass (a besieged side, rule 2.1)")
	}
	if p.InCheck() {
		return *p, fmt.Errorf("%s is in check and cannot pass", p.turn.Title())
	}
	return p.PlayNull(), nil
}

// PlayNull returns the position after the side to move passes without
// checking that it may: the "null move" of a search engine's null-move
// pruning (games/engine), in no variant a legal move. The other side is to
// move, the en passant right lapses and the halfmove clock grows by one;
// p is unchanged. The caller must not pass while in check.
func (p *Position) PlayNull() Position {
	q := *p
	if q.ep != NoSquare {
		q.hash ^= zobristEP[q.ep.File()]
		q.ep = NoSquare
	}
	q.halfmove++
	if q.turn == Black {
		q.fullmove++
	}
	q.turn = q.turn.Other()
	q.hash ^= zobristBlack
	return q
}

// Play returns the position after the legal move m, or a *MoveError saying
// why m is illegal; p is unchanged either way.
func (p *Position) Play(m Move) (Position, error) {
	if !p.IsLegal(m) {
		return *p, p.explainMove(m)
	}
	q := *p
	q.play(m)
	return q, nil
}

// Captures returns the legal captures of the side to move (en passant
// included; Team Chess sacrifices that capture included).
func (p *Position) Captures() []Move {
	var out []Move
	for _, m := range p.LegalMoves() {
		if p.IsCapture(m) {
			out = append(out, m)
		}
	}
	return out
}

// IsCapture reports whether m captures (en passant included).
func (p *Position) IsCapture(m Move) bool {
	if m.Kind() == EnPassant {
		return true
	}
	if m.IsCastle() {
		return false
	}
	pc := p.board[m.To()]
	return pc != NoPiece && pc.Color() != p.turn
}

// Capturers returns the squares of the side to move's pieces that have a
// legal capture (in Survival Chess: the pieces that must capture).
func (p *Position) Capturers() Bitboard {
	var b Bitboard
	for _, m := range p.Captures() {
		b |= bb(m.From())
	}
	return b
}

// pseudoMoves appends every move that follows the pieces' movement rules,
// ignoring king safety, mandatory capture and attacked castling squares.
// Used only to explain why a move is illegal.
func (p *Position) pseudoMoves(dst []Move) []Move {
	dst = p.genPseudo(dst, true)
	dst = p.genPseudo(dst, false)
	if p.rules().castling {
		ksq, ok := p.KingSquare(p.turn)
		if ok {
			occ := p.occupied()
			home := E1
			short, long := WhiteKingside, WhiteQueenside
			if p.turn == Black {
				home, short, long = E8, BlackKingside, BlackQueenside
			}
			if ksq == home && p.castling&short != 0 && occ&(bb(home+1)|bb(home+2)) == 0 {
				dst = append(dst, NewMove(home, home+2, CastleShort, NoRole))
			}
			if ksq == home && p.castling&long != 0 && occ&(bb(home-1)|bb(home-2)|bb(home-3)) == 0 {
				dst = append(dst, NewMove(home, home-2, CastleLong, NoRole))
			}
		}
	}
	return dst
}

// PlayUnchecked returns the position after m without checking that m is
// legal: the fast path for search engines (games/engine), which play only
// moves AppendLegalMoves generated for p. A move that is not legal in p
// leaves the returned position invalid; p itself is unchanged either way.
func (p *Position) PlayUnchecked(m Move) Position {
	q := *p
	q.play(m)
	return q
}
