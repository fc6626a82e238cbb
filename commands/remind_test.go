package commands_test

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// The reminders are tested on tic-tac-toe (toy_test.go): a move clock of
// one hour, the player to move as its actor. At 0.75 its reminder falls
// 45 minutes into each move.

// remindSetup starts a tic-tac-toe game "ttt1" (alice X, bob O) in thread
// "th1" of guild "g" at T0, reminders at share.
func remindSetup(t *testing.T, share float64) (*commands.App, *commandstest.Platform, storage.Store) {
	t.Helper()
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	a.Settings.RemindAt = share
	rec := &storage.Game{ID: "ttt1", Kind: "ttt", GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{commandstest.Alice.ID, commandstest.Bob.ID}, Active: true}
	require.NoError(t, commands.Create(a, commandstest.Cmd(commandstest.Alice, "ttt", "", nil), rec, func(t *commands.Turn[*tttState]) error {
		t.Save(&tttState{X: commandstest.Alice, O: commandstest.Bob})
		return nil
	}))
	commandstest.Deliver(t, a, commandstest.T0)
	return a, p, store
}

// reminders are the reminders posted so far.
func reminders(p *commandstest.Platform) []commandstest.Sent {
	posts, _ := p.Snapshot()
	var out []commandstest.Sent
	for _, s := range posts {
		if strings.HasPrefix(s.Msg.Content, "Reminder:") {
			out = append(out, s)
		}
	}
	return out
}

// sweep runs the timers due at T0+at and delivers what they queued.
func sweep(t *testing.T, a *commands.App, at time.Duration) {
	t.Helper()
	require.NoError(t, a.Sweep(commandstest.T0.Add(at)))
	commandstest.Deliver(t, a, commandstest.T0.Add(at))
}

func tttPlay(t *testing.T, a *commands.App, u commands.User, cell string, at time.Duration) {
	t.Helper()
	r := commandstest.Cmd(u, "move", "", map[string]string{"move": cell})
	r.Now = commandstest.T0.Add(at)
	_, err := a.Handle(r)
	require.NoError(t, err)
	commandstest.Deliver(t, a, r.Now)
}

// TestReminderOnceAtItsShare: the reminder falls at 75 % of the move's
// time, not at 74 %; it mentions the player to move, says the time left,
// links the thread and shows the deadline; it is sent once.
func TestReminderOnceAtItsShare(t *testing.T) {
	t.Parallel()
	a, p, store := remindSetup(t, 0.75)
	g := commandstest.Game(t, store, "ttt1")
	require.True(t, g.Remind.Equal(commandstest.T0.Add(45*time.Minute)), "stored with the game: %s", g.Remind)

	sweep(t, a, 44*time.Minute+24*time.Second) // 74 %
	require.Empty(t, reminders(p))
	require.Zero(t, a.Pending())

	sweep(t, a, 45*time.Minute)
	got := reminders(p)
	require.Len(t, got, 1)
	require.Equal(t, "th1", got[0].Channel, "posted in the game's thread")
	require.Equal(t, fmt.Sprintf("Reminder: <@%s>, 15 minutes left on your move in https://discord.com/channels/g/th1 (time runs out <t:%d:R>).",
		commandstest.Alice.ID, commandstest.T0.Add(time.Hour).Unix()), got[0].Msg.Content)
	g = commandstest.Game(t, store, "ttt1")
	require.True(t, g.Remind.IsZero(), "recorded as sent")
	require.True(t, g.Deadline.Equal(commandstest.T0.Add(time.Hour)), "the deadline stays")

	for _, at := range []time.Duration{45 * time.Minute, 50 * time.Minute, 59 * time.Minute} {
		sweep(t, a, at)
	}
	require.Len(t, reminders(p), 1, "once per move")
}

// TestReminderNotAfterTheMove: a move made before the reminder's time
// cancels it; the next move's reminder falls 45 minutes into that move and
// names the next player.
func TestReminderNotAfterTheMove(t *testing.T) {
	t.Parallel()
	a, p, store := remindSetup(t, 0.75)
	tttPlay(t, a, commandstest.Alice, "5", 10*time.Minute)
	require.True(t, commandstest.Game(t, store, "ttt1").Remind.Equal(commandstest.T0.Add(55*time.Minute)))
	sweep(t, a, 45*time.Minute)
	require.Empty(t, reminders(p), "alice moved: no reminder for her move")
	sweep(t, a, 55*time.Minute)
	got := reminders(p)
	require.Len(t, got, 1)
	require.Contains(t, got[0].Msg.Content, "Reminder: <@"+commandstest.Bob.ID+">, 15 minutes left")
	require.NotContains(t, got[0].Msg.Content, commandstest.Alice.ID)

	// Bob moves after his reminder: alice's next move has its own.
	tttPlay(t, a, commandstest.Bob, "1", 60*time.Minute)
	sweep(t, a, 104*time.Minute)
	require.Len(t, reminders(p), 1)
	sweep(t, a, 105*time.Minute)
	require.Len(t, reminders(p), 2)
	require.Contains(t, reminders(p)[1].Msg.Content, "<@"+commandstest.Alice.ID+">")
}

// TestReminderNotAgainAfterARestart: a restarted process (another App on
// the same store) does not send the reminder the first one sent, even
// when the first one died before delivering it: the outbox delivers it.
func TestReminderNotAgainAfterARestart(t *testing.T) {
	t.Parallel()
	a, p, store := remindSetup(t, 0.75)
	require.NoError(t, a.Sweep(commandstest.T0.Add(45*time.Minute))) // queued, then the process "dies"
	require.Equal(t, 1, a.Pending(), "the reminder (which deletes the turn's ping)")

	b := restarted(a, store, p)
	for _, at := range []time.Duration{46 * time.Minute, 50 * time.Minute, 59 * time.Minute} {
		sweep(t, b, at)
	}
	require.Len(t, reminders(p), 1, "the queued reminder delivered once, no second one")
	require.Zero(t, b.Pending())
}

// TestReminderOnceOnTwoProcesses: two processes sweeping at the same time
// send one reminder between them (the game's version compare).
func TestReminderOnceOnTwoProcesses(t *testing.T) {
	t.Parallel()
	a, p, store := remindSetup(t, 0.75)
	b := restarted(a, store, p)
	at := commandstest.T0.Add(45 * time.Minute)
	var wg sync.WaitGroup
	for _, app := range []*commands.App{a, b} {
		wg.Go(func() { require.NoError(t, app.Sweep(at)) })
	}
	wg.Wait()
	commandstest.Deliver(t, a, at)
	commandstest.Deliver(t, b, at)
	require.Len(t, reminders(p), 1)
}

// restarted is another process on a's store and platform, with a's games
// and settings.
func restarted(a *commands.App, store storage.Store, p *commandstest.Platform) *commands.App {
	b := commands.New(store, p, a.Settings, slog.New(slog.NewTextHandler(io.Discard, nil)))
	b.Now, b.AnswerCopies, b.DeliverInline = a.Now, false, false
	commands.Register[*tttState](b, ticTacToe{})
	// The store is this process's alone (as a bbolt file is): it takes
	// over what the dead run claimed, as the bot does at start.
	if err := b.TakeOverClaims(b.Now()); err != nil {
		panic(err)
	}
	return b
}

// TestReminderOff: at 0 no reminder is set or sent; turned off after one
// was set, the due timer is cleared and nothing is posted.
func TestReminderOff(t *testing.T) {
	t.Parallel()
	a, p, store := remindSetup(t, 0)
	require.True(t, commandstest.Game(t, store, "ttt1").Remind.IsZero())
	sweep(t, a, 59*time.Minute)
	require.Empty(t, reminders(p))

	a, p, store = remindSetup(t, 0.75)
	a.Settings.RemindAt = 0
	sweep(t, a, 45*time.Minute)
	require.Empty(t, reminders(p))
	require.True(t, commandstest.Game(t, store, "ttt1").Remind.IsZero(), "the timer is cleared, not found again every sweep")
}

// TestReminderNeverAfterTheTimeout: when the reminder and the deadline
// are both due at one sweep (the bot was busy), the timeout comes first and
// ends the game: no reminder of a move that can no longer be made.
func TestReminderNeverAfterTheTimeout(t *testing.T) {
	t.Parallel()
	a, p, store := remindSetup(t, 0.75)
	sweep(t, a, time.Hour)
	require.Empty(t, reminders(p))
	g := commandstest.Game(t, store, "ttt1")
	require.False(t, g.Active)
	require.True(t, g.Remind.IsZero())
	posts, _ := p.Snapshot()
	require.Contains(t, posts[len(posts)-1].Msg.Content, "ran out of time")
}

// TestGamesSaysWhoseTurnWithALink: /games names whom each game waits on
// (by a mention, which an ephemeral answer does not ping; the caller's own
// turn is the game's summary's to say) and links the thread.
func TestGamesSaysWhoseTurnWithALink(t *testing.T) {
	t.Parallel()
	a, _, _ := remindSetup(t, 0.75)
	list := func(u commands.User) string {
		resp, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: u, Now: commandstest.T0})
		require.NoError(t, err)
		require.True(t, resp.Ephemeral)
		return resp.Cards[0].Description
	}
	require.Equal(t, "• **[Tic-tac-toe](https://discord.com/channels/g/th1)** in <#th1>: your move", list(commandstest.Alice),
		"the summary says it is alice's move: not twice")
	require.Equal(t, "• **[Tic-tac-toe](https://discord.com/channels/g/th1)** in <#th1> · waiting on <@"+commandstest.Alice.ID+">", list(commandstest.Bob))
	tttPlay(t, a, commandstest.Alice, "5", time.Minute)
	require.Contains(t, list(commandstest.Alice), "waiting on <@"+commandstest.Bob.ID+">")
	require.Equal(t, "• **[Tic-tac-toe](https://discord.com/channels/g/th1)** in <#th1>: your move", list(commandstest.Bob))
}

// TestGamesListFitsItsCard: a long list stops before the card's 4096
// characters and says how many more games there are; a short one at 20.
func TestGamesListFitsItsCard(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		summary     int // characters of each game's summary
		lines, more int
	}{{250, 11, 20}, {10, 20, 11}} {
		a, _, store := commandstest.NewApp(t, func(a *commands.App) {
			commands.Register(a, commandstest.Toy{Routes: commands.Spec[commandstest.None]{Name: "long", Title: "Long"}, Line: func(string) string {
				return strings.Repeat("x", c.summary)
			}})
		})
		for i := range 31 {
			require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
				return tx.Games().Put(&storage.Game{ID: fmt.Sprintf("long%02d", i), Kind: "long", GuildID: "1234567890123456789",
					ThreadID: fmt.Sprintf("%019d", i), Players: []string{commandstest.Alice.ID}, Active: true}, commandstest.T0.Add(time.Duration(i)*time.Second))
			}))
		}
		resp, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: commandstest.Alice, Now: commandstest.T0})
		require.NoError(t, err)
		d := resp.Cards[0].Description
		require.LessOrEqual(t, len(d), 4096)
		lines := strings.Split(d, "\n")
		require.Len(t, lines, c.lines+1)
		require.Equal(t, fmt.Sprintf("…and %d more.", c.more), lines[c.lines])
		require.Contains(t, lines[0], "<#0000000000000000030>", "newest first")
	}
}
