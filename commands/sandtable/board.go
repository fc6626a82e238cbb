package sandtable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/historyview"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
	"sandtable/storage"
)

// Public messages (the deployment status, the board), board images and the
// plain-language turn log (issue 7 point 3). The conversion from an engine
// position to the renderer's input is render/sandboard's, so that the bot
// and `sandtable render` draw the same board.

// imageSize is the edge of every SandTable image the bot sends.
const imageSize = render.DefaultSandTableSize

const (
	colorSouth = 0x2F6FD6
	colorNorth = 0xE8892B
)

func sideColor(side engine.Side) int {
	if side == engine.North {
		return colorNorth
	}
	return colorSouth
}

// message is the public message of the game: the deployment status
// during Deployment, else the board.
func message(t *turn, s *State, note string) (commands.Message, error) {
	if s.pos.Phase() == engine.PhaseDeployment || s.pos.Turn() == 0 {
		return statusMessage(t, s, note), nil
	}
	return boardMessage(t, s, note)
}

// show puts s's public view in the thread after an action that started at
// before (see Turn.Board): an action that passes the turn, or ends the
// game, posts the new board (its note pings whoever must act now), and
// the board it replaces becomes the line of its turn; an action after
// which the same player goes on (the Main action, a Mine or Anti-Air
// placement with uses left) updates the live board in place. During
// Deployment the message is the status message's copy: posted.
func show(t *turn, s *State, before mark, note string) error {
	msg, err := message(t, s, note)
	if err != nil {
		return err
	}
	if len(msg.Files) == 0 {
		t.Post(msg)
		return nil
	}
	after := markOf(s.pos)
	if !s.over() && after.turn == before.turn && after.side == before.side {
		t.UpdateBoard(commands.ChannelOfGame, msg, commands.Message{Content: turnLine(s, s.Cur)})
		return nil
	}
	done := s.Cur
	if after.turn != before.turn {
		done = s.Prev
	}
	if before.turn > 0 {
		t.BoardLine(commands.ChannelOfGame, commands.Message{Content: turnLine(s, done)})
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: turnLine(s, s.Cur)})
	return nil
}

// turnLine is a board's compact form: the public log of the turn it
// showed, on one line.
func turnLine(s *State, entries []engine.Entry) string {
	line := strings.Join(logLines(engine.FilterLog(entries, engine.NoSide), s.describe), " ")
	for _, e := range entries {
		if e.Kind == engine.EntryTurn && e.Turn == 1 {
			// The first turn's line keeps what its board announced.
			line = fmt.Sprintf("Both deployments were revealed. 🪙 The coin is flipped: **%s** moves first. %s", s.pos.First(), line)
			break
		}
	}
	if line == "" {
		line = fmt.Sprintf("**SandTable Chess** · turn %d", s.pos.Turn())
	}
	return commands.ClipLines([]string{line}, 1500)
}

// statusMessage is the public Deployment message: who has confirmed, the
// time left, and the button that opens a private deployment panel.
func statusMessage(t *turn, s *State, note string) commands.Message {
	g, pos := t.Game, s.pos
	state := func(side engine.Side) string {
		switch {
		case pos.Turn() > 0 || pos.Confirmed(side):
			return t.WithRating(s.player(side)) + ": **confirmed** ✅"
		case s.over():
			return t.WithRating(s.player(side)) + ": not confirmed"
		}
		return t.WithRating(s.player(side)) + ": deploying…"
	}
	e := &ui.Card{
		Title: "SandTable Chess: Deployment",
		Description: "Each player places 2 Bases, 4 Tanks, 2 Airplanes, 30 Infantry, 15 Mines and 15 Anti-Air in secret " +
			"(South on ranks 1–9, North on 12–20). Your deployment panel comes by direct message; **Deploy (private)** below opens it again. " +
			"Nothing of a deployment is shown here until both are confirmed; then both are revealed together and a coin decides who moves first.",
		Color: commands.ColorChallenge,
		Fields: []*ui.Field{
			{Name: "South", Value: state(engine.South), Inline: true},
			{Name: "North", Value: state(engine.North), Inline: true},
		},
		Footer: "Game " + g.ID + " · " + t.RatedLabel(s) + " · /sandtable rules · /resign",
	}
	switch {
	case pos.Turn() > 0:
		e.Description = "Each player placed their pieces in secret; no deployment was shown here before both were confirmed."
	case s.over():
		e.Description = "The game ended during Deployment: no deployment is revealed."
	}
	var comps []ui.Row
	switch {
	case s.over():
		e.Color = commands.ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: s.resultLine()})
		e.Footer = "Game " + g.ID + " · " + t.RatedLabel(s) + " · /sandtable rules"
		comps = []ui.Row{{commands.GameButton(g, "rematch", "Rematch", ui.Primary)}}
	case pos.Phase() == engine.PhaseDeployment:
		if d := t.Deadline(); !d.IsZero() {
			e.Fields = append(e.Fields, &ui.Field{Name: "Time", Value: fmt.Sprintf(
				"Deployment time runs out <t:%d:R>. Then a player who has not confirmed loses on time (if neither has, the game is cancelled).", d.Unix())})
		}
		comps = []ui.Row{{
			commands.GameButton(g, "dep-open", "Deploy (private)", ui.Primary),
		}}
	default:
		e.Fields = append(e.Fields, &ui.Field{Name: "Deployment over", Value: "Both deployments were revealed: see the board below."})
	}
	return commands.Message{Content: note, Cards: []*ui.Card{e}, Rows: comps}
}

// boardMessage is the public board after Deployment: the image of the
// public view, whose turn and phase it is, each side's counts and the
// public log of the last turn (issue 7 point 3).
func boardMessage(t *turn, s *State, note string) (commands.Message, error) {
	g, pos := t.Game, s.pos
	log := append(append([]engine.Entry{}, s.Prev...), s.Cur...)
	file, err := viewFile(t, pos, log, engine.NoSide, "board.png")
	if err != nil {
		return commands.Message{}, err
	}
	lines := logLines(engine.FilterLog(log, engine.NoSide), s.describe)
	e := &ui.Card{
		Title:       fmt.Sprintf("SandTable Chess · turn %d", pos.Turn()),
		Description: commands.ClipLines(lines, 3500),
		Image:       "board.png",
		Fields: []*ui.Field{
			{Name: "South: " + commands.EscapeText(s.South.Name, 0) + ratingAfter(t, s.South), Value: countsText(pos.Counts(engine.South)), Inline: true},
			{Name: "North: " + commands.EscapeText(s.North.Name, 0) + ratingAfter(t, s.North), Value: countsText(pos.Counts(engine.North)), Inline: true},
		},
	}
	if n := pos.Counts(engine.NoSide); n.Tanks+n.Airplanes > 0 {
		e.Fields = append(e.Fields, &ui.Field{Name: "Neutral Vehicles (no crew)", Value: commands.Plural(n.Tanks, "Tank", "Tanks") + ", " + commands.Plural(n.Airplanes, "Airplane", "Airplanes"), Inline: true})
	}
	e.Footer = fmt.Sprintf("Game %s · %s · South at the bottom · /move in this thread · /sandtable rules", g.ID, t.RatedLabel(s))
	if s.over() {
		e.Footer = fmt.Sprintf("Game %s · %s · South at the bottom · /sandtable rules", g.ID, t.RatedLabel(s))
	}
	files := []*ui.File{file}
	var comps []ui.Row
	if !s.over() {
		e.Color = sideColor(pos.ToMove())
		var toMove string
		switch {
		case pos.Phase() == engine.PhaseMain:
			toMove = fmt.Sprintf("%s · **Main**: move one Vehicle, or any number of Infantry one step each (/move, or /step to build a private draft).", s.describe(pos.ToMove()))
		case pos.Phase() == engine.PhasePostTurn && pos.Hazards(pos.ToMove()) >= engine.HazardCap:
			toMove = fmt.Sprintf("%s · **PostTurn**: %s left (one per Base). %s has %d Mines and Anti-Air, the cap: only a Drone can be used (**Order a Drone (private)**).",
				s.describe(pos.ToMove()), commands.Plural(pos.HazardUses(), "hazard use", "hazard uses"), pos.ToMove(), pos.Hazards(pos.ToMove()))
		case pos.Phase() == engine.PhasePostTurn:
			toMove = fmt.Sprintf("%s · **PostTurn**: %s left (one per Base). Place a Mine or an Anti-Air next to one of your Infantry on the ground (/move Mf5, /move Af5), or order a Drone in secret with **Order a Drone (private)**.",
				s.describe(pos.ToMove()), commands.Plural(pos.HazardUses(), "hazard use", "hazard uses"))
		}
		if d := t.Deadline(); !d.IsZero() {
			toMove += fmt.Sprintf("\nTime for this turn runs out <t:%d:R>.", d.Unix())
		}
		e.Fields = append(e.Fields, &ui.Field{Name: "To move", Value: toMove})
		if s.Offer != "" {
			e.Fields = append(e.Fields, &ui.Field{Name: "Draw offer", Value: fmt.Sprintf("<@%s> offers a draw (/draw accept or /draw decline).", s.Offer)})
		}
		row := ui.Row{}
		if pos.Phase() == engine.PhasePostTurn {
			row = append(row, commands.GameArgButton(g, "drone", strconv.Itoa(pos.Turn()), "Order a Drone (private)", ui.Primary))
		}
		row = append(row, commands.GameButton(g, "private", "My private view", ui.Secondary),
			commands.GameArgButton(g, "flip", strconv.Itoa(pos.Turn()), "Flip board", ui.Secondary),
			commands.GameButton(g, "zoom", "Zoom", ui.Secondary), historyview.Button(g))
		comps = []ui.Row{row}
	} else {
		e.Color = commands.ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: s.resultLine()})
		rec, err := gameRecord(t, s)
		if err != nil {
			return commands.Message{}, err
		}
		files = append(files, &ui.File{Name: "sandtable-" + g.ID + ".txt", ContentType: "text/plain", Data: []byte(rec)})
		if f, err := recordFile(t, s, engine.NoSide); err != nil {
			return commands.Message{}, err
		} else if f != nil {
			files = append(files, f)
		}
	}
	if s.over() {
		comps = []ui.Row{{commands.GameButton(g, "rematch", "Rematch", ui.Primary), historyview.Button(g), commands.ReplayButton(g),
			commands.GameButton(g, "fullrecord", "My full record", ui.Secondary)}}
	}
	return commands.Message{Content: note, Cards: []*ui.Card{e}, Files: files, Rows: comps}, nil
}

// gameRecord is the public record of a finished game: every public log
// entry, then the final position's public view in the engine's format.
func gameRecord(t *turn, s *State) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# SandTable Chess, game %s\n# South: %s\n# North: %s\n# Started: %s\n# Result: %s\n\n",
		t.Game.ID, s.South.Name, s.North.Name, s.Started.UTC().Format(time.RFC3339), stripMentions(s, s.resultLine()))
	write := func(entries []engine.Entry) {
		for _, e := range engine.FilterLog(entries, engine.NoSide) {
			b.WriteString(e.String())
			b.WriteByte('\n')
		}
	}
	err := t.View(func(tx storage.Tx) error {
		return tx.Logs().Each(t.Game.ID, func(seq int, raw []byte) error {
			if seq > s.LogSeq-len(s.archive) {
				return nil // archived by this very action: in archiveTail
			}
			var turn []engine.Entry
			if err := json.Unmarshal(raw, &turn); err != nil {
				return err
			}
			write(turn)
			return nil
		})
	})
	if err != nil {
		return "", err
	}
	write(s.archiveTail())
	b.WriteString("\n")
	b.WriteString(s.pos.View(engine.NoSide).Format())
	return b.String(), nil
}

// stripMentions replaces the players' mentions by their names, for text
// files.
func stripMentions(s *State, text string) string {
	return strings.NewReplacer(s.South.Mention(), s.South.Name, s.North.Mention(), s.North.Name).Replace(text)
}

// viewFile renders viewer's view of the full position p, with the last
// Main action of log: the public board (NoSide), or a side's private view
// (its deployment draft or pending Drones on top of the public board, its
// own side at the bottom). It is drawn from the engine's view for viewer,
// so nothing of the other side's secrets can reach it.
func viewFile(t *turn, p *engine.Position, log []engine.Entry, viewer engine.Side, name string) (*ui.File, error) {
	return drawView(t.Renderer(), p, log, viewer, name)
}

func drawView(r *render.Renderer, p *engine.Position, log []engine.Entry, viewer engine.Side, name string) (*ui.File, error) {
	return drawViewFrom(r, p, log, viewer, false, name)
}

// drawViewFrom is drawView, with the board turned around (North at the
// bottom of the public view) when flipped.
func drawViewFrom(r *render.Renderer, p *engine.Position, log []engine.Entry, viewer engine.Side, flipped bool, name string) (*ui.File, error) {
	b, v, err := sandboard.Board(p, log, viewer)
	if err != nil {
		return nil, err
	}
	if flipped {
		b.Flipped = !b.Flipped
	}
	var buf bytes.Buffer
	if err := r.SandTablePNG(&buf, &b, v, imageSize); err != nil {
		return nil, fmt.Errorf("rendering the SandTable board: %w", err)
	}
	return &ui.File{Name: name, ContentType: "image/png", Data: buf.Bytes()}, nil
}

// logLines writes a turn log as short lines for people: a header per
// turn, then what happened, without the per-Infantry moves that the action
// line already says and without the PostTurn bookkeeping. Pass entries the
// reader may see.
func logLines(entries []engine.Entry, name func(engine.Side) string) []string {
	var out []string
	for i, e := range entries {
		switch e.Kind {
		case engine.EntryTurn:
			out = append(out, fmt.Sprintf("**Turn %d: %s**", e.Turn, name(e.Side)))
			continue
		case engine.EntryDraft, engine.EntryHazardUses:
			continue
		case engine.EntryMove:
			if !e.Piece.Kind.IsVehicle() {
				continue
			}
		case engine.EntryAction:
			// "South played Mf5." is followed by "South placed Mine SM16 on f5."
			if i+1 < len(entries) && entries[i+1].Kind == engine.EntryPlace {
				continue
			}
		}
		out = append(out, "• "+e.Text)
	}
	return out
}

// countsText is one side's material for the embed (issue 7 point 3):
// Infantry on the ground and in crews, Vehicles it controls, Mines and
// Anti-Air against the cap, Bases, pending Drones.
func countsText(c engine.SideCounts) string {
	return fmt.Sprintf("Infantry: %d on the ground, %d in crews\nVehicles: %s, %s\nMines + Anti-Air: %d + %d = %d of %d\nBases: %d\nDrones pending: %d",
		c.GroundInfantry, c.CrewInfantry, commands.Plural(c.Tanks, "Tank", "Tanks"), commands.Plural(c.Airplanes, "Airplane", "Airplanes"),
		c.Mines, c.AntiAir, c.Hazards, engine.HazardCap, c.Bases, c.PendingDrones)
}

// recordFile is the finished game's machine-readable record
// (docs/sandtable-record.md; ruling G23) as viewer may see it: the
// position after Deployment, both deployments shown, and every action
// after it with its Drone order, but for the orders of the Drones of
// another side than viewer that never resolved, which stay hidden
// (engine.EndLog, ruling D6). NoSide gives the public record the final
// board carries; a side, that player's full record (fullRecord). Nil for
// a game that ended in Deployment or was stored before its start was kept
// (ruling D13).
func recordFile(t *turn, s *State, viewer engine.Side) (*ui.File, error) {
	start, log, err := history(t.View, t.Game.ID, s)
	if err != nil || start == nil {
		return nil, err
	}
	rec, err := engine.NewRecord(start, engine.EndLog(start, log, viewer))
	if err != nil {
		return nil, fmt.Errorf("game %s: record: %w", t.Game.ID, err)
	}
	if o := s.Outcome; o != nil && rec.Result == nil {
		// An end decided outside the rules: a loss on time, or an end
		// without a winner (an abort), as ParseRecord reads them.
		reason := engine.ReasonTimeout
		switch {
		case o.Reason == "adjudicated":
			reason = engine.ReasonAdjudicated
		case o.Winner == engine.NoSide:
			reason = engine.ReasonAbort
		}
		rec.Result = &engine.RecordResult{Winner: o.Winner, Reason: reason}
	}
	data, err := rec.Marshal()
	if err != nil {
		return nil, err
	}
	name := "sandtable-" + t.Game.ID + "-record.json"
	if viewer != engine.NoSide {
		name = "sandtable-" + t.Game.ID + "-" + strings.ToLower(viewer.String()) + "-record.json"
	}
	return &ui.File{Name: name, ContentType: "application/json", Data: data}, nil
}

// fullRecord answers the final board's **My full record**: privately, the
// clicker's own record of the finished game, their side's Drone orders all
// shown, the opponent's that never resolved hidden as in the public record
// (ruling D6). Only the game's players have one.
func fullRecord(t *turn) (*response, error) {
	s := t.State
	side, ok := s.sideOf(t.Req.User.ID)
	if !ok {
		return nil, commands.Errorf("Only the players of this game, %s and %s, have a full record; the public record is attached to the final board.", s.South.Mention(), s.North.Mention())
	}
	if !s.over() {
		return nil, commands.Errorf("The game is still on: its record is made when it ends.")
	}
	f, err := recordFile(t, s, side)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, commands.Errorf("This game has no record: it ended during Deployment, or was stored before the bot kept its start (ruling D13).")
	}
	return &response{Ephemeral: true, Message: commands.Message{
		Content: fmt.Sprintf("Your full record of game %s, as %s: all your Drone orders are in it; those of your opponent that never resolved stay secret (ruling D6).", t.Game.ID, side),
		Files:   []*ui.File{f}}}, nil
}

// ratingAfter is " (1500?)", u's rating in this game's server, for a
// header naming u; "" outside a server.
func ratingAfter(t *turn, u commands.User) string {
	if r := t.RatingOf(u.ID); r != "" {
		return " (" + r + ")"
	}
	return ""
}
