package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// stalePosition is South's PostTurn with an Infantry on a9 that can spot
// a9 and a10.
const stalePosition = `sandtable-position 1
phase postturn
to-move south
hazard-uses 1
piece SB1 a1
piece SI1 a9
piece SI2 h2
piece NB1 t20
piece NI1 t19
piece NT9 k20
piece NP9 l20
`

// orderDrone opens the Drone form on the newest board as u and submits it:
// the answer (a pointer to the DM, or the order itself when u's direct
// messages are closed).
func (g *sandGame) orderDrone(u *discordsim.User, spotter, target string) *discordsim.Message {
	g.h.t.Helper()
	g.openModal(u, g.board(), "Order a Drone (private)")
	return g.submit(u, map[string]string{"spotter": spotter, "target": target})
}

// TestSandTableStaleDroneOrderByDM: a newer Drone order closes the older
// order's direct message (no buttons left, it says why), and only the
// newer one's Confirm gives a Drone, the one it shows.
func TestSandTableStaleDroneOrderByDM(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g, scan := h.sandSetup(alice, bob, stalePosition)

	g.orderDrone(alice, "a9", "a9")
	m1 := g.lastDM(alice, "target **a9**")
	require.NotEmpty(t, m1.Buttons())
	g.orderDrone(alice, "a9", "a10")
	m2 := g.lastDM(alice, "target **a10**")
	require.NotEqual(t, m1.ID, m2.ID)
	h.drained() // the older order's message is closed by the outbox
	m1 = h.srv.Message(m1.ID)
	require.Empty(t, m1.Buttons(), "the replaced order's message keeps no buttons: %s", m1.Text())
	require.Contains(t, m1.Text(), "a newer order replaced it")
	require.NotEmpty(t, m2.Buttons())
	scan.check()

	_, done := g.press(alice, m2, "Confirm Drone")
	require.Contains(t, done.Text(), "target **a10**")
	drones := g.pos().Drones()
	require.Len(t, drones, 1)
	require.Equal(t, "a10", drones[0].Target.String())
	scan.check()
}

// TestSandTableStaleDroneOrderEphemeral: with closed direct messages the
// orders are ephemeral answers, which the bot cannot edit later: the older
// order's Confirm is refused, its Cancel changes nothing, and the newer
// order is still the one confirmed.
func TestSandTableStaleDroneOrderEphemeral(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.SetDMsClosed(alice, true)
	g, scan := h.sandSetup(alice, bob, stalePosition)

	m1 := g.orderDrone(alice, "a9", "a9")
	require.Contains(t, mustBeEphemeral(t, m1, alice), "target **a9**")
	m2 := g.orderDrone(alice, "a9", "a10")
	require.Contains(t, mustBeEphemeral(t, m2, alice), "target **a10**")

	_, r := g.press(alice, m1, "Confirm Drone")
	require.Contains(t, mustBeEphemeral(t, r, alice), "This Drone order was replaced by a newer one; use the latest message")
	require.Empty(t, g.pos().Drones(), "nothing was given")
	require.Contains(t, h.srv.Message(m1.ID).Text(), "target **a9**", "the refused message is unchanged")
	_, r = g.press(alice, m1, "Cancel")
	require.Contains(t, r.Text(), "no longer waiting")
	scan.check()

	_, done := g.press(alice, m2, "Confirm Drone")
	require.Contains(t, done.Text(), "Drone ordered")
	require.Contains(t, done.Text(), "target **a10**")
	drones := g.pos().Drones()
	require.Len(t, drones, 1)
	require.Equal(t, "a10", drones[0].Target.String())
	scan.check()
}

// tripleClick clicks label on m three times in a row, before the bot
// answers the first, as a quick player does, and waits for the three
// answers; it returns the interactions.
func (g *sandGame) tripleClick(u *discordsim.User, m *discordsim.Message, label string) []*discordsim.Interaction {
	g.h.t.Helper()
	id := buttonID(g.h.t, m, label)
	var ins []*discordsim.Interaction
	for range 3 {
		in, err := g.h.srv.Click(u, m, id)
		require.NoError(g.h.t, err, "the clicks go out before the first answer")
		ins = append(ins, in)
	}
	for _, in := range ins {
		_, err := in.WaitResponse(wait)
		require.NoError(g.h.t, err)
	}
	g.h.idle() // a deferred answer comes after the response
	return ins
}

// TestSandTableTripleClicks: three quick clicks on Confirm of a
// deployment panel, or on Commit of a draft, act once; the message keeps
// the success, and the repeats are answered privately "Already done".
func TestSandTableTripleClicks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)
	_, panel := g.deploy(alice, g.thread.ID, discordsim.Opt("preset", "phalanx"))
	ins := g.tripleClick(alice, panel, "Confirm")
	var already int
	for _, in := range ins {
		for _, m := range in.Messages() {
			if m.ID != panel.ID && strings.Contains(m.Text(), "Already done: you confirmed this deployment.") {
				require.True(t, m.Ephemeral())
				already++
			}
		}
	}
	require.Equal(t, 2, already, "two repeats answered privately")
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		return strings.Contains(h.srv.Message(panel.ID).Text(), "Confirmed. Your deployment stays secret")
	}))
	final := h.srv.Message(panel.ID).Text()
	require.NotContains(t, final, "Nothing changed", "the panel keeps its success: %s", final)
	require.Contains(t, final, "**Confirmed** ✅")
	scan.check()

	// Commit of a draft.
	require.NoError(t, h.loadSandPosition(g.id, draftPosition))
	_, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Content, "set up by an operator")
	})
	require.NoError(t, err)
	scan.check()
	d := h.reply(alice, g.thread.ID, "step", discordsim.Opt("step", "e4-e5 f4-g5"))
	ins = g.tripleClick(alice, d, "Commit")
	already = 0
	for _, in := range ins {
		for _, m := range in.Messages() {
			if m.ID != d.ID && strings.Contains(m.Text(), "Already done: you committed this draft: **e4-e5 f4-g5** was played in turn 1.") {
				require.True(t, m.Ephemeral())
				already++
			}
		}
	}
	require.Equal(t, 2, already, "two repeats answered privately")
	h.drained()
	played := 0
	for _, m := range h.srv.Messages(g.thread.ID) {
		if !m.Ephemeral() && strings.Contains(m.Text(), "played **e4-e5 f4-g5**") {
			played++
		}
	}
	require.Equal(t, 1, played, "played once")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return strings.Contains(h.srv.Message(d.ID).Text(), "**Committed** ✅") }))
	require.NotContains(t, h.srv.Message(d.ID).Text(), "Nothing changed")
	require.NotContains(t, h.srv.Message(d.ID).Text(), "You have no Infantry draft")
	require.Equal(t, sandtable.PhasePostTurn, g.pos().Phase())
	scan.check()
}
