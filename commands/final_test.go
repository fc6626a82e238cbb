package commands_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// tttTable starts a tic-tac-toe game (the toy game of toy_test.go) between
// alice and bob in the thread "challenge-msg" and returns its move function.
func tttTable(t *testing.T, a *commands.App) func(u commands.User, cell string, at time.Duration) (*commands.Response, error) {
	t.Helper()
	alice, bob := commandstest.Alice, commandstest.Bob
	r := commandstest.Cmd(alice, "ttt", "challenge", nil)
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(r)
	require.NoError(t, err)
	var accept string
	for _, c := range ch.Rows[0] {
		if b := c.(ui.Button); b.Label == "Accept" {
			accept = b.Route
		}
	}
	_, err = a.Handle(commandstest.Click(bob, accept, "challenge-msg"))
	require.NoError(t, err)
	commandstest.Deliver(t, a, commandstest.T0)
	return func(u commands.User, cell string, at time.Duration) (*commands.Response, error) {
		r := commandstest.Cmd(u, "move", "", map[string]string{"move": cell})
		r.ChannelID, r.Now = "challenge-msg", commandstest.T0.Add(at)
		return a.Handle(r)
	}
}

// win plays alice's win (cells 1, 2, 3) and returns the last answer.
func win(t *testing.T, move func(u commands.User, cell string, at time.Duration) (*commands.Response, error)) *commands.Response {
	t.Helper()
	var resp *commands.Response
	for i, c := range []string{"1", "4", "2", "5", "3"} {
		var err error
		resp, err = move([]commands.User{commandstest.Alice, commandstest.Bob}[i%2], c, time.Duration(i)*time.Minute)
		require.NoError(t, err)
	}
	return resp
}

// summaryIn returns the closing summary posted in channel (there must be
// exactly one).
func summaryIn(t *testing.T, p *commandstest.Platform, channel string) string {
	t.Helper()
	posts, _ := p.Snapshot()
	var out []string
	for _, s := range posts {
		if s.Channel == channel && strings.HasPrefix(s.Msg.Content, "**Game over.**") {
			out = append(out, s.Msg.Content)
		}
	}
	require.Len(t, out, 1, "one summary in %s", channel)
	return out[0]
}

// TestSummaryLinksTheFinalAnswer: when the answer to the ending action
// shows the end, the adapter's report of its message ID (Response.Posted)
// becomes the game's final message, and the summary posted ArchiveDelay
// after the end links to it.
func TestSummaryLinksTheFinalAnswer(t *testing.T) {
	t.Parallel()
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	end := win(t, tttTable(t, a))
	require.NotNil(t, end.Posted, "the ending answer asks for its message ID")
	end.Posted("answer-1") // as the adapter does once it is shown
	id := g0(t, store)
	require.Equal(t, "answer-1", commandstest.Game(t, store, id).FinalMessage)

	commandstest.Deliver(t, a, commandstest.T0.Add(4*time.Minute+commands.ArchiveDelay))
	require.True(t, p.Archived["challenge-msg"])
	s := summaryIn(t, p, "challenge-msg")
	require.Contains(t, s, commandstest.Alice.Mention()+" wins by three in a row.")
	require.Contains(t, s, "Final board and full record: https://discord.com/channels/g/challenge-msg/answer-1\n")
}

// TestSummaryLinksTheFinalPost: a game ended by its timer shows the end
// with an effect; the ID the post got is the final message, which the
// summary links to.
func TestSummaryLinksTheFinalPost(t *testing.T) {
	t.Parallel()
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	move := tttTable(t, a)
	_, err := move(commandstest.Alice, "5", 0)
	require.NoError(t, err)
	require.NoError(t, a.Sweep(commandstest.T0.Add(2*time.Hour)))
	commandstest.Deliver(t, a, commandstest.T0.Add(2*time.Hour))
	posts, _ := p.Snapshot()
	final := posts[len(posts)-1]
	require.Contains(t, final.Msg.Content, "ran out of time")
	id := g0(t, store)
	require.Equal(t, final.ID, commandstest.Game(t, store, id).FinalMessage)

	commandstest.Deliver(t, a, commandstest.T0.Add(2*time.Hour+commands.ArchiveDelay))
	require.Contains(t, summaryIn(t, p, "challenge-msg"),
		fmt.Sprintf("https://discord.com/channels/g/challenge-msg/%s\n", final.ID), "the link names the post that exists")
}

// TestSummaryLinksALostAnswer: when the ending answer could not be sent
// (AnswerLost) or the process stopped before sending it, the outbox shows
// it, and the message it posts is the final one.
func TestSummaryLinksALostAnswer(t *testing.T) {
	t.Parallel()
	for _, lost := range []bool{true, false} {
		t.Run(fmt.Sprintf("lost=%v", lost), func(t *testing.T) {
			a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
			a.AnswerCopies = true
			end := win(t, tttTable(t, a))
			at := commandstest.T0.Add(4 * time.Minute)
			if lost {
				a.AnswerLost("challenge-msg", "", end) // sending it failed
			} else {
				at = at.Add(30 * time.Second) // nobody answered: the copy is due
			}
			commandstest.Deliver(t, a, at)
			posts, _ := p.Snapshot()
			var shown []commandstest.Sent
			for _, s := range posts {
				if s.Msg.Content == end.Content {
					shown = append(shown, s)
				}
			}
			require.Len(t, shown, 1, "the answer is shown by the outbox, once")
			final := shown[0]
			require.Equal(t, final.ID, commandstest.Game(t, store, g0(t, store)).FinalMessage)

			commandstest.Deliver(t, a, commandstest.T0.Add(4*time.Minute+commands.ArchiveDelay))
			require.Contains(t, summaryIn(t, p, "challenge-msg"), "/challenge-msg/"+final.ID+"\n")
		})
	}
}

// TestSummaryWithoutFinalMessage: when the final message's ID never
// arrived, the summary says where the record is without a link, and
// nothing else changes.
func TestSummaryWithoutFinalMessage(t *testing.T) {
	t.Parallel()
	a, p, store := commandstest.NewApp(t, func(a *commands.App) { commands.Register[*tttState](a, ticTacToe{}) })
	win(t, tttTable(t, a))
	g := commandstest.Game(t, store, g0(t, store))
	require.Empty(t, g.FinalMessage)
	commandstest.Deliver(t, a, commandstest.T0.Add(4*time.Minute+commands.ArchiveDelay))
	s := summaryIn(t, p, "challenge-msg")
	require.Contains(t, s, "final board message above")
	require.NotContains(t, s, "https://")
	require.Equal(t, storage.Outcome{Side: "X", Winners: []string{commandstest.Alice.ID}, Losers: []string{commandstest.Bob.ID}, Method: "three_in_a_row"}, *g.Outcome)
}
