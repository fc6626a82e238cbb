package bot_test

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
)

// TestSurvivalFischerClock: a Survival game on a 5+3 clock, played through
// the simulator on the injected clock. The live board shows the running
// clock as a relative timestamp and the other frozen; each move adds the
// increment; the bot is stopped and started three hours later (the
// downtime credited); the flag falls exactly when White's remaining time
// is up, and a move made then is refused.
func TestSurvivalFischerClock(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob := srv.User("alice"), srv.User("bob")
	thread := h.survivalGame(alice, bob, discordsim.Opt("clock", "5+3"))
	rel := func(at time.Time) string { return "<t:" + strconv.FormatInt(at.Unix(), 10) + ":R>" }

	board := h.liveBoard(thread)
	require.Contains(t, board.Text(), "5+3", "the game shows its time control")
	require.Contains(t, board.Text(), "White: ⏱ runs out "+rel(h.clock.Now().Add(5*time.Minute)))
	require.Contains(t, board.Text(), "Black: 5:00")

	h.clock.Advance(time.Minute)
	board = h.move(alice, thread, "g7g8q")
	require.Contains(t, board.Text(), "White: 4:03", "four minutes left and the increment")
	require.Contains(t, board.Text(), "Black: ⏱ runs out "+rel(h.clock.Now().Add(5*time.Minute)))

	h.clock.Advance(2 * time.Minute)
	board = h.move(bob, thread, "e2e1k")
	require.Contains(t, board.Text(), "Black: 3:03")
	require.Contains(t, board.Text(), "White: ⏱ runs out "+rel(h.clock.Now().Add(4*time.Minute+3*time.Second)))
	require.Empty(t, h.messagesWith(thread.ID, "Reminder:"), "no reminders on a clock")

	// A minute into White's 4:03 the bot stops; it starts 3 hours later.
	h.clock.Advance(time.Minute)
	stoppedAt := h.clock.Now()
	h.stop()
	h2 := startBotAt(t, srv, db, stoppedAt.Add(3*time.Hour), bot.Options{})
	h2.clock.Advance(3*time.Minute + 3*time.Second - time.Second)
	h2.requireTimeLosses(thread.ID, 0, "a second before White's remaining time is up, the downtime credited")
	h2.clock.Advance(time.Second)
	late := h2.reply(alice, thread.ID, "move", discordsim.Opt("move", "g8g6"))
	text := mustBeEphemeral(t, late, alice)
	require.True(t, strings.Contains(text, "after your clock ran out") || strings.Contains(text, "This game is over"),
		"a move at the flag is refused: %s", text)
	m := h2.requireTimeLosses(thread.ID, 1, "exactly when White's remaining time is up")[0]
	require.Contains(t, m.Text(), alice.Mention()+" (White) ran out of time")
	require.Contains(t, m.Text(), bob.Mention()+" (Black) wins by time")
	require.Contains(t, m.Text(), "Black: 3:03", "the final board shows the clocks frozen")
	require.Contains(t, m.Text(), "White: 0:00")
}

// TestAdminExtendFischerClock: a server manager's extension of a game on a
// clock adds the time to the clock of the side to move, which keeps it
// after its move (with the increment).
func TestAdminExtendFischerClock(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol := h.srv.User("carol")
	thread := h.survivalGame(bob, carol, discordsim.Opt("clock", "5+3"))
	before := h.gameOf(thread.ID).Deadline
	require.Contains(t, h.adminIn(alice, thread.ID, "game extend", discordsim.Opt("time", "10m"), discordsim.Opt("reason", "lag")), "Extended")
	require.Equal(t, 10*time.Minute, h.gameOf(thread.ID).Deadline.Sub(before))
	h.clock.Advance(time.Minute)
	board := h.move(bob, thread, "g7g8q")
	require.Contains(t, board.Text(), "White: 14:03", "5m and 10m given, 1m used, 3s added")
}

// TestServerDefaultClock: a server's default clock (/admin settings
// clock:) starts the Survival games whose challenge gives no time option
// on it; move_time still asks for per-move deadlines; a bad clock is
// refused and changes nothing; clear:clock puts per-move back.
func TestServerDefaultClock(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol, dave := h.srv.User("carol"), h.srv.User("dave")
	refused := h.admin(alice, "settings", discordsim.Opt("clock", "2+1"))
	require.Contains(t, refused, "3+0 to 180+180")
	require.Contains(t, refused, "Nothing changed")
	require.Contains(t, h.admin(alice, "settings"), "**clock**: none")
	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("clock", "10+5")), "Saved")
	require.Contains(t, h.admin(alice, "settings"), "**clock**: 10+5")

	clocked := h.survivalGame(bob, carol)
	require.Contains(t, h.liveBoard(clocked).Text(), "Black: 10:00", "the server's clock")
	before := h.clock.Now()
	perMove := h.survivalGame(dave, alice, discordsim.Opt("move_time", "1h"))
	require.NotContains(t, h.liveBoard(perMove).Text(), "Clocks")
	require.True(t, h.gameOf(perMove.ID).Deadline.Equal(before.Add(time.Hour)))

	require.Contains(t, h.admin(alice, "settings", discordsim.Opt("clear", "clock")), "Saved")
	require.Contains(t, h.admin(alice, "settings"), "**clock**: none")
}
