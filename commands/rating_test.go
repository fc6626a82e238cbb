package commands_test

import (
	"bytes"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// ratingApp is the toy game on a store that runs every transaction twice
// (the first run thrown away, as etcd may): a rating must come out once.
func ratingApp(t *testing.T) (*commands.App, *commandstest.Platform, *storage.Memory) {
	p := commandstest.NewPlatform()
	mem := storage.NewMemory()
	a := commands.New(rerunStore{mem}, p, commands.Settings{BoardSize: 320, MoveTime: time.Hour, ChallengeTTL: time.Hour, LobbyTTL: time.Hour,
		RemindAt: 0.75}, slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	a.Now = fixed(commandstest.T0)
	commands.Register[*tttState](a, ticTacToe{})
	return a, p, mem
}

// tttGame opens a challenge from x to o (casual or rated), accepts it and
// returns the game's thread (the challenge's message ID msg) and the
// challenge's text.
func tttGame(t *testing.T, a *commands.App, x, o commands.User, msg string, casual bool) string {
	r := commandstest.Cmd(x, "ttt", "challenge", nil)
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &o}
	if casual {
		r.Options["casual"] = commands.Option{Bool: true}
	}
	ch, err := a.Handle(r)
	require.NoError(t, err)
	ch.Posted(msg)
	_, err = a.Handle(commandstest.Click(o, commandstest.ButtonOf(t, ch.Message, "Accept"), msg))
	require.NoError(t, err)
	return ch.Cards[0].Description
}

func rateMove(t *testing.T, a *commands.App, thread string, u commands.User, cell string, at time.Time) (*commands.Response, *commands.Request) {
	r := commandstest.Cmd(u, "move", "", map[string]string{"move": cell})
	r.ChannelID, r.Now = thread, at
	resp, err := a.Handle(r)
	require.NoError(t, err)
	return resp, r
}

func rating(t *testing.T, s storage.Store, kind, user string) *storage.PlayerRating {
	var pr *storage.PlayerRating
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		var err error
		pr, err = tx.Ratings().Get(kind, "g", user)
		return err
	}))
	return pr
}

// TestGameEndRatesOnce: a rated game's end updates both players' ratings
// once (Glicko-2 from 1500/350, a first game counting no rating period:
// 1662.21 and 1337.79), says so in the final
// message, and neither a replayed interaction nor a second game's end
// rates it again; a time-out's end is rated too.
func TestGameEndRatesOnce(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, p, mem := ratingApp(t)
	desc := tttGame(t, a, alice, bob, "m1", false)
	require.Contains(t, desc, "**Rated** game")
	require.Contains(t, desc, "<@"+alice.ID+"> 1500?", "each player's rating on the challenge")

	var last *commands.Response
	var lastReq *commands.Request
	for i, m := range []string{"1", "4", "2", "5", "3"} {
		last, lastReq = rateMove(t, a, "m1", []commands.User{alice, bob}[i%2], m, commandstest.T0.Add(time.Duration(i)*time.Minute))
	}
	require.Contains(t, last.Content, "Ratings: <@"+alice.ID+"> 1500? → 1662? (+162) · <@"+bob.ID+"> 1500? → 1338? (−162)",
		"the final message announces the changes")
	ra, rb := rating(t, mem, "ttt", alice.ID), rating(t, mem, "ttt", bob.ID)
	require.InDelta(t, 1662.21, ra.Rating, 0.01)
	require.InDelta(t, 290.23, ra.Deviation, 0.01)
	require.InDelta(t, 1337.79, rb.Rating, 0.01)
	require.Equal(t, storage.PlayerRating{Rating: ra.Rating, Deviation: ra.Deviation, Volatility: ra.Volatility, Last: ra.Last,
		Games: 1, Wins: 1, Streak: 1, BestStreak: 1, LastGame: ra.LastGame}, *ra)
	require.Equal(t, 1, rb.Losses)
	require.Equal(t, -1, rb.Streak)

	// The same interaction again (a retry): refused, nothing rated again.
	_, err := a.Handle(lastReq)
	require.Error(t, err)
	require.Equal(t, ra, rating(t, mem, "ttt", alice.ID))

	// A second game a day later: bob (O) wins on time; its announcement is
	// the message that carries the line.
	tttGame(t, a, alice, bob, "m2", false)
	day := commandstest.T0.Add(24 * time.Hour)
	rateMove(t, a, "m2", alice, "1", day)
	rateMove(t, a, "m2", bob, "5", day)
	require.NoError(t, a.Sweep(day.Add(2*time.Hour))) // alice's move times out
	commandstest.Deliver(t, a, day.Add(3*time.Hour))
	posts, _ := p.Snapshot()
	timeout := ""
	for _, s := range posts {
		if s.Channel == "m2" && bytes.Contains([]byte(s.Msg.Content), []byte("ran out of time")) {
			timeout = s.Msg.Content
		}
	}
	require.Contains(t, timeout, "Ratings: <@"+alice.ID+"> 1662? → ")
	ra2, rb2 := rating(t, mem, "ttt", alice.ID), rating(t, mem, "ttt", bob.ID)
	require.Less(t, ra2.Rating, ra.Rating)
	require.Greater(t, rb2.Rating, rb.Rating)
	require.Equal(t, []int{2, 1, 1, -1, 1}, []int{ra2.Games, ra2.Wins, ra2.Losses, ra2.Streak, ra2.BestStreak})
	require.Equal(t, []int{2, 1, 1, 1, 1}, []int{rb2.Games, rb2.Wins, rb2.Losses, rb2.Streak, rb2.BestStreak})

	// The leaderboard, public, with the invoker's own line privately.
	lb, err := a.Handle(commandstest.Cmd(alice, "leaderboard", "", map[string]string{"game": "ttt"}))
	require.NoError(t, err)
	require.False(t, lb.Ephemeral)
	require.Contains(t, lb.Cards[0].Title, "Tic-tac-toe leaderboard")
	require.Contains(t, lb.Cards[0].Description, "**1.** <@"+bob.ID+">")
	require.Contains(t, lb.Cards[0].Description, "**2.** <@"+alice.ID+">")
	require.NotNil(t, lb.PrivateNote)
	require.Contains(t, lb.PrivateNote.Content, "Your rank in Tic-tac-toe: 2 of 2")
	// Another server sees none of it.
	other := commandstest.Cmd(alice, "leaderboard", "", map[string]string{"game": "ttt"})
	other.GuildID = "g2"
	lb2, err := a.Handle(other)
	require.NoError(t, err)
	require.NotContains(t, lb2.Content+lb2.Message.Content, alice.ID)
	require.Empty(t, lb2.Cards)
	_, err = a.Handle(commandstest.Cmd(alice, "leaderboard", "", map[string]string{"game": "chess960"}))
	require.Contains(t, commandstest.UserMsg(t, err), "no game")

	// /stats: rating, record, streaks, recent games with links.
	st := commandstest.Cmd(carolUser(), "stats", "", nil)
	st.Options["user"] = commands.Option{User: &alice}
	sr, err := a.Handle(st)
	require.NoError(t, err)
	text := sr.Cards[0].Fields[0].Value
	require.Contains(t, text, "rank 2 of 2")
	require.Contains(t, text, "1 W · 1 L · 0 D")
	require.Contains(t, text, "Streak: 1 loss · best win streak: 1")
	recent := sr.Cards[0].Fields[len(sr.Cards[0].Fields)-1]
	require.Equal(t, "Recent games", recent.Name)
	require.Contains(t, recent.Value, "(https://discord.com/channels/g/m2")
	require.Contains(t, recent.Value, "**lost** (time) vs <@"+bob.ID+"> (rated)")
	require.Contains(t, recent.Value, "**won** (three in a row) vs <@"+bob.ID+"> (rated)")
}

func carolUser() commands.User { return commandstest.Carol }

// TestCasualGameChangesNoRating: the casual option makes the game
// unrated: said on the challenge, no rating written, no line in the final
// message; /stats lists it as casual.
func TestCasualGameChangesNoRating(t *testing.T) {
	t.Parallel()
	alice, bob := commandstest.Alice, commandstest.Bob
	a, _, mem := ratingApp(t)
	desc := tttGame(t, a, alice, bob, "m1", true)
	require.Contains(t, desc, "**Casual** game (no rating changes)")
	require.True(t, commandstest.Game(t, mem, g0(t, mem)).Unrated)
	var last *commands.Response
	for i, m := range []string{"1", "4", "2", "5", "3"} {
		last, _ = rateMove(t, a, "m1", []commands.User{alice, bob}[i%2], m, commandstest.T0)
	}
	require.NotContains(t, last.Content, "Ratings:")
	require.NoError(t, mem.View(t.Context(), func(tx storage.Tx) error {
		_, err := tx.Ratings().Get("ttt", "g", alice.ID)
		require.ErrorIs(t, err, storage.ErrNotFound)
		return nil
	}))
	sr, err := a.Handle(commandstest.Cmd(alice, "stats", "", map[string]string{"game": "ttt"}))
	require.NoError(t, err)
	require.Contains(t, sr.Cards[0].Fields[0].Value, "No rated game yet")
	require.Contains(t, sr.Cards[0].Fields[1].Value, "**won** (three in a row) vs <@"+bob.ID+"> (casual)")
}
