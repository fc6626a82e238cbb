package commands

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/games/teamchess"
	"sandtable/storage"
)

var tcDan = User{ID: "100004", Name: "dan"}

// tcTestGame starts a Team Chess game through a stored lobby and its Start
// button, and returns the stored game with its public and team threads.
func tcTestGame(t *testing.T, a *App, p *fakePlatform, fen string, white, black []User) (g *storage.Game, pub string, team [2]string) {
	t.Helper()
	l := &tcLobby{ID: newID(), Kind: kindTeamChess, GuildID: "g", ChannelID: "general", Creator: white[0],
		White: white, Black: black, MoveTime: time.Hour, Created: t0, StartFEN: fen}
	require.NoError(t, a.update(func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, time.Time{}, l) }))
	interactionSeq++
	resp, err := a.Handle(&Request{Type: ComponentRequest, InteractionID: fmt.Sprint("i", interactionSeq), GuildID: "g", ChannelID: "general",
		User: white[0], CustomID: CustomID{Scope: "c", ID: l.ID, Action: "start"}.String(), Now: t0})
	require.NoError(t, err)
	require.True(t, resp.Update)
	n := len(p.threads)
	pub, team = p.threads[n-3], [2]string{p.threads[n-2], p.threads[n-1]}
	require.NoError(t, a.view(func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel(pub)
		return err
	}))
	return g, pub, team
}

// tcCmd is a command by u in channel.
func tcCmd(u User, channel, command, sub string, opts map[string]string) *Request {
	r := cmd(u, command, sub, opts)
	r.ChannelID = channel
	return r
}

func tcLoad(t *testing.T, a *App, id string) *tcGame {
	t.Helper()
	g, err := a.snapshot(id)
	require.NoError(t, err)
	tg, err := loadTeamChess(g)
	require.NoError(t, err)
	return tg
}

func TestTeamChessInteractionAppliedOnce(t *testing.T) {
	a, p := testApp(t)
	g, pub, _ := tcTestGame(t, a, p, "", []User{alice}, []User{bob})
	req := tcCmd(alice, pub, "move", "", map[string]string{"move": "e4"})
	_, err := a.Handle(req)
	require.NoError(t, err)
	again := tcCmd(bob, pub, "move", "", map[string]string{"move": "e5"})
	again.InteractionID = req.InteractionID
	_, err = a.Handle(again)
	require.Contains(t, userMsg(t, err), "already applied")
	require.Len(t, tcLoad(t, a, g.ID).game.State().Actions, 1)
}

// TestTeamChessTeamThreadsReachTheGame: thread commands work in the team
// threads (channelGamesNS) as in the public thread; elsewhere they are
// refused.
func TestTeamChessTeamThreadsReachTheGame(t *testing.T) {
	a, p := testApp(t)
	g, pub, team := tcTestGame(t, a, p, "", []User{alice, carol}, []User{bob, tcDan})
	resp, err := a.Handle(tcCmd(alice, team[chess.White], "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	require.False(t, resp.Ephemeral)
	require.Contains(t, resp.Cards[0].Title, "White team thread")
	// The same board went to the two other threads.
	var to []string
	for _, s := range p.sent[len(p.sent)-2:] {
		to = append(to, s.Channel)
		require.Contains(t, s.Msg.Content, "**alice** (White) played **e4**")
	}
	require.ElementsMatch(t, []string{pub, team[chess.Black]}, to)
	resp, err = a.Handle(tcCmd(bob, team[chess.Black], "board", "", nil))
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Title, "Black team thread")
	_, err = a.Handle(tcCmd(bob, "elsewhere", "board", "", nil))
	require.Contains(t, userMsg(t, err), "There is no game in this channel")
	require.Len(t, tcLoad(t, a, g.ID).game.State().Actions, 1)
}

// TestTeamChessSuggestGoesToTheTeamThreadOnly: a suggestion is sent to the
// adviser's team thread and nowhere else, and the answer is private.
func TestTeamChessSuggestGoesToTheTeamThreadOnly(t *testing.T) {
	a, p := testApp(t)
	_, pub, team := tcTestGame(t, a, p, "", []User{alice, carol}, []User{bob, tcDan})
	before := len(p.sent)
	req := tcCmd(carol, pub, "suggest", "", map[string]string{"move": "e2e4", "comment": "centre"})
	require.True(t, a.AnswersPrivately(req))
	resp, err := a.Handle(req)
	require.NoError(t, err)
	require.True(t, resp.Ephemeral)
	require.Len(t, p.sent, before+1)
	require.Equal(t, team[chess.White], p.sent[before].Channel)
	require.Equal(t, "💡 **carol** suggests **e4** to <@100001>.\n> centre", p.sent[before].Msg.Content)
	_, err = a.Handle(tcCmd(carol, pub, "suggest", "", map[string]string{"move": "e5"}))
	require.Contains(t, userMsg(t, err), "`e5` is not a legal move")
	_, err = a.Handle(tcCmd(tcDan, pub, "suggest", "", map[string]string{"move": "e5"}))
	require.Contains(t, userMsg(t, err), "Suggest a move when Black is to move (now White is to act)")
	require.Len(t, p.sent, before+1, "refused suggestions post nothing")
}

// TestTeamChessRecordsTalliedOnce: the end of a game adds to the records in
// its own transaction, once.
func TestTeamChessRecordsTalliedOnce(t *testing.T) {
	a, p := testApp(t)
	_, pub, _ := tcTestGame(t, a, p, "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", []User{alice, carol}, []User{bob})
	_, err := a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "a8=Agent"}))
	require.NoError(t, err)
	_, err = a.Handle(tcCmd(bob, pub, "resign", "", nil))
	require.Contains(t, userMsg(t, err), "This game is over: White wins by Fatigue victory.")
	stats, err := a.tcGuildStats("g")
	require.NoError(t, err)
	require.Len(t, stats, 3)
	byID := map[string]teamchess.PlayerStats{}
	for _, s := range stats {
		byID[s.ID] = s
	}
	require.Equal(t, teamchess.PlayerStats{ID: alice.ID, Name: "alice", Games: 1, TeamWins: 1, PersonalWins: 1,
		WinsBy: map[string]int{"fatigue_victory": 1}}, byID[alice.ID])
	require.Equal(t, teamchess.PlayerStats{ID: bob.ID, Name: "bob", Games: 1, TeamLosses: 1, PersonalLosses: 1,
		LossesBy: map[string]int{"fatigue_victory": 1}}, byID[bob.ID])
	require.Equal(t, 1, byID[carol.ID].TeamWins)
	other, err := a.tcGuildStats("another guild")
	require.NoError(t, err)
	require.Empty(t, other)
}

// TestTeamChessAutocompleteStaysWithinDiscordLimits: with many sacrifice
// choices, autocomplete lists at most 25, each value short enough and
// playable.
func TestTeamChessAutocompleteStaysWithinDiscordLimits(t *testing.T) {
	a, p := testApp(t)
	g, pub, _ := tcTestGame(t, a, p, "4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1", []User{alice}, []User{bob})
	for _, typed := range []string{"", "a8", "a8=sab", "a7a8s"} {
		req := tcCmd(alice, pub, "move", "", map[string]string{"move": typed})
		req.Type, req.Focused = AutocompleteRequest, "move"
		resp, err := a.Handle(req)
		require.NoError(t, err)
		require.NotEmpty(t, resp.Choices, typed)
		require.LessOrEqual(t, len(resp.Choices), 25)
		tg := tcLoad(t, a, g.ID)
		for _, c := range resp.Choices {
			v := c.Value
			require.LessOrEqual(t, len(v), 100)
			require.LessOrEqual(t, len(c.Name), 100)
			_, err := tg.game.ParseMove(v)
			require.NoError(t, err, "choice %q", v)
			if typed != "" {
				require.True(t, strings.HasPrefix(strings.ToLower(c.Name), strings.ToLower(typed)) || strings.HasPrefix(v, typed), "%q for %q", c.Name, typed)
			}
		}
	}
}

// TestTeamChessAutocompleteOnlyForWhoMayAct: /move suggestions go to the
// active commander of the side to move, /suggest suggestions to that
// side's members who may advise; everyone else gets none, in every thread
// (suggesting the other side's moves would be advice nobody may act on).
func TestTeamChessAutocompleteOnlyForWhoMayAct(t *testing.T) {
	a, p := testApp(t)
	g, pub, team := tcTestGame(t, a, p, "", []User{alice, carol}, []User{bob, tcDan})
	choices := func(u User, channel, command string) []string {
		t.Helper()
		req := tcCmd(u, channel, command, "", map[string]string{"move": ""})
		req.Type, req.Focused = AutocompleteRequest, "move"
		resp, err := a.Handle(req)
		require.NoError(t, err)
		var out []string
		for _, c := range resp.Choices {
			out = append(out, c.Value)
		}
		return out
	}
	check := func(mover, adviser User, others ...User) {
		t.Helper()
		tg := tcLoad(t, a, g.ID)
		for _, channel := range []string{pub, team[chess.White], team[chess.Black]} {
			moves := choices(mover, channel, "move")
			require.NotEmpty(t, moves, "%s may move", mover.Name)
			for _, v := range moves {
				_, err := tg.game.ParseMove(v)
				require.NoError(t, err, "%s's choice %q is a legal move of the side to move", mover.Name, v)
			}
			require.Equal(t, moves, choices(adviser, channel, "suggest"), "%s may advise", adviser.Name)
			require.Empty(t, choices(mover, channel, "suggest"), "the active commander plays, not advises")
			require.Empty(t, choices(adviser, channel, "move"), "an adviser does not move")
			for _, u := range append(others, User{ID: "100009", Name: "erin"}) {
				require.Empty(t, choices(u, channel, "move"), "%s is not to move", u.Name)
				require.Empty(t, choices(u, channel, "suggest"), "%s may not advise now", u.Name)
			}
		}
	}
	check(alice, carol, bob, tcDan)
	_, err := a.Handle(tcCmd(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	check(bob, tcDan, alice, carol)
	// A member with a personal loss may no longer advise (rule 1.4).
	_, err = a.Handle(tcCmd(bob, pub, "tagout", "", nil))
	require.NoError(t, err)
	require.Empty(t, choices(bob, pub, "suggest"), "bob has a personal loss")
	require.NotEmpty(t, choices(tcDan, pub, "move"), "dan commands Black now")
}

// TestTeamChessLobbyDoubleRules: a second command only balances the
// smaller team (rule 1.1, ruling A1), and is withdrawn when it no longer
// does.
func TestTeamChessLobbyDoubleRules(t *testing.T) {
	u := func(names ...string) []User {
		var out []User
		for _, n := range names {
			out = append(out, User{ID: n, Name: n})
		}
		return out
	}
	cases := []struct {
		white, black []User
		side         chess.Color
		want         bool
	}{
		{u("a"), u("b", "c"), chess.White, true},
		{u("a"), u("b", "c"), chess.Black, false},
		{u("a"), u("b"), chess.White, false},           // equal teams
		{u("a", "a"), u("b", "c"), chess.White, false}, // already has one
		{u("a", "d"), u("b", "c", "e"), chess.White, true},
		{u(), u("b", "c"), chess.White, false}, // nobody to double
	}
	for i, c := range cases {
		l := &tcLobby{White: c.white, Black: c.black}
		require.Equal(t, c.want, l.canDouble(c.side), "case %d", i)
	}
	l := &tcLobby{White: u("a", "a"), Black: u("b", "c")}
	require.Empty(t, l.fixDoubles(), "a valid second command stays")
	l.Black = u("b")
	notes := l.fixDoubles()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "second command for White was withdrawn")
	require.Equal(t, u("a"), l.White)
}

func TestTeamChessPrivateAnswers(t *testing.T) {
	for _, c := range []struct {
		req  *Request
		want bool
	}{
		{&Request{Type: CommandRequest, Command: "suggest"}, true},
		{&Request{Type: CommandRequest, Command: "record"}, true},
		{&Request{Type: CommandRequest, Command: "teamchess", Sub: "rules"}, true},
		{&Request{Type: CommandRequest, Command: "teamchess", Sub: "new"}, false},
		{&Request{Type: CommandRequest, Command: "move"}, false},
		{&Request{Type: AutocompleteRequest, Command: "suggest"}, false},
	} {
		require.Equal(t, c.want, tcPrivate(c.req), "%+v", c.req)
	}
}

// TestTeamChessLobbyButtonsReachTheKind: scope "c" buttons find a lobby
// (lobbyNS) like a challenge; once the lobby is closed they are refused.
func TestTeamChessLobbyButtonsReachTheKind(t *testing.T) {
	a, _ := testApp(t)
	resp, err := a.Handle(&Request{Type: CommandRequest, InteractionID: "new1", GuildID: "g", ChannelID: "general",
		User: alice, Command: "teamchess", Sub: "new", Options: map[string]Option{}, Now: t0})
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Title, "Team Chess lobby")
	id, err := ParseCustomID(resp.Rows[0][0].(ui.Button).Route)
	require.NoError(t, err)
	click := func(u User, action string) (*Response, error) {
		interactionSeq++
		return a.Handle(&Request{Type: ComponentRequest, InteractionID: fmt.Sprint("i", interactionSeq), GuildID: "g", ChannelID: "general",
			User: u, CustomID: CustomID{Scope: "c", ID: id.ID, Action: action}.String(), Now: t0})
	}
	resp, err = click(bob, "join-black")
	require.NoError(t, err)
	require.True(t, resp.Update)
	require.Contains(t, resp.Content, "joined Black")
	_, err = click(bob, "fly")
	require.Contains(t, userMsg(t, err), `unknown action "fly"`)
	_, err = click(alice, "cancel")
	require.NoError(t, err)
	_, err = click(bob, "join-white")
	require.Contains(t, userMsg(t, err), "This challenge or lobby is no longer open.")
}

// TestLeaderboardRankIsPrivate: /teamchess leaderboard answers the list
// publicly; the invoker's own rank goes in a private note, and a player
// without a record gets none (ruling D11).
func TestLeaderboardRankIsPrivate(t *testing.T) {
	a, _ := testApp(t)
	ranked, unranked := User{ID: "100001", Name: "ann"}, User{ID: "100009", Name: "zed"}
	require.NoError(t, a.update(func(tx storage.Tx) error {
		for _, ps := range []teamchess.PlayerStats{
			{ID: ranked.ID, Name: "ann", Games: 1, TeamWins: 1, PersonalWins: 1},
			{ID: "100002", Name: "bob", Games: 1, TeamLosses: 1, PersonalLosses: 1},
		} {
			if err := tx.Records().Put(kindTeamChess, "g", ps.ID, &ps); err != nil {
				return err
			}
		}
		return nil
	}))
	r, err := a.Handle(cmd(ranked, "teamchess", "leaderboard", nil))
	require.NoError(t, err)
	require.False(t, r.Ephemeral)
	public := r.Cards[0].Description + r.Cards[0].Footer + r.Content
	require.Contains(t, public, "**1.** <@100001>")
	require.NotContains(t, public, "Your rank")
	require.NotNil(t, r.PrivateNote)
	require.Contains(t, r.PrivateNote.Content, "Your rank: 1 of 2")

	r, err = a.Handle(cmd(unranked, "teamchess", "leaderboard", nil))
	require.NoError(t, err)
	require.False(t, r.Ephemeral)
	require.Nil(t, r.PrivateNote, "no record, nothing private")
}

// TestLobbyExpires: a lobby stays open Settings.LobbyTTL after its last
// change; then a click is refused, and the sweep deletes it and closes its
// message. Downtime is credited to it like to a challenge.
func TestLobbyExpires(t *testing.T) {
	a, p := testApp(t)
	a.Settings.LobbyTTL = 24 * time.Hour
	open := tcCmd(alice, "general", "teamchess", "new", nil)
	resp, err := a.Handle(open)
	require.NoError(t, err)
	require.NotNil(t, resp.Posted)
	resp.Posted("lobbymsg")
	id, err := ParseCustomID(resp.Rows[0][0].(ui.Button).Route)
	require.NoError(t, err)
	join := func(u User, at time.Time) (*Response, error) {
		r := click(u, CustomID{Scope: "c", ID: id.ID, Action: "join-white"}.String())
		r.ChannelID, r.Now = "general", at
		return a.Handle(r)
	}
	// A join 23 hours in keeps it open for another 24.
	_, err = join(bob, t0.Add(23*time.Hour))
	require.NoError(t, err)
	require.NoError(t, a.Sweep(t0.Add(46*time.Hour)))
	sweepDelivered(t, a, t0.Add(46*time.Hour))
	require.Empty(t, p.edits, "still open 23 hours after the join")
	// At expiry a click is refused, changing nothing.
	_, err = join(carol, t0.Add(47*time.Hour))
	require.Contains(t, userMsg(t, err), "This lobby has expired")
	require.NoError(t, a.Sweep(t0.Add(47*time.Hour)))
	sweepDelivered(t, a, t0.Add(47*time.Hour))
	require.Len(t, p.edits, 1)
	require.Equal(t, "lobbymsg", p.edits[0].ID)
	require.Equal(t, "general", p.edits[0].Channel)
	require.Empty(t, p.edits[0].Msg.Rows, "an expired lobby has no buttons")
	require.Contains(t, p.edits[0].Msg.Cards[0].Description, "expired")
	_, err = join(carol, t0.Add(48*time.Hour))
	require.Contains(t, userMsg(t, err), "no longer open")
	require.NoError(t, a.Sweep(t0.Add(72*time.Hour)))
	sweepDelivered(t, a, t0.Add(72*time.Hour))
	require.Len(t, p.edits, 1, "closed once")
}

func TestLobbyExpiryCreditsDowntime(t *testing.T) {
	a, p := testApp(t)
	resp, err := a.Handle(tcCmd(alice, "general", "teamchess", "new", nil))
	require.NoError(t, err)
	resp.Posted("lobbymsg")
	require.NoError(t, a.Heartbeat(t0.Add(time.Hour)))
	down, err := a.CreditDowntime(t0.Add(11 * time.Hour))
	require.NoError(t, err)
	require.Equal(t, 10*time.Hour, down)
	require.NoError(t, a.Sweep(t0.Add(33*time.Hour)))
	sweepDelivered(t, a, t0.Add(33*time.Hour))
	require.Empty(t, p.edits, "24 hours of open time plus 10 of downtime")
	require.NoError(t, a.Sweep(t0.Add(34*time.Hour)))
	sweepDelivered(t, a, t0.Add(34*time.Hour))
	require.Len(t, p.edits, 1)
}

// sweepDelivered delivers what a sweep at now queued (expiry edits go
// through the outbox).
func sweepDelivered(t *testing.T, a *App, now time.Time) {
	t.Helper()
	_, err := a.Deliver(now)
	require.NoError(t, err)
}
