package sandtable

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
)

// Buttons act on what their message showed, never on "the current thing":
// every test here clicks an old message's button after what it showed was
// replaced.

func TestStaleDrawOfferButtons(t *testing.T) {
	t.Parallel()
	// Survival's offers: commands/survival's test of the same name.
	for _, kind := range []string{Kind} {
		t.Run(kind, func(t *testing.T) {
			a, _, store := newApp(t)
			active := func() bool {
				return commandstest.Game(t, store, "sand1").Active
			}
			putGame(t, store, mainPos)
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
		})
	}
}

// TestStaleDrawOfferLapsed: an offer that lapsed with the turn cannot be
// accepted by its buttons once a new offer is made.
func TestStaleDrawOfferLapsed(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, mainPos)
	old, err := a.Handle(cmd(alice, "draw", "offer", nil))
	require.NoError(t, err)
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "e4-e5"}))
	require.NoError(t, err)
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Mf6"}))
	require.NoError(t, err)
	_, _, pos := sandGame(t, store)
	require.Equal(t, engine.North, pos.ToMove(), "the turn passed: the offer lapsed")
	_, err = a.Handle(click(bob, buttonOf(t, old.Message, "Accept draw")))
	require.Contains(t, userMsg(t, err), "That draw offer is no longer open")
	_, err = a.Handle(cmd(alice, "draw", "offer", nil))
	require.NoError(t, err)
	_, err = a.Handle(click(bob, buttonOf(t, old.Message, "Accept draw")))
	require.Contains(t, userMsg(t, err), "That draw offer is no longer open")
	g, _, _ := sandGame(t, store)
	require.True(t, g.Active)
}

// TestStaleStepDraftButtons: a draft message's Commit, Undo and Discard
// act only on the draft it shows; a message whose draft changed is brought
// up to date, one whose draft is gone loses its buttons, and nothing
// changes either way.
func TestStaleStepDraftButtons(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, mainPos)
	step := func(text string) commands.Message {
		r, err := a.Handle(cmd(alice, "step", "", map[string]string{"step": text}))
		require.NoError(t, err)
		return r.Message
	}
	d1 := step("e4-e5")
	d2 := step("f4-f5")
	for _, label := range []string{"Commit", "Undo last step", "Discard"} {
		r, err := a.Handle(click(alice, buttonOf(t, d1, label)))
		require.NoError(t, err)
		require.True(t, r.Update, "the old message is brought up to date")
		require.Contains(t, r.Cards[0].Description, "Nothing changed: this message showed an older draft")
		require.Contains(t, r.Cards[0].Description, "2. f4-f5")
		_, st, pos := sandGame(t, store)
		require.Equal(t, engine.PhaseMain, pos.Phase(), "%s on the old message played nothing", label)
		require.Equal(t, []string{"e4-e5", "f4-f5"}, st.Steps[engine.South], "%s on the old message changed nothing", label)
	}
	r, err := a.Handle(click(alice, buttonOf(t, d2, "Commit")))
	require.NoError(t, err)
	require.Contains(t, r.Content, "played **e4-e5 f4-f5**")
	r, err = a.Handle(click(alice, buttonOf(t, d1, "Undo last step")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "this draft was played, discarded or lapsed. Nothing changed.")
	require.Empty(t, r.Rows, "a draft that is gone keeps no buttons")
	// The committed draft's own message keeps what Commit made of it.
	r, err = a.Handle(click(alice, buttonOf(t, d2, "Undo last step")))
	require.NoError(t, err)
	require.False(t, r.Update)
	require.True(t, r.Ephemeral)
	require.Equal(t, "Nothing changed: you committed this draft: **e4-e5 f4-f5** was played in turn 1.", r.Content)
}

// TestStaleDroneBoardButton: a board's Order a Drone orders only in that
// board's turn.
func TestStaleDroneBoardButton(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, `sandtable-position 1
phase postturn
to-move south
hazard-uses 1
piece SB1 a1
piece SI1 d4
piece SI2 h2
piece NB1 t20
piece NI1 t19
piece NI2 f6
piece NT9 k20
piece NP9 l20
`)
	old, err := a.Handle(cmd(alice, "board", "", nil))
	require.NoError(t, err)
	r, err := a.Handle(click(alice, buttonOf(t, old.Message, "Order a Drone (private)")))
	require.NoError(t, err)
	require.NotNil(t, r.Modal, "the board of the current turn orders")
	_, _, first := sandGame(t, store)
	for {
		_, _, pos := sandGame(t, store)
		if pos.ToMove() == engine.South && pos.Phase() == engine.PhasePostTurn && pos.Turn() > first.Turn() {
			break
		}
		u := alice
		if pos.ToMove() == engine.North {
			u = bob
		}
		var text string
		if pos.Phase() == engine.PhaseMain {
			steps, err := pos.LegalNextSteps(nil)
			require.NoError(t, err)
			text = steps[0].String()
		} else {
			uses, err := pos.LegalHazardUses()
			require.NoError(t, err)
			text = uses[0].String()
		}
		_, err := a.Handle(cmd(u, "move", "", map[string]string{"move": text}))
		require.NoError(t, err, text)
	}
	_, err = a.Handle(click(alice, buttonOf(t, old.Message, "Order a Drone (private)")))
	require.Contains(t, userMsg(t, err), fmt.Sprintf("This board is from turn %d", first.Turn()))
	modal := r.Modal.CustomID
	req := click(alice, modal)
	req.Type, req.Fields = commands.ModalRequest, map[string]string{"spotter": "d4", "target": "d5"}
	_, err = a.Handle(req)
	require.Contains(t, userMsg(t, err), fmt.Sprintf("This board is from turn %d", first.Turn()), "a form opened in an earlier turn orders nothing")
	_, st, _ := sandGame(t, store)
	require.Empty(t, st.Drone[engine.South])
}
