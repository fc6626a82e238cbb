package teamchess

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/internal/duration"
	"sandtable/storage"
)

// The Team Chess lobby: /teamchess new posts it; players join a side (the
// queue order is the join order); the creator reorders the queues, grants
// a second command to balance a smaller team (rule 1.1, ruling A1), and
// starts. The lobby is kept in the store's lobbies (commands.App.PutLobby),
// so its buttons (scope "c") reach Spec.Invitations under its lock, and the
// framework closes it when it expires (Spec.LobbyExpired).

// maxTeam is the most distinct members a team may have in a lobby (the
// queue select menus stay under Discord's 25 options).
const maxTeam = 10

// lobby is a stored lobby.
type lobby struct {
	ID        string        `json:"id"`
	Kind      string        `json:"kind"`
	GuildID   string        `json:"guild_id"`
	ChannelID string        `json:"channel_id"`
	Creator   user          `json:"creator"`
	White     []user        `json:"white"` // queue order; a user twice has a second command
	Black     []user        `json:"black"`
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
	// Casual: the game changes no rating (the casual option of /teamchess
	// new; a rematch of a casual game is casual).
	Casual bool `json:"casual,omitempty"`
}

func (l *lobby) queue(side chess.Color) *[]user {
	if side == chess.White {
		return &l.White
	}
	return &l.Black
}

// distinct counts side's distinct members.
// hasHuman reports whether a person commands on either side: a table of
// computers alone does not start (ruling D30).
func (l *lobby) hasHuman() bool {
	for _, q := range [][]user{l.White, l.Black} {
		for _, u := range q {
			if !commands.IsComputer(u.ID) {
				return true
			}
		}
	}
	return false
}

func (l *lobby) distinct(side chess.Color) int {
	seen := map[string]bool{}
	for _, u := range *l.queue(side) {
		seen[u.ID] = true
	}
	return len(seen)
}

// sideOf returns the side u has joined.
func (l *lobby) sideOf(id string) (chess.Color, bool) {
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
func (l *lobby) doubled(side chess.Color) (user, bool) {
	count := map[string]int{}
	for _, u := range *l.queue(side) {
		count[u.ID]++
		if count[u.ID] == 2 {
			return u, true
		}
	}
	return user{}, false
}

// remove takes every command of id out of the lobby.
func (l *lobby) remove(id string) {
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
func (l *lobby) dropSecond(side chess.Color, id string) {
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
func (l *lobby) canDouble(side chess.Color) bool {
	if _, ok := l.doubled(side); ok {
		return false
	}
	other := side.Other()
	return l.distinct(side) > 0 && l.distinct(side) < l.distinct(other) && len(*l.queue(side))+1 <= len(*l.queue(other))
}

// fixDoubles withdraws second commands that no longer balance the teams
// after someone joined or left, and says so.
func (l *lobby) fixDoubles() []string {
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

func lobbyNew(a *commands.App, req *commands.Request) (*response, error) {
	if req.GuildID == "" {
		return nil, commands.Errorf("Team Chess games are set up in a server channel, not in direct messages.")
	}
	moveTime, err := a.MoveTimeOption(req, "move_time")
	if err != nil {
		return nil, err
	}
	if err := a.NeedTextChannel(req); err != nil {
		return nil, err
	}
	l := &lobby{ID: commands.NewID(), Kind: Kind, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Creator: req.User, MoveTime: moveTime, Created: req.Now, TTL: a.LobbyTTL(), Casual: req.Casual()}
	if err := a.PutLobby(req, l.ID, l); err != nil {
		return nil, err
	}
	return &response{Posted: a.LobbyPosted(l.ID),
		Message: lobbyMessage(l, fmt.Sprintf("%s opened a Team Chess lobby: join a side!", req.User.Mention()))}, nil
}

// ratedText says whether the lobby's game will be rated: not when casual,
// nor with a computer commander seated.
func ratedText(casual, computers bool) string {
	if computers {
		return "**Unrated** game: a computer commands, so no rating changes."
	}
	if casual {
		return "**Casual** game: no rating changes."
	}
	return "**Rated** game: each commander's rating moves with the team's result, weighted by the moves they play (ruling D28)."
}

// lobbyTTLText tells in the lobby's footer when it closes unstarted.
func lobbyTTLText(l *lobby) string {
	if l.TTL <= 0 {
		return ""
	}
	return " · closes after " + duration.Format(l.TTL) + " without a change"
}

// lobbyExpired is the message of a lobby the framework closes for its
// expiry (Spec.LobbyExpired): it says so, without buttons.
func lobbyExpired(a *commands.App, doc []byte) (commands.Message, error) {
	var l lobby
	if err := json.Unmarshal(doc, &l); err != nil {
		return commands.Message{}, err
	}
	return closedLobby(&l, "This lobby expired: nobody changed it for "+duration.Format(a.LobbyTTL())+". Open a new one with `/teamchess new`."), nil
}

// lobbyMessage shows the lobby with its buttons; note is the latest change.
func lobbyMessage(l *lobby, note string) commands.Message {
	desc := fmt.Sprintf("%s is gathering two teams of commanders. Join a side: the queue order is the order of command, and the first in each queue commands first. "+
		"Each team also gets a private thread to advise its active commander.\n"+
		"%s can reorder the queues, grant a second command to balance a smaller team (rule 1.1), and start once each side has a commander.\n"+
		"Time for each move: **%s** (when it runs out, the active commander is tagged out with a personal loss).\n%s",
		l.Creator.Mention(), l.Creator.Mention(), moveTimeText(l.MoveTime), ratedText(l.Casual, len(l.computers()) > 0))
	e := &ui.Card{Title: "Team Chess lobby", Description: desc, Color: commands.ColorChallenge,
		Footer: "Lobby " + l.ID + lobbyTTLText(l) + " · /teamchess rules"}
	for _, side := range sides {
		e.Fields = append(e.Fields, &ui.Field{
			Name: fmt.Sprintf("%s (%d)", side.Title(), len(*l.queue(side))), Value: lobbyQueueText(*l.queue(side)), Inline: true,
		})
	}
	id := func(action string) string { return commands.CustomID{Scope: "c", ID: l.ID, Action: action}.String() }
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
	if m := computerMenu(l, id); m != nil {
		rows = append(rows, ui.Row{*m})
	}
	return commands.Message{Content: note, Cards: []*ui.Card{e}, Rows: rows}
}

func lobbyQueueText(q []user) string {
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
func trimLabel(s string) string { return commands.Clip(s, 41) }

// loadLobby reads the lobby a button belongs to (under its lock, taken
// by the router).
func loadLobby(a *commands.App, req *commands.Request) (*lobby, error) {
	id, err := commands.ParseCustomID(req.CustomID)
	if err != nil {
		return nil, &commands.UserError{Msg: err.Error()}
	}
	var l lobby
	exp, err := a.Lobby(id.ID, &l)
	if err != nil {
		return nil, err
	}
	if !exp.IsZero() && !req.Now.Before(exp) {
		return nil, commands.Errorf("This lobby has expired: nobody changed it in time. Open a new one with `/teamchess new`.")
	}
	return &l, nil
}

// saveLobby stores l (marking the click applied; the lobby stays open
// another LobbyTTL) and answers with the updated lobby message.
func saveLobby(a *commands.App, req *commands.Request, l *lobby, note string) (*response, error) {
	if err := a.PutLobby(req, l.ID, l); err != nil {
		return nil, err
	}
	return &response{Update: true, Message: lobbyMessage(l, note)}, nil
}

func lobbyJoin(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadLobby(a, req)
	if err != nil {
		return nil, err
	}
	if req.User.Bot {
		return nil, commands.Errorf("Bots cannot play Team Chess.")
	}
	if _, in := l.sideOf(req.User.ID); !in {
		if err := a.MayJoin(req, l.GuildID); err != nil {
			return nil, err
		}
	}
	side := chess.White
	if id, _ := commands.ParseCustomID(req.CustomID); id.Action == "join-black" {
		side = chess.Black
	}
	note := ""
	if cur, ok := l.sideOf(req.User.ID); ok {
		if cur == side {
			// A double click: the first one joined.
			return commands.Private("Already done: you are in %s's queue. Use Leave to leave the lobby.", side.Title()), nil
		}
		l.remove(req.User.ID)
		note = fmt.Sprintf("%s switched to %s.", req.User.Mention(), side.Title())
	} else {
		note = fmt.Sprintf("%s joined %s.", req.User.Mention(), side.Title())
	}
	if l.distinct(side) >= maxTeam {
		return nil, commands.Errorf("%s already has %d commanders, the most a lobby allows.", side.Title(), maxTeam)
	}
	q := l.queue(side)
	*q = append(*q, req.User)
	for _, n := range l.fixDoubles() {
		note += " " + n
	}
	return saveLobby(a, req, l, note)
}

func lobbyLeave(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadLobby(a, req)
	if err != nil {
		return nil, err
	}
	side, ok := l.sideOf(req.User.ID)
	if !ok {
		return nil, commands.Errorf("You are not in this lobby's queues.")
	}
	l.remove(req.User.ID)
	note := fmt.Sprintf("%s left %s.", req.User.Mention(), side.Title())
	for _, n := range l.fixDoubles() {
		note += " " + n
	}
	return saveLobby(a, req, l, note)
}

// loadCreatorLobby reads the lobby for what only its creator may do
// (what: "start the game"), refused to anyone else.
func loadCreatorLobby(a *commands.App, req *commands.Request, what string) (*lobby, error) {
	l, err := loadLobby(a, req)
	if err != nil {
		return nil, err
	}
	if req.User.ID != l.Creator.ID {
		return nil, commands.Errorf("Only %s, who opened this lobby, can %s.", commands.EscapeText(l.Creator.Name, 0), what)
	}
	return l, nil
}

func lobbyMoveUp(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadCreatorLobby(a, req, "change the queue order")
	if err != nil {
		return nil, err
	}
	if len(req.Values) != 1 {
		return nil, commands.Errorf("Choose one commander to move up.")
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
		return commands.Private("Already done: %s is at place %d in %s's queue.", (*q)[i-1].Mention(), i, side.Title()), nil
	}
	if err != nil || (key != "w" && key != "b") || i < 1 || i >= len(*q) || (who != "" && (*q)[i].ID != who) {
		return nil, commands.Errorf("That queue place no longer holds the commander you chose; the lobby has changed. Choose again. Nothing changed.")
	}
	(*q)[i-1], (*q)[i] = (*q)[i], (*q)[i-1]
	return saveLobby(a, req, l, fmt.Sprintf("%s moved %s up to place %d in %s's queue.", req.User.Mention(), (*q)[i-1].Mention(), i, side.Title()))
}

func lobbyDouble(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadCreatorLobby(a, req, "grant a second command")
	if err != nil {
		return nil, err
	}
	if len(req.Values) != 1 {
		return nil, commands.Errorf("Choose one option.")
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
			return commands.Private("Already done: <@%s> has no second command for %s.", who, side.Title()), nil
		}
		if !ok {
			return nil, commands.Errorf("%s has no second command to withdraw.", side.Title())
		}
		if who != "" && who != u.ID {
			return nil, commands.Errorf("That second command is no longer there; the lobby has changed. Choose again. Nothing changed.")
		}
		l.dropSecond(side, u.ID)
		return saveLobby(a, req, l, fmt.Sprintf("%s withdrew %s's second command.", req.User.Mention(), u.Mention()))
	}
	var member *user
	for _, u := range *l.queue(side) {
		if u.ID == uid {
			u := u
			member = &u
			break
		}
	}
	if member == nil {
		return nil, commands.Errorf("That player is no longer in %s's queue; choose again.", side.Title())
	}
	if u, ok := l.doubled(side); ok && u.ID == member.ID {
		return commands.Private("Already done: %s has a second command for %s.", member.Mention(), side.Title()), nil
	}
	if !l.canDouble(side) {
		return nil, commands.Errorf("%s cannot have a second command now: a second command only balances the smaller team, one member at most, and never makes its queue longer than the other (rule 1.1). White has %d members, Black %d.",
			side.Title(), l.distinct(chess.White), l.distinct(chess.Black))
	}
	q := l.queue(side)
	*q = append(*q, *member)
	return saveLobby(a, req, l, fmt.Sprintf("%s granted %s a second command for %s (rule 1.1): it counts as a separate commander, and both commands' losses go on their record.",
		req.User.Mention(), member.Mention(), side.Title()))
}

func lobbyCancel(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadCreatorLobby(a, req, "cancel it")
	if err != nil {
		return nil, err
	}
	if err := a.CloseLobby(l.ID); err != nil {
		return nil, err
	}
	return &response{Update: true, Message: closedLobby(l, fmt.Sprintf("%s cancelled this lobby.", req.User.Mention()))}, nil
}

func closedLobby(l *lobby, outcome string) commands.Message {
	return commands.Message{
		Cards: []*ui.Card{{
			Title:       "Team Chess lobby",
			Description: outcome,
			Color:       commands.ColorClosed,
			Fields: []*ui.Field{
				{Name: "White", Value: lobbyQueueText(l.White), Inline: true},
				{Name: "Black", Value: lobbyQueueText(l.Black), Inline: true},
			},
		}},
		Rows: []ui.Row{},
	}
}

func members(q []user) []tc.Member {
	out := make([]tc.Member, len(q))
	for i, u := range q {
		out[i] = tc.Member{ID: u.ID, Name: u.Name}
	}
	return out
}

// lobbyStart starts the game. The engine validates the queues (ruling
// A1). The threads are opened first: the public one from the lobby's
// message, each team's private one by a name carrying the lobby's ID (the
// game's too), so
// that a retry after a failure or a crash finds them instead of making
// new ones. Then one transaction (commands.Create) saves the game, links
// the team threads to it, closes the lobby and queues the first effects:
// the members added to the threads, the first boards.
func lobbyStart(a *commands.App, req *commands.Request) (*response, error) {
	l, err := loadCreatorLobby(a, req, "start the game")
	if err != nil {
		return nil, err
	}
	for _, side := range sides {
		if len(*l.queue(side)) == 0 {
			return nil, commands.Errorf("%s has no commander yet: each side needs at least one.", side.Title())
		}
	}
	if !l.hasHuman() {
		return nil, commands.Errorf("Every commander is a computer: at least one person must play (ruling D30).")
	}
	game, err := tc.NewGame(tc.Setup{FEN: l.StartFEN, White: members(l.White), Black: members(l.Black)})
	if err != nil {
		return nil, commands.Errorf("The game cannot start: %s.", commands.EngineText(err.Error()))
	}
	starter := req.MessageID
	if starter == "" {
		starter = l.MessageID
	}
	public, err := a.OpenThread(req.Context(), l.GuildID, l.ChannelID, starter, fmt.Sprintf("Team Chess · %s vs %s", names(l.White), names(l.Black)), false)
	if err != nil {
		return startFailed(a, l, "the game's thread", err)
	}
	var team [2]string
	for _, side := range sides {
		team[side], err = a.OpenThread(req.Context(), l.GuildID, l.ChannelID, "", teamThreadName(game, side), true)
		if err != nil {
			return startFailed(a, l, side.Title()+"'s private team thread", err)
		}
	}
	s := &State{TeamThreads: team, MoveTime: l.MoveTime, Started: req.Now, Creator: l.Creator, game: game,
		ThreadNames: [2]string{teamThreadName(game, chess.White), teamThreadName(game, chess.Black)}}
	var players []string
	for _, side := range sides {
		for _, m := range game.Members(side) {
			players = append(players, m.ID)
		}
		s.InThread[side] = s.threadMembers(side)
	}
	// The game takes the lobby's ID: its threads' names carry it, and the
	// lobby is closed in the transaction that saves the game.
	rec := &storage.Game{ID: l.ID, Kind: Kind, GuildID: l.GuildID, ChannelID: l.ChannelID, ThreadID: public,
		Players: players, Active: true, Computers: l.computers()}
	rec.Unrated = l.Casual || len(rec.Computers) > 0
	take := a.TakeLobby(l.ID) // refused if another process changed the lobby meanwhile
	err = commands.Create(a, req, rec, func(t *turn) error {
		t.Save(s)
		t.Also(func(tx storage.Tx) error {
			for _, th := range team {
				if err := tx.Games().LinkChannel(th, rec.ID); err != nil {
					return err
				}
			}
			return take(tx)
		})
		for _, id := range humans(players) {
			t.AddMember(public, id)
		}
		for _, side := range sides {
			for _, id := range s.InThread[side] {
				t.AddMember(team[side], id)
			}
		}
		return postStart(t, s)
	})
	if err != nil {
		return nil, err
	}
	r := &response{Update: true, Message: closedLobby(l, fmt.Sprintf("%s started the game. It is on in <#%s>; each team has its own private thread.", req.User.Mention(), public))}
	r.Committed = true
	return r, nil
}

// names lists a queue's distinct members' names.
func names(q []user) string {
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

// teamThreadName is the name of side's private thread in game g: its
// members and its active commander, so that it follows tag-outs (a
// transition renames it, see announce). A retried start finds the
// thread again by this name among the threads no game owns
// (App.OpenThread).
func teamThreadName(g *tc.Game, side chess.Color) string {
	var ns []string
	for _, m := range g.Members(side) {
		ns = append(ns, m.Name)
	}
	name := fmt.Sprintf("Team Chess · %s team (%s)", side.Title(), strings.Join(ns, ", "))
	if active, ok := g.Active(side); ok {
		name = fmt.Sprintf("Team Chess · %s team: %s commands (%s)", side.Title(), active.Name, strings.Join(ns, ", "))
	}
	return commands.Clip(name, 100)
}

// startFailed answers a start that failed to open a thread (what): the
// lobby stays open for another Start, or, when its channel can never hold
// threads, it is closed.
func startFailed(a *commands.App, l *lobby, what string, err error) (*response, error) {
	msg, gone := commands.ThreadRefused(what, err, "press Start again.")
	a.Log.Warn("starting a Team Chess game failed", "lobby", l.ID, "err", err)
	if !gone {
		return nil, commands.Errorf("%s The lobby is still open.", msg)
	}
	if err := a.CloseLobby(l.ID); err != nil {
		return nil, err
	}
	return &response{Update: true, Message: closedLobby(l, msg)}, nil
}

// postStart posts the first board in the game thread and in each team
// thread, with the team thread's purpose.
func postStart(t *turn, s *State) error {
	g := s.game
	team := func(side chess.Color) string {
		var ms []string
		for _, m := range g.Members(side) {
			ms = append(ms, memberUser(m).Mention())
		}
		return strings.Join(ms, ", ")
	}
	turn := g.Turn()
	first, _ := g.Active(turn)
	intro := fmt.Sprintf("**Team Chess**: White %s vs Black %s. Only each team's active commander plays; %s commands %s and acts first. "+
		"Advise your commander in your team's private thread. Team Chess has no promotion and no draws: see `/teamchess rules`.",
		team(chess.White), team(chess.Black), memberUser(first).Mention(), turn.Title())
	msg, err := message(t, s, -1, intro+"\n"+s.nextLine(true))
	if err != nil {
		return err
	}
	t.Board(t.Game.ThreadID, msg, commands.Message{Content: intro})
	for _, side := range sides {
		act, _ := g.Active(side)
		var advisers []string
		for _, id := range s.InThread[side] {
			if id != act.ID {
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
			side.Title(), side.Title(), memberUser(act).Mention(), adv, t.Game.ThreadID)
		msg, err := message(t, s, int(side), text)
		if err != nil {
			return err
		}
		t.Board(s.TeamThreads[side], msg, commands.Message{Content: text})
	}
	return nil
}

// rematch opens, from the final board's Rematch button, a lobby in the
// game's text channel holding the same teams with the sides swapped, each
// team's commander order (second commands included) and the move time
// kept, the clicker its creator (ruling D20). Any member may leave it
// before its creator starts it, as in any lobby. While that lobby is open,
// or once its game has started, another click points to it instead of
// opening a second one.
func rematch(t *turn) (*response, error) {
	s, req := t.State, t.Req
	if !s.over() {
		return nil, commands.Errorf("This game is still on: a rematch is offered once it has ended.")
	}
	if _, ok := s.game.SideOf(req.User.ID); !ok {
		return nil, commands.Errorf("Only the players of this game can open its rematch. To play Team Chess, open a lobby with `/teamchess new`.")
	}
	if s.Rematch != "" {
		var (
			open    lobby
			expires time.Time
			started *storage.Game
		)
		err := t.View(func(tx storage.Tx) error {
			var err error
			if expires, err = tx.Lobbies().Get(s.Rematch, &open); !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			open.ID = ""
			if started, err = tx.Games().Get(s.Rematch); errors.Is(err, storage.ErrNotFound) {
				started, err = nil, nil
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		switch {
		case started != nil && started.ThreadID != "":
			return commands.Private("Already done: the rematch has started, in <#%s>.", started.ThreadID), nil
		case open.ID != "" && (expires.IsZero() || req.Now.Before(expires)):
			where := fmt.Sprintf("<#%s>", open.ChannelID)
			if link := commands.MessageLink(open.GuildID, open.ChannelID, open.MessageID); link != "" {
				where = link
			}
			return commands.Private("Already done: the rematch lobby is open in %s. Join it there; %s starts it.", where, open.Creator.Mention()), nil
		}
		// Cancelled or expired: open another.
	}
	setup := s.game.Setup()
	users := func(ms []tc.Member) []user {
		out := make([]user, len(ms))
		for i, m := range ms {
			out[i] = user{ID: m.ID, Name: m.Name}
		}
		return out
	}
	l := &lobby{ID: commands.NewID(), Kind: Kind, GuildID: t.Game.GuildID, ChannelID: t.Game.ChannelID,
		Creator: req.User, White: users(setup.Black), Black: users(setup.White), MoveTime: s.MoveTime,
		Created: req.Now, TTL: t.LobbyTTL(), StartFEN: setup.FEN, Casual: t.Game.Unrated}
	next := s.clone()
	next.Rematch = l.ID
	t.Save(next)
	mentions := func(q []user) string {
		var ms []string
		seen := map[string]bool{}
		for _, u := range q {
			if !seen[u.ID] {
				seen[u.ID] = true
				ms = append(ms, u.Mention())
			}
		}
		return strings.Join(ms, ", ")
	}
	note := fmt.Sprintf("%s opened a rematch of game %s with the sides swapped: %s now play White, %s Black, in the same order of command. "+
		"Whoever cannot play again can Leave; %s starts it.", req.User.Mention(), t.Game.ID, mentions(l.White), mentions(l.Black), req.User.Mention())
	t.OpenLobby(l.ID, l, l.ChannelID, lobbyMessage(l, note))
	return commands.Private("Rematch lobby opened in <#%s>, sides swapped: you are its creator, so you start it once everyone is ready.", l.ChannelID), nil
}
