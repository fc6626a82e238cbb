package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestSandRevealFailsThenArrives: a 500 on the reveal after the last
// Confirm loses nothing: the deployments are revealed in the stored game
// at once, and the reveal (board, coin toss, ping of the first mover) is
// posted once, when the outbox retries it; the status message closes after
// it.
func TestSandRevealFailsThenArrives(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	for _, u := range []*discordsim.User{alice, bob} {
		p := g.dmPanel(u)
		sel, err := h.srv.Select(u, p, presetID(p), "phalanx")
		require.NoError(t, err)
		p = h.answerOf(sel, p.Version)
		if u == bob {
			h.drained()
			h.srv.ServerErrorNext("POST /channels/*/messages", 1)
		}
		_, p = g.press(u, p, "Confirm")
		require.Contains(t, p.Text(), "onfirmed")
	}
	require.Equal(t, 1, g.pos().Turn(), "the reveal is saved with the last Confirm")
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		for _, c := range h.srv.CallsTo("POST /channels/*/messages") {
			if c.Status == 500 {
				return true
			}
		}
		return false
	}))
	require.Empty(t, h.messagesWith(g.thread.ID, "The coin is flipped"), "the reveal's post failed")

	h.clock.Advance(2 * time.Second)
	h.swept()
	reveals := h.messagesWith(g.thread.ID, "The coin is flipped")
	require.Len(t, reveals, 1, "the reveal arrives once")
	require.NotNil(t, reveals[0].Attachment("board.png"))
	first := g.user(g.pos().First())
	require.Contains(t, reveals[0].Text(), first.Mention()+" ("+g.pos().First().String()+") moves first")
	require.Contains(t, h.srv.Message(g.status.ID).Text(), "Deployment over")
	notice := g.lastDM(alice, "Both deployments are revealed")
	require.NotNil(t, notice, "the player who confirmed first is told by DM")
	require.True(t, strings.Contains(notice.Text(), "<#"+g.thread.ID+">"))
	steps, err := g.pos().LegalNextSteps(nil)
	require.NoError(t, err)
	g.move(first, steps[0].String())
}

// TestSandPanelDMFailsThenArrives: a 500 on the direct message of a
// deployment panel is not "your DMs are closed" (only Discord's 50007 is):
// the thread says nothing about closed DMs, and the panel arrives when the
// outbox retries it.
func TestSandPanelDMFailsThenArrives(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.ServerErrorNext("POST /users/@me/channels", 1)
	g := h.sandStart(alice, bob)
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		for _, c := range h.srv.CallsTo("POST /users/@me/channels") {
			if c.Status == 500 {
				return true
			}
		}
		return false
	}))
	closed := func() []*discordsim.Message { return h.messagesWith(g.thread.ID, "cannot send you direct messages") }
	require.Empty(t, closed(), "a 500 is not a closed DM")
	h.clock.Advance(2 * time.Second)
	h.swept()
	g.dmPanel(alice)
	g.dmPanel(bob)
	require.Empty(t, closed())
	_, ack := g.press(alice, g.status, "Deploy (private)")
	require.Contains(t, mustBeEphemeral(t, ack, alice), "by direct message")
}
