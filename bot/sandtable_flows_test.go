package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// setup starts a game between south and north and replaces its position
// with text through the test hook; it returns the game and its leak scan.
func (h *harness) sandSetup(south, north *discordsim.User, text string, opts ...discordsim.Option) (*sandGame, *leakScan) {
	h.t.Helper()
	g := h.sandStart(south, north, opts...)
	scan := newLeakScan(g)
	require.NoError(h.t, h.loadSandPosition(g.id, text))
	_, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
		return m.ChannelID == g.thread.ID && strings.Contains(m.Content, "set up by an operator")
	})
	require.NoError(h.t, err)
	scan.check()
	return g, scan
}

// TestSandTableDroneResolves: a Drone ordered in private strikes at the
// start of its owner's next turn and destroys what stands on its target;
// the target and the spotter stay out of every public payload until then.
func TestSandTableDroneResolves(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g, scan := h.sandSetup(alice, bob, `sandtable-position 1
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
	// Out of range and Base targets are refused privately, with the rule.
	g.openModal(alice, g.board(), "Order a Drone (private)")
	ans := g.submit(alice, map[string]string{"spotter": "d4", "target": "h8"})
	require.Contains(t, mustBeEphemeral(t, ans, alice), "target h8 is more than two squares from spotter SI1 on d4")
	g.openModal(alice, g.board(), "Order a Drone (private)")
	ans = g.submit(alice, map[string]string{"spotter": "SI9", "target": "f6"})
	require.Contains(t, mustBeEphemeral(t, ans, alice), "SI9 is not one of South's Infantry")
	scan.check()
	// Bob cannot order a Drone in Alice's turn.
	in := h.click(bob, g.board(), buttonID(t, g.board(), "Order a Drone (private)"))
	m, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, m, bob), "It is not your turn")

	// The preview names what stands on the target now; Cancel discards it.
	g.openModal(alice, g.board(), "Order a Drone (private)")
	ans = g.submit(alice, map[string]string{"spotter": "si1", "target": "F6"})
	require.Contains(t, mustBeEphemeral(t, ans, alice), "direct message")
	preview := g.lastDM(alice, "Your Drone order")
	require.Contains(t, preview.Text(), "f6 holds North's Infantry NI2 now")
	_, gone := g.press(alice, preview, "Cancel")
	require.Contains(t, gone.Text(), "Drone order discarded")
	require.Empty(t, g.pos().Drones())
	scan.check()

	done := g.drone(alice, "d4", "f6")
	dump(t, "drone-confirmed", done)
	scan.check()
	pub := g.board()
	require.Contains(t, pub.Content, "declared a Drone (1 pending)")
	require.Contains(t, pub.Content, bob.Mention()+", your turn")
	// Bob's turn: the Drone is hidden from him.
	in = h.click(bob, pub, buttonID(t, pub, "My private view"))
	_, err = in.WaitReply(wait, nil)
	require.NoError(t, err)
	bobView := g.lastDM(bob, "Your private view")
	require.Contains(t, bobView.Text(), "You have no pending Drones")
	requireNoSquare(t, bobView.Text(), "f6")
	scan.check()
	g.move(bob, "t19-s19")
	scan.check()
	end := g.mine(func(sandtable.Square) bool { return true })
	scan.check()
	require.Contains(t, end.Text(), "South's Drone spotted by SI1 hit f6: North Infantry NI2.")
	require.Contains(t, end.Text(), "North Infantry NI2 on f6 was destroyed by a Drone.")
	require.Contains(t, end.Text(), "A Crater marks f6")
	_, ok := g.pos().At(mustSquare(t, "f6"))
	require.False(t, ok)
}

func mustSquare(t testing.TB, s string) sandtable.Square {
	sq, err := sandtable.ParseSquare(s)
	require.NoError(t, err)
	return sq
}

// TestSandTableDroneCancelled: destroying a Drone's spotter cancels the
// Drone; the public learns which Infantry it was and how many Drones it
// cancels, the owner privately learns which order, and the target never
// shows in public.
func TestSandTableDroneCancelled(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g, scan := h.sandSetup(alice, bob, `sandtable-position 1
phase postturn
to-move north
hazard-uses 1
piece SB1 a1
piece SI1 d5
piece SI2 h2
piece NB1 t20
piece NI1 d6
piece NI2 t19
piece NT9 k20
piece NP9 l20
`)
	g.drone(bob, "d6", "b8")
	scan.check()
	m := g.move(alice, "d5-d6")
	scan.check()
	require.Contains(t, m.Text(), "North Infantry NI1 on d6 was destroyed by Infantry SI1.")
	require.Contains(t, m.Text(), "North Infantry NI1 was a Drone spotter: 1 of North's Drones is cancelled.")
	requireNoSquare(t, m.Text(), "b8")
	dump(t, "spotter-lost", m)
	notice := g.lastDM(bob, "is cancelled")
	dump(t, "spotter-lost-dm", notice)
	require.Contains(t, notice.Text(), "Your Drone on b8 (spotter NI1) is cancelled: its spotter was destroyed.")
	g.mine(func(sandtable.Square) bool { return true })
	scan.check()
	last := g.board()
	require.Contains(t, last.Text(), "North's Drone spotted by NI1 has no effect: its spotter was destroyed.")
	requireNoSquare(t, last.Text(), "b8")
	g.move(bob, "t19-s19")
	scan.check()
	require.Equal(t, sandtable.North, scan.forever["b8"], "the scan kept checking the cancelled target")
}

// TestSandTableVictories reaches the victory conditions of ruling 9 not
// reached in the full game, from set-up positions.
func TestSandTableVictories(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	cases := []struct {
		name, pos, mover, action, want string
	}{
		{"no infantry", `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece ST1 c3 SI1
piece NB1 t20
piece NI1 c5
piece NT9 k20
piece NP9 l20
`, "south", "Tc3-c5", "(South) wins: North has no Infantry left"},
		{"all tanks", `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece ST1 a3 SI1
piece SI2 c5
piece NB1 t20
piece NT1 c6 NI1
piece NI2 t19
piece NP9 l20
`, "south", "c5-c6", "(South) wins: controlling every Tank on the board"},
		{"all airplanes", `sandtable-position 1
phase main
to-move north
piece SB1 a1
piece SP1 e6 SI1
piece SI2 t2
piece NB1 t20
piece NP1 a18 NI1
piece NI2 e7
piece NT9 k20
`, "north", "e7-e6", "(North) wins: controlling every Airplane on the board"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, scan := h.sandSetup(alice, bob, c.pos)
			u := alice
			if c.mover == "north" {
				u = bob
			}
			m := g.move(u, c.action)
			scan.check()
			require.Contains(t, m.Text(), u.Mention()+" "+c.want)
			require.NotNil(t, m.Attachment("sandtable-"+g.id+".txt"))
			requireOnlySandRematch(t, m)
			games := h.reply(u, h.gen.ID, "games")
			require.NotContains(t, games.Text(), g.thread.ID, "a finished game is not listed")
		})
	}
}

// TestSandTableResignDrawTime: resignation (in Deployment and in play),
// agreed draws, the refused claim, and loss on time (in play and in
// Deployment, where nobody having confirmed cancels the game).
func TestSandTableResignDrawTime(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	play := `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SI1 c3
piece NB1 t20
piece NI1 t19
piece NT9 k20
piece NP9 l20
`
	t.Run("resign in deployment reveals nothing", func(t *testing.T) {
		g := h.sandStart(alice, bob)
		scan := newLeakScan(g)
		sp := g.dmPanel(alice)
		sel, err := h.srv.Select(alice, sp, presetID(sp), "fortress")
		require.NoError(t, err)
		h.answerOf(sel, sp.Version)
		scan.check()
		m := h.reply(carol, g.thread.ID, "resign")
		require.Contains(t, mustBeEphemeral(t, m, carol), "You are not playing")
		m = h.replyConfirmed(bob, g.thread.ID, "resign")
		require.Contains(t, mustBeEphemeral(t, m, bob), bob.Mention()+" resigned. "+alice.Mention()+" (South) wins: North resigned.")
		h.drained()
		m = h.lastPublic(g.thread.ID)
		require.Contains(t, m.Text(), bob.Mention()+" resigned. "+alice.Mention()+" (South) wins: North resigned.")
		require.Contains(t, m.Text(), "no deployment is revealed")
		require.Nil(t, m.Attachment("board.png"))
		scan.check()
		// The panel is closed (by the outbox): no controls left, and it says why.
		h.drained()
		sp = h.srv.Message(sp.ID)
		require.Empty(t, presetID(sp))
		require.Empty(t, sp.Buttons())
		require.Contains(t, sp.Text(), "ended during Deployment")
		_, err = h.srv.Select(alice, sp, presetID(sp), "phalanx")
		require.Error(t, err, "the closed panel has no menu to use")
		scan.check()
	})
	t.Run("draw by agreement; no claims", func(t *testing.T) {
		g, scan := h.sandSetup(alice, bob, play)
		m := h.reply(alice, g.thread.ID, "draw claim")
		require.Contains(t, mustBeEphemeral(t, m, alice), "SandTable Chess has no draw claims")
		m = h.reply(alice, g.thread.ID, "draw accept")
		require.Contains(t, mustBeEphemeral(t, m, alice), "There is no draw offer")
		offer := h.reply(bob, g.thread.ID, "draw offer")
		require.Contains(t, offer.Text(), "offers a draw")
		in := h.click(bob, offer, buttonID(t, offer, "Accept draw"))
		own, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		require.Contains(t, mustBeEphemeral(t, own, bob), "You made this draw offer")
		m = h.reply(alice, g.thread.ID, "draw decline")
		require.Contains(t, m.Text(), "declined")
		h.reply(bob, g.thread.ID, "draw offer")
		scan.check()
		// The offer lapses when the turn passes.
		g.move(alice, "c3-c4")
		scan.check()
		g.mine(func(sandtable.Square) bool { return true })
		scan.check()
		m = h.reply(alice, g.thread.ID, "draw accept")
		require.Contains(t, mustBeEphemeral(t, m, alice), "There is no draw offer")
		offer = h.reply(alice, g.thread.ID, "draw offer")
		in = h.click(bob, offer, buttonID(t, offer, "Accept draw"))
		prompt, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		done := h.confirm(bob, prompt)
		require.Contains(t, done.Text(), "Draw by agreement.")
		scan.check()
	})
	t.Run("resign in play", func(t *testing.T) {
		g, _ := h.sandSetup(alice, bob, play)
		h.replyConfirmed(bob, g.thread.ID, "resign") // not his turn: allowed (G8)
		m := g.board()
		require.Contains(t, m.Text(), alice.Mention()+" (South) wins: North resigned.")
		require.NotNil(t, m.Attachment("board.png"))
	})
	t.Run("loss on time in play", func(t *testing.T) {
		g, _ := h.sandSetup(alice, bob, play, discordsim.Opt("turn_time", "1h"))
		g.move(alice, "c3-c4")
		h.clock.Advance(30 * time.Minute)
		g.mine(func(sandtable.Square) bool { return true })
		// Bob's turn started now: his hour runs from here.
		h.clock.Advance(59 * time.Minute)
		h.swept() // the timer loop looked at the game at this time
		sg, p, _ := g.state()
		require.True(t, sg.Active, "Bob still has a minute")
		require.Equal(t, sandtable.North, p.ToMove())
		h.clock.Advance(2 * time.Minute)
		m, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
			return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "ran out of time")
		})
		require.NoError(t, err)
		require.Contains(t, m.Text(), alice.Mention()+" (South) wins on time: "+bob.Mention()+" (North) did not finish turn 2 in time.")
		mv := h.reply(bob, g.thread.ID, "move", optMove("t19-s19"))
		require.Contains(t, mustBeEphemeral(t, mv, bob), "This game is over")
	})
	t.Run("deployment time: the one who confirmed wins", func(t *testing.T) {
		g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "1h"))
		np := g.dmPanel(bob)
		_, np = g.press(bob, np, "Random")
		g.press(bob, np, "Confirm")
		h.clock.Advance(61 * time.Minute)
		m, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
			return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "deployment time ran out")
		})
		require.NoError(t, err)
		require.Contains(t, m.Text(), bob.Mention()+" (North) wins on time: "+alice.Mention()+" (South) did not confirm a deployment in time.")
		require.Nil(t, m.Attachment("board.png"), "nothing is revealed")
	})
	t.Run("deployment time: nobody confirmed", func(t *testing.T) {
		g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "1h"))
		h.clock.Advance(61 * time.Minute)
		m, err := h.srv.WaitMessage(wait, func(m *dtMessage) bool {
			return m.ChannelID == g.thread.ID && strings.Contains(m.Text(), "deployment time ran out")
		})
		require.NoError(t, err)
		require.Contains(t, m.Text(), "the game is cancelled, without a result")
	})
}
