package engine

import (
	"cmp"
	"context"
	"slices"
	"sync/atomic"
	"time"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
)

// This file is the Team Chess player (issue 16, item 1): an alpha-beta
// search over whole teamchess.Game values, so that every rule the game
// knows is known to the search without a second copy of it: the 8th-rank
// sacrifices with their roles and targets (teamchess.LegalMoves), a
// Saboteur's forced reply, the siege decision (Siege Win or continue),
// the stagnation counters and fatigue tag-outs, the Political Agent's
// revolution, and the result's category (honour). A node is a search copy
// of the game (teamchess.Game.CopyForSearch, no record) with one action
// applied by the rules' own code; that is slower than the chess Searcher's
// make-move, so a level's node budget is divided by TeamChessNodeDivisor.
//
// Scores are in centipawns from White's point of view (a siege decision
// lets the same side act twice, so sides do not simply alternate).
//
// Honour weighing (docs/strength.md): every win scores above
// Mate-5*MaxPly, so a sure win is always preferred to any material; among sure wins an
// honourable checkmate scores highest, a dishonourable checkmate
// tcDishonourPenalty less, and a Siege Win or a fatigue victory
// tcSiegePenalty less. At a siege decision the player therefore continues
// only when its search finds a forced checkmate within its horizon, and
// otherwise takes the Siege Win: it never gives up a certain win for a
// hoped-for mate.

// TeamChessNodeDivisor divides a Level's node budget for Team Chess.
const TeamChessNodeDivisor = 20

const (
	tcDishonourPenalty = 2 * MaxPly
	tcSiegePenalty     = 4 * MaxPly
	// tcStagnationPenalty is charged per point of a side's stagnation
	// counter (four in a round is fatigue, ruling 5).
	tcStagnationPenalty = 12
)

// TeamChessResult is a Team Chess search's answer.
type TeamChessResult struct {
	// Action is the action to apply for the side to act (By empty): a
	// move, the Siege Win or continuing the siege. Its Kind is empty only
	// when the game is over.
	Action teamchess.Action
	// Score is from the acting side's point of view; Depth is the last
	// completed iteration; Nodes counts the games searched.
	Score int
	Depth int
	Nodes uint64
}

// TeamChessPlayer chooses actions in Team Chess games at a Level ("random"
// and "greedy" are Level names too here: see NewTeamChessPlayer).
type TeamChessPlayer struct {
	Level Level
	Seed  uint64
	// kind is "", "random" or "greedy".
	kind string
	stop atomic.Bool
}

// Stop makes a running Choose return soon with its last completed
// iteration's action (any goroutine may call it). The next Choose clears
// it; ChooseContext ignores it (cancel its context instead).
func (p *TeamChessPlayer) Stop() { p.stop.Store(true) }

// NewTeamChessPlayer returns the Team Chess player spec names: a level
// name, "random" (a uniformly random action) or "greedy" (a one-ply
// search: the action with the best static evaluation).
func NewTeamChessPlayer(spec string, seed uint64) (*TeamChessPlayer, error) {
	switch spec {
	case "random", "greedy":
		return &TeamChessPlayer{Seed: seed, kind: spec, Level: Level{Name: spec, Depth: 1}}, nil
	}
	l, err := LevelByName(spec)
	if err != nil {
		return nil, err
	}
	return &TeamChessPlayer{Level: l, Seed: seed}, nil
}

// Name returns the player's specification.
func (p *TeamChessPlayer) Name() string { return p.Level.Name }

// tcSearch is one search's state. A node is a search copy of the game
// (teamchess.Game.CopyForSearch) in stack, one per ply, advanced with
// PlayLegal or DecideSiege: the rules' own code without parsing, notation
// or record entries.
type tcSearch struct {
	nodes, limit uint64
	deadline     time.Time
	// listBy, when set, ends the root's move listing early (half the time
	// to the deadline), so that the moves listed get searched.
	listBy time.Time
	// stopped: the node budget, the deadline, done or stop ended the
	// search (poll checks the last three).
	stopped bool
	done    <-chan struct{} // the context's; nil: none
	stop    *atomic.Bool    // Choose's Stop; nil under ChooseContext
	stack   [MaxPly + 1]teamchess.Game
	acts    [MaxPly + 1][]tcAct
	// iter is the iteration running; the node budget does not stop
	// iterations up to minDepth.
	iter, minDepth int
	extend         bool // check extensions (the levels, not greedy)
}

// tcPollMoves is how many moves a generation makes between two polls: a
// Team Chess position's list can have hundreds of thousands of moves
// (chains of Saboteurs), which take seconds to build.
const tcPollMoves = 1024

// poll sets and returns stopped when the deadline passed, the context was
// cancelled or Stop was called.
func (s *tcSearch) poll() bool {
	if s.stopped {
		return true
	}
	if !s.deadline.IsZero() && !time.Now().Before(s.deadline) {
		s.stopped = true
	}
	if s.stop != nil && s.stop.Load() {
		s.stopped = true
	}
	if s.done != nil {
		select {
		case <-s.done:
			s.stopped = true
		default:
		}
	}
	return s.stopped
}

// tcAct is one action in a search: a move, or a siege decision.
type tcAct struct {
	kind teamchess.ActionKind // ActMove, ActSiegeWin or ActSiegeContinue
	move teamchess.Move
	key  int // a move's tcOrder
}

// action returns a as a teamchess.Action for side.
func (a tcAct) action(side chess.Color) teamchess.Action {
	act := teamchess.Action{Kind: a.kind, Side: side.String()}
	if a.kind == teamchess.ActMove {
		act.Move = a.move.UCI()
	}
	return act
}

// child returns the game after a at ply (a search copy in the stack).
func (s *tcSearch) child(g *teamchess.Game, a tcAct, ply int) *teamchess.Game {
	c := &s.stack[ply]
	g.CopyForSearch(c)
	switch a.kind {
	case teamchess.ActMove:
		c.PlayLegal(a.move)
	default:
		c.DecideSiege(a.kind == teamchess.ActSiegeWin)
	}
	return c
}

// Choose returns the action for the side to act in g (g is not changed)
// within timeCap (0: none), or sooner when Stop is called. It is
// ChooseContext with Stop as the cancellation.
func (p *TeamChessPlayer) Choose(g *teamchess.Game, timeCap time.Duration) TeamChessResult {
	p.stop.Store(false)
	ctx := context.Background()
	if timeCap > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeCap)
		defer cancel()
	}
	return p.choose(ctx, g, &p.stop)
}

// ChooseContext returns the action for the side to act in g (g is not
// changed). The context's deadline caps the time and its cancellation
// stops the search: the answer is then the last completed iteration's
// action, else the best of the first iteration's partial results, else
// (stopped while the moves were still being listed, which can take
// seconds in a position with many sacrifices) the best-ordered of the
// moves listed so far. Under a deadline, the listing takes at most half
// the time: the moves listed by then are searched. The action is legal in every case; its Kind is
// empty only when the game is over. Depth 0 in the result means no
// iteration completed.
func (p *TeamChessPlayer) ChooseContext(ctx context.Context, g *teamchess.Game) TeamChessResult {
	return p.choose(ctx, g, nil)
}

func (p *TeamChessPlayer) choose(ctx context.Context, g *teamchess.Game, stop *atomic.Bool) TeamChessResult {
	s := &tcSearch{done: ctx.Done(), stop: stop}
	if dl, ok := ctx.Deadline(); ok {
		s.deadline = dl
		s.listBy = time.Now().Add(time.Until(dl) / 2)
	}
	acts := s.actions(g, 0)
	if len(acts) == 0 {
		return TeamChessResult{}
	}
	pos := g.Position()
	me := pos.Turn()
	if s.stopped {
		// Stopped while listing: the best-ordered move listed.
		return TeamChessResult{Action: acts[0].action(me)}
	}
	acts = append([]tcAct(nil), acts...)
	r := newRNG(p.Seed ^ pos.Hash() ^ uint64(len(acts))*0x9e37)
	sign := 1
	if me == chess.Black {
		sign = -1
	}
	if p.kind == "random" {
		return TeamChessResult{Action: acts[r.intn(len(acts))].action(me)}
	}
	s.limit = p.Level.Nodes / TeamChessNodeDivisor
	if p.Level.Nodes == 0 && s.deadline.IsZero() {
		// A level without a node budget uses the time it is given;
		// without a deadline it stops at untimedNodes.
		s.limit = untimedNodes / TeamChessNodeDivisor
	}
	depth := p.Level.Depth
	if depth <= 0 || depth > MaxDepth {
		depth = MaxDepth
	}
	margin := p.Level.Margin
	if p.kind == "greedy" {
		s.limit = 0
	}
	best := TeamChessResult{Action: acts[0].action(me)}
	s.minDepth, s.extend = p.Level.MinDepth, p.kind == ""
	for d := 1; d <= depth; d++ {
		s.iter = d
		scores := make([]int, 0, len(acts))
		top := -Infinity
		for _, a := range acts {
			c := s.child(g, a, 1)
			alpha := top - margin - 1
			if top == -Infinity {
				alpha = -Infinity
			}
			var sc int
			if sign == 1 {
				sc = s.search(c, d-1, alpha, Infinity, 1)
			} else {
				sc = -s.search(c, d-1, -Infinity, -alpha, 1)
			}
			scores = append(scores, sc)
			if sc > top {
				top = sc
			}
			if s.stopped {
				break
			}
		}
		if s.stopped && d > 1 {
			break
		}
		// Choose among the actions within margin of the best.
		var pool []int
		for i, sc := range scores {
			if sc >= top-margin {
				pool = append(pool, i)
			}
		}
		pick := pool[r.intn(len(pool))]
		best = TeamChessResult{Action: acts[pick].action(me), Score: top, Depth: d, Nodes: s.nodes}
		// Search the best action first next time.
		acts[0], acts[pick] = acts[pick], acts[0]
		// An honourable checkmate cannot be bettered; any other win might
		// (a deeper iteration may find a mate instead of a Siege Win).
		if s.stopped || top > Mate-MaxPly {
			break
		}
	}
	best.Nodes = s.nodes
	return best
}

// actions lists the actions of the side to act in g, at ply (the list is
// the ply's buffer, valid until the next call for the same ply): the
// siege decisions, the forced move, or the legal moves sorted by tcOrder,
// descending, stable. When the search is stopped while the moves are
// being listed (poll, every tcPollMoves moves), or the root's listing
// reaches listBy, the list holds those listed so far, sorted.
func (s *tcSearch) actions(g *teamchess.Game, ply int) []tcAct {
	out := s.acts[ply][:0]
	defer func() { s.acts[ply] = out }()
	switch g.Phase() {
	case teamchess.Finished:
		return out
	case teamchess.SiegeDecision:
		out = append(out, tcAct{kind: teamchess.ActSiegeWin})
		pos := g.Position()
		if teamchess.HasLegalMove(&pos) {
			out = append(out, tcAct{kind: teamchess.ActSiegeContinue})
		}
		return out
	}
	if f, ok := g.Forced(); ok {
		out = append(out, tcAct{kind: teamchess.ActMove, move: f})
		return out
	}
	pos := g.Position()
	for m := range teamchess.AllLegalMoves(&pos) {
		out = append(out, tcAct{kind: teamchess.ActMove, move: m, key: tcOrder(&pos, m)})
		if len(out)%tcPollMoves == 0 && (s.poll() || ply == 0 && !s.listBy.IsZero() && !time.Now().Before(s.listBy)) {
			break
		}
	}
	slices.SortStableFunc(out, func(a, b tcAct) int { return cmp.Compare(b.key, a.key) })
	return out
}

// tcOrder is a move's ordering key: the value of what it takes (a capture's
// victim, an Assassin's target), less a tenth of the mover.
func tcOrder(p *chess.Position, m teamchess.Move) int {
	k := 0
	if p.IsCapture(m.Board) {
		if v := p.PieceAt(m.Board.To()); v != chess.NoPiece {
			k += chessValue[v.Role()]
		} else {
			k += chessValue[chess.Pawn] // en passant
		}
	}
	if t, ok := m.Target(); ok {
		k += chessValue[p.PieceAt(t).Role()]
	}
	if k > 0 {
		k -= chessValue[p.PieceAt(m.Board.From()).Role()] / 10
	}
	return k
}

// tcTerminal scores a finished game for White, ply plies from the root.
func tcTerminal(g *teamchess.Game, ply int) int {
	r := g.Result()
	if !r.HasWinner() {
		return 0 // a mutual loss
	}
	v := Mate - ply
	switch r.Category {
	case teamchess.HonourableCheckmate:
	case teamchess.DishonourableCheckmate:
		v -= tcDishonourPenalty
	default:
		v -= tcSiegePenalty
	}
	if r.Winner == chess.Black {
		v = -v
	}
	return v
}

// tcEvaluate is the static evaluation of an unfinished game, for White:
// material and piece squares (the chess evaluation) less the stagnation
// each side has run up towards fatigue.
func tcEvaluate(g *teamchess.Game) int {
	pos := g.Position()
	v := evalChess(&pos)
	if pos.Turn() == chess.Black {
		v = -v
	}
	v -= tcStagnationPenalty * g.Stagnation(chess.White) * g.Stagnation(chess.White)
	v += tcStagnationPenalty * g.Stagnation(chess.Black) * g.Stagnation(chess.Black)
	return v
}

// search is a fail-hard minimax alpha-beta with White maximising; it
// returns a White score.
func (s *tcSearch) search(g *teamchess.Game, depth, alpha, beta, ply int) int {
	s.nodes++
	if g.Phase() == teamchess.Finished {
		return tcTerminal(g, ply)
	}
	if s.limit > 0 && s.nodes >= s.limit && (s.iter > s.minDepth || s.nodes >= minDepthNodes*s.limit) {
		s.stopped = true
	}
	if s.nodes&63 == 0 {
		s.poll()
	}
	if depth <= 0 && s.extend && ply < 2*s.iter {
		// Check extension: a side in check at the horizon gets one more
		// ply (its replies are few), within twice the iteration's depth.
		if pos := g.Position(); pos.InCheck() {
			depth++
		}
	}
	if depth <= 0 || s.stopped || ply >= MaxPly-1 {
		return tcEvaluate(g)
	}
	acts := s.actions(g, ply)
	if s.stopped {
		return tcEvaluate(g) // an unfinished list: the score is not used
	}
	white := g.Turn() == chess.White
	best := -Infinity
	if !white {
		best = Infinity
	}
	for _, a := range acts {
		c := s.child(g, a, ply+1)
		sc := s.search(c, depth-1, alpha, beta, ply+1)
		if white {
			if sc > best {
				best = sc
			}
			if sc > alpha {
				alpha = sc
			}
		} else {
			if sc < best {
				best = sc
			}
			if sc < beta {
				beta = sc
			}
		}
		if alpha >= beta {
			break
		}
	}
	return best
}
