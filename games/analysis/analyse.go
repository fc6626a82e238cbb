package analysis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
)

// Game is a finished (or unfinished) 8x8 game to analyse: its variant, its
// start position and its moves as written (SAN or player notation, check
// and annotation marks allowed; "--" for a Team Chess side's pass).
type Game struct {
	Variant chess.Variant
	// FEN is the start position; "" is the variant's start.
	FEN   string
	Moves []string
	// Commanders is each Team Chess side's queue length (0 counts as 1):
	// the rules end a game when a side's last commander is tagged out for
	// fatigue, so the replay needs as many as the game had (PGN tags
	// WhiteCommanders and BlackCommanders, see CommandersFromTag).
	Commanders [2]int
}

// Options bound an analysis.
type Options struct {
	// MoveTime is the search time of each position (every position is
	// searched once: the start and the one after each move); 0 means
	// DefaultMoveTime.
	MoveTime time.Duration
	// Depth, when positive, also caps each search's depth (tests use it to
	// be quick and reproducible).
	Depth int
	// OnPosition, when set, is called after each position's search with
	// the number of positions searched and their total.
	OnPosition func(done, total int)
}

// DefaultMoveTime is the search time of a position when Options gives none.
const DefaultMoveTime = 100 * time.Millisecond

// Move is one analysed ply.
type Move struct {
	Ply    int    // from 1
	Number string // "12." for White, "12..." for Black
	Text   string // as the game gave it
	SAN    string // in the variant's notation, with its check mark; "--" for a pass
	Side   chess.Color
	// Pass: a Team Chess side's pass when besieged (no choice: not judged,
	// not counted in accuracy).
	Pass bool
	// Eval is the evaluation of the position after the move; Depth is its
	// search's last completed iteration (0 for a finished game).
	Eval  Score
	Depth int
	// Best is the engine's move in the position before, in the variant's
	// notation ("" when there was none to find).
	Best      string
	Judgement Judgement
	// Accuracy is lila's accuracy of this move for its player (100 when
	// its win percent did not drop); Drop is that drop, in win-percent
	// points on the variant's Curve (0 when it rose).
	Accuracy float64
	Drop     float64
}

// SideSummary is one side's summary.
type SideSummary struct {
	// Accuracy is lila's game accuracy (AccuracyPercent.gameAccuracy);
	// HasAccuracy is false when the side made no move.
	Accuracy                         float64
	HasAccuracy                      bool
	Moves                            int // moves judged (passes excluded)
	Inaccuracies, Mistakes, Blunders int
}

// Report is an analysis.
type Report struct {
	Variant  chess.Variant
	Curve    Curve
	MoveTime time.Duration
	// Start is the evaluation of the start position.
	Start Score
	Moves []Move
	// Sides is indexed by chess.Color.
	Sides [2]SideSummary
}

// PlyError is a move of the game that cannot be played: Ply counts from 1.
type PlyError struct {
	Ply    int
	Number string // "12." or "12..."
	Text   string
	Err    error
}

func (e *PlyError) Error() string {
	return fmt.Sprintf("move %s %s (ply %d): %v", e.Number, strconv.Quote(e.Text), e.Ply, e.Err)
}

func (e *PlyError) Unwrap() error { return e.Err }

// CommandersFromTag counts the commands of a WhiteCommanders or
// BlackCommanders tag ("Ann (+1 -1); Bob* (+0 -0)": 2); 0 for "" or "?".
func CommandersFromTag(v string) int {
	v = strings.TrimSpace(v)
	if v == "" || v == "?" || v == "-" {
		return 0
	}
	return strings.Count(v, ";") + 1
}

// node is a position to search: a chess or Survival position with the
// hashes before it, or a Team Chess game.
type node struct {
	pos     chess.Position
	history []uint64
	tc      *teamchess.Game
}

// Analyse replays g (refusing it with a *PlyError at its first move that
// cannot be played), then searches every position for opt.MoveTime with
// the variant's engine (engine.Searcher for chess and Survival,
// engine.TeamChessPlayer for Team Chess) and judges every move as lichess
// does (Judge, GameAccuracy, on the variant's Curve). ctx stops it: the
// error is then ctx's.
func Analyse(ctx context.Context, g Game, opt Options) (*Report, error) {
	if opt.MoveTime <= 0 {
		opt.MoveTime = DefaultMoveTime
	}
	nodes, moves, err := replay(g)
	if err != nil {
		return nil, err
	}
	rep := &Report{Variant: g.Variant, Curve: CurveOf(g.Variant), MoveTime: opt.MoveTime, Moves: moves}
	evals := make([]Score, len(nodes))
	depths := make([]int, len(nodes))
	bests := make([]string, len(nodes))
	var searcher *engine.Searcher
	for i, n := range nodes {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if i > 0 && moves[i-1].Pass {
			// The pass changes nothing the Team Chess engine searches: the
			// game was already in its siege decision after the move.
			evals[i], depths[i], bests[i] = evals[i-1], depths[i-1], bests[i-1]
		} else if n.tc != nil {
			evals[i], depths[i], bests[i] = searchTeamChess(ctx, n.tc, opt)
		} else {
			if searcher == nil {
				searcher = engine.NewSearcher(20)
			}
			evals[i], depths[i], bests[i] = searchChess(ctx, searcher, &n.pos, n.history, opt)
		}
		if opt.OnPosition != nil {
			opt.OnPosition(i+1, len(nodes))
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.Start = evals[0]
	scale := rep.Curve.Scale
	cps := make([]float64, len(nodes))
	skip := make([]bool, len(moves))
	for i := range evals {
		cps[i] = float64(evals[i].ForceCP()) * scale
	}
	for i := range rep.Moves {
		m := &rep.Moves[i]
		m.Eval, m.Depth, m.Best = evals[i+1], depths[i+1], bests[i]
		side := int(m.Side)
		skip[i] = m.Pass
		if m.Pass {
			m.Accuracy = 100
			continue
		}
		before, after := WinPercent(cps[i]), WinPercent(cps[i+1])
		if side == 1 {
			before, after = 100-before, 100-after
		}
		m.Accuracy = MoveAccuracy(before, after)
		m.Drop = max(before-after, 0)
		m.Judgement = Judge(evals[i], evals[i+1], side, scale)
		if m.SAN == m.Best {
			// The engine's own choice: a drop is the search's own noise
			// (an odd and an even depth, a deeper horizon), not the
			// player's error.
			m.Judgement = Good
		}
		s := &rep.Sides[side]
		s.Moves++
		switch m.Judgement {
		case Inaccuracy:
			s.Inaccuracies++
		case Mistake:
			s.Mistakes++
		case Blunder:
			s.Blunders++
		}
	}
	if len(moves) > 0 {
		acc, ok := gameAccuracy(cps, moves[0].Side == chess.White, skip)
		for c := range 2 {
			rep.Sides[c].Accuracy, rep.Sides[c].HasAccuracy = acc[c], ok[c]
		}
	}
	return rep, nil
}

// moveNumber is "12." or "12..." for the side to move in p.
func moveNumber(p *chess.Position) string {
	n := strconv.Itoa(p.FullmoveNumber()) + "."
	if p.Turn() == chess.Black {
		n += ".."
	}
	return n
}

// replay plays g's moves: the positions to search (the start and one after
// each move) and the moves, without their analysis.
func replay(g Game) ([]node, []Move, error) {
	fen := g.FEN
	if strings.TrimSpace(fen) == "" {
		fen = g.Variant.StartFEN()
	}
	if g.Variant == chess.TeamChess {
		return replayTeamChess(g, fen)
	}
	pos, err := chess.ParseFEN(g.Variant, fen)
	if err != nil {
		return nil, nil, fmt.Errorf("start position: %w", err)
	}
	// game keeps the positions' history: the automatic endings that depend
	// on it (fivefold repetition) end the game as they end a played one.
	game, err := chess.NewGameFromFEN(g.Variant, fen)
	if err != nil {
		return nil, nil, fmt.Errorf("start position: %w", err)
	}
	nodes := []node{{pos: pos}}
	hashes := []uint64{pos.Hash()}
	var moves []Move
	for i, tok := range g.Moves {
		ply := i + 1
		mv := Move{Ply: ply, Number: moveNumber(&pos), Text: tok, Side: pos.Turn()}
		fail := func(err error) error { return &PlyError{Ply: ply, Number: mv.Number, Text: tok, Err: err} }
		if st := game.Status(); st.Over() {
			return nil, nil, fail(fmt.Errorf("the game is already over: %s", st))
		}
		if tok == "--" {
			return nil, nil, fail(fmt.Errorf("a pass is a Team Chess move only"))
		}
		m, err := pos.ParseMove(tok)
		if err != nil {
			return nil, nil, fail(err)
		}
		mv.SAN = pos.SAN(m)
		if err := game.Play(m); err != nil {
			return nil, nil, fail(err)
		}
		pos = *game.Position()
		moves = append(moves, mv)
		nodes = append(nodes, node{pos: pos, history: hashes[:len(hashes):len(hashes)]})
		hashes = append(hashes, pos.Hash())
	}
	return nodes, moves, nil
}

// teamChessMembers returns n placeholder commanders for a side.
func teamChessMembers(side string, n int) []teamchess.Member {
	n = min(max(n, 1), 32)
	ms := make([]teamchess.Member, n)
	for i := range ms {
		ms[i] = teamchess.Member{ID: side + strconv.Itoa(i+1)}
	}
	return ms
}

func replayTeamChess(g Game, fen string) ([]node, []Move, error) {
	tg, err := teamchess.NewGame(teamchess.Setup{FEN: fen,
		White: teamChessMembers("white", g.Commanders[0]), Black: teamChessMembers("black", g.Commanders[1])})
	if err != nil {
		return nil, nil, fmt.Errorf("start position: %w", err)
	}
	nodes := []node{{tc: tg.Clone()}}
	var moves []Move
	passed := false // the previous token was the pass of the game's siege
	for i, tok := range g.Moves {
		ply := i + 1
		pos := tg.Position()
		mv := Move{Ply: ply, Number: moveNumber(&pos), Text: tok, Side: pos.Turn()}
		fail := func(err error) error { return &PlyError{Ply: ply, Number: mv.Number, Text: tok, Err: err} }
		if tg.Phase() == teamchess.Finished {
			return nil, nil, fail(fmt.Errorf("the game is already over: %s", tg.Result()))
		}
		switch {
		case tok == "--":
			if tg.Phase() != teamchess.SiegeDecision || passed {
				return nil, nil, fail(errors.New("a pass (--) is played only by a besieged side, and the side to move is not besieged"))
			}
			// The rules passed for the besieged side as the move before
			// ended: the position shows the attacker to move.
			mv.Side = pos.Turn().Other()
			if mv.Side == chess.Black {
				mv.Number = strconv.Itoa(pos.FullmoveNumber()-1) + "..."
			} else {
				mv.Number = strconv.Itoa(pos.FullmoveNumber()) + "."
			}
			mv.SAN, mv.Pass = "--", true
			passed = true
		default:
			if tg.Phase() == teamchess.SiegeDecision {
				if !passed {
					return nil, nil, fail(fmt.Errorf("%s is besieged and passes here: the movetext needs -- before this move", pos.Turn().Other().Title()))
				}
				// A move after the pass: the attacker continued the siege.
				if _, err := tg.SiegeContinue(""); err != nil {
					return nil, nil, fail(err)
				}
			}
			passed = false
			m, err := tg.ParseMove(tok)
			if err != nil {
				return nil, nil, fail(err)
			}
			mv.SAN = teamchess.SAN(&pos, m)
			if _, err := tg.PlayMove("", m); err != nil {
				return nil, nil, fail(err)
			}
		}
		moves = append(moves, mv)
		nodes = append(nodes, node{tc: tg.Clone()})
	}
	return nodes, moves, nil
}

// maxForced bounds how many forced moves searchChess plays through.
const maxForced = 16

// searchChess searches a chess or Survival position. The Searcher answers
// a position with a single legal move after one ply (it has nothing to
// choose), which is no evaluation: a forced move (a Survival capture chain,
// a check with one answer) is played, up to maxForced, and the position
// after it searched, a mate count growing by the forced moves of the
// winning side.
func searchChess(ctx context.Context, s *engine.Searcher, p *chess.Position, history []uint64, opt Options) (Score, int, string) {
	var forced []chess.Color
	best := ""
	q := *p
	for len(forced) < maxForced && !q.Status().Over() {
		ms := q.LegalMoves()
		if len(ms) != 1 {
			break
		}
		if best == "" {
			best = q.SAN(ms[0])
		}
		forced = append(forced, q.Turn())
		history = append(history[:len(history):len(history)], q.Hash())
		q, _ = q.Play(ms[0])
	}
	sc, depth, b := searchOne(ctx, s, &q, history, opt)
	if best == "" {
		best = b
	}
	for i := len(forced) - 1; i >= 0; i-- {
		winner := 1
		if forced[i] == chess.Black {
			winner = -1
		}
		switch {
		case sc.Won != 0:
			sc = Score{Mate: sc.Won}
		case sc.Mate*winner > 0:
			sc.Mate += winner
		}
	}
	return sc, depth, best
}

// searchOne searches a position once.
func searchOne(ctx context.Context, s *engine.Searcher, p *chess.Position, history []uint64, opt Options) (Score, int, string) {
	if st := p.Status(); st.Over() {
		return finished(st), 0, ""
	}
	res := s.SearchContext(ctx, *p, history, engine.Limits{Depth: opt.Depth, Time: opt.MoveTime})
	sign := 1
	if p.Turn() == chess.Black {
		sign = -1
	}
	var sc Score
	if n, ok := res.MateIn(); ok {
		sc.Mate = sign * n
	} else {
		sc.CP = sign * res.Score
	}
	best := ""
	if res.Move != chess.NullMove {
		best = p.SAN(res.Move)
	}
	return sc, res.Depth, best
}

// finished scores a finished position.
func finished(st chess.Status) Score {
	if c, ok := st.Winner(); ok {
		if c == chess.White {
			return Score{Won: 1}
		}
		return Score{Won: -1}
	}
	return Score{}
}

// searchTeamChess searches a Team Chess game.
func searchTeamChess(ctx context.Context, g *teamchess.Game, opt Options) (Score, int, string) {
	if g.Phase() == teamchess.Finished {
		r := g.Result()
		switch {
		case !r.HasWinner():
			return Score{}, 0, ""
		case r.Winner == chess.White:
			return Score{Won: 1}, 0, ""
		}
		return Score{Won: -1}, 0, ""
	}
	p := &engine.TeamChessPlayer{Level: engine.Level{Name: "analysis", Depth: opt.Depth}}
	sctx, cancel := context.WithTimeout(ctx, opt.MoveTime)
	defer cancel()
	res := p.ChooseContext(sctx, g)
	sign := 1
	if g.Turn() == chess.Black {
		sign = -1
	}
	var sc Score
	if n, ok := teamChessMate(res.Score); ok {
		sc.Mate = sign * n
	} else {
		sc.CP = sign * res.Score
	}
	best := ""
	pos := g.Position()
	switch res.Action.Kind {
	case teamchess.ActMove:
		if m, err := teamchess.ParseMove(&pos, res.Action.Move); err == nil {
			best = teamchess.SAN(&pos, m)
		}
	case teamchess.ActSiegeWin:
		best = "The Siege Win"
	case teamchess.ActSiegeContinue:
		best = "Continuing the siege"
	}
	return sc, res.Depth, best
}

// teamChessMate reads a Team Chess score (the acting side's point of
// view): every win scores above engine.Mate-5*engine.MaxPly (a checkmate
// Mate-ply, a dishonourable one or a Siege Win or fatigue victory less a
// penalty that is a multiple of 2*MaxPly: games/engine/teamchess.go), so
// the plies to the win are the distance to Mate modulo 2*MaxPly. It
// returns the moves to that win (a siege decision is an action of its
// own, so this counts actions, not strictly moves).
func teamChessMate(score int) (int, bool) {
	abs, sign := score, 1
	if score < 0 {
		abs, sign = -score, -1
	}
	if abs < engine.Mate-5*engine.MaxPly {
		return 0, false
	}
	plies := (engine.Mate - abs) % (2 * engine.MaxPly)
	return sign * max((plies+1)/2, 1), true
}

// Worst returns up to n judged moves (inaccuracies, mistakes, blunders),
// the gravest first: by judgement, then by Drop, then the earliest.
func (r *Report) Worst(n int) []Move {
	var out []Move
	for _, m := range r.Moves {
		if m.Judgement != Good {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Move) int {
		if a.Judgement != b.Judgement {
			return cmp.Compare(b.Judgement, a.Judgement)
		}
		return cmp.Compare(b.Drop, a.Drop)
	})
	return out[:min(n, len(out))]
}
