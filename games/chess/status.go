package chess

// Result is the state of a game: still going, won by one side, or drawn.
type Result uint8

// The results.
const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
)

// String returns the PGN result: "*", "1-0", "0-1" or "1/2-1/2".
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Reason names why a game ended, as the rules name it.
type Reason uint8

// The reasons.
const (
	NoReason Reason = iota
	// Checkmate ends Chess and Team Chess (FIDE 5.1.1; Team Chess 1.5).
	Checkmate
	// Elimination: the side to move has no pieces left; the player who
	// captured the final piece wins (Survival, "Objective").
	Elimination
	// Stalemate: no legal move and not in check (FIDE 5.2.1; Survival
	// "Stalemate is a draw").
	Stalemate
	// InsufficientMaterial: a dead position because neither side can
	// checkmate with any series of legal moves (FIDE 5.2.2, 9.6.2).
	InsufficientMaterial
	// DeadPosition: Survival Chess position where no capture can ever
	// happen again, so no side can be eliminated (docs/rules/survival.md).
	DeadPosition
	// FivefoldRepetition: the same position for the fifth time (FIDE 9.6.1).
	FivefoldRepetition
	// SeventyFiveMoveRule: 75 moves by each side without a pawn move or
	// capture (FIDE 9.6.2).
	SeventyFiveMoveRule
	// Besieged: Team Chess, the side to move has no legal move and is not
	// in check (Team Chess 2.1); the game is not over: the opponent chooses
	// a Siege Win or one more move. Result stays Ongoing.
	Besieged
)

// String returns the reason as the rules name it ("checkmate").
func (r Reason) String() string {
	switch r {
	case Checkmate:
		return "checkmate"
	case Elimination:
		return "elimination of the last piece"
	case Stalemate:
		return "stalemate"
	case InsufficientMaterial:
		return "insufficient material"
	case DeadPosition:
		return "dead position (no capture is possible any more)"
	case FivefoldRepetition:
		return "fivefold repetition"
	case SeventyFiveMoveRule:
		return "the 75-move rule"
	case Besieged:
		return "siege (no legal move, not in check)"
	}
	return ""
}

// Status is a game's automatic state: Result plus the Reason it ended
// (or, for Team Chess, Besieged while Ongoing).
type Status struct {
	Result Result
	Reason Reason
}

// Over reports whether the game has ended.
func (s Status) Over() bool { return s.Result != Ongoing }

// Winner returns the winning side; ok is false when nobody won.
func (s Status) Winner() (c Color, ok bool) {
	switch s.Result {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return White, false
}

// String describes the status: "White wins by checkmate", "draw by
// stalemate", "ongoing".
func (s Status) String() string {
	switch s.Result {
	case WhiteWins:
		return "White wins by " + s.Reason.String()
	case BlackWins:
		return "Black wins by " + s.Reason.String()
	case Draw:
		return "draw by " + s.Reason.String()
	}
	if s.Reason == Besieged {
		return "ongoing: the side to move is besieged"
	}
	return "ongoing"
}

func winFor(c Color, r Reason) Status {
	if c == White {
		return Status{WhiteWins, r}
	}
	return Status{BlackWins, r}
}

// Status returns the automatic result decided by this position alone
// (without history; Game.Status adds fivefold repetition):
//
//   - Chess: checkmate (win), stalemate, insufficient material (draw),
//     75-move rule (halfmove clock >= 150; checkmate takes precedence).
//   - Survival: a side with no pieces loses (elimination), stalemate,
//     dead position (see IsDeadSurvival), 75-move rule.
//   - Team Chess: checkmate (win), Besieged (Ongoing); no draws (issue 6:
//     stagnation replaces them). It considers bare sacrifices only; the
//     Team Chess layer must account for role forms.
func (p *Position) Status() Status {
	r := p.rules()
	if st := r.endings.status(p); st != (Status{}) {
		return st
	}
	if r.drawRules && p.halfmove >= 150 {
		return Status{Draw, SeventyFiveMoveRule}
	}
	return Status{}
}

// InsufficientMaterial reports the dead positions of FIDE chess that are
// recognised automatically: king against king, king and one minor piece
// against king, and kings with any number of bishops where every bishop
// stands on squares of one colour. (Only meaningful for Chess.)
func (p *Position) InsufficientMaterial() bool {
	if p.byRole[Pawn]|p.byRole[Rook]|p.byRole[Queen] != 0 {
		return false
	}
	minors := p.byRole[Knight] | p.byRole[Bishop]
	if minors.Count() <= 1 {
		return true
	}
	if p.byRole[Knight] != 0 {
		return false
	}
	b := p.byRole[Bishop]
	return b&lightSquares == 0 || b&^lightSquares == 0
}

// IsDeadSurvival reports the Survival Chess dead positions proved in
// docs/rules/survival.md: both sides have pieces, every piece is a bishop
// or a pawn, every pawn is blocked by an opposing pawn on the square
// directly in front of it, all White pieces stand on squares of one colour
// and all Black pieces on squares of the other, and no capture (en passant
// included) is available now. No capture can then ever happen: bishops
// keep their square colour, blocked pawns can only move by capturing, and
// pawns and bishops attack only squares of their own colour.
func (p *Position) IsDeadSurvival() bool {
	if !p.rules().elimination {
		return false
	}
	w, b := p.byColor[White], p.byColor[Black]
	if w == 0 || b == 0 {
		return false
	}
	if (w|b)&^(p.byRole[Bishop]|p.byRole[Pawn]) != 0 {
		return false
	}
	light := lightSquares
	if !((w&^light == 0 && b&light == 0) || (w&light == 0 && b&^light == 0)) {
		return false
	}
	wp, bp := w&p.byRole[Pawn], b&p.byRole[Pawn]
	if (wp<<8)&^bp != 0 || (bp>>8)&^wp != 0 {
		return false
	}
	return p.ep == NoSquare
}
