package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestSandTableEndDuringDeploymentClosesPanels: when a game ends during
// Deployment (a resignation, the deployment time running out), the
// players' deployment panels in their direct messages lose their
// controls and say that the game is over.
func TestSandTableEndDuringDeploymentClosesPanels(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	closed := func(g *sandGame, u *discordsim.User, panels ...*discordsim.Message) {
		t.Helper()
		for _, p := range panels {
			require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.Message(p.ID).Buttons()) == 0 }),
				"%s's panel keeps its controls: %s", u.Name, h.srv.Message(p.ID).Text())
			m := h.srv.Message(p.ID)
			require.Empty(t, presetID(m), "no preset menu left")
			require.Contains(t, m.Text(), "ended during Deployment")
			require.Contains(t, m.Text(), "This panel is closed")
		}
	}

	t.Run("resignation", func(t *testing.T) {
		g := h.sandStart(alice, bob)
		first := g.dmPanel(alice)
		_, ack := g.press(alice, g.status, "Deploy (private)")
		require.Contains(t, mustBeEphemeral(t, ack, alice), "by direct message")
		var second *discordsim.Message
		require.NoError(t, h.srv.WaitFor(wait, func() bool {
			second = g.dmPanel(alice)
			return second.ID != first.ID
		}))
		require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.Message(first.ID).Buttons()) == 0 }))
		require.Contains(t, h.srv.Message(first.ID).Text(), "This deployment panel moved", "the first panel points to the second")
		bobs := g.dmPanel(bob)
		m := h.replyConfirmed(bob, g.thread.ID, "resign")
		require.Contains(t, m.Text(), "resigned")
		closed(g, alice, second)
		closed(g, bob, bobs)
		require.Contains(t, h.srv.Message(second.ID).Text(), alice.Mention()+" (South) wins")
	})
	t.Run("deployment time", func(t *testing.T) {
		g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "1h"))
		ap, bp := g.dmPanel(alice), g.dmPanel(bob)
		h.clock.Advance(61 * time.Minute)
		_, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
			return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "deployment time ran out")
		})
		require.NoError(t, err)
		closed(g, alice, ap)
		closed(g, bob, bp)
		require.Contains(t, h.srv.Message(ap.ID).Text(), "cancelled")
	})
}
