package survival

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
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

// TestReminderNamesThePlayerToMove: from the accepted challenge on, each
// move's reminder falls at 75 % of its time (not before) and mentions the
// player to move, White for the first move, then Black after White moved;
// a move made before it cancels it; /games says whom the game waits on
// and links its thread.
func TestReminderNamesThePlayerToMove(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	a.Settings.RemindAt = 0.75
	msg := challengeOf(t, a, "chal1", map[string]string{"color": "white", "move_time": "8h"})
	_, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.NoError(t, err)
	g, _ := gameIn(t, store, "chal1")
	require.True(t, g.Remind.Equal(t0.Add(6*time.Hour)), "the first move's reminder: %s", g.Remind)
	sweep := func(at time.Duration) {
		t.Helper()
		require.NoError(t, a.Sweep(t0.Add(at)))
		commandstest.Deliver(t, a, t0.Add(at))
	}
	sweep(6*time.Hour - 5*time.Minute)
	require.Empty(t, remindersIn(p, "chal1"))
	sweep(6 * time.Hour)
	require.Equal(t, []string{fmt.Sprintf("Reminder: %s, 2 hours left on your move in https://discord.com/channels/g/chal1 (time runs out <t:%d:R>).",
		alice.Mention(), t0.Add(8*time.Hour).Unix())}, remindersIn(p, "chal1"), "alice plays White")

	games := func(u commands.User) string {
		resp, err := a.Handle(&commands.Request{Type: commands.CommandRequest, Command: "games", User: u, Now: t0.Add(7 * time.Hour)})
		require.NoError(t, err)
		return resp.Cards[0].Description
	}
	require.Contains(t, games(bob), "**[Survival Chess: Tartan Grid](https://discord.com/channels/g/chal1)** in <#chal1>: vs "+alice.Mention())
	require.Contains(t, games(bob), "· waiting on "+alice.Mention())
	require.Contains(t, games(alice), "**your move**")
	require.NotContains(t, games(alice), "waiting on", "once is enough")

	play := func(u commands.User, at time.Duration) {
		t.Helper()
		_, st := gameIn(t, store, "chal1")
		r := cmd(u, "move", "", map[string]string{"move": st.game.Position().LegalMoves()[0].UCI()})
		r.ChannelID, r.Now = "chal1", t0.Add(at)
		_, err := a.Handle(r)
		require.NoError(t, err)
	}
	play(alice, 7*time.Hour)
	require.Contains(t, games(alice), "· waiting on "+bob.Mention())
	sweep(13*time.Hour - time.Minute)
	require.Len(t, remindersIn(p, "chal1"), 1)
	sweep(13 * time.Hour)
	got := remindersIn(p, "chal1")
	require.Len(t, got, 2)
	require.True(t, strings.HasPrefix(got[1], "Reminder: "+bob.Mention()+", 2 hours left on your move"), got[1])

	// Bob moves before his next reminder: none for that move.
	play(bob, 14*time.Hour)
	play(alice, 15*time.Hour)
	sweep(20*time.Hour + 59*time.Minute)
	require.Len(t, remindersIn(p, "chal1"), 2, "the reminders of moves already made never come")
	sweep(21 * time.Hour)
	require.Len(t, remindersIn(p, "chal1"), 3)
	require.Contains(t, remindersIn(p, "chal1")[2], bob.Mention())
}
