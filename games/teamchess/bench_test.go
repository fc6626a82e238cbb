package teamchess

import (
	"testing"

	"sandtable/games/chess"
)

func BenchmarkPerftNestedSaboteur3(b *testing.B) {
	p, _ := chess.ParseFEN(chess.TeamChess, "4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1")
	for b.Loop() {
		Perft(&p, 3)
	}
}

func BenchmarkComplete25(b *testing.B) {
	p, _ := chess.ParseFEN(chess.TeamChess, "1n2k1n1/PP4PP/8/3q4/3Q4/8/pp4pp/1N2K1N1 w - - 0 1")
	for b.Loop() {
		Complete(&p, "", 25)
	}
}

func BenchmarkParseSaboteur(b *testing.B) {
	p, _ := chess.ParseFEN(chess.TeamChess, "4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1")
	for b.Loop() {
		if _, err := ParseMove(&p, "a8=Saboteur:h1=Saboteur:Kd2"); err != nil {
			b.Fatal(err)
		}
	}
}
