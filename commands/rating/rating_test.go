package rating

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/glicko2"
	"sandtable/storage"
)

var rt0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

func rateIn(t *testing.T, s storage.Store, rec *storage.Game, sides []Side) []Change {
	var out []Change
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error {
		var err error
		out, err = Rate(tx, rec, sides, rt0)
		return err
	}))
	return out
}

func oneEach(ids ...string) []Side {
	var s []Side
	for _, id := range ids {
		s = append(s, Side{Players: []string{id}})
	}
	return s
}

// TestUnratedEndsChangeNothing: an aborted game, a casual one, a game
// outside a server and a game without an outcome rate nobody.
func TestUnratedEndsChangeNothing(t *testing.T) {
	t.Parallel()
	s := storage.NewMemory()
	won := &storage.Outcome{Winners: []string{"a"}, Losers: []string{"b"}, Method: storage.Resignation}
	for name, rec := range map[string]*storage.Game{
		"aborted":    {ID: "g1", Kind: "k", GuildID: "g", Outcome: &storage.Outcome{Method: storage.Aborted}},
		"casual":     {ID: "g2", Kind: "k", GuildID: "g", Outcome: won, Unrated: true},
		"no server":  {ID: "g3", Kind: "k", Outcome: won},
		"no outcome": {ID: "g4", Kind: "k", GuildID: "g"},
	} {
		require.Empty(t, rateIn(t, s, rec, oneEach("a", "b")), name)
	}
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		n := 0
		require.NoError(t, tx.Ratings().Each("k", "g", func(string, *storage.PlayerRating) error { n++; return nil }))
		require.Zero(t, n)
		return nil
	}))
	// The same game twice (belt and braces behind the end's own
	// transaction): rated once.
	rec := &storage.Game{ID: "g5", Kind: "k", GuildID: "g", Outcome: won}
	require.Len(t, rateIn(t, s, rec, oneEach("a", "b")), 2)
	require.Empty(t, rateIn(t, s, rec, oneEach("a", "b")))
}

// TestDrawAndMutualLoss: a draw, and a loss for everybody (no winner),
// both score ½: equal new players keep 1500.
func TestDrawAndMutualLoss(t *testing.T) {
	t.Parallel()
	s := storage.NewMemory()
	for _, o := range []*storage.Outcome{{Method: storage.Agreement}, {Losers: []string{"a", "b"}, Method: storage.MutualLoss}} {
		ch := rateIn(t, s, &storage.Game{ID: string(o.Method), Kind: string(o.Method), GuildID: "g", Outcome: o}, oneEach("a", "b"))
		require.Len(t, ch, 2)
		for _, c := range ch {
			require.InDelta(t, 1500, c.After.Rating, 1e-9)
			require.Equal(t, 1, c.After.Draws)
			require.Less(t, c.After.Deviation, 350.0)
		}
	}
}

// TestTeamShares: Team Chess's rule (ruling D28). White (w1 30 moves, w2
// 10, w3 none) beat Black (b1 20, b2 20), all new. Each commander gets the
// change a single player would get against the other team as one
// opponent (mean rating, root mean square deviation: 1500/350 here),
// scaled by their share of their team's moves: w1 ¾, w2 ¼, w3 nothing (not
// rated), b1 and b2 ½ each.
func TestTeamShares(t *testing.T) {
	t.Parallel()
	s := storage.NewMemory()
	rec := &storage.Game{ID: "tc", Kind: "teamchess", GuildID: "g",
		Outcome: &storage.Outcome{Winners: []string{"w1", "w2", "w3"}, Losers: []string{"b1", "b2"}, Method: storage.Checkmate}}
	sides := []Side{
		{Players: []string{"w1", "w2", "w3"}, Moves: []int{30, 10, 0}},
		{Players: []string{"b1", "b2"}, Moves: []int{20, 20}},
	}
	ch := rateIn(t, s, rec, sides)
	got := map[string]storage.PlayerRating{}
	for _, c := range ch {
		got[c.User] = c.After
	}
	require.NotContains(t, got, "w3", "no move, not rated")
	n := glicko2.New()
	win := glicko2.Update(n, []glicko2.Result{glicko2.Win(n)}, rt0)
	gain := win.Rating - 1500
	require.InDelta(t, 1500+gain*3/4, got["w1"].Rating, 1e-9)
	require.InDelta(t, 1500+gain/4, got["w2"].Rating, 1e-9)
	require.InDelta(t, 1500-gain/2, got["b1"].Rating, 1e-9)
	require.InDelta(t, got["b1"].Rating, got["b2"].Rating, 1e-9)
	require.InDelta(t, 350+(win.Deviation-350)*3/4, got["w1"].Deviation, 1e-9, "the deviation moves by the share too")
	require.Equal(t, 1, got["w2"].Wins)
	require.Equal(t, 1, got["b2"].Losses)
	sum := 0.0
	for _, c := range ch {
		sum += c.After.Rating - c.Before.Rating
	}
	require.InDelta(t, 0, sum, 1e-9, "equal deviations: the changes balance")
}

// TestOneAgainstThree (issue 26): one new player beats three new players
// who share their team's moves equally. Before, the winner gained 162
// against three losses of 162 (the pool lost 324 points); now the changes
// sum to about zero (within 5 points).
func TestOneAgainstThree(t *testing.T) {
	t.Parallel()
	s := storage.NewMemory()
	for _, won := range []string{"solo", "trio"} {
		o := &storage.Outcome{Winners: []string{"a"}, Losers: []string{"b", "c", "d"}, Method: storage.Checkmate}
		if won == "trio" {
			o = &storage.Outcome{Winners: []string{"b", "c", "d"}, Losers: []string{"a"}, Method: storage.Checkmate}
		}
		rec := &storage.Game{ID: won, Kind: won, GuildID: "g", Outcome: o}
		ch := rateIn(t, s, rec, []Side{
			{Players: []string{"a"}, Moves: []int{30}},
			{Players: []string{"b", "c", "d"}, Moves: []int{10, 10, 10}},
		})
		require.Len(t, ch, 4)
		sum := 0.0
		for _, c := range ch {
			sum += c.After.Rating - c.Before.Rating
		}
		require.InDelta(t, 0, sum, 5, won)
	}
}

// TestCompositeOpponent: a team of 1700/100 and 1300/300 with equal
// shares counts as one opponent of 1500 with deviation
// sqrt((100² + 300²)/2) = 223.6; the members weigh their shares of the
// team's moves, so one who never moved does not shift it (a new member
// who never moved made the opponent of a 1720 commander 1610 in
// bot.TestTeamChessSiegesAndLeaderboard, costing the pool 43 points).
func TestCompositeOpponent(t *testing.T) {
	t.Parallel()
	before := map[string]*storage.PlayerRating{
		"x": {Rating: 1700, Deviation: 100, Volatility: 0.06, Last: rt0},
		"y": {Rating: 1300, Deviation: 300, Volatility: 0.06, Last: rt0},
	}
	c := composite(Side{Players: []string{"x", "y"}}, before, rt0)
	require.InDelta(t, 1500, c.Rating, 1e-9)
	require.InDelta(t, 223.607, c.Deviation, 1e-3)
	c = composite(Side{Players: []string{"x", "y"}, Moves: []int{10, 30}}, before, rt0)
	require.InDelta(t, 1400, c.Rating, 1e-9)
	require.InDelta(t, 264.575, c.Deviation, 1e-3)
	c = composite(Side{Players: []string{"x", "y"}, Moves: []int{12, 0}}, before, rt0)
	require.InDelta(t, 1700, c.Rating, 1e-9)
	require.InDelta(t, 100, c.Deviation, 1e-9)
}

// TestOpponentDeviationGrown: a player's opponent is taken with the
// deviation grown to the game's time, as lichess does: a year-old 1500/50
// counts as 1500/104.9.
func TestOpponentDeviationGrown(t *testing.T) {
	t.Parallel()
	s := storage.NewMemory()
	old := storage.PlayerRating{Rating: 1500, Deviation: 50, Volatility: 0.06, Last: rt0.Add(-365 * 24 * time.Hour), Games: 40}
	require.NoError(t, s.Update(t.Context(), func(tx storage.Tx) error { return tx.Ratings().Put("k", "g", "old", &old) }))
	rec := &storage.Game{ID: "g1", Kind: "k", GuildID: "g", Outcome: &storage.Outcome{Winners: []string{"new"}, Losers: []string{"old"}, Method: storage.Resignation}}
	ch := rateIn(t, s, rec, oneEach("new", "old"))
	var got float64
	for _, c := range ch {
		if c.User == "new" {
			got = c.After.Rating
		}
	}
	grown := glicko2.Rating{Rating: 1500, Deviation: 104.8817, Volatility: 0.06}
	require.InDelta(t, glicko2.Update(glicko2.New(), []glicko2.Result{glicko2.Win(grown)}, rt0).Rating, got, 0.01)
}
