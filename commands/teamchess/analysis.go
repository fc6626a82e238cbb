package teamchess

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/games/analysis"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
)

// analysable reports whether the finished game st has an analysis: not
// aborted, and a move made.
func (st *State) analysable() bool {
	return !st.Aborted && st.anyMove()
}

// anyMove reports whether a move was made in st's game, also before it
// was resumed.
func (st *State) anyMove() bool {
	if st.game == nil {
		return false
	}
	for _, e := range st.game.Events() {
		if e.Kind == tc.MoveEvent {
			return true
		}
	}
	// The record of a resumed game starts at its latest move: any move
	// since the start shows in the position's move number.
	pos := st.game.Position()
	return pos.FullmoveNumber() > 1 || pos.Turn() == chess.Black
}

// analysisGame is the finished game as games/analysis replays it: the
// start, every move in player notation and "--" for a besieged side's
// pass, each side's queue length (the rules end a game when a side's last
// commander is tagged out, so the replay needs as many as the game had).
func (st *State) analysisGame() (analysis.Game, error) {
	full, err := st.game.Replay()
	if err != nil {
		return analysis.Game{}, err
	}
	g := analysis.Game{Variant: chess.TeamChess, FEN: full.Setup().FEN,
		Commanders: [2]int{len(full.Commanders(chess.White)), len(full.Commanders(chess.Black))}}
	for _, e := range full.Events() {
		switch e.Kind {
		case tc.MoveEvent:
			g.Moves = append(g.Moves, e.SAN)
		case tc.PassEvent:
			g.Moves = append(g.Moves, "--")
		}
	}
	return g, nil
}

// analysisSpec is the game's analyses (the public final board's Analysis
// button): games/analysis on the replayed record, shown by chessui.
func analysisSpec() *commands.Analysis[*State] {
	return &commands.Analysis[*State]{
		Version: chessui.AnalysisVersion,
		Check: func(st *State) error {
			if !st.analysable() {
				return commands.Errorf("This game ended before its first move: there is nothing to analyse.")
			}
			return nil
		},
		Analyse: func(ctx context.Context, t *turn, opt commands.AnalysisOptions) (any, error) {
			g, err := t.State.analysisGame()
			if err != nil {
				return nil, err
			}
			rep, err := chessui.Analyse(ctx, g, opt)
			var pe *analysis.PlyError
			if errors.As(err, &pe) {
				// Voluntary tag-outs are not replayed (docs/analysis.md):
				// a game they decided may end differently without them.
				return nil, commands.Errorf("This game cannot be analysed: replayed without its voluntary tag-outs, it differs from the game played at %s (ply %d).",
					pe.Number, pe.Ply)
			}
			return rep, err
		},
		Answer: func(t *turn, raw json.RawMessage) (commands.Message, error) {
			var sides [2]string
			for c := range sides {
				var names []string
				for _, m := range t.State.game.Members(chess.Color(c)) {
					names = append(names, memberUser(m).Mention())
				}
				sides[c] = strings.Join(names, ", ")
			}
			return chessui.AnalysisAnswer(t.Renderer(), "Team Chess game "+t.Game.ID, sides, raw)
		},
	}
}
