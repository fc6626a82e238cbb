package survival

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

func TestSurvivalDeadPositionEndsAtOnce(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	// The bishops face each other on the long diagonal: the capture is
	// forced and eliminates Black.
	id := putGame(t, store, "8/8/8/8/8/8/1b6/B7 w - - 0 1")
	resp, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Bxb2"}))
	require.NoError(t, err)
	require.Equal(t, "You played **Bxb2**. "+alice.Mention()+" (White) wins by elimination of the last piece.", resp.Content, "the mover learns the end too")
	require.True(t, resp.Ephemeral)
	require.Contains(t, liveBoard(t, a, p).Content, "wins by elimination of the last piece")
	g, _ := load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, &storage.Outcome{Winners: []string{alice.ID}, Losers: []string{bob.ID}, Side: "white", Method: storage.Elimination}, g.Outcome)

	// White: Ba1 (dark), pawn e4 (light); Black: Bc2 (light), pawn e6.
	// After e5 every White piece is on a dark square, every Black one on a
	// light square and the pawns block each other: no capture can ever
	// happen again, so the game is drawn at once.
	a2, p2, store2 := newApp(t)
	id = putGame(t, store2, "8/8/4p3/8/4P3/8/2b5/B7 w - - 0 1")
	resp, err = a2.Handle(cmd(alice, "move", "", map[string]string{"move": "e5"}))
	require.NoError(t, err)
	require.Contains(t, liveBoard(t, a2, p2).Content, "Draw by dead position")
	g, _ = load(t, store2, id)
	require.False(t, g.Active)
	require.Equal(t, &storage.Outcome{Method: storage.DeadPosition}, g.Outcome)
}

func TestSurvivalResignAnyTimeByEitherPlayer(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	_, err := a.Handle(cmd(carol, "resign", "", nil))
	require.Contains(t, userMsg(t, err), "You are not playing")
	resp, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err, "resigning does not need the turn")
	require.Contains(t, resp.Content, "(White) wins by resignation")
	g, st := load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, "1-0", st.Result)
}

func TestSurvivalInteractionAppliedOnce(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	req := cmd(alice, "move", "", map[string]string{"move": "Ka2"})
	_, err := a.Handle(req)
	require.NoError(t, err)
	// The same interaction delivered again (same ID) must not be applied
	// again, even if it were legal: here it is bob's turn anyway, so use a
	// request that would be legal for bob.
	again := cmd(bob, "move", "", map[string]string{"move": "Kg8"})
	again.InteractionID = req.InteractionID
	_, err = a.Handle(again)
	require.Contains(t, userMsg(t, err), "already applied")
	_, st := load(t, store, id)
	require.Equal(t, []string{"a1a2"}, st.Moves)
}

// TestSurvivalRefusalNamesForcedCaptures: a refused /move names the forced
// captures on a line of its own, in the notation typed, and the count
// with the first 8 when there are more; nothing is played.
func TestSurvivalRefusalNamesForcedCaptures(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1")
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Ka3"})) // a UserError: answered privately (bot e2e)
	require.Equal(t, "`Ka3` is not a legal move: no king can move to a3\nCapture is mandatory: the only legal capture is `exd5`.", userMsg(t, err))
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "a1a2"}))
	require.Contains(t, userMsg(t, err), "\nCapture is mandatory: the only legal capture is `e4d5`.")
	_, st := load(t, store, id)
	require.Empty(t, st.Moves, "a refused move plays nothing")

	a, _, store = newApp(t)
	putGame(t, store, "8/8/8/2ppp3/2pQp3/1pppp3/8/N6K w - - 0 1")
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Kg2"}))
	msg := userMsg(t, err)
	require.Contains(t, msg, "Capture is mandatory: 9 legal captures, the first 8: `Nxb3`, `Qxc3`, `Qxc4`, `Qxc5`, `Qxd3`, `Qxd5`, `Qxe3`, `Qxe4`.")
	require.NotContains(t, msg, "Qxe5")

	// A draw claim with a refused move is answered the same way.
	a, _, store = newApp(t)
	putGame(t, store, "4k3/8/8/3p4/4P3/8/8/K7 w - - 0 1")
	_, err = a.Handle(cmd(alice, "draw", "claim", map[string]string{"move": "Kb1"}))
	require.Contains(t, userMsg(t, err), "Capture is mandatory: the only legal capture is `exd5`.")
}

// TestNotAMoveHintPerVariant: the hint after text that is not a move shows
// the variant's own notation: no castling in Survival (the Team Chess
// half of this test is in package commands).
func TestNotAMoveHintPerVariant(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, kingsShuffle)
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "hello"}))
	msg := userMsg(t, err)
	require.Contains(t, msg, "e8=K")
	require.NotContains(t, msg, "O-O")
}

// TestGamesLineNamesTheColour: /games writes the colour as a title.
func TestGamesLineNamesTheColour(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, kingsShuffle)
	for u, want := range map[commands.User]string{alice: "you play White", bob: "you play Black"} {
		r, err := a.Handle(cmd(u, "games", "", nil))
		require.NoError(t, err)
		require.Contains(t, r.Cards[0].Description, want)
	}
	// The player to move is told so, with the deadline; the other is not.
	r, err := a.Handle(cmd(alice, "games", "", nil))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Description, "vs "+bob.Mention()+", you play White, **your move** (time runs out <t:"+unix(t0.Add(time.Hour))+":R>)")
	r, err = a.Handle(cmd(bob, "games", "", nil))
	require.NoError(t, err)
	require.NotContains(t, r.Cards[0].Description, "your move")
	r, err = a.Handle(cmd(carol, "games", "", nil))
	require.NoError(t, err)
	require.Contains(t, r.Content, "no active games")
}

// TestAutocomplete: /move offers the legal moves that start with what was
// typed (SAN or UCI), at most 25, as UCI values; nothing once the game is
// over. Nothing is saved.
func TestAutocomplete(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, "8/P7/8/8/8/8/8/K6k w - - 0 1")
	before := commandstest.Game(t, store, id).Version
	ac := func(typed string) []string {
		t.Helper()
		r := cmd(alice, "move", "", map[string]string{"move": typed})
		r.Type = commands.AutocompleteRequest
		resp, err := a.Handle(r)
		require.NoError(t, err)
		var values []string
		for _, c := range resp.Choices {
			values = append(values, c.Value)
		}
		return values
	}
	require.ElementsMatch(t, []string{"a7a8k", "a7a8q", "a7a8r", "a7a8b", "a7a8n"}, ac("a8"))
	require.ElementsMatch(t, []string{"a7a8k", "a7a8q", "a7a8r", "a7a8b", "a7a8n"}, ac("a7"))
	require.ElementsMatch(t, []string{"a1a2", "a1b1", "a1b2"}, ac("K"))
	require.Len(t, ac(""), 8)
	require.Empty(t, ac("h"))
	require.Equal(t, before, commandstest.Game(t, store, id).Version, "autocomplete saves nothing")

	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	require.Equal(t, []string{commands.WaitingValue}, ac(""), "once over, one choice saying so")
}

// TestAutocompleteOnlyForTheMover: only the player to move gets /move's
// choices; the other player and spectators get one choice saying whose
// turn it is, whose value plays nothing when submitted, even by the player
// to move (ruling 26).
func TestAutocompleteOnlyForTheMover(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, "8/P7/8/8/8/8/8/K6k w - - 0 1")
	ac := func(u commands.User) []*ui.Choice {
		t.Helper()
		r := cmd(u, "move", "", map[string]string{"move": ""})
		r.Type, r.Focused = commands.AutocompleteRequest, "move"
		resp, err := a.Handle(r)
		require.NoError(t, err)
		return resp.Choices
	}
	require.Len(t, ac(alice), 8, "White's moves for alice, White to move")
	for _, u := range []commands.User{bob, carol} {
		c := ac(u)
		require.Len(t, c, 1, "%s may not move", u.Name)
		require.Equal(t, commands.WaitingValue, c[0].Value)
		require.Equal(t, "Waiting for alice (White) to move", c[0].Name)
	}
	before := commandstest.Game(t, store, id).Version
	for _, u := range []commands.User{alice, bob} {
		_, err := a.Handle(cmd(u, "move", "", map[string]string{"move": commands.WaitingValue}))
		require.Contains(t, userMsg(t, err), "nothing was played", "the waiting choice submitted by %s", u.Name)
	}
	require.Equal(t, before, commandstest.Game(t, store, id).Version, "the waiting choice changes nothing")
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Kb1"}))
	require.NoError(t, err)
	require.NotEmpty(t, ac(bob))
	require.NotEqual(t, commands.WaitingValue, ac(bob)[0].Value, "bob is to move now")
	require.Equal(t, "Waiting for bob (Black) to move", ac(alice)[0].Name)
}

// TestSurvivalOneLiveBoard: each move edits the live board in place (quiet)
// and pings the player to move by a message of its own, deleting the
// ping before; the mover is answered privately; /board answers privately.
func TestSurvivalOneLiveBoard(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	for i, m := range []string{"Ka2", "Kg8", "Ka1"} {
		u := []commands.User{alice, bob}[i%2]
		r, err := a.Handle(cmd(u, "move", "", map[string]string{"move": m}))
		require.NoError(t, err)
		require.True(t, r.Ephemeral, "the mover's answer is private")
		require.Equal(t, "You played **"+m+"**.", r.Content)
		commandstest.Deliver(t, a, t0)
	}
	r, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	commandstest.Deliver(t, a, t0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 4, "one board, one ping per move")
	require.Equal(t, alice.Mention()+" played **Ka2**. "+bob.Mention()+", your move.", posts[0].Msg.Content)
	require.True(t, posts[0].Msg.Quiet, "the board pings nobody")
	for i, who := range []commands.User{bob, alice, bob} {
		require.True(t, strings.HasPrefix(posts[i+1].Msg.Content, who.Mention()+", your move"), "ping %d: %q", i, posts[i+1].Msg.Content)
		require.False(t, posts[i+1].Msg.Quiet)
	}
	require.Len(t, edits, 2)
	for _, e := range edits {
		require.Equal(t, posts[0].ID, e.ID, "the live board edited in place")
		require.Len(t, e.Msg.Files, 1)
		require.True(t, e.Msg.Quiet)
	}
	require.Contains(t, edits[1].Msg.Content, "played **Ka1**")
	require.Equal(t, []string{"th1/" + posts[1].ID, "th1/" + posts[2].ID}, p.Deleted, "each ping deleted by the next")
	shown := p.Shown()
	require.Len(t, shown, 2, "the board and the last ping")
	g, _ := load(t, store, id)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}
