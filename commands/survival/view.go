package survival

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/historyview"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/internal/duration"
)

// boardFile draws g's current position as board.png.
func boardFile(t *turn, g *chess.Game, v chessui.BoardView) (*ui.File, error) {
	var last []chess.Square
	if from, to, ok := g.LastMoveSquares(); ok {
		last = []chess.Square{from, to}
	}
	return chessui.ChessBoard(t.Renderer(), t.Settings().BoardSize, g.Position(), last, v)
}

// message is the board post of s (the state t saves, or t's): embed,
// image, Flip button, and at the end the result and the PGN record.
func message(t *turn, s *State, note string) (commands.Message, error) {
	g := s.game
	pos := g.Position()
	// Always from White's side (ruling 21); Flip shows Black's.
	file, err := boardFile(t, g, chessui.BoardView{CaptureMarks: !s.over()})
	if err != nil {
		return commands.Message{}, err
	}
	e := &ui.Card{
		Title: Title,
		Image: "board.png",
		Fields: []*ui.Field{
			{Name: "White", Value: t.WithRating(s.White), Inline: true},
			{Name: "Black", Value: t.WithRating(s.Black), Inline: true},
		},
		Footer: "Game " + t.Game.ID + " · " + t.RatedLabel(s) + " · " + s.timeControlShort(),
	}
	if vs := commands.ComputerSeats(t.Game); vs != "" {
		e.Description = vs + " · unrated"
	}
	if s.LastMove != "" {
		e.Fields = append(e.Fields, &ui.Field{Name: "Last move", Value: s.LastMove, Inline: true})
		// The live board is edited in place: it says the last moves the
		// thread no longer lists.
		if recent := lastMoves(g, 8); strings.Count(recent, " ") > 1 {
			e.Fields = append(e.Fields, &ui.Field{Name: "Last moves", Value: recent})
		}
	}
	files := []*ui.File{file}
	var rows []ui.Row
	if !s.over() {
		turn := pos.Turn()
		e.Color = commands.ColorWhite
		if turn == chess.Black {
			e.Color = commands.ColorBlack
		}
		toMove := fmt.Sprintf("%s, move %d", s.describe(turn), pos.FullmoveNumber())
		if d := t.Deadline(); !d.IsZero() && s.Clock == nil {
			toMove += fmt.Sprintf("\nTime runs out <t:%d:R>", d.Unix())
		}
		e.Fields = append(e.Fields, &ui.Field{Name: "To move", Value: toMove})
		if s.Clock != nil {
			e.Fields = append(e.Fields, &ui.Field{Name: "Clocks", Value: clocksText(s, t.Deadline())})
		}
		if caps := pos.Captures(); len(caps) > 0 {
			sans := make([]string, 0, len(caps))
			for _, m := range caps {
				sans = append(sans, pos.SAN(m))
			}
			e.Fields = append(e.Fields, &ui.Field{
				Name:  "Capture is mandatory",
				Value: fmt.Sprintf("%s available: %s", commands.Plural(len(caps), "capture", "captures"), commands.ListAtMost(sans, 10)),
			})
		}
		if claims := g.Claims(); len(claims) > 0 {
			names := make([]string, len(claims))
			for i, c := range claims {
				names[i] = c.String()
			}
			e.Fields = append(e.Fields, &ui.Field{
				Name:  "Draw claimable",
				Value: fmt.Sprintf("%s may claim a draw by %s with /draw claim.", s.describe(turn), strings.Join(names, " or ")),
			})
		}
		if s.Offer != "" {
			e.Fields = append(e.Fields, &ui.Field{Name: "Draw offer", Value: fmt.Sprintf("<@%s> offers a draw.", s.Offer)})
		}
		rows = []ui.Row{{
			pickButton(t, s),
			commands.GameArgButton(t.Game, "flip", strconv.Itoa(len(s.Moves)), "Flip board", ui.Secondary),
			historyview.Button(t.Game),
		}}
	} else {
		e.Color = commands.ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: s.Result + ": " + s.resultLine()})
		if s.Clock != nil {
			e.Fields = append(e.Fields, &ui.Field{Name: "Clocks", Value: clocksText(s, time.Time{})})
		}
		// The record replays the history (the position was resumed).
		full, err := chess.ReplayGame(chess.Survival, s.StartFEN, s.Moves)
		if err != nil {
			return commands.Message{}, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
		}
		pgn := pgnOf(full, s)
		files = append(files, &ui.File{Name: "survival-" + t.Game.ID + ".pgn", ContentType: "application/x-chess-pgn", Data: []byte(pgn)})
		row := ui.Row{commands.GameButton(t.Game, "rematch", "Rematch", ui.Primary), historyview.Button(t.Game)}
		if len(s.Moves) > 0 { // no replay of zero moves
			row = append(row, commands.ReplayButton(t.Game))
		}
		if analysable(s) {
			row = append(row, commands.AnalysisButton(t.Game))
		}
		rows = []ui.Row{row}
	}
	return commands.Message{Content: note, Cards: []*ui.Card{e}, Files: files, Rows: rows}, nil
}

// clocksText shows s's clocks: the side to move's running out at deadline
// (a relative timestamp, which counts down in every client), the other's
// frozen; both frozen once the game is over or when no deadline runs.
func clocksText(s *State, deadline time.Time) string {
	line := func(c chess.Color) string {
		if !s.over() && s.turn() == c && !deadline.IsZero() {
			return fmt.Sprintf("%s: ⏱ runs out <t:%d:R>", c.Title(), deadline.Unix())
		}
		return fmt.Sprintf("%s: %s", c.Title(), commands.ClockText(s.Clock.left(c)))
	}
	return line(chess.White) + "\n" + line(chess.Black)
}

// timeControlShort is the time control in a board's footer: "10+5" or
// "1d per move".
func (s *State) timeControlShort() string {
	if s.Clock != nil {
		return s.Clock.String()
	}
	return duration.Format(s.MoveTime) + " per move"
}

// pgnOf is the PGN record of s, full its replayed game: with a Fischer
// clock, its TimeControl tag and each move's remaining time ([%clk]).
func pgnOf(full *chess.Game, s *State) string {
	tags := []chess.Tag{
		{Name: "Event", Value: "SandTable Bot Survival Chess"},
		{Name: "Site", Value: "Discord"},
		{Name: "Date", Value: s.Started.UTC().Format("2006.01.02")},
		{Name: "White", Value: s.White.Name},
		{Name: "Black", Value: s.Black.Name},
		{Name: "Termination", Value: s.reasonText()},
	}
	if s.Clock == nil {
		return full.PGN(tags, s.Result)
	}
	tags = append(tags, chess.Tag{Name: "TimeControl", Value: s.Clock.PGN()})
	comments := make([]string, len(s.Clock.After))
	for i, d := range s.Clock.After {
		comments[i] = "[%clk " + commands.PGNClock(d) + "]"
	}
	return full.PGNWithComments(tags, s.Result, comments)
}

// lastMoves is the last n moves of g in SAN, numbered as in a move list
// ("19... Qxf6 20. Qe8 Kd7"); "" before the first.
func lastMoves(g *chess.Game, n int) string {
	sans := g.SANs()
	if len(sans) == 0 {
		return ""
	}
	if len(sans) > n {
		sans = sans[len(sans)-n:]
	}
	pos := g.Position()
	side, num := chess.White, pos.FullmoveNumber() // who played the last move, at which number
	if pos.Turn() == chess.White {
		side, num = chess.Black, num-1
	}
	out := make([]string, len(sans))
	for i := len(sans) - 1; i >= 0; i-- {
		switch {
		case side == chess.White:
			out[i] = fmt.Sprintf("%d. %s", num, sans[i])
			side, num = chess.Black, num-1
		case i == 0:
			out[i] = fmt.Sprintf("%d... %s", num, sans[i])
		default:
			out[i] = sans[i]
			side = chess.White
		}
	}
	return strings.Join(out, " ")
}
