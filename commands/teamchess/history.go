package teamchess

import (
	"fmt"
	"strings"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/historyview"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/render"
)

// The history viewer (package commands/historyview): frame k is the board after the
// k-th move (sacrifices and forced moves included), 0 the start position.
// Every frame is rebuilt by replaying the stored actions from the start,
// which every state version keeps: passes, tag-outs and siege choices
// replay with them and are told under the move they followed. Everything
// in it is public.

// frame is one position of the history: the board after a move, the move
// that made it and what happened from that move to the next.
type frame struct {
	pos    chess.Position
	last   []chess.Square // the move's squares (and an Assassin's target)
	move   *tc.Event      // nil for the start position
	events []tc.Event     // the move's event and those that followed it
}

// frames replays st's actions into its history's frames; the game's own
// end (with the category it was stored with) closes the last one.
func (st *State) frames() ([]frame, error) {
	h := st.game.State()
	g, err := tc.NewGame(tc.Setup{FEN: h.StartFEN, White: h.White, Black: h.Black})
	if err != nil {
		return nil, err
	}
	out := []frame{{pos: g.Position()}}
	out[0].events = keepPlay(g.Events())
	for i, a := range h.Actions {
		events, err := g.Apply(a)
		if err != nil {
			return nil, fmt.Errorf("action %d (%s %s %s): %w", i+1, a.Side, a.Kind, a.Move, err)
		}
		for _, e := range keepPlay(events) {
			if e.Kind == tc.MoveEvent {
				e := e
				f := frame{pos: g.Position(), move: &e}
				if m, ok := g.LastMove(); ok {
					f.last = []chess.Square{m.Board.From(), m.Board.To()}
					if sq, ok := m.Target(); ok {
						f.last = append(f.last, sq)
					}
				}
				out = append(out, f)
			}
			out[len(out)-1].events = append(out[len(out)-1].events, e)
		}
	}
	for _, e := range st.game.Events() {
		if e.Kind == tc.GameOverEvent {
			out[len(out)-1].events = append(out[len(out)-1].events, e)
		}
	}
	return out, nil
}

// keepPlay drops the replay's own end: the stored game's end is told
// instead (an older game keeps the category it was scored with).
func keepPlay(events []tc.Event) []tc.Event {
	var out []tc.Event
	for _, e := range events {
		if e.Kind != tc.GameOverEvent {
			out = append(out, e)
		}
	}
	return out
}

// history answers the History button, the viewer's ⏮ ◀ ▶ ⏭ and /history:
// privately, the board after the move asked for, from the clicker's team's
// side (White's for anyone else), the move list with that move in bold,
// and what happened with it.
func history(t *turn) (*response, error) {
	st := t.State
	frames, err := st.frames()
	if err != nil {
		return nil, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
	}
	i, update, err := historyview.Frame(t.Req, len(frames))
	if err != nil {
		return nil, err
	}
	msg, err := historyMessage(t, st, frames, i)
	if err != nil {
		return nil, err
	}
	return historyview.Answer(msg, update), nil
}

// historyMessage is the viewer of frames[i] for t's user.
func historyMessage(t *turn, st *State, frames []frame, i int) (commands.Message, error) {
	f := frames[i]
	side, _ := st.game.SideOf(t.Req.User.ID) // White for anyone else
	file, err := chessui.ChessBoard(t.Renderer(), t.Settings().BoardSize, &f.pos, f.last, chessui.BoardView{Flipped: side == chess.Black})
	if err != nil {
		return commands.Message{}, err
	}
	sans := make([]string, 0, len(frames)-1)
	for _, g := range frames[1:] {
		sans = append(sans, g.move.SAN)
	}
	start := frames[0].pos
	lines, cur := historyview.ChessMoveLines(sans, start.Turn() == chess.White, start.FullmoveNumber(), i)
	desc := historyview.Window(lines, cur, 2500)
	if desc == "" {
		desc = "No move has been played yet."
	}
	where := "Start position"
	if f.move != nil {
		dots := "."
		if f.move.Side == chess.Black {
			dots = "..."
		}
		where = fmt.Sprintf("After %d%s %s (%s)", f.move.MoveNumber, dots, f.move.SAN, label(f.move.Commander))
	}
	e := &ui.Card{
		Title:       Title + " · history",
		Description: desc,
		Image:       "board.png",
		Color:       commands.ColorChallenge,
		Fields:      []*ui.Field{{Name: "Position", Value: fmt.Sprintf("%s (move %d of %d)", where, i, len(frames)-1)}},
		Footer:      fmt.Sprintf("Game %s · only you see this · %s at the bottom", t.Game.ID, side.Title()),
	}
	var what []string
	for _, ev := range f.events {
		if ev.Kind == tc.GameOverEvent {
			what = append(what, "🏁 "+st.resultLine(ev))
			continue
		}
		what = append(what, "• "+commands.EscapeText(ev.String(), 0))
	}
	if st.Aborted && i == len(frames)-1 {
		what = append(what, "🏁 The game was aborted: "+st.abortText()+"; no record changes.")
	}
	if st.Adjudicated != "" && i == len(frames)-1 {
		what = append(what, "🏁 "+st.adjudicatedText())
	}
	if len(what) > 0 {
		name := "What happened"
		if f.move != nil {
			name = "This move and what followed"
		}
		e.Fields = append(e.Fields, &ui.Field{Name: name, Value: commands.ClipLines(what, 1000)})
	}
	if i == len(frames)-1 && !st.over() {
		e.Fields = append(e.Fields, &ui.Field{Name: "Now", Value: "This is the game's position now: " + st.nextLine(false)})
	}
	if st.over() && i == len(frames)-1 {
		e.Color = commands.ColorOver
	}
	counter := fmt.Sprintf("Move %d/%d", i, len(frames)-1)
	return commands.Message{
		Cards: []*ui.Card{e},
		Files: []*ui.File{file},
		Rows:  []ui.Row{historyview.Controls(t.Game, i, len(frames), counter)},
	}, nil
}

// replay is the game's replay (issue 17): the history viewer's frames, the
// start position and the board after every move (sacrifices and forced
// moves included), each move highlighted, from White's side.
func replay(t *turn) (*commands.Replay, error) {
	frames, err := t.State.frames()
	if err != nil {
		return nil, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
	}
	boards := make([]render.ChessBoard, len(frames))
	for i := range frames {
		boards[i] = chessui.ChessFrame(&frames[i].pos, frames[i].last, chessui.BoardView{})
	}
	return &commands.Replay{
		Name:    "teamchess-" + t.Game.ID + "-replay.gif",
		Chess:   boards,
		Caption: commands.Plural(len(boards), "position", "positions") + ", every move from the start",
	}, nil
}

// versus is, for the game archive, userID's team and the other team:
// "for White with @b vs @c, @d".
func versus(st *State, userID string) string {
	side, ok := st.game.SideOf(userID)
	if !ok {
		return ""
	}
	names := func(c chess.Color, skip string) string {
		var out []string
		for _, m := range st.game.Members(c) {
			if m.ID != skip {
				out = append(out, "<@"+m.ID+">")
			}
		}
		return strings.Join(out, ", ")
	}
	line := "for " + side.Title()
	if mates := names(side, userID); mates != "" {
		line += " with " + mates
	}
	return line + " vs " + names(side.Other(), "")
}
