package chess

// standardRules: FIDE chess (FIDE Laws of Chess, Basic and Competition
// Rules), the defaults every other variant departs from: royal kings,
// castling, promotion to a queen, rook, bishop or knight, every FIDE draw.
var standardRules = rules{
	name:       "chess",
	title:      "Standard",
	prose:      "standard chess",
	aliases:    []string{"standard", "fide"},
	startFEN:   StandardFEN,
	moveHint:   "SAN (e4, Nf3, exd5, O-O, e8=Q) or UCI (e2e4, e7e8q)",
	royalKing:  true,
	castling:   true,
	promotions: []Role{Queen, Rook, Bishop, Knight},
	maxPieces:  16,
	draws:      true,
	drawRules:  true,
	endings:    standardEndings{},
}

type standardEndings struct{}

// status: checkmate wins (5.1.1), stalemate draws (5.2.1), and the dead
// positions InsufficientMaterial recognises draw (5.2.2).
func (standardEndings) status(p *Position) Status {
	if !p.HasLegalMove() {
		if p.InCheck() {
			return winFor(p.turn.Other(), Checkmate)
		}
		return Status{Draw, Stalemate}
	}
	if p.InsufficientMaterial() {
		return Status{Draw, InsufficientMaterial}
	}
	return Status{}
}

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
