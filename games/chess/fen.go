package chess

import (
	"fmt"
	"strconv"
	"strings"
)

// FENError describes why a FEN was rejected: the field (1-based; 0 for the
// whole string or position-level checks) and a message for a person.
type FENError struct {
	Field int
	Msg   string
}

func (e *FENError) Error() string {
	names := []string{"", "piece placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"}
	if e.Field > 0 && e.Field < len(names) {
		return "invalid FEN: " + names[e.Field] + " field: " + e.Msg
	}
	return "invalid FEN: " + e.Msg
}

func fenErr(field int, format string, args ...any) error {
	return &FENError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// ParseFEN parses a FEN (4 to 6 space-separated fields; missing clocks
// default to "0 1") into a validated position of variant v.
//
// Validation: every variant rejects pawns on the first or last rank, and
// more than 16 pieces of one side in Chess and TeamChess (24 in Survival,
// whose start has 24). Chess and TeamChess need exactly one king per side
// and the side not to move must not be in check; castling rights need the
// king and rook on their original squares. Survival needs no king, ignores
// the castling field (there is no castling) and needs at least one piece.
// The en passant square must be on the third rank (Black to move) or sixth
// rank (White to move) with the double-stepped pawn in front of it and the
// squares it crossed empty; it is kept only if a pawn could capture there.
func ParseFEN(v Variant, fen string) (Position, error) {
	var p Position
	p.variant = v
	p.ep = NoSquare
	r := v.rules()
	if r == nil {
		return p, fenErr(0, "unknown variant")
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 || len(fields) > 6 {
		return p, fenErr(0, "expected 6 space-separated fields (4 without the clocks), got %d", len(fields))
	}
	// 1. Placement.
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return p, fenErr(1, "expected 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				if file > 8 {
					return p, fenErr(1, "rank %d describes more than 8 squares", rank+1)
				}
				continue
			}
			r := roleFromLetter(c)
			if r == NoRole {
				return p, fenErr(1, "unknown piece letter %q in rank %d", c, rank+1)
			}
			if file >= 8 {
				return p, fenErr(1, "rank %d describes more than 8 squares", rank+1)
			}
			col := White
			if c >= 'a' {
				col = Black
			}
			p.put(SquareAt(file, rank), MakePiece(col, r))
			file++
		}
		if file != 8 {
			return p, fenErr(1, "rank %d describes %d squares, not 8", rank+1, file)
		}
	}
	// 2. Side to move.
	switch fields[1] {
	case "w", "W":
		p.turn = White
	case "b", "B":
		p.turn = Black
	default:
		return p, fenErr(2, "expected w or b, got %q", fields[1])
	}
	// 3. Castling (ignored by variants without it).
	if r.castling {
		if fields[2] != "-" {
			seen := map[rune]bool{}
			for _, c := range fields[2] {
				var right CastlingRights
				switch c {
				case 'K':
					right = WhiteKingside
				case 'Q':
					right = WhiteQueenside
				case 'k':
					right = BlackKingside
				case 'q':
					right = BlackQueenside
				default:
					return p, fenErr(3, "unexpected %q (expected - or letters from KQkq)", c)
				}
				if seen[c] {
					return p, fenErr(3, "%q appears twice", c)
				}
				seen[c] = true
				p.castling |= right
			}
		}
	}
	// 4. En passant.
	epField := fields[3]
	if epField != "-" {
		sq, err := ParseSquare(epField)
		if err != nil {
			return p, fenErr(4, "%q is not - or a square", epField)
		}
		wantRank, dir := 5, 8 // White to move: target on rank 6, black pawn below it
		if p.turn == Black {
			wantRank, dir = 2, -8
		}
		if sq.Rank() != wantRank {
			return p, fenErr(4, "%s is not on rank %d, where an en passant square must be when %s is to move", sq, wantRank+1, p.turn)
		}
		pawnSq := Square(int(sq) - dir)
		origin := Square(int(sq) + dir)
		them := p.turn.Other()
		if p.board[pawnSq] != MakePiece(them, Pawn) {
			return p, fenErr(4, "%s needs a %s pawn on %s that has just made a double step", sq, them, pawnSq)
		}
		if p.board[sq] != NoPiece || p.board[origin] != NoPiece {
			return p, fenErr(4, "%s needs %s and %s empty after the double step", sq, sq, origin)
		}
		if pawnAttacks[them][sq]&p.byColor[p.turn]&p.byRole[Pawn] != 0 {
			p.ep = sq
		}
	}
	// 5, 6. Clocks.
	p.halfmove, p.fullmove = 0, 1
	if len(fields) >= 5 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > 100000 {
			return p, fenErr(5, "%q is not a number from 0 to 100000", fields[4])
		}
		p.halfmove = int32(n)
	}
	if len(fields) == 6 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 0 || n > 100000 {
			return p, fenErr(6, "%q is not a number from 1 to 100000", fields[5])
		}
		if n == 0 {
			n = 1 // some programs write 0; the first move is number 1
		}
		p.fullmove = int32(n)
	}
	if err := p.validate(); err != nil {
		return p, err
	}
	p.hash ^= zobristCastling[p.castling]
	if p.ep != NoSquare {
		p.hash ^= zobristEP[p.ep.File()]
	}
	if p.turn == Black {
		p.hash ^= zobristBlack
	}
	return p, nil
}

func (p *Position) validate() error {
	if (rank1|rank8)&p.byRole[Pawn] != 0 {
		return fenErr(1, "a pawn stands on the first or last rank (%s)", ((rank1 | rank8) & p.byRole[Pawn]).First())
	}
	r := p.rules()
	maxPieces := r.maxPieces
	for _, c := range []Color{White, Black} {
		if n := p.pieceCount(c); n > maxPieces {
			return fenErr(1, "%s has %d pieces; at most %d are possible in %s", c, n, maxPieces, p.variant.Title())
		}
	}
	if !r.royalKing {
		if p.occupied() == 0 {
			return fenErr(1, "the board is empty")
		}
		return nil
	}
	for _, c := range []Color{White, Black} {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return fenErr(1, "%s has %d kings; exactly one is required", c, n)
		}
	}
	for _, r := range []struct {
		right      CastlingRights
		king, rook Square
		c          Color
		letter     string
	}{
		{WhiteKingside, E1, H1, White, "K"}, {WhiteQueenside, E1, A1, White, "Q"},
		{BlackKingside, E8, H8, Black, "k"}, {BlackQueenside, E8, A8, Black, "q"},
	} {
		if p.castling&r.right == 0 {
			continue
		}
		if p.board[r.king] != MakePiece(r.c, King) || p.board[r.rook] != MakePiece(r.c, Rook) {
			return fenErr(3, "castling right %s needs the %s king on %s and a rook on %s", r.letter, r.c, r.king, r.rook)
		}
	}
	them := p.turn.Other()
	if ksq := p.Pieces(them, King).First(); p.attacked(ksq, p.turn, p.occupied()) {
		return fenErr(0, "the side not to move (%s) is in check", them)
	}
	if p.checkers().Count() > 2 {
		return fenErr(0, "%s is in check from more than two pieces", p.turn)
	}
	return nil
}

// FEN returns the position in Forsyth-Edwards Notation. The en passant
// field names a square only when an en passant capture is legal (as FIDE
// compares positions); the castling field is "-" in Survival Chess.
func (p *Position) FEN() string { return p.fen(p.LegalEnPassant()) }

// fen writes the FEN with ep as its en passant field.
func (p *Position) fen(ep Square) string {
	var b strings.Builder
	b.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			pc := p.board[SquareAt(file, rank)]
			if pc == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteByte(byte('0' + empty))
				empty = 0
			}
			b.WriteByte(pc.FENChar())
		}
		if empty > 0 {
			b.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			b.WriteByte('/')
		}
	}
	if p.turn == White {
		b.WriteString(" w ")
	} else {
		b.WriteString(" b ")
	}
	b.WriteString(p.castling.String())
	b.WriteByte(' ')
	b.WriteString(ep.String())
	fmt.Fprintf(&b, " %d %d", p.halfmove, p.fullmove)
	return b.String()
}

// LegalEnPassant returns the en passant square if an en passant capture is
// legal now, else NoSquare.
func (p *Position) LegalEnPassant() Square {
	if p.ep == NoSquare {
		return NoSquare
	}
	if !p.rules().royalKing {
		return p.ep // no king to expose: a pseudo-legal capture is legal
	}
	var buf [256]Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if m.Kind() == EnPassant {
			return p.ep
		}
	}
	return NoSquare
}

// RepetitionKey identifies the position as FIDE article 9.2.3 compares
// positions: same pieces on the same squares, same side to move, same
// castling rights, and en passant only when the capture is actually legal.
func (p *Position) RepetitionKey() uint64 {
	if p.ep != NoSquare && p.LegalEnPassant() == NoSquare {
		return p.hash ^ zobristEP[p.ep.File()]
	}
	return p.hash
}
