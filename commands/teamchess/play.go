package teamchess

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
)

// Team Chess's commands. The thread commands work in the public game
// thread and in both team threads (the team threads are linked to the
// game). Refusals are private and say who may act instead.

var dmPermission = false

// Spec names Team Chess's commands and routes.
func (Game) Spec() commands.Spec[*State] {
	moveOpt := &ui.CommandOption{
		Type: ui.String, Name: "move",
		Description: "A move (e4, Nf3) or a sacrifice: e8=Assassin:xd4, e8=Saboteur:Nf6, e8=RoyalGuard, e8=PoliticalAgent",
		Required:    true, Autocomplete: true, MaxLength: 200,
	}
	return commands.Spec[*State]{
		Name:  Kind,
		Title: Title,
		Definitions: []*ui.Command{
			{
				Name:         "teamchess",
				Description:  "Team Chess: teams of commanders, tag-outs, 8th-rank sacrifices, fatigue and sieges",
				DMPermission: &dmPermission,
				Options: []*ui.CommandOption{
					{
						Type: ui.Subcommand, Name: "new", Description: "Open a lobby for a new Team Chess game",
						Options: []*ui.CommandOption{{
							Type: ui.String, Name: "move_time",
							Description: "Time for each move, e.g. 30m, 24h, 3d; then the commander is tagged out (default: server's)",
							MaxLength:   20,
						}, commands.CasualOption()},
					},
					{Type: ui.Subcommand, Name: "leaderboard", Description: "This server's Team Chess ranking (team wins, then personal win/loss ratio)"},
					{
						Type: ui.Subcommand, Name: "stats", Description: "A player's Team Chess record in this server",
						Options: []*ui.CommandOption{{Type: ui.User, Name: "user", Description: "Whose record (default: yours)"}},
					},
					{Type: ui.Subcommand, Name: "rules", Description: "How to play Team Chess here: commands and sacrifice notation"},
				},
			},
			{Name: "tagout", Description: "Team Chess: tag out at the start of your turn (a personal loss; the next commander takes over)", DMPermission: &dmPermission},
			{
				Name: "siege", Description: "Team Chess: decide a siege (the opponent has no legal move and passed)", DMPermission: &dmPermission,
				Options: []*ui.CommandOption{
					{Type: ui.Subcommand, Name: "win", Description: "Take the Siege Win (a dishonourable win)"},
					{Type: ui.Subcommand, Name: "continue", Description: "Make one more move to try for checkmate (a failure is a personal fatigue loss)"},
				},
			},
			{Name: "record", Description: "Team Chess: the game record (moves, sacrifices, tag-outs, stagnation counters)", DMPermission: &dmPermission},
			{
				Name: "suggest", Description: "Team Chess: suggest a move to your active commander, privately in your team thread", DMPermission: &dmPermission,
				Options: []*ui.CommandOption{
					moveOpt,
					{Type: ui.String, Name: "comment", Description: "Why (shown with the suggestion)", MaxLength: 300},
				},
			},
		},
		RatingSides: ratingSides,
		// Team Chess has no draws: a rated game without a winner is a
		// mutual loss (rule 4.3), rated as a draw (ruling D28).
		NoWinner: "mutual loss",
		Abort: func(t *turn, why string) error {
			_, err := abort(t, t.State.clone(), nil, why)
			return err
		},
		Results:     results,
		Adjudicate:  adjudicate,
		Leaderboard: leaderboard,
		TopLevel: map[string]commands.Handler{"teamchess": commands.Subcommands("teamchess", map[string]commands.Handler{
			"new":         lobbyNew,
			"leaderboard": leaderboard,
			"stats":       stats,
			"rules":       rulesAnswer,
		})},
		Thread: map[string]commands.Action[*State]{
			"move":    move,
			"tagout":  tagOut,
			"resign":  resign,
			"siege":   siege,
			"board":   board,
			"record":  record,
			"suggest": suggest,
			"draw":    draw,
			// history: the viewer (history.go), as /history.
			commands.HistoryAction: history,
		},
		Autocomplete: map[string]commands.Action[*State]{"move": autocomplete, "suggest": autocomplete},
		WhoseTurn:    whoseTurn,
		Computer:     computer(),
		MayComplete:  func(t *turn) bool { return t.State.mayComplete(t.Req.User.ID, t.Req.Command) },
		// flip shows Black's side; pick is the move picker (picker.go);
		// tagout and resign are the confirmed runs of /tagout and /resign
		// (see commands.Turn.Ask); rematch is the final board's (ruling D20);
		// history opens the viewer (history.go).
		Components: map[string]commands.Action[*State]{"flip": flip, "pick": pick, "tagout": tagOut, "resign": resign, "rematch": rematch, commands.HistoryAction: history},
		Invitations: map[string]commands.Handler{
			"join-white": lobbyJoin,
			"computer":   lobbyComputer,
			"join-black": lobbyJoin,
			"leave":      lobbyLeave,
			"start":      lobbyStart,
			"cancel":     lobbyCancel,
			"move-up":    lobbyMoveUp,
			"double":     lobbyDouble,
		},
		LobbyExpired: lobbyExpired,
		Private:      private,
		// The team threads are archived and locked with the public thread
		// at the end (ruling D21).
		OtherThreads: func(s *State) []string { return s.TeamThreads[:] },
		Replay:       replay,
		Analysis:     analysisSpec(),
		RecordName:   "PGN",
		Versus:       versus,
	}
}

// private: a suggestion goes to the team thread only, so its command (and
// the move in it) must not show in the channel it is typed in; the record
// and the rules are long answers for the asker; an action's news is the
// live board it posts in every thread, so its user is answered privately,
// as is /board.
func private(req *commands.Request) bool {
	if req.Type != commands.CommandRequest {
		return false
	}
	switch req.Command {
	case "suggest", "record", "move", "tagout", "resign", "siege", "board":
		return true
	case "teamchess":
		return req.Sub == "rules"
	}
	return false
}

// active refuses an action in a finished game.
func active(t *turn) error {
	if t.State.Aborted {
		return commands.Errorf("This game is over: it was aborted: %s.", t.State.abortText())
	}
	if t.State.Adjudicated != "" {
		return commands.Errorf("This game is over. %s", t.State.adjudicatedText())
	}
	if g := t.State.game; g.Phase() == tc.Finished {
		return commands.Errorf("This game is over: %s.", capitalize(g.Result().String()))
	}
	return nil
}

// commander refuses an action of t's user (what: "move", "tag out") in a
// finished game and unless they are the active commander of the side that
// must act now.
func commander(t *turn, what string) error {
	if err := active(t); err != nil {
		return err
	}
	g := t.State.game
	turn := g.Turn()
	act, _ := g.Active(turn)
	side, ok := g.SideOf(t.Req.User.ID)
	switch {
	case !ok:
		return commands.Errorf("You are not playing in this game. %s's active commander, %s, is to act.", turn.Title(), label(act))
	case act.ID == t.Req.User.ID:
		return nil
	case side != turn:
		return commands.Errorf("It is %s's turn: %s's active commander, %s, is to act. You play for %s.", turn.Title(), turn.Title(), label(act), side.Title())
	}
	msg := fmt.Sprintf("Only the active commander may %s: %s commands %s now.", what, label(act), turn.Title())
	if ok, reason := g.CanAdvise(t.Req.User.ID); ok {
		msg += fmt.Sprintf(" You may advise them in your team thread <#%s> (or with `/suggest`).", t.State.TeamThreads[side])
	} else {
		msg += " " + capitalize(reason) + "."
	}
	return commands.Errorf("%s", msg)
}

// apply runs one engine action on a copy of the state, saves it and
// announces it: the new live board in the public thread and each team
// thread; the user who acted is answered privately with what happened (in
// place of the confirmation prompt a Confirm button was on).
func apply(t *turn, action func(g *tc.Game) ([]tc.Event, error)) (*response, error) {
	s := t.State.clone()
	c := changeOf(s.game)
	var err error
	c.events, err = action(s.game)
	if err != nil {
		return nil, refusal(err, "")
	}
	msg, err := transition(t, s, c)
	if err != nil {
		return nil, err
	}
	return &response{Ephemeral: true, Update: t.Confirmed(), Message: msg}, nil
}

func move(t *turn) (*response, error) { return playMove(t, t.Req.Str("move")) }

// mayMove refuses t's user a move now: the game is over, they are not the
// active commander of the side to act, or a siege must be decided first.
func mayMove(t *turn) error {
	if err := commander(t, "move"); err != nil {
		return err
	}
	if g := t.State.game; g.Phase() == tc.SiegeDecision {
		return commands.Errorf("%s is besieged and has passed: first decide the siege with `/siege win` or `/siege continue`.", g.Turn().Other().Title())
	}
	return nil
}

// playMove plays the move text for t's user: /move's typed move, or the
// move a picker completed (picker.go), on one path (the same checks,
// effects and answer).
func playMove(t *turn, text string) (*response, error) {
	if err := mayMove(t); err != nil {
		return nil, err
	}
	if text == "" {
		return nil, commands.Errorf("Write your move in the move option, e.g. `e4`, `Nf3` or `e8=Assassin:xd4`.")
	}
	return apply(t, func(g *tc.Game) ([]tc.Event, error) {
		ev, err := g.Play(t.Req.User.ID, text)
		if err != nil {
			return nil, refusal(err, text)
		}
		return ev, nil
	})
}

func tagOut(t *turn) (*response, error) {
	if err := mayTagOut(t); err != nil {
		return nil, err
	}
	// Refused before asking, when the engine would refuse it.
	after := t.State.clone()
	if _, err := after.game.TagOut(t.Req.User.ID); err != nil {
		return nil, refusal(err, "")
	}
	ask := "Tag out? You leave command of your side for good, and it counts as a loss in your personal record."
	if !after.over() && !after.personSeated() {
		ask += " You are the last person seated: only computer commanders would remain, so the game will be aborted (ruling D31)."
	}
	if r := t.Ask("tagout", "", ask); r != nil {
		return r, nil
	}
	return apply(t, func(g *tc.Game) ([]tc.Event, error) { return g.TagOut(t.Req.User.ID) })
}

// mayTagOut refuses t's user a tag-out now: the game is over, they are
// not the active commander of the side to act (nor, during a siege
// decision, of the besieged side, whose turn was its pass: ruling A2), or
// they are their team's last commander, who has nobody to hand over to and
// resigns instead (ruling A3).
func mayTagOut(t *turn) error {
	if err := active(t); err != nil {
		return err
	}
	g := t.State.game
	side, ok := g.SideOf(t.Req.User.ID)
	act, _ := g.Active(side)
	switch besieged := ok && g.Phase() == tc.SiegeDecision && side != g.Turn(); {
	case !besieged:
		if err := commander(t, "tag out"); err != nil {
			return err
		}
	case act.ID != t.Req.User.ID:
		return commands.Errorf("Only %s's active commander, %s, may tag out.", side.Title(), label(act))
	}
	// After a siege continuation the engine's refusal says why first.
	if g.LastCommander(side) && !g.SiegeContinuing() {
		return commands.Errorf("You are %s's last commander: a tag-out hands command to the next commander of your team (rule 1.2), and %s has nobody left. To give up the game, use `/resign`.", side.Title(), side.Title())
	}
	return nil
}

func resign(t *turn) (*response, error) {
	if err := active(t); err != nil {
		return nil, err
	}
	g := t.State.game
	side, ok := g.SideOf(t.Req.User.ID)
	if !ok {
		return nil, commands.Errorf("You are not playing in this game.")
	}
	if act, _ := g.Active(side); act.ID != t.Req.User.ID {
		return nil, commands.Errorf("Only %s's active commander, %s, can resign for the team (ruling 6).", side.Title(), label(act))
	}
	if r := t.Ask("resign", "", fmt.Sprintf("Resign for %s? Your side loses the game.", side.Title())); r != nil {
		return r, nil
	}
	return apply(t, func(g *tc.Game) ([]tc.Event, error) { return g.Resign(t.Req.User.ID) })
}

func siege(t *turn) (*response, error) {
	if err := commander(t, "decide the siege"); err != nil {
		return nil, err
	}
	switch t.Req.Sub {
	case "win":
		return apply(t, func(g *tc.Game) ([]tc.Event, error) { return g.SiegeWin(t.Req.User.ID) })
	case "continue":
		return apply(t, func(g *tc.Game) ([]tc.Event, error) { return g.SiegeContinue(t.Req.User.ID) })
	}
	return nil, commands.Errorf("Use /siege win or /siege continue.")
}

// draw: Team Chess has no draws (ruling 6).
func draw(t *turn) (*response, error) {
	return nil, commands.Errorf("Team Chess has no draws: a side without a legal move is besieged (rule 2.1), and stagnation with fatigue tag-outs replaces repetition and the 50-move rule (rule 4). To give up, the active commander uses /resign.")
}

// board shows the board again to its asker, privately (the thread's live
// board stays the one at the bottom): the team's view in a team thread.
func board(t *turn) (*response, error) {
	s := t.State
	view := -1
	for _, side := range sides {
		if t.Req.ChannelID == s.TeamThreads[side] {
			view = int(side)
		}
	}
	msg, err := message(t, s, view, s.nextLine(false))
	if err != nil {
		return nil, err
	}
	return &response{Ephemeral: true, Message: msg}, nil
}

// record answers privately with the game record (rule 7.2): the latest
// entries in the message, all of them in an attached text file. The
// whole record needs the game's actions replayed.
func record(t *turn) (*response, error) {
	g, err := t.State.game.Replay()
	if err != nil {
		return nil, fmt.Errorf("game %s: replay: %w", t.Game.ID, err)
	}
	lines := g.RecordLines()
	if len(lines) == 0 {
		return commands.Private("The record is empty: no move yet. Stagnation: White %d/4, Black %d/4.", g.Stagnation(chess.White), g.Stagnation(chess.Black)), nil
	}
	// The message shows as many of the latest entries as fit.
	shown := []string{}
	size := 0
	for i := len(lines) - 1; i >= 0; i-- {
		n := utf8.RuneCountInString(lines[i]) + 1
		if size+n > 3600 {
			break
		}
		shown = append([]string{lines[i]}, shown...)
		size += n
	}
	head := fmt.Sprintf("All %d entries (moves, sacrifices, passes, tag-outs, siege choices, result), each with both stagnation counters after it.", len(lines))
	if len(shown) < len(lines) {
		head = fmt.Sprintf("The latest %d of %d entries; the full record is attached.", len(shown), len(lines))
	}
	full := strings.Join(lines, "\n") + "\n"
	id := t.Game.ID
	return &response{Ephemeral: true, Message: commands.Message{
		Cards: []*ui.Card{{
			Title:       "Team Chess record · game " + id,
			Description: head + "\n```\n" + strings.Join(shown, "\n") + "\n```",
			Color:       commands.ColorChallenge,
			Footer:      fmt.Sprintf("Stagnation now: White %d/4, Black %d/4", g.Stagnation(chess.White), g.Stagnation(chess.Black)),
		}},
		Files: []*ui.File{{Name: "teamchess-" + id + "-record.txt", ContentType: "text/plain", Data: []byte(full)}},
	}}, nil
}

// suggest posts an adviser's suggestion in the team's private thread
// (rule 1.4: only members without a personal loss advise).
func suggest(t *turn) (*response, error) {
	if err := active(t); err != nil {
		return nil, err
	}
	s, g, req := t.State, t.State.game, t.Req
	side, ok := g.SideOf(req.User.ID)
	if !ok {
		return nil, commands.Errorf("You are not playing in this game, so you cannot advise.")
	}
	if ok, reason := g.CanAdvise(req.User.ID); !ok {
		return nil, commands.Errorf("You cannot advise: %s.", reason)
	}
	turn := g.Turn()
	if turn != side || g.Phase() != tc.Playing {
		return nil, commands.Errorf("Suggest a move when %s is to move (now %s is to act). Meanwhile talk in your team thread <#%s>.", side.Title(), turn.Title(), s.TeamThreads[side])
	}
	text := req.Str("move")
	pos := g.Position()
	m, err := g.ParseMove(text)
	if err != nil {
		return nil, refusal(err, text)
	}
	act, _ := g.Active(side)
	post := fmt.Sprintf("💡 **%s** suggests **%s** to %s.", s.memberName(req.User.ID), tc.SAN(&pos, m), memberUser(act).Mention())
	if c := req.Text("comment"); c != "" {
		post += "\n> " + commands.EscapeText(c, 300)
	}
	t.PostIn(s.TeamThreads[side], commands.Message{Content: post})
	return commands.Private("Your suggestion was posted in your team thread <#%s>, which only your team sees.", s.TeamThreads[side]), nil
}

// maxChoiceLen is Discord's limit on an autocomplete choice's name and
// value.
const maxChoiceLen = 100

// autocomplete lists legal moves matching what is typed, cheaply (the
// engine's Complete with Discord's limit of 25), to whoever may use them
// now: for /move the active commander of the side to move, for /suggest
// that side's members who may advise (ruling D10). Anybody else gets no
// choices, as their command would be refused.
func autocomplete(t *turn) (*response, error) {
	s, req := t.State, t.Req
	if s.game.Phase() != tc.Playing {
		return &response{}, nil
	}
	var choices []*ui.Choice
	for _, mt := range s.game.Complete(req.Str(req.Focused), 25) {
		if utf8.RuneCountInString(mt.UCI) > maxChoiceLen {
			continue
		}
		name := mt.SAN
		if mt.UCI != mt.SAN {
			name += " (" + mt.UCI + ")"
		}
		if utf8.RuneCountInString(name) > maxChoiceLen {
			name = mt.SAN
		}
		if utf8.RuneCountInString(name) > maxChoiceLen {
			continue
		}
		choices = append(choices, &ui.Choice{Name: name, Value: mt.UCI})
	}
	return &response{Choices: choices}, nil
}

// rulesAnswer is the /teamchess rules answer (private).
func rulesAnswer(a *commands.App, req *commands.Request) (*response, error) {
	text := strings.Join([]string{
		"**Teams.** Each side has a queue of commanders; only the first one without a personal loss, the active commander, plays. The others advise in the team's private thread, until they suffer a personal loss (rule 1.4).",
		"**Commands.** `/move` (active commander), `/tagout` at the start of your turn, also while your side is besieged (a personal loss; the next commander continues the turn; a team's last commander cannot tag out, it may resign), `/resign` (active commander of either side), `/siege win` or `/siege continue`, `/board`, `/record`, `/suggest` (advisers, posted privately in the team thread). There are no draws.",
		"**Sacrifices (rule 3).** A pawn reaching the last rank does not promote: it is consumed, and you name its role in the move:",
		"• `e8=RoyalGuard`: your captured Queen returns on e8; mandatory when your Queen is gone, impossible while it is on the board.",
		"• `e8=Assassin:xd4`: removes the opposing piece on d4 (never the King).",
		"• `e8=Saboteur:Nf6`: the opponent's next move is forced to Nf6 (it must be legal).",
		"• `e8=PoliticalAgent`: the opposing active commander suffers a personal loss and the next one takes over.",
		"UCI-style forms work too (`e7e8g`, `e7e8a:d4`, `e7e8s:g8f6`, `e7e8p`), and autocomplete lists the legal moves. In SAN the letter P is no role: write `e8=PA` or `e8=PoliticalAgent`.",
		"**Siege (rule 2).** A side with no legal move that is not in check passes; the other side takes a dishonourable Siege Win or makes one more move: mate wins honourably, whatever the team sacrificed (rule 2.1); freeing the opponent without mate is a personal fatigue loss.",
		"**Fatigue (rule 4).** 4 turns of a team without a pawn move or capture (per commander) tag its commander out at the end of the round; both teams at once: both lose.",
		"**Move timer.** When the time for a move runs out, the active commander is tagged out with a personal loss and the next one continues.",
		"**Results.** Checkmate: honourable only if the mating team made no 8th-rank sacrifice in the whole game (any role, a mandatory Royal Guard too), otherwise dishonourable (rule 5), except a siege continuation's mate, always honourable (rule 2.1). Siege Win (dishonourable), Fatigue victory (the other team has no commander left), resignation, mutual loss. `/teamchess leaderboard` ranks team wins, then personal win/loss ratio.",
	}, "\n")
	return &response{Ephemeral: true, Message: commands.Message{Cards: []*ui.Card{{Title: "Team Chess: how to play here", Description: text, Color: commands.ColorChallenge}}}}, nil
}

// whoseTurn is the one autocomplete choice of whoever may not use /move
// or /suggest now (ruling D10).
func whoseTurn(st *State) string {
	if st.over() {
		return "This game is over"
	}
	turn := st.game.Turn()
	active, _ := st.game.Active(turn)
	if st.game.Phase() == tc.SiegeDecision {
		return fmt.Sprintf("Waiting for %s (%s) to decide the siege", active.Name, turn.Title())
	}
	return fmt.Sprintf("Waiting for %s (%s) to move", active.Name, turn.Title())
}

// mayComplete reports whether the user may use command ("move" or
// "suggest") with a move of the side to move now, the game being on.
func (st *State) mayComplete(userID, command string) bool {
	if st.over() {
		return false
	}
	turn := st.game.Turn()
	switch command {
	case "move":
		active, ok := st.game.Active(turn)
		return ok && active.ID == userID
	case "suggest":
		side, ok := st.game.SideOf(userID)
		if !ok || side != turn {
			return false
		}
		ok, _ = st.game.CanAdvise(userID)
		return ok
	}
	return false
}
