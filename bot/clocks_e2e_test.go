package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// The clock tests play each game through the bot with a move or turn made
// late, so that the time left would have run out had the clock not
// restarted. h.swept shows that the timer loop looked at the game at that
// instant and did nothing; then the clock runs out exactly one limit after
// the restart.

// timeLosses returns the messages of a channel that announce a lapse of
// time, in order.
func (h *harness) timeLosses(channelID string) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range h.srv.Messages(channelID) {
		if strings.Contains(m.Text(), "ran out of time") || strings.Contains(m.Text(), "time ran out") {
			out = append(out, m)
		}
	}
	return out
}

// requireTimeLosses waits for a sweep at the current clock time and
// checks that the channel then holds exactly n announcements of a lapse of
// time, which it returns.
func (h *harness) requireTimeLosses(channelID string, n int, why string) []*discordsim.Message {
	h.t.Helper()
	h.swept()
	got := h.timeLosses(channelID)
	if len(got) != n {
		var texts []string
		for _, m := range got {
			texts = append(texts, m.Text())
		}
		h.t.Fatalf("%s: %d time announcements, want %d: %q", why, len(got), n, texts)
	}
	return got
}

// TestSurvivalMoveClockRestartsWithEachMove: the time limit is per move
// (ruling 16): each move gives the opponent the full limit again, counted
// from that move, and the side to move loses exactly one limit after the
// last move.
func TestSurvivalMoveClockRestartsWithEachMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob, discordsim.Opt("move_time", "1h")) // T0: White's hour
	h.clock.Advance(54 * time.Minute)
	h.move(alice, thread, "g7g8q") // T0+54m: Black's hour starts
	h.clock.Advance(54 * time.Minute)
	h.requireTimeLosses(thread.ID, 0, "T0+108m, 54m after White's move")
	h.move(bob, thread, "e2e1k") // T0+108m: White's hour starts
	h.clock.Advance(time.Hour - time.Second)
	h.requireTimeLosses(thread.ID, 0, "one second before White's hour is up")
	h.clock.Advance(time.Second)
	m := h.requireTimeLosses(thread.ID, 1, "exactly one hour after Black's move")[0]
	require.Contains(t, m.Text(), alice.Mention()+" (White) ran out of time")
	require.Contains(t, m.Text(), bob.Mention()+" (Black) wins by time")
	mv := h.reply(alice, thread.ID, "move", discordsim.Opt("move", "g8g6"))
	require.Contains(t, mustBeEphemeral(t, mv, alice), "This game is over")
	h.clock.Advance(2 * time.Hour)
	h.requireTimeLosses(thread.ID, 1, "a finished game")
}

// TestTeamChessMoveTimerRestartsWithEachTransition: the move timer restarts
// with every transition (ruling D9): a move, a voluntary tag-out and a
// tag-out for time each give the commander to act the full time again, and
// the timer runs out exactly one move time after the last transition.
func TestTeamChessMoveTimerRestartsWithEachTransition(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	tb := h.tcStart("", users(h, "alice", "bob"), users(h, "carol", "dan"), discordsim.Opt("move_time", "1h")) // T0
	pub := tb.pub.ID

	h.clock.Advance(54 * time.Minute)
	tb.move(alice, "e4") // T0+54m: a move
	h.clock.Advance(54 * time.Minute)
	h.requireTimeLosses(pub, 0, "T0+108m, 54m after White's move")
	tb.move(carol, "e5") // T0+108m
	h.clock.Advance(54 * time.Minute)
	h.requireTimeLosses(pub, 0, "T0+162m, 54m after Black's move")
	m := tb.do(alice, tb.pub, "tagout") // T0+162m: a voluntary tag-out; bob takes command
	require.Contains(t, m.Text(), "**alice** (White) tagged out")
	require.Contains(t, m.Text(), "**bob** takes command of White")
	h.clock.Advance(54 * time.Minute)
	h.requireTimeLosses(pub, 0, "T0+216m, 54m after the tag-out")
	tb.move(bob, "Nf3") // T0+216m
	h.clock.Advance(time.Hour - time.Second)
	h.requireTimeLosses(pub, 0, "one second before Black's hour is up")
	h.clock.Advance(time.Second) // T0+276m: carol's hour is up
	m = h.requireTimeLosses(pub, 1, "exactly one hour after White's second move")[0]
	require.Contains(t, m.Text(), "**carol** (Black) ran out of time for the move and is tagged out")
	require.Contains(t, m.Text(), "**dan** takes command of Black")

	h.clock.Advance(time.Hour - time.Second)
	h.requireTimeLosses(pub, 1, "one second before dan's hour is up")
	require.Contains(t, tb.refused(carol, tb.pub, "move", discordsim.Opt("move", "Nc6")), "dan commands Black now")
	h.clock.Advance(time.Second)
	// The live board, edited in place, shows the newest lapse.
	m = h.requireTimeLosses(pub, 1, "exactly one hour after the tag-out for time")[0]
	require.Contains(t, m.Text(), "**dan** (Black) ran out of time for the move")
	require.Contains(t, m.Text(), "White wins by Fatigue victory")
	require.False(t, tb.stored().Active)
	// The same sweep told both teams.
	for _, th := range tb.team {
		losses := h.timeLosses(th.ID)
		require.Len(t, losses, 1, "the live board of %s shows the lapse", th.Name)
		require.Contains(t, losses[0].Text(), "White wins by Fatigue victory")
	}
}

// TestSandTableTurnClockRestartsEachTurn: the deployment has one period
// from the acceptance (ruling D8), and each turn its own, counted from the
// moment it begins (D7): the reveal starts the first turn's time, the
// turn's last action starts the next turn's, and neither a Main action nor
// a hazard use restarts it.
func TestSandTableTurnClockRestartsEachTurn(t *testing.T) {
	t.Parallel()
	t.Run("turns", func(t *testing.T) {
		h := newHarness(t)
		alice, bob := h.srv.User("alice"), h.srv.User("bob")
		g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "1h")) // T0: the deployment's hour
		th := g.thread.ID
		h.clock.Advance(54 * time.Minute)
		g.deployRandom(bob)
		g.deployRandom(alice) // T0+54m: both confirmed, revealed; turn 1 begins
		require.Equal(t, 1, g.pos().Turn())
		h.clock.Advance(54 * time.Minute)
		h.requireTimeLosses(th, 0, "T0+108m, 54m into turn 1")

		first := g.pos().ToMove()
		g.playMain()   // T0+108m
		g.playHazard() // one of two hazard uses
		h.clock.Advance(5 * time.Minute)
		g.playHazard() // T0+113m: the last hazard use ends turn 1
		p := g.pos()
		require.Equal(t, 2, p.Turn())
		require.Equal(t, first.Opp(), p.ToMove())

		h.clock.Advance(30 * time.Minute)
		g.playMain()   // T0+143m: no restart
		g.playHazard() // no restart either
		require.Equal(t, sandtable.PhasePostTurn, g.pos().Phase())
		h.clock.Advance(30*time.Minute - time.Second)
		h.requireTimeLosses(th, 0, "one second before turn 2's hour is up")
		h.clock.Advance(time.Second) // T0+173m: one hour after turn 2 began
		m := h.requireTimeLosses(th, 1, "exactly one hour after turn 2 began")[0]
		loser, winner := g.user(first.Opp()), g.user(first)
		require.Contains(t, m.Text(), winner.Mention()+" ("+first.String()+") wins on time: "+loser.Mention()+" ("+first.Opp().String()+") did not finish turn 2 in time.")
		sg, _, _ := g.state()
		require.False(t, sg.Active)
	})
	t.Run("deployment", func(t *testing.T) {
		h := newHarness(t)
		alice, bob := h.srv.User("alice"), h.srv.User("bob")
		g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "1h")) // the deployment's hour
		th := g.thread.ID
		h.clock.Advance(30 * time.Minute)
		g.deployRandom(bob) // a confirmation does not restart the deployment's time
		h.clock.Advance(30*time.Minute - time.Second)
		h.requireTimeLosses(th, 0, "one second before the deployment's hour is up")
		h.clock.Advance(time.Second)
		m := h.requireTimeLosses(th, 1, "exactly one hour after the acceptance")[0]
		require.Contains(t, m.Text(), bob.Mention()+" (North) wins on time: "+alice.Mention()+" (South) did not confirm a deployment in time.")
	})
}

// deployRandom has u load a random deployment in their panel and confirm it.
func (g *sandGame) deployRandom(u *discordsim.User) {
	g.h.t.Helper()
	panel := g.dmPanel(u)
	_, panel = g.press(u, panel, "Random")
	_, panel = g.press(u, panel, "Confirm")
	require.NotContains(g.h.t, panel.Text(), "Nothing changed", "%s's confirmation", u.Name)
}

// playMain plays a one-step Main action for the side to move.
func (g *sandGame) playMain() {
	g.h.t.Helper()
	p := g.pos()
	require.Equal(g.h.t, sandtable.PhaseMain, p.Phase())
	steps, err := p.LegalNextSteps(nil)
	require.NoError(g.h.t, err)
	require.NotEmpty(g.h.t, steps)
	g.move(g.user(p.ToMove()), steps[0].String())
}

// playHazard places a Mine or an Anti-Air for the side to move.
func (g *sandGame) playHazard() {
	g.h.t.Helper()
	p := g.pos()
	require.Equal(g.h.t, sandtable.PhasePostTurn, p.Phase())
	uses, err := p.LegalHazardUses()
	require.NoError(g.h.t, err)
	for _, u := range uses {
		if u.Kind == sandtable.ActMine || u.Kind == sandtable.ActAntiAir {
			g.move(g.user(p.ToMove()), u.String())
			return
		}
	}
	g.h.t.Fatalf("no hazard use for %s", p.ToMove())
}
