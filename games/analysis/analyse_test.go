package analysis

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/games/engine"
)

// quick bounds a test's searches by depth; the time is only a generous cap
// for a busy machine.
var quick = Options{Depth: 3, MoveTime: 20 * time.Second}

func analyse(t *testing.T, g Game) *Report {
	t.Helper()
	rep, err := Analyse(context.Background(), g, quick)
	require.NoError(t, err)
	require.Len(t, rep.Moves, len(g.Moves))
	return rep
}

// TestBlunderIntoMate: the Scholar's mate. 3...Nf6 allows mate in one: a
// blunder (lila's MateCreated), evaluated "#1", with the engine's better
// move named; the mate itself is "#0".
func TestBlunderIntoMate(t *testing.T) {
	t.Parallel()
	rep := analyse(t, Game{Variant: chess.Chess, Moves: strings.Fields("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#")})
	nf6 := rep.Moves[5]
	require.Equal(t, "3...", nf6.Number)
	require.Equal(t, chess.Black, nf6.Side)
	require.Equal(t, Blunder, nf6.Judgement)
	require.Equal(t, Score{Mate: 1}, nf6.Eval)
	require.NotEmpty(t, nf6.Best)
	require.NotEqual(t, "Nf6", nf6.Best)
	mate := rep.Moves[6]
	require.Equal(t, "Qxf7#", mate.SAN)
	require.Equal(t, Score{Won: 1}, mate.Eval)
	require.Equal(t, Good, mate.Judgement)
	require.Equal(t, 1, rep.Sides[chess.Black].Blunders)
	require.Equal(t, 0, rep.Sides[chess.White].Blunders)
	require.Equal(t, "Nf6", rep.Worst(3)[0].SAN, "the worst move first")
	require.Greater(t, rep.Worst(3)[0].Drop, 15.0)
	require.True(t, rep.Sides[chess.White].HasAccuracy && rep.Sides[chess.Black].HasAccuracy)
	require.Greater(t, rep.Sides[chess.White].Accuracy, rep.Sides[chess.Black].Accuracy)

	pgn := rep.PGN([]chess.Tag{{Name: "White", Value: "Ann"}, {Name: "WhiteAccuracy", Value: "forged"}}, "1-0")
	flat := strings.Join(strings.Fields(pgn), " ") // lines wrap at 80 columns
	require.Contains(t, flat, "3... Nf6?? { [%eval #1] Blunder. "+nf6.Best+" was best. }")
	require.Contains(t, flat, "4. Qxf7# { [%eval #0] } 1-0")
	require.NotContains(t, pgn, "forged", "the summary's tags are the analysis's own")

	// The output re-reads with the project's PGN reader and replays to the
	// same game.
	back, err := chess.ReadPGN(pgn)
	require.NoError(t, err)
	require.Equal(t, "1-0", back.Result)
	require.Equal(t, "Ann", tag(back, "White"))
	require.Equal(t, "1", tag(back, "BlackBlunders"))
	re, err := Analyse(context.Background(), Game{Variant: chess.Chess, Moves: back.Moves}, Options{Depth: 1, MoveTime: time.Minute})
	require.NoError(t, err)
	for i := range re.Moves {
		require.Equal(t, rep.Moves[i].SAN, re.Moves[i].SAN)
	}
}

func tag(g *chess.PGNGame, name string) string {
	v, _ := g.Tag(name)
	return v
}

// TestSurvivalGame: a random Survival game (forced captures) is analysed
// move by move, each with an evaluation, and its PGN re-reads.
func TestSurvivalGame(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 24))
	g := chess.NewGame(chess.Survival)
	for range 16 {
		ms := g.Position().LegalMoves()
		if len(ms) == 0 {
			break
		}
		require.NoError(t, g.Play(ms[r.IntN(len(ms))]))
	}
	rep := analyse(t, Game{Variant: chess.Survival, Moves: g.SANs()})
	for _, m := range rep.Moves {
		require.False(t, m.Pass)
		require.Greater(t, m.Depth, 0, "ply %d searched", m.Ply)
	}
	require.Equal(t, SurvivalScale, rep.Curve.Scale)
	back, err := chess.ReadPGN(rep.PGN(nil, ""))
	require.NoError(t, err)
	require.Len(t, back.Moves, len(g.SANs()))
	require.Equal(t, "*", back.Result)
}

// TestSurvivalElimination: capturing the last piece wins at once ("#0");
// the position before announces it ("#1").
func TestSurvivalElimination(t *testing.T) {
	t.Parallel()
	// Black's knight is its last piece, and White must capture it.
	rep := analyse(t, Game{Variant: chess.Survival, FEN: "8/8/8/8/8/8/8/R5nK w - - 0 1", Moves: []string{"Rxg1"}})
	require.Equal(t, Score{Won: 1}, rep.Moves[0].Eval)
	require.Equal(t, Score{Mate: 1}, rep.Start)
}

// TestTeamChessSiege: a pass ("--") is the besieged side's ply, neither
// judged nor counted; a move after it continues the siege (which, Black
// still besieged, ends in White's Siege Win).
func TestTeamChessSiege(t *testing.T) {
	t.Parallel()
	g := Game{Variant: chess.TeamChess, FEN: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", Moves: []string{"Qg6", "--", "Kb2"}}
	rep := analyse(t, g)
	pass := rep.Moves[1]
	require.True(t, pass.Pass)
	require.Equal(t, "--", pass.SAN)
	require.Equal(t, chess.Black, pass.Side)
	require.Equal(t, "1...", pass.Number)
	require.Equal(t, Good, pass.Judgement)
	require.Equal(t, "2.", rep.Moves[2].Number)
	require.Greater(t, rep.Moves[0].Eval.Mate, 0, "the Siege Win is White's: %v", rep.Moves[0].Eval)
	require.Equal(t, Score{Won: 1}, rep.Moves[2].Eval)
	require.Equal(t, 2, rep.Sides[chess.White].Moves)
	require.Equal(t, 0, rep.Sides[chess.Black].Moves)
	require.False(t, rep.Sides[chess.Black].HasAccuracy)
	pgn := rep.PGN(nil, "")
	require.Contains(t, pgn, "1... -- { [%eval #")
	back, err := chess.ReadPGN(pgn)
	require.NoError(t, err)
	require.Equal(t, g.Moves, stripGlyphs(back.Moves))
}

func stripGlyphs(ms []string) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = strings.TrimRight(m, "?!")
	}
	return out
}

// TestRefusals: a move that cannot be played is refused naming its ply,
// before any search.
func TestRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		g    Game
		ply  int
		want string
	}{
		{"illegal", Game{Variant: chess.Chess, Moves: []string{"e4", "e5", "Ke3"}}, 3, "Ke3"},
		{"not a move", Game{Variant: chess.Survival, Moves: []string{"zz9"}}, 1, "zz9"},
		{"after the end", Game{Variant: chess.Chess, Moves: strings.Fields("f3 e5 g4 Qh4# a3")}, 5, "over"},
		{"a pass in chess", Game{Variant: chess.Chess, Moves: []string{"--"}}, 1, "Team Chess"},
		{"a pass nobody needs", Game{Variant: chess.TeamChess, Moves: []string{"e4", "--"}}, 2, "not besieged"},
		{"a missing pass", Game{Variant: chess.TeamChess, FEN: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1", Moves: []string{"Qg6", "Kb2"}}, 2, "--"},
	} {
		_, err := Analyse(context.Background(), c.g, Options{Depth: 1, MoveTime: time.Minute})
		var pe *PlyError
		require.True(t, errors.As(err, &pe), "%s: %v", c.name, err)
		require.Equal(t, c.ply, pe.Ply, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
		require.Contains(t, err.Error(), "ply ", c.name)
	}
	_, err := Analyse(context.Background(), Game{Variant: chess.Chess, FEN: "not a fen"}, quick)
	require.ErrorContains(t, err, "start position")
}

// TestCancelled: a cancelled context stops the analysis with its error.
func TestCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Analyse(ctx, Game{Variant: chess.Chess, Moves: []string{"e4"}}, quick)
	require.ErrorIs(t, err, context.Canceled)
}

func TestTeamChessMate(t *testing.T) {
	t.Parallel()
	const mate, maxPly = engine.Mate, engine.MaxPly
	for _, c := range []struct{ score, moves int }{
		{mate - 1, 1}, {mate - 3, 2}, {-(mate - 4), -2},
		{mate - 2*maxPly - 5, 3}, // a dishonourable checkmate in 5 plies
		{mate - 4*maxPly - 1, 1}, // a Siege Win at once
	} {
		n, ok := teamChessMate(c.score)
		require.True(t, ok, "%d", c.score)
		require.Equal(t, c.moves, n, "%d", c.score)
	}
	_, ok := teamChessMate(900)
	require.False(t, ok)
}

func TestCommandersFromTag(t *testing.T) {
	t.Parallel()
	require.Equal(t, 3, CommandersFromTag("Ann (+1 -1); Bob* (+0 -0); Ann 2nd (+0 -0)"))
	require.Equal(t, 1, CommandersFromTag("white (+0 -1)"))
	require.Equal(t, 0, CommandersFromTag("?"))
}

// TestForcedMoveEvaluated: the engine answers a position with one legal
// move without evaluating it; the analysis plays the forced move through.
// In the Opera Game, 16. Qb8+ leaves Black Nxb8 only, then 17. Rd8#: the
// queen sacrifice is "#1", not a queen down.
func TestForcedMoveEvaluated(t *testing.T) {
	t.Parallel()
	opera := strings.Fields("e4 e5 Nf3 d6 d4 Bg4 dxe5 Bxf3 Qxf3 dxe5 Bc4 Nf6 Qb3 Qe7 Nc3 c6 Bg5 b5 Nxb5 cxb5 " +
		"Bxb5+ Nbd7 O-O-O Rd8 Rxd7 Rxd7 Rd1 Qe6 Bxd7+ Nxd7 Qb8+ Nxb8 Rd8#")
	rep := analyse(t, Game{Variant: chess.Chess, Moves: opera})
	qb8 := rep.Moves[30]
	require.Equal(t, "Qb8+", qb8.SAN)
	require.Equal(t, Score{Mate: 1}, qb8.Eval)
	require.Equal(t, Good, qb8.Judgement)
	require.Equal(t, "Nxb8", rep.Moves[31].Best, "the only move is the best")
	require.Equal(t, Score{Won: 1}, rep.Moves[32].Eval)
}
