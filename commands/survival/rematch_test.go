package survival

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands/commandstest"
)

// rematchChallenges are the challenges posted in the game's text channel,
// as shown now.
func rematchChallenges(p *commandstest.Platform) []commandstest.Sent {
	var out []commandstest.Sent
	for _, s := range p.Shown() {
		if s.Channel == "general" && len(s.Msg.Cards) > 0 && strings.Contains(s.Msg.Cards[0].Title, "challenge") {
			out = append(out, s)
		}
	}
	return out
}

// TestRematchOnce: two Rematch clicks at once, a click after the first
// succeeded, and the opponent's click all leave one challenge, the later
// clicks answered privately that it is open; once it expires, its message
// says so and has no buttons left.
func TestRematchOnce(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, kingsShuffle)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	button := buttonOf(t, liveBoard(t, a, p), "Rematch")

	var wg sync.WaitGroup
	answers := make([]string, 2)
	for i := range answers {
		wg.Go(func() {
			r, err := a.Handle(clickAt(alice, button, time.Second))
			if err != nil {
				answers[i] = "error: " + err.Error()
				return
			}
			answers[i] = r.Content
		})
	}
	wg.Wait()
	r, err := a.Handle(clickAt(alice, button, 2*time.Second))
	require.NoError(t, err, "a click after the first succeeded")
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, "already", "the later click says the rematch is already offered")
	r, err = a.Handle(clickAt(bob, button, 3*time.Second))
	require.NoError(t, err, "the opponent's click")
	require.Contains(t, r.Content, "already")
	commandstest.Deliver(t, a, t0.Add(3*time.Second))
	open := rematchChallenges(p)
	require.Len(t, open, 1, "one challenge for two players (answers: %q)", answers)
	require.NotEmpty(t, open[0].Msg.Rows, "the challenge has its buttons")

	// Expired: the sweep edits the challenge's message.
	require.NoError(t, a.Sweep(t0.Add(2*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(2*time.Hour))
	open = rematchChallenges(p)
	require.Len(t, open, 1)
	require.Contains(t, open[0].Msg.Cards[0].Description, "expired")
	for _, row := range open[0].Msg.Rows {
		require.Empty(t, row, "no buttons left")
	}

	// Then a new rematch may be offered.
	r, err = a.Handle(clickAt(alice, button, 2*time.Hour+time.Second))
	require.NoError(t, err)
	require.Contains(t, r.Content, "Rematch offered")
	commandstest.Deliver(t, a, t0.Add(2*time.Hour+time.Second))
	require.Len(t, rematchChallenges(p), 2)
}

// TestComputerRematchOnce: a double click on Rematch against the computer
// starts one game.
func TestComputerRematchOnce(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g := computerGame(t, a, store, "white", "easy")
	r := cmd(alice, "resign", "", nil)
	r.ChannelID = g.ThreadID
	_, err := commandstest.Confirm(t, a, r)
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	rematch := commandstest.ButtonOf(t, liveBoard(t, a, p), "Rematch")
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			c := commandstest.Click(alice, rematch, "m9")
			c.ChannelID = g.ThreadID
			_, _ = a.Handle(c)
		})
	}
	wg.Wait()
	c := commandstest.Click(alice, rematch, "m9")
	c.ChannelID = g.ThreadID
	resp, err := a.Handle(c)
	require.NoError(t, err)
	require.Contains(t, resp.Content, "already")
	require.Equal(t, 1, activeGames(t, store), "one rematch game")
}

// TestRematchAfterAccepted: once the rematch challenge is accepted, a late
// Rematch click on the old game points to the new game and opens nothing.
func TestRematchAfterAccepted(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, kingsShuffle)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	button := buttonOf(t, liveBoard(t, a, p), "Rematch")
	_, err = a.Handle(clickAt(alice, button, time.Second))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0.Add(time.Second))
	open := rematchChallenges(p)
	require.Len(t, open, 1)
	accept := commandstest.Click(bob, buttonOf(t, open[0].Msg, "Accept"), open[0].ID)
	accept.Now = t0.Add(2 * time.Second)
	_, err = a.Handle(accept)
	require.NoError(t, err)
	g, _ := gameIn(t, store, open[0].ID)

	r, err := a.Handle(clickAt(bob, button, 3*time.Second))
	require.NoError(t, err)
	require.Contains(t, r.Content, "<#"+g.ThreadID+">", "the late click links the rematch")
	commandstest.Deliver(t, a, t0.Add(3*time.Second))
	require.Len(t, rematchChallenges(p), 1, "no second challenge")
	require.Equal(t, 1, activeGames(t, store))
}
