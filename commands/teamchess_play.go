package commands

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/games/teamchess"
	"sandtable/storage"
)

// Team Chess thread commands. They work in the public game thread and in
// both team threads (the router finds the game through channelGamesNS).
// Refusals are private and say who may act instead.

// tcLoadActive loads the game and refuses when it is over.
func tcLoadActive(g *storage.Game) (*tcGame, error) {
	t, err := loadTeamChess(g)
	if err != nil {
		return nil, err
	}
	if t.game.Phase() == teamchess.Finished {
		return nil, Errorf("This game is over: %s.", capitalize(t.game.Result().String()))
	}
	return t, nil
}

// tcLoadCommander loads the game for an action of req's user, refused in
// a finished game and unless they are the active commander of the side
// that must act now; what is the action ("move", "tag out").
func tcLoadCommander(g *storage.Game, req *Request, what string) (*tcGame, error) {
	t, err := tcLoadActive(g)
	if err != nil {
		return nil, err
	}
	turn := t.game.Turn()
	active, _ := t.game.Active(turn)
	side, ok := t.game.SideOf(req.User.ID)
	switch {
	case !ok:
		return nil, Errorf("You are not playing in this game. %s's active commander, %s, is to act.", turn.Title(), label(active))
	case active.ID == req.User.ID:
		return t, nil
	case side != turn:
		return nil, Errorf("It is %s's turn: %s's active commander, %s, is to act. You play for %s.", turn.Title(), turn.Title(), label(active), side.Title())
	}
	msg := fmt.Sprintf("Only the active commander may %s: %s commands %s now.", what, label(active), turn.Title())
	if ok, reason := t.game.CanAdvise(req.User.ID); ok {
		msg += fmt.Sprintf(" You may advise them in your team thread <#%s> (or with `/suggest`).", t.st.TeamThreads[side])
	} else {
		msg += " " + capitalize(reason) + "."
	}
	return nil, Errorf("%s", msg)
}

func tcMove(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := tcLoadCommander(g, req, "move")
	if err != nil {
		return nil, err
	}
	if t.game.Phase() == teamchess.SiegeDecision {
		return nil, Errorf("%s is besieged and has passed: first decide the siege with `/siege win` or `/siege continue`.", t.game.Turn().Other().Title())
	}
	text := req.Str("move")
	if text == "" {
		return nil, Errorf("Write your move in the move option, e.g. `e4`, `Nf3` or `e8=Assassin:xd4`.")
	}
	return a.tcApply(req, t, func() ([]teamchess.Event, error) {
		ev, err := t.game.Play(req.User.ID, text)
		if err != nil {
			return nil, tcRefusal(err, text)
		}
		return ev, nil
	})
}

func tcTagOut(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := tcLoadCommander(g, req, "tag out")
	if err != nil {
		return nil, err
	}
	return a.tcApply(req, t, func() ([]teamchess.Event, error) { return t.game.TagOut(req.User.ID) })
}

func tcResign(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := tcLoadActive(g)
	if err != nil {
		return nil, err
	}
	side, ok := t.game.SideOf(req.User.ID)
	if !ok {
		return nil, Errorf("You are not playing in this game.")
	}
	if active, _ := t.game.Active(side); active.ID != req.User.ID {
		return nil, Errorf("Only %s's active commander, %s, can resign for the team (ruling 6).", side.Title(), label(active))
	}
	return a.tcApply(req, t, func() ([]teamchess.Event, error) { return t.game.Resign(req.User.ID) })
}

func tcSiege(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := tcLoadCommander(g, req, "decide the siege")
	if err != nil {
		return nil, err
	}
	switch req.Sub {
	case "win":
		return a.tcApply(req, t, func() ([]teamchess.Event, error) { return t.game.SiegeWin(req.User.ID) })
	case "continue":
		return a.tcApply(req, t, func() ([]teamchess.Event, error) { return t.game.SiegeContinue(req.User.ID) })
	}
	return nil, Errorf("Use /siege win or /siege continue.")
}

// tcDraw: Team Chess has no draws (ruling 6).
func tcDraw(a *App, req *Request, g *storage.Game) (*Response, error) {
	return nil, Errorf("Team Chess has no draws: a side without a legal move is besieged (rule 2.1), and stagnation with fatigue tag-outs replaces repetition and the 50-move rule (rule 4). To give up, the active commander uses /resign.")
}

// tcBoard shows the board again: the team's view in a team thread.
func tcBoard(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := loadTeamChess(g)
	if err != nil {
		return nil, err
	}
	view := -1
	for _, side := range sides {
		if req.ChannelID == t.st.TeamThreads[side] {
			view = int(side)
		}
	}
	content := t.nextLine(false)
	return publicAnswer(a.tcMessage(t, view, content))
}

// tcRecord answers privately with the game record (rule 7.2): the latest
// entries in the message, all of them in an attached text file.
func tcRecord(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := loadTeamChess(g)
	if err != nil {
		return nil, err
	}
	lines := t.game.RecordLines()
	if len(lines) == 0 {
		return Private("The record is empty: no move yet. Stagnation: White %d/4, Black %d/4.", t.game.Stagnation(chess.White), t.game.Stagnation(chess.Black)), nil
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
	return &Response{Ephemeral: true, Message: Message{
		Cards: []*ui.Card{{
			Title:       "Team Chess record · game " + g.ID,
			Description: head + "\n```\n" + strings.Join(shown, "\n") + "\n```",
			Color:       ColorChallenge,
			Footer:      fmt.Sprintf("Stagnation now: White %d/4, Black %d/4", t.game.Stagnation(chess.White), t.game.Stagnation(chess.Black)),
		}},
		Files: []*ui.File{{Name: "teamchess-" + g.ID + "-record.txt", ContentType: "text/plain", Data: []byte(full)}},
	}}, nil
}

// tcSuggest posts an adviser's suggestion in the team's private thread
// (rule 1.4: only members without a personal loss advise).
func tcSuggest(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := tcLoadActive(g)
	if err != nil {
		return nil, err
	}
	side, ok := t.game.SideOf(req.User.ID)
	if !ok {
		return nil, Errorf("You are not playing in this game, so you cannot advise.")
	}
	if ok, reason := t.game.CanAdvise(req.User.ID); !ok {
		return nil, Errorf("You cannot advise: %s.", reason)
	}
	turn := t.game.Turn()
	if turn != side || t.game.Phase() != teamchess.Playing {
		return nil, Errorf("Suggest a move when %s is to move (now %s is to act). Meanwhile talk in your team thread <#%s>.", side.Title(), turn.Title(), t.st.TeamThreads[side])
	}
	text := req.Str("move")
	pos := t.game.Position()
	m, err := t.game.ParseMove(text)
	if err != nil {
		return nil, tcRefusal(err, text)
	}
	active, _ := t.game.Active(side)
	post := fmt.Sprintf("💡 **%s** suggests **%s** to %s.", t.memberName(req.User.ID), teamchess.SAN(&pos, m), memberUser(active).Mention())
	if c := req.Text("comment"); c != "" {
		post += "\n> " + EscapeText(c, 300)
	}
	if _, err := a.Platform.Send(t.st.TeamThreads[side], Message{Content: post}); err != nil {
		return nil, fmt.Errorf("posting the suggestion: %w", err)
	}
	return Private("Your suggestion was posted in your team thread <#%s>, which only your team sees.", t.st.TeamThreads[side]), nil
}

// tcAutocomplete lists legal moves matching what is typed, cheaply (the
// engine's Complete with Discord's limit of 25), to whoever may use them
// now: for /move the active commander of the side to move, for /suggest
// that side's members who may advise (ruling D10). Anybody else gets no
// choices, as their command would be refused.
func tcAutocomplete(a *App, req *Request, g *storage.Game) (*Response, error) {
	t, err := loadTeamChess(g)
	if err != nil || t.game.Phase() != teamchess.Playing || !t.mayComplete(req.User.ID, req.Command) {
		return &Response{}, err
	}
	var choices []*ui.Choice
	for _, mt := range t.game.Complete(req.Str(req.Focused), 25) {
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
	return &Response{Choices: choices}, nil
}

// tcRules is the /teamchess rules answer (private).
func tcRules(a *App, req *Request) (*Response, error) {
	text := strings.Join([]string{
		"**Teams.** Each side has a queue of commanders; only the first one without a personal loss, the active commander, plays. The others advise in the team's private thread, until they suffer a personal loss (rule 1.4).",
		"**Commands.** `/move` (active commander), `/tagout` at the start of your turn (a personal loss; the next commander continues the turn), `/resign` (active commander of either side), `/siege win` or `/siege continue`, `/board`, `/record`, `/suggest` (advisers, posted privately in the team thread). There are no draws.",
		"**Sacrifices (rule 3).** A pawn reaching the last rank does not promote: it is consumed, and you name its role in the move:",
		"• `e8=RoyalGuard`: your captured Queen returns on e8; mandatory when your Queen is gone, impossible while it is on the board.",
		"• `e8=Assassin:xd4`: removes the opposing piece on d4 (never the King).",
		"• `e8=Saboteur:Nf6`: the opponent's next move is forced to Nf6 (it must be legal).",
		"• `e8=PoliticalAgent`: the opposing active commander suffers a personal loss and the next one takes over.",
		"UCI-style forms work too (`e7e8g`, `e7e8a:d4`, `e7e8s:g8f6`, `e7e8p`), and autocomplete lists the legal moves.",
		"**Siege (rule 2).** A side with no legal move that is not in check passes; the other side takes a dishonourable Siege Win or makes one more move: mate wins (honourable only for a team that never sacrificed); freeing the opponent without mate is a personal fatigue loss.",
		"**Fatigue (rule 4).** 4 turns of a team without a pawn move or capture (per commander) tag its commander out at the end of the round; both teams at once: both lose.",
		"**Move timer.** When the time for a move runs out, the active commander is tagged out with a personal loss and the next one continues.",
		"**Results.** Checkmate: honourable only if the mating team made no 8th-rank sacrifice in the whole game (any role, a mandatory Royal Guard too), otherwise dishonourable (rule 5). Siege Win (dishonourable), Fatigue victory (the other team has no commander left), resignation, mutual loss. `/teamchess leaderboard` ranks team wins, then personal win/loss ratio.",
	}, "\n")
	return &Response{Ephemeral: true, Message: Message{Cards: []*ui.Card{{Title: "Team Chess: how to play here", Description: text, Color: ColorChallenge}}}}, nil
}

// mayComplete reports whether the user may use command ("move" or
// "suggest") with a move of the side to move now.
func (t *tcGame) mayComplete(userID, command string) bool {
	turn := t.game.Turn()
	switch command {
	case "move":
		active, ok := t.game.Active(turn)
		return ok && active.ID == userID
	case "suggest":
		side, ok := t.game.SideOf(userID)
		if !ok || side != turn {
			return false
		}
		ok, _ = t.game.CanAdvise(userID)
		return ok
	}
	return false
}
