package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// southFlyer is South's layout for the full game: the phalanx preset with
// an Airplane on o6, whose file is clear of North's Anti-Air in North's
// phalanx, so that it can reach North's Bases on o20 and f20.
const southFlyer = `# South: phalanx with an Airplane on o6
#  abcdefghijklmnopqrst
 9 IIIIIIIIIIIIIIIIIIII
 8 MAMAMAMAMAMAMAMAMAMA
 7 .I.I.I.I.I.I.I.I.I.I
 6 TM.ATMPA.M.ATMPA.MTA
 1 .....B........B.....
`

func inFiles(lo, hi byte) func(sandtable.Square) bool {
	return func(s sandtable.Square) bool { f := byte('a' + s.File()); return f >= lo && f <= hi }
}

// TestSandTableFullGame plays a whole game through the fake Discord: the
// challenge, a secret deployment (a refused invalid Confirm, a pasted
// layout, a preset), the reveal with the coin flip, turns with /move,
// Mines, a Drone of each side that resolves, and the win by destroying
// both enemy Bases. Every public payload is scanned for secrets after
// every step.
func TestSandTableFullGame(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "2h"))
	scan := newLeakScan(g)
	scan.check()
	dump(t, "00-status", g.status)

	// South: an invalid deployment is refused with the engine's reasons.
	sp := g.dmPanel(alice)
	require.Contains(t, sp.Text(), "Placed 0 of 68")
	_, refusal := g.press(alice, sp, "Confirm")
	require.Equal(t, sp.ID, refusal.ID, "the refusal is shown in the panel")
	text := refusal.Content
	require.Contains(t, text, "⚠️ You cannot confirm yet: the deployment is not valid: 0 of 2 Bases placed")
	require.Contains(t, text, "0 of 15 Anti-Air placed")
	scan.check()

	// South pastes a layout in the form, which starts with the current one.
	md := g.openModal(alice, sp, "Paste layout")
	require.Contains(t, md.Inputs[0].Value, "South deployment")
	sp = g.submit(alice, map[string]string{"layout": southFlyer})
	require.Contains(t, sp.Text(), "Layout loaded: 68 pieces")
	require.Contains(t, sp.Text(), "**Valid** ✅")
	require.NotNil(t, sp.Attachment("deployment.png"))
	dump(t, "01-south-panel", sp)
	scan.check()
	_, sp = g.press(alice, sp, "Confirm")
	require.Contains(t, sp.Text(), "Confirmed")
	notice, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "has confirmed their deployment")
	})
	require.NoError(t, err)
	require.Contains(t, notice.Text(), alice.Mention()+" (South)")
	h.drained()
	require.Contains(t, h.srv.Message(g.status.ID).Text(), alice.Mention()+" (1500?): **confirmed**")
	scan.check()

	// North: a preset from the menu, then Confirm: both are revealed.
	np := g.dmPanel(bob)
	sel, err := h.srv.Select(bob, np, presetID(np), "phalanx")
	require.NoError(t, err)
	np = h.answerOf(sel, np.Version)
	require.Contains(t, np.Text(), "Preset **phalanx** loaded")
	scan.check()
	_, np = g.press(bob, np, "Confirm")
	require.Contains(t, np.Text(), "both are revealed")
	reveal, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "The coin is flipped")
	})
	require.NoError(t, err)
	dump(t, "02-reveal", reveal)
	require.NotNil(t, reveal.Attachment("board.png"))
	require.Contains(t, reveal.Text(), "both deployments are revealed")
	h.drained()
	require.Contains(t, h.srv.Message(g.status.ID).Text(), "Deployment over")
	require.Empty(t, h.srv.Message(g.status.ID).Buttons())
	scan.check()
	p := g.pos()
	require.Contains(t, reveal.Text(), "**"+p.First().String()+"**. "+g.user(p.First()).Mention()+" ("+p.First().String()+") moves first")

	// The game: South flies an Airplane to North's Bases; North shuffles.
	south := []string{"n7-o6", "Po6-o20", "Po20-f20"}
	north := []string{"b14-c15", "c15-c16", "c16-c17"}
	si, ni := 0, 0
	for turn := 1; g.pos().Phase() != sandtable.PhaseFinished; turn++ {
		require.Less(t, turn, 10)
		p := g.pos()
		if p.ToMove() == sandtable.South {
			m := g.move(alice, south[si])
			dump(t, "south-"+south[si], m)
			scan.check()
			si++
			if g.pos().Phase() == sandtable.PhaseFinished {
				break
			}
			require.Contains(t, m.Text(), "PostTurn: 2 hazard uses left")
			g.mine(inFiles('k', 'm'))
			scan.check()
			if si == 1 {
				// A Drone: spotter c9, target c11 (empty): secret until it strikes.
				require.Contains(t, g.refused(alice, "Dc9-c11"), "Drone orders are secret")
				done := g.drone(alice, "c9", "c11")
				dump(t, "south-drone", done)
				scan.check()
				pub, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
					return m.ChannelID == g.thread.ID && strings.Contains(m.Content, "declared a Drone (1 pending)")
				})
				require.NoError(t, err)
				requireNoSquare(t, pub.Text(), "c11")
				// The private view shows it, by DM.
				in := h.click(alice, g.board(), buttonID(t, g.board(), "My private view"))
				ack, err := in.WaitReply(wait, nil)
				require.NoError(t, err)
				require.Contains(t, mustBeEphemeral(t, ack, alice), "direct message")
				pv := g.lastDM(alice, "Your private view")
				require.Contains(t, pv.Text(), "target **c11**")
				scan.check()
			} else {
				g.mine(inFiles('k', 'm'))
				scan.check()
			}
		} else {
			// Autocomplete for North while South's Drone is pending.
			ac, err := h.srv.Autocomplete(bob, g.thread.ID, "move", discordsim.Focused("move", "c1"))
			require.NoError(t, err)
			_, err = ac.WaitChoices(wait)
			require.NoError(t, err)
			g.move(bob, north[ni])
			ni++
			scan.check()
			for p := g.pos(); p.Phase() == sandtable.PhasePostTurn && p.ToMove() == sandtable.North; p = g.pos() {
				if ni == 1 && p.HazardUses() == 1 {
					g.drone(bob, "t12", "t10")
				} else {
					g.mine(inFiles('k', 'm'))
				}
				scan.check()
			}
			board := h.reply(carol, g.thread.ID, "board")
			require.True(t, board.Ephemeral(), "/board answers privately")
			scan.check()
		}
	}
	last := g.board()
	dump(t, "99-end", last)
	require.Contains(t, last.Text(), alice.Mention()+" (South) wins: North has no Base left")
	require.Contains(t, last.Text(), "North Base NB1 on f20 was destroyed by Airplane SP2")
	requireOnlySandRematch(t, last)
	// My full record: each player's own record, privately; nobody else's.
	_, mine := g.press(bob, last, "My full record")
	require.True(t, mine.Ephemeral(), "a full record is private")
	require.NotNil(t, mine.Attachment("sandtable-"+g.id+"-north-record.json"), mine.Text())
	_, refused := g.press(carol, last, "My full record")
	require.True(t, refused.Ephemeral())
	require.Contains(t, refused.Text(), "Only the players")
	require.Nil(t, refused.Attachment("sandtable-"+g.id+"-north-record.json"))
	rec := last.Attachment("sandtable-" + g.id + ".txt")
	require.NotNil(t, rec, "the game record is attached at the end")
	for _, want := range []string{"# South: alice", "The coin chose", "South played n7-o6", "South declared a Drone (1 pending)", "South's Drone spotted by SI13 hit c11: nothing",
		"North's Drone spotted by NI20 hit t10", "Game over: South wins, North has no Base left", "sandtable-position 1", "view none"} {
		require.Contains(t, string(rec.Data), want)
	}
	require.NotContains(t, string(rec.Data), "[secret")
	require.Greater(t, scan.publicImages, 5)
	require.Greater(t, scan.autocompletes, 0)
	require.Greater(t, scan.privateCalls, 5)

	after := h.reply(bob, g.thread.ID, "move", optMove("c17-c18"))
	require.Contains(t, mustBeEphemeral(t, after, bob), "This game is over")
	h.requireSummaryLinks(g.thread, last)
}
