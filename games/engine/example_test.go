package engine_test

import (
	"fmt"

	"sandtable/games/chess"
	"sandtable/games/engine"
)

// A search with a depth budget: in Survival Chess, capturing the last
// piece wins.
func ExampleSearcher_Search() {
	pos, err := chess.ParseFEN(chess.Survival, "8/8/8/3p4/8/8/8/3Q3K w - - 0 1")
	if err != nil {
		panic(err)
	}
	r := engine.NewSearcher(16).Search(pos, nil, engine.Limits{Depth: 4})
	n, _ := r.MateIn()
	fmt.Println(r.Move, "wins in", n)
	// Output: d1d5 wins in 1
}

// A named level with a seed: the same position gives the same move on
// every run and every machine.
func ExampleNewPlayer() {
	p, err := engine.NewPlayer("easy", 42)
	if err != nil {
		panic(err)
	}
	pos := chess.StartPosition(chess.Survival)
	first := p.Choose(pos, nil, 0).Move
	again := p.Choose(pos, nil, 0).Move
	fmt.Println(first.IsPromotion(), first == again)
	// Output: true true
}
