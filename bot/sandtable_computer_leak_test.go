package bot_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
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

	// end orders a Drone for alice (on a square no public text or board has
	// named, so that naming it would be a leak) and resigns at once, with
	// the computer's Drones, ordered in its last turn, pending: none of
	// them ever resolves, and their orders stay secret in the final board,
	// its record files and every message after (the replay follows).
	ended := false
	end := func(p *sandtable.Position, uses []sandtable.Action) {
		var order sandtable.Action
		for _, u := range uses {
			if u.Kind == sandtable.ActDrone && (order.Kind != sandtable.ActDrone || !scan.public[u.To.String()] && !scan.onBoard[u.To.String()]) {
				order = u
			}
		}
		require.Equal(t, sandtable.ActDrone, order.Kind, "alice can order a Drone")
		require.False(t, scan.public[order.To.String()] || scan.onBoard[order.To.String()], "a target nothing public names")
		g.drone(alice, order.From.String(), order.To.String())
		// The Drone ends alice's turn; the computer plays on and would move
		// the game on between the resignation's prompt and its Confirm
		// ("the game moved on", nothing changed). Stop it: its action in
		// progress ends first.
		h.bot.App().StopComputers()
		h.drained()
		scan.check()
		// The computer's action in progress may have won the game: alice's
		// Drone, pending at the end, never resolves all the same.
		if g.pos().Phase() != sandtable.PhaseFinished {
			require.Positive(t, g.pos().PendingDrones(sandtable.South))
			answer := h.replyConfirmed(alice, thread.ID, "resign")
			h.drained()
			require.Equal(t, sandtable.PhaseFinished, g.pos().Phase(), "the resignation's answer: %s", answer.Text())
		}
		h.clock.Advance(commands.ReplayDelay + time.Second) // the replay follows
		h.drained()
		ended = true
	}
	drones := 0
	for turn := 0; turn < 8 && !ended; turn++ {
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
				canDrone := false
				for _, u := range uses {
					canDrone = canDrone || u.Kind == sandtable.ActDrone
				}
				// As soon as the computer has had a turn and alice can order
				// a Drone: waiting longer let the computer win first in some
				// games (its play depends on the game's random seed).
				if turn >= 1 && canDrone {
					// The end, with Drones that never resolve (ruling D6).
					end(p, uses)
					break
				}
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
	require.True(t, ended, "alice resigned with a Drone pending: %s", g.pos().ResultText())
	require.Positive(t, scan.publicFiles, "the final board's record files were scanned")
	t.Logf("Drones pending seen at alice's turns: %d; public texts %d, files %d, images %d (%d intermediate not compared)", drones, scan.publicTexts, scan.publicFiles, scan.publicImages, scan.skippedImages)
	require.Positive(t, scan.publicTexts)
	require.Positive(t, scan.publicImages)
}
