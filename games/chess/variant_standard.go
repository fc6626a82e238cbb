package chess

// standardRules: FIDE chess (FIDE Laws of Chess, Basic and Competition
// Rules), the defaults every other variant departs from.
var standardRules = rules{
	prose:     "standard chess",
	draws:     true,
	drawRules: true,
	endings:   standardEndings{},
}

type standardEndings struct{}

// timeout: FIDE 6.9. The side that ran out loses unless the opponent has
// only a king: a lone king can never mate, while any other material mates
// with the help of the other side's pieces (a knight against a queen,
// bishops against a knight), so only that case is a draw.
func (standardEndings) timeout(p *Position, c Color) (Outcome, error) {
	opp := c.Other()
	if p.byColor[opp] == p.Pieces(opp, King) {
		return Outcome{Result: Draw, Method: MethodTime}, nil
	}
	return Outcome{Result: winFor(opp, NoReason).Result, Method: MethodTime}, nil
}
