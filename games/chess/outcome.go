package chess

import (
	"errors"
	"fmt"
)

// Method is how a game ended: a board ending (the Reason of a finished
// Status), a claimed draw, or an ending the players or the clock decide
// (resignation, agreement, time). It marshals to a stable lower-case name
// (MarshalText), so stored outcomes survive changes of the prose String.
type Method uint8

// The methods. Besieged (Team Chess) is not one: it does not end the game.
const (
	NoMethod Method = iota
	// MethodCheckmate: FIDE 5.1.1; Team Chess 1.5.
	MethodCheckmate
	// MethodElimination: Survival, the side to move has no pieces left.
	MethodElimination
	// MethodStalemate: FIDE 5.2.1; Survival "Stalemate is a draw".
	MethodStalemate
	// MethodInsufficientMaterial: a FIDE dead position recognised by
	// Position.InsufficientMaterial (FIDE 5.2.2).
	MethodInsufficientMaterial
	// MethodDeadPosition: a Survival position where no capture can ever
	// happen again (Position.IsDeadSurvival).
	MethodDeadPosition
	// MethodFivefoldRepetition: automatic draw, FIDE 9.6.1.
	MethodFivefoldRepetition
	// MethodSeventyFiveMoveRule: automatic draw, FIDE 9.6.2.
	MethodSeventyFiveMoveRule
	// MethodThreefoldRepetition: a draw claimed by the side to move, FIDE 9.2.
	MethodThreefoldRepetition
	// MethodFiftyMoveRule: a draw claimed by the side to move, FIDE 9.3.
	MethodFiftyMoveRule
	// MethodResignation: a player resigned (FIDE 5.1.2).
	MethodResignation
	// MethodAgreement: a draw agreed by both players (FIDE 5.2.3).
	MethodAgreement
	// MethodTime: a player ran out of time (FIDE 6.9; see Game.Timeout).
	MethodTime
)

// Methods lists every method of a finished game.
var Methods = []Method{
	MethodCheckmate, MethodElimination, MethodStalemate, MethodInsufficientMaterial, MethodDeadPosition,
	MethodFivefoldRepetition, MethodSeventyFiveMoveRule, MethodThreefoldRepetition, MethodFiftyMoveRule,
	MethodResignation, MethodAgreement, MethodTime,
}

var methodKeys = [...]string{
	NoMethod:                   "none",
	MethodCheckmate:            "checkmate",
	MethodElimination:          "elimination",
	MethodStalemate:            "stalemate",
	MethodInsufficientMaterial: "insufficient_material",
	MethodDeadPosition:         "dead_position",
	MethodFivefoldRepetition:   "fivefold_repetition",
	MethodSeventyFiveMoveRule:  "seventy_five_move_rule",
	MethodThreefoldRepetition:  "threefold_repetition",
	MethodFiftyMoveRule:        "fifty_move_rule",
	MethodResignation:          "resignation",
	MethodAgreement:            "agreement",
	MethodTime:                 "time",
}

// Key returns the stable name used in JSON and storage ("fifty_move_rule";
// "none" for NoMethod).
func (m Method) Key() string {
	if int(m) < len(methodKeys) {
		return methodKeys[m]
	}
	return fmt.Sprintf("method(%d)", uint8(m))
}

// String names the method for people, as Reason and Claim do
// ("checkmate", "the 50-move rule", "resignation").
func (m Method) String() string {
	switch m {
	case MethodThreefoldRepetition:
		return ThreefoldRepetition.String()
	case MethodFiftyMoveRule:
		return FiftyMoveRule.String()
	case MethodResignation:
		return "resignation"
	case MethodAgreement:
		return "agreement"
	case MethodTime:
		return "time"
	case MethodCheckmate:
		return Checkmate.String()
	case MethodElimination:
		return Elimination.String()
	case MethodStalemate:
		return Stalemate.String()
	case MethodInsufficientMaterial:
		return InsufficientMaterial.String()
	case MethodDeadPosition:
		return DeadPosition.String()
	case MethodFivefoldRepetition:
		return FivefoldRepetition.String()
	case MethodSeventyFiveMoveRule:
		return SeventyFiveMoveRule.String()
	}
	return ""
}

// MarshalText implements encoding.TextMarshaler with Key.
func (m Method) MarshalText() ([]byte, error) {
	if int(m) >= len(methodKeys) {
		return nil, fmt.Errorf("chess: unknown method %d", uint8(m))
	}
	return []byte(m.Key()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: it reads a Key and
// refuses any other text.
func (m *Method) UnmarshalText(b []byte) error {
	for i, k := range methodKeys {
		if k == string(b) {
			*m = Method(i)
			return nil
		}
	}
	return fmt.Errorf("chess: unknown outcome method %q", b)
}

// Method returns the method of a board ending (Checkmate gives
// MethodCheckmate); NoMethod for NoReason and Besieged, which end nothing.
func (r Reason) Method() Method {
	switch r {
	case Checkmate:
		return MethodCheckmate
	case Elimination:
		return MethodElimination
	case Stalemate:
		return MethodStalemate
	case InsufficientMaterial:
		return MethodInsufficientMaterial
	case DeadPosition:
		return MethodDeadPosition
	case FivefoldRepetition:
		return MethodFivefoldRepetition
	case SeventyFiveMoveRule:
		return MethodSeventyFiveMoveRule
	}
	return NoMethod
}

// Method returns the method of a draw won by the claim c.
func (c Claim) Method() Method {
	switch c {
	case ThreefoldRepetition:
		return MethodThreefoldRepetition
	case FiftyMoveRule:
		return MethodFiftyMoveRule
	}
	return NoMethod
}

// MarshalText implements encoding.TextMarshaler with the PGN result
// ("1-0", "0-1", "1/2-1/2", "*").
func (r Result) MarshalText() ([]byte, error) {
	if r > Draw {
		return nil, fmt.Errorf("chess: unknown result %d", uint8(r))
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: it reads a PGN result.
func (r *Result) UnmarshalText(b []byte) error {
	for x := Ongoing; x <= Draw; x++ {
		if x.String() == string(b) {
			*r = x
			return nil
		}
	}
	return fmt.Errorf("chess: %q is not a PGN result (1-0, 0-1, 1/2-1/2 or *)", b)
}

// Outcome is how a finished game ended: the result (WhiteWins, BlackWins
// or Draw) and the method. Claimed is true for a draw claimed by a player
// (threefold repetition, the 50-move rule). It is a plain value with
// explicit JSON names, for storage.
type Outcome struct {
	Result  Result `json:"result"`
	Method  Method `json:"method"`
	Claimed bool   `json:"claimed,omitempty"`
}

// Winner returns the winning side; ok is false for a draw.
func (o Outcome) Winner() (c Color, ok bool) { return Status{Result: o.Result}.Winner() }

// String describes the outcome: "White wins by resignation", "draw by
// agreement", "draw by threefold repetition (claimed)".
func (o Outcome) String() string {
	var s string
	switch o.Result {
	case WhiteWins, BlackWins:
		w, _ := o.Winner()
		s = w.Title() + " wins"
	case Draw:
		s = "draw"
	default:
		return "ongoing"
	}
	s += " by " + o.Method.String()
	if o.Claimed {
		s += " (claimed)"
	}
	return s
}

// validate checks that the result fits the method: a decisive method
// (checkmate, elimination, resignation) has a winner, a drawing method a
// draw, time either; Claimed goes with the claimable draws only.
func (o Outcome) validate() error {
	switch {
	case o.Result == Ongoing || o.Result > Draw:
		return fmt.Errorf("result %q is not a finished game's", o.Result)
	case o.Method == NoMethod || int(o.Method) >= len(methodKeys):
		return fmt.Errorf("no method")
	}
	switch o.Method {
	case MethodCheckmate, MethodElimination, MethodResignation:
		if o.Result == Draw {
			return fmt.Errorf("%s cannot be a draw", o.Method.Key())
		}
	case MethodTime:
	default:
		if o.Result != Draw {
			return fmt.Errorf("%s can only be a draw", o.Method.Key())
		}
	}
	claimable := o.Method == MethodThreefoldRepetition || o.Method == MethodFiftyMoveRule
	if o.Claimed != claimable {
		return fmt.Errorf("%s is claimed only when it is a claimable draw", o.Method.Key())
	}
	return nil
}

// GameOverError is the refusal of Play, Resign, AgreeDraw, ClaimDraw and
// Timeout on a game that has already ended; Outcome says how it ended.
// Game.Play and Game.PlayText return it wrapped in a *MoveError.
type GameOverError struct {
	Outcome Outcome
}

func (e *GameOverError) Error() string { return "the game is over: " + e.Outcome.String() }

// ClaimError is the refusal of a draw claim that does not hold: the
// position (after Move, when a move was declared) has occurred Repetitions
// times and HalfmoveClock plies have passed without a capture or pawn move
// (the 50-move rule needs 100). Nothing was played.
type ClaimError struct {
	Move          Move // NullMove when no move was declared
	Repetitions   int
	HalfmoveClock int
}

func (e *ClaimError) Error() string {
	what := "no draw can be claimed"
	if e.Move != NullMove {
		what = "the move " + e.Move.UCI() + " would not allow a draw claim"
	}
	return fmt.Sprintf("%s: the position has occurred %d time(s), not 3, and the fifty-move count is %d of 50 moves",
		what, e.Repetitions, e.HalfmoveClock/2)
}

// ErrNotInVariant is wrapped by the refusals of an ending the variant does
// not have (Team Chess has no draws, and its move timer tags a commander
// out instead of ending the game): test with errors.Is.
var ErrNotInVariant = errors.New("not in this variant")

// Outcome returns how the game ended; ok is false while it goes on. It
// covers the board endings (Status: checkmate, elimination, stalemate, dead
// positions, fivefold repetition, the 75-move rule) and the endings
// recorded by Resign, AgreeDraw, ClaimDraw, ClaimDrawWithMove and Timeout.
// The first ending is the one that counts: after a draw claimed with a move
// that also mates, the outcome is the claimed draw (FIDE 9.2.1.1 and 9.3.1:
// the claim is decided before the move appears on the board).
func (g *Game) Outcome() (Outcome, bool) {
	if g.ended {
		return g.end, true
	}
	if st := g.Status(); st.Over() {
		return Outcome{Result: st.Result, Method: st.Reason.Method()}, true
	}
	return Outcome{}, false
}

// over returns the *GameOverError of a finished game, else nil.
func (g *Game) over() error {
	if o, ok := g.Outcome(); ok {
		return &GameOverError{Outcome: o}
	}
	return nil
}

func (g *Game) finish(o Outcome) {
	g.end, g.ended = o, true
}

func checkColor(c Color) error {
	if c != White && c != Black {
		return fmt.Errorf("chess: colour %d is neither White nor Black", uint8(c))
	}
	return nil
}

// Resign ends the game: side c resigns (at any time, on either side's
// turn: FIDE 5.1.2) and the other side wins. It refuses a finished game
// (*GameOverError) and a colour other than White or Black.
func (g *Game) Resign(c Color) error {
	if err := checkColor(c); err != nil {
		return err
	}
	if err := g.over(); err != nil {
		return err
	}
	g.finish(Outcome{Result: winFor(c.Other(), NoReason).Result, Method: MethodResignation})
	return nil
}

// AgreeDraw ends the game drawn by agreement (FIDE 5.2.3); who offered and
// who accepted is the caller's business. It refuses a finished game
// (*GameOverError) and Team Chess, which has no draws (ErrNotInVariant).
func (g *Game) AgreeDraw() error {
	if err := g.over(); err != nil {
		return err
	}
	if !g.pos.rules().draws {
		return fmt.Errorf("%s has no draw by agreement: %w", g.pos.rules().prose, ErrNotInVariant)
	}
	g.finish(Outcome{Result: Draw, Method: MethodAgreement})
	return nil
}

// ClaimDraw ends the game drawn on a claim of the side to move on the
// current position (FIDE 9.2, 9.3): threefold repetition when Claims
// offers it, else the 50-move rule. It returns the claim that held. It
// refuses a finished game (*GameOverError), Team Chess (ErrNotInVariant)
// and a claim that does not hold (*ClaimError, with the counts so far).
func (g *Game) ClaimDraw() (Claim, error) {
	if err := g.claimable(); err != nil {
		return 0, err
	}
	claims := g.Claims()
	if len(claims) == 0 {
		return 0, &ClaimError{Repetitions: g.RepetitionCount(), HalfmoveClock: int(g.pos.halfmove)}
	}
	g.finish(Outcome{Result: Draw, Method: claims[0].Method(), Claimed: true})
	return claims[0], nil
}

// ClaimDrawWithMove is the claim by declaring the legal move m that brings
// the repetition or the 50th move about (FIDE 9.2.1.1, 9.3.1): when
// ClaimsWithMove(m) holds, m is played and the game ends drawn on that
// claim (docs/rules/survival.md ruling 14). Otherwise nothing is played:
// *MoveError for an illegal m, *ClaimError with the counts after m, and
// the refusals of ClaimDraw.
func (g *Game) ClaimDrawWithMove(m Move) (Claim, error) {
	if err := g.claimable(); err != nil {
		return 0, err
	}
	if !g.pos.IsLegal(m) {
		return 0, g.pos.explainMove(m)
	}
	claims := g.ClaimsWithMove(m)
	if len(claims) == 0 {
		q := g.pos
		q.play(m)
		n := 1
		k := q.RepetitionKey()
		for _, x := range g.keys {
			if x == k {
				n++
			}
		}
		return 0, &ClaimError{Move: m, Repetitions: n, HalfmoveClock: int(q.halfmove)}
	}
	g.record(m)
	g.finish(Outcome{Result: Draw, Method: claims[0].Method(), Claimed: true})
	return claims[0], nil
}

func (g *Game) claimable() error {
	if err := g.over(); err != nil {
		return err
	}
	if !g.pos.rules().drawRules {
		return fmt.Errorf("%s has no draw claims: %w", g.pos.rules().prose, ErrNotInVariant)
	}
	return nil
}

// Timeout ends the game because side c ran out of time (the engine keeps
// no clock; c need not be the side to move). FIDE 6.9: c loses, unless the
// opponent cannot win by any series of legal moves, which is then a draw:
//
//   - Chess: a draw when the opponent has only a king (no other material
//     can be proved unable to mate: even a lone knight mates with the help
//     of the other side's pieces); dead positions have already ended.
//   - Survival: c always loses (docs/rules/survival.md ruling 16: a position
//     where no capture can ever happen is a dead position, already drawn).
//   - Team Chess: refused (ErrNotInVariant): a move timer tags the active
//     commander out (teamchess.Game.Timeout) and does not end the game.
//
// It refuses a finished game (*GameOverError) and a colour other than White
// or Black.
func (g *Game) Timeout(c Color) error {
	if err := checkColor(c); err != nil {
		return err
	}
	if err := g.over(); err != nil {
		return err
	}
	o, err := g.pos.rules().endings.timeout(&g.pos, c)
	if err != nil {
		return err
	}
	g.finish(o)
	return nil
}
