package analysis

import (
	"fmt"
	"strconv"

	"sandtable/games/chess"
)

// Score is an evaluation of a position from White's point of view: the
// engine's centipawns, a forced win in a number of moves, or a game already
// won.
type Score struct {
	// CP is White's advantage in the variant's centipawns (when Mate and
	// Won are 0).
	CP int
	// Mate is a forced win in Mate moves, positive for White, negative for
	// Black; 0 when none is known.
	Mate int
	// Won is +1 (White) or -1 (Black) when the game is over and won at
	// this position; a finished draw is CP 0.
	Won int
}

// IsMate reports a forced or accomplished win (Mate or Won).
func (s Score) IsMate() bool { return s.Mate != 0 || s.Won != 0 }

// mateSign is +1 when White wins by force (or has won), -1 for Black, 0
// for an ordinary evaluation.
func (s Score) mateSign() int {
	switch {
	case s.Won != 0:
		return s.Won
	case s.Mate > 0:
		return 1
	case s.Mate < 0:
		return -1
	}
	return 0
}

// ForceCP is lila's forceAsCp: the centipawns, a win counting as beyond
// the ceiling (WinPercent then ceils it at CPCeiling).
func (s Score) ForceCP() int {
	switch s.mateSign() {
	case 1:
		return 100 * CPCeiling
	case -1:
		return -100 * CPCeiling
	}
	return s.CP
}

// PGN is the value of the score's [%eval] command, as lichess and
// python-chess write it: pawns with two decimals ("0.35", "-1.20"), "#3" or
// "#-3" for a forced mate (in moves), and "#0" for a game won at this
// position (python-chess reads "#0" as: the side to move has been mated).
func (s Score) PGN() string {
	switch {
	case s.Won != 0:
		return "#0"
	case s.Mate != 0:
		return "#" + strconv.Itoa(s.Mate)
	}
	return fmt.Sprintf("%.2f", float64(s.CP)/100)
}

// String is the PGN form.
func (s Score) String() string { return s.PGN() }

// Curve is how a variant's evaluations meet lichess's win-chance curve,
// which is calibrated for chess centipawns (Stockfish's, in games of
// lichess players rated 2300 and more): the engine's centipawns are
// multiplied by Scale before WinningChances, WinPercent and the mate
// advice's thresholds. docs/analysis.md says why each variant's is what
// it is.
type Curve struct {
	Scale float64
	// Why is one line for the summary and the docs.
	Why string
}

// CurveOf returns the variant's curve.
func CurveOf(v chess.Variant) Curve {
	switch v {
	case chess.Survival:
		return Curve{Scale: SurvivalScale, Why: "Survival centipawns scaled by the measured SurvivalScale"}
	case chess.TeamChess:
		return Curve{Scale: TeamChessScale, Why: "Team Chess centipawns scaled by the measured TeamChessScale"}
	}
	return Curve{Scale: 1, Why: "chess centipawns on lichess's curve"}
}

// SurvivalScale and TeamChessScale convert the engine's Survival and Team
// Chess centipawns to chess centipawns for lichess's curve: the ratio of
// the logistic slopes fitted to the results of 300 self-play games of the
// "intermediate" level in each variant, k(variant)/k(chess), with
// k(chess) = 0.003419, k(Survival) = 0.001103, k(Team Chess) = 0.001816
// (TestMeasureCurve; docs/analysis.md).
const (
	SurvivalScale  = 0.32
	TeamChessScale = 0.53
)
