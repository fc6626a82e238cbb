package sandtable

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// remindersIn are the turn reminders posted in channel so far.
func remindersIn(p *commandstest.Platform, channel string) []string {
	posts, _ := p.Snapshot()
	var out []string
	for _, s := range posts {
		if s.Channel == channel && strings.HasPrefix(s.Msg.Content, "Reminder:") {
			out = append(out, s.Msg.Content)
		}
	}
	return out
}

// startReminded opens alice's challenge to bob with an 8-hour turn,
// accepted at t0 (thread "m1"), reminders at 75 %; it returns the game's ID.
func startReminded(t *testing.T) (*commands.App, *commandstest.Platform, storage.Store, string) {
	t.Helper()
	a, p, store := newApp(t)
	a.Settings.RemindAt = 0.75
	r := cmd(alice, "sandtable", "challenge", map[string]string{"turn_time": "8h"})
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(r)
	require.NoError(t, err)
	_, err = a.Handle(click(bob, buttonOf(t, ch.Message, "Accept")))
	require.NoError(t, err)
	var id string
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		games, err := tx.Games().Active(alice.ID)
		require.Len(t, games, 1)
		id = games[0].ID
		return err
	}))
	commandstest.Deliver(t, a, t0)
	return a, p, store, id
}

// TestReminderOfTheDeployment: the deployment's reminder falls at 75 % of
// its period and names the players who have not confirmed: both, or only
// the one still deploying; it tells nothing of either deployment.
func TestReminderOfTheDeployment(t *testing.T) {
	t.Parallel()
	t.Run("both", func(t *testing.T) {
		a, p, store, id := startReminded(t)
		require.True(t, commandstest.Game(t, store, id).Remind.Equal(t0.Add(6*time.Hour)))
		games, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: alice, Now: t0})
		require.NoError(t, err)
		require.Contains(t, games.Cards[0].Description, "**deploy and confirm**, time runs out <t:")
		require.Contains(t, games.Cards[0].Description, "· waiting on **you** and "+bob.Mention())
		require.NoError(t, a.Sweep(t0.Add(6*time.Hour-time.Minute)))
		commandstest.Deliver(t, a, t0.Add(6*time.Hour))
		require.Empty(t, remindersIn(p, "m1"))
		require.NoError(t, a.Sweep(t0.Add(6*time.Hour)))
		commandstest.Deliver(t, a, t0.Add(6*time.Hour))
		require.Equal(t, []string{fmt.Sprintf("Reminder: %s and %s, 2 hours left on your deployment in https://discord.com/channels/g/m1 (time runs out <t:%d:R>).",
			alice.Mention(), bob.Mention(), t0.Add(8*time.Hour).Unix())}, remindersIn(p, "m1"))
	})
	t.Run("one confirmed", func(t *testing.T) {
		a, p, store, id := startReminded(t)
		a.Now = func() time.Time { return t0.Add(time.Hour) }
		r := cmd(alice, "sandtable", "deploy", map[string]string{"preset": "phalanx"})
		r.ChannelID, r.Now = "m1", a.Now()
		_, err := a.Handle(r)
		require.NoError(t, err)
		_, s := loadID(t, store, id)
		c := click(alice, commands.CustomID{Scope: "g", ID: id, Action: "dep-confirm", Arg: panelArg(s, engine.South, true)}.String())
		c.Now = a.Now()
		_, err = a.Handle(c)
		require.NoError(t, err)
		require.True(t, commandstest.Game(t, store, id).Remind.Equal(t0.Add(6*time.Hour)), "a confirmation keeps the deployment's reminder")
		require.NoError(t, a.Sweep(t0.Add(6*time.Hour)))
		commandstest.Deliver(t, a, t0.Add(6*time.Hour))
		got := remindersIn(p, "m1")
		require.Len(t, got, 1)
		require.True(t, strings.HasPrefix(got[0], "Reminder: "+bob.Mention()+", 2 hours left on your deployment"), got[0])
		require.NotContains(t, got[0], alice.ID)
		games, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: alice, Now: t0.Add(6 * time.Hour)})
		require.NoError(t, err)
		require.Contains(t, games.Cards[0].Description, "deployment confirmed, waiting for your opponent")
		require.True(t, strings.HasSuffix(games.Cards[0].Description, " · waiting on "+bob.Mention()), games.Cards[0].Description)
	})
}

// TestReminderOfATurn: after the reveal each turn has its reminder, at
// 75 % of the turn's time, naming the player whose turn it is; the turn's
// Main action and hazard uses keep it; a turn finished before it cancels
// it.
func TestReminderOfATurn(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	a.Settings.RemindAt = 0.75
	pos := engine.NewGame(4)
	for _, act := range []string{"S preset phalanx", "N preset phalanx", "S confirm"} {
		_, err := pos.ApplyString(act)
		require.NoError(t, err)
	}
	g := putGame(t, store, pos.Format())
	at := func(d time.Duration) { a.Now = func() time.Time { return t0.Add(d) } }
	do := func(u commands.User, req *commands.Request) {
		t.Helper()
		req.Now = a.Now()
		_, err := a.Handle(req)
		require.NoError(t, err)
	}
	sweep := func(d time.Duration) {
		t.Helper()
		require.NoError(t, a.Sweep(t0.Add(d)))
		commandstest.Deliver(t, a, t0.Add(d))
	}
	at(10 * time.Minute)
	_, s := load(t, store)
	do(bob, click(bob, commands.CustomID{Scope: "g", ID: g.ID, Action: "dep-confirm", Arg: panelArg(s, engine.North, true)}.String()))
	_, s = load(t, store)
	require.Equal(t, engine.PhaseMain, s.pos.Phase())
	mover, other := alice, bob
	if s.pos.ToMove() == engine.North {
		mover, other = bob, alice
	}
	require.True(t, commandstest.Game(t, store, g.ID).Remind.Equal(t0.Add(55*time.Minute)), "the first turn's reminder")

	at(20 * time.Minute)
	steps, err := s.pos.LegalNextSteps(nil)
	require.NoError(t, err)
	do(mover, cmd(mover, "move", "", map[string]string{"move": steps[0].String()}))
	require.True(t, commandstest.Game(t, store, g.ID).Remind.Equal(t0.Add(55*time.Minute)), "the Main action keeps it")
	sweep(54 * time.Minute)
	require.Empty(t, remindersIn(p, "th1"))
	sweep(55 * time.Minute)
	got := remindersIn(p, "th1")
	require.Len(t, got, 1)
	require.Equal(t, fmt.Sprintf("Reminder: %s, 15 minutes left on your turn in https://discord.com/channels/g/th1 (time runs out <t:%d:R>).",
		mover.Mention(), t0.Add(70*time.Minute).Unix()), got[0])

	// The mover finishes the turn: the other player's turn has its own.
	at(60 * time.Minute)
	for {
		_, s = load(t, store)
		if s.pos.Phase() != engine.PhasePostTurn {
			break
		}
		uses, err := s.pos.LegalHazardUses()
		require.NoError(t, err)
		do(mover, cmd(mover, "move", "", map[string]string{"move": uses[0].String()}))
	}
	require.Equal(t, []string{other.ID}, Game{}.Clock(s).Actors)
	sweep(104 * time.Minute)
	require.Len(t, remindersIn(p, "th1"), 1)
	sweep(105 * time.Minute)
	got = remindersIn(p, "th1")
	require.Len(t, got, 2)
	require.True(t, strings.HasPrefix(got[1], "Reminder: "+other.Mention()+", 15 minutes left on your turn"), got[1])
}
