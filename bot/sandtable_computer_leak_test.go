package bot_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// TestSandTableComputerKeepsSecrets: alice (South) plays SandTable against
// the computer (North) through the fake Discord, every REST payload
// scanned (leakScan): the computer's secret deployment, before the
// reveal, and its Drone orders, while pending, appear in no public text
// or image, in none of its own messages and in no answer to alice.
func TestSandTableComputerKeepsSecrets(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, cpu := h.srv.User("alice"), h.srv.Bot()
	first := len(h.srv.Calls())
	start := h.reply(alice, h.gen.ID, "sandtable challenge", discordsim.Opt("opponent", cpu), discordsim.Opt("level", "beginner"))
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(start.Text())
	require.NotNil(t, link, start.Text())
	thread := h.srv.ChannelByID(link[1])
	status, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == thread.ID && strings.Contains(m.Text(), "SandTable Chess: Deployment")
	})
	require.NoError(t, err)
	g := &sandGame{h: h, south: alice, north: cpu, thread: thread, status: status, id: gameIDFromFooter(t, status), firstCall: first}
	scan := newLeakScan(g)
	scan.lastImage = true // the computer acts several times between checks
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return g.pos().Confirmed(sandtable.North) }), "the computer confirms its deployment")
	h.drained()
	scan.check()
	g.deployRandom(alice)
	h.drained()
	scan.check()

	drones := 0
	for turn := 0; turn < 8; turn++ {
		// Wait until the computer has finished its turn: alice to act, or the end.
		require.NoError(t, h.srv.WaitFor(wait, func() bool {
			p := g.pos()
			return p.ToMove() == sandtable.South || p.Phase() == sandtable.PhaseFinished
		}), "the computer's turn ends")
		h.drained()
		p := g.pos()
		drones += len(p.Drones())
		scan.check()
		if p.Phase() == sandtable.PhaseFinished {
			break
		}
		for p.ToMove() == sandtable.South && p.Phase() != sandtable.PhaseFinished {
			switch p.Phase() {
			case sandtable.PhaseMain:
				g.playMain()
			case sandtable.PhasePostTurn:
				uses, err := p.LegalHazardUses()
				require.NoError(t, err)
				require.NotEmpty(t, uses)
				// A Mine or Anti-Air by /move; a Drone (when nothing else
				// is legal) only by the private order.
				use := uses[0]
				for _, u := range uses {
					if u.Kind != sandtable.ActDrone {
						use = u
						break
					}
				}
				if use.Kind == sandtable.ActDrone {
					g.drone(alice, use.From.String(), use.To.String())
				} else {
					g.move(alice, use.String())
				}
			}
			h.drained()
			scan.check()
			p = g.pos()
		}
	}
	t.Logf("Drones pending seen at alice's turns: %d; public texts %d, images %d (%d intermediate not compared)", drones, scan.publicTexts, scan.publicImages, scan.skippedImages)
	require.Positive(t, scan.publicTexts)
	require.Positive(t, scan.publicImages)
}
