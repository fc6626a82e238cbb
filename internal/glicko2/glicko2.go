// Package glicko2 is Glickman's Glicko-2 rating system (glicko.net,
// "Example of the Glicko-2 system", glicko2.pdf) as lichess runs it:
// instant updates after each game, with rating periods that are
// fractional, counted from the time that passed since the player's last
// rated game (PeriodsPerDay per day).
//
// It is pure arithmetic: no storage, no clock of its own. Ratings are on
// the Glicko scale (1500 / 350), converted to the Glicko-2 scale (μ, φ)
// inside Update only.
//
// Invariants: the deviation of every rating Update or Decay returns lies
// within [MinDeviation, MaxDeviation]; a result of weight 0 changes
// nothing but the deviation's growth over idle time.
package glicko2

import (
	"math"
	"time"
)

// The system's constants (lichess's, Glickman's defaults for the start).
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
// before the game, the player's score (1 win, 0.5 draw, 0 loss) and its
// weight (1: a whole game; Team Chess weighs a commander's part of a game
// by moves played).
type Result struct {
	Opponent Rating
	Score    float64
	Weight   float64
}

// Win, Draw and Loss are results of weight 1 against opp.
func Win(opp Rating) Result  { return Result{Opponent: opp, Score: 1, Weight: 1} }
func Draw(opp Rating) Result { return Result{Opponent: opp, Score: 0.5, Weight: 1} }
func Loss(opp Rating) Result { return Result{Opponent: opp, Score: 0, Weight: 1} }

// Periods is how many rating periods passed between r's last update and
// now: 1 for a player never rated (Glickman's single period), else the
// days elapsed times PeriodsPerDay (0 when now is not after Last).
func Periods(r Rating, now time.Time) float64 {
	if r.Last.IsZero() {
		return 1
	}
	d := now.Sub(r.Last)
	if d <= 0 {
		return 0
	}
	return d.Hours() / 24 * PeriodsPerDay
}

// Decay is r as of now without a game: its deviation grown by the periods
// passed (Glickman's step 6 for a player who did not compete,
// φ* = sqrt(φ² + periods·σ²)), clamped. Use it to show a rating.
func Decay(r Rating, now time.Time) Rating {
	if r.Last.IsZero() {
		return clamp(r)
	}
	phi := r.Deviation / scale
	out := r
	out.Deviation = math.Sqrt(phi*phi+Periods(r, now)*r.Volatility*r.Volatility) * scale
	return clamp(out)
}

// Update is r after the results, played at now, as one rating period
// (Glickman's steps 2 to 8), with the deviation's growth taken over the
// periods since r's last update; Last becomes now. With no result of
// positive weight, r is returned as it was (no game: nothing to record).
func Update(r Rating, results []Result, now time.Time) Rating {
	mu := (r.Rating - StartRating) / scale
	phi := r.Deviation / scale
	sigma := r.Volatility
	// Steps 3 and 4: the estimated variance v and improvement Δ.
	var vInv, sum float64
	for _, res := range results {
		if res.Weight <= 0 {
			continue
		}
		muJ := (res.Opponent.Rating - StartRating) / scale
		phiJ := res.Opponent.Deviation / scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += res.Weight * g * g * e * (1 - e)
		sum += res.Weight * g * (res.Score - e)
	}
	if vInv == 0 {
		return r
	}
	v := 1 / vInv
	delta := v * sum
	// Step 5: the new volatility (Illinois algorithm).
	sigma2 := volatility(delta, phi, v, sigma)
	// Step 6: the pre-period deviation over the periods passed.
	phiStar := math.Sqrt(phi*phi + Periods(r, now)*sigma2*sigma2)
	// Step 7: the new deviation and rating.
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*sum
	return clamp(Rating{Rating: mu2*scale + StartRating, Deviation: phi2 * scale, Volatility: sigma2, Last: now})
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

// clamp keeps the deviation within [MinDeviation, MaxDeviation].
func clamp(r Rating) Rating {
	r.Deviation = math.Max(MinDeviation, math.Min(MaxDeviation, r.Deviation))
	return r
}
