package chess

import "fmt"

// teamChessRules: the Team Chess base (shared/seeds/003,
// docs/rules/teamchess.md): FIDE movement, check and castling, but a pawn
// reaching the last rank makes a sacrificial move instead of promoting,
// a besieged side passes, and there are no draws of any kind (stagnation
// replaces them, issue 6 ruling 6). The roles are the teamchess package's.
var teamChessRules = rules{
	name:       "teamchess",
	title:      "Team Chess",
	prose:      "Team Chess",
	aliases:    []string{"team", "team-chess"},
	startFEN:   StandardFEN,
	moveHint:   "SAN (e4, Nf3, exd5, O-O, e8=Assassin:xd4) or UCI (e2e4, e7e8a:d4)",
	royalKing:  true,
	castling:   true,
	sacrifices: true,
	pass:       true,
	maxPieces:  16,
	endings:    teamChessEndings{},
}

type teamChessEndings struct{}

// status: checkmate wins; no legal move without check is a siege, which
// does not end the game (rule 2.1: the opponent chooses). The core counts
// bare sacrifices only; the Team Chess layer adds the role forms.
func (teamChessEndings) status(p *Position) Status {
	if !p.HasLegalMove() {
		if p.InCheck() {
			return winFor(p.turn.Other(), Checkmate)
		}
		return Status{Ongoing, Besieged}
	}
	return Status{}
}

// timeout: refused; the Team Chess move timer tags the active commander
// out (teamchess.Game.Timeout, ruling B1) and the game goes on.
func (teamChessEndings) timeout(p *Position, c Color) (Outcome, error) {
	return Outcome{}, fmt.Errorf("in Team Chess running out of time tags the commander out (teamchess.Game.Timeout) and does not end the game: %w", ErrNotInVariant)
}
