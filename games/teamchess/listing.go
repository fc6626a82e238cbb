package teamchess

import (
	"sandtable/games/chess"
)

// Listing returns what a refused move in p names (chess.Listing; ruling
// in docs/rules/teamchess.md, "Notation"): the legal moves when there are
// at most chess.MaxListed entries, counting each sacrifice once per legal
// role. A role with one choice is written in full; with several, its
// choice is a placeholder: e8=Assassin:<target>, e8=Saboteur:<move>
// (e7e8a:<target>, e7e8s:<move> in UCI). A move captures when the piece or
// pawn takes on its destination (en passant too); an Assassin's removal is
// not a capture. Team Chess never forces a capture. p must be a Team Chess
// position.
func Listing(p *chess.Position, uci bool) chess.Listing {
	var buf [256]chess.Move
	var cb [32]chess.Move
	total := 0
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if !m.IsSacrifice() {
			total++
		}
	}
	var cands []chess.Move
	for _, c := range p.SacrificeCandidates(cb[:0]) {
		total += legalRoles(p, c)
		cands = append(cands, c)
	}
	if total > chess.MaxListed {
		return chess.Listing{Total: total}
	}
	es := make([]chess.ListEntry, 0, total)
	for _, m := range p.AppendLegalMoves(buf[:0]) {
		if !m.IsSacrifice() {
			es = append(es, chess.ListEntry{Text: moveText(p, Move{Board: m}, uci), Capture: p.IsCapture(m)})
		}
	}
	for _, c := range cands {
		capture := p.PieceAt(c.To()) != chess.NoPiece
		for _, o := range RoleOptions(p, c) {
			if o.Legal {
				es = append(es, chess.ListEntry{Text: roleText(p, c, o, uci), Capture: capture})
			}
		}
	}
	return chess.NewListing(es, false)
}

// legalRoles counts the roles RoleOptions finds legal for bare, cheaply:
// without counting an Assassin's targets or a Saboteur's replies.
func legalRoles(p *chess.Position, bare chess.Move) int {
	if queenCaptured(p) {
		if p.IsLegal(sacrifice(bare, RoyalGuard, 0)) {
			return 1
		}
		return 0
	}
	n := 0
	if exampleTargetSquare(p, bare) != chess.NoSquare {
		n++
	}
	if !p.IsLegal(sacrifice(bare, PoliticalAgent, 0)) {
		return n
	}
	n++ // Political Agent
	if after, _ := p.Play(sacrifice(bare, Saboteur, 0)); HasLegalMove(&after) {
		n++
	}
	return n
}

func moveText(p *chess.Position, m Move, uci bool) string {
	if uci {
		return m.UCI()
	}
	return string(appendSAN(nil, p, m))
}

// roleText is the listing entry of one legal role of the bare sacrifice.
func roleText(p *chess.Position, bare chess.Move, o RoleOption, uci bool) string {
	switch o.Role {
	case Assassin:
		if o.Choices == 1 {
			return moveText(p, Move{Board: sacrifice(bare, Assassin, exampleTargetSquare(p, bare))}, uci)
		}
		if uci {
			return bare.From().String() + bare.To().String() + "a:<target>"
		}
		return sanHead(p, bare) + "=Assassin:<target>"
	case Saboteur:
		head := Move{Board: sacrifice(bare, Saboteur, 0)}
		if o.Choices == 1 {
			after, _ := p.Play(head.Board)
			f := LegalMoves(&after)[0]
			head.Forced = &f
			return moveText(p, head, uci)
		}
		if uci {
			return string(head.appendUCI(nil)) + ":<move>"
		}
		return string(appendSAN(nil, p, head)) + ":<move>"
	}
	return moveText(p, Move{Board: sacrifice(bare, o.Role, 0)}, uci)
}

// exampleTargetSquare is the first square an Assassin may legally remove
// after bare, or chess.NoSquare.
func exampleTargetSquare(p *chess.Position, bare chess.Move) chess.Square {
	for b := assassinTargets(p, bare); b != 0; b &= b - 1 {
		if p.IsLegal(sacrifice(bare, Assassin, b.First())) {
			return b.First()
		}
	}
	return chess.NoSquare
}
