package commands

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/games/teamchess"
	"sandtable/internal/duration"
	"sandtable/storage"
)

// The Team Chess lobby: /teamchess new posts it; players join a side (the
// queue order is the join order); the creator reorders the queues, grants
// a second command to balance a smaller team (rule 1.1, ruling A1), and
// starts. The lobby is kept in the store's lobbies (storage.Tx.Lobbies), so its buttons (scope "c")
// reach this kind through the router.

// tcMaxTeam is the most distinct members a team may have in a lobby (the
// queue select menus stay under Discord's 25 options).
const tcMaxTeam = 10

// tcLobby is a stored lobby.
type tcLobby struct {
	ID        string        `json:"id"`
	Kind      string        `json:"kind"`
	GuildID   string        `json:"guild_id"`
	ChannelID string        `json:"channel_id"`
	Creator   User          `json:"creator"`
	White     []User        `json:"white"` // queue order; a user twice has a second command
	Black     []User        `json:"black"`
	MoveTime  time.Duration `json:"move_time"`
	Created   time.Time     `json:"created"`
	// TTL is how long the lobby stays open after its last change
	// (Settings.LobbyTTL when it opened; zero in lobbies older than expiry).
	TTL time.Duration `json:"ttl,omitempty"`
	// MessageID is the lobby's message, for its expiry to close it.
	MessageID string `json:"message_id,omitempty"`
	// StartFEN is the start position; empty for the standard start. No
	// command sets it: only tests write it into the stored lobby, to start
	// games from special positions.
	StartFEN string `json:"start_fen,omitempty"`
}

func (l *tcLobby) queue(side chess.Color) *[]User {
	if side == chess.White {
		return &l.White
	}
	return &l.Black
}

// distinct counts side's distinct members.
func (l *tcLobby) distinct(side chess.Color) int {
	seen := map[string]bool{}
	for _, u := range *l.queue(side) {
		seen[u.ID] = true
	}
	return len(seen)
}

// sideOf returns the side u has joined.
func (l *tcLobby) sideOf(id string) (chess.Color, bool) {
	for _, side := range sides {
		for _, u := range *l.queue(side) {
			if u.ID == id {
				return side, true
			}
		}
	}
	return chess.White, false
}

// doubled returns the member of side with a second command, if any.
func (l *tcLobby) doubled(side chess.Color) (User, bool) {
	count := map[string]int{}
	for _, u := range *l.queue(side) {
		count[u.ID]++
		if count[u.ID] == 2 {
			return u, true
		}
	}
	return User{}, false
}

// remove takes every command of id out of the lobby.
func (l *tcLobby) remove(id string) {
	for _, side := range sides {
		q := l.queue(side)
		out := (*q)[:0]
		for _, u := range *q {
			if u.ID != id {
				out = append(out, u)
			}
		}
		*q = out
	}
}

// dropSecond removes the later of a member's two commands on side.
func (l *tcLobby) dropSecond(side chess.Color, id string) {
	q := l.queue(side)
	for i := len(*q) - 1; i >= 0; i-- {
		if (*q)[i].ID == id {
			*q = append((*q)[:i], (*q)[i+1:]...)
			return
		}
	}
}

// canDouble reports whether side may give one member a second command now
// (rule 1.1 as ruling A1 reads it: only the team with fewer members, never
// making its queue longer than the other's, one member at most).
func (l *tcLobby) canDouble(side chess.Color) bool {
	if _, ok := l.doubled(side); ok {
		return false
	}
	other := side.Other()
	return l.distinct(side) > 0 && l.distinct(side) < l.distinct(other) && len(*l.queue(side))+1 <= len(*l.queue(other))
}

// fixDoubles withdraws second commands that no longer balance the teams
// after someone joined or left, and says so.
func (l *tcLobby) fixDoubles() []string {
	var notes []string
	for _, side := range sides {
		u, ok := l.doubled(side)
		if !ok {
			continue
		}
		other := side.Other()
		if l.distinct(side) < l.distinct(other) && len(*l.queue(side)) <= len(*l.queue(other)) {
			continue
		}
		l.dropSecond(side, u.ID)
		notes = append(notes, fmt.Sprintf("%s's second command for %s was withdrawn: a second command only balances a smaller team (rule 1.1).", u.Mention(), side.Title()))
	}
	return notes
}

func tcLobbyNew(a *App, req *Request) (*Response, error) {
	if req.GuildID == "" {
		return nil, Errorf("Team Chess games are set up in a server channel, not in direct messages.")
	}
	moveTime, err := a.MoveTimeOption(req, "move_time")
	if err != nil {
		return nil, err
	}
	if err := a.needTextChannel(req); err != nil {
		return nil, err
	}
	l := &tcLobby{ID: newID(), Kind: kindTeamChess, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Creator: req.User, MoveTime: moveTime, Created: req.Now, TTL: a.lobbyTTL()}
	if err := a.update(func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, a.lobbyExpiry(req.Now), l) }); err != nil {
		return nil, err
	}
	return &Response{Posted: func(mid string) { a.lobbyPosted(l.ID, mid) },
		Message: tcLobbyMessage(l, fmt.Sprintf("%s opened a Team Chess lobby: join a side!", req.User.Mention()))}, nil
}

// lobbyTTL is how long a lobby stays open after its last change
// (Settings.LobbyTTL; 24 hours when unset).
func (a *App) lobbyTTL() time.Duration {
	if a.Settings.LobbyTTL <= 0 {
		return 24 * time.Hour
	}
	return a.Settings.LobbyTTL
}

// lobbyExpiry is when a lobby changed at now expires unstarted.
func (a *App) lobbyExpiry(now time.Time) time.Time { return now.Add(a.lobbyTTL()) }

// lobbyTTLText tells in the lobby's footer when it closes unstarted.
func lobbyTTLText(l *tcLobby) string {
	if l.TTL <= 0 {
		return ""
	}
	return " · closes after " + duration.Format(l.TTL) + " without a change"
}

// lobbyPosted records the message ID of a lobby the bot has just posted,
// so that its expiry can close it.
func (a *App) lobbyPosted(id, messageID string) {
	invitationPosted(a, lobbiesOf, id, func(l *tcLobby) { l.MessageID = messageID })
}

// expireLobbies closes every lobby whose time is up: it is deleted and its
// message says so, without buttons.
func (a *App) expireLobbies(now time.Time) error {
	return expireInvitations(a, now, lobbiesOf, func(l *tcLobby) {
		if l.MessageID == "" {
			return
		}
		m := tcClosedLobby(l, "This lobby expired: nobody changed it for "+duration.Format(a.lobbyTTL())+". Open a new one with `/teamchess new`.")
		if err := a.Platform.Edit(l.ChannelID, l.MessageID, m); err != nil {
			a.Log.Warn("editing expired lobby failed", "lobby", l.ID, "err", err)
		}
	})
}

// tcLobbyMessage shows the lobby with its buttons; note is the latest change.
func tcLobbyMessage(l *tcLobby, note string) Message {
	desc := fmt.Sprintf("%s is gathering two teams of commanders. Join a side: the queue order is the order of command, and the first in each queue commands first. "+
		"Each team also gets a private thread to advise its active commander.\n"+
		"%s can reorder the queues, grant a second command to balance a smaller team (rule 1.1), and start once each side has a commander.\n"+
		"Time for each move: **%s** (when it runs out, the active commander is tagged out with a personal loss).",
		l.Creator.Mention(), l.Creator.Mention(), tcMoveTimeText(l.MoveTime))
	e := &ui.Card{Title: "Team Chess lobby", Description: desc, Color: ColorChallenge,
		Footer: "Lobby " + l.ID + lobbyTTLText(l) + " · /teamchess rules"}
	for _, side := range sides {
		e.Fields = append(e.Fields, &ui.Field{
			Name: fmt.Sprintf("%s (%d)", side.Title(), len(*l.queue(side))), Value: lobbyQueueText(*l.queue(side)), Inline: true,
		})
	}
	id := func(action string) string { return CustomID{Scope: "c", ID: l.ID, Action: action}.String() }
	rows := []ui.Row{{
		ui.Button{Label: "Join White", Style: ui.Primary, Route: id("join-white")},
		ui.Button{Label: "Join Black", Style: ui.Primary, Route: id("join-black")},
		ui.Button{Label: "Leave", Style: ui.Secondary, Route: id("leave")},
		ui.Button{Label: "Start", Style: ui.Success, Route: id("start")},
		ui.Button{Label: "Cancel", Style: ui.Danger, Route: id("cancel")},
	}}
	var up []ui.SelectOption
	for _, side := range sides {
		q := *l.queue(side)
		for i := 1; i < len(q); i++ {
			up = append(up, ui.SelectOption{
				Label: fmt.Sprintf("%s %d. %s: move up to %d", side.Title(), i+1, trimLabel(q[i].Name), i),
				Value: fmt.Sprintf("%s:%d:%s", sideKey(side), i, q[i].ID),
			})
		}
	}
	if len(up) > 0 {
		rows = append(rows, ui.Row{ui.Select{
			Route: id("move-up"), Placeholder: "Creator: move a commander up the queue", Options: up,
		}})
	}
	var dbl []ui.SelectOption
	for _, side := range sides {
		if u, ok := l.doubled(side); ok {
			dbl = append(dbl, ui.SelectOption{Label: fmt.Sprintf("Withdraw %s's second command (%s)", trimLabel(u.Name), side.Title()), Value: sideKey(side) + ":none:" + u.ID})
			continue
		}
		if !l.canDouble(side) {
			continue
		}
		seen := map[string]bool{}
		for _, u := range *l.queue(side) {
			if !seen[u.ID] {
				seen[u.ID] = true
				dbl = append(dbl, ui.SelectOption{Label: fmt.Sprintf("%s commands twice for %s", trimLabel(u.Name), side.Title()), Value: sideKey(side) + ":" + u.ID})
			}
		}
	}
	if len(dbl) > 0 {
		rows = append(rows, ui.Row{ui.Select{
			Route: id("double"), Placeholder: "Creator: a second command to balance the teams (rule 1.1)", Options: dbl,
		}})
	}
	return Message{Content: note, Cards: []*ui.Card{e}, Rows: rows}
}

func lobbyQueueText(q []User) string {
	if len(q) == 0 {
		return "_nobody yet_"
	}
	seen := map[string]bool{}
	var lines []string
	for i, u := range q {
		s := fmt.Sprintf("%d. %s", i+1, u.Mention())
		if seen[u.ID] {
			s += " (2nd command)"
		}
		seen[u.ID] = true
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n")
}

func sideKey(c chess.Color) string {
	if c == chess.White {
		return "w"
	}
	return "b"
}

// trimLabel shortens a name for a select option's label (at most 41
// characters with the "…").
func trimLabel(s string) string { return Clip(s, 41) }

// tcLoadLobby reads the lobby a button belongs to (under its lock, taken
// by the router).
func tcLoadLobby(a *App, req *Request) (*tcLobby, error) {
	id, err := ParseCustomID(req.CustomID)
	if err != nil {
		return nil, &UserError{Msg: err.Error()}
	}
	var l tcLobby
	var exp time.Time
	if err := a.view(func(tx storage.Tx) error {
		var err error
		exp, err = tx.Lobbies().Get(id.ID, &l)
		return err
	}); err != nil {
		return nil, err
	}
	if !exp.IsZero() && !req.Now.Before(exp) {
		return nil, Errorf("This lobby has expired: nobody changed it in time. Open a new one with `/teamchess new`.")
	}
	return &l, nil
}

// tcSaveLobby stores l (marking the click applied) and answers with the
// updated lobby message.
func tcSaveLobby(a *App, req *Request, l *tcLobby, note string) (*Response, error) {
	err := a.update(func(tx storage.Tx) error {
		if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
			return err
		}
		return tx.Lobbies().Put(l.ID, a.lobbyExpiry(req.Now), l)
	})
	if err != nil {
		return nil, err
	}
	return &Response{Update: true, Message: tcLobbyMessage(l, note)}, nil
}

func tcLobbyJoin(a *App, req *Request) (*Response, error) {
	l, err := tcLoadLobby(a, req)
	if err != nil {
		return nil, err
	}
	if req.User.Bot {
		return nil, Errorf("Bots cannot play Team Chess.")
	}
	side := chess.White
	if id, _ := ParseCustomID(req.CustomID); id.Action == "join-black" {
		side = chess.Black
	}
	note := ""
	if cur, ok := l.sideOf(req.User.ID); ok {
		if cur == side {
			// A double click: the first one joined.
			return Private("Already done: you are in %s's queue. Use Leave to leave the lobby.", side.Title()), nil
		}
		l.remove(req.User.ID)
		note = fmt.Sprintf("%s switched to %s.", req.User.Mention(), side.Title())
	} else {
		note = fmt.Sprintf("%s joined %s.", req.User.Mention(), side.Title())
	}
	if l.distinct(side) >= tcMaxTeam {
		return nil, Errorf("%s already has %d commanders, the most a lobby allows.", side.Title(), tcMaxTeam)
	}
	q := l.queue(side)
	*q = append(*q, req.User)
	for _, n := range l.fixDoubles() {
		note += " " + n
	}
	return tcSaveLobby(a, req, l, note)
}

func tcLobbyLeave(a *App, req *Request) (*Response, error) {
	l, err := tcLoadLobby(a, req)
	if err != nil {
		return nil, err
	}
	side, ok := l.sideOf(req.User.ID)
	if !ok {
		return nil, Errorf("You are not in this lobby's queues.")
	}
	l.remove(req.User.ID)
	note := fmt.Sprintf("%s left %s.", req.User.Mention(), side.Title())
	for _, n := range l.fixDoubles() {
		note += " " + n
	}
	return tcSaveLobby(a, req, l, note)
}

// tcLoadCreatorLobby reads the lobby for what only its creator may do
// (what: "start the game"), refused to anyone else.
func tcLoadCreatorLobby(a *App, req *Request, what string) (*tcLobby, error) {
	l, err := tcLoadLobby(a, req)
	if err != nil {
		return nil, err
	}
	if req.User.ID != l.Creator.ID {
		return nil, Errorf("Only %s, who opened this lobby, can %s.", EscapeText(l.Creator.Name, 0), what)
	}
	return l, nil
}

func tcLobbyMoveUp(a *App, req *Request) (*Response, error) {
	l, err := tcLoadCreatorLobby(a, req, "change the queue order")
	if err != nil {
		return nil, err
	}
	if len(req.Values) != 1 {
		return nil, Errorf("Choose one commander to move up.")
	}
	// The value names the queue place and who held it when the menu was
	// drawn ("w:2:<user ID>"; menus from before it named them: "w:2").
	key, rest, _ := strings.Cut(req.Values[0], ":")
	idx, who, _ := strings.Cut(rest, ":")
	i, err := strconv.Atoi(idx)
	side := chess.White
	if key == "b" {
		side = chess.Black
	}
	q := l.queue(side)
	if err == nil && who != "" && i >= 1 && i <= len(*q) && (*q)[i-1].ID == who && (i == len(*q) || (*q)[i].ID != who) {
		// A repeat (a double choice, or a menu not yet redrawn): the
		// commander already holds the place chosen for them.
		return Private("Already done: %s is at place %d in %s's queue.", (*q)[i-1].Mention(), i, side.Title()), nil
	}
	if err != nil || (key != "w" && key != "b") || i < 1 || i >= len(*q) || (who != "" && (*q)[i].ID != who) {
		return nil, Errorf("That queue place no longer holds the commander you chose; the lobby has changed. Choose again. Nothing changed.")
	}
	(*q)[i-1], (*q)[i] = (*q)[i], (*q)[i-1]
	return tcSaveLobby(a, req, l, fmt.Sprintf("%s moved %s up to place %d in %s's queue.", req.User.Mention(), (*q)[i-1].Mention(), i, side.Title()))
}

func tcLobbyDouble(a *App, req *Request) (*Response, error) {
	l, err := tcLoadCreatorLobby(a, req, "grant a second command")
	if err != nil {
		return nil, err
	}
	if len(req.Values) != 1 {
		return nil, Errorf("Choose one option.")
	}
	// "w:<user ID>" grants; "w:none:<user ID>" withdraws that member's
	// second command ("w:none" on menus from before it named them).
	key, uid, _ := strings.Cut(req.Values[0], ":")
	side := chess.White
	if key == "b" {
		side = chess.Black
	}
	if none, who, _ := strings.Cut(uid, ":"); none == "none" {
		u, ok := l.doubled(side)
		if !ok && who != "" {
			return Private("Already done: <@%s> has no second command for %s.", who, side.Title()), nil
		}
		if !ok {
			return nil, Errorf("%s has no second command to withdraw.", side.Title())
		}
		if who != "" && who != u.ID {
			return nil, Errorf("That second command is no longer there; the lobby has changed. Choose again. Nothing changed.")
		}
		l.dropSecond(side, u.ID)
		return tcSaveLobby(a, req, l, fmt.Sprintf("%s withdrew %s's second command.", req.User.Mention(), u.Mention()))
	}
	var member *User
	for _, u := range *l.queue(side) {
		if u.ID == uid {
			u := u
			member = &u
			break
		}
	}
	if member == nil {
		return nil, Errorf("That player is no longer in %s's queue; choose again.", side.Title())
	}
	if u, ok := l.doubled(side); ok && u.ID == member.ID {
		return Private("Already done: %s has a second command for %s.", member.Mention(), side.Title()), nil
	}
	if !l.canDouble(side) {
		return nil, Errorf("%s cannot have a second command now: a second command only balances the smaller team, one member at most, and never makes its queue longer than the other (rule 1.1). White has %d members, Black %d.",
			side.Title(), l.distinct(chess.White), l.distinct(chess.Black))
	}
	q := l.queue(side)
	*q = append(*q, *member)
	return tcSaveLobby(a, req, l, fmt.Sprintf("%s granted %s a second command for %s (rule 1.1): it counts as a separate commander, and both commands' losses go on their record.",
		req.User.Mention(), member.Mention(), side.Title()))
}

func tcLobbyCancel(a *App, req *Request) (*Response, error) {
	l, err := tcLoadCreatorLobby(a, req, "cancel it")
	if err != nil {
		return nil, err
	}
	if err := a.update(func(tx storage.Tx) error { return tx.Lobbies().Delete(l.ID) }); err != nil {
		return nil, err
	}
	return &Response{Update: true, Message: tcClosedLobby(l, fmt.Sprintf("%s cancelled this lobby.", req.User.Mention()))}, nil
}

func tcClosedLobby(l *tcLobby, outcome string) Message {
	return Message{
		Cards: []*ui.Card{{
			Title:       "Team Chess lobby",
			Description: outcome,
			Color:       ColorClosed,
			Fields: []*ui.Field{
				{Name: "White", Value: lobbyQueueText(l.White), Inline: true},
				{Name: "Black", Value: lobbyQueueText(l.Black), Inline: true},
			},
		}},
		Rows: []ui.Row{},
	}
}

func tcMembers(q []User) []teamchess.Member {
	out := make([]teamchess.Member, len(q))
	for i, u := range q {
		out[i] = teamchess.Member{ID: u.ID, Name: u.Name}
	}
	return out
}

// tcLobbyStart starts the game: the engine validates the queues (ruling
// A1); then the public thread and the two private team threads are
// created, the game is saved with the lobby deleted in one transaction,
// members are added and the first boards posted.
func tcLobbyStart(a *App, req *Request) (*Response, error) {
	l, err := tcLoadCreatorLobby(a, req, "start the game")
	if err != nil {
		return nil, err
	}
	for _, side := range sides {
		if len(*l.queue(side)) == 0 {
			return nil, Errorf("%s has no commander yet: each side needs at least one.", side.Title())
		}
	}
	game, err := teamchess.NewGame(teamchess.Setup{FEN: l.StartFEN, White: tcMembers(l.White), Black: tcMembers(l.Black)})
	if err != nil {
		return nil, Errorf("The game cannot start: %s.", EngineText(err.Error()))
	}
	names := func(q []User) string {
		var ns []string
		seen := map[string]bool{}
		for _, u := range q {
			if !seen[u.ID] {
				seen[u.ID] = true
				ns = append(ns, u.Name)
			}
		}
		return strings.Join(ns, ", ")
	}
	public, err := a.Platform.StartThread(l.ChannelID, fmt.Sprintf("Team Chess · %s vs %s", names(l.White), names(l.Black)), false)
	if err != nil {
		return a.tcStartFailed(req, l, &threadFailed{what: "the game's thread", err: err})
	}
	var teamThreads [2]string
	for _, side := range sides {
		teamThreads[side], err = a.Platform.StartThread(l.ChannelID, fmt.Sprintf("Team Chess · %s team (%s)", side.Title(), names(*l.queue(side))), true)
		if err != nil {
			return a.tcStartFailed(req, l, &threadFailed{what: side.Title() + "'s private team thread", err: err})
		}
	}
	t := &tcGame{game: game, st: &tcState{TeamThreads: teamThreads, MoveTime: l.MoveTime, Started: req.Now, Creator: l.Creator}}
	var players []string
	for _, side := range sides {
		for _, m := range game.Members(side) {
			players = append(players, m.ID)
		}
		t.st.InThread[side] = t.threadMembers(side)
	}
	t.g = &storage.Game{ID: newID(), Kind: kindTeamChess, GuildID: l.GuildID, ChannelID: l.ChannelID, ThreadID: public,
		Players: players, Active: game.Phase() != teamchess.Finished}
	if t.st.MoveTime > 0 {
		t.g.Deadline = req.Now.Add(t.st.MoveTime)
	}
	raw, err := game.MarshalJSON()
	if err != nil {
		return nil, err
	}
	t.st.Game = raw
	if t.g.State, err = json.Marshal(t.st); err != nil {
		return nil, err
	}
	err = a.update(func(tx storage.Tx) error {
		if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
			return err
		}
		for _, th := range teamThreads {
			if err := putChannelGame(tx, th, t.g.ID); err != nil {
				return err
			}
		}
		if err := tx.Lobbies().Delete(l.ID); err != nil {
			return err
		}
		return tx.Games().Put(t.g, req.Now)
	})
	if err != nil {
		return nil, err
	}
	for _, id := range players {
		if err := a.Platform.AddThreadMember(public, id); err != nil {
			a.Log.Warn("adding a player to the game thread failed", "game", t.g.ID, "user", id, "err", err)
		}
	}
	for _, side := range sides {
		for _, id := range t.st.InThread[side] {
			if err := a.Platform.AddThreadMember(teamThreads[side], id); err != nil {
				a.Log.Warn("adding a player to the team thread failed", "game", t.g.ID, "user", id, "err", err)
			}
		}
	}
	if err := a.tcPostStart(t); err != nil {
		return nil, err
	}
	return &Response{Update: true, Message: tcClosedLobby(l, fmt.Sprintf("%s started the game. It is on in <#%s>; each team has its own private thread.", req.User.Mention(), public))}, nil
}

// tcStartFailed answers a start that failed to create a thread: the lobby
// stays open for another Start, or, when its channel can never hold
// threads, it is closed.
func (a *App) tcStartFailed(req *Request, l *tcLobby, err error) (*Response, error) {
	msg, gone, _ := threadRefusal(err, "press Start again.")
	a.Log.Warn("starting a Team Chess game failed", "lobby", l.ID, "err", err)
	if !gone {
		return nil, Errorf("%s The lobby is still open.", msg)
	}
	if err := a.update(func(tx storage.Tx) error { return tx.Lobbies().Delete(l.ID) }); err != nil {
		return nil, err
	}
	return &Response{Update: true, Message: tcClosedLobby(l, msg)}, nil
}

// tcPostStart posts the first board in the game thread and in each team
// thread, with the team thread's purpose.
func (a *App) tcPostStart(t *tcGame) error {
	team := func(side chess.Color) string {
		var ms []string
		for _, m := range t.game.Members(side) {
			ms = append(ms, memberUser(m).Mention())
		}
		return strings.Join(ms, ", ")
	}
	turn := t.game.Turn()
	first, _ := t.game.Active(turn)
	intro := fmt.Sprintf("**Team Chess**: White %s vs Black %s. Only each team's active commander plays; %s commands %s and acts first. "+
		"Advise your commander in your team's private thread. Team Chess has no promotion and no draws: see `/teamchess rules`.",
		team(chess.White), team(chess.Black), memberUser(first).Mention(), turn.Title())
	msg, err := a.tcMessage(t, -1, intro+"\n"+t.nextLine(true))
	if err != nil {
		return err
	}
	if _, err := a.Platform.Send(t.g.ThreadID, msg); err != nil {
		return fmt.Errorf("posting the first board: %w", err)
	}
	for _, side := range sides {
		active, _ := t.game.Active(side)
		var advisers []string
		for _, id := range t.st.InThread[side] {
			if id != active.ID {
				advisers = append(advisers, "<@"+id+">")
			}
		}
		adv := "nobody else (a one-commander team)"
		if len(advisers) > 0 {
			adv = strings.Join(advisers, ", ")
		}
		text := fmt.Sprintf("🔒 This is **%s's private thread**: only %s's commanders and the bot see it. %s commands now; advising: %s.\n"+
			"The active commander plays with `/move` here or in the game thread <#%s>; advisers may use `/suggest`. "+
			"A commander who suffers a personal loss may no longer advise and leaves this thread (rule 1.4).",
			side.Title(), side.Title(), memberUser(active).Mention(), adv, t.g.ThreadID)
		msg, err := a.tcMessage(t, int(side), text)
		if err != nil {
			return err
		}
		if _, err := a.Platform.Send(t.st.TeamThreads[side], msg); err != nil {
			a.Log.Warn("posting the first team board failed", "game", t.g.ID, "side", side, "err", err)
		}
	}
	return nil
}
