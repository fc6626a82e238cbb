package engine

import (
	"testing"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
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

// tcBenchPositions are Team Chess positions for BenchmarkTeamChessSearch:
// the start after a few moves (with a record behind it) and a middlegame
// with 8th-rank sacrifices in reach.
var tcBenchPositions = map[string]struct {
	fen   string
	moves []string
}{
	"TeamChessOpening":   {chess.StandardFEN, []string{"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"}},
	"TeamChessSacrifice": {"r3k2r/1P3ppp/2n2n2/3q4/3Q4/2N2N2/p4PPP/R3K2R w - - 0 20", nil},
}

// BenchmarkTeamChessSearch reports the Team Chess search's speed (games
// searched per second, "nodes/s") for one strongest-level search (its node
// budget divided by TeamChessNodeDivisor) from each position.
func BenchmarkTeamChessSearch(b *testing.B) {
	for name, bp := range tcBenchPositions {
		b.Run(name, func(b *testing.B) {
			g, err := teamchess.NewGame(teamchess.Setup{FEN: bp.fen,
				White: []teamchess.Member{{ID: "w"}}, Black: []teamchess.Member{{ID: "b"}}})
			if err != nil {
				b.Fatal(err)
			}
			for _, m := range bp.moves {
				if _, err := g.Apply(teamchess.Action{Kind: teamchess.ActMove, Side: g.Turn().String(), Move: m}); err != nil {
					b.Fatal(err)
				}
			}
			p, err := NewTeamChessPlayer("strongest", 1)
			if err != nil {
				b.Fatal(err)
			}
			var nodes uint64
			b.ResetTimer()
			for range b.N {
				nodes += p.Choose(g, 0).Nodes
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
