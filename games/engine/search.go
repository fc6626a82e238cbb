package engine

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"sandtable/games/chess"
)

// MaxPly is the deepest ply a search reaches, quiescence included.
const MaxPly = 100

// MaxDepth is the deepest iteration of iterative deepening.
const MaxDepth = 64

// maxQuiescence caps the forced-capture chains the quiescence search
// follows (plies below the main search's horizon).
const maxQuiescence = 8

// Limits bound one search. Depth and Nodes are the budgets that make a
// search reproducible; Time only caps it.
type Limits struct {
	// Depth is the deepest iteration (plies); 0 means MaxDepth.
	Depth int
	// Nodes stops the search once this many nodes were visited; 0 means
	// no limit. The move is the last completed iteration's.
	Nodes uint64
	// MinDepth: Soft does not stop the iterations up to MinDepth, nor
	// does the node budget before minDepthNodes times Nodes (Time and the
	// context still do), so a level completes at least that depth
	// wherever its budget would run out first, short of a huge position.
	MinDepth int
	// Time caps the search's wall-clock time (the hard cap); 0 means no
	// cap. A search stopped by it plays the best move of its last
	// completed iteration, or a move of the unfinished one that was
	// searched completely and beat it (Margin 0 only).
	Time time.Duration
	// Soft is time management's target: no new iteration starts once
	// Soft has elapsed (ClockLimits); 0 means none.
	Soft time.Duration
	// Margin, in centipawns: the move is chosen at random (from Seed)
	// among the root moves scoring within Margin of the best. 0 chooses
	// among equal best moves only.
	Margin int
	// Seed drives that choice; with the position's hash it makes the
	// choice reproducible.
	Seed uint64
	// KeepTable keeps the transposition table of the searcher's earlier
	// searches (aged: their entries are replaced first) instead of
	// clearing it: stronger for a search bound by time, which is not
	// reproducible anyway, while a budget-bound search clears it.
	KeepTable bool
}

// ClockLimits is time management for a clock: the soft target and hard
// cap (Limits.Soft, Limits.Time) of a move with left on the clock, inc
// added per move and movesToGo moves to the next time control (0:
// unknown, taken as 30). The move's share is left/movesToGo plus three
// quarters of the increment; the search starts no iteration past half of
// it, and never runs past three shares, half of what is left, or what is
// left less 50 ms of overhead (at least 10 ms).
func ClockLimits(left, inc time.Duration, movesToGo int) (soft, hard time.Duration) {
	if movesToGo <= 0 {
		movesToGo = 30
	}
	left = max(left, 0)
	share := left/time.Duration(movesToGo) + inc*3/4
	hard = min(3*share, left/2, left-50*time.Millisecond)
	hard = max(hard, 10*time.Millisecond)
	soft = min(share/2, hard)
	return soft, hard
}

// Info reports one completed iteration (or the final result).
type Info struct {
	Depth int
	// Score is from the side to move's point of view, in centipawns; a
	// score above MateBound (below -MateBound) is a forced win (loss).
	Score int
	Nodes uint64
	Time  time.Duration
	PV    []chess.Move
}

// MateIn returns the moves (not plies) to the forced win (positive) or
// loss (negative) the score announces, and false for an ordinary score.
func (i Info) MateIn() (int, bool) {
	switch {
	case i.Score > MateBound:
		return (Mate - i.Score + 1) / 2, true
	case i.Score < -MateBound:
		return -(Mate + i.Score + 1) / 2, true
	}
	return 0, false
}

// Result is a search's answer.
type Result struct {
	// Move is the chosen move, chess.NullMove only when the position has
	// no legal move (or is over).
	Move chess.Move
	Info
}

// Searcher searches positions of games/chess. It is not safe for
// concurrent use except for Stop, which any goroutine may call.
type Searcher struct {
	tt      *table
	killers [MaxPly][2]chess.Move
	history [2][64][64]int32

	// OnInfo, when set, is called after each completed iteration.
	OnInfo func(Info)
	// Clock, when set, replaces time.Now for the time caps (tests drive
	// time management with it).
	Clock func() time.Time

	stopFlag atomic.Bool
	done     <-chan struct{} // the search's context's; nil: none
	limits   Limits
	start    time.Time
	deadline time.Time // from Limits.Time and the context; zero: none
	nodes    uint64
	depth    int // the iteration running
	aborted  bool

	// keys holds the hashes of the game's positions before the root
	// (history) followed by those of the search path; keys[rootIndex+ply]
	// is the position at ply.
	keys      []uint64
	rootIndex int
	// nullAt[ply] says the move into ply was a null move.
	nullAt [MaxPly + 1]bool

	moves  [MaxPly][256]chess.Move
	scores [MaxPly][256]int
}

// NewSearcher returns a searcher with a transposition table of 2^bits
// entries of 16 bytes (bits from 10 to 26).
func NewSearcher(bits int) *Searcher {
	bits = min(max(bits, 10), 26)
	return &Searcher{tt: newTable(bits)}
}

// Stop asks a running search to finish as soon as possible; the search
// returns the best move of its last completed iteration. The request
// lasts until the next Search starts, so a Stop sent just before a Search
// begins is lost: a caller that may stop at any moment uses SearchContext
// and cancels its context instead.
func (s *Searcher) Stop() { s.stopFlag.Store(true) }

// Nodes returns the number of nodes the current or last search visited.
func (s *Searcher) Nodes() uint64 { return s.nodes }

// Search searches pos within lim and returns the move to play. history
// holds the Zobrist hashes (chess.Position.Hash) of the game's earlier
// positions, oldest first, for repetition draws; it may be nil.
func (s *Searcher) Search(pos chess.Position, history []uint64, lim Limits) Result {
	return s.SearchContext(context.Background(), pos, history, lim)
}

// SearchContext is Search with a context: its cancellation stops the
// search as Stop does, and its deadline caps the time as Limits.Time does
// (the earlier of the two applies). A search cancelled before its first
// iteration completed returns the best-ordered legal move (Depth 0), so
// the move is legal whenever the position has one. Stop still works
// during the search.
func (s *Searcher) SearchContext(ctx context.Context, pos chess.Position, history []uint64, lim Limits) Result {
	s.start = s.now()
	s.limits = lim
	s.nodes = 0
	s.depth = 0
	s.aborted = false
	s.stopFlag.Store(false)
	s.done = ctx.Done()
	defer func() { s.done = nil }()
	s.deadline = time.Time{}
	if lim.Time > 0 {
		s.deadline = s.start.Add(lim.Time)
	}
	if dl, ok := ctx.Deadline(); ok && (s.deadline.IsZero() || dl.Before(s.deadline)) {
		s.deadline = dl
	}
	if lim.KeepTable {
		s.tt.newSearch()
	} else {
		s.tt.clear()
	}
	s.killers = [MaxPly][2]chess.Move{}
	s.history = [2][64][64]int32{}
	s.keys = append(s.keys[:0], history...)
	s.rootIndex = len(s.keys)
	s.keys = append(s.keys, pos.Hash())

	maxDepth := lim.Depth
	if maxDepth <= 0 || maxDepth > MaxDepth {
		maxDepth = MaxDepth
	}
	if pos.Status().Over() {
		return Result{Info: Info{Time: s.elapsed()}}
	}
	root := pos.AppendLegalMoves(make([]chess.Move, 0, 64))
	if len(root) == 0 {
		return Result{Info: Info{Time: s.elapsed()}}
	}
	rng := newRNG(lim.Seed ^ pos.Hash())
	// The root moves in generation order, ordered once by the usual
	// scores (the kept table's move first); each iteration then puts the
	// previous best first.
	scores := make([]int, len(root))
	ttMove := chess.NullMove
	if e, ok := s.tt.probe(pos.Hash()); ok {
		ttMove = e.move
	}
	s.scoreMoves(&pos, root, scores, ttMove, 0)
	sortMoves(root, scores)

	res := Result{Move: root[0]}
	exact := make([]bool, len(root))
	partial := false
	for depth := 1; depth <= maxDepth; depth++ {
		if depth > 1 && ctx.Err() != nil {
			break
		}
		if depth > max(lim.MinDepth, 1) && lim.Soft > 0 && s.elapsed() >= lim.Soft {
			break
		}
		s.depth = depth
		// Aspiration: from depth 4, a window around the last score,
		// widened on a fail (the moves' exact scores a Margin needs come
		// only from an open window).
		alpha, beta, delta := -Infinity, Infinity, aspirationDelta
		if depth >= 4 && lim.Margin == 0 && res.Score > -MateBound && res.Score < MateBound {
			alpha, beta = max(res.Score-delta, -Infinity), min(res.Score+delta, Infinity)
		}
		var best, score int
		var done, failedHigh bool
		for {
			best, score, done = s.searchRoot(&pos, root, scores, exact, depth, lim.Margin, alpha, beta)
			if !done {
				break
			}
			delta *= 3
			switch {
			case score <= alpha:
				alpha = max(alpha-delta, -Infinity)
				if delta > 1000 {
					alpha = -Infinity
				}
				continue
			case score >= beta:
				beta = min(beta+delta, Infinity)
				if delta > 1000 {
					beta = Infinity
				}
				toFront(root, scores, exact, best)
				failedHigh = true
				continue
			}
			break
		}
		if !done {
			// A move of the unfinished iteration searched completely
			// that beat the first one (the last iteration's best) is
			// better at this depth.
			// So is one that failed high (moved to the front).
			if lim.Margin == 0 && (best > 0 || failedHigh) {
				best = max(best, 0)
				res.Move, res.Score, res.PV = root[best], max(score, scores[best]), s.pv(pos, root[best])
				partial = true
			}
			break
		}
		res.Move = root[best]
		res.Depth = depth
		res.Score = scores[best]
		res.Nodes = s.nodes
		res.Time = s.elapsed()
		res.PV = s.pv(pos, root[best])
		if s.OnInfo != nil {
			s.OnInfo(res.Info)
		}
		// Put the best move first for the next iteration, keeping the
		// others' relative order (stable, so reproducible).
		toFront(root, scores, exact, best)
		if len(root) == 1 || res.Score > MateBound || res.Score < -MateBound {
			break // forced, or the result is known
		}
	}
	if res.Depth > 0 && !partial {
		// The seeded choice among the moves with an exact score within
		// Margin of the best.
		var cands []int
		for i := range root {
			if exact[i] && scores[i] >= res.Score-lim.Margin {
				cands = append(cands, i)
			}
		}
		if len(cands) > 1 {
			i := cands[rng.intn(len(cands))]
			res.Move, res.Score, res.PV = root[i], scores[i], s.pv(pos, root[i])
		}
	}
	res.Nodes = s.nodes
	res.Time = s.elapsed()
	return res
}

// minDepthNodes: the node budget stops an iteration up to
// Limits.MinDepth once minDepthNodes times the budget was spent.
const minDepthNodes = 8

// aspirationDelta is the first half-width of the aspiration window.
const aspirationDelta = 30

func (s *Searcher) now() time.Time {
	if s.Clock != nil {
		return s.Clock()
	}
	return time.Now()
}

func (s *Searcher) elapsed() time.Duration { return s.now().Sub(s.start) }

// toFront moves root move i to the front, keeping the others' order.
func toFront(root []chess.Move, scores []int, exact []bool, i int) {
	mv, sc, ex := root[i], scores[i], exact[i]
	copy(root[1:i+1], root[:i])
	copy(scores[1:i+1], scores[:i])
	copy(exact[1:i+1], exact[:i])
	root[0], scores[0], exact[0] = mv, sc, ex
}

// searchRoot runs one iteration over the root moves, in order, within
// the window (alpha, beta): principal variation search, the first move
// with the window, the others with a null window first. It returns the
// index of the best move, its score and whether the iteration completed
// (it stops at a fail high; a stopped one returns the best move searched
// completely). On completion without a fail it stores the scores, and in
// exact which of them are exact: moves scoring within margin of the best
// so far are searched with an open window so that their scores are exact;
// the others only get an upper bound.
func (s *Searcher) searchRoot(pos *chess.Position, root []chess.Move, scores []int, exact []bool, depth, margin, alpha, beta int) (int, int, bool) {
	best := -1
	bestScore := -Infinity
	newScores := make([]int, len(root))
	newExact := make([]bool, len(root))
	for i, m := range root {
		child := pos.PlayUnchecked(m)
		s.keys = append(s.keys[:s.rootIndex+1], child.Hash())
		s.nullAt[1] = false
		var score int
		if best < 0 {
			score = -s.negamax(&child, depth-1, -beta, -alpha, 1)
			newExact[i] = score > alpha && score < beta
		} else {
			lower := max(bestScore-margin-1, alpha)
			score = -s.negamax(&child, depth-1, -lower-1, -lower, 1)
			if score > lower && !s.aborted {
				score = -s.negamax(&child, depth-1, -beta, -lower, 1)
				newExact[i] = score > lower && score < beta
			}
		}
		if s.aborted {
			return best, bestScore, false
		}
		newScores[i] = score
		if score > bestScore {
			bestScore, best = score, i
			if score >= beta {
				return best, bestScore, true
			}
		}
	}
	if bestScore > alpha {
		copy(scores, newScores)
		copy(exact, newExact)
	}
	return best, bestScore, true
}

// checkLimits sets s.aborted when a budget is spent or Stop was called.
func (s *Searcher) checkLimits() bool {
	if s.aborted {
		return true
	}
	if s.limits.Nodes > 0 && s.nodes >= s.limits.Nodes && (s.depth > s.limits.MinDepth || s.nodes >= minDepthNodes*s.limits.Nodes) {
		s.aborted = true
	} else if s.nodes&1023 == 0 {
		if s.stopFlag.Load() || (!s.deadline.IsZero() && !s.now().Before(s.deadline)) {
			s.aborted = true
		}
		if s.done != nil {
			select {
			case <-s.done:
				s.aborted = true
			default:
			}
		}
	}
	return s.aborted
}

// repeated reports whether the position at ply repeats an earlier one
// since the last capture or pawn move (a draw in the search).
func (s *Searcher) repeated(p *chess.Position, ply int) bool {
	i := s.rootIndex + ply
	key := s.keys[i]
	for j, n := i-2, 0; j >= 0 && n+2 <= p.HalfmoveClock(); j, n = j-2, n+2 {
		if s.keys[j] == key {
			return true
		}
	}
	return false
}

// terminal returns the score of a position whose game is over by the
// board alone (elimination, dead position, the 50-move rule, a
// repetition), and ok false otherwise. Positions without a legal move
// are found by the caller, which generates the moves anyway.
func (s *Searcher) terminal(p *chess.Position, ply int) (int, bool) {
	if p.Occupied(p.Turn()) == 0 {
		return -Mate + ply, true // Survival: eliminated
	}
	if p.HalfmoveClock() >= 100 || s.repeated(p, ply) {
		return 0, true
	}
	if p.IsDeadSurvival() || (p.Variant() == chess.Chess && p.InsufficientMaterial()) {
		return 0, true
	}
	return 0, false
}

// noMoves scores a position without a legal move: checkmate loses,
// stalemate draws.
func noMoves(p *chess.Position, ply int) int {
	if p.InCheck() {
		return -Mate + ply
	}
	return 0
}

// nullMoveAllowed reports whether null-move pruning may be tried in p:
// only in standard chess (see the package doc for why not in Survival),
// not in check, and only for a side with a piece besides its pawns and
// king (with pawns alone zugzwang is common).
func nullMoveAllowed(p *chess.Position) bool {
	if p.Variant() != chess.Chess || p.InCheck() {
		return false
	}
	us := p.Turn()
	return p.Occupied(us)&^(p.Pieces(us, chess.Pawn)|p.Pieces(us, chess.King)) != 0
}

// lmrTable[d][i] is the late move reduction of the i-th move at depth d.
var lmrTable = func() (t [64][64]int8) {
	for d := 1; d < 64; d++ {
		for i := 1; i < 64; i++ {
			t[d][i] = int8(0.5 + math.Log(float64(d))*math.Log(float64(i))/2.5)
		}
	}
	return
}()

// historyMax bounds the history scores (below the killers' order).
const historyMax = 1 << 14

// updateHistory adds bonus (negative: a malus) to a quiet move's history
// score, with the usual gravity: the score moves towards ±historyMax.
func (s *Searcher) updateHistory(us chess.Color, m chess.Move, bonus int) {
	h := &s.history[us][m.From()][m.To()]
	v := int(*h)
	v += bonus - v*abs(bonus)/historyMax
	*h = int32(v)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (s *Searcher) negamax(p *chess.Position, depth, alpha, beta, ply int) int {
	s.nodes++
	if s.checkLimits() {
		return 0
	}
	if score, ok := s.terminal(p, ply); ok {
		return score
	}
	if ply >= MaxPly-maxQuiescence-2 {
		return evaluate(p)
	}
	inCheck := p.InCheck()
	if inCheck {
		depth++ // check extension
	}
	if depth <= 0 {
		return s.quiesce(p, alpha, beta, ply, 0)
	}
	pvNode := beta-alpha > 1
	key := p.Hash()
	ttMove := chess.NullMove
	if e, ok := s.tt.probe(key); ok {
		ttMove = e.move
		if !pvNode && int(e.depth) >= depth {
			sc := scoreFromTT(int(e.score), ply)
			switch b := e.bound(); {
			case b == boundExact,
				b == boundLower && sc >= beta,
				b == boundUpper && sc <= alpha:
				return sc
			}
		}
	}
	// Null-move pruning: if passing still fails high at a reduced depth,
	// so will the best move.
	if !pvNode && depth >= 3 && !s.nullAt[ply] && beta < MateBound && beta > -MateBound &&
		nullMoveAllowed(p) && evaluate(p) >= beta {
		r := 3 + depth/6
		child := p.PlayNull()
		s.keys = append(s.keys[:s.rootIndex+ply+1], child.Hash())
		s.nullAt[ply+1] = true
		score := -s.negamax(&child, depth-1-r, -beta, -beta+1, ply+1)
		s.nullAt[ply+1] = false
		if s.aborted {
			return 0
		}
		if score >= beta {
			return beta
		}
	}
	moves := p.AppendLegalMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		return noMoves(p, ply)
	}
	if len(moves) == 1 && ply < 2*MaxDepth/3 {
		depth++ // a forced move (a lone forced capture) costs no depth
	}
	scores := s.scores[ply][:len(moves)]
	s.scoreMoves(p, moves, scores, ttMove, ply)

	origAlpha := alpha
	best := -Infinity
	bestMove := chess.NullMove
	us := p.Turn()
	var quiets [64]chess.Move
	nQuiets := 0
	for i := range moves {
		pickNext(moves, scores, i)
		m := moves[i]
		quiet := !p.IsCapture(m) && !m.IsPromotion()
		child := p.PlayUnchecked(m)
		s.keys = append(s.keys[:s.rootIndex+ply+1], child.Hash())
		var score int
		if i == 0 {
			score = -s.negamax(&child, depth-1, -beta, -alpha, ply+1)
		} else {
			// Late move reductions: quiet moves late in the order, not
			// killers, not in check and not giving check.
			r := 0
			if quiet && depth >= 3 && i >= 2 && !inCheck && scores[i] < orderKiller2 && !child.InCheck() {
				r = int(lmrTable[min(depth, 63)][min(i, 63)])
				if pvNode {
					r--
				}
				r = min(max(r, 0), depth-2)
			}
			score = -s.negamax(&child, depth-1-r, -alpha-1, -alpha, ply+1)
			if score > alpha && r > 0 && !s.aborted {
				score = -s.negamax(&child, depth-1, -alpha-1, -alpha, ply+1)
			}
			if score > alpha && score < beta && !s.aborted {
				score = -s.negamax(&child, depth-1, -beta, -alpha, ply+1)
			}
		}
		if s.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				if alpha >= beta {
					if quiet {
						if s.killers[ply][0] != m {
							s.killers[ply][1] = s.killers[ply][0]
							s.killers[ply][0] = m
						}
						bonus := min(depth*depth, 400)
						s.updateHistory(us, m, bonus)
						for _, q := range quiets[:nQuiets] {
							s.updateHistory(us, q, -bonus)
						}
					}
					break
				}
			}
		}
		if quiet && nQuiets < len(quiets) {
			quiets[nQuiets] = m
			nQuiets++
		}
	}
	b := boundExact
	switch {
	case best >= beta:
		b = boundLower
	case best <= origAlpha:
		b = boundUpper
	}
	s.tt.store(key, bestMove, best, depth, ply, b)
	return best
}

// Quiescence bounds in Survival Chess: the forced-capture chains are
// searched whole for qFullWidth plies, then only their qWidth best-ordered
// captures (the table's move, MVV-LVA), to maxQuiescence plies, since a
// chain's width multiplies; and a side without a capture tries only its
// queen promotions, and only in the first qPromote plies (from the Tartan
// Grid's start, where every move is one of 20 promotions and each new
// piece starts a chain, all promotions at every ply cost 30,000 nodes a
// depth-1 search, these bounds 900).
const (
	qFullWidth = 2
	qWidth     = 3
	qPromote   = 2
)

// quiesce searches captures only, until the position is quiet. In
// Survival Chess a side with a capture must capture, so there is no
// "stand pat" then: the captures are searched (the forced-capture chain,
// bounded by qFullWidth and qWidth), until qdepth reaches maxQuiescence.
// In chess the side to move may stand pat on the static evaluation
// unless in check.
func (s *Searcher) quiesce(p *chess.Position, alpha, beta, ply, qdepth int) int {
	s.nodes++
	if s.checkLimits() {
		return 0
	}
	if score, ok := s.terminal(p, ply); ok {
		return score
	}
	if ply >= MaxPly-1 || qdepth >= maxQuiescence {
		return evaluate(p)
	}
	key := p.Hash()
	ttMove := chess.NullMove
	if e, ok := s.tt.probe(key); ok {
		ttMove = e.move
		sc := scoreFromTT(int(e.score), ply)
		switch b := e.bound(); {
		case b == boundExact,
			b == boundLower && sc >= beta,
			b == boundUpper && sc <= alpha:
			return sc
		}
	}
	moves := p.AppendLegalMoves(s.moves[ply][:0])
	if len(moves) == 0 {
		return noMoves(p, ply)
	}
	survival := p.Variant() == chess.Survival
	inCheck := p.InCheck()
	forced := inCheck || (survival && p.IsCapture(moves[0]))
	best := -Infinity
	if !forced {
		best = evaluate(p)
		if best >= beta {
			return best
		}
		alpha = max(alpha, best)
		// Keep the captures and promotions only.
		n := 0
		for _, m := range moves {
			if p.IsCapture(m) || m.Promoted() == chess.Queen || survival && m.IsPromotion() && qdepth < qPromote {
				moves[n] = m
				n++
			}
		}
		moves = moves[:n]
	}
	limit := len(moves)
	if survival && forced && qdepth >= qFullWidth {
		limit = min(limit, qWidth)
	}
	origAlpha := alpha
	scores := s.scores[ply][:len(moves)]
	s.scoreMoves(p, moves, scores, ttMove, MaxPly)
	bestMove := chess.NullMove
	for i := range limit {
		pickNext(moves, scores, i)
		m := moves[i]
		child := p.PlayUnchecked(m)
		s.keys = append(s.keys[:s.rootIndex+ply+1], child.Hash())
		score := -s.quiesce(&child, -beta, -alpha, ply+1, qdepth+1)
		if s.aborted {
			return 0
		}
		if score > best {
			best, bestMove = score, m
			if score > alpha {
				alpha = score
				if alpha >= beta {
					break
				}
			}
		}
	}
	if forced || bestMove != chess.NullMove {
		b := boundExact
		switch {
		case best >= beta:
			b = boundLower
		case best <= origAlpha:
			b = boundUpper
		}
		s.tt.store(key, bestMove, best, 0, ply, b)
	}
	return best
}

// pv returns the principal variation: first, then the table's moves as
// long as they are legal (no repetition).
func (s *Searcher) pv(pos chess.Position, first chess.Move) []chess.Move {
	pv := []chess.Move{first}
	p := pos.PlayUnchecked(first)
	seen := map[uint64]bool{pos.Hash(): true}
	for len(pv) < MaxPly && !seen[p.Hash()] {
		seen[p.Hash()] = true
		e, ok := s.tt.probe(p.Hash())
		if !ok || e.move == chess.NullMove || !p.IsLegal(e.move) {
			break
		}
		pv = append(pv, e.move)
		p = p.PlayUnchecked(e.move)
	}
	return pv
}

// sortMoves orders moves by descending score, stably, in O(n log n).
func sortMoves(moves []chess.Move, scores []int) {
	type scored struct {
		m chess.Move
		s int
	}
	l := make([]scored, len(moves))
	for i := range moves {
		l[i] = scored{moves[i], scores[i]}
	}
	slices.SortStableFunc(l, func(a, b scored) int { return cmp.Compare(b.s, a.s) })
	for i := range l {
		moves[i], scores[i] = l[i].m, l[i].s
	}
}

// rng is splitmix64: tiny, and the same sequence on every platform.
type rng struct{ s uint64 }

func newRNG(seed uint64) *rng { return &rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }
