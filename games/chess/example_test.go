package chess_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"sandtable/games/chess"
)

func ExampleGame() {
	g := chess.NewGame(chess.Survival)
	if _, _, err := g.PlayText("a8"); err != nil {
		fmt.Println(err)
	}
	m, san, _ := g.PlayText("a7a8k")
	fmt.Println(m.UCI(), san, g.Position().Turn())
	// Output:
	// a pawn reaching a8 must promote: write a8=Q, a8=R, a8=B, a8=N or a8=K
	// a7a8k a8=K black
}

func ExamplePosition_ParseMove() {
	p, _ := chess.ParseFEN(chess.Survival, "4k3/8/5p2/3p4/4P1N1/8/8/K7 w - - 0 1")
	_, err := p.ParseMove("Nh6")
	fmt.Println(err)
	_, err = p.ParseMove("g4h6") // UCI: the listing is in UCI too
	fmt.Println(err.(*chess.MoveError).Legal.Moves)
	// Output:
	// that move does not capture; capture is mandatory: the legal captures are exd5, Nxf6
	// [e4d5 g4f6]
}

func ExamplePerft() {
	p := chess.StartPosition(chess.Chess)
	fmt.Println(chess.Perft(&p, 3))
	// Output: 8902
}

func ExampleGame_PGN() {
	g := chess.NewGame(chess.Chess)
	for _, s := range []string{"f3", "e5", "g4", "Qh4"} {
		g.PlayText(s)
	}
	fmt.Println(g.Status())
	fmt.Print(g.PGN([]chess.Tag{{Name: "White", Value: "Ann"}, {Name: "Black", Value: "Bob"}}, ""))
	// Output:
	// Black wins by checkmate
	// [Event "?"]
	// [Site "?"]
	// [Date "????.??.??"]
	// [Round "?"]
	// [White "Ann"]
	// [Black "Bob"]
	// [Result "0-1"]
	// [Variant "Standard"]
	// [SetUp "1"]
	// [FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
	//
	// 1. f3 e5 2. g4 Qh4# 0-1
}

func ExampleGame_Outcome() {
	g := chess.NewGame(chess.Survival)
	g.PlayText("a8=Q")
	if err := g.Resign(chess.Black); err != nil {
		fmt.Println(err)
	}
	o, over := g.Outcome()
	b, _ := json.Marshal(o)
	fmt.Println(over, o, string(b))
	_, _, err := g.PlayText("b7b6")
	var done *chess.GameOverError
	fmt.Println(errors.As(err, &done), err)
	// Output:
	// true White wins by resignation {"result":"1-0","method":"resignation"}
	// true the game is over: White wins by resignation
}

func ExampleResume() {
	g := chess.NewGame(chess.Chess)
	for _, s := range []string{"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"} {
		g.PlayText(s)
	}
	stored, _ := json.Marshal(g.Snapshot()) // saved with the game

	var s chess.Snapshot
	json.Unmarshal(stored, &s)
	r, err := chess.Resume(chess.Chess, s) // no replay of the moves
	if err != nil {
		fmt.Println(err)
		return
	}
	m, _ := r.Position().ParseMove("Ng8")
	claim, err := r.ClaimDrawWithMove(m)
	o, _ := r.Outcome()
	fmt.Println(r.Ply(), claim, err, o)
	fmt.Println(r.SANs()) // the history since Resume
	// Output:
	// 8 threefold repetition <nil> draw by threefold repetition (claimed)
	// [Ng8]
}
