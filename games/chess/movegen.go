package chess

// This file is the allocation-free hot path: legal move generation.
// Every generator appends to dst and returns it; with enough capacity in
// dst nothing is allocated.

// AppendLegalMoves appends every legal move of the side to move to dst and
// returns the extended slice. In Survival Chess, when any capture is legal
// only captures are returned (mandatory capture). In Team Chess, a pawn move
// to the last rank is returned as a bare Sacrifice (pawn consumed, no
// effect) when the mover's king is safe afterwards; see SacrificeCandidates.
// A finished position has no legal move: in Survival Chess, one where
// either side has no piece left (elimination; Fairy-Stockfish counts none
// there either).
func (p *Position) AppendLegalMoves(dst []Move) []Move {
	r := p.rules()
	if r.royalKing {
		return p.genLegal(dst)
	}
	if r.elimination && p.byColor[p.turn.Other()] == 0 {
		return dst // the opponent has lost every piece: the game is over
	}
	// No royal king: every pseudo-legal move is legal.
	n := len(dst)
	dst = p.genPseudo(dst, true)
	if r.mandatoryCapture && len(dst) > n {
		return dst
	}
	return p.genPseudo(dst, false)
}

// LegalMoves returns the legal moves in a new slice.
func (p *Position) LegalMoves() []Move {
	return p.AppendLegalMoves(make([]Move, 0, 64))
}

// HasLegalMove reports whether the side to move has any legal move.
func (p *Position) HasLegalMove() bool {
	var buf [256]Move
	return len(p.AppendLegalMoves(buf[:0])) > 0
}

// appendPromotions appends the moves of a pawn reaching the last rank:
// one promotion per role the variant allows, or its bare Sacrifice (the
// variant's lastRank templates with the squares filled in).
func appendPromotions(dst []Move, from, to Square, r *rules) []Move {
	sq := Move(from) | Move(to)<<6
	l := &r.lastRank
	// Unrolled for the usual counts: this runs for every pawn able to
	// reach the last rank, and one append is measurably faster than a loop.
	switch r.lastRankN {
	case 5:
		return append(dst, l[0]|sq, l[1]|sq, l[2]|sq, l[3]|sq, l[4]|sq)
	case 4:
		return append(dst, l[0]|sq, l[1]|sq, l[2]|sq, l[3]|sq)
	}
	for _, m := range l[:r.lastRankN] {
		dst = append(dst, m|sq)
	}
	return dst
}

// genPseudo generates pseudo-legal moves without castling (all legal when
// kings are not royal), captures only when captures is true, else
// non-captures only.
func (p *Position) genPseudo(dst []Move, captures bool) []Move {
	us := p.turn
	them := us ^ 1
	own := p.byColor[us]
	enemy := p.byColor[them]
	occ := own | enemy
	targets := ^occ
	if captures {
		targets = enemy
	}
	for b := own &^ p.byRole[Pawn]; b != 0; b &= b - 1 {
		from := b.First()
		var att Bitboard
		switch p.board[from].Role() {
		case Knight:
			att = knightAttacks[from]
		case Bishop:
			att = bishopAttacks(from, occ)
		case Rook:
			att = rookAttacks(from, occ)
		case Queen:
			att = queenAttacks(from, occ)
		case King:
			att = kingAttacks[from]
		}
		for t := att & targets; t != 0; t &= t - 1 {
			dst = append(dst, NewMove(from, t.First(), Normal, NoRole))
		}
	}
	return p.genPawns(dst, own&p.byRole[Pawn], ^Bitboard(0), captures, !captures)
}

// genPawns appends pawn moves of the pawns in pawns whose destination (or,
// for en passant, captured pawn) lies in mask. It does no king-safety check.
func (p *Position) genPawns(dst []Move, pawns, mask Bitboard, captures, quiets bool) []Move {
	us := p.turn
	enemy := p.byColor[us^1]
	occ := p.byColor[0] | p.byColor[1]
	var push int
	var lastRank, startRank Bitboard
	if us == White {
		push, lastRank, startRank = 8, rank8, rank2
	} else {
		push, lastRank, startRank = -8, rank1, rank7
	}
	for b := pawns; b != 0; b &= b - 1 {
		from := b.First()
		if captures {
			for t := pawnAttacks[us][from] & enemy & mask; t != 0; t &= t - 1 {
				to := t.First()
				if lastRank.Has(to) {
					dst = appendPromotions(dst, from, to, p.rules())
				} else {
					dst = append(dst, NewMove(from, to, Normal, NoRole))
				}
			}
			if p.ep != NoSquare && pawnAttacks[us][from].Has(p.ep) {
				if mask.Has(Square(int(p.ep)-push)) || mask.Has(p.ep) {
					dst = append(dst, NewMove(from, p.ep, EnPassant, NoRole))
				}
			}
		}
		if quiets {
			to := Square(int(from) + push)
			if occ.Has(to) {
				continue
			}
			if mask.Has(to) {
				if lastRank.Has(to) {
					dst = appendPromotions(dst, from, to, p.rules())
				} else {
					dst = append(dst, NewMove(from, to, Normal, NoRole))
				}
			}
			if startRank.Has(from) {
				to2 := Square(int(to) + push)
				if !occ.Has(to2) && mask.Has(to2) {
					dst = append(dst, NewMove(from, to2, DoublePush, NoRole))
				}
			}
		}
	}
	return dst
}

// genLegal generates fully legal moves for the variants with check, using
// check and pin masks so that no move needs to be made to be verified.
func (p *Position) genLegal(dst []Move) []Move {
	us := p.turn
	them := us ^ 1
	own := p.byColor[us]
	enemy := p.byColor[them]
	occ := own | enemy
	kings := p.byRole[King] & own
	if kings == 0 {
		return dst // not a valid position for a variant with check
	}
	ksq := kings.First()

	// King moves: the king may not step onto an attacked square; remove it
	// from the occupancy so it cannot hide behind itself on a slider's line.
	occNoKing := occ &^ bb(ksq)
	for t := kingAttacks[ksq] &^ own; t != 0; t &= t - 1 {
		to := t.First()
		if !p.attacked(to, them, occNoKing) {
			dst = append(dst, NewMove(ksq, to, Normal, NoRole))
		}
	}

	checkers := p.attackersTo(ksq, occ) & enemy
	if checkers.More() {
		return dst
	}
	mask := ^own
	if checkers != 0 {
		c := checkers.First()
		mask = betweenBB[ksq][c] | checkers
	}

	// Pinned pieces: own pieces alone between the king and an enemy slider.
	var pinned Bitboard
	snipers := (rookAttacks(ksq, enemy) & enemy & (p.byRole[Rook] | p.byRole[Queen])) |
		(bishopAttacks(ksq, enemy) & enemy & (p.byRole[Bishop] | p.byRole[Queen]))
	for ; snipers != 0; snipers &= snipers - 1 {
		b := betweenBB[ksq][snipers.First()] & occ
		if b != 0 && !b.More() && b&own != 0 {
			pinned |= b
		}
	}

	for b := own &^ p.byRole[Pawn] &^ kings; b != 0; b &= b - 1 {
		from := b.First()
		var att Bitboard
		switch p.board[from].Role() {
		case Knight:
			if pinned.Has(from) {
				continue
			}
			att = knightAttacks[from]
		case Bishop:
			att = bishopAttacks(from, occ)
		case Rook:
			att = rookAttacks(from, occ)
		case Queen:
			att = queenAttacks(from, occ)
		}
		att &= mask
		if pinned.Has(from) {
			att &= lineBB[ksq][from]
		}
		for ; att != 0; att &= att - 1 {
			dst = append(dst, NewMove(from, att.First(), Normal, NoRole))
		}
	}

	// Pawns: unpinned ones with the check mask; pinned ones one by one.
	pawns := own & p.byRole[Pawn]
	n := len(dst)
	dst = p.genPawns(dst, pawns&^pinned, mask, true, true)
	for b := pawns & pinned; b != 0; b &= b - 1 {
		from := b.First()
		dst = p.genPawns(dst, bb(from), mask&lineBB[ksq][from], true, true)
	}
	// En passant and Team Chess sacrifices need a full check: filter the
	// (few) such moves generated above.
	if p.ep != NoSquare || p.rules().sacrifices {
		j := n
		for _, m := range dst[n:] {
			switch m.Kind() {
			case EnPassant, Sacrifice:
				if !p.safeAfter(m, ksq) {
					continue
				}
			}
			dst[j] = m
			j++
		}
		dst = dst[:j]
	}
	if checkers == 0 {
		dst = p.genCastling(dst, ksq, occ)
	}
	return dst
}

// safeAfter reports whether the mover's king on ksq is unattacked after the
// en passant capture or sacrifice m (computed on a board copy).
func (p *Position) safeAfter(m Move, ksq Square) bool {
	if m.Kind() == EnPassant {
		us := p.turn
		them := us ^ 1
		cap := m.To() - 8
		if us == Black {
			cap = m.To() + 8
		}
		occ := (p.occupied() &^ bb(m.From()) &^ bb(cap)) | bb(m.To())
		enemy := p.byColor[them] &^ bb(cap)
		return rookAttacks(ksq, occ)&enemy&(p.byRole[Rook]|p.byRole[Queen]) == 0 &&
			bishopAttacks(ksq, occ)&enemy&(p.byRole[Bishop]|p.byRole[Queen]) == 0 &&
			knightAttacks[ksq]&enemy&p.byRole[Knight] == 0 &&
			pawnAttacks[us][ksq]&enemy&p.byRole[Pawn] == 0
	}
	q := *p
	q.play(m)
	k := q.Pieces(p.turn, King).First()
	return k != NoSquare && !q.attacked(k, p.turn.Other(), q.occupied())
}

func (p *Position) genCastling(dst []Move, ksq Square, occ Bitboard) []Move {
	us := p.turn
	them := us ^ 1
	var short, long CastlingRights = WhiteKingside, WhiteQueenside
	home := E1
	if us == Black {
		short, long, home = BlackKingside, BlackQueenside, E8
	}
	if ksq != home {
		return dst
	}
	if p.castling&short != 0 && occ&(bb(home+1)|bb(home+2)) == 0 &&
		!p.attacked(home+1, them, occ) && !p.attacked(home+2, them, occ) {
		dst = append(dst, NewMove(home, home+2, CastleShort, NoRole))
	}
	if p.castling&long != 0 && occ&(bb(home-1)|bb(home-2)|bb(home-3)) == 0 &&
		!p.attacked(home-1, them, occ) && !p.attacked(home-2, them, occ) {
		dst = append(dst, NewMove(home, home-2, CastleLong, NoRole))
	}
	return dst
}
