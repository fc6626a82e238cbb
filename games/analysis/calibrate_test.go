package analysis

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
)

// TestMeasureCurve is the measurement behind SurvivalScale and
// TeamChessScale (docs/analysis.md), not a test: it runs only with
// SANDTABLE_CALIBRATE=N (N games a variant). For each variant it plays N
// games between two "intermediate" players (different seeds, so their
// margin picks differ) from seeded random openings of 6 plies, records the
// players' search scores (White's point of view; mate scores and positions
// with a single legal move, whose search stops after one ply, left out)
// with each game's result (1, 1/2, 0 for White), and fits the logistic
// expected score 1/(1+exp(-k*cp)) by maximum likelihood: the form of
// lichess's curve (WinPercent/100, k = 0.00368208 for Stockfish centipawns
// in strong human games), with a 95% interval by bootstrap over games. The
// ratio k(variant)/k(chess) is what a centipawn of the variant is worth in
// chess centipawns of the same engine and level. The players are
// node-limited, so a run is reproducible.
func TestMeasureCurve(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SANDTABLE_CALIBRATE"))
	if n <= 0 {
		t.Skip("a measurement: SANDTABLE_CALIBRATE=N games a variant runs it")
	}
	t.Parallel()
	for _, v := range []chess.Variant{chess.Chess, chess.Survival, chess.TeamChess} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			var cps, ys []float64
			var games [][]float64
			var results []float64
			var wins, draws, losses int
			for g := range n {
				var c []float64
				var y float64
				if v == chess.TeamChess {
					c, y = selfPlayTeamChess(uint64(g))
				} else {
					c, y = selfPlay(v, uint64(g))
				}
				games, results = append(games, c), append(results, y)
				cps = append(cps, c...)
				for range c {
					ys = append(ys, y)
				}
				switch y {
				case 1:
					wins++
				case 0.5:
					draws++
				default:
					losses++
				}
			}
			// A 95% interval by bootstrap over games (a game's positions
			// share its result, so the game is the unit).
			r := rand.New(rand.NewPCG(uint64(v), 9))
			var boot []float64
			for range 100 {
				var bc, by []float64
				for range games {
					i := r.IntN(len(games))
					bc = append(bc, games[i]...)
					for range games[i] {
						by = append(by, results[i])
					}
				}
				boot = append(boot, fitLogistic(bc, by))
			}
			slices.Sort(boot)
			t.Logf("%s: %d games (White +%d =%d -%d), %d positions: k = %.6f, 95%% %.6f to %.6f (lichess 0.00368208)",
				v, n, wins, draws, losses, len(cps), fitLogistic(cps, ys), boot[2], boot[97])
		})
	}
}

// selfPlayTeamChess is selfPlay for Team Chess: one commander a side (as
// sandtable match plays), "intermediate" players, the acting side's score;
// a mutual loss or 300 plies is 1/2.
func selfPlayTeamChess(seed uint64) ([]float64, float64) {
	r := rand.New(rand.NewPCG(seed, 78))
	g, _ := teamchess.NewGame(teamchess.Setup{White: []teamchess.Member{{ID: "w"}}, Black: []teamchess.Member{{ID: "b"}}})
	var players [2]*engine.TeamChessPlayer
	for c := range players {
		players[c], _ = engine.NewTeamChessPlayer("intermediate", seed*2+uint64(c)+1)
	}
	var cps []float64
	for ply := 0; ply < 300 && g.Phase() != teamchess.Finished; ply++ {
		side := g.Turn()
		if ply < 6 && g.Phase() == teamchess.Playing {
			ms := g.LegalMoves()
			if _, err := g.PlayMove("", ms[r.IntN(len(ms))]); err != nil {
				panic(err)
			}
			continue
		}
		res := players[side].Choose(g, 0)
		if _, ok := teamChessMate(res.Score); !ok && g.CountLegalMoves() > 1 {
			cp := float64(res.Score)
			if side == chess.Black {
				cp = -cp
			}
			cps = append(cps, cp)
		}
		a := res.Action
		a.Side = side.String()
		if _, err := g.Apply(a); err != nil {
			panic(err)
		}
	}
	res := g.Result()
	switch {
	case !res.HasWinner():
		return cps, 0.5
	case res.Winner == chess.White:
		return cps, 1
	}
	return cps, 0
}

// selfPlay plays one game and returns the scores of its positions after
// the opening (White's point of view) and White's result.
func selfPlay(v chess.Variant, seed uint64) ([]float64, float64) {
	r := rand.New(rand.NewPCG(seed, 77))
	players := [2]engine.Player{}
	for c := range players {
		p, _ := engine.NewPlayer("intermediate", seed*2+uint64(c)+1)
		players[c] = p
	}
	pos, _ := chess.ParseFEN(v, v.StartFEN())
	var history []uint64
	seen := map[uint64]int{}
	var cps []float64
	for ply := 0; ply < 300; ply++ {
		if st := pos.Status(); st.Over() {
			if w, ok := st.Winner(); ok {
				if w == chess.White {
					return cps, 1
				}
				return cps, 0
			}
			return cps, 0.5
		}
		seen[pos.RepetitionKey()]++
		if seen[pos.RepetitionKey()] >= 3 {
			return cps, 0.5
		}
		var m chess.Move
		if ply < 6 {
			ms := pos.LegalMoves()
			m = ms[r.IntN(len(ms))]
		} else {
			res := players[pos.Turn()].Choose(pos, history, 0)
			m = res.Move
			// A position with one legal move gets a one-ply score: left out.
			if res.Score > -engine.MateBound && res.Score < engine.MateBound && len(pos.LegalMoves()) > 1 {
				cp := float64(res.Score)
				if pos.Turn() == chess.Black {
					cp = -cp
				}
				cps = append(cps, cp)
			}
		}
		history = append(history, pos.Hash())
		pos, _ = pos.Play(m)
	}
	return cps, 0.5
}

// fitLogistic returns the k maximising the likelihood of the results ys
// (0, 1/2, 1) under the expected score 1/(1+exp(-k*cp)), by golden-section
// search on log k.
func fitLogistic(cps, ys []float64) float64 {
	ll := func(k float64) float64 {
		var s float64
		for i, cp := range cps {
			p := 1 / (1 + math.Exp(-k*cp))
			p = min(max(p, 1e-12), 1-1e-12)
			s += ys[i]*math.Log(p) + (1-ys[i])*math.Log(1-p)
		}
		return s
	}
	lo, hi := math.Log(1e-5), math.Log(0.1)
	g := (math.Sqrt(5) - 1) / 2
	for range 50 {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if ll(math.Exp(a)) > ll(math.Exp(b)) {
			hi = b
		} else {
			lo = a
		}
	}
	return math.Exp((lo + hi) / 2)
}
