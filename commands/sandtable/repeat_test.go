package sandtable

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	engine "sandtable/games/sandtable"
)

// Repeated clicks: a double click, or a click on a message before Discord
// showed the first click's answer, carries the stamp of what the message
// showed before the first click changed it. It must not overwrite the
// message's success with a "Nothing changed" text: it is answered
// privately and changes nothing.

// requireAlready asserts a private answer that leaves the message alone.
func requireAlready(t *testing.T, r *commands.Response, err error, want string) {
	t.Helper()
	require.NoError(t, err)
	require.False(t, r.Update, "the message keeps what the first click showed: %q", r.Content)
	require.True(t, r.Ephemeral)
	require.Equal(t, want, r.Content)
}

func TestRepeatedDeploymentClicks(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, engine.NewGame(5).Format())
	deploy := func(u commands.User) commands.Message {
		_, err := a.Handle(cmd(u, "sandtable", "deploy", map[string]string{"preset": "phalanx"}))
		require.NoError(t, err)
		return newestPanel(t, a, p, u)
	}
	panel := deploy(alice)
	confirm := buttonOf(t, panel, "Confirm")
	r, err := a.Handle(click(alice, confirm))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "Confirmed. Your deployment stays secret")
	confirmed := r.Message
	for range 2 {
		r, err = a.Handle(click(alice, confirm))
		requireAlready(t, r, err, "Already done: you confirmed this deployment.")
	}
	_, st, pos := sandGame(t, store)
	require.True(t, pos.Confirmed(engine.South))
	require.Equal(t, engine.PhaseDeployment, pos.Phase())
	require.Empty(t, st.Offer)

	unconfirm := buttonOf(t, confirmed, "Unconfirm")
	r, err = a.Handle(click(alice, unconfirm))
	require.NoError(t, err)
	require.Contains(t, r.Content, "Confirmation withdrawn")
	r, err = a.Handle(click(alice, unconfirm))
	requireAlready(t, r, err, "Already done: you withdrew the confirmation of this deployment.")
	_, _, pos = sandGame(t, store)
	require.False(t, pos.Confirmed(engine.South))

	// The first panel shows the deployment as it is again: it confirms.
	r, err = a.Handle(click(alice, confirm))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "Confirmed.")
	// Bob confirms too: the deployments are revealed; Alice's Confirm
	// clicked again is still "Already done".
	_, err = a.Handle(click(bob, buttonOf(t, deploy(bob), "Confirm")))
	require.NoError(t, err)
	_, _, pos = sandGame(t, store)
	require.Equal(t, engine.PhaseMain, pos.Phase())
	r, err = a.Handle(click(alice, confirm))
	requireAlready(t, r, err, "Already done: you confirmed this deployment.")
	// Another control of a panel whose deployment was since confirmed.
	r, err = a.Handle(click(alice, buttonOf(t, panel, "Edit pieces")))
	requireAlready(t, r, err, "Nothing changed: you confirmed this deployment.")
}

func TestRepeatedDraftClicks(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, mainPos)
	step := func(text string) commands.Message {
		r, err := a.Handle(cmd(alice, "step", "", map[string]string{"step": text}))
		require.NoError(t, err)
		return r.Message
	}
	step("e4-e5")
	d := step("f4-f5")
	r, err := a.Handle(click(alice, buttonOf(t, d, "Undo last step")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Cards[0].Description, "Took back f4-f5")
	undone := r.Message
	r, err = a.Handle(click(alice, buttonOf(t, d, "Undo last step")))
	requireAlready(t, r, err, "Already done: you took back f4-f5 from this draft.")
	r, err = a.Handle(click(alice, buttonOf(t, d, "Commit")))
	requireAlready(t, r, err, "Nothing changed: you took back f4-f5 from this draft.")
	_, st, _ := sandGame(t, store)
	require.Equal(t, []string{"e4-e5"}, st.Steps[engine.South], "the second Undo took nothing back")

	commit := buttonOf(t, undone, "Commit")
	r, err = a.Handle(click(alice, commit))
	require.NoError(t, err)
	for range 2 {
		r, err = a.Handle(click(alice, commit))
		requireAlready(t, r, err, "Already done: you committed this draft: **e4-e5** was played in turn 1.")
	}
	r, err = a.Handle(click(alice, buttonOf(t, undone, "Discard")))
	requireAlready(t, r, err, "Nothing changed: you committed this draft: **e4-e5** was played in turn 1.")
	_, _, pos := sandGame(t, store)
	require.Equal(t, engine.PhasePostTurn, pos.Phase())

	// Discard twice.
	b, _, storeB := newApp(t)
	putGame(t, storeB, mainPos)
	r, err = b.Handle(cmd(alice, "step", "", map[string]string{"step": "e4-e5"}))
	require.NoError(t, err)
	discard := buttonOf(t, r.Message, "Discard")
	r, err = b.Handle(click(alice, discard))
	require.NoError(t, err)
	require.Contains(t, r.Content, "Draft discarded.")
	r, err = b.Handle(click(alice, discard))
	requireAlready(t, r, err, "Already done: you discarded this draft.")
}

func TestRepeatedDroneClicks(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, `sandtable-position 1
phase postturn
to-move south
hazard-uses 2
piece SB1 a1
piece SB2 b1
piece SI1 d4
piece SI2 h2
piece NB1 t20
piece NI1 t19
piece NI2 f6
piece NT9 k20
piece NP9 l20
`)
	order := func(target string) string {
		req := click(alice, "g:sand1:drone-order:1")
		req.Type, req.Fields = commands.ModalRequest, map[string]string{"spotter": "d4", "target": target}
		_, err := a.Handle(req)
		require.NoError(t, err)
		_, st, _ := sandGame(t, store)
		return strconv.Itoa(st.DroneID[engine.South])
	}
	button := func(action, n string) string {
		return commands.CustomID{Scope: "g", ID: "sand1", Action: action, Arg: n}.String()
	}
	n := order("f6")
	r, err := a.Handle(click(alice, button("drone-confirm", n)))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Cards[0].Description, "Drone ordered")
	const confirmed = "you confirmed this Drone order: it strikes at the start of your next turn, unless its spotter is destroyed first"
	r, err = a.Handle(click(alice, button("drone-confirm", n)))
	requireAlready(t, r, err, "Already done: "+confirmed+".")
	r, err = a.Handle(click(alice, button("drone-cancel", n)))
	requireAlready(t, r, err, "Nothing changed: "+confirmed+".")
	_, _, pos := sandGame(t, store)
	require.Len(t, pos.Drones(), 1)
	require.Equal(t, 1, pos.HazardUses(), "one hazard used, once")

	m := order("e5")
	r, err = a.Handle(click(alice, button("drone-cancel", m)))
	require.NoError(t, err)
	require.Contains(t, r.Content, "Drone order discarded")
	r, err = a.Handle(click(alice, button("drone-cancel", m)))
	requireAlready(t, r, err, "Already done: you discarded this Drone order: nothing of it was used or shown.")
	r, err = a.Handle(click(alice, button("drone-confirm", m)))
	requireAlready(t, r, err, "Nothing changed: you discarded this Drone order: nothing of it was used or shown.")
	_, _, pos = sandGame(t, store)
	require.Len(t, pos.Drones(), 1)
}
