package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"sandtable/games/engine"
	"sandtable/games/sandtable"
)

// matchSandTable plays "sandtable match -game sandtable": in-process
// players only (a level, random or greedy; not uci:). South stands for
// White in the game lines. Each pair of games starts from the same
// opening: both sides' deployments planned by engine.SandTableDeployment
// (level "intermediate") with seeds drawn from -seed and the pair, the
// coin of a game seeded the same way, then PLIES actions of the random
// player (redrawn while the game would be over by then). Each player is
// handed only its side's view. A game still going after maxPlies actions
// is adjudicated a draw.
func matchSandTable(specA, specB string, games int, movetime time.Duration, seed uint64, openings, maxPlies int, stdout io.Writer, fail func(string, ...any) int) int {
	for _, s := range []string{specA, specB} {
		if strings.HasPrefix(s, "uci:") {
			return fail("-game sandtable plays only in-process players (a level, random or greedy), not %s: there is no UCI for SandTable Chess", quoteArg(s))
		}
	}
	a, err := engine.NewSandTablePlayer(specA, seed)
	if err != nil {
		return fail("-a: %v", err)
	}
	b, err := engine.NewSandTablePlayer(specB, seed+1)
	if err != nil {
		return fail("-b: %v", err)
	}
	fmt.Fprintf(stdout, "match: sandtable, A = %s, B = %s, %d games, movetime %d ms, seed %d, openings of %d plies\n",
		quoteArg(specA), quoteArg(specB), games, movetime.Milliseconds(), seed, openings)
	var scores []float64
	var wins, draws, losses int
	var start *sandtable.Position
	var opening string
	for i := range games {
		if i%2 == 0 {
			start, opening = stOpening(seed, i/2, openings)
		}
		aSouth := i%2 == 0
		pos := start.Clone()
		plies := 0
		for ; plies < maxPlies && pos.Phase() != sandtable.PhaseFinished; plies++ {
			side := pos.ToMove()
			p := a
			if (side == sandtable.South) != aSouth {
				p = b
			}
			act, err := p.Choose(pos.View(side), movetime)
			if err == nil {
				_, err = pos.Apply(act)
			}
			if err != nil {
				panic(fmt.Sprintf("match: the SandTable player %s failed: %v\n%s", p.Name(), err, pos))
			}
		}
		res, reason, sa := "1/2-1/2", fmt.Sprintf("ply cap of %d (adjudicated)", maxPlies), 0.5
		if pos.Phase() == sandtable.PhaseFinished {
			reason = stReason(pos.Result())
			if w := pos.Result().Winner; w != sandtable.NoSide {
				res = map[sandtable.Side]string{sandtable.South: "1-0", sandtable.North: "0-1"}[w]
				sa = 0
				if (w == sandtable.South) == aSouth {
					sa = 1
				}
			}
		}
		switch sa {
		case 1:
			wins++
		case 0:
			losses++
		default:
			draws++
		}
		scores = append(scores, sa)
		aSide := "white"
		if !aSouth {
			aSide = "black"
		}
		fmt.Fprintf(stdout, "game %d: A %s, %s, %s after %d plies; opening %s\n", i+1, aSide, res, reason, plies, opening)
	}
	for _, pl := range []struct {
		name, spec string
		p          *engine.SandTablePlayer
	}{{"A", specA, a}, {"B", specB, b}} {
		if pl.p.Calls > 0 && pl.p.Nodes > pl.p.Calls {
			fmt.Fprintf(stdout, "%s (%s): %d actions, mean %d positions tried per action, %d stopped by the time cap\n",
				pl.name, quoteArg(pl.spec), pl.p.Calls, pl.p.Nodes/pl.p.Calls, pl.p.Capped)
		}
	}
	p, ci := meanCI(scores)
	fmt.Fprintf(stdout, "A: %d wins, %d draws, %d losses of %d; score %.1f%% ± %.1f%%\n",
		wins, draws, losses, len(scores), 100*p, 100*ci)
	return 0
}

// stReason names how a game ended ("South wins: all-airplanes").
func stReason(r sandtable.Result) string {
	if r.Winner == sandtable.NoSide {
		return "draw: " + r.Reason.String()
	}
	return r.Winner.String() + " wins: " + r.Reason.String()
}

// stOpening returns pair's start position and its description: both
// deployments planned with seeds drawn from seed and pair, revealed (the
// coin seeded the same way), then plies random actions, each chosen from
// the mover's view; redrawn (up to 100 times) while the game would be
// over by then.
func stOpening(seed uint64, pair, plies int) (*sandtable.Position, string) {
	level, _ := engine.LevelByName("intermediate")
	var pos *sandtable.Position
	var acts []string
	for try := range 100 {
		s := seed*1_000_003 + uint64(pair)*7919 + uint64(try)
		pos = sandtable.NewGame(s)
		for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
			d := engine.SandTableDeployment(side, level, s*2+uint64(side))
			if err := pos.SetDraft(side, d); err != nil {
				panic(err)
			}
			if _, err := pos.Apply(sandtable.Action{Kind: sandtable.ActDeployConfirm, Side: side}); err != nil {
				panic(err)
			}
		}
		r, _ := engine.NewSandTablePlayer("random", s)
		acts = acts[:0]
		for len(acts) < plies && pos.Phase() != sandtable.PhaseFinished {
			a, err := r.Choose(pos.View(pos.ToMove()), 0)
			if err != nil {
				break
			}
			if _, err := pos.Apply(a); err != nil {
				break
			}
			acts = append(acts, a.String())
		}
		if len(acts) == plies && pos.Phase() != sandtable.PhaseFinished {
			desc := fmt.Sprintf("deployments %d, %s first", s, pos.First())
			if len(acts) > 0 {
				desc += ": " + strings.Join(acts, ", ")
			}
			return pos, desc
		}
	}
	return pos, "(none)"
}
