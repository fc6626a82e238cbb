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

// TestTeamWeights: Team Chess's rule. White (w1 30 moves, w2 10, w3 none)
// beat Black (b1 20, b2 20). Each commander faces the other team's
// commanders weighted by their share of its moves (½ each here); a
// commander's own part is their moves over their team's most active
// commander's: w1 a whole game, w2 a third, w3 nothing (not rated).
func TestTeamWeights(t *testing.T) {
	t.Parallel()
	s := storage.NewMemory()
	rec := &storage.Game{ID: "tc", Kind: "teamchess", GuildID: "g",
		Outcome: &storage.Outcome{Winners: []string{"w1", "w2", "w3"}, Losers: []string{"b1", "b2"}, Method: storage.Checkmate}}
	sides := []Side{
		{Players: []string{"w1", "w2", "w3"}, Moves: []int{30, 10, 0}},
		{Players: []string{"b1", "b2"}, Moves: []int{20, 20}},
	}
	ch := rateIn(t, s, rec, sides)
	got := map[string]float64{}
	for _, c := range ch {
		got[c.User] = c.After.Rating
	}
	require.NotContains(t, got, "w3", "no move, not rated")
	n := glicko2.New()
	half := func(score, own float64) float64 {
		return glicko2.Update(n, []glicko2.Result{{Opponent: n, Score: score, Weight: own / 2}, {Opponent: n, Score: score, Weight: own / 2}}, rt0).Rating
	}
	require.InDelta(t, half(1, 1), got["w1"], 1e-9)
	require.InDelta(t, half(1, 1.0/3), got["w2"], 1e-9)
	require.InDelta(t, half(0, 1), got["b1"], 1e-9)
	require.InDelta(t, got["b1"], got["b2"], 1e-9)
	require.Greater(t, got["w1"], got["w2"])
	require.Greater(t, got["w2"], 1500.0)
	// A whole game for w1 is one game against a 1500 opponent.
	require.InDelta(t, glicko2.Update(n, []glicko2.Result{glicko2.Win(n)}, rt0).Rating, got["w1"], 1e-9)
}
