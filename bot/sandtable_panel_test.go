package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// One deployment panel per player (ruling D20 in docs/rules/sandtable.md),
// counted in the fake Discord's DM channel as the player sees it.

// dmTally counts what u sees in their direct messages about game g: the
// live panels (a panel with controls), the panels turned into pointers,
// and every message but the ephemeral answers to commands typed there.
func (g *sandGame) dmTally(u *discordsim.User) (live, moved, all int) {
	for _, m := range g.dmMessages(u) {
		all++
		switch {
		case strings.Contains(m.Text(), "Your secret deployment") && len(m.Components) > 0:
			live++
		case strings.Contains(m.Content, "This deployment panel moved"):
			moved++
			require.Empty(g.h.t, m.Components, "a moved panel has no controls")
			require.Empty(g.h.t, m.Attachments, "a moved panel shows no old layout")
		}
	}
	return live, moved, all
}

// dmMessages are u's direct messages but the ephemeral answers to commands
// typed there (a short acknowledgement, below the panel it gave).
func (g *sandGame) dmMessages(u *discordsim.User) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range g.h.srv.VisibleMessages(u, g.h.srv.DM(u).ID) {
		if !m.Ephemeral() {
			out = append(out, m)
		}
	}
	return out
}

// TestSandOnePanelPerPlayer: opening the panel again, by the thread's
// button or /sandtable deploy (in the thread or the DMs, with a change or
// without), leaves one live panel, the newest message of the DMs; the
// answers are short and private where the player typed or clicked; a
// refusal shows in the panel and the next success replaces it.
func TestSandOnePanelPerPlayer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)
	panel := g.dmPanel(alice)
	public := func() (n int) {
		for _, m := range h.srv.Messages(g.thread.ID) {
			if !m.Ephemeral() {
				n++
			}
		}
		return n
	}
	threadBefore := public()
	dm := h.srv.DM(alice)

	for i := range 4 {
		old := panel
		switch i {
		case 0, 2:
			_, ack := g.press(alice, g.status, "Deploy (private)")
			require.Contains(t, mustBeEphemeral(t, ack, alice), "by direct message: it is the newest message there")
			require.Empty(t, ack.Attachments, "a short answer")
			require.NoError(t, h.srv.WaitFor(wait, func() bool { panel = g.dmPanel(alice); return panel.ID != old.ID }))
		case 1:
			_, panel = g.deploy(alice, g.thread.ID)
		case 3:
			var ack *discordsim.Message
			ack, panel = g.deploy(alice, dm.ID, discordsim.Opt("preset", "fortress"))
			require.Contains(t, ack.Text(), "Preset **fortress** loaded")
		}
		h.drained()
		live, moved, all := g.dmTally(alice)
		require.Equal(t, 1, live, "one live panel after %d reopenings", i+1)
		require.Equal(t, i+1, moved)
		require.Equal(t, i+2, all, "nothing else piles up in the DMs")
		msgs := g.dmMessages(alice)
		require.Equal(t, panel.ID, msgs[len(msgs)-1].ID, "the live panel is the newest message")
		require.Contains(t, h.srv.Message(old.ID).Content, "This deployment panel moved")
		scan.check()
	}
	require.Contains(t, panel.Text(), "panel 5")
	require.Equal(t, threadBefore, public(), "the thread gained nothing public")
	dump(t, "panel-moved", h.srv.Message(g.h.srv.VisibleMessages(alice, dm.ID)[0].ID))

	// A refusal in the panel, then a success over it.
	_, cleared := g.press(alice, panel, "Clear")
	require.Contains(t, cleared.Text(), "Cleared")
	_, refusal := g.press(alice, cleared, "Confirm")
	require.Equal(t, panel.ID, refusal.ID)
	require.True(t, strings.HasPrefix(refusal.Content, "⚠️ You cannot confirm yet"), refusal.Content)
	dump(t, "panel-refusal", refusal)
	_, ok := g.press(alice, refusal, "Random")
	require.Equal(t, panel.ID, ok.ID)
	require.Equal(t, "A random valid deployment.", ok.Content)
	msgs := g.dmMessages(alice)
	require.Equal(t, panel.ID, msgs[len(msgs)-1].ID, "the panel is still the newest message")
	for _, m := range h.srv.VisibleMessages(alice, dm.ID) {
		require.NotContains(t, m.Text(), "⚠️", "no refusal is left in the DMs")
	}
	_, _, all := g.dmTally(alice)
	require.Equal(t, 5, all)
	scan.check()

	// An older panel whose pointer edit is late: its buttons change nothing
	// and turn it into the pointer.
	h.srv.ServerErrorNext("PATCH /channels/*/messages/*", 1)
	_, panel2 := g.deploy(alice, g.thread.ID)
	require.NotEqual(t, panel.ID, panel2.ID)
	require.NotEmpty(t, h.srv.Message(panel.ID).Components, "the pointer edit failed for now")
	layout := g.pos().Draft(sandtable.South).Layout()
	_, r := g.press(alice, h.srv.Message(panel.ID), "Random")
	require.Equal(t, panel.ID, r.ID)
	require.Contains(t, r.Content, "This deployment panel moved")
	require.Empty(t, r.Components)
	require.Empty(t, r.Attachments)
	require.Equal(t, layout, g.pos().Draft(sandtable.South).Layout(), "the older panel changed nothing")
	h.clock.Advance(time.Minute)
	h.swept()
	live, _, _ := g.dmTally(alice)
	require.Equal(t, 1, live)
	_, r = g.press(alice, panel2, "Confirm")
	require.Contains(t, r.Text(), "Confirmed")
	scan.check()
}

// TestSandPanelsWithClosedDMs: with closed direct messages each panel is
// an ephemeral answer in the thread; an older one changes nothing and
// says where the live one is.
func TestSandPanelsWithClosedDMs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.SetDMsClosed(bob, true)
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)
	_, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "I cannot send you direct messages")
	})
	require.NoError(t, err)
	_, first := g.press(bob, g.status, "Deploy (private)")
	require.Contains(t, mustBeEphemeral(t, first, bob), "Your secret deployment: North")
	_, second := g.press(bob, g.status, "Deploy (private)")
	require.Contains(t, mustBeEphemeral(t, second, bob), "panel 3")
	_, r := g.press(bob, first, "Random")
	require.Equal(t, first.ID, r.ID)
	require.Contains(t, r.Text(), "This deployment panel was replaced by a newer one")
	require.Empty(t, r.Components)
	require.Zero(t, g.pos().Draft(sandtable.North).Len(), "the older panel changed nothing")
	_, r = g.press(bob, second, "Random")
	require.Contains(t, r.Text(), "A random valid deployment")
	require.True(t, r.Ephemeral())
	dump(t, "panel-replaced-ephemeral", h.srv.Message(first.ID))
	scan.check()
}
