package analysis

import (
	"context"
	"math/rand/v2"
	"testing"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
)

// BenchmarkAnalyse100Plies is issue 24's target: a 100-ply game analysed
// at 100 ms a position in under 15 s (101 searches: about 10.1 s plus the
// replay and the arithmetic). One op is one whole analysis.
func BenchmarkAnalyse100Plies(b *testing.B) {
	for _, v := range []chess.Variant{chess.Chess, chess.Survival, chess.TeamChess} {
		b.Run(v.String(), func(b *testing.B) {
			g := hundredPlies(b, v)
			for b.Loop() {
				rep, err := Analyse(context.Background(), g, Options{MoveTime: DefaultMoveTime})
				if err != nil {
					b.Fatal(err)
				}
				if len(rep.Moves) != 100 {
					b.Fatalf("%d moves analysed", len(rep.Moves))
				}
			}
		})
	}
}

// hundredPlies returns a game of exactly 100 plies that is not over before
// its end: engine self-play at level easy for chess and Survival, seeded
// random moves without a siege for Team Chess (eight commanders a side) (the first seed that lasts).
func hundredPlies(b *testing.B, v chess.Variant) Game {
	for seed := uint64(1); seed < 200; seed++ {
		var moves []string
		if v == chess.TeamChess {
			r := rand.New(rand.NewPCG(seed, 100))
			// Eight commanders a side, so that fatigue does not end it.
			g, err := teamchess.NewGame(teamchess.Setup{White: teamChessMembers("w", 8), Black: teamChessMembers("b", 8)})
			if err != nil {
				b.Fatal(err)
			}
			for len(moves) < 100 && g.Phase() == teamchess.Playing {
				ms := g.LegalMoves()
				m := ms[r.IntN(len(ms))]
				pos := g.Position()
				moves = append(moves, teamchess.SAN(&pos, m))
				if _, err := g.PlayMove("", m); err != nil {
					b.Fatal(err)
				}
			}
			if len(moves) == 100 && g.Phase() == teamchess.Playing {
				return Game{Variant: v, Moves: moves, Commanders: [2]int{8, 8}}
			}
			continue
		}
		players := [2]engine.Player{}
		for c := range players {
			players[c], _ = engine.NewPlayer("easy", seed*2+uint64(c))
		}
		pos, _ := chess.ParseFEN(v, v.StartFEN())
		var history []uint64
		for len(moves) < 100 && !pos.Status().Over() {
			m := players[pos.Turn()].Choose(pos, history, 0).Move
			moves = append(moves, pos.SAN(m))
			history = append(history, pos.Hash())
			pos, _ = pos.Play(m)
		}
		if len(moves) == 100 && !pos.Status().Over() {
			return Game{Variant: v, Moves: moves}
		}
	}
	b.Fatal("no seed gave a 100-ply game")
	return Game{}
}
