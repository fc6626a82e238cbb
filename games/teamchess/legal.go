package teamchess

import (
	"fmt"
	"iter"

	"sandtable/games/chess"
)

// This file expands the chess core's bare sacrifices into the role forms of
// rule 3 (issue 6, ruling 3) on a board position alone: team state (forced
// moves, commanders) is the Game's business.

// LegalMoves returns every legal move of the side to move in p, a Team
// Chess position (chess.TeamChess): the ordinary legal moves, and each
// 8th-rank sacrifice once per distinct choice: Royal Guard once (the only
// role when the mover's Queen is absent from the board, impossible while it
// is on the board), Assassin once per removable opposing piece, Political
// Agent once, Saboteur once per legal reply of the opponent (with the
// reply's own choices). A sacrifice is legal only when the mover's king is
// not in check after the whole sacrifice. The order is unspecified.
//
// The list grows with the product of the replies along chains of Saboteurs
// forcing Saboteurs: with several pawns of each side on the verge of the
// last rank it can be huge. CountLegalMoves counts without building it and
// Complete lists only what a typed prefix needs.
func LegalMoves(p *chess.Position) []Move {
	return appendLegal(p, make([]Move, 0, 48), true)
}

// appendLegal appends the legal moves; with expand false a Saboteur appears
// once, as a head without its forced reply (Forced nil), when the opponent
// would have a legal reply.
func appendLegal(p *chess.Position, dst []Move, expand bool) []Move {
	eachLegal(p, expand, func(m Move) bool {
		dst = append(dst, m)
		return true
	})
	return dst
}

// AllLegalMoves yields LegalMoves(p) one at a time, in the same order,
// without building the list: a caller that stops early (a search whose
// time is up) pays only for the moves it took, and the first moves come at
// once however long the list would be.
func AllLegalMoves(p *chess.Position) iter.Seq[Move] {
	return func(yield func(Move) bool) { eachLegal(p, true, yield) }
}

// eachLegal calls yield with each legal move (expanded as appendLegal
// says) until yield returns false; it returns false when stopped so.
func eachLegal(p *chess.Position, expand bool, yield func(Move) bool) bool {
	var buf [256]chess.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if !m.IsSacrifice() && !yield(Move{Board: m}) {
			return false
		}
	}
	var cb [32]chess.Move
	for _, c := range p.SacrificeCandidates(cb[:0]) {
		if !eachSacrifice(p, c, expand, yield) {
			return false
		}
	}
	return true
}

// queenCaptured reports whether the side to move's Queen is absent from the
// board: Team Chess has no promotion, so an absent Queen has been captured
// (ruling 3; also for FEN input).
func queenCaptured(p *chess.Position) bool {
	return p.Pieces(p.Turn(), chess.Queen) == 0
}

// assassinTargets returns the opposing pieces an Assassin could remove
// after the sacrifice bare: every opposing piece except the King and the
// piece the pawn itself captures.
func assassinTargets(p *chess.Position, bare chess.Move) chess.Bitboard {
	them := p.Turn().Other()
	b := p.Occupied(them) &^ p.Pieces(them, chess.King)
	return b &^ (1 << bare.To())
}

// eachSacrifice yields the legal role forms of the bare sacrifice; false
// when yield stopped it.
func eachSacrifice(p *chess.Position, bare chess.Move, expand bool, yield func(Move) bool) bool {
	if queenCaptured(p) {
		if m := sacrifice(bare, RoyalGuard, 0); p.IsLegal(m) {
			return yield(Move{Board: m})
		}
		return true
	}
	for b := assassinTargets(p, bare); b != 0; b &= b - 1 {
		if m := sacrifice(bare, Assassin, b.First()); p.IsLegal(m) && !yield(Move{Board: m}) {
			return false
		}
	}
	agent := sacrifice(bare, PoliticalAgent, 0)
	if !p.IsLegal(agent) {
		return true // the pawn consumed leaves the king in check: no Saboteur either
	}
	if !yield(Move{Board: agent}) {
		return false
	}
	sab := sacrifice(bare, Saboteur, 0)
	after, _ := p.Play(sab)
	if !expand {
		if HasLegalMove(&after) {
			return yield(Move{Board: sab})
		}
		return true
	}
	return eachLegal(&after, true, func(r Move) bool {
		return yield(Move{Board: sab, Forced: &r})
	})
}

// HasLegalMove reports whether the side to move in p has any legal move,
// sacrifice role forms included (a pawn move legal only with some role is
// still a legal move, ruling 3). Without one, the side is checkmated when
// in check and besieged otherwise (ruling 4).
func HasLegalMove(p *chess.Position) bool {
	var buf [256]chess.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if !m.IsSacrifice() {
			return true
		}
	}
	var cb [32]chess.Move
	for _, c := range p.SacrificeCandidates(cb[:0]) {
		if queenCaptured(p) {
			if p.IsLegal(sacrifice(c, RoyalGuard, 0)) {
				return true
			}
			continue
		}
		if p.IsLegal(sacrifice(c, PoliticalAgent, 0)) {
			return true
		}
		for b := assassinTargets(p, c); b != 0; b &= b - 1 {
			if p.IsLegal(sacrifice(c, Assassin, b.First())) {
				return true
			}
		}
	}
	return false
}

// CountLegalMoves returns len(LegalMoves(p)) without building the moves.
// Its work grows with the number of sacrifice chains, not with their
// replies, so it stays cheap where LegalMoves would be huge.
func CountLegalMoves(p *chess.Position) uint64 {
	var n uint64
	var buf [256]chess.Move
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if !m.IsSacrifice() {
			n++
		}
	}
	var cb [32]chess.Move
	for _, c := range p.SacrificeCandidates(cb[:0]) {
		n += countSacrifices(p, c)
	}
	return n
}

func countSacrifices(p *chess.Position, bare chess.Move) uint64 {
	if queenCaptured(p) {
		if p.IsLegal(sacrifice(bare, RoyalGuard, 0)) {
			return 1
		}
		return 0
	}
	var n uint64
	for b := assassinTargets(p, bare); b != 0; b &= b - 1 {
		if p.IsLegal(sacrifice(bare, Assassin, b.First())) {
			n++
		}
	}
	agent := sacrifice(bare, PoliticalAgent, 0)
	if !p.IsLegal(agent) {
		return n
	}
	after, _ := p.Play(sacrifice(bare, Saboteur, 0))
	return n + 1 + CountLegalMoves(&after)
}

// RoleOption says whether one role may be named for a pawn move to the last
// rank, how many distinct choices it offers (Assassin targets, Saboteur
// forced replies; 1 for Royal Guard and Political Agent), and if not, why.
type RoleOption struct {
	Role    Role
	Legal   bool
	Choices int
	Reason  string // why the role is impossible; empty when Legal
}

// RoleOptions explains, for the bare sacrifice bare (a pawn move to the last
// rank as listed by chess.Position.SacrificeCandidates), each of the four
// roles in rule order (ruling 3).
func RoleOptions(p *chess.Position, bare chess.Move) []RoleOption {
	us := p.Turn()
	them := us.Other()
	sq := bare.To()
	out := make([]RoleOption, 0, 4)
	if queenCaptured(p) {
		rg := RoleOption{Role: RoyalGuard, Legal: p.IsLegal(sacrifice(bare, RoyalGuard, 0)), Choices: 1}
		if !rg.Legal {
			rg.Choices = 0
			rg.Reason = fmt.Sprintf("a Queen placed on %s would leave your king in check, and with your Queen captured no other role is allowed (rule 3.1)", sq)
		}
		out = append(out, rg)
		for _, r := range Roles[1:] {
			out = append(out, RoleOption{Role: r, Reason: "your Queen has been captured, so the pawn must be a Royal Guard (rule 3.1)"})
		}
		return out
	}
	out = append(out, RoleOption{Role: RoyalGuard, Reason: "your Queen is still on the board, and a Royal Guard only returns a captured Queen (rule 3.1)"})

	as := RoleOption{Role: Assassin}
	targets := assassinTargets(p, bare)
	for b := targets; b != 0; b &= b - 1 {
		if p.IsLegal(sacrifice(bare, Assassin, b.First())) {
			as.Choices++
		}
	}
	switch {
	case as.Choices > 0:
		as.Legal = true
	case targets == 0:
		as.Reason = fmt.Sprintf("%s has no piece an Assassin may remove: never the King, nor the piece the pawn captures (rule 3.2)", them.Title())
	default:
		as.Reason = "every removal would leave your king in check"
	}
	out = append(out, as)

	safe := p.IsLegal(sacrifice(bare, PoliticalAgent, 0))
	sab := RoleOption{Role: Saboteur}
	pa := RoleOption{Role: PoliticalAgent}
	if !safe {
		why := fmt.Sprintf("your king would be in check once the pawn on %s is consumed", bare.From())
		if p.InCheck() {
			why = "your king is in check and consuming the pawn does not end the check"
		}
		sab.Reason, pa.Reason = why, why
	} else {
		pa.Legal, pa.Choices = true, 1
		after, _ := p.Play(sacrifice(bare, Saboteur, 0))
		sab.Choices = int(CountLegalMoves(&after))
		if sab.Choices > 0 {
			sab.Legal = true
		} else {
			sab.Reason = fmt.Sprintf("%s would have no legal move to be forced into (rule 3.3)", them.Title())
		}
	}
	return append(out, sab, pa)
}
