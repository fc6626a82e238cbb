package bot_test

import (
	"bytes"
	"image/png"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// TestSandTableDeploymentMethods: every way to deploy, privately, with a
// preview after each change; bad input is refused with the reason and
// changes nothing; Unconfirm works until the other side confirms.
func TestSandTableDeploymentMethods(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)
	draft := func(side sandtable.Side) *sandtable.Deployment { return g.pos().Draft(side) }
	sq := func(s string) sandtable.Square { return mustSquare(t, s) }

	// Piece by piece, in the form.
	sp := g.dmPanel(alice)
	g.openModal(alice, sp, "Edit pieces")
	sp = g.submit(alice, map[string]string{"edits": "place T c3\nplace I a5 b5 c5\nmove c3-d3; remove b5\nS place Pe2"})
	require.Contains(t, sp.Text(), "7 changes applied")
	require.Contains(t, sp.Text(), "Placed 4 of 68")
	require.NotNil(t, sp.Attachment("deployment.png"), "a private preview after each change")
	d := draft(sandtable.South)
	require.Equal(t, sandtable.Tank, d.At(sq("d3")))
	require.Equal(t, sandtable.Airplane, d.At(sq("e2")))
	require.Equal(t, sandtable.NoKind, d.At(sq("b5")))
	require.Equal(t, 2, d.Count(sandtable.Infantry))
	scan.check()
	for _, c := range []struct{ edits, want string }{
		{"place I f5\nplace T c12", "Line 2 (`place T c12`) is not allowed: c12 is outside the deployment zone (South's zone is ranks 1–9)"},
		{"place X c3", "Line 1 (`place X c3`): unknown piece letter `x`"},
		{"move h1-h2", "there is no piece on h1"},
		{"N place Ta15", "you deploy as South"},
		{"jump a1", "unknown change `jump`"},
	} {
		// A refusal is shown in the panel itself, as it is, unchanged.
		g.openModal(alice, sp, "Edit pieces")
		ans := g.submit(alice, map[string]string{"edits": c.edits})
		require.Equal(t, sp.ID, ans.ID, "the refusal is shown in the panel")
		require.Contains(t, ans.Content, "⚠️ ")
		require.Contains(t, ans.Content, c.want)
		require.Contains(t, ans.Content, "Nothing changed")
		require.Contains(t, ans.Text(), "Placed 4 of 68", "the panel shows the deployment as it is")
		require.NotNil(t, ans.Attachment("deployment.png"))
		sp = ans
	}
	require.Equal(t, sandtable.NoKind, draft(sandtable.South).At(sq("f5")), "a refused batch changes nothing")

	// A pasted layout that cannot be read.
	g.openModal(alice, sp, "Paste layout")
	ans := g.submit(alice, map[string]string{"layout": "9 IIIIII\n"})
	require.Equal(t, sp.ID, ans.ID)
	require.Contains(t, ans.Content, "Your layout cannot be read: rank 9 has 6 cells, want 20 (files a–t)")
	g.openModal(alice, sp, "Paste layout")
	ans = g.submit(alice, map[string]string{"layout": "12 IIIIIIIIIIIIIIIIIIII\n"})
	require.Contains(t, ans.Content, "outside the deployment zone")
	scan.check()

	// The layout as text, to copy, in the panel: the next success replaces
	// the refusal.
	_, txt := g.press(alice, ans, "Layout as text")
	require.Equal(t, sp.ID, txt.ID)
	require.NotContains(t, txt.Content, "⚠️", "the refusal is gone")
	require.Contains(t, txt.Text(), " 3 ...T................")
	require.Contains(t, txt.Text(), " 2 ....P...............")
	require.Equal(t, 1, g.panelCount(alice))

	// A layout file uploaded with /sandtable deploy in the DMs: the panel
	// comes anew, as the newest message; the old one points to it.
	dm := h.srv.DM(alice)
	up, sp2 := g.deploy(alice, dm.ID, discordsim.Opt("file", discordsim.File{Name: "flyer.txt", Data: []byte(southFlyer)}))
	require.Contains(t, up.Text(), "Layout loaded: 68 pieces")
	require.Contains(t, sp2.Text(), "Layout loaded: 68 pieces")
	require.Contains(t, sp2.Text(), "**Valid** ✅")
	require.Contains(t, sp2.Text(), "panel 2")
	require.Equal(t, sandtable.Airplane, draft(sandtable.South).At(sq("o6")))
	h.drained()
	old := h.srv.Message(sp.ID)
	require.Contains(t, old.Content, "This deployment panel moved")
	require.Empty(t, old.Components, "the older panel has no controls")
	require.Empty(t, old.Attachments, "nor its image")
	require.Equal(t, 1, g.panelCount(alice))
	sp = sp2
	scan.check()
	big := h.reply(alice, dm.ID, "sandtable deploy", discordsim.Opt("file", discordsim.File{Name: "big.txt", Data: []byte(strings.Repeat("#", 20000))}))
	require.Contains(t, mustBeEphemeral(t, big, alice), "big.txt is too large for a layout")
	bad := h.reply(alice, dm.ID, "sandtable deploy", discordsim.Opt("file", discordsim.File{Name: "bad.txt", Data: []byte("hello\n")}))
	require.Contains(t, bad.Text(), "Your layout cannot be read")
	require.Equal(t, sandtable.Airplane, draft(sandtable.South).At(sq("o6")))
	two := h.reply(alice, dm.ID, "sandtable deploy", discordsim.Opt("preset", "fortress"), discordsim.Opt("random", true))
	require.Contains(t, two.Text(), "Give one of file, preset, random or edit")

	// A preset by command in the thread: the answer is private and short.
	pre, _ := g.deploy(alice, g.thread.ID, discordsim.Opt("preset", "skirmish"))
	require.Contains(t, pre.Text(), "Preset **skirmish** loaded")
	require.Empty(t, pre.Attachments, "a short answer: the panel is in the DMs")
	ed, sp := g.deploy(alice, g.thread.ID, discordsim.Opt("edit", "remove a9; place I a9"))
	require.Contains(t, ed.Text(), "2 changes applied")
	require.Contains(t, sp.Text(), "2 changes applied")
	scan.check()

	// North: Random, then Confirm; South confirms, withdraws, confirms.
	np := g.dmPanel(bob)
	_, np = g.press(bob, np, "Random")
	require.Contains(t, np.Text(), "A random valid deployment")
	require.Contains(t, np.Text(), "**Valid** ✅")
	require.NoError(t, draft(sandtable.North).Validate())
	scan.check()
	rnd, sp := g.deploy(alice, g.thread.ID, discordsim.Opt("random", true))
	require.Contains(t, rnd.Text(), "A random valid deployment")
	require.Equal(t, 1, g.panelCount(alice), "one live panel")
	_, sp = g.press(alice, sp, "Confirm")
	require.Contains(t, sp.Text(), "Confirmed")
	scan.check()
	_, sp = g.press(alice, sp, "Unconfirm")
	require.Contains(t, sp.Text(), "Confirmation withdrawn")
	_, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "withdrew their confirmation")
	})
	require.NoError(t, err)
	h.drained()
	require.Contains(t, h.srv.Message(g.status.ID).Text(), alice.Mention()+" (1500?): deploying…")
	scan.check()
	_, np = g.press(bob, np, "Confirm")
	scan.check()
	_, sp = g.press(alice, sp, "Confirm")
	require.Contains(t, sp.Text(), "both are revealed")
	scan.check()
	p := g.pos()
	require.Equal(t, 1, p.Turn())
	require.Len(t, p.Pieces(), 2*sandtable.RequiredTotal)
	// Bob's panel, which waited for Alice, is closed: the game is on.
	h.drained()
	closed := h.srv.Message(np.ID)
	require.Contains(t, closed.Content, "Deployment is over")
	require.Empty(t, closed.Components)
	require.Empty(t, closed.Attachments)
}

// TestSandTableDMsClosed: a player whose direct messages are closed is told
// why in the thread, deploys and orders Drones in ephemeral messages
// started from the thread's buttons, and nothing leaks.
func TestSandTableDMsClosed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.SetDMsClosed(bob, true)
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)
	note, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "I cannot send you direct messages")
	})
	require.NoError(t, err)
	require.Contains(t, note.Text(), bob.Mention())
	require.Contains(t, note.Text(), "Deploy (private)")
	dump(t, "dmclosed-notice", note)
	scan.check()

	_, panel := g.press(bob, g.status, "Deploy (private)")
	text := mustBeEphemeral(t, panel, bob)
	require.Contains(t, text, "Your direct messages are closed to me, so I show this here instead")
	require.Contains(t, text, "Your secret deployment: North")
	require.NotNil(t, panel.Attachment("deployment.png"))
	requirePNG(t, panel.Attachment("deployment.png").Data, "the first private fallback carries the real image")
	dump(t, "dmclosed-panel", panel)
	sel, err := h.srv.Select(bob, panel, presetID(panel), "phalanx")
	require.NoError(t, err)
	panel = h.answerOf(sel, panel.Version)
	require.True(t, panel.Ephemeral())
	require.Contains(t, panel.Text(), "Preset **phalanx** loaded")
	_, panel = g.press(bob, panel, "Confirm")
	require.True(t, panel.Ephemeral())
	scan.check()

	// Alice's panel still comes by DM; her thread button sends a new one there.
	first := g.dmPanel(alice)
	_, ack := g.press(alice, g.status, "Deploy (private)")
	require.Contains(t, mustBeEphemeral(t, ack, alice), "by direct message")
	var sp *discordsim.Message
	require.NoError(t, h.srv.WaitFor(wait, func() bool { sp = g.dmPanel(alice); return sp.ID != first.ID }), "the panel given anew")
	sel, err = h.srv.Select(alice, sp, presetID(sp), "phalanx")
	require.NoError(t, err)
	sp = h.answerOf(sel, sp.Version)
	g.press(alice, sp, "Confirm")
	scan.check()
	require.Equal(t, 1, g.pos().Turn())

	// Play to Bob's PostTurn.
	for g.pos().ToMove() != sandtable.North || g.pos().Phase() != sandtable.PhasePostTurn {
		p := g.pos()
		if p.Phase() == sandtable.PhaseMain {
			steps, err := p.LegalNextSteps(nil)
			require.NoError(t, err)
			g.move(g.user(p.ToMove()), steps[0].String())
		} else {
			g.mine(func(sandtable.Square) bool { return true })
		}
		scan.check()
	}
	done := g.drone(bob, "t12", "t10")
	require.True(t, done.Ephemeral())
	scan.check()
	in := h.click(bob, g.board(), buttonID(t, g.board(), "My private view"))
	pv, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, pv, bob), "Your direct messages are closed")
	require.Contains(t, pv.Text(), "target **t10**")
	dump(t, "dmclosed-private-view", pv)
	scan.check()
}

// TestSandTableRestartDuringDeployment: a new bot on the same database
// carries on with the drafts and confirmations, and the old panels work.
func TestSandTableRestartDuringDeployment(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob := srv.User("alice"), srv.User("bob")
	g := h.sandStart(alice, bob)
	sp := g.dmPanel(alice)
	sel, err := srv.Select(alice, sp, presetID(sp), "fortress")
	require.NoError(t, err)
	sp = h.answerOf(sel, sp.Version)
	g.press(alice, sp, "Confirm")
	np := g.dmPanel(bob)
	g.openModal(bob, np, "Edit pieces")
	np = g.submit(bob, map[string]string{"edits": "place T c13 d13"})
	require.Contains(t, np.Text(), "Placed 2 of 68")
	h.stop()

	h = startBot(t, srv, db)
	g.h = h
	scan := newLeakScan(g)
	scan.next = len(srv.Calls())
	_, r := g.press(bob, np, "Confirm")
	require.Equal(t, np.ID, r.ID, "the refusal is shown in the panel")
	require.Contains(t, r.Content, "You cannot confirm yet: the deployment is not valid: 0 of 2 Bases placed; 2 of 4 Tanks placed")
	np = r
	require.Equal(t, sandtable.Tank, g.pos().Draft(sandtable.North).At(mustSquare(t, "d13")), "the draft survived the restart")
	require.True(t, g.pos().Confirmed(sandtable.South), "the confirmation survived the restart")
	sel, err = srv.Select(bob, np, presetID(np), "skirmish")
	require.NoError(t, err)
	np = h.answerOf(sel, np.Version)
	scan.check()
	_, np = g.press(bob, np, "Confirm")
	require.Contains(t, np.Text(), "both are revealed")
	scan.check()
	reveal, err := srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "The coin is flipped")
	})
	require.NoError(t, err)
	require.NotNil(t, reveal.Attachment("board.png"))
}

// TestSandTableRestartDuringDrone: a Drone order waiting for confirmation,
// then a declared Drone, survive restarts; the Drone strikes on time.
func TestSandTableRestartDuringDrone(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob := srv.User("alice"), srv.User("bob")
	g, _ := h.sandSetup(alice, bob, `sandtable-position 1
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
	g.openModal(alice, g.board(), "Order a Drone (private)")
	g.submit(alice, map[string]string{"spotter": "d4", "target": "f6"})
	preview := g.lastDM(alice, "Your Drone order")
	h.stop()

	h = startBot(t, srv, db)
	g.h = h
	_, done := g.press(alice, preview, "Confirm Drone")
	require.Contains(t, done.Text(), "Drone ordered")
	require.Len(t, g.pos().Drones(), 1)
	h.stop()

	h = startBot(t, srv, db)
	g.h = h
	scan := newLeakScan(g)
	scan.next = len(srv.Calls())
	g.move(bob, "t19-s19")
	scan.check()
	end := g.mine(func(sandtable.Square) bool { return true })
	scan.check()
	require.Contains(t, end.Text(), "South's Drone spotted by SI1 hit f6: North Infantry NI2.")
}

// requirePNG asserts that data is a whole PNG image.
func requirePNG(t *testing.T, data []byte, msg string) {
	t.Helper()
	require.NotEmpty(t, data, msg)
	_, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err, msg)
}
