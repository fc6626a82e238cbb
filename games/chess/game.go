package chess

import "fmt"

// Game is a game record: a start position plus the moves played, with the
// current position, the repetition history and how the game ended. It can
// always be rebuilt with ReplayGame from StartFEN() and UCIs(). The zero
// Game is not usable; create one with NewGame, NewGameFromFEN, ReplayGame
// or Resume. A Game is not safe for concurrent use.
//
// A game resumed from a Snapshot starts at the snapshot's position: its
// history (Start, StartFEN, Moves, SANs, UCIs, PGN) covers only the moves
// played since, while Ply, LastMove, RepetitionCount, Claims, Status and
// Outcome are those of the whole game.
type Game struct {
	start Position
	pos   Position
	moves []Move
	sans  []string
	// keys are the repetition keys of the positions since start (keys[i]
	// after i plies); for a resumed game, those of the snapshot first.
	keys     []uint64
	end      Outcome // the recorded ending, when ended
	ended    bool    // Resign, AgreeDraw, ClaimDraw(WithMove) or Timeout ended the game
	basePly  int     // plies played before start (a resumed game)
	baseLast Move    // the move played just before start, NullMove if none
}

// NewGame starts a game of variant v from its standard initial position
// (the Tartan Grid for Survival).
func NewGame(v Variant) *Game {
	g, err := NewGameFromFEN(v, v.StartFEN())
	if err != nil {
		panic("chess: bad built-in start FEN: " + err.Error())
	}
	return g
}

// NewGameFromFEN starts a game of variant v from a FEN (see ParseFEN).
func NewGameFromFEN(v Variant, fen string) (*Game, error) {
	p, err := ParseFEN(v, fen)
	if err != nil {
		return nil, err
	}
	return &Game{start: p, pos: p, keys: []uint64{p.RepetitionKey()}}, nil
}

// ReplayGame rebuilds a game from its start FEN and moves (UCI or SAN, as
// ParseMove reads them). The error names the first move that fails.
func ReplayGame(v Variant, fen string, moves []string) (*Game, error) {
	g, err := NewGameFromFEN(v, fen)
	if err != nil {
		return nil, err
	}
	for i, s := range moves {
		if _, _, err := g.PlayText(s); err != nil {
			return nil, fmt.Errorf("move %d (%q): %w", i+1, s, err)
		}
	}
	return g, nil
}

// Variant returns the game's rule set.
func (g *Game) Variant() Variant { return g.pos.variant }

// StartFEN returns the FEN of the start position (of a resumed game: the
// position it was resumed at).
func (g *Game) StartFEN() string { return g.start.FEN() }

// Start returns a copy of the start position.
func (g *Game) Start() *Position { p := g.start; return &p }

// Position returns a copy of the current position; changing it does not
// change the game.
func (g *Game) Position() *Position { p := g.pos; return &p }

// Moves returns the moves played (a copy; since Resume for a resumed game).
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// SANs returns the moves played in SAN (a copy; since Resume for a
// resumed game).
func (g *Game) SANs() []string { return append([]string(nil), g.sans...) }

// UCIs returns the moves played in UCI (the form ReplayGame reads back
// from StartFEN; since Resume for a resumed game).
func (g *Game) UCIs() []string {
	out := make([]string, len(g.moves))
	for i, m := range g.moves {
		out[i] = m.UCI()
	}
	return out
}

// Ply returns the number of moves (plies) played in the whole game (a
// resumed game counts those before the snapshot too).
func (g *Game) Ply() int { return g.basePly + len(g.moves) }

// LastMove returns the last move played; ok is false before the first move.
func (g *Game) LastMove() (m Move, ok bool) {
	if len(g.moves) == 0 {
		return g.baseLast, g.baseLast != NullMove
	}
	return g.moves[len(g.moves)-1], true
}

// LastMoveSquares returns the origin and destination of the last move (the
// king's squares for castling), for highlighting; ok is false before the
// first move.
func (g *Game) LastMoveSquares() (from, to Square, ok bool) {
	m, ok := g.LastMove()
	if !ok {
		return NoSquare, NoSquare, false
	}
	return m.From(), m.To(), true
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.moves = append([]Move(nil), g.moves...)
	c.sans = append([]string(nil), g.sans...)
	c.keys = append([]uint64(nil), g.keys...)
	return &c
}

// Play plays the legal move m. It refuses (changing nothing) when the game
// is already over (a *MoveError wrapping a *GameOverError) or m is illegal
// (*MoveError).
func (g *Game) Play(m Move) error {
	if err := g.over(); err != nil {
		return &MoveError{Input: m.UCI(), Reason: err.Error(), err: err}
	}
	if !g.pos.IsLegal(m) {
		return g.pos.explainMove(m)
	}
	g.record(m)
	return nil
}

// record plays the legal move m and adds it to the history.
func (g *Game) record(m Move) {
	san := g.pos.SAN(m)
	g.pos.play(m)
	g.moves = append(g.moves, m)
	g.sans = append(g.sans, san)
	g.keys = append(g.keys, g.pos.RepetitionKey())
}

// PlayText parses a player's move (SAN or UCI, see ParseMove) and plays it.
// It returns the move and its SAN; on error nothing changes.
func (g *Game) PlayText(s string) (Move, string, error) {
	if err := g.over(); err != nil {
		return NullMove, "", &MoveError{Input: s, Reason: err.Error(), err: err}
	}
	m, err := g.pos.ParseMove(s)
	if err != nil {
		return NullMove, "", err
	}
	if err := g.Play(m); err != nil {
		return NullMove, "", err
	}
	return m, g.sans[len(g.sans)-1], nil
}

// RepetitionCount returns how many times the current position has occurred
// in the game (1 the first time), comparing positions as FIDE 9.2.3 does.
func (g *Game) RepetitionCount() int {
	k := g.keys[len(g.keys)-1]
	n := 0
	for _, x := range g.keys {
		if x == k {
			n++
		}
	}
	return n
}

// Status returns the automatic result: Position.Status plus fivefold
// repetition (FIDE 9.6.1) for Chess and Survival. Terminal positions
// (checkmate, elimination, stalemate) and dead positions take precedence.
func (g *Game) Status() Status {
	st := g.pos.Status()
	if st.Over() || !g.pos.rules().drawRules {
		return st
	}
	if g.RepetitionCount() >= 5 {
		return Status{Draw, FivefoldRepetition}
	}
	return st
}

// Claim is a draw a player may claim (FIDE 9.2, 9.3); it is not automatic.
type Claim uint8

// The claimable draws.
const (
	ThreefoldRepetition Claim = iota + 1
	FiftyMoveRule
)

// String names the claim ("threefold repetition", "the 50-move rule").
func (c Claim) String() string {
	switch c {
	case ThreefoldRepetition:
		return "threefold repetition"
	case FiftyMoveRule:
		return "the 50-move rule"
	}
	return ""
}

// Claims returns the draws the side to move may claim now: threefold
// repetition (the current position has occurred at least three times) and
// the 50-move rule (at least 50 moves by each side without a pawn move or
// capture). Empty when the game is over (Outcome) and in Team Chess
// (issue 6: no repetition or 50-move draw).
func (g *Game) Claims() []Claim {
	if _, over := g.Outcome(); over || !g.pos.rules().drawRules {
		return nil
	}
	var out []Claim
	if g.RepetitionCount() >= 3 {
		out = append(out, ThreefoldRepetition)
	}
	if g.pos.halfmove >= 100 {
		out = append(out, FiftyMoveRule)
	}
	return out
}

// ClaimsWithMove returns the draws the side to move may claim by writing
// the legal move m and declaring it (FIDE 9.2.1.1 and 9.3.1): those that
// would hold after m. The move is not played.
func (g *Game) ClaimsWithMove(m Move) []Claim {
	if _, over := g.Outcome(); over || !g.pos.rules().drawRules || !g.pos.IsLegal(m) {
		return nil
	}
	c := g.Clone()
	c.pos.play(m)
	c.moves = append(c.moves, m)
	c.keys = append(c.keys, c.pos.RepetitionKey())
	var out []Claim
	if c.RepetitionCount() >= 3 {
		out = append(out, ThreefoldRepetition)
	}
	if c.pos.halfmove >= 100 {
		out = append(out, FiftyMoveRule)
	}
	return out
}
