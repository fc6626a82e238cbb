package teamchess

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/games/chess"
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

// TestReminderNamesTheCommander: the reminder, at 75 % of each move's
// time, mentions the active commander of the side to move and no other
// member; after a tag-out on time the next commander's move has its own;
// /games says which commander the game waits on.
func TestReminderNamesTheCommander(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	a.Settings.RemindAt = 0.75
	g, pub, team := startGame(t, a, store, "", []commands.User{alice, carol}, []commands.User{bob, dan})
	sweep := func(d time.Duration) {
		t.Helper()
		require.NoError(t, a.Sweep(t0.Add(d)))
		commandstest.Deliver(t, a, t0.Add(d))
	}
	sweep(44 * time.Minute)
	require.Empty(t, remindersIn(p, pub))
	sweep(45 * time.Minute)
	require.Equal(t, []string{fmt.Sprintf("Reminder: %s, 15 minutes left on your move in https://discord.com/channels/g/%s (time runs out <t:%d:R>).",
		alice.Mention(), pub, t0.Add(time.Hour).Unix())}, remindersIn(p, team[chess.White]), "White's commander, not carol, in White's thread")
	require.Empty(t, remindersIn(p, pub), "not in the public thread")
	require.Empty(t, remindersIn(p, team[chess.Black]))

	games := func(u commands.User) string {
		resp, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: u, Now: t0.Add(50 * time.Minute)})
		require.NoError(t, err)
		return resp.Cards[0].Description
	}
	require.Contains(t, games(carol), "**[Team Chess](https://discord.com/channels/g/"+pub+")** in <#"+pub+">")
	require.Contains(t, games(carol), "· waiting on "+alice.Mention())
	require.Contains(t, games(dan), "· waiting on "+alice.Mention())

	r := in(alice, pub, "move", "", map[string]string{"move": "e4"})
	r.Now = t0.Add(50 * time.Minute)
	_, err := a.Handle(r)
	require.NoError(t, err)
	require.Contains(t, games(alice), "· waiting on "+bob.Mention())
	sweep(95 * time.Minute)
	got := remindersIn(p, team[chess.Black])
	require.Len(t, got, 1)
	require.True(t, strings.HasPrefix(got[0], "Reminder: "+bob.Mention()+", 15 minutes left on your move"), got[0])

	// Bob's time runs out: he is tagged out and dan commands Black, with a
	// move time and a reminder of his own.
	sweep(110 * time.Minute)
	require.Equal(t, []string{dan.ID}, Game{}.Clock(load(t, store, g.ID)).Actors)
	require.True(t, commandstest.Game(t, store, g.ID).Remind.Equal(t0.Add(155*time.Minute)))
	sweep(155 * time.Minute)
	got = remindersIn(p, team[chess.Black])
	require.Len(t, got, 2)
	require.True(t, strings.HasPrefix(got[1], "Reminder: "+dan.Mention()+", 15 minutes left on your move"), got[1])
	require.Empty(t, remindersIn(p, pub), "reminders go to the commander's team thread")
}
