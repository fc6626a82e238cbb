package survival

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

func TestSurvivalThreefoldClaim(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	// Ka2 Kg8 Ka1 Kh8 Ka2 Kg8 Ka1 Kh8: the start position has occurred three times.
	id := putGame(t, store, kingsShuffle, "a1a2", "h8g8", "a2a1", "g8h8", "a1a2", "h8g8", "a2a1")

	// Black to move (bob); the position after ...Kh8 would be the third
	// occurrence: bob may claim by declaring that move.
	_, err := a.Handle(cmd(alice, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "Only the player to move")
	_, err = a.Handle(cmd(bob, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "No draw can be claimed")
	_, err = a.Handle(cmd(bob, "draw", "claim", map[string]string{"move": "Kh7"}))
	require.Contains(t, userMsg(t, err), "would not allow a draw claim")
	_, st := load(t, store, id)
	require.Len(t, st.Moves, 7, "a refused claim plays nothing")

	resp, err := a.Handle(cmd(bob, "draw", "claim", map[string]string{"move": "Kh8"}))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "claimed a draw by threefold repetition with the move Kh8")
	g, st := load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, "1/2-1/2", st.Result)
	require.Len(t, st.Moves, 8)
	require.Equal(t, &End{Method: storage.Repetition, Reason: "threefold repetition"}, st.End)
	require.Equal(t, &storage.Outcome{Method: storage.Repetition, Claimed: true}, g.Outcome)
}

func TestSurvivalFiftyMoveClaim(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, "7k/8/8/8/8/8/8/K7 w - - 99 80")
	_, err := a.Handle(cmd(alice, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "fifty-move count is 49 of 50")
	resp, err := a.Handle(cmd(alice, "draw", "claim", map[string]string{"move": "Kb1"}))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "the 50-move rule")
	g, _ := load(t, store, id)
	require.Equal(t, &storage.Outcome{Method: storage.FiftyMoves, Claimed: true}, g.Outcome)
}

// TestStaleDrawOfferButtons: a draw offer's buttons answer that offer
// only (the SandTable half of this test is in package commands).
func TestStaleDrawOfferButtons(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	active := func() bool { return commandstest.Game(t, store, "game1").Active }
	putGame(t, store, kingsShuffle)
	draw := func(u commands.User, sub string) (*commands.Response, error) {
		return a.Handle(cmd(u, "draw", sub, nil))
	}

	// Bob's first offer is declined by command; his second stands.
	first, err := draw(bob, "offer")
	require.NoError(t, err)
	_, err = draw(alice, "decline")
	require.NoError(t, err)
	second, err := draw(bob, "offer")
	require.NoError(t, err)
	require.NotEqual(t, buttonOf(t, first.Message, "Accept draw"), buttonOf(t, second.Message, "Accept draw"))

	for _, label := range []string{"Accept draw", "Decline"} {
		_, err = a.Handle(click(alice, buttonOf(t, first.Message, label)))
		msg := userMsg(t, err)
		require.Contains(t, msg, "That draw offer is no longer open")
		require.Contains(t, msg, "A newer offer stands")
		require.True(t, active(), "the old %s button changed nothing", label)
	}
	// The offer's own button answers it.
	_, err = a.Handle(click(alice, buttonOf(t, second.Message, "Decline")))
	require.NoError(t, err)
	r, err := a.Handle(click(alice, buttonOf(t, second.Message, "Accept draw")))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, "Nothing changed: you declined this draw offer.", r.Content)
	r, err = a.Handle(click(alice, buttonOf(t, second.Message, "Decline")))
	require.NoError(t, err)
	require.Equal(t, "Already done: you declined this draw offer.", r.Content, "a double click")
	_, err = a.Handle(click(bob, buttonOf(t, second.Message, "Accept draw")))
	require.Contains(t, userMsg(t, err), "That draw offer is no longer open", "only the player who answered did it")
	require.True(t, active())

	third, err := draw(bob, "offer")
	require.NoError(t, err)
	resp, err := commandstest.Confirm(t, a, click(alice, buttonOf(t, third.Message, "Accept draw")))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "accepted the draw offer")
	require.False(t, active())
	// A double click on Accept: the game is drawn, nothing more.
	for label, want := range map[string]string{
		"Accept draw": "Already done: you accepted this draw offer: the game is drawn.",
		"Decline":     "Nothing changed: you accepted this draw offer: the game is drawn.",
	} {
		resp, err = a.Handle(click(alice, buttonOf(t, third.Message, label)))
		require.NoError(t, err)
		require.True(t, resp.Ephemeral)
		require.Equal(t, want, resp.Content)
	}
	_, err = a.Handle(click(bob, buttonOf(t, third.Message, "Accept draw")))
	require.Contains(t, userMsg(t, err), "This game is over")
	g, st := load(t, store, "game1")
	require.Equal(t, &storage.Outcome{Method: storage.Agreement}, g.Outcome)
	require.Equal(t, "1/2-1/2", st.Result)
}
