package teamchess

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
	tc "sandtable/games/teamchess"
	"sandtable/internal/duration"
)

// The Team Chess board message and the notes announcing each transition.
// Everything here is public information: the same note and board go to the
// public thread and to both team threads (with the team's own view).

// noteText is a transition's announcement: for the public thread (with a
// mention of whoever must act now) and for the team threads (names only,
// so nobody is pinged twice).
type noteText struct {
	public, team string
	// events is what happened, without who acts next: a board's compact
	// form, its line in the thread's record once the next board is posted.
	events string
}

// noteOf describes the transition's events in words.
func noteOf(s *State, c *change) noteText {
	var lines []string
	for _, e := range c.events {
		if l := s.eventLine(e, c); l != "" {
			lines = append(lines, l)
		}
	}
	body := strings.Join(lines, "\n")
	join := func(text, next string) string {
		if next == "" {
			return text
		}
		if text == "" {
			return next
		}
		return text + "\n" + next
	}
	return noteText{public: join(body, s.nextLine(true)), team: join(body, s.nextLine(false)), events: body}
}

func bold(m tc.Member) string { return "**" + label(m) + "**" }

// label is a member's label (name, and "(2nd)" for a second command) for
// a message: its markdown escaped, its mentions broken.
func label(m tc.Member) string { return commands.EscapeText(m.Label(), 0) }

// eventLine is one event of the record as a sentence.
func (st *State) eventLine(e tc.Event, c *change) string {
	side := e.Side.Title()
	opp := e.Side.Other().Title()
	switch e.Kind {
	case tc.MoveEvent:
		s := fmt.Sprintf("%s (%s) played **%s**", bold(e.Commander), side, e.SAN)
		if e.Forced {
			s += ", the move the Saboteur forced"
		}
		s += "."
		switch e.Role {
		case tc.RoyalGuard:
			on := ""
			if len(e.UCI) >= 4 {
				if sq, err := chess.ParseSquare(e.UCI[2:4]); err == nil {
					on = " on " + sq.String() // the sacrifice square (rule 3.1)
				}
			}
			s += fmt.Sprintf(" The pawn is consumed as a **Royal Guard**: %s's captured Queen returns to the board%s (rule 3.1).", side, on)
		case tc.Assassin:
			victim := "a piece"
			if m, err := tc.ParseMove(&c.before, e.UCI); err == nil {
				if sq, ok := m.Target(); ok {
					victim = fmt.Sprintf("%s's %s on %s", opp, c.before.PieceAt(sq).Role(), sq)
				}
			}
			s += fmt.Sprintf(" The pawn is consumed as an **Assassin** and removes %s (rule 3.2).", victim)
		case tc.Saboteur:
			s += " The pawn is consumed as a **Saboteur**"
			if f := st.game.ForcedSAN(); f != "" {
				s += fmt.Sprintf(": %s's next move is forced: **%s** (rule 3.3).", opp, f)
			} else {
				s += " (rule 3.3)."
			}
		case tc.PoliticalAgent:
			s += fmt.Sprintf(" The pawn is consumed as a **Political Agent**: a political revolution in %s's team (rule 3.4).", opp)
		}
		if e.Role != tc.NoRole && st.game.Phase() != tc.Finished && !c.sacrificed[e.Side] {
			s += fmt.Sprintf(" %s has made an 8th-rank sacrifice: its checkmate can no longer be honourable (rule 5), except one made by continuing a siege (rule 2.1).", side)
		}
		return s
	case tc.PassEvent:
		return fmt.Sprintf("%s has no legal move and is not in check: %s is **besieged** and passes (rule 2.1).", side, side)
	case tc.TagOutEvent:
		var s string
		switch e.Reason {
		case tc.Voluntary:
			s = fmt.Sprintf("%s (%s) tagged out (rule 1.2)", bold(e.Commander), side)
		case tc.Fatigue:
			s = fmt.Sprintf("%s (%s) is tagged out by fatigue after 4 turns without a pawn move or capture (rule 4.2)", bold(e.Commander), side)
		case tc.Revolution:
			s = fmt.Sprintf("%s (%s) is deposed by the Political Agent (rule 3.4)", bold(e.Commander), side)
		case tc.SiegeFailure:
			s = fmt.Sprintf("The siege continuation failed: it gave %s a legal move without checkmate (rule 2.1), a fatigue tag-out for %s (%s)", opp, bold(e.Commander), side)
		case tc.Timeout:
			s = fmt.Sprintf("%s (%s) ran out of time for the move and is tagged out (ruling B1)", bold(e.Commander), side)
		default:
			s = fmt.Sprintf("%s (%s) tagged out (%s)", bold(e.Commander), side, e.Reason)
		}
		s += fmt.Sprintf(": a personal loss for %s", label(e.Commander))
		if e.Credited.ID != "" {
			s += fmt.Sprintf(", a personal win for %s", label(e.Credited))
		}
		s += ". "
		if e.Exhausted {
			s += fmt.Sprintf("%s has no commander left.", side)
		} else {
			s += fmt.Sprintf("%s takes command of %s.", bold(e.Incoming), side)
		}
		if !e.Exhausted {
			s += fmt.Sprintf(" %s may no longer advise (rule 1.4).", label(e.Commander))
		}
		return "🔁 " + s
	case tc.SiegeContinueEvent:
		return fmt.Sprintf("%s (%s) declines the Siege Win and makes one more move: %s; a move that gives %s a legal move without mate is a personal fatigue loss (rule 2.1).",
			bold(e.Commander), side, st.siegeMateText(e.Side), opp)
	case tc.GameOverEvent:
		return "🏁 " + st.resultLine(e)
	}
	return ""
}

// siegeMateText says what a checkmate by the attacker's one more move
// would be: rule 2.1 upgrades it to an honourable win whatever the team
// sacrificed (ruling 4).
func (st *State) siegeMateText(attacker chess.Color) string {
	if st.game.Sacrificed(attacker) {
		return fmt.Sprintf("a checkmate upgrades the win to an honourable checkmate, even after %s's 8th-rank sacrifice (rule 2.1)", attacker.Title())
	}
	return "a checkmate upgrades the win to an honourable checkmate"
}

// continuedSiegeMate reports whether the game ended with the mate of a
// siege continuation (rule 2.1; ruling 4 makes it honourable whatever was
// sacrificed, while games stored under older rulings keep their category).
func (st *State) continuedSiegeMate() bool {
	evs := st.game.Events()
	n := len(evs)
	return n >= 3 && evs[n-1].Kind == tc.GameOverEvent && evs[n-2].Kind == tc.MoveEvent && evs[n-3].Kind == tc.SiegeContinueEvent
}

// resultLine says how the game ended and who took the end-of-game personal
// win and loss (rule 6.2).
func (st *State) resultLine(e tc.Event) string {
	r := e.Result
	s := "**" + capitalize(r.String()) + ".**"
	switch r.Category {
	case tc.SiegeWin:
		s += " A Siege Win is dishonourable (rule 5)."
	case tc.DishonourableCheckmate:
		s += " Dishonourable: the mate follows an 8th-rank sacrifice (rule 5)."
	case tc.HonourableCheckmate:
		if st.game.Sacrificed(r.Winner) && st.continuedSiegeMate() {
			s += fmt.Sprintf(" Honourable despite %s's 8th-rank sacrifice: a siege continuation's mate (rule 2.1).", r.Winner.Title())
		} else {
			s += " An honourable win (rule 5)."
		}
	case tc.FatigueVictory:
		s += fmt.Sprintf(" Every %s commander has a personal loss (rule 1.5).", r.Winner.Other().Title())
	case tc.MutualLoss:
		s += " Both teams reached 4 stagnant turns in the same round (rule 4.3)."
	}
	var parts []string
	if e.Credited.ID != "" {
		parts = append(parts, "personal win for "+label(e.Credited))
	}
	for _, m := range e.Debited {
		parts = append(parts, "personal loss for "+label(m))
	}
	if len(parts) > 0 {
		s += " " + capitalize(strings.Join(parts, ", ")) + "."
	}
	return s
}

// abortText is why st was aborted, a clause.
func (st *State) abortText() string {
	if st.AbortReason != "" {
		return st.AbortReason
	}
	return "no move was played before the time ran out (ruling D18)"
}

// nextLine says who must act now; mention pings them.
func (st *State) nextLine(mention bool) string {
	if st.Aborted {
		return fmt.Sprintf("⏹️ The game is **aborted**, not scored: %s. Nobody's record changes.", st.abortText())
	}
	if st.Adjudicated != "" {
		return st.adjudicatedText()
	}
	if st.game.Phase() == tc.Finished {
		if st.hasComputer() {
			return "The game is over. It had computer commanders, so no personal record changes (ruling D27)."
		}
		return "The game is over; the records are updated (/teamchess leaderboard)."
	}
	turn := st.game.Turn()
	active, ok := st.game.Active(turn)
	if !ok {
		return ""
	}
	who := bold(active)
	if mention {
		who = memberUser(active).Mention()
	}
	switch {
	case st.game.Phase() == tc.SiegeDecision:
		return fmt.Sprintf("%s, %s is besieged: take the Siege Win with `/siege win` or make one more move with `/siege continue`.", who, turn.Other().Title())
	case st.game.SiegeContinuing():
		return fmt.Sprintf("%s, make your one more move (%s).", who, turn.Title())
	case st.game.ForcedSAN() != "":
		return fmt.Sprintf("%s, your move (%s) is forced by the Saboteur: **%s**.", who, turn.Title(), st.game.ForcedSAN())
	}
	s := fmt.Sprintf("%s, your move (%s).", who, turn.Title())
	if st.game.InCheck() {
		s = fmt.Sprintf("%s, your move (%s): you are in check.", who, turn.Title())
	}
	return s
}

// message is the board post of st (the state t saves, or t's) for one
// view: -1 the public thread, 0 and 1 White's and Black's team threads
// (the team's side at the bottom).
func message(t *turn, st *State, view int, content string) (commands.Message, error) {
	pos := st.game.Position()
	over := st.over()
	// The public board always from White's side (ruling D17), a team's
	// from its own.
	file, err := boardFile(t, st, view == int(chess.Black))
	if err != nil {
		return commands.Message{}, err
	}
	title := "Team Chess"
	if view >= 0 {
		title += " · " + chess.Color(view).Title() + " team thread (private)"
	}
	e := &ui.Card{
		Title:  title,
		Image:  "board.png",
		Footer: "Game " + t.Game.ID + " · " + t.RatedLabel(st) + " · /move /tagout /siege /resign /record · /teamchess rules",
	}
	if over {
		e.Footer = "Game " + t.Game.ID + " · " + t.RatedLabel(st) + " · /record · /teamchess leaderboard"
	}
	for _, side := range sides {
		e.Fields = append(e.Fields, &ui.Field{
			Name:   fmt.Sprintf("%s · stagnation %d/4", side.Title(), st.game.Stagnation(side)),
			Value:  st.queueText(side, t.RatingOf),
			Inline: true,
		})
	}
	if l := st.lastMoveText(); l != "" {
		e.Fields = append(e.Fields, &ui.Field{Name: "Last move", Value: l})
	}
	files := []*ui.File{file}
	if over {
		e.Color = commands.ColorOver
		for _, ev := range st.game.Events() {
			if ev.Kind == tc.GameOverEvent {
				e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: st.resultLine(ev)})
			}
		}
		if view < 0 {
			// The PGN needs the whole record: the actions replayed.
			full, err := st.game.Replay()
			if err != nil {
				return commands.Message{}, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
			}
			pgn := full.PGN([]chess.Tag{
				{Name: "Event", Value: "SandTable Bot Team Chess"},
				{Name: "Site", Value: "Discord"},
				{Name: "Date", Value: st.Started.UTC().Format("2006.01.02")},
				{Name: "GameID", Value: t.Game.ID},
				{Name: "MoveTime", Value: moveTimeText(st.MoveTime)},
			})
			files = append(files, &ui.File{Name: "teamchess-" + t.Game.ID + ".pgn", ContentType: "application/x-chess-pgn", Data: []byte(pgn)})
		}
	} else {
		turn := st.game.Turn()
		e.Color = commands.ColorWhite
		if turn == chess.Black {
			e.Color = commands.ColorBlack
		}
		active, _ := st.game.Active(turn)
		name, value := "To move", fmt.Sprintf("%s: %s, move %d", turn.Title(), memberUser(active).Mention(), pos.FullmoveNumber())
		if st.game.InCheck() {
			value += fmt.Sprintf("\n**Check:** %s is in check.", turn.Title())
		}
		switch {
		case st.game.Phase() == tc.SiegeDecision:
			name = "Siege decision (rule 2.1)"
			value = fmt.Sprintf("%s has no legal move and is not in check: it is besieged and passed.\n%s (%s) decides: `/siege win` takes the Siege Win (dishonourable), `/siege continue` makes one more move: %s; a move that gives %s a legal move without mate is a personal fatigue loss.",
				turn.Other().Title(), memberUser(active).Mention(), turn.Title(), st.siegeMateText(turn), turn.Other().Title())
		case st.game.SiegeContinuing():
			name = "Siege continuation (rule 2.1)"
			value = fmt.Sprintf("%s (%s) declined the Siege Win and makes one more move.", memberUser(active).Mention(), turn.Title())
		}
		if d := t.Deadline(); !d.IsZero() {
			value += fmt.Sprintf("\nTime runs out <t:%d:R> (then the commander is tagged out, ruling B1).", d.Unix())
		}
		e.Fields = append(e.Fields, &ui.Field{Name: name, Value: value})
		if f := st.game.ForcedSAN(); f != "" {
			e.Fields = append(e.Fields, &ui.Field{
				Name:  "Forced move (Saboteur, rule 3.3)",
				Value: fmt.Sprintf("%s must play **%s**. The active commander may still tag out first; whoever is then active plays it.", turn.Title(), f),
			})
		}
	}
	var row ui.Row
	if !over && st.game.Phase() == tc.Playing {
		row = append(row, pickButton(t, st))
	}
	switch {
	case view < 0 && !over:
		row = append(row, commands.GameArgButton(t.Game, "flip", st.plyStamp(), "Flip board", ui.Secondary), historyview.Button(t.Game))
	case view < 0:
		// The public final board offers a rematch, sides swapped (ruling D20).
		row = append(row, commands.GameButton(t.Game, "rematch", "Rematch", ui.Primary), historyview.Button(t.Game))
		if st.anyMove() { // no replay of zero moves
			row = append(row, commands.ReplayButton(t.Game))
		}
		if st.analysable() {
			row = append(row, commands.AnalysisButton(t.Game))
		}
	}
	var rows []ui.Row
	if len(row) > 0 {
		rows = []ui.Row{row}
	}
	return commands.Message{Content: content, Cards: []*ui.Card{e}, Files: files, Rows: rows}, nil
}

// boardFile draws st's position with its last move marked, Black at the
// bottom when flipped.
func boardFile(t *turn, st *State, flipped bool) (*ui.File, error) {
	pos := st.game.Position()
	var last []chess.Square
	if m, ok := st.game.LastMove(); ok {
		last = []chess.Square{m.Board.From(), m.Board.To()}
		if sq, ok := m.Target(); ok {
			last = append(last, sq)
		}
	}
	return chessui.ChessBoard(t.Renderer(), t.Settings().BoardSize, &pos, last, chessui.BoardView{Flipped: flipped})
}

// plyStamp names the position a public board shows (plies played), so
// Flip can tell a board of an earlier position.
func (st *State) plyStamp() string {
	pos := st.game.Position()
	ply := 2 * (pos.FullmoveNumber() - 1)
	if pos.Turn() == chess.Black {
		ply++
	}
	return strconv.Itoa(ply)
}

// flip shows the clicker, privately, the board now from Black's side (the
// public board is drawn from White's), saying so when the board clicked
// shows an earlier position: Team Chess does not replay old positions
// for it (ruling D17).
func flip(t *turn) (*response, error) {
	st := t.State
	file, err := boardFile(t, st, true)
	if err != nil {
		return nil, err
	}
	note := "The board from Black's side:"
	if id, _ := commands.ParseCustomID(t.Req.CustomID); id.Arg != "" && id.Arg != st.plyStamp() {
		note = "That board shows an earlier position; the board now from Black's side:"
	}
	return &response{Ephemeral: true, Message: commands.Message{Content: note, Files: []*ui.File{file}}}, nil
}

// queueText lists side's commanders in queue order with their personal
// wins and losses in this game.
func (st *State) queueText(side chess.Color, rating func(userID string) string) string {
	over := st.over()
	activeIdx := st.game.ActiveIndex(side)
	var lines []string
	for i, c := range st.game.Commanders(side) {
		name := memberUser(c.Member).Mention()
		if r := rating(c.Member.ID); r != "" {
			name += " (" + r + ")"
		}
		if c.Term == 2 {
			name += " (2nd command)"
		}
		losses := 0
		if c.Lost {
			losses = 1
		}
		rec := fmt.Sprintf("+%d -%d", c.Wins, losses)
		switch {
		case c.Lost:
			lines = append(lines, fmt.Sprintf("%d. ~~%s~~ %s · personal loss", i+1, name, rec))
		case i == activeIdx && !over:
			lines = append(lines, fmt.Sprintf("%d. ▶ %s %s · commanding", i+1, name, rec))
		case i == activeIdx:
			lines = append(lines, fmt.Sprintf("%d. %s %s · commanded last", i+1, name, rec))
		default:
			lines = append(lines, fmt.Sprintf("%d. %s %s", i+1, name, rec))
		}
	}
	return strings.Join(lines, "\n")
}

// lastMoveText is the latest move with its number ("12... e1=RoyalGuard").
func (st *State) lastMoveText() string {
	events := st.game.Events()
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		if e.Kind != tc.MoveEvent {
			continue
		}
		dots := "."
		if e.Side == chess.Black {
			dots = "..."
		}
		s := fmt.Sprintf("%d%s %s (%s)", e.MoveNumber, dots, e.SAN, label(e.Commander))
		if e.Forced {
			s += ", forced by the Saboteur"
		}
		return s
	}
	return ""
}

// moveTimeText is the per-move limit for people ("1d", or "none").
func moveTimeText(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return duration.Format(d)
}

// hasComputer reports whether a computer commander plays in the game (it
// then changes no personal record, ruling D27).
func (st *State) hasComputer() bool {
	for _, side := range sides {
		for _, m := range st.game.Members(side) {
			if commands.IsComputer(m.ID) {
				return true
			}
		}
	}
	return false
}
