package teamchess

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
)

// searchLook is what a search reads of a game: everything but the record.
type searchLook struct {
	fen        string
	phase      Phase
	result     Result
	forced     string
	stagnation [2]int
	white      []Commander
	black      []Commander
	continuing bool
}

func searchLookAt(g *Game) searchLook {
	pos := g.Position()
	f := ""
	if m, ok := g.Forced(); ok {
		f = m.UCI()
	}
	return searchLook{pos.FEN(), g.Phase(), g.Result(), f,
		[2]int{g.Stagnation(chess.White), g.Stagnation(chess.Black)},
		g.Commanders(chess.White), g.Commanders(chess.Black), g.SiegeContinuing()}
}

// TestSearchCopyPlaysAsApply: in random games (with two commanders a side,
// sacrifices, sieges, fatigue and revolutions), a search copy advanced by
// PlayLegal and DecideSiege reaches exactly the state Apply reaches, keeps
// no record, and leaves the original unchanged; a reused copy starts
// afresh.
func TestSearchCopyPlaysAsApply(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(16, 16))
	var c Game // reused for every step: the queues' storage is reused
	sieges, sacrifices := 0, 0
	for game := range 60 {
		fen := []string{"", "r3k2r/1P3ppp/2n2n2/3q4/3Q4/2N2N2/p4PPP/R3K2R w - - 0 20",
			"7k/5K2/6Q1/8/8/8/8/8 b - - 0 1"}[game%3] // the last starts with a siege decision
		g, err := NewGame(Setup{FEN: fen, White: ids("a c"), Black: ids("b d")})
		require.NoError(t, err)
		for g.Phase() != Finished && g.ActionCount() < 150 {
			before := lookAt(t, g)
			g.CopyForSearch(&c)
			side := g.Turn()
			var a Action
			switch g.Phase() {
			case SiegeDecision:
				sieges++
				win := rng.IntN(2) == 0
				a = Action{Kind: ActSiegeContinue, Side: side.String()}
				if win {
					a.Kind = ActSiegeWin
				}
				c.DecideSiege(win)
			default:
				m, ok := g.Forced()
				if !ok {
					ms := g.LegalMoves()
					m = ms[rng.IntN(len(ms))]
				}
				if m.IsSacrifice() {
					sacrifices++
				}
				a = Action{Kind: ActMove, Side: side.String(), Move: m.UCI()}
				c.PlayLegal(m)
			}
			require.Equal(t, before, lookAt(t, g), "the original is unchanged by its search copy")
			_, err := g.Apply(a)
			require.NoError(t, err)
			require.Equal(t, searchLookAt(g), searchLookAt(&c), "after %v", a)
			require.Empty(t, c.Events(), "a search copy keeps no record")
		}
	}
	require.Positive(t, sieges, "some siege decisions were played")
	require.Positive(t, sacrifices, "some sacrifices were played")
}

// TestSearchCopyOnly: PlayLegal and DecideSiege refuse a game that keeps a
// record.
func TestSearchCopyOnly(t *testing.T) {
	t.Parallel()
	g, err := NewGame(Setup{White: ids("a"), Black: ids("b")})
	require.NoError(t, err)
	require.Panics(t, func() { g.PlayLegal(g.LegalMoves()[0]) })
	require.Panics(t, func() { g.DecideSiege(true) })
}
