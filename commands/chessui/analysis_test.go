package chessui

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/analysis"
	"sandtable/games/chess"
	"sandtable/render"
)

// TestAnalysisAnswer: the answer names each side with its accuracy, lists
// the worst moves gravest first with the better move (or says there is
// none), carries the graph, and refuses stored data it cannot show.
func TestAnalysisAnswer(t *testing.T) {
	t.Parallel()
	rep := &analysis.Report{Variant: chess.Survival, Curve: analysis.CurveOf(chess.Survival), MoveTime: 100e6,
		Moves: []analysis.Move{
			{Ply: 1, Number: "1.", SAN: "e4", Side: chess.White, Eval: analysis.Score{CP: 30}, Best: "e4", Accuracy: 100},
			{Ply: 2, Number: "1...", SAN: "f5", Side: chess.Black, Eval: analysis.Score{CP: 250}, Best: "e5",
				Judgement: analysis.Mistake, Drop: 12},
			{Ply: 3, Number: "2.", SAN: "Qh5", Side: chess.White, Eval: analysis.Score{Mate: -3}, Best: "exf5",
				Judgement: analysis.Blunder, Drop: 40},
		},
		Sides: [2]analysis.SideSummary{{Accuracy: 61.4, HasAccuracy: true, Moves: 2, Blunders: 1},
			{Accuracy: 80.6, HasAccuracy: true, Moves: 1, Mistakes: 1}},
	}
	raw, err := json.Marshal(rep)
	require.NoError(t, err)
	m, err := AnalysisAnswer(render.New(), "Survival Chess game abcd", [2]string{"<@1>", "<@2>"}, raw)
	require.NoError(t, err)
	require.Contains(t, m.Content, "<@1> (White): accuracy 61%, 0 inaccuracies, 0 mistakes, 1 blunder")
	require.Contains(t, m.Content, "<@2> (Black): accuracy 81%, 0 inaccuracies, 1 mistake, 0 blunders")
	require.Regexp(t, `(?s)2\. Qh5\?\?: blunder .*Black mates in 3.*\*\*exf5\*\* was better.*1\.\.\. f5\?: mistake .*\+2\.50.*\*\*e5\*\*`, m.Content,
		"the gravest first")
	require.Len(t, m.Files, 1)
	require.Equal(t, "analysis.png", m.Files[0].Name)

	rep.Moves = rep.Moves[:1]
	raw, _ = json.Marshal(rep)
	m, err = AnalysisAnswer(render.New(), "game", [2]string{"a", "b"}, raw)
	require.NoError(t, err)
	require.Contains(t, m.Content, "No inaccuracy, mistake or blunder.")

	for _, bad := range []string{`{`, `{"Moves":[{"Ply":1,"Judgement":9}]}`, `{"Moves":[{"Ply":1,"Side":5}]}`} {
		_, err := AnalysisAnswer(render.New(), "game", [2]string{"a", "b"}, json.RawMessage(bad))
		require.Error(t, err, bad)
	}
}
