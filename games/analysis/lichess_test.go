package analysis

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The expected figures were computed from lichess's formulas (scalachess
// eval.scala, lila AccuracyPercent.scala and Maths.scala) in a separate
// Python transcription, not from this package.

func TestWinningChancesAndWinPercent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		cp, chances, percent float64
	}{
		{0, 0, 50},
		{100, 0.1820517943832256, 59.10258971916128},
		{-100, -0.18205179438322583, 40.89741028083871},
		{300, 0.5022510018766968, 75.11255009383484},
		{1000, 0.9508948726828645, 97.54474363414323},
		// WinPercent ceils at 1000 centipawns; WinningChances does not.
		{1500, 0.9920450287897815, 97.54474363414323},
	} {
		require.InDelta(t, c.chances, WinningChances(c.cp), 1e-12, "WinningChances(%v)", c.cp)
		require.InDelta(t, c.percent, WinPercent(c.cp), 1e-9, "WinPercent(%v)", c.cp)
	}
}

func TestMoveAccuracy(t *testing.T) {
	t.Parallel()
	require.Equal(t, 100.0, MoveAccuracy(50, 50))
	require.Equal(t, 100.0, MoveAccuracy(40, 70), "a rise is perfect")
	require.InDelta(t, 64.57982845372067, MoveAccuracy(60, 50), 1e-9)
	require.InDelta(t, 25.772047746869696, MoveAccuracy(50, 20), 1e-9)
	require.Equal(t, 0.0, MoveAccuracy(100, 0), "clamped at 0")
}

func TestGameAccuracy(t *testing.T) {
	t.Parallel()
	acc, ok := GameAccuracy([]float64{15, 20, 10, -250, -240, -260, 500, 480}, true)
	require.Equal(t, [2]bool{true, true}, ok)
	require.InDelta(t, 56.783055918065045, acc[0], 1e-9, "White")
	require.InDelta(t, 14.408267983183393, acc[1], 1e-9, "Black")

	// Black moving first swaps whose moves are whose.
	acc, _ = GameAccuracy([]float64{15, 20, 10, -250, -240, -260, 500, 480}, false)
	require.InDelta(t, 99.4223742203579, acc[0], 1e-9)
	require.InDelta(t, 99.84818985976956, acc[1], 1e-9)

	// 30 moves: windows of 3 plies.
	cps := []float64{15}
	for i := 1; i <= 30; i++ {
		cps = append(cps, float64((i*37)%400-200))
	}
	acc, _ = GameAccuracy(cps, true)
	require.InDelta(t, 78.7547629921837, acc[0], 1e-9)
	require.InDelta(t, 88.88015613297782, acc[1], 1e-9)

	_, ok = GameAccuracy([]float64{15, 30}, true)
	require.Equal(t, [2]bool{true, false}, ok, "Black made no move")
	_, ok = GameAccuracy([]float64{15}, true)
	require.Equal(t, [2]bool{false, false}, ok)
}

func TestJudge(t *testing.T) {
	t.Parallel()
	cp := func(n int) Score { return Score{CP: n} }
	for _, c := range []struct {
		name       string
		prev, next Score
		side       int
		scale      float64
		want       Judgement
	}{
		{"a small drop", cp(0), cp(-50), 0, 1, Good},     // 0.0919 winning chances
		{"inaccuracy", cp(0), cp(-60), 0, 1, Inaccuracy}, // 0.110
		{"mistake", cp(0), cp(-120), 0, 1, Mistake},      // 0.218
		{"blunder", cp(0), cp(-170), 0, 1, Blunder},      // 0.303
		{"Black's drop is a rise for White", cp(0), cp(170), 1, 1, Blunder},
		{"White gaining", cp(0), cp(170), 0, 1, Good},
		{"a lost cause is lost either way", cp(-900), cp(-1500), 0, 1, Good},
		{"scaled: 340 Survival centipawns at 0.5", cp(0), cp(-340), 0, 0.5, Blunder},
		{"scaled: 100 Survival centipawns at 0.5", cp(0), cp(-100), 0, 0.5, Good},
		// MateAdvice
		{"mate created", cp(20), Score{Mate: -3}, 0, 1, Blunder},
		{"mate created from -800", cp(-800), Score{Mate: -3}, 0, 1, Mistake},
		{"mate created from -1000", cp(-1000), Score{Mate: -3}, 0, 1, Inaccuracy},
		{"mate lost to +500", Score{Mate: 2}, cp(500), 0, 1, Blunder},
		{"mate lost to +800", Score{Mate: 2}, cp(800), 0, 1, Mistake},
		{"mate lost to +1200", Score{Mate: 2}, cp(1200), 0, 1, Inaccuracy},
		{"mate turned round", Score{Mate: 2}, Score{Mate: -4}, 0, 1, Blunder},
		{"a slower mate", Score{Mate: 2}, Score{Mate: 5}, 0, 1, Good},
		{"mate delivered", Score{Mate: 1}, Score{Won: 1}, 0, 1, Good},
		{"Black allows mate", cp(0), Score{Mate: 3}, 1, 1, Blunder},
		{"Black lost its mate", Score{Mate: -2}, cp(-300), 1, 1, Blunder},
	} {
		require.Equal(t, c.want, Judge(c.prev, c.next, c.side, c.scale), c.name)
	}
	require.Equal(t, "??", Blunder.Glyph())
	require.Equal(t, "?", Mistake.Glyph())
	require.Equal(t, "?!", Inaccuracy.Glyph())
	require.Equal(t, 4, Blunder.NAG())
}

func TestScorePGN(t *testing.T) {
	t.Parallel()
	require.Equal(t, "0.35", Score{CP: 35}.PGN())
	require.Equal(t, "-1.20", Score{CP: -120}.PGN())
	require.Equal(t, "0.00", Score{}.PGN())
	require.Equal(t, "#3", Score{Mate: 3}.PGN())
	require.Equal(t, "#-3", Score{Mate: -3}.PGN())
	require.Equal(t, "#0", Score{Won: -1}.PGN())
	require.Equal(t, 100*CPCeiling, Score{Mate: 7}.ForceCP())
	require.True(t, math.Abs(WinPercent(float64(Score{Mate: -1}.ForceCP()))-2.4552563658) < 1e-6)
}
