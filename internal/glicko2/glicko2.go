// Package glicko2 is Glickman's Glicko-2 rating system (glicko.net,
// "Example of the Glicko-2 system", glicko2.pdf) run game by game as
// lichess runs it (lila modules/round PerfsUpdater, modules/rating
// Glicko.scala and PerfExt.addOrReset; scalachess rating/glicko):
//
//   - every rating used in a game, the player's and the opponents', first
//     has its deviation grown to the game's time over the rating periods
//     passed since its last game (PeriodsPerDay a day; lila's
//     Glicko.liveDeviation, applied when a Perf is read); a rating never
//     played is not grown (lila: no latest date, no period);
//   - the game is then one rating period of Glickman's steps 2 to 8 with no
//     further growth in step 6 (lila: computeGame with
//     skipDeviationIncrease = true);
//   - the new rating moves at most MaxChange from the one before (lila's
//     Glicko.maxRatingDelta) and is capped: rating at least MinRating,
//     deviation within [MinDeviation, MaxDeviation], volatility at most
//     MaxVolatility (lila's Glicko.cap, applied to the ratings used too).
//
// Where this differs from lichess: the start is Glickman's 1500 / 350 /
// 0.06 (lichess: 1500 / 500 / 0.09); lichess's RatingRegulator factors, its
// colour advantage, its farming checks and its reset of an insane result
// are not followed.
//
// It is pure arithmetic: no storage, no clock of its own. Ratings are on
// the Glicko scale (1500 / 350), converted to the Glicko-2 scale (μ, φ)
// inside Period only.
//
// Invariants: every rating Update returns is capped (Cap), and moves at
// most MaxChange from the rating it was given; Decay changes the
// deviation only.
package glicko2

import (
	"math"
	"time"
)

// The system's constants: lichess's, but Glickman's start values.
const (
	StartRating     = 1500.0
	StartDeviation  = 350.0
	StartVolatility = 0.06
	// Tau constrains the change of volatility (Glickman: 0.3 to 1.2).
	Tau = 0.75
	// MinDeviation and MaxDeviation bound the deviation (RD) after every
	// update, as lichess does.
	MinDeviation = 45.0
	MaxDeviation = 500.0
	// MaxVolatility bounds σ (lichess: "past this, it might not stabilize
	// ever again").
	MaxVolatility = 0.1
	// MinRating is the lowest rating (lichess's Glicko.minRating).
	MinRating = 400.0
	// MaxChange is the most a rating moves in one game, up or down
	// (lichess's Glicko.maxRatingDelta).
	MaxChange = 700.0
	// ProvisionalDeviation: a rating whose deviation is above it is
	// provisional (shown with "?").
	ProvisionalDeviation = 110.0
	// PeriodsPerDay is how many rating periods a day counts (lichess's
	// ratingPeriodsPerDay): the deviation grows with the periods passed
	// since the player's last rated game.
	PeriodsPerDay = 0.21436

	scale   = 173.7178 // Glicko-2 scale factor: μ = (r - 1500) / scale
	epsilon = 0.000001 // convergence of the volatility iteration
)

// Rating is one player's rating: the Glicko rating r, its deviation RD
// (both in rating points), the volatility σ, and when it was last updated
// by a rated game (zero: never).
type Rating struct {
	Rating     float64   `json:"r"`
	Deviation  float64   `json:"rd"`
	Volatility float64   `json:"vol"`
	Last       time.Time `json:"last,omitzero"`
}

// New is the rating of a player who has played no rated game.
func New() Rating {
	return Rating{Rating: StartRating, Deviation: StartDeviation, Volatility: StartVolatility}
}

// Provisional reports whether the rating is still uncertain (RD above
// ProvisionalDeviation).
func (r Rating) Provisional() bool { return r.Deviation > ProvisionalDeviation }

// Result is one game of the player being rated: the opponent's rating
// before the game and the player's score (1 win, 0.5 draw, 0 loss).
type Result struct {
	Opponent Rating
	Score    float64
}

// Win, Draw and Loss are results against opp.
func Win(opp Rating) Result  { return Result{Opponent: opp, Score: 1} }
func Draw(opp Rating) Result { return Result{Opponent: opp, Score: 0.5} }
func Loss(opp Rating) Result { return Result{Opponent: opp, Score: 0} }

// Periods is how many rating periods passed between r's last game and
// now: the days elapsed times PeriodsPerDay; 0 for a rating never played
// (lichess counts none without a latest game) and when now is not after
// Last.
func Periods(r Rating, now time.Time) float64 {
	if r.Last.IsZero() {
		return 0
	}
	d := now.Sub(r.Last)
	if d <= 0 {
		return 0
	}
	return d.Hours() / 24 * PeriodsPerDay
}

// Decay is r as of now without a game: its deviation grown by the periods
// passed (Glickman's step 6 for a player who did not compete,
// φ* = sqrt(φ² + periods·σ²); lichess's live deviation), kept within
// [MinDeviation, MaxDeviation]. Use it to show a rating; Update applies it
// to every rating of a game.
func Decay(r Rating, now time.Time) Rating {
	phi := r.Deviation / scale
	out := r
	out.Deviation = math.Sqrt(phi*phi+Periods(r, now)*r.Volatility*r.Volatility) * scale
	out.Deviation = math.Max(MinDeviation, math.Min(MaxDeviation, out.Deviation))
	return out
}

// ProvisionalFrom is the first instant at which r, grown by Decay, is
// provisional: Decay(r, t).Provisional() holds exactly when ever and t is
// not before from. The deviation only grows with time, so that instant is
// fixed once r is: a ranking can be keyed by it when r is written (the
// zero time: provisional at every instant; ever false: never, as a rating
// whose volatility is 0 or that was never played and is established).
// It is found to the nanosecond by bisection on Decay itself, so it
// agrees with Decay at every instant, rounding included.
func ProvisionalFrom(r Rating) (from time.Time, ever bool) {
	prov := func(d time.Duration) bool { return Decay(r, r.Last.Add(d)).Provisional() }
	switch {
	case prov(0):
		return time.Time{}, true
	case r.Last.IsZero() || !prov(math.MaxInt64):
		return time.Time{}, false
	}
	lo, hi := time.Duration(0), time.Duration(math.MaxInt64) // lo not provisional, hi provisional
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if prov(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return r.Last.Add(hi), true
}

// Cap is r within the system's bounds (lichess's Glicko.cap): rating at
// least MinRating, deviation within [MinDeviation, MaxDeviation],
// volatility at most MaxVolatility.
func Cap(r Rating) Rating {
	r.Rating = math.Max(MinRating, r.Rating)
	r.Deviation = math.Max(MinDeviation, math.Min(MaxDeviation, r.Deviation))
	r.Volatility = math.Min(MaxVolatility, r.Volatility)
	return r
}

// Live is r as a game at now uses it: grown to now (Decay), then capped
// (Cap).
func Live(r Rating, now time.Time) Rating { return Cap(Decay(r, now)) }

// Update is r after the results of one game played at now, as lichess
// rates a game: r and every opponent taken Live, one rating Period with no
// further growth, the change bounded by MaxChange from r's rating, the
// result capped; Last becomes now. With no result, r is returned as it was.
func Update(r Rating, results []Result, now time.Time) Rating {
	if len(results) == 0 {
		return r
	}
	live := make([]Result, len(results))
	for i, res := range results {
		live[i] = Result{Opponent: Live(res.Opponent, now), Score: res.Score}
	}
	out := Period(Live(r, now), live, 0)
	if math.IsNaN(out.Rating) || math.IsNaN(out.Deviation) || math.IsNaN(out.Volatility) {
		out = Live(r, now) // never store arithmetic gone wrong
	}
	out.Rating = math.Max(r.Rating-MaxChange, math.Min(r.Rating+MaxChange, out.Rating))
	out.Last = now
	return Cap(out)
}

// Period is Glickman's steps 2 to 8 for r and its results in one rating
// period, the deviation grown in step 6 over periods (Glickman: 1; Update:
// 0, the growth done before). It neither bounds nor caps; Last is kept.
func Period(r Rating, results []Result, periods float64) Rating {
	mu := (r.Rating - StartRating) / scale
	phi := r.Deviation / scale
	sigma := r.Volatility
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		muJ := (res.Opponent.Rating - StartRating) / scale
		phiJ := res.Opponent.Deviation / scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += g * g * e * (1 - e)
		sum += g * (res.Score - e)
	}
	if vInv == 0 {
		return r
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility (Illinois algorithm).
	sigma2 := volatility(delta, phi, v, sigma)
	// Step 6: the pre-period deviation over the periods passed.
	phiStar := math.Sqrt(phi*phi + periods*sigma2*sigma2)
	// Step 7: the new deviation and rating.
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	return Rating{Rating: mu2*scale + StartRating, Deviation: phi2 * scale, Volatility: sigma2, Last: r.Last}
}

// Toward is from moved by the fraction w of the way to to, in rating,
// deviation and volatility (lichess's Glicko.average): w ≤ 0 is from,
// w ≥ 1 is to. Team Chess scales a commander's change by their share of
// the team's moves with it.
func Toward(from, to Rating, w float64) Rating {
	switch {
	case w <= 0:
		return from
	case w >= 1:
		return to
	}
	out := to
	out.Rating = from.Rating + w*(to.Rating-from.Rating)
	out.Deviation = from.Deviation + w*(to.Deviation-from.Deviation)
	out.Volatility = from.Volatility + w*(to.Volatility-from.Volatility)
	return out
}

// volatility is Glickman's step 5: σ' solving f(x) = 0 by the Illinois
// variant of regula falsi.
func volatility(delta, phi, v, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
