package survival

import (
	"fmt"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/historyview"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/render"
)

// The history viewer (package commands/historyview): frame k is the position after
// k plies, 0 the start position; every frame is rebuilt by replaying the
// start FEN and the moves, which every state version stores, so games
// stored before the game core show their whole history too. Survival has
// no secrets: anyone may look, running or finished.

// history answers the History button, the viewer's ⏮ ◀ ▶ ⏭ and /history:
// privately, the position of the frame asked for, drawn from the clicker's
// side (White's for spectators), with the move list, the shown move in
// bold.
func history(t *turn) (*response, error) {
	s := t.State
	n := len(s.Moves) + 1
	frame, update, err := historyview.Frame(t.Req, n)
	if err != nil {
		return nil, err
	}
	msg, err := historyMessage(t, s, frame, n)
	if err != nil {
		return nil, err
	}
	return historyview.Answer(msg, update), nil
}

// historyMessage is the viewer of s at frame (of n) for t's user.
func historyMessage(t *turn, s *State, frame, n int) (commands.Message, error) {
	full, err := chess.ReplayGame(chess.Survival, s.StartFEN, s.Moves)
	if err != nil {
		return commands.Message{}, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
	}
	g := full
	if frame < len(s.Moves) {
		if g, err = chess.ReplayGame(chess.Survival, s.StartFEN, s.Moves[:frame]); err != nil {
			return commands.Message{}, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
		}
	}
	latest := frame == n-1
	ended := latest && s.over()
	side, _ := s.colorOf(t.Req.User.ID) // White for spectators
	file, err := boardFile(t, g, chessui.BoardView{Flipped: side == chess.Black, CaptureMarks: !ended && !g.Status().Over()})
	if err != nil {
		return commands.Message{}, err
	}
	start := full.Start()
	lines, cur := historyview.ChessMoveLines(full.SANs(), start.Turn() == chess.White, start.FullmoveNumber(), frame)
	desc := historyview.Window(lines, cur, 3000)
	if desc == "" {
		desc = "No move has been played yet."
	}
	where := "Start position"
	if last := chessui.MoveNumberText(g); last != "" {
		where = "After " + last
	}
	e := &ui.Card{
		Title:       Title + " · history",
		Description: desc,
		Image:       "board.png",
		Color:       commands.ColorChallenge,
		Fields: []*ui.Field{
			{Name: "Position", Value: fmt.Sprintf("%s (ply %d of %d)", where, frame, len(s.Moves)), Inline: true},
			{Name: "White · Black", Value: s.White.Mention() + " · " + s.Black.Mention(), Inline: true},
		},
		Footer: fmt.Sprintf("Game %s · only you see this · %s at the bottom", t.Game.ID, side.Title()),
	}
	switch pos := g.Position(); {
	case ended:
		e.Color = commands.ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: s.Result + ": " + s.resultLine()})
	case latest:
		e.Fields = append(e.Fields, &ui.Field{Name: "To move", Value: s.describe(pos.Turn()) + " (the game's position now)"})
	default:
		e.Fields = append(e.Fields, &ui.Field{Name: "To move", Value: pos.Turn().Title()})
	}
	counter := fmt.Sprintf("Ply %d/%d", frame, len(s.Moves))
	return commands.Message{
		Cards: []*ui.Card{e},
		Files: []*ui.File{file},
		Rows:  []ui.Row{historyview.Controls(t.Game, frame, n, counter)},
	}, nil
}

// replay is the game's replay (issue 17): every position from the start to
// the last, the move that made each highlighted, from White's side (the
// board posts' side, ruling 21), rebuilt like the history viewer's frames.
func replay(t *turn) (*commands.Replay, error) {
	s := t.State
	g, err := chess.NewGameFromFEN(chess.Survival, s.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
	}
	frames := []render.ChessBoard{chessui.ChessFrame(g.Position(), nil, chessui.BoardView{})}
	for i, mv := range s.Moves {
		if _, _, err := g.PlayText(mv); err != nil {
			return nil, fmt.Errorf("game %s: replay: move %d (%q): %w", t.Game.ID, i+1, mv, err)
		}
		from, to, _ := g.LastMoveSquares()
		frames = append(frames, chessui.ChessFrame(g.Position(), []chess.Square{from, to}, chessui.BoardView{}))
	}
	caption := commands.Plural(len(frames), "position", "positions") + ", every ply from the start"
	if s.Result != "" && s.Result != "*" {
		caption += " (" + s.Result + ")"
	}
	return &commands.Replay{Name: "survival-" + t.Game.ID + "-replay.gif", Chess: frames, Caption: caption}, nil
}
