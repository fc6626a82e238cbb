package survival

import (
	"context"
	"encoding/json"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/games/analysis"
	"sandtable/games/chess"
	"sandtable/storage"
)

// analysable reports whether the finished game s has an analysis: a move
// made, and not aborted.
func analysable(s *State) bool {
	return len(s.Moves) > 0 && (s.End == nil || s.End.Method != storage.Aborted)
}

// analysisSpec is the game's analyses (the final board's Analysis button):
// games/analysis on the recorded moves, shown by chessui.
func analysisSpec() *commands.Analysis[*State] {
	return &commands.Analysis[*State]{
		Version: chessui.AnalysisVersion,
		Check: func(s *State) error {
			if !analysable(s) {
				return commands.Errorf("This game ended before its first move: there is nothing to analyse.")
			}
			return nil
		},
		Analyse: func(ctx context.Context, t *turn, opt commands.AnalysisOptions) (any, error) {
			s := t.State
			return chessui.Analyse(ctx, analysis.Game{Variant: chess.Survival, FEN: s.StartFEN, Moves: s.Moves}, opt)
		},
		Answer: func(t *turn, raw json.RawMessage) (commands.Message, error) {
			s := t.State
			return chessui.AnalysisAnswer(t.Renderer(), "Survival Chess game "+t.Game.ID,
				[2]string{s.White.Mention(), s.Black.Mention()}, raw)
		},
	}
}
