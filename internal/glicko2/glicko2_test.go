package glicko2

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// TestPaperExample is Glickman's worked example (glicko2.pdf): a 1500/200
// player beats 1400/30, loses to 1550/100 and 1700/300 in one period.
func TestPaperExample(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	// Tau 0.5 in the paper; ours is 0.75, which moves σ' in the 6th digit
	// only: the rating and RD match the paper's to 0.01 either way.
	got := Update(p, []Result{
		Win(Rating{Rating: 1400, Deviation: 30}),
		Loss(Rating{Rating: 1550, Deviation: 100}),
		Loss(Rating{Rating: 1700, Deviation: 300}),
	}, t0)
	require.InDelta(t, 1464.06, got.Rating, 0.01)
	require.InDelta(t, 151.52, got.Deviation, 0.01)
	require.InDelta(t, 0.05999, got.Volatility, 0.00001)
	require.Equal(t, t0, got.Last)
}

// TestVolatilityPaper checks step 5 against the paper's intermediate
// figures (v = 1.7785, Δ = -0.4834, σ' = 0.05999 with τ 0.5: ours with
// τ 0.75 stays within 1e-5 of it).
func TestVolatilityPaper(t *testing.T) {
	t.Parallel()
	s := volatility(-0.4834, 1.1513, 1.7785, 0.06)
	require.InDelta(t, 0.05999, s, 0.00001)
}

// TestFirstGameByHand: two new players, one game. By hand: φ = 2.0148,
// g(φ) = 0.6691, E = 0.5, v = 1/(g²·¼) = 8.936, φ* = sqrt(φ²+σ'²) (σ' ≈
// 0.06) = 2.0157, φ' = 1/sqrt(1/φ*² + 1/v) = 1.6712 → RD 290.3, μ' =
// φ'²·g·½ = 0.9343 → r 1662.3 for the winner, 1337.7 for the loser.
func TestFirstGameByHand(t *testing.T) {
	t.Parallel()
	a, b := New(), New()
	wa := Update(a, []Result{Win(b)}, t0)
	lb := Update(b, []Result{Loss(a)}, t0)
	require.InDelta(t, 1662.3, wa.Rating, 0.1)
	require.InDelta(t, 1337.7, lb.Rating, 0.1)
	require.InDelta(t, 290.3, wa.Deviation, 0.1)
	require.InDelta(t, wa.Rating-1500, 1500-lb.Rating, 1e-9, "symmetric")
	require.True(t, wa.Provisional())
}

// TestDrawBetweenEquals moves neither rating, and shrinks both RDs.
func TestDrawBetweenEquals(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1600, Deviation: 80, Volatility: 0.06, Last: t0}
	got := Update(p, []Result{Draw(p)}, t0.Add(24*time.Hour))
	require.InDelta(t, 1600, got.Rating, 1e-9)
	require.Less(t, got.Deviation, 80.0)
	// A draw against a stronger player gains.
	up := Update(p, []Result{Draw(Rating{Rating: 1800, Deviation: 80})}, t0)
	require.Greater(t, up.Rating, 1600.0)
}

// TestIdleGrowth: RD grows with the periods passed: 100 days at 0.21436
// periods a day is 21.436 periods; φ* = sqrt(φ² + 21.436·σ²).
func TestIdleGrowth(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1700, Deviation: 60, Volatility: 0.06, Last: t0}
	got := Decay(p, t0.Add(100*24*time.Hour))
	phi := 60 / scale
	want := math.Sqrt(phi*phi+21.436*0.06*0.06) * scale
	require.InDelta(t, want, got.Deviation, 1e-6)
	require.InDelta(t, 77.00, got.Deviation, 0.01) // by hand
	require.Equal(t, 1700.0, got.Rating)
	require.InDelta(t, 60.0, Decay(p, t0).Deviation, 1e-9, "no time, no growth")
	// A game after idle time moves the rating more than one right away.
	opp := Rating{Rating: 1700, Deviation: 60, Volatility: 0.06}
	fresh := Update(p, []Result{Win(opp)}, t0)
	idle := Update(p, []Result{Win(opp)}, t0.Add(365*24*time.Hour))
	require.Greater(t, idle.Rating, fresh.Rating)
}

// TestClamps keeps RD within 45-500: years of idleness stop at 500, many
// games stop at 45.
func TestClamps(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1500, Deviation: 300, Volatility: 0.06, Last: t0}
	require.Equal(t, MaxDeviation, Decay(p, t0.Add(100*365*24*time.Hour)).Deviation)
	r := New()
	opp := Rating{Rating: 1500, Deviation: 45, Volatility: 0.06}
	now := t0
	for i := 0; i < 500; i++ {
		res := Win(opp)
		if i%2 == 1 {
			res = Loss(opp)
		}
		r = Update(r, []Result{res}, now)
	}
	require.Equal(t, MinDeviation, r.Deviation)
	require.False(t, r.Provisional())
	wide := Rating{Rating: 1500, Deviation: 600, Volatility: 0.06, Last: t0}
	require.Equal(t, MaxDeviation, Decay(wide, t0).Deviation)
}

// TestWeights: a half-weighted win moves less than a whole one; weight 0
// changes nothing.
func TestWeights(t *testing.T) {
	t.Parallel()
	p := New()
	opp := New()
	whole := Update(p, []Result{Win(opp)}, t0)
	half := Update(p, []Result{{Opponent: opp, Score: 1, Weight: 0.5}}, t0)
	require.Greater(t, whole.Rating, half.Rating)
	require.Greater(t, half.Rating, 1500.0)
	require.Equal(t, p, Update(p, []Result{{Opponent: opp, Score: 1, Weight: 0}}, t0))
	// Two half games against two opponents equal one whole against an
	// opponent of the same rating.
	two := Update(p, []Result{{Opponent: opp, Score: 1, Weight: 0.5}, {Opponent: opp, Score: 1, Weight: 0.5}}, t0)
	require.InDelta(t, whole.Rating, two.Rating, 1e-9)
}

// BenchmarkUpdate is one player's update after one game.
func BenchmarkUpdate(b *testing.B) {
	p := Rating{Rating: 1600, Deviation: 80, Volatility: 0.06, Last: t0}
	opp := []Result{Win(Rating{Rating: 1650, Deviation: 60, Volatility: 0.06})}
	for b.Loop() {
		Update(p, opp, t0.Add(time.Hour))
	}
}
