package glicko2

import (
	"math"
	"math/rand/v2"
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
	got := Period(p, []Result{
		Win(Rating{Rating: 1400, Deviation: 30}),
		Loss(Rating{Rating: 1550, Deviation: 100}),
		Loss(Rating{Rating: 1700, Deviation: 300}),
	}, 1)
	require.InDelta(t, 1464.06, got.Rating, 0.01)
	require.InDelta(t, 151.52, got.Deviation, 0.01)
	require.InDelta(t, 0.05999, got.Volatility, 0.00001)
}

// TestVolatilityPaper checks step 5 against the paper's intermediate
// figures (v = 1.7785, Δ = -0.4834, σ' = 0.05999 with τ 0.5: ours with
// τ 0.75 stays within 1e-5 of it).
func TestVolatilityPaper(t *testing.T) {
	t.Parallel()
	s := volatility(-0.4834, 1.1513, 1.7785, 0.06)
	require.InDelta(t, 0.05999, s, 0.00001)
}

// TestFirstGameByHand: two new players, one game, which counts no rating
// period (lichess: no latest game, no growth). By hand: φ = 2.01476,
// g(φ) = 0.66907, E = 0.5, v = 1/(g²·¼) = 8.93547, φ' = 1/sqrt(1/φ² + 1/v)
// = 1.67071 → RD 290.23, μ' = φ'²·g·½ = 0.93380 → r 1662.21 for the
// winner, 1337.79 for the loser. (Counting one period, as before issue
// 26, gave φ* = sqrt(φ²+σ'²) = 2.01566: RD 290.32, r 1662.31.)
func TestFirstGameByHand(t *testing.T) {
	t.Parallel()
	a, b := New(), New()
	wa := Update(a, []Result{Win(b)}, t0)
	lb := Update(b, []Result{Loss(a)}, t0)
	require.InDelta(t, 1662.21, wa.Rating, 0.01)
	require.InDelta(t, 1337.79, lb.Rating, 0.01)
	require.InDelta(t, 290.23, wa.Deviation, 0.01)
	require.InDelta(t, wa.Rating-1500, 1500-lb.Rating, 1e-9, "symmetric")
	require.True(t, wa.Provisional())
	require.Equal(t, t0, wa.Last)
	require.Zero(t, Periods(a, t0.Add(1000*time.Hour)), "never played: no period")
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

// TestOneGameMovesAtMost700 (lichess's maxRatingDelta): a 1500/500 player
// beating a 3000/45 one gained 1,422 points before the bound (1,423 when
// the game counted a rating period, as issue 26 measured); now 700. The
// loser's side is bounded the same way.
func TestOneGameMovesAtMost700(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1500, Deviation: 500, Volatility: 0.06, Last: t0}
	opp := Rating{Rating: 3000, Deviation: 45, Volatility: 0.06, Last: t0}
	unbounded := Period(p, []Result{Win(opp)}, 0)
	require.Greater(t, unbounded.Rating-p.Rating, 1400.0, "the case needs the bound")
	got := Update(p, []Result{Win(opp)}, t0)
	require.InDelta(t, 2200, got.Rating, 1e-9)
	down := Rating{Rating: 3000, Deviation: 500, Volatility: 0.06, Last: t0}
	lost := Update(down, []Result{Loss(Rating{Rating: 1500, Deviation: 45, Volatility: 0.06})}, t0)
	require.InDelta(t, 2300, lost.Rating, 1e-9)
}

// TestVolatilityAtMostOneTenth (lichess's maxVolatility): a 1500/60 player
// of σ 0.0999 beating a 3000/45 one reached σ 0.100038 before; a σ stored
// above 0.1 is used capped.
func TestVolatilityAtMostOneTenth(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1500, Deviation: 60, Volatility: 0.0999, Last: t0}
	opp := Rating{Rating: 3000, Deviation: 45, Volatility: 0.06, Last: t0}
	require.Greater(t, Period(p, []Result{Win(opp)}, 0).Volatility, MaxVolatility, "the case needs the cap")
	require.Equal(t, MaxVolatility, Update(p, []Result{Win(opp)}, t0).Volatility)
	high := p
	high.Volatility = 0.3
	require.LessOrEqual(t, Update(high, []Result{Loss(opp)}, t0).Volatility, MaxVolatility)
}

// TestRatingAtLeast400 (lichess's minRating): a 500/300 player losing to a
// 450/100 one fell to 331 before; now 400.
func TestRatingAtLeast400(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 500, Deviation: 300, Volatility: 0.06, Last: t0}
	opp := Rating{Rating: 450, Deviation: 100, Volatility: 0.06, Last: t0}
	require.Less(t, Period(p, []Result{Loss(opp)}, 0).Rating, 350.0, "the case needs the floor")
	require.Equal(t, MinRating, Update(p, []Result{Loss(opp)}, t0).Rating)
}

// TestOpponentGrownToNow: an opponent who last played a year ago counts
// with the deviation grown over that year (50 → 104.9), as lichess reads
// every rating live; before, their stored 50 was used and the winner
// gained less.
func TestOpponentGrownToNow(t *testing.T) {
	t.Parallel()
	now := t0.Add(365 * 24 * time.Hour)
	p := Rating{Rating: 1500, Deviation: 200, Volatility: 0.06, Last: now}
	opp := Rating{Rating: 1500, Deviation: 50, Volatility: 0.06, Last: t0}
	grown := Decay(opp, now)
	require.InDelta(t, 104.88, grown.Deviation, 0.01)
	got := Update(p, []Result{Win(opp)}, now)
	asOfNow := grown
	asOfNow.Last = now
	require.Equal(t, Update(p, []Result{Win(asOfNow)}, now), got)
	stale := opp
	stale.Last = now
	require.Less(t, got.Rating, Update(p, []Result{Win(stale)}, now).Rating,
		"a less certain opponent's rating says less: the win moves less")
}

// TestNoResultNoChange: Update with no result returns r unchanged.
func TestNoResultNoChange(t *testing.T) {
	t.Parallel()
	p := Rating{Rating: 1600, Deviation: 80, Volatility: 0.06, Last: t0}
	require.Equal(t, p, Update(p, nil, t0.Add(time.Hour)))
}

// TestToward moves part of the way (lichess's Glicko.average).
func TestToward(t *testing.T) {
	t.Parallel()
	a := Rating{Rating: 1500, Deviation: 300, Volatility: 0.06}
	b := Rating{Rating: 1800, Deviation: 200, Volatility: 0.08, Last: t0}
	require.Equal(t, a, Toward(a, b, 0))
	require.Equal(t, b, Toward(a, b, 1))
	third := Toward(a, b, 1.0/3)
	require.InDelta(t, 1600, third.Rating, 1e-9)
	require.InDelta(t, 266.667, third.Deviation, 1e-3)
	require.InDelta(t, 0.06667, third.Volatility, 1e-5)
	require.Equal(t, t0, third.Last)
}

// BenchmarkUpdate is one player's update after one game.
func BenchmarkUpdate(b *testing.B) {
	p := Rating{Rating: 1600, Deviation: 80, Volatility: 0.06, Last: t0}
	opp := []Result{Win(Rating{Rating: 1650, Deviation: 60, Volatility: 0.06})}
	for b.Loop() {
		Update(p, opp, t0.Add(time.Hour))
	}
}

// TestProvisionalFrom: the instant a rating turns provisional agrees with
// Decay to the nanosecond (one before: established; at it and after:
// provisional), and the cases of a rating that always or never is.
func TestProvisionalFrom(t *testing.T) {
	t.Parallel()
	last := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	rng := rand.New(rand.NewPCG(26, 5))
	for range 2000 {
		r := Rating{Rating: 400 + 2600*rng.Float64(), Deviation: 45 + 80*rng.Float64(), Volatility: 0.1 * rng.Float64(), Last: last}
		from, ever := ProvisionalFrom(r)
		if !ever {
			require.False(t, Decay(r, last.Add(200*365*24*time.Hour)).Provisional(), "%+v", r)
			continue
		}
		if from.IsZero() {
			require.Greater(t, r.Deviation, ProvisionalDeviation, "%+v", r)
			continue
		}
		require.True(t, from.After(last), "%+v", r)
		require.False(t, Decay(r, from.Add(-1)).Provisional(), "%+v one ns before %s", r, from)
		require.True(t, Decay(r, from).Provisional(), "%+v at %s", r, from)
		at := last.Add(time.Duration(rng.Int64N(int64(3 * 365 * 24 * time.Hour))))
		require.Equal(t, Decay(r, at).Provisional(), !at.Before(from), "%+v at %s", r, at)
	}
	// Established for about 412 days: (110² − 50²)/173.7178² / 0.06² periods.
	from, ever := ProvisionalFrom(Rating{Rating: 1500, Deviation: 50, Volatility: 0.06, Last: last})
	require.True(t, ever)
	require.InDelta(t, 412, from.Sub(last).Hours()/24, 1)
	_, ever = ProvisionalFrom(Rating{Rating: 1500, Deviation: 50, Volatility: 0, Last: last})
	require.False(t, ever, "no volatility: never grows")
	_, ever = ProvisionalFrom(Rating{Rating: 1500, Deviation: 100, Volatility: 0.06})
	require.False(t, ever, "never played: never grows")
	from, ever = ProvisionalFrom(New())
	require.True(t, ever)
	require.True(t, from.IsZero(), "a new rating is provisional at every instant")
	from, ever = ProvisionalFrom(Rating{Rating: 1500, Deviation: 111, Volatility: 0.06, Last: last})
	require.True(t, ever && from.IsZero())
}
