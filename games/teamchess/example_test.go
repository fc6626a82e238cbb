package teamchess_test

import (
	"fmt"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
)

func ExampleParseMove() {
	p, _ := chess.ParseFEN(chess.TeamChess, "4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1")
	for _, s := range []string{"a8=Assassin:xh8", "a8 sab Kd7", "a7a8p", "a8=Q", "a8"} {
		m, err := teamchess.ParseMove(&p, s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(teamchess.SAN(&p, m), m.UCI())
	}
	// Output:
	// a8=Assassin:xh8 a7a8a:h8
	// a8=Saboteur:Kd7 a7a8s:e8d7
	// a8=PoliticalAgent a7a8p
	// the pawn on a7 cannot be a Royal Guard here: your Queen is still on the board, and a Royal Guard only returns a captured Queen (rule 3.1). Possible roles: Assassin, Saboteur, Political Agent (for example a8=Assassin:xh8, a8=Saboteur:Kd7, a8=PoliticalAgent).
	// a pawn reaching a8 does not promote: it is consumed in a sacrifice and you must name its role. Write a8=Assassin:xh8, a8=Saboteur:Kd7 or a8=PoliticalAgent. Royal Guard is impossible: your Queen is still on the board, and a Royal Guard only returns a captured Queen (rule 3.1).
}

func ExamplePerft() {
	p, _ := chess.ParseFEN(chess.TeamChess, "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1")
	fmt.Println(teamchess.Perft(&p, 1), teamchess.Perft(&p, 2))
	// Output: 26 90
}

func ExampleGame() {
	g, _ := teamchess.NewGame(teamchess.Setup{
		FEN:   "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1",
		White: []teamchess.Member{{ID: "1", Name: "Ann"}},
		Black: []teamchess.Member{{ID: "2", Name: "Cid"}, {ID: "3", Name: "Dan"}},
	})
	events, _ := g.Play("1", "a8=Saboteur:Kd7")
	for _, e := range events {
		fmt.Println(e)
	}
	fmt.Println("forced:", g.ForcedSAN())
	g.TagOut("2") // the opponent may tag out before the forced move
	if _, err := g.Play("3", "Ke7"); err != nil {
		fmt.Println(err)
	}
	g.Play("3", "Kd7")
	w, l := g.PersonalRecord("2")
	fmt.Println("Cid:", w, l, "stagnation:", g.Stagnation(chess.Black))
	// Output:
	// 1. White (Ann): a8=Saboteur:Kd7 [stagnation W 0/4, B 0/4]
	// forced: Kd7
	// a Saboteur forced your move: you must play Kd7
	// Cid: 0 1 stagnation: 1
}

func ExampleRank() {
	board := teamchess.Rank([]teamchess.PlayerStats{
		{Name: "Ann", TeamWins: 2, PersonalWins: 1, PersonalLosses: 1},
		{Name: "Bob", TeamWins: 2, PersonalWins: 3},
		{Name: "Cid", TeamWins: 3, PersonalLosses: 2},
	})
	for i, s := range board {
		fmt.Printf("%d. %s %d %.1f\n", i+1, s.Name, s.TeamWins, s.Ratio())
	}
	// Output:
	// 1. Cid 3 0.0
	// 2. Bob 2 3.0
	// 3. Ann 2 1.0
}
