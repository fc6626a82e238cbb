package engine

import (
	"testing"

	"sandtable/games/chess"
)

// benchPositions are the start positions and one middlegame of each variant.
var benchPositions = map[string]struct {
	v   chess.Variant
	fen string
}{
	"ChessStart":      {chess.Chess, chess.StandardFEN},
	"ChessMiddlegame": {chess.Chess, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9"},
	"SurvivalStart":   {chess.Survival, chess.TartanFEN},
	"SurvivalMidgame": {chess.Survival, "3Q4/1p1p3p/pP3pP1/3p4/1P1P2p1/p1p1p1P1/2P1P2P/2q1k3 w - - 0 12"},
}

// BenchmarkSearch reports the search speed (nodes per second) of a
// 200,000-node search from each bench position.
func BenchmarkSearch(b *testing.B) {
	for name, bp := range benchPositions {
		b.Run(name, func(b *testing.B) {
			pos, err := chess.ParseFEN(bp.v, bp.fen)
			if err != nil {
				b.Fatal(err)
			}
			s := NewSearcher(20)
			var nodes uint64
			b.ResetTimer()
			for range b.N {
				r := s.Search(pos, nil, Limits{Nodes: 200_000})
				nodes += r.Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
