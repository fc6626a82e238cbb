package chess

import "fmt"

// teamChessRules: the Team Chess base (shared/seeds/003,
// docs/rules/teamchess.md): no draws of any kind (stagnation replaces
// them, issue 6 ruling 6).
var teamChessRules = rules{
	prose:   "Team Chess",
	endings: teamChessEndings{},
}

type teamChessEndings struct{}

// timeout: refused; the Team Chess move timer tags the active commander
// out (teamchess.Game.Timeout, ruling B1) and the game goes on.
func (teamChessEndings) timeout(p *Position, c Color) (Outcome, error) {
	return Outcome{}, fmt.Errorf("in Team Chess running out of time tags the commander out (teamchess.Game.Timeout) and does not end the game: %w", ErrNotInVariant)
}
