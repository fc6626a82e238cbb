package chess

// Position is a validated board state of one variant: piece placement,
// side to move, castling rights, en passant square and move counters.
// It is a small value type: copying it is cheap and the copy is independent.
// Obtain one from ParseFEN or StartPosition; the zero value is not valid.
type Position struct {
	board    [64]Piece
	byRole   [7]Bitboard // index Role; byRole[0] unused
	byColor  [2]Bitboard
	hash     uint64
	halfmove int32
	fullmove int32
	turn     Color
	castling CastlingRights
	ep       Square // set only when a pawn of the side to move stands beside the double-stepped pawn
	variant  Variant
}

// StartPosition returns the variant's initial position (standard chess for
// Chess and TeamChess, the Tartan Grid for Survival).
func StartPosition(v Variant) Position {
	p, err := ParseFEN(v, v.StartFEN())
	if err != nil {
		panic("chess: bad built-in start FEN: " + err.Error())
	}
	return p
}

// Variant returns the position's rule set.
func (p *Position) Variant() Variant { return p.variant }

// Turn returns the side to move.
func (p *Position) Turn() Color { return p.turn }

// PieceAt returns the piece on sq (NoPiece when empty or sq is invalid).
func (p *Position) PieceAt(sq Square) Piece {
	if sq >= NoSquare {
		return NoPiece
	}
	return p.board[sq]
}

// Pieces returns the squares of the pieces of colour c and role r.
func (p *Position) Pieces(c Color, r Role) Bitboard {
	if r == NoRole || r > King {
		return 0
	}
	return p.byRole[r] & p.byColor[c]
}

// Occupied returns the squares holding pieces of colour c.
func (p *Position) Occupied(c Color) Bitboard { return p.byColor[c] }

// Castling returns the castling rights (always none in Survival Chess).
func (p *Position) Castling() CastlingRights { return p.castling }

// EnPassantSquare returns the square a pawn may capture to en passant, or
// NoSquare. It is set only when an en passant capture is at least
// pseudo-legal; see LegalEnPassant for FEN and repetition purposes.
func (p *Position) EnPassantSquare() Square { return p.ep }

// HalfmoveClock returns the number of plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return int(p.halfmove) }

// FullmoveNumber returns the move number (starts at 1, grows after Black moves).
func (p *Position) FullmoveNumber() int { return int(p.fullmove) }

// Hash returns the Zobrist hash (pieces, side, castling, en passant file).
func (p *Position) Hash() uint64 { return p.hash }

// KingSquare returns the king of colour c; ok is false when c has no king
// or (Survival Chess, where kings are ordinary) more than one.
func (p *Position) KingSquare(c Color) (sq Square, ok bool) {
	k := p.Pieces(c, King)
	if k == 0 || k.More() {
		return NoSquare, false
	}
	return k.First(), true
}

// InCheck reports whether the side to move is in check (never in Survival Chess).
func (p *Position) InCheck() bool {
	if !p.rules().royalKing {
		return false
	}
	return p.checkers() != 0
}

func (p *Position) occupied() Bitboard { return p.byColor[0] | p.byColor[1] }

func (p *Position) checkers() Bitboard {
	ksq := p.Pieces(p.turn, King).First()
	if ksq == NoSquare {
		return 0
	}
	return p.attackersTo(ksq, p.occupied()) & p.byColor[p.turn.Other()]
}

// attackersTo returns pieces of both colours attacking sq given occupancy occ.
func (p *Position) attackersTo(sq Square, occ Bitboard) Bitboard {
	return (pawnAttacks[Black][sq] & p.byColor[White] & p.byRole[Pawn]) |
		(pawnAttacks[White][sq] & p.byColor[Black] & p.byRole[Pawn]) |
		(knightAttacks[sq] & p.byRole[Knight]) |
		(kingAttacks[sq] & p.byRole[King]) |
		(rookAttacks(sq, occ) & (p.byRole[Rook] | p.byRole[Queen])) |
		(bishopAttacks(sq, occ) & (p.byRole[Bishop] | p.byRole[Queen]))
}

// attacked reports whether colour by attacks sq given occupancy occ.
func (p *Position) attacked(sq Square, by Color, occ Bitboard) bool {
	them := p.byColor[by]
	if pawnAttacks[by.Other()][sq]&them&p.byRole[Pawn] != 0 ||
		knightAttacks[sq]&them&p.byRole[Knight] != 0 ||
		kingAttacks[sq]&them&p.byRole[King] != 0 {
		return true
	}
	if rookAttacks(sq, occ)&them&(p.byRole[Rook]|p.byRole[Queen]) != 0 {
		return true
	}
	return bishopAttacks(sq, occ)&them&(p.byRole[Bishop]|p.byRole[Queen]) != 0
}

// IsAttacked reports whether a piece of colour by attacks sq.
func (p *Position) IsAttacked(sq Square, by Color) bool {
	if sq >= NoSquare {
		return false
	}
	return p.attacked(sq, by, p.occupied())
}

func (p *Position) put(sq Square, pc Piece) {
	p.board[sq] = pc
	p.byRole[pc.Role()] |= bb(sq)
	p.byColor[pc.Color()] |= bb(sq)
	p.hash ^= zobristPiece[pc][sq]
}

func (p *Position) remove(sq Square) {
	pc := p.board[sq]
	p.board[sq] = NoPiece
	p.byRole[pc.Role()] &^= bb(sq)
	p.byColor[pc.Color()] &^= bb(sq)
	p.hash ^= zobristPiece[pc][sq]
}

// castleMask[sq] clears the rights lost when a piece leaves or arrives on sq.
var castleMask = func() (m [64]CastlingRights) {
	for i := range m {
		m[i] = AllCastling
	}
	m[E1] &^= WhiteKingside | WhiteQueenside
	m[H1] &^= WhiteKingside
	m[A1] &^= WhiteQueenside
	m[E8] &^= BlackKingside | BlackQueenside
	m[H8] &^= BlackKingside
	m[A8] &^= BlackQueenside
	return
}()

// play applies a move known to be legal (or at least well-formed) in place.
func (p *Position) play(m Move) {
	from, to := m.From(), m.To()
	us := p.turn
	them := us ^ 1
	pc := p.board[from]
	if p.ep != NoSquare {
		p.hash ^= zobristEP[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	if p.board[to] != NoPiece {
		p.remove(to)
		p.halfmove = 0
	}
	switch m.Kind() {
	case Normal:
		p.remove(from)
		p.put(to, pc)
	case DoublePush:
		p.remove(from)
		p.put(to, pc)
		if pawnAttacks[us][(from+to)/2]&p.byRole[Pawn]&p.byColor[them] != 0 {
			p.ep = (from + to) / 2
			p.hash ^= zobristEP[p.ep.File()]
		}
	case EnPassant:
		p.remove(from)
		p.put(to, pc)
		cap := to - 8
		if us == Black {
			cap = to + 8
		}
		p.remove(cap)
	case CastleShort, CastleLong:
		rookFrom, rookTo := from+3, from+1
		if m.Kind() == CastleLong {
			rookFrom, rookTo = from-4, from-1
		}
		rook := p.board[rookFrom]
		p.remove(from)
		p.remove(rookFrom)
		p.put(to, pc)
		p.put(rookTo, rook)
	case Promotion:
		p.remove(from)
		p.put(to, MakePiece(us, m.Promoted()))
	case Sacrifice:
		p.remove(from)
		if r := m.Promoted(); r != NoRole {
			p.put(to, MakePiece(us, r))
		}
		if sq, ok := m.Removed(); ok && p.board[sq] != NoPiece {
			p.remove(sq)
			p.castlingUpdate(castleMask[sq])
		}
	}
	if pc.Role() == Pawn {
		p.halfmove = 0
	}
	p.castlingUpdate(castleMask[from] & castleMask[to])
	if us == Black {
		p.fullmove++
	}
	p.turn = them
	p.hash ^= zobristBlack
}

func (p *Position) castlingUpdate(mask CastlingRights) {
	if p.castling&mask != p.castling {
		p.hash ^= zobristCastling[p.castling]
		p.castling &= mask
		p.hash ^= zobristCastling[p.castling]
	}
}

// pieceCount returns the number of pieces of colour c.
func (p *Position) pieceCount(c Color) int { return p.byColor[c].Count() }

// AllOccupied returns the squares holding a piece of either colour.
func (p *Position) AllOccupied() Bitboard { return p.occupied() }
