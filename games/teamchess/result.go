package teamchess

import "sandtable/games/chess"

// Category is how a game ended, as rule 5 and issue 6 ruling 6 classify it.
type Category uint8

// The categories. NoCategory: the game is not over.
const (
	NoCategory Category = iota
	// HonourableCheckmate: checkmate by a team that performed no 8th-rank
	// sacrifice in the whole game (rule 5, ruling 6), or by a siege
	// continuation, whatever was sacrificed (rule 2.1, ruling 4).
	HonourableCheckmate
	// DishonourableCheckmate: checkmate by a team that performed an 8th-rank
	// sacrifice at some point of the game (rule 5, ruling 6; see
	// Game.Sacrificed), other than a siege continuation's mate.
	DishonourableCheckmate
	// SiegeWin: the opponent was besieged and the attacker took the win
	// (rule 2.1; dishonourable, rule 5).
	SiegeWin
	// FatigueVictory: every commander of the losing team has a personal
	// loss (rules 1.5 and 5, ruling 6).
	FatigueVictory
	// Resignation by the losing team's active commander (ruling 6).
	Resignation
	// MutualLoss: both teams reached 4 stagnant turns in the same round;
	// both lose (rule 4.3, ruling 5).
	MutualLoss
)

// Categories lists every category of a finished game.
var Categories = []Category{HonourableCheckmate, DishonourableCheckmate, SiegeWin, FatigueVictory, Resignation, MutualLoss}

// String names the category for people ("honourable checkmate").
func (c Category) String() string {
	switch c {
	case HonourableCheckmate:
		return "honourable checkmate"
	case DishonourableCheckmate:
		return "dishonourable checkmate"
	case SiegeWin:
		return "Siege Win"
	case FatigueVictory:
		return "Fatigue victory"
	case Resignation:
		return "resignation"
	case MutualLoss:
		return "mutual loss"
	}
	return "none"
}

// Key is a stable identifier for storage and JSON ("honourable_checkmate").
func (c Category) Key() string {
	switch c {
	case HonourableCheckmate:
		return "honourable_checkmate"
	case DishonourableCheckmate:
		return "dishonourable_checkmate"
	case SiegeWin:
		return "siege_win"
	case FatigueVictory:
		return "fatigue_victory"
	case Resignation:
		return "resignation"
	case MutualLoss:
		return "mutual_loss"
	}
	return "none"
}

// parseCategory reads a Key; ok is false for an unknown key and for "none".
func parseCategory(key string) (c Category, ok bool) {
	for _, c := range Categories {
		if c.Key() == key {
			return c, true
		}
	}
	return NoCategory, false
}

// Dishonourable reports whether a win of this category is dishonourable
// (rule 5: a Siege Win, or checkmate by a team that sacrificed).
func (c Category) Dishonourable() bool { return c == DishonourableCheckmate || c == SiegeWin }

// Result is the outcome of a game: its category and, except for a mutual
// loss, the winning side. The zero Result is an unfinished game.
type Result struct {
	Category Category
	Winner   chess.Color // meaningful only when HasWinner
}

// Over reports whether the game has ended.
func (r Result) Over() bool { return r.Category != NoCategory }

// HasWinner reports whether one team won (false while ongoing and for a
// mutual loss).
func (r Result) HasWinner() bool { return r.Over() && r.Category != MutualLoss }

// Lost reports whether side c lost the game (both sides in a mutual loss).
func (r Result) Lost(c chess.Color) bool {
	if r.Category == MutualLoss {
		return true
	}
	return r.HasWinner() && r.Winner != c
}

// PGN returns the PGN result token: "1-0", "0-1", or "*" while ongoing and
// for a mutual loss (PGN has no token for both sides losing; the
// Termination tag says so, see PGN).
func (r Result) PGN() string {
	if !r.HasWinner() {
		return "*"
	}
	if r.Winner == chess.White {
		return "1-0"
	}
	return "0-1"
}

// String describes the result: "White wins by honourable checkmate",
// "both teams lose (mutual loss)", "ongoing".
func (r Result) String() string {
	switch {
	case !r.Over():
		return "ongoing"
	case r.Category == MutualLoss:
		return "both teams lose (mutual loss)"
	case r.Category == Resignation:
		return r.Winner.Title() + " wins: " + r.Winner.Other().Title() + " resigned"
	}
	return r.Winner.Title() + " wins by " + r.Category.String()
}
