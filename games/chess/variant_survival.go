package chess

// survivalRules: Survival Chess: Tartan Grid (shared/seeds/001,
// docs/rules/survival.md): the king is an ordinary piece (no check, any
// number of kings, none needed), no castling, capture is mandatory,
// promotion to a king too, and a side with no pieces left has lost. At
// most 24 pieces a side: the Tartan Grid's, and no move adds one.
var survivalRules = rules{
	name:             "survival",
	title:            "Survival Chess: Tartan Grid",
	prose:            "Survival Chess",
	aliases:          []string{"tartan", "survivalchess"},
	startFEN:         TartanFEN,
	moveHint:         "SAN (e4, Nf3, exd5, e8=Q, e8=K) or UCI (e2e4, e7e8q)",
	mandatoryCapture: true,
	promotions:       []Role{Queen, Rook, Bishop, Knight, King},
	elimination:      true,
	maxPieces:        24,
	draws:            true,
	drawRules:        true,
	endings:          survivalEndings{},
}

type survivalEndings struct{}

// status: a side with no pieces has lost (elimination: the player who
// captured the final piece wins), stalemate draws, and a position where
// no capture can ever happen is dead (IsDeadSurvival).
func (survivalEndings) status(p *Position) Status {
	us := p.turn
	if p.byColor[us] == 0 {
		return winFor(us.Other(), Elimination)
	}
	if p.byColor[us.Other()] == 0 {
		return winFor(us, Elimination)
	}
	if !p.HasLegalMove() {
		return Status{Draw, Stalemate}
	}
	if p.IsDeadSurvival() {
		return Status{Draw, DeadPosition}
	}
	return Status{}
}

// timeout: the side that ran out loses (ruling 16): the opponent can win
// unless no capture can ever happen, a dead position that has already
// ended the game.
func (survivalEndings) timeout(p *Position, c Color) (Outcome, error) {
	return Outcome{Result: winFor(c.Other(), NoReason).Result, Method: MethodTime}, nil
}
