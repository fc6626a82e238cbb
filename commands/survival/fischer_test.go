package survival

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// clockedGame opens alice's challenge to bob with clock 5+3 (alice White),
// bob accepts at t0: the game in thread "chal1".
func clockedGame(t *testing.T, a *commands.App) {
	t.Helper()
	msg := challengeOf(t, a, "chal1", map[string]string{"color": "white", "clock": "5+3"})
	require.Contains(t, msg.Cards[0].Description, "5+3", "the challenge names the time control")
	_, err := a.Handle(commandstest.Click(bob, buttonOf(t, msg, "Accept"), "chal1"))
	require.NoError(t, err)
}

// moveAt plays u's move at t0+d in the game's thread.
func moveAt(t *testing.T, a *commands.App, d time.Duration, u commands.User, mv string) (*commands.Response, error) {
	t.Helper()
	r := cmd(u, "move", "", map[string]string{"move": mv})
	r.ChannelID, r.Now = "chal1", t0.Add(d)
	return a.Handle(r)
}

// TestFischerClock: a game on a 5+3 clock through the framework: the
// deadline is the side to move's remaining time, the increment is added
// after each move, the live board shows the running clock as a relative
// timestamp and the other frozen, no reminder is set, the downtime is
// credited at a restart and the flag falls at the exact moment, with
// TimeControl and [%clk] in the PGN.
func TestFischerClock(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	a.Settings.RemindAt = 0.75
	clockedGame(t, a)
	g, st := gameIn(t, store, "chal1")
	require.Equal(t, alice, st.White)
	require.True(t, g.Deadline.Equal(t0.Add(5*time.Minute)), "White has 5 minutes: %s", g.Deadline)
	require.True(t, g.Remind.IsZero(), "no reminder on a clock")
	board := liveBoard(t, a, p)
	require.Contains(t, board.Content, "5+3")
	clocks := fieldOf(board, "Clocks")
	require.Contains(t, clocks, "White: ⏱ runs out <t:"+unix(t0.Add(5*time.Minute))+":R>")
	require.Contains(t, clocks, "Black: 5:00")

	_, err := moveAt(t, a, time.Minute, alice, "a8=Q")
	require.NoError(t, err)
	g, st = gameIn(t, store, "chal1")
	require.Equal(t, 4*time.Minute+3*time.Second, st.Clock.White, "4:00 left and the increment")
	require.True(t, g.Deadline.Equal(t0.Add(6*time.Minute)), "Black's 5 minutes from the move: %s", g.Deadline)
	require.True(t, g.Remind.IsZero())
	clocks = fieldOf(liveBoard(t, a, p), "Clocks")
	require.Contains(t, clocks, "White: 4:03")
	require.Contains(t, clocks, "Black: ⏱ runs out <t:"+unix(t0.Add(6*time.Minute))+":R>")

	// Black answers after 2m30s: 2:30 + 0:03 left; White's 4:03 runs.
	_, err = moveAt(t, a, 3*time.Minute+30*time.Second, bob, firstLegal(t, st))
	require.NoError(t, err)
	g, st = gameIn(t, store, "chal1")
	require.Equal(t, 2*time.Minute+33*time.Second, st.Clock.Black)
	due := t0.Add(3*time.Minute + 30*time.Second + 4*time.Minute + 3*time.Second)
	require.True(t, g.Deadline.Equal(due), "White's deadline %s, want %s", g.Deadline, due)

	// The bot is down from t0+4m to t0+1h: the 56 minutes are credited.
	require.NoError(t, a.Heartbeat(t0.Add(4*time.Minute)))
	restart := t0.Add(time.Hour)
	down, err := a.CreditDowntime(restart)
	require.NoError(t, err)
	require.Equal(t, 56*time.Minute, down)
	due = due.Add(down)
	require.NoError(t, a.Sweep(due.Add(-time.Millisecond)))
	g, _ = gameIn(t, store, "chal1")
	require.True(t, g.Active, "not flagged a moment before the remaining time is up")
	require.NoError(t, a.Sweep(due))
	g, st = gameIn(t, store, "chal1")
	require.False(t, g.Active, "flagged at the exact moment")
	require.Equal(t, &storage.Outcome{Winners: []string{bob.ID}, Losers: []string{alice.ID}, Side: "black", Method: storage.Time}, g.Outcome)
	require.Zero(t, st.Clock.White)
	commandstest.Deliver(t, a, due)
	final := liveBoard(t, a, p)
	require.Contains(t, final.Content, "ran out of time")
	pgn := string(fileOf(final, ".pgn").Data)
	require.Contains(t, pgn, `[TimeControl "300+3"]`)
	require.Contains(t, pgn, "1. a8=Q { [%clk 0:04:03] } 1... ")
	require.Contains(t, pgn, "{ [%clk 0:02:33] }")
}

// firstLegal is a legal move of the side to move in s.
func firstLegal(t *testing.T, s *State) string {
	t.Helper()
	moves := s.game.Position().LegalMoveTexts()
	require.NotEmpty(t, moves)
	return moves[0].UCI
}

// TestFischerLateMoveRefused: a move that arrives when the mover's clock
// has run out, before any sweep, is refused and the loss on time is
// committed instead; a move a moment before goes through.
func TestFischerLateMoveRefused(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	clockedGame(t, a)
	_, err := moveAt(t, a, 5*time.Minute-time.Millisecond, alice, "a8=Q")
	require.NoError(t, err, "a moment before the flag")
	_, st := gameIn(t, store, "chal1")
	// Black's 5 minutes run from the move.
	resp, err := moveAt(t, a, 10*time.Minute-2*time.Millisecond, bob, firstLegal(t, st))
	require.NoError(t, err)
	require.NotContains(t, resp.Content, "ran out")
	_, st = gameIn(t, store, "chal1")
	left := st.Clock.White // White's, as the move before last left it
	require.Equal(t, 3*time.Second+time.Millisecond, left)

	resp, err = moveAt(t, a, 10*time.Minute-2*time.Millisecond+left, alice, firstLegal(t, st))
	require.NoError(t, err)
	require.Contains(t, resp.Content, "after your clock ran out")
	g, after := gameIn(t, store, "chal1")
	require.False(t, g.Active)
	require.Len(t, after.Moves, 2, "the late move was not played")
	require.Equal(t, "0-1", after.Result)
	require.Equal(t, storage.Time, g.Outcome.Method)
	require.Contains(t, liveBoard(t, a, p).Content, "ran out of time")
}

// TestFischerClockRefusals: a malformed clock, one out of range, or a clock
// given with move_time is refused with the form named, and opens nothing.
func TestFischerClockRefusals(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	open := func(opts map[string]string) error {
		r := cmd(alice, "survival", "challenge", opts)
		r.ChannelID = "general"
		r.Options["opponent"] = commands.Option{User: &bob}
		_, err := a.Handle(r)
		return err
	}
	for _, bad := range []string{"5", "2+0", "181+0", "5+181", "a+b", "5+-1", "+", "5m+3s"} {
		msg := userMsg(t, open(map[string]string{"clock": bad}))
		require.Contains(t, msg, "minutes+seconds", bad)
		require.Contains(t, msg, "3+0 to 180+180", bad)
	}
	require.Contains(t, userMsg(t, open(map[string]string{"clock": "5+3", "move_time": "1d"})), "not both")
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		return tx.Challenges().Each(func(id string, _ []byte) error {
			t.Errorf("challenge %s was opened", id)
			return nil
		})
	}))
	require.NoError(t, open(map[string]string{"clock": "180+180"}))
}

// TestClockBudget: the computer's think on a clock comes from its
// remaining time and increment, capped by the configured budget.
func TestClockBudget(t *testing.T) {
	t.Parallel()
	require.Equal(t, 7500*time.Millisecond+2250*time.Millisecond, clockBudget(5*time.Minute, 3*time.Second, time.Minute))
	require.Equal(t, 2*time.Second, clockBudget(5*time.Minute, 3*time.Second, 2*time.Second), "capped")
	require.Equal(t, time.Second, clockBudget(10*time.Second, 30*time.Second, time.Minute), "never more than a tenth of what is left")
	require.True(t, strings.HasPrefix(commands.ClockText(62*time.Second), "1:02"))
}

// TestFischerRematch: a clocked game's rematch has the same clock, fresh.
func TestFischerRematch(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	clockedGame(t, a)
	r := cmd(bob, "resign", "", nil)
	r.ChannelID = "chal1"
	_, err := commandstest.Confirm(t, a, r)
	require.NoError(t, err)
	final := liveBoard(t, a, p)
	require.Contains(t, fieldOf(final, "Clocks"), "Black: 5:00", "frozen at the end")
	_, err = a.Handle(clickAt(alice, buttonOf(t, final, "Rematch"), time.Second))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0.Add(time.Second))
	posts, _ := p.Snapshot()
	var challenge *commands.Message
	for _, s := range posts {
		if s.Channel == "general" && strings.Contains(s.Msg.Content, "challenged") {
			challenge = &s.Msg
		}
	}
	require.NotNil(t, challenge)
	accept := commandstest.Click(bob, buttonOf(t, *challenge, "Accept"), "m-rematch")
	accept.Now = t0.Add(2 * time.Second)
	_, err = a.Handle(accept)
	require.NoError(t, err)
	g, st := gameIn(t, store, "m-rematch")
	require.NotNil(t, st.Clock)
	require.Equal(t, commands.TimeControl{Base: 5 * time.Minute, Inc: 3 * time.Second}, st.Clock.TimeControl)
	require.Equal(t, 5*time.Minute, st.Clock.White)
	require.True(t, g.Deadline.Equal(t0.Add(2*time.Second+5*time.Minute)), "%s", g.Deadline)
}

// TestFischerComputer: the computer plays on a clock: its move stops its
// clock (the increment added), and Black's clock runs.
func TestFischerComputer(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	r := cmd(alice, "survival", "challenge", map[string]string{"color": "black", "level": "beginner", "clock": "3+2"})
	r.ChannelID = "general"
	bot := commandstest.Computer
	r.Options["opponent"] = commands.Option{User: &bot}
	_, err := a.Handle(r)
	require.NoError(t, err)
	var id string
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		act, err := tx.Games().Active(alice.ID)
		require.Len(t, act, 1)
		id = act[0].ID
		return err
	}))
	g, s := waitPly(t, store, id, 1)
	require.NotNil(t, s.Clock)
	require.Len(t, s.Clock.After, 1)
	require.Greater(t, s.Clock.White, 3*time.Minute, "the increment added to what was left")
	require.LessOrEqual(t, s.Clock.White, 3*time.Minute+2*time.Second)
	require.Equal(t, 3*time.Minute, s.Clock.Black)
	require.True(t, g.Remind.IsZero())
	require.False(t, g.Deadline.IsZero())
}
