package teamchess

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

func TestTeamChessInteractionAppliedOnce(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "", []commands.User{alice}, []commands.User{bob})
	req := in(alice, pub, "move", "", map[string]string{"move": "e4"})
	_, err := a.Handle(req)
	require.NoError(t, err)
	again := in(bob, pub, "move", "", map[string]string{"move": "e5"})
	again.InteractionID = req.InteractionID
	_, err = a.Handle(again)
	require.Contains(t, commandstest.UserMsg(t, err), "already applied")
	require.Len(t, load(t, store, g.ID).game.State().Actions, 1)
}

// TestTeamChessTeamThreadsReachTheGame: thread commands work in the team
// threads (linked to the game) as in the public thread; elsewhere they are
// refused.
func TestTeamChessTeamThreadsReachTheGame(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	before, _ := p.Snapshot()
	resp, err := a.Handle(in(alice, team[chess.White], "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	require.True(t, resp.Ephemeral, "the commander is answered privately")
	require.Contains(t, resp.Content, "**alice** (White) played **e4**")
	// The new board goes to every thread, once delivered: each thread's
	// own live board, edited in place; Black's commander is pinged in
	// Black's thread, the ping of White's deleted.
	posts, _ := p.Snapshot()
	require.Len(t, posts, len(before), "effects wait for the outbox")
	require.Equal(t, 4, commandstest.Deliver(t, a, t0), "three boards, a ping (replacing the one before)")
	posts, edits := p.Snapshot()
	require.Len(t, posts, len(before)+1)
	ping := posts[len(posts)-1]
	require.Equal(t, team[chess.Black], ping.Channel)
	require.True(t, strings.HasPrefix(ping.Msg.Content, bob.Mention()+", your move"), ping.Msg.Content)
	var to []string
	for _, s := range edits {
		to = append(to, s.Channel)
		require.Contains(t, s.Msg.Content, "**alice** (White) played **e4**")
		require.Len(t, s.Msg.Files, 1)
	}
	require.ElementsMatch(t, []string{pub, team[chess.White], team[chess.Black]}, to)
	require.Contains(t, boardIn(t, a, p, team[chess.White]).Cards[0].Title, "White team thread")
	require.Len(t, p.Deleted, 1, "White's ping deleted")
	resp, err = a.Handle(in(bob, team[chess.Black], "board", "", nil))
	require.NoError(t, err)
	require.True(t, resp.Ephemeral, "/board answers privately")
	require.Contains(t, resp.Cards[0].Title, "Black team thread")
	_, err = a.Handle(in(bob, "elsewhere", "board", "", nil))
	require.Contains(t, commandstest.UserMsg(t, err), "There is no game in this channel")
	require.Len(t, load(t, store, g.ID).game.State().Actions, 1)
}

// TestTeamChessSuggestGoesToTheTeamThreadOnly: a suggestion is sent to the
// adviser's team thread and nowhere else, and the answer is private.
func TestTeamChessSuggestGoesToTheTeamThreadOnly(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	_, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	before, _ := p.Snapshot()
	req := in(carol, pub, "suggest", "", map[string]string{"move": "e2e4", "comment": "centre"})
	require.True(t, a.AnswersPrivately(req))
	resp, err := a.Handle(req)
	require.NoError(t, err)
	require.True(t, resp.Ephemeral)
	commandstest.Deliver(t, a, t0)
	posts, _ := p.Snapshot()
	require.Len(t, posts, len(before)+1)
	require.Equal(t, team[chess.White], posts[len(before)].Channel)
	require.Equal(t, "💡 **carol** suggests **e4** to <@100001>.\n> centre", posts[len(before)].Msg.Content)
	_, err = a.Handle(in(carol, pub, "suggest", "", map[string]string{"move": "e5"}))
	require.Contains(t, commandstest.UserMsg(t, err), "`e5` is not a legal move")
	_, err = a.Handle(in(dan, pub, "suggest", "", map[string]string{"move": "e5"}))
	require.Contains(t, commandstest.UserMsg(t, err), "Suggest a move when Black is to move (now White is to act)")
	commandstest.Deliver(t, a, t0)
	posts, _ = p.Snapshot()
	require.Len(t, posts, len(before)+1, "refused suggestions post nothing")
}

// TestTeamChessRecordsTalliedOnce: the end of a game adds to the records in
// its own transaction, once.
func TestTeamChessRecordsTalliedOnce(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	_, pub, _ := startGame(t, a, store, "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", []commands.User{alice, carol}, []commands.User{bob})
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "a8=Agent"}))
	require.NoError(t, err)
	_, err = a.Handle(in(bob, pub, "resign", "", nil))
	require.Contains(t, commandstest.UserMsg(t, err), "This game is over: White wins by Fatigue victory.")
	stats, err := allStats(a, "g")
	require.NoError(t, err)
	require.Len(t, stats, 3)
	byID := map[string]tc.PlayerStats{}
	for _, s := range stats {
		byID[s.ID] = s
	}
	require.Equal(t, tc.PlayerStats{ID: alice.ID, Name: "alice", Games: 1, TeamWins: 1, PersonalWins: 1,
		WinsBy: map[string]int{"fatigue_victory": 1}}, byID[alice.ID])
	require.Equal(t, tc.PlayerStats{ID: bob.ID, Name: "bob", Games: 1, TeamLosses: 1, PersonalLosses: 1,
		LossesBy: map[string]int{"fatigue_victory": 1}}, byID[bob.ID])
	require.Equal(t, 1, byID[carol.ID].TeamWins)
	other, err := allStats(a, "another guild")
	require.NoError(t, err)
	require.Empty(t, other)
}

// TestTeamChessAutocompleteStaysWithinDiscordLimits: with many sacrifice
// choices, autocomplete lists at most 25, each value short enough and
// playable.
func TestTeamChessAutocompleteStaysWithinDiscordLimits(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, _ := startGame(t, a, store, "4k3/P7/8/7q/8/2K5/7p/Q7 w - - 0 1", []commands.User{alice}, []commands.User{bob})
	for _, typed := range []string{"", "a8", "a8=sab", "a7a8s"} {
		req := in(alice, pub, "move", "", map[string]string{"move": typed})
		req.Type, req.Focused = commands.AutocompleteRequest, "move"
		resp, err := a.Handle(req)
		require.NoError(t, err)
		require.NotEmpty(t, resp.Choices, typed)
		require.LessOrEqual(t, len(resp.Choices), 25)
		s := load(t, store, g.ID)
		for _, c := range resp.Choices {
			v := c.Value
			require.LessOrEqual(t, len(v), 100)
			require.LessOrEqual(t, len(c.Name), 100)
			_, err := s.game.ParseMove(v)
			require.NoError(t, err, "choice %q", v)
			if typed != "" {
				require.True(t, strings.HasPrefix(strings.ToLower(c.Name), strings.ToLower(typed)) || strings.HasPrefix(v, typed), "%q for %q", c.Name, typed)
			}
		}
	}
}

// TestTeamChessAutocompleteOnlyForWhoMayAct: /move suggestions go to the
// active commander of the side to move, /suggest suggestions to that
// side's members who may advise; everyone else gets one choice saying
// whose turn it is (its value plays nothing), in every thread
// (suggesting the other side's moves would be advice nobody may act on).
func TestTeamChessAutocompleteOnlyForWhoMayAct(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	choices := func(u commands.User, channel, command string) []string {
		t.Helper()
		req := in(u, channel, command, "", map[string]string{"move": ""})
		req.Type, req.Focused = commands.AutocompleteRequest, "move"
		resp, err := a.Handle(req)
		require.NoError(t, err)
		var out []string
		for _, c := range resp.Choices {
			out = append(out, c.Value)
		}
		return out
	}
	check := func(mover, adviser commands.User, others ...commands.User) {
		t.Helper()
		s := load(t, store, g.ID)
		for _, channel := range []string{pub, team[chess.White], team[chess.Black]} {
			moves := choices(mover, channel, "move")
			require.NotEmpty(t, moves, "%s may move", mover.Name)
			for _, v := range moves {
				_, err := s.game.ParseMove(v)
				require.NoError(t, err, "%s's choice %q is a legal move of the side to move", mover.Name, v)
			}
			require.Equal(t, moves, choices(adviser, channel, "suggest"), "%s may advise", adviser.Name)
			waiting := []string{commands.WaitingValue}
			require.Equal(t, waiting, choices(mover, channel, "suggest"), "the active commander plays, not advises")
			require.Equal(t, waiting, choices(adviser, channel, "move"), "an adviser does not move")
			for _, u := range append(others, commands.User{ID: "100009", Name: "erin"}) {
				require.Equal(t, waiting, choices(u, channel, "move"), "%s is not to move", u.Name)
				require.Equal(t, waiting, choices(u, channel, "suggest"), "%s may not advise now", u.Name)
			}
		}
	}
	check(alice, carol, bob, dan)
	_, err := a.Handle(in(alice, pub, "move", "", map[string]string{"move": "e4"}))
	require.NoError(t, err)
	check(bob, dan, alice, carol)
	// A member with a personal loss may no longer advise (rule 1.4).
	_, err = commandstest.Confirm(t, a, in(bob, pub, "tagout", "", nil))
	require.NoError(t, err)
	require.Equal(t, []string{commands.WaitingValue}, choices(bob, pub, "suggest"), "bob has a personal loss")
	require.NotEmpty(t, choices(dan, pub, "move"), "dan commands Black now")
	req := in(erin, pub, "move", "", map[string]string{"move": ""})
	req.Type, req.Focused = commands.AutocompleteRequest, "move"
	resp, err := a.Handle(req)
	require.NoError(t, err)
	require.Equal(t, "Waiting for dan (Black) to move", resp.Choices[0].Name, "the choice names whose turn it is")
	actions := len(load(t, store, g.ID).game.State().Actions)
	for _, u := range []commands.User{dan, erin} {
		_, err = a.Handle(in(u, pub, "move", "", map[string]string{"move": commands.WaitingValue}))
		require.Contains(t, commandstest.UserMsg(t, err), "nothing was played")
	}
	require.Len(t, load(t, store, g.ID).game.State().Actions, actions, "the waiting choice plays nothing")
}

// TestTeamChessLobbyDoubleRules: a second command only balances the
// smaller team (rule 1.1, ruling A1), and is withdrawn when it no longer
// does.
func TestTeamChessLobbyDoubleRules(t *testing.T) {
	t.Parallel()
	u := func(names ...string) []commands.User {
		var out []commands.User
		for _, n := range names {
			out = append(out, commands.User{ID: n, Name: n})
		}
		return out
	}
	cases := []struct {
		white, black []commands.User
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
		l := &lobby{White: c.white, Black: c.black}
		require.Equal(t, c.want, l.canDouble(c.side), "case %d", i)
	}
	l := &lobby{White: u("a", "a"), Black: u("b", "c")}
	require.Empty(t, l.fixDoubles(), "a valid second command stays")
	l.Black = u("b")
	notes := l.fixDoubles()
	require.Len(t, notes, 1)
	require.Contains(t, notes[0], "second command for White was withdrawn")
	require.Equal(t, u("a"), l.White)
}

func TestTeamChessPrivateAnswers(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	for _, c := range []struct {
		req  *commands.Request
		want bool
	}{
		{&commands.Request{Type: commands.CommandRequest, Command: "suggest"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "record"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "teamchess", Sub: "rules"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "teamchess", Sub: "new"}, false},
		{&commands.Request{Type: commands.CommandRequest, Command: "move"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "lobby"}, false},
		{&commands.Request{Type: commands.AutocompleteRequest, Command: "suggest"}, false},
	} {
		require.Equal(t, c.want, private(c.req), "%+v", c.req)
		require.Equal(t, c.want, a.AnswersPrivately(c.req), "the framework asks the game: %+v", c.req)
	}
}

// TestTeamChessLobbyButtonsReachTheKind: scope "c" buttons find a lobby
// like a challenge; once the lobby is closed they are refused.
func TestTeamChessLobbyButtonsReachTheKind(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	resp, err := a.Handle(in(alice, "general", "teamchess", "new", nil))
	require.NoError(t, err)
	require.Contains(t, resp.Cards[0].Title, "Team Chess lobby")
	id, err := commands.ParseCustomID(resp.Rows[0][0].(ui.Button).Route)
	require.NoError(t, err)
	press := func(u commands.User, action string) (*commands.Response, error) {
		return a.Handle(click(u, commands.CustomID{Scope: "c", ID: id.ID, Action: action}.String()))
	}
	resp, err = press(bob, "join-black")
	require.NoError(t, err)
	require.True(t, resp.Update)
	require.Contains(t, resp.Content, "joined Black")
	_, err = press(bob, "fly")
	require.Contains(t, commandstest.UserMsg(t, err), `unknown action "fly"`)
	_, err = press(alice, "cancel")
	require.NoError(t, err)
	_, err = press(bob, "join-white")
	require.Contains(t, commandstest.UserMsg(t, err), "This challenge or lobby is no longer open.")
}

// TestLeaderboardRankIsPrivate: /teamchess leaderboard answers the list
// publicly; the invoker's own rank goes in a private note, and a player
// without a record gets none (ruling D11).
func TestLeaderboardRankIsPrivate(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	ranked, unranked := commands.User{ID: "100001", Name: "ann"}, commands.User{ID: "100009", Name: "zed"}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for _, ps := range []tc.PlayerStats{
			{ID: ranked.ID, Name: "ann", Games: 1, TeamWins: 1, PersonalWins: 1},
			{ID: "100002", Name: "bob", Games: 1, TeamLosses: 1, PersonalLosses: 1},
		} {
			if err := tx.Records().Put(Kind, "g", ps.ID, &ps); err != nil {
				return err
			}
		}
		return nil
	}))
	r, err := a.Handle(commandstest.Cmd(ranked, "teamchess", "leaderboard", nil))
	require.NoError(t, err)
	require.False(t, r.Ephemeral)
	public := r.Cards[0].Description + r.Cards[0].Footer + r.Content
	require.Contains(t, public, "**1.** <@100001>")
	require.NotContains(t, public, "Your rank")
	require.NotNil(t, r.PrivateNote)
	require.Contains(t, r.PrivateNote.Content, "Your rank: 1 of 2")

	r, err = a.Handle(commandstest.Cmd(unranked, "teamchess", "leaderboard", nil))
	require.NoError(t, err)
	require.False(t, r.Ephemeral)
	require.Nil(t, r.PrivateNote, "no record, nothing private")
}

// TestLobbyExpires: a lobby stays open Settings.LobbyTTL after its last
// change; then a click is refused, and the sweep deletes it and closes its
// message (the framework, through the game's Spec.LobbyExpired). Downtime
// is credited to it like to a challenge.
func TestLobbyExpires(t *testing.T) {
	t.Parallel()
	a, p, _ := newApp(t)
	a.Settings.LobbyTTL = 24 * time.Hour
	resp, err := a.Handle(in(alice, "general", "teamchess", "new", nil))
	require.NoError(t, err)
	require.NotNil(t, resp.Posted)
	resp.Posted("lobbymsg")
	id, err := commands.ParseCustomID(resp.Rows[0][0].(ui.Button).Route)
	require.NoError(t, err)
	join := func(u commands.User, at time.Time) (*commands.Response, error) {
		r := click(u, commands.CustomID{Scope: "c", ID: id.ID, Action: "join-white"}.String())
		r.ChannelID, r.Now = "general", at
		return a.Handle(r)
	}
	edits := func() []commandstest.Edited { _, e := p.Snapshot(); return e }
	// A join 23 hours in keeps it open for another 24.
	_, err = join(bob, t0.Add(23*time.Hour))
	require.NoError(t, err)
	require.NoError(t, a.Sweep(t0.Add(46*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(46*time.Hour))
	require.Empty(t, edits(), "still open 23 hours after the join")
	// At expiry a click is refused, changing nothing.
	_, err = join(carol, t0.Add(47*time.Hour))
	require.Contains(t, commandstest.UserMsg(t, err), "This lobby has expired")
	require.NoError(t, a.Sweep(t0.Add(47*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(47*time.Hour))
	require.Len(t, edits(), 1)
	e := edits()[0]
	require.Equal(t, "lobbymsg", e.ID)
	require.Equal(t, "general", e.Channel)
	require.Empty(t, e.Msg.Rows, "an expired lobby has no buttons")
	require.Contains(t, e.Msg.Cards[0].Description, "expired")
	require.Contains(t, e.Msg.Cards[0].Fields[0].Value, bob.Mention(), "the closed lobby still shows its queues")
	_, err = join(carol, t0.Add(48*time.Hour))
	require.Contains(t, commandstest.UserMsg(t, err), "no longer open")
	require.NoError(t, a.Sweep(t0.Add(72*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(72*time.Hour))
	require.Len(t, edits(), 1, "closed once")
}

func TestLobbyExpiryCreditsDowntime(t *testing.T) {
	t.Parallel()
	a, p, _ := newApp(t)
	resp, err := a.Handle(in(alice, "general", "teamchess", "new", nil))
	require.NoError(t, err)
	resp.Posted("lobbymsg")
	require.NoError(t, a.Heartbeat(t0.Add(time.Hour)))
	down, err := a.CreditDowntime(t0.Add(11 * time.Hour))
	require.NoError(t, err)
	require.Equal(t, 10*time.Hour, down)
	require.NoError(t, a.Sweep(t0.Add(33*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(33*time.Hour))
	_, edits := p.Snapshot()
	require.Empty(t, edits, "24 hours of open time plus 10 of downtime")
	require.NoError(t, a.Sweep(t0.Add(34*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(34*time.Hour))
	_, edits = p.Snapshot()
	require.Len(t, edits, 1)
}

// TestGamesNeedATextChannel: lobbies are opened only in a server text
// channel, where the bot can create the game's threads.
func TestGamesNeedATextChannel(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	open := func(channel string, typ ui.ChannelType) error {
		p.Types[channel] = typ
		_, err := a.Handle(in(alice, channel, "teamchess", "new", nil))
		return err
	}
	require.Contains(t, commandstest.UserMsg(t, open("th9", ui.PublicThread)), "Use this in a server text channel, not in a thread")
	require.Contains(t, commandstest.UserMsg(t, open("voice", ui.OtherChannel)), "this kind of channel cannot hold the game's threads")
	require.NoError(t, open("general", ui.TextChannel))
	n := 0
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		return tx.Lobbies().Each(func(string, []byte) error { n++; return nil })
	}))
	require.Equal(t, 1, n, "refused lobbies are not stored")
}

// TestTrimLabelCutsByCharacters: names in the lobby's select labels are
// cut by characters, keeping UTF-8 valid.
func TestTrimLabelCutsByCharacters(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("象", 60)
	require.Equal(t, strings.Repeat("象", 40)+"…", trimLabel(name))
	require.Equal(t, "short", trimLabel("short"))
}
