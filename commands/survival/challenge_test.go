package survival

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// challengeOf opens alice's challenge to bob with opts in "general" and
// records it as posted as the message messageID; it returns the challenge
// message.
func challengeOf(t *testing.T, a *commands.App, messageID string, opts map[string]string) commands.Message {
	t.Helper()
	r := cmd(alice, "survival", "challenge", opts)
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	resp, err := a.Handle(r)
	require.NoError(t, err)
	require.NotNil(t, resp.Posted)
	resp.Posted(messageID)
	return resp.Message
}

// gameIn reads the game whose thread is threadID.
func gameIn(t *testing.T, store storage.Store, threadID string) (*storage.Game, *State) {
	t.Helper()
	var id string
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		g, err := tx.Games().ByChannel(threadID)
		if err == nil {
			id = g.ID
		}
		return err
	}))
	return load(t, store, id)
}

// activeGames counts alice's active games.
func activeGames(t *testing.T, store storage.Store) int {
	t.Helper()
	n := 0
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		games, err := tx.Games().Active(alice.ID)
		n = len(games)
		return err
	}))
	return n
}

// TestGamesNeedATextChannel: challenges are opened only in a server text
// channel, where the bot can create the game's threads (SandTable and
// Team Chess: in package commands).
func TestGamesNeedATextChannel(t *testing.T) {
	t.Parallel()
	a, p, _ := newApp(t)
	open := func(channel string, typ ui.ChannelType) error {
		p.Types[channel] = typ
		r := cmd(alice, "survival", "challenge", nil)
		r.ChannelID = channel
		r.Options["opponent"] = commands.Option{User: &bob}
		_, err := a.Handle(r)
		return err
	}
	require.Contains(t, userMsg(t, open("th9", ui.PublicThread)), "Use this in a server text channel, not in a thread")
	require.Contains(t, userMsg(t, open("voice", ui.OtherChannel)), "this kind of channel cannot hold the game's threads")
	require.NoError(t, open("general", ui.TextChannel))
}

// TestAcceptWhereThreadsCannotBe: a challenge whose channel cannot hold
// threads is closed at acceptance, saying why; no game is left behind.
func TestAcceptWhereThreadsCannotBe(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	msg := challengeOf(t, a, "m1", nil)
	p.Fail = func(op, _ string) error {
		if op == "thread" {
			return errors.Join(commands.ErrNoThreads, errors.New("HTTP 400"))
		}
		return nil
	}
	acc, err := a.Handle(click(bob, buttonOf(t, msg, "Accept")))
	require.NoError(t, err)
	require.True(t, acc.Update)
	require.Contains(t, acc.Cards[0].Description, "This game cannot start here")
	require.Empty(t, acc.Rows)
	_, err = a.Handle(click(bob, buttonOf(t, msg, "Accept")))
	require.Contains(t, userMsg(t, err), "no longer open")
	require.Zero(t, activeGames(t, store))
	require.Zero(t, a.Pending(), "nothing to deliver")
}

// TestAcceptStartsTheGame: Accept starts the game in the thread of the
// challenge's message, with the colours and time asked for; the players
// are added and the first board posted from the outbox, not before.
func TestAcceptStartsTheGame(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	msg := challengeOf(t, a, "chal1", map[string]string{"color": "black", "move_time": "30m"})
	require.Contains(t, msg.Cards[0].Description, "Colour of "+alice.Mention()+": black.")

	_, err := a.Handle(commandstest.Click(alice, buttonOf(t, msg, "Accept"), "chal1"))
	require.Contains(t, userMsg(t, err), "You made this challenge")
	_, err = a.Handle(commandstest.Click(carol, buttonOf(t, msg, "Accept"), "chal1"))
	require.Contains(t, userMsg(t, err), "This challenge is for bob")

	acc, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.NoError(t, err)
	require.True(t, acc.Update)
	require.Contains(t, acc.Cards[0].Description, "The game is on in <#chal1>")
	require.Empty(t, acc.Rows)
	require.Equal(t, []string{"chal1"}, p.Threads, "the thread is the challenge message's")

	g, st := gameIn(t, store, "chal1")
	require.True(t, g.Active)
	require.Equal(t, Game{}.Version(), g.StateVersion)
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, g.Players)
	require.Equal(t, bob, st.White, "alice asked for Black")
	require.Equal(t, alice, st.Black)
	require.Equal(t, 30*time.Minute, st.MoveTime)
	require.True(t, g.Deadline.Equal(t0.Add(30*time.Minute)), "deadline %s", g.Deadline)
	require.Nil(t, g.Outcome)

	require.Empty(t, p.Posts, "effects wait for the outbox")
	require.Empty(t, p.Members)
	commandstest.Deliver(t, a, t0)
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, p.Members["chal1"])
	require.Len(t, p.Posts, 2, "the board and the ping of White")
	require.Equal(t, bob.Mention()+", your move (time runs out <t:"+unix(t0.Add(30*time.Minute))+":R>).", p.Posts[1].Msg.Content)
	first := p.Posts[0]
	require.Equal(t, "chal1", first.Channel)
	require.Contains(t, first.Msg.Content, bob.Mention()+" (White) vs "+alice.Mention()+" (Black)")
	require.Contains(t, fieldOf(first.Msg, "To move"), bob.Mention()+" (White), move 1")
	require.Contains(t, fieldOf(first.Msg, "To move"), "<t:"+unix(t0.Add(30*time.Minute))+":R>")
	require.Equal(t, "g:"+g.ID+":flip:0", buttonOf(t, first.Msg, "Flip board"))
	require.Nil(t, fileOf(first.Msg, ".pgn"))

	_, err = a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.Contains(t, userMsg(t, err), "no longer open", "a second Accept starts nothing")
	require.Equal(t, 1, activeGames(t, store))

	// The game is played in its thread: White's first move is a promotion.
	mv := cmd(bob, "move", "", map[string]string{"move": "a8=Q"})
	mv.ChannelID = "chal1"
	resp, err := a.Handle(mv)
	require.NoError(t, err)
	require.Contains(t, resp.Content, "played **a8=Q**")
}

// TestAcceptColours: White and Black as asked; random gives each side to
// either player over many games.
func TestAcceptColours(t *testing.T) {
	t.Parallel()
	whites := map[string]int{}
	for i := range 40 {
		color := "random"
		switch i {
		case 0:
			color = "white"
		case 1:
			color = "black"
		}
		a, _, store := newApp(t)
		msg := challengeOf(t, a, "chal1", map[string]string{"color": color})
		_, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
		require.NoError(t, err)
		_, st := gameIn(t, store, "chal1")
		require.Equal(t, 24*time.Hour, st.MoveTime, "the server's default time")
		switch color {
		case "white":
			require.Equal(t, alice, st.White)
		case "black":
			require.Equal(t, alice, st.Black)
		default:
			require.ElementsMatch(t, []commands.User{alice, bob}, []commands.User{st.White, st.Black})
			whites[st.White.ID]++
		}
	}
	require.Len(t, whites, 2, "38 random games gave White to one player only: %v", whites)
}

// TestAcceptSurvivesDiscordErrors: Discord failing at the thread leaves the
// challenge open (Accept again starts one game); failing at the first
// board delays it, it is posted once on a later delivery.
func TestAcceptSurvivesDiscordErrors(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	msg := challengeOf(t, a, "chal1", nil)
	serverError := &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: errors.New("HTTP 500")}
	failing := map[string]bool{"thread": true, "send": true}
	p.Fail = func(op, _ string) error {
		if failing[op] {
			return serverError
		}
		return nil
	}
	_, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.Contains(t, userMsg(t, err), "The challenge is still open")
	require.Zero(t, activeGames(t, store))

	failing["thread"] = false
	acc, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.NoError(t, err)
	require.Contains(t, acc.Cards[0].Description, "The game is on in <#chal1>")
	require.Equal(t, 1, activeGames(t, store))

	commandstest.Deliver(t, a, t0)
	require.Empty(t, p.Posts, "the board's post failed")
	require.Equal(t, 2, a.Pending(), "and waits for a retry (the ping behind it)")
	failing["send"] = false
	commandstest.Deliver(t, a, t0) // not due yet
	require.Empty(t, p.Posts)
	commandstest.Deliver(t, a, t0.Add(time.Minute))
	require.Len(t, p.Posts, 2, "the board and the ping")
	require.Equal(t, "chal1", p.Posts[0].Channel)
	require.Zero(t, a.Pending())
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Len(t, p.Posts, 2, "posted once")
}

// TestChallengeDeclineCancelExpire: only the opponent declines, only the
// challenger cancels; either closes the challenge without a game; an
// expired challenge is closed when clicked or swept.
func TestChallengeDeclineCancelExpire(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	msg := challengeOf(t, a, "chal1", nil)
	_, err := a.Handle(click(bob, buttonOf(t, msg, "Cancel")))
	require.Contains(t, userMsg(t, err), "Only alice")
	_, err = a.Handle(click(alice, buttonOf(t, msg, "Decline")))
	require.Contains(t, userMsg(t, err), "only bob can decline")
	r, err := a.Handle(click(bob, buttonOf(t, msg, "Decline")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Cards[0].Description, "declined the challenge")
	_, err = a.Handle(click(bob, buttonOf(t, msg, "Accept")))
	require.Contains(t, userMsg(t, err), "no longer open")

	msg = challengeOf(t, a, "chal2", nil)
	r, err = a.Handle(click(alice, buttonOf(t, msg, "Cancel")))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Description, "withdrew this challenge")
	_, err = a.Handle(click(bob, buttonOf(t, msg, "Accept")))
	require.Contains(t, userMsg(t, err), "no longer open")

	// Clicked after its hour.
	msg = challengeOf(t, a, "chal3", nil)
	late := click(bob, buttonOf(t, msg, "Accept"))
	late.Now = t0.Add(time.Hour)
	r, err = a.Handle(late)
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Description, "expired")

	// Swept after its hour: its message is edited.
	challengeOf(t, a, "chal4", nil)
	require.NoError(t, a.Sweep(t0.Add(59*time.Minute)))
	require.Empty(t, p.Edits)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	require.Empty(t, p.Edits, "the edit goes through the outbox")
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Len(t, p.Edits, 1)
	require.Equal(t, "chal4", p.Edits[0].ID)
	require.Contains(t, p.Edits[0].Msg.Cards[0].Description, "expired")
	require.Empty(t, p.Edits[0].Msg.Rows)

	require.Zero(t, activeGames(t, store))
	require.Empty(t, p.Threads)
}

// TestChallengeRefusals: a challenge names a person other than oneself,
// a colour among white, black and random, and a time per move in range;
// nothing is opened otherwise.
func TestChallengeRefusals(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	open := func(opponent *commands.User, opts map[string]string) error {
		r := cmd(alice, "survival", "challenge", opts)
		r.ChannelID = "general"
		if opponent != nil {
			r.Options["opponent"] = commands.Option{User: opponent}
		}
		_, err := a.Handle(r)
		return err
	}
	robot := commands.User{ID: "100009", Name: "robot", Bot: true}
	require.Contains(t, userMsg(t, open(nil, nil)), "Name the player you challenge")
	require.Contains(t, userMsg(t, open(&alice, nil)), "You cannot challenge yourself")
	require.Contains(t, userMsg(t, open(&robot, nil)), "is a bot and cannot play")
	require.Contains(t, userMsg(t, open(&bob, map[string]string{"color": "green"})), "color must be white, black or random, not `green`")
	require.Contains(t, userMsg(t, open(&bob, map[string]string{"move_time": "10s"})), "between 1m and 30d")
	dm := cmd(alice, "survival", "challenge", nil)
	dm.GuildID = ""
	dm.Options["opponent"] = commands.Option{User: &bob}
	_, err := a.Handle(dm)
	require.Contains(t, userMsg(t, err), "not in direct messages")
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		return tx.Challenges().Each(func(id string, _ []byte) error {
			t.Errorf("challenge %s was opened", id)
			return nil
		})
	}))
	require.NoError(t, open(&bob, map[string]string{"color": "White", "move_time": "3d"}), "the colour in any case")
}

// TestOneOpenChallengePerPair: two players have at most one open challenge
// between them in a server, in either direction; a second is refused,
// naming the open one, and opens nothing; once that one is answered or has
// expired, a new one opens; one never shown is replaced (ruling 27).
func TestOneOpenChallengePerPair(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	open := func(from, to commands.User, guild string, now time.Time) error {
		r := cmd(from, "survival", "challenge", nil)
		r.ChannelID, r.GuildID, r.Now = "general", guild, now
		r.Options["opponent"] = commands.Option{User: &to}
		resp, err := a.Handle(r)
		if err == nil {
			resp.Posted("msg-" + from.Name + "-" + to.Name)
		}
		return err
	}
	count := func() int {
		n := 0
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
			return tx.Challenges().Each(func(string, []byte) error { n++; return nil })
		}))
		return n
	}
	msg := challengeOf(t, a, "chal1", nil)
	for _, c := range []struct{ from, to commands.User }{{alice, bob}, {bob, alice}} {
		err := open(c.from, c.to, "g", t0.Add(time.Minute))
		m := userMsg(t, err)
		require.Contains(t, m, "already have an open challenge", "%s to %s", c.from.Name, c.to.Name)
		require.Contains(t, m, "https://discord.com/channels/g/general/chal1", "the refusal links the open challenge")
	}
	require.Equal(t, 1, count(), "a refused challenge opens nothing")
	require.NoError(t, open(alice, carol, "g", t0), "another pair")
	require.NoError(t, open(bob, alice, "other-guild", t0), "the same pair in another server")
	require.Equal(t, 3, count())

	_, err := a.Handle(click(bob, buttonOf(t, msg, "Decline")))
	require.NoError(t, err)
	require.NoError(t, open(bob, alice, "g", t0), "the open one was declined")
	require.Error(t, open(alice, bob, "g", t0))
	require.NoError(t, open(alice, bob, "g", t0.Add(time.Hour)), "the open one has expired, though not swept yet")

	// A challenge whose message was never shown (its answer failed) is
	// replaced by the next one between the same players.
	r := cmd(carol, "survival", "challenge", nil)
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	_, err = a.Handle(r)
	require.NoError(t, err)
	n := count()
	require.NoError(t, open(bob, carol, "g", t0), "the unseen challenge does not block")
	require.Equal(t, n, count(), "the unseen challenge was replaced")
}
