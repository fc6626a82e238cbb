package engine

import (
	"testing"
	"time"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
)

// TestChessMateInTwoAtItsDepth: the two-rook ladder mates in two moves
// (three plies): a depth-3 search finds the mate and its PV mates; a
// depth-2 search cannot see it.
func TestChessMateInTwoAtItsDepth(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Chess, "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1")
	r := NewSearcher(14).Search(p, nil, Limits{Depth: 3})
	if n, ok := r.MateIn(); !ok || n != 2 {
		t.Fatalf("depth 3: score %d (mate %d %v), PV %v; want mate in 2", r.Score, n, ok, r.PV)
	}
	q := playPV(t, p, r.PV)
	if st := q.Status(); st.Result != chess.WhiteWins {
		t.Fatalf("after PV %v: %v, want White's checkmate", r.PV, st)
	}
	if r2 := NewSearcher(14).Search(p, nil, Limits{Depth: 2}); r2.Score > MateBound {
		t.Fatalf("depth 2 announced a mate (%d): the mate is 3 plies deep", r2.Score)
	}
}

// refSearch is plain alpha-beta (no table cut-offs, no null move, no
// reductions, no aspiration, generation order) with the engine's
// extensions and quiescence: the reference the full search must agree
// with at a fixed depth.
func (s *Searcher) refSearch(p *chess.Position, depth, alpha, beta, ply int) int {
	if score, ok := s.terminal(p, ply); ok {
		return score
	}
	if p.InCheck() {
		depth++
	}
	if depth <= 0 {
		return s.quiesce(p, alpha, beta, ply, 0)
	}
	moves := p.AppendLegalMoves(nil)
	if len(moves) == 0 {
		return noMoves(p, ply)
	}
	if len(moves) == 1 && ply < 2*MaxDepth/3 {
		depth++
	}
	best := -Infinity
	for _, m := range moves {
		c := p.PlayUnchecked(m)
		s.keys = append(s.keys[:s.rootIndex+ply+1], c.Hash())
		sc := -s.refSearch(&c, depth-1, -beta, -alpha, ply+1)
		best = max(best, sc)
		alpha = max(alpha, sc)
		if alpha >= beta {
			break
		}
	}
	return best
}

// refRootScores returns every root move's exact score by refSearch.
func refRootScores(p chess.Position, depth int) map[chess.Move]int {
	s := NewSearcher(16)
	s.keys = []uint64{p.Hash()}
	out := map[chess.Move]int{}
	for _, m := range p.LegalMoves() {
		c := p.PlayUnchecked(m)
		s.keys = append(s.keys[:1], c.Hash())
		out[m] = -s.refSearch(&c, depth-1, -Infinity, Infinity, 1)
	}
	return out
}

// TestSearchAgreesWithPlainAlphaBeta: on tactical positions of both
// variants, the search with principal variation search, null-move
// pruning, late move reductions, aspiration windows and the table
// chooses, at a fixed depth, a move that plain alpha-beta scores as the
// best.
func TestSearchAgreesWithPlainAlphaBeta(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v     chess.Variant
		fen   string
		depth int
	}{
		{chess.Chess, "2q1k3/8/8/1N6/8/8/8/4K3 w - - 0 1", 4},                                   // Nd6+ forks king and queen
		{chess.Chess, "6k1/8/8/8/8/8/R7/1R4K1 w - - 0 1", 4},                                    // mate in 2
		{chess.Chess, "6k1/8/4K3/8/8/8/8/R7 w - - 0 1", 5},                                      // mate in 3, quiet moves first
		{chess.Chess, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3}, // Qxf7#
		{chess.Chess, "4k3/8/8/8/3q4/8/8/3RK3 w - - 0 1", 5},                                    // Rxd4
		{chess.Chess, "r3k2r/ppp2ppp/2n5/3qp3/3P4/2P2N2/PP3PPP/R2QK2R b KQkq - 0 10", 3},        // exd4 wins a pawn
		{chess.Survival, "8/8/8/4k3/8/2P5/8/3R4 w - - 0 1", 4},                                  // a forced win in 2
		{chess.Survival, "8/7p/4p3/3n4/8/1p6/P7/3Q4 w - - 0 1", 4},                              // Qxd5 loses the queen
		{chess.Survival, "3Q4/1p1p3p/pP3pP1/3p4/1P1P2p1/p1p1p1P1/2P1P2P/2q1k3 w - - 0 12", 3},
	}
	for _, c := range cases {
		p := mustFEN(t, c.v, c.fen)
		ref := refRootScores(p, c.depth)
		bestRef := -Infinity
		for _, sc := range ref {
			bestRef = max(bestRef, sc)
		}
		r := NewSearcher(16).Search(p, nil, Limits{Depth: c.depth})
		if got := ref[r.Move]; got != bestRef {
			t.Errorf("%s at depth %d: the search played %s, which plain alpha-beta scores %d against the best %d (%v)",
				c.fen, c.depth, r.Move, got, bestRef, ref)
		}
	}
}

// TestTableBucketReplacement: a bucket's four entries; a fifth position
// replaces the shallowest, a position's own shallower bound does not
// replace its deeper entry (an exact score does), and after a new search
// starts the old entries go first, deepest last.
func TestTableBucketReplacement(t *testing.T) {
	t.Parallel()
	tt := newTable(10)
	key := func(i uint64) uint64 { return i<<32 | 5 } // one bucket
	for i, d := range []int{5, 1, 7, 3} {
		tt.store(key(uint64(i)), chess.NullMove, 10*d, d, 0, boundLower)
	}
	tt.store(key(4), chess.NullMove, 20, 2, 0, boundLower)
	depthOf := func(k uint64) int {
		e, ok := tt.probe(k)
		if !ok {
			return -1
		}
		return int(e.depth)
	}
	if got := []int{depthOf(key(0)), depthOf(key(1)), depthOf(key(2)), depthOf(key(3)), depthOf(key(4))}; got[1] != -1 || got[0] != 5 || got[2] != 7 || got[3] != 3 || got[4] != 2 {
		t.Fatalf("depths after a fifth store %v: want the depth-1 entry replaced", got)
	}
	tt.store(key(2), chess.NullMove, 0, 1, 0, boundUpper)
	if depthOf(key(2)) != 7 {
		t.Fatalf("a shallower bound replaced the depth-7 entry (now %d)", depthOf(key(2)))
	}
	tt.store(key(3), chess.NullMove, 0, 1, 0, boundExact)
	if depthOf(key(3)) != 1 {
		t.Fatalf("an exact score did not replace its position's entry (depth %d)", depthOf(key(3)))
	}
	tt.newSearch()
	for i := uint64(10); i < 13; i++ {
		tt.store(key(i), chess.NullMove, 0, 1, 0, boundExact)
	}
	if depthOf(key(2)) != 7 || depthOf(key(0)) != -1 || depthOf(key(3)) != -1 || depthOf(key(4)) != -1 {
		t.Fatalf("after a new search: the old entries of depth 1, 2, 5 go first, 7 stays: depths %d %d %d %d",
			depthOf(key(3)), depthOf(key(4)), depthOf(key(0)), depthOf(key(2)))
	}
	tt.store(key(13), chess.NullMove, 0, 1, 0, boundExact)
	if depthOf(key(2)) != -1 || depthOf(key(10)) != 1 {
		t.Fatal("the last old entry was kept instead of being replaced")
	}
}

// nodeClock makes s's clock advance one microsecond a node: a search
// "takes" exactly as long as its node count says, on any machine.
func nodeClock(s *Searcher) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.Clock = func() time.Time { return base.Add(time.Duration(s.nodes) * time.Microsecond) }
}

// checkInterval is how long (on nodeClock) a search may run past a
// deadline: the time is read every 1024 nodes.
const checkInterval = 1024 * time.Microsecond

func TestClockLimits(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, left := range []time.Duration{0, 5 * ms, 80 * ms, 300 * ms, time.Second, 10 * time.Second, time.Hour} {
		for _, inc := range []time.Duration{0, 10 * ms, 2 * time.Second} {
			for _, mtg := range []int{0, 1, 5, 40} {
				soft, hard := ClockLimits(left, inc, mtg)
				if soft > hard || soft < 0 || hard < 10*ms {
					t.Errorf("ClockLimits(%v, %v, %d) = %v, %v", left, inc, mtg, soft, hard)
				}
				if left >= 20*ms && hard > left/2 {
					t.Errorf("ClockLimits(%v, %v, %d): hard cap %v above half the clock", left, inc, mtg, hard)
				}
				if left >= 110*ms && hard > left-50*ms {
					t.Errorf("ClockLimits(%v, %v, %d): hard cap %v leaves no overhead", left, inc, mtg, hard)
				}
			}
		}
	}
	if s1, _ := ClockLimits(time.Minute, 0, 0); s1 < time.Second/2 {
		t.Errorf("a minute's soft target %v is too small", s1)
	}
	if a, _ := ClockLimits(time.Minute, 0, 0); func() bool { b, _ := ClockLimits(time.Minute, time.Second, 0); return b <= a }() {
		t.Error("an increment adds nothing to the soft target")
	}
}

// TestTimeManagementHardCap: under the clock's limits the search never
// runs past the hard cap (by more than one time check), starts no
// iteration past the soft target, and uses at least the soft target.
func TestTimeManagementHardCap(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v   chess.Variant
		fen string
	}{
		{chess.Chess, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"},
		{chess.Survival, "3Q4/1p1p3p/pP3pP1/3p4/1P1P2p1/p1p1p1P1/2P1P2P/2q1k3 w - - 0 12"},
		{chess.Survival, chess.TartanFEN},
	} {
		soft, hard := ClockLimits(time.Second, 10*time.Millisecond, 0)
		s := NewSearcher(18)
		nodeClock(s)
		var starts []time.Duration // when each iteration after the first started
		last := time.Duration(0)
		s.OnInfo = func(in Info) { starts = append(starts, last); last = in.Time }
		strongest, _ := LevelByName("strongest")
		lim := strongest.Limits(1, hard)
		lim.Soft = soft
		r := s.Search(mustFEN(t, c.v, c.fen), nil, lim)
		if r.Time > hard+checkInterval {
			t.Errorf("%s: searched %v (%d nodes), past the hard cap %v", c.fen, r.Time, r.Nodes, hard)
		}
		if r.Time < soft {
			t.Errorf("%s: stopped at %v, before the soft target %v", c.fen, r.Time, soft)
		}
		for i, st := range starts {
			if i+1 > lim.MinDepth && st >= soft {
				t.Errorf("%s: iteration %d started at %v, past the soft target %v", c.fen, i+1, st, soft)
			}
		}
	}
}

// TestStrongestUsesItsTime: the top level has no node budget: given a
// time cap it searches until the cap (and not to a fixed node count),
// wherever it would have stopped at a million nodes before.
func TestStrongestUsesItsTime(t *testing.T) {
	t.Parallel()
	strongest, _ := LevelByName("strongest")
	for _, cap := range []time.Duration{30 * time.Millisecond, 90 * time.Millisecond} {
		s := NewSearcher(18)
		nodeClock(s)
		r := s.Search(mustFEN(t, chess.Chess, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"), nil, strongest.Limits(1, cap))
		if r.Time < cap || r.Time > cap+checkInterval {
			t.Errorf("cap %v: searched %v (%d nodes); want the whole cap", cap, r.Time, r.Nodes)
		}
	}
	if l := strongest.Limits(1, 0); l.Nodes == 0 {
		t.Error("without a time cap the top level must still stop (a node bound)")
	}
}

// TestLevelsCompleteDepthTwo: every level completes at least depth 2
// from each variant's start (beginner and easy once completed none from
// the Tartan Grid: their node budgets ran out in the first iteration),
// so their margins and seeds are used: beginner's moves spread over the
// seeds.
func TestLevelsCompleteDepthTwo(t *testing.T) {
	t.Parallel()
	for _, v := range []chess.Variant{chess.Survival, chess.Chess} {
		for _, l := range Levels {
			var r Result
			if l.Nodes == 0 {
				s := NewSearcher(l.TableBits)
				nodeClock(s)
				r = s.Search(chess.StartPosition(v), nil, l.Limits(1, 20*time.Millisecond))
			} else {
				r = (&SearchPlayer{Level: l, Seed: 1}).Choose(chess.StartPosition(v), nil, 0)
			}
			if r.Depth < 2 {
				t.Errorf("%v, %s: completed depth %d (%d nodes)", v, l.Name, r.Depth, r.Nodes)
			}
		}
		moves := map[chess.Move]bool{}
		for seed := range uint64(12) {
			moves[(&SearchPlayer{Level: Levels[0], Seed: seed}).Choose(chess.StartPosition(v), nil, 0).Move] = true
		}
		if len(moves) < 2 {
			t.Errorf("%v: beginner played %v with every seed", v, moves)
		}
	}
	for _, l := range Levels {
		g, err := teamchess.NewGame(teamchess.Setup{FEN: chess.StandardFEN,
			White: []teamchess.Member{{ID: "w"}}, Black: []teamchess.Member{{ID: "b"}}})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := NewTeamChessPlayer(l.Name, 1)
		if r := p.Choose(g, 0); r.Depth < 2 {
			t.Errorf("Team Chess, %s: completed depth %d (%d nodes)", l.Name, r.Depth, r.Nodes)
		}
	}
}

// TestNullMoveOnlyInChess: null-move pruning is tried in standard chess
// with pieces on the board, never in Survival Chess (passing is not
// legal, captures are mandatory, zugzwang is common), in check, or with
// only pawns and the king.
func TestNullMoveOnlyInChess(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    chess.Variant
		fen  string
		want bool
	}{
		{chess.Chess, chess.StandardFEN, true},
		{chess.Chess, "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", false},
		{chess.Chess, "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1", false}, // in check
		{chess.Survival, chess.TartanFEN, false},
		{chess.Survival, "3Q4/1p1p3p/pP3pP1/3p4/1P1P2p1/p1p1p1P1/2P1P2P/2q1k3 w - - 0 12", false},
	} {
		p := mustFEN(t, c.v, c.fen)
		if got := nullMoveAllowed(&p); got != c.want {
			t.Errorf("%v %s: null move allowed %v, want %v", c.v, c.fen, got, c.want)
		}
	}
}

// TestSurvivalQuiescenceBounded: from the Tartan Grid's start, where each
// of the 20 moves is a promotion that starts a chain of captures and
// promotions, a depth-1 search stays within a few thousand nodes (it took
// 31,845 with every promotion followed at every quiescence ply).
func TestSurvivalQuiescenceBounded(t *testing.T) {
	t.Parallel()
	r := NewSearcher(16).Search(chess.StartPosition(chess.Survival), nil, Limits{Depth: 1})
	if r.Depth != 1 || r.Nodes > 15_000 {
		t.Fatalf("depth-1 search from the Tartan Grid: depth %d, %d nodes", r.Depth, r.Nodes)
	}
}
