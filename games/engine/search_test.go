package engine

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"sandtable/games/chess"
	"sandtable/internal/testkit"
)

func mustFEN(t *testing.T, v chess.Variant, fen string) chess.Position {
	t.Helper()
	p, err := chess.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func hashOf(t *testing.T, v chess.Variant, fen string) uint64 {
	t.Helper()
	p := mustFEN(t, v, fen)
	return p.Hash()
}

// TestSurvivalEliminationInOne: capturing the last piece wins at once.
func TestSurvivalEliminationInOne(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Survival, "8/8/8/3p4/8/8/8/3Q3K w - - 0 1")
	r := NewSearcher(12).Search(p, nil, Limits{Depth: 4})
	if r.Move.UCI() != "d1d5" {
		t.Fatalf("move %s, want d1d5", r.Move)
	}
	if n, ok := r.MateIn(); !ok || n != 1 {
		t.Fatalf("score %d (mate %d %v), want a win in 1", r.Score, n, ok)
	}
}

// TestSurvivalForcedEliminationInTwo: no capture is available; Rd4 offers
// the lone king a forced capture that the c3 pawn answers, eliminating
// Black: a win in two moves (three plies), found through the mandatory
// capture of the reply.
func TestSurvivalForcedEliminationInTwo(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Survival, "8/8/8/4k3/8/2P5/8/3R4 w - - 0 1")
	r := NewSearcher(14).Search(p, nil, Limits{Depth: 6})
	if n, ok := r.MateIn(); !ok || n != 2 {
		t.Fatalf("score %d (mate %d %v) with %s, want a win in 2", r.Score, n, ok, r.PV)
	}
	// The win must really be forced: play the PV out.
	q := playPV(t, p, r.PV)
	if st := q.Status(); st.Result != chess.WhiteWins {
		t.Fatalf("after PV %v: %v", r.PV, st)
	}
}

// TestSurvivalQuiescenceSeesForcedRecapture: Qxd5 wins a knight, but
// Black must then recapture with the e6 pawn (capture is mandatory) and
// White loses the queen. Greedy, which looks no further than its own
// move, takes the knight; a depth-1 search does not, because the
// quiescence search follows the forced capture.
func TestSurvivalQuiescenceSeesForcedRecapture(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Survival, "8/7p/4p3/3n4/8/1p6/P7/3Q4 w - - 0 1")
	if g := (&Greedy{Seed: 1}).Choose(p, nil, 0); g.Move.UCI() != "d1d5" {
		t.Fatalf("greedy played %s, want the knight d1d5", g.Move)
	}
	for seed := range uint64(8) {
		r := NewSearcher(12).Search(p, nil, Limits{Depth: 1, Seed: seed})
		if r.Move.UCI() == "d1d5" {
			t.Fatalf("seed %d: depth-1 search played Qxd5 (score %d), losing the queen to the forced recapture", seed, r.Score)
		}
	}
}

// TestChessMateInOne: the back-rank mate.
func TestChessMateInOne(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Chess, "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
	r := NewSearcher(14).Search(p, nil, Limits{Depth: 3})
	if r.Move.UCI() != "d1d8" {
		t.Fatalf("move %s, want d1d8", r.Move)
	}
	if n, ok := r.MateIn(); !ok || n != 1 {
		t.Fatalf("score %d, want mate in 1", r.Score)
	}
}

// TestChessWinsHangingQueen: a queen left en prise is taken.
func TestChessWinsHangingQueen(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Chess, "4k3/8/8/8/3q4/5N2/P7/4K3 w - - 0 1")
	r := NewSearcher(14).Search(p, nil, Limits{Depth: 3})
	if r.Move.UCI() != "f3d4" || r.Score < 200 {
		t.Fatalf("move %s score %d, want Nxd4 and a won position", r.Move, r.Score)
	}
}

// TestSearchStopsAtBudgets: the node budget stops the search (it may
// overshoot by the nodes of the node that noticed), the depth budget
// bounds the iterations.
func TestSearchStopsAtBudgets(t *testing.T) {
	t.Parallel()
	p := chess.StartPosition(chess.Survival)
	s := NewSearcher(14)
	r := s.Search(p, nil, Limits{Nodes: 5000})
	if s.Nodes() > 5000 {
		t.Fatalf("searched %d nodes with a budget of 5000", s.Nodes())
	}
	if !p.IsLegal(r.Move) {
		t.Fatalf("illegal move %s", r.Move)
	}
	var depths []int
	s.OnInfo = func(i Info) { depths = append(depths, i.Depth) }
	s.Search(chess.StartPosition(chess.Chess), nil, Limits{Depth: 3})
	if !slices.Equal(depths, []int{1, 2, 3}) {
		t.Fatalf("iterations %v, want 1 2 3", depths)
	}
}

// TestSearchNoMove: a finished position has no move to choose.
func TestSearchNoMove(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Chess, "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1") // Black is mated
	if r := NewSearcher(12).Search(p, nil, Limits{Depth: 2}); r.Move != chess.NullMove {
		t.Fatalf("move %s in a mated position", r.Move)
	}
}

// TestRepetitionIsADraw: Black, a queen down, can go back to a position
// of the game's history (Kg8 repeats the position three plies before):
// with that history the search takes the draw, scored 0; without it the
// same position is lost.
func TestRepetitionIsADraw(t *testing.T) {
	t.Parallel()
	hist := []uint64{
		hashOf(t, chess.Chess, "6k1/8/8/8/8/8/2Q5/K7 w - - 0 1"), // then Qd2
		hashOf(t, chess.Chess, "6k1/8/8/8/8/8/3Q4/K7 b - - 1 1"), // then Kh8
		hashOf(t, chess.Chess, "7k/8/8/8/8/8/3Q4/K7 w - - 2 2"),  // then Qc2
	}
	p := mustFEN(t, chess.Chess, "7k/8/8/8/8/8/2Q5/K7 b - - 3 2")
	r := NewSearcher(12).Search(p, hist, Limits{Depth: 3})
	if r.Move.UCI() != "h8g8" || r.Score != 0 {
		t.Fatalf("move %s score %d, want h8g8 and a draw by repetition", r.Move, r.Score)
	}
	r = NewSearcher(12).Search(p, nil, Limits{Depth: 3})
	if r.Score > -300 {
		t.Fatalf("without history score %d, want Black clearly worse", r.Score)
	}
}

// playGame plays a game between two players from pos for at most plies
// plies and returns the moves in UCI.
func playGame(t *testing.T, pos chess.Position, white, black Player, plies int) []string {
	t.Helper()
	var out []string
	var hist []uint64
	for range plies {
		if pos.Status().Over() {
			break
		}
		pl := white
		if pos.Turn() == chess.Black {
			pl = black
		}
		r := pl.Choose(pos, hist, 0)
		if !pos.IsLegal(r.Move) {
			t.Fatalf("%s played the illegal %s in %s", pl.Name(), r.Move, pos.FEN())
		}
		hist = append(hist, pos.Hash())
		pos = pos.PlayUnchecked(r.Move)
		out = append(out, r.Move.UCI())
	}
	return out
}

func testLevel(name string, nodes uint64) Level {
	l, _ := LevelByName(name)
	if l.Nodes == 0 || l.Nodes > nodes {
		l.Nodes = nodes
	}
	return l
}

// TestDeterministic: a level with a seed plays the same game twice, and
// at GOMAXPROCS 1 as at the machine's; another seed plays another game
// (so the seed is used).
func TestDeterministic(t *testing.T) {
	t.Parallel()
	for _, v := range []chess.Variant{chess.Survival, chess.Chess} {
		game := func(seed uint64) []string {
			a := &SearchPlayer{Level: testLevel("easy", 3000), Seed: seed}
			b := &SearchPlayer{Level: testLevel("intermediate", 6000), Seed: seed + 1}
			return playGame(t, chess.StartPosition(v), a, b, 24)
		}
		first := game(7)
		if again := game(7); !slices.Equal(first, again) {
			t.Fatalf("%v: seed 7 played\n%v\nthen\n%v", v, first, again)
		}
		prev := runtime.GOMAXPROCS(1)
		one := game(7)
		runtime.GOMAXPROCS(prev)
		if !slices.Equal(first, one) {
			t.Fatalf("%v: GOMAXPROCS 1 played\n%v\ninstead of\n%v", v, one, first)
		}
		differs := false
		for seed := uint64(100); seed < 104 && !differs; seed++ {
			differs = !slices.Equal(first, game(seed))
		}
		if !differs {
			t.Fatalf("%v: four other seeds all played %v", v, first)
		}
	}
}

// TestMarginChoosesAmongNearEqual: with a clear best move every seed
// plays it at margin 0; at a wide margin the seeds spread over several
// moves.
func TestMarginChoosesAmongNearEqual(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Chess, "4k3/8/8/8/3q4/8/8/3RK3 w - - 0 1") // Rxd4 wins the queen
	chosen := map[string]bool{}
	wide := map[string]bool{}
	for seed := range uint64(12) {
		chosen[NewSearcher(12).Search(p, nil, Limits{Depth: 2, Seed: seed}).Move.UCI()] = true
		wide[NewSearcher(12).Search(chess.StartPosition(chess.Chess), nil, Limits{Depth: 2, Seed: seed, Margin: 60}).Move.UCI()] = true
	}
	if len(chosen) != 1 || !chosen["d1d4"] {
		t.Fatalf("margin 0 chose %v, want only d1d4", chosen)
	}
	if len(wide) < 3 {
		t.Fatalf("margin 60 from the start chose only %v", wide)
	}
}

// TestPlayersAlwaysLegal: every player and level, in both variants, plays
// only legal moves through whole (short-budget) games.
func TestPlayersAlwaysLegal(t *testing.T) {
	t.Parallel()
	plies := 200
	if !testkit.Long() {
		plies = 60
	}
	for _, v := range []chess.Variant{chess.Survival, chess.Chess} {
		players := []Player{&Random{Seed: 3}, &Greedy{Seed: 4}}
		for _, l := range Levels {
			players = append(players, &SearchPlayer{Level: testLevel(l.Name, 1500), Seed: 5})
		}
		for i, a := range players {
			b := players[(i+1)%len(players)]
			playGame(t, chess.StartPosition(v), a, b, plies)
		}
	}
}

// TestGreedyAndRandom: greedy takes the most valuable capture; random
// spreads its choices over the legal moves with the seed.
func TestGreedyAndRandom(t *testing.T) {
	t.Parallel()
	p := mustFEN(t, chess.Chess, "4k3/8/8/2r1q3/3P4/8/8/4K3 w - - 0 1")
	for seed := range uint64(6) {
		if m := (&Greedy{Seed: seed}).Choose(p, nil, 0).Move.UCI(); m != "d4e5" {
			t.Fatalf("greedy seed %d played %s, want d4e5 (the queen)", seed, m)
		}
	}
	seen := map[chess.Move]bool{}
	start := chess.StartPosition(chess.Chess)
	for seed := range uint64(40) {
		seen[(&Random{Seed: seed}).Choose(start, nil, 0).Move] = true
	}
	if len(seen) < 8 {
		t.Fatalf("random chose only %d distinct first moves in 40 seeds", len(seen))
	}
}

func TestLevelByName(t *testing.T) {
	t.Parallel()
	if _, err := LevelByName("Strongest"); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlayer("grandmaster", 1); err == nil {
		t.Fatal("an unknown level was accepted")
	}
	for i := 1; i < len(Levels); i++ {
		nodes := func(l Level) uint64 { return l.Limits(0, 0).Nodes }
		if nodes(Levels[i]) <= nodes(Levels[i-1]) || Levels[i].Depth < Levels[i-1].Depth || Levels[i].Margin > Levels[i-1].Margin {
			t.Fatalf("level %s is not stronger than %s", Levels[i].Name, Levels[i-1].Name)
		}
	}
}

// TestSurvivalBishopsOfOneColourCannotWin: White's bishops all stand on
// light squares and Black has, beside a knight, a dark-squared bishop
// that no White piece can ever reach, so however much material White
// has, White cannot eliminate Black (Black still can): the evaluation
// says at best a draw, where counting material alone would say White is
// winning; with Black's bishop on a light square instead, White is
// clearly better.
func TestSurvivalBishopsOfOneColourCannotWin(t *testing.T) {
	t.Parallel()
	stuck := mustFEN(t, chess.Survival, "7n/8/8/8/8/3B1B2/4B3/b7 w - - 0 1") // a1 is dark; d3 f3 e2 are light
	if v := evalSurvival(&stuck); v > 0 {
		t.Fatalf("evaluation %d for bishops that can never capture the last piece", v)
	}
	if !cannotEliminate(&stuck, chess.White) || cannotEliminate(&stuck, chess.Black) {
		t.Fatal("cannotEliminate: wrong side")
	}
	open := mustFEN(t, chess.Survival, "7n/8/8/8/8/3B1B2/4B3/1b6 w - - 0 1") // b1 is light
	if v := evalSurvival(&open); v < 300 {
		t.Fatalf("evaluation %d, want White clearly better", v)
	}
}

// TestTimeCapAndStop: the time cap ends a search that has no other
// budget, and so does Stop from another goroutine; both still return a
// legal move.
func TestTimeCapAndStop(t *testing.T) {
	t.Parallel()
	p := chess.StartPosition(chess.Chess)
	start := time.Now()
	r := NewSearcher(16).Search(p, nil, Limits{Time: 30 * time.Millisecond})
	if el := time.Since(start); el > 20*time.Second || r.Depth >= MaxDepth || !p.IsLegal(r.Move) {
		t.Fatalf("capped search: %v, depth %d, move %s", el, r.Depth, r.Move)
	}
	s := NewSearcher(16)
	iterations := make(chan int, MaxDepth)
	s.OnInfo = func(i Info) { iterations <- i.Depth }
	done := make(chan Result)
	go func() { done <- s.Search(p, nil, Limits{}) }()
	select {
	case <-iterations: // the search is under way
	case <-time.After(60 * time.Second):
		t.Fatal("no iteration within 60 s")
	}
	s.Stop()
	select {
	case r := <-done:
		if !p.IsLegal(r.Move) {
			t.Fatalf("stopped search chose %s", r.Move)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Stop did not end the search within 60 s")
	}
}

// playPV plays the principal variation pv from p and returns the position
// it reaches, failing the test at a move that is not legal.
func playPV(t *testing.T, p chess.Position, pv []chess.Move) chess.Position {
	t.Helper()
	for _, m := range pv {
		var err error
		if p, err = p.Play(m); err != nil {
			t.Fatalf("PV %v: %v", pv, err)
		}
	}
	return p
}
