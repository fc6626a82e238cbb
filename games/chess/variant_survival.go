package chess

// survivalRules: Survival Chess: Tartan Grid (shared/seeds/001,
// docs/rules/survival.md).
var survivalRules = rules{
	prose:     "Survival Chess",
	draws:     true,
	drawRules: true,
	endings:   survivalEndings{},
}

type survivalEndings struct{}

// timeout: the side that ran out loses (ruling 16): the opponent can win
// unless no capture can ever happen, a dead position that has already
// ended the game.
func (survivalEndings) timeout(p *Position, c Color) (Outcome, error) {
	return Outcome{Result: winFor(c.Other(), NoReason).Result, Method: MethodTime}, nil
}
