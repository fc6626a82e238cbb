package survival

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/storage"
)

// TestOutcome: every way a Survival game ends, played through the
// framework, gives the typed outcome (winners, losers, side, method,
// claimed) in the state's Outcome and in the stored game, and stops the
// clock.
func TestOutcome(t *testing.T) {
	t.Parallel()
	whiteWins := func(m storage.Method) storage.Outcome {
		return storage.Outcome{Winners: []string{alice.ID}, Losers: []string{bob.ID}, Side: "white", Method: m}
	}
	blackWins := func(m storage.Method) storage.Outcome {
		return storage.Outcome{Winners: []string{bob.ID}, Losers: []string{alice.ID}, Side: "black", Method: m}
	}
	drawn := func(m storage.Method) storage.Outcome { return storage.Outcome{Method: m} }
	act := func(u commands.User, command, sub string, opts map[string]string) func(*commands.App) error {
		return func(a *commands.App) error {
			if command == "resign" || sub == "accept" {
				_, err := commandstest.Confirm(t, a, cmd(u, command, sub, opts))
				return err
			}
			_, err := a.Handle(cmd(u, command, sub, opts))
			return err
		}
	}
	move := func(u commands.User, m string) func(*commands.App) error {
		return act(u, "move", "", map[string]string{"move": m})
	}
	shuffle16 := []string{"a1a2", "h8g8", "a2a1", "g8h8", "a1a2", "h8g8", "a2a1", "g8h8",
		"a1a2", "h8g8", "a2a1", "g8h8", "a1a2", "h8g8", "a2a1"}
	for _, c := range []struct {
		name   string
		fen    string
		moves  []string
		end    []func(*commands.App) error
		result string
		want   storage.Outcome
	}{
		{"White eliminates Black", "8/8/8/8/8/8/1p6/K7 w - - 0 1", nil,
			[]func(*commands.App) error{move(alice, "Kxb2")}, "1-0", whiteWins(storage.Elimination)},
		{"Black eliminates White", "8/8/8/8/8/8/1P6/k7 b - - 0 1", nil,
			[]func(*commands.App) error{move(bob, "Kxb2")}, "0-1", blackWins(storage.Elimination)},
		{"stalemate", "8/8/8/8/p7/8/P7/8 w - - 0 1", nil,
			[]func(*commands.App) error{move(alice, "a3")}, "1/2-1/2", drawn(storage.Stalemate)},
		{"dead position", "8/8/4p3/8/4P3/8/2b5/B7 w - - 0 1", nil,
			[]func(*commands.App) error{move(alice, "e5")}, "1/2-1/2", drawn(storage.DeadPosition)},
		{"fivefold repetition", kingsShuffle, shuffle16,
			[]func(*commands.App) error{move(bob, "Kh8")}, "1/2-1/2", drawn(storage.FivefoldRepetition)},
		{"75-move rule", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100", nil,
			[]func(*commands.App) error{move(alice, "Ra2")}, "1/2-1/2", drawn(storage.SeventyFiveMoves)},
		{"White resigns", kingsShuffle, nil,
			[]func(*commands.App) error{act(alice, "resign", "", nil)}, "0-1", blackWins(storage.Resignation)},
		{"Black resigns on White's move", kingsShuffle, nil,
			[]func(*commands.App) error{act(bob, "resign", "", nil)}, "1-0", whiteWins(storage.Resignation)},
		{"agreement", kingsShuffle, nil,
			[]func(*commands.App) error{act(alice, "draw", "offer", nil), act(bob, "draw", "accept", nil)}, "1/2-1/2", drawn(storage.Agreement)},
		{"threefold repetition claimed", kingsShuffle, shuffle16[:7],
			[]func(*commands.App) error{act(bob, "draw", "claim", map[string]string{"move": "Kh8"})}, "1/2-1/2",
			storage.Outcome{Method: storage.Repetition, Claimed: true}},
		{"50-move rule claimed", "7k/8/8/8/8/8/8/K7 w - - 100 80", nil,
			[]func(*commands.App) error{act(alice, "draw", "claim", nil)}, "1/2-1/2",
			storage.Outcome{Method: storage.FiftyMoves, Claimed: true}},
		{"White's time runs out", kingsShuffle, []string{"a1a2", "h8g8"},
			[]func(*commands.App) error{func(a *commands.App) error { return a.Sweep(t0.Add(time.Hour)) }}, "0-1", blackWins(storage.Time)},
		{"no first move: aborted", kingsShuffle, nil,
			[]func(*commands.App) error{func(a *commands.App) error { return a.Sweep(t0.Add(time.Hour)) }}, "*", storage.Outcome{Method: storage.Aborted}},
		{"Black's time runs out", kingsShuffle, []string{"a1a2"},
			[]func(*commands.App) error{func(a *commands.App) error { return a.Sweep(t0.Add(time.Hour)) }}, "1-0", whiteWins(storage.Time)},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, p, store := newApp(t)
			id := putGame(t, store, c.fen, c.moves...)
			_, st := load(t, store, id)
			_, over := Game{}.Outcome(st)
			require.False(t, over, "on before the end")
			for _, step := range c.end {
				require.NoError(t, step(a))
			}
			g, st := load(t, store, id)
			require.Equal(t, c.result, st.Result)
			o, over := Game{}.Outcome(st)
			require.True(t, over)
			require.Equal(t, c.want, o)
			require.False(t, g.Active)
			require.True(t, g.Deadline.IsZero())
			require.Equal(t, &c.want, g.Outcome, "the stored outcome")
			require.Equal(t, commands.NoClock, Game{}.Clock(st).Rule)
			require.Empty(t, st.Offer, "no offer stands after the end")

			// Nothing more can be done but look.
			_, err := a.Handle(cmd(alice, "resign", "", nil))
			require.Contains(t, userMsg(t, err), "This game is over")
			require.NoError(t, a.Sweep(t0.Add(48*time.Hour)))
			commandstest.Deliver(t, a, t0.Add(48*time.Hour))
			posts, _ := p.Snapshot()
			gifs := 0
			for _, ps := range posts {
				for _, f := range ps.Msg.Files {
					if f.ContentType == "image/gif" {
						gifs++
					}
				}
			}
			if len(st.Moves) == 0 {
				require.Zero(t, gifs, "a game without a move (one position) has no replay")
			} else {
				require.Equal(t, 1, gifs, "the end is followed by its replay, once")
			}
			require.LessOrEqual(t, len(posts), 3, "at most the time-out's announcement, the replay and the closing summary")
		})
	}
}
