package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
)

// matchTeamChess plays "sandtable match -game teamchess": in-process
// players only (a level, random or greedy; not uci:), one commander a side,
// whole teamchess.Game rules (sacrifices, siege decisions, fatigue). A
// mutual loss or a game still going after maxPlies actions counts as a
// draw. The output has the same lines as the other games' (a siege
// decision counts as a ply)..
func matchTeamChess(specA, specB string, games int, movetime time.Duration, seed uint64, openings, maxPlies int, stdout io.Writer, fail func(string, ...any) int) int {
	for _, s := range []string{specA, specB} {
		if strings.HasPrefix(s, "uci:") {
			return fail("-game teamchess plays only in-process players (a level, random or greedy), not %s", quoteArg(s))
		}
	}
	a, err := engine.NewTeamChessPlayer(strings.ToLower(specA), seed)
	if err != nil {
		return fail("-a: %v", err)
	}
	b, err := engine.NewTeamChessPlayer(strings.ToLower(specB), seed+1)
	if err != nil {
		return fail("-b: %v", err)
	}
	fmt.Fprintf(stdout, "match: teamchess, A = %s, B = %s, %d games, movetime %d ms, seed %d, openings of %d plies\n",
		quoteArg(specA), quoteArg(specB), games, movetime.Milliseconds(), seed, openings)
	var scores []float64
	var wins, draws, losses int
	var opening []teamchess.Action
	for i := range games {
		if i%2 == 0 {
			opening = tcOpening(seed, i/2, openings)
		}
		aWhite := i%2 == 0
		g := newTCMatchGame()
		for _, act := range opening {
			g.Apply(act) // replayed: legal by construction
		}
		for n := 0; n < maxPlies && g.Phase() != teamchess.Finished; n++ {
			p := a
			if (g.Turn() == chess.White) != aWhite {
				p = b
			}
			r := p.Choose(g, movetime)
			if _, err := g.Apply(r.Action); err != nil {
				panic("match: the Team Chess player chose an illegal action: " + err.Error())
			}
		}
		res, reason, sa := "1/2-1/2", "adjudicated a draw after the ply limit", 0.5
		if r := g.Result(); r.Over() {
			reason = r.String()
			if r.HasWinner() {
				res = map[chess.Color]string{chess.White: "1-0", chess.Black: "0-1"}[r.Winner]
				if (r.Winner == chess.White) == aWhite {
					sa = 1
				} else {
					sa = 0
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
		if !aWhite {
			aSide = "black"
		}
		ops := make([]string, len(opening))
		for j, o := range opening {
			ops[j] = o.Move
		}
		op := strings.Join(ops, " ")
		if op == "" {
			op = "(none)"
		}
		fmt.Fprintf(stdout, "game %d: A %s, %s, %s after %d plies; opening %s\n",
			i+1, aSide, res, reason, len(g.State().Actions), op)
	}
	p, ci := meanCI(scores)
	fmt.Fprintf(stdout, "A: %d wins, %d draws, %d losses of %d; score %.1f%% ± %.1f%%\n",
		wins, draws, losses, len(scores), 100*p, 100*ci)
	return 0
}

func newTCMatchGame() *teamchess.Game {
	g, err := teamchess.NewGame(teamchess.Setup{White: []teamchess.Member{{ID: "white"}}, Black: []teamchess.Member{{ID: "black"}}})
	if err != nil {
		panic(err)
	}
	return g
}

// tcOpening returns pair's opening: plies random legal moves from the
// start, redrawn (up to 100 times) while the game would be over by then.
func tcOpening(seed uint64, pair, plies int) []teamchess.Action {
	var out []teamchess.Action
	for try := 0; try < 100; try++ {
		r := rand.New(rand.NewPCG(seed, uint64(pair)<<8|uint64(try)))
		g := newTCMatchGame()
		out = out[:0]
		for len(out) < plies && g.Phase() == teamchess.Playing {
			ms := g.LegalMoves()
			if len(ms) == 0 {
				break
			}
			act := teamchess.Action{Kind: teamchess.ActMove, Side: g.Turn().String(), Move: ms[r.IntN(len(ms))].UCI()}
			if _, err := g.Apply(act); err != nil {
				break
			}
			out = append(out, act)
		}
		if g.Phase() == teamchess.Playing && len(out) == plies {
			return out
		}
	}
	return nil
}
