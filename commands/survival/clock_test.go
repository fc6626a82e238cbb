package survival

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

func TestSweepTimesOutOnlyDueGames(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle, "a1a2")
	require.NoError(t, a.Sweep(t0.Add(59*time.Minute)))
	g, _ := load(t, store, id)
	require.True(t, g.Active)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	g, st := load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, "1-0", st.Result, "Black was to move and ran out of time")
	require.Equal(t, &storage.Outcome{Winners: []string{alice.ID}, Losers: []string{bob.ID}, Side: "white", Method: storage.Time}, g.Outcome)
	require.Empty(t, p.Posts, "the announcement waits in the outbox")
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Len(t, p.Posts, 1)
	require.Contains(t, p.Posts[0].Msg.Content, "ran out of time")
	require.Equal(t, "th1", p.Posts[0].Channel)
	require.NotNil(t, fileOf(p.Posts[0].Msg, ".pgn"), "the announcement carries the record")
	// A second sweep does nothing more.
	require.NoError(t, a.Sweep(t0.Add(2*time.Hour)))
	commandstest.Deliver(t, a, t0.Add(2*time.Hour))
	require.Len(t, p.Posts, 3, "nothing more but the replay and the thread's closing summary")
	require.Contains(t, p.Posts[1].Msg.Content, "Replay")
	require.Contains(t, p.Posts[2].Msg.Content, "Game over")
}

// TestDowntimeIsCredited: a game whose clock ran out while the bot was down
// is not lost on time at the restart; its deadline moves by the downtime.
func TestDowntimeIsCredited(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle) // deadline t0+1h
	open, err := a.Handle(&commands.Request{Type: commands.CommandRequest, InteractionID: "ch1", GuildID: "g", ChannelID: "general",
		User: alice, Command: "survival", Sub: "challenge", Now: t0,
		Options: map[string]commands.Option{"opponent": {User: &bob}}})
	require.NoError(t, err)
	require.NotNil(t, open)
	require.NoError(t, a.Heartbeat(t0.Add(10*time.Minute)))

	// Down from t0+10m to t0+3h: 2h50m, more than the game had left.
	restart := t0.Add(3 * time.Hour)
	down, err := a.CreditDowntime(restart)
	require.NoError(t, err)
	require.Equal(t, 170*time.Minute, down)
	g, _ := load(t, store, id)
	require.True(t, g.Deadline.Equal(t0.Add(time.Hour+170*time.Minute)), "deadline %s", g.Deadline)

	require.NoError(t, a.Sweep(restart))
	commandstest.Deliver(t, a, restart)
	g, _ = load(t, store, id)
	require.True(t, g.Active, "no loss on time for the downtime")
	require.Empty(t, p.Posts)
	require.Empty(t, p.Edits, "the challenge did not expire")
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		n := 0
		err := tx.Challenges().Each(func(id string, _ []byte) error {
			var ch commands.Challenge
			exp, err := tx.Challenges().Get(id, &ch)
			require.NoError(t, err)
			require.True(t, exp.Equal(t0.Add(time.Hour+170*time.Minute)), "the challenge's expiry moved too: %s", exp)
			n++
			return nil
		})
		require.Equal(t, 1, n)
		return err
	}))

	// The remaining 50 minutes still run out.
	require.NoError(t, a.Sweep(g.Deadline))
	g, _ = load(t, store, id)
	require.False(t, g.Active)

	// A second start right away credits nothing.
	down, err = a.CreditDowntime(restart.Add(time.Second))
	require.NoError(t, err)
	require.Zero(t, down)
}

func TestNoHeartbeatNoCredit(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	down, err := a.CreditDowntime(t0.Add(5 * time.Hour))
	require.NoError(t, err)
	require.Zero(t, down, "a first start has nothing to credit")
	g, _ := load(t, store, id)
	require.True(t, g.Deadline.Equal(t0.Add(time.Hour)))
}

// TestClock: Survival's clock runs per move for the side to move, one run
// per ply, MoveTime long, and stops once the game is over.
func TestClock(t *testing.T) {
	t.Parallel()
	s := decoded(t, &State{StartFEN: kingsShuffle, Moves: []string{}, White: alice, Black: bob, MoveTime: 90 * time.Minute})
	require.Equal(t, commands.Clock{Rule: commands.PerMove, Actors: []string{alice.ID}, Key: "0", Period: 90 * time.Minute}, Game{}.Clock(s))

	s = decoded(t, &State{StartFEN: kingsShuffle, Moves: []string{"a1a2"}, White: alice, Black: bob, MoveTime: 90 * time.Minute})
	require.Equal(t, commands.Clock{Rule: commands.PerMove, Actors: []string{bob.ID}, Key: "1", Period: 90 * time.Minute}, Game{}.Clock(s))

	// A position with Black to move from its start: the key is the ply of
	// the game, not of the position's move number.
	s = decoded(t, &State{StartFEN: "7k/8/8/8/8/8/8/K7 b - - 0 40", Moves: []string{"h8g8"}, White: alice, Black: bob, MoveTime: time.Hour})
	require.Equal(t, commands.Clock{Rule: commands.PerMove, Actors: []string{alice.ID}, Key: "1", Period: time.Hour}, Game{}.Clock(s))

	for _, end := range []struct {
		result string
		end    End
	}{
		{"1-0", End{Method: storage.Resignation}},
		{"0-1", End{Method: storage.Time}},
		{"1/2-1/2", End{Method: storage.Agreement}},
		{"0-1", End{Method: storage.Elimination, Reason: "elimination of the last piece"}},
	} {
		s = decoded(t, &State{StartFEN: kingsShuffle, Moves: []string{"a1a2"}, White: alice, Black: bob, MoveTime: time.Hour,
			Result: end.result, End: &end.end})
		require.Equal(t, commands.NoClock, Game{}.Clock(s).Rule, "%s by %s", end.result, end.end.Method)
	}
}

// TestClockRestartsOnlyWithTheMove: through the framework, a move starts a
// new run of the clock (deadline = now + MoveTime); an action that changes
// the state without a move (a draw offer, declining it) keeps the
// deadline; the end of the game stops it.
func TestClockRestartsOnlyWithTheMove(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle) // deadline t0+1h, an hour per move
	at := func(d time.Duration, u commands.User, command, sub string, opts map[string]string) *commands.Response {
		t.Helper()
		r := cmd(u, command, sub, opts)
		r.Now = t0.Add(d)
		handle := a.Handle
		if command == "resign" {
			handle = func(r *commands.Request) (*commands.Response, error) { return commandstest.Confirm(t, a, r) }
		}
		resp, err := handle(r)
		require.NoError(t, err)
		return resp
	}
	deadline := func() time.Time { g, _ := load(t, store, id); return g.Deadline }

	at(10*time.Minute, alice, "draw", "offer", nil)
	require.Equal(t, t0.Add(time.Hour), deadline(), "an offer is no move")
	at(20*time.Minute, bob, "draw", "decline", nil)
	require.Equal(t, t0.Add(time.Hour), deadline(), "nor is declining it")

	at(30*time.Minute, alice, "move", "", map[string]string{"move": "Ka2"})
	require.Equal(t, t0.Add(90*time.Minute), deadline(), "Black's move has its own hour")
	require.Contains(t, fieldOf(liveBoard(t, a, p), "To move"), "<t:"+unix(t0.Add(90*time.Minute))+":R>", "the board shows the new deadline")

	at(40*time.Minute, bob, "draw", "offer", nil)
	require.Equal(t, t0.Add(90*time.Minute), deadline())

	at(50*time.Minute, alice, "resign", "", nil)
	g, _ := load(t, store, id)
	require.False(t, g.Active)
	require.True(t, g.Deadline.IsZero(), "a finished game has no clock")
}

// decoded is s as Decode gives it back (replayed).
func decoded(t *testing.T, s *State) *State {
	t.Helper()
	raw, err := Game{}.Encode(s)
	require.NoError(t, err)
	out, err := Game{}.Decode(Game{}.Version(), raw)
	require.NoError(t, err)
	return out
}

func unix(tm time.Time) string { return strconv.FormatInt(tm.Unix(), 10) }

// TestCreditedDeadlineKeptByActions: after downtime was credited, an action
// that keeps the clock keeps the credited deadline (neither the one before
// the credit nor one credited twice), and the next move starts a fresh run.
func TestCreditedDeadlineKeptByActions(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	id := putGame(t, store, kingsShuffle) // deadline t0+1h
	require.NoError(t, a.Heartbeat(t0.Add(10*time.Minute)))
	restart := t0.Add(3 * time.Hour)
	_, err := a.CreditDowntime(restart)
	require.NoError(t, err)
	credited := t0.Add(time.Hour + 170*time.Minute)

	r := cmd(alice, "draw", "offer", nil)
	r.Now = restart.Add(time.Minute)
	_, err = a.Handle(r)
	require.NoError(t, err)
	g, _ := load(t, store, id)
	require.True(t, g.Deadline.Equal(credited), "deadline %s, want %s", g.Deadline, credited)
	resp, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.Contains(t, fieldOf(resp.Message, "To move"), "<t:"+unix(credited)+":R>", "the board shows the credited deadline")

	require.NoError(t, a.Sweep(credited.Add(-time.Second)))
	g, _ = load(t, store, id)
	require.True(t, g.Active)

	r = cmd(alice, "move", "", map[string]string{"move": "Ka2"})
	r.Now = restart.Add(2 * time.Minute)
	_, err = a.Handle(r)
	require.NoError(t, err)
	g, _ = load(t, store, id)
	require.True(t, g.Deadline.Equal(restart.Add(62*time.Minute)), "deadline %s", g.Deadline)
}

// TestNoFirstMoveIsAborted: a game whose first move never came is aborted
// when the time runs out, not scored: no winner, no loser, the method
// "aborted", result "*" (ruling 28).
func TestNoFirstMoveIsAborted(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	id := putGame(t, store, kingsShuffle)
	require.NoError(t, a.Sweep(t0.Add(time.Hour)))
	g, st := load(t, store, id)
	require.False(t, g.Active)
	require.Equal(t, &storage.Outcome{Method: storage.Aborted}, g.Outcome, "no winner, no loser")
	require.Equal(t, "*", st.Result)
	commandstest.Deliver(t, a, t0.Add(time.Hour))
	require.Len(t, p.Posts, 1)
	require.Contains(t, p.Posts[0].Msg.Content, "aborted")
	require.Contains(t, string(fileOf(p.Posts[0].Msg, ".pgn").Data), `[Result "*"]`)
	_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "a1a2"}))
	require.Contains(t, userMsg(t, err), "This game is over")
	for _, row := range p.Posts[0].Msg.Rows {
		for _, c := range row {
			require.NotEqual(t, "Analysis", c.(ui.Button).Label, "an aborted game has no analysis")
		}
	}
	// Its button, were it clicked (a custom ID made up), is refused.
	_, err = a.Handle(commandstest.Click(alice, commands.AnalysisButton(g).Route, "m1"))
	require.Contains(t, userMsg(t, err), "nothing to analyse")
	require.Zero(t, a.AnalysesComputed())
}
