package analysis

import (
	"math"
)

// This file is lichess's arithmetic, transcribed from its sources (lila and
// scalachess, read on the lila snapshot of issue 24):
//
//   - winning chances and win percent: scalachess core/src/main/scala/eval.scala
//     (formerly lila modules/analyse/src/main/WinPercent.scala), the curve of
//     lila pull request 11148;
//   - per-move and game accuracy: lila modules/analyse/src/main/AccuracyPercent.scala,
//     with the means of lila modules/common/src/main/Maths.scala (scalalib);
//   - inaccuracy, mistake, blunder: lila modules/tree/src/main/Advice.scala
//     (formerly modules/analyse/src/main/Advice.scala).

// CPCeiling is lichess's Eval.Cp.CEILING: win percents (and so accuracy)
// see at most 1000 centipawns either way, and a mate counts as the ceiling.
const CPCeiling = 1000

// CPInitial is lichess's Eval.Cp.initial: the evaluation its accuracy
// assumes before the first move of a standard game.
const CPInitial = 15

// winMultiplier is scalachess's MULTIPLIER (lila pull request 11148).
const winMultiplier = -0.00368208

// WinningChances is scalachess's winningChances: the expected result in
// [-1, +1] of a chess evaluation of cp centipawns (not ceiled here; lila's
// Advice uses it raw).
func WinningChances(cp float64) float64 {
	return clamp(2/(1+math.Exp(winMultiplier*cp))-1, -1, 1)
}

// WinPercent is scalachess's WinPercent.fromCentiPawns: 50 + 50 *
// WinningChances of cp ceiled at ±CPCeiling, in [0, 100].
func WinPercent(cp float64) float64 {
	return 50 + 50*WinningChances(clamp(cp, -CPCeiling, CPCeiling))
}

// MoveAccuracy is lila's AccuracyPercent.fromWinPercents: the accuracy of a
// move that took its player's win percent from before to after (both from
// that player's point of view): 100 when it did not drop, else
// 103.1668100711649*exp(-0.04354415386753951*drop) - 3.166924740191411,
// plus lila's "uncertainty bonus" of 1, clamped to [0, 100].
func MoveAccuracy(before, after float64) float64 {
	if after >= before {
		return 100
	}
	drop := before - after
	raw := 103.1668100711649*math.Exp(-0.04354415386753951*drop) - 3.166924740191411
	return clamp(raw+1, 0, 100)
}

// GameAccuracy is lila's AccuracyPercent.gameAccuracy: cps are the
// evaluations (White's point of view, centipawns, a mate as a large value:
// lila's forceAsCp) before the first move and after every move; whiteFirst
// says that White made the first move. Each side's accuracy is the mean
// of two means of its moves' accuracies: one weighted by the volatility of
// the position (the population standard deviation of the win percents in a
// sliding window of len/10 plies, at least 2 and at most 8, the weight
// clamped to [0.5, 12]) and the harmonic mean (each accuracy at least 1).
// ok[c] is false for a side that made no move. lila prepends
// CPInitial itself; the caller gives the first evaluation here.
func GameAccuracy(cps []float64, whiteFirst bool) (acc [2]float64, ok [2]bool) {
	return gameAccuracy(cps, whiteFirst, nil)
}

// gameAccuracy is GameAccuracy where skip[i], when set, leaves move i (from
// cps[i] to cps[i+1]) out of its side's means (a Team Chess pass: not a
// decision), keeping it in the windows.
func gameAccuracy(cps []float64, whiteFirst bool, skip []bool) (acc [2]float64, ok [2]bool) {
	if len(cps) < 2 {
		return acc, ok
	}
	wp := make([]float64, len(cps))
	for i, cp := range cps {
		wp[i] = WinPercent(cp)
	}
	moves := len(cps) - 1
	window := min(max(moves/10, 2), 8)
	// lila: windowSize-2 copies of the first window, then every sliding
	// window (none when there are fewer values than the window).
	var windows [][]float64
	for range min(window, len(wp)) - 2 {
		windows = append(windows, wp[:min(window, len(wp))])
	}
	for i := 0; i+window <= len(wp); i++ {
		windows = append(windows, wp[i:i+window])
	}
	// Scala's zip stops at the shorter list.
	n := min(moves, len(windows))
	var sumAW, sumW, sumInv [2]float64
	var count [2]int
	for i := range n {
		weight := clamp(stddev(windows[i]), 0.5, 12)
		white := (i%2 == 0) == whiteFirst
		c, before, after := 1, 100-wp[i], 100-wp[i+1]
		if white {
			c, before, after = 0, wp[i], wp[i+1]
		}
		if skip != nil && skip[i] {
			continue
		}
		a := MoveAccuracy(before, after)
		sumAW[c] += a * weight
		sumW[c] += weight
		sumInv[c] += 1 / max(1, a)
		count[c]++
	}
	for c := range 2 {
		if count[c] == 0 || sumW[c] == 0 {
			continue
		}
		weighted := sumAW[c] / sumW[c]
		harmonic := float64(count[c]) / sumInv[c]
		acc[c], ok[c] = (weighted+harmonic)/2, true
	}
	return acc, ok
}

func stddev(xs []float64) float64 {
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var v float64
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return math.Sqrt(v / float64(len(xs)))
}

func clamp(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

// Judgement is lichess's Advice.Judgement of a move.
type Judgement uint8

// The judgements, mildest first.
const (
	Good Judgement = iota // no judgement
	Inaccuracy
	Mistake
	Blunder
)

// String names the judgement as lichess does ("Blunder"); "" for Good.
func (j Judgement) String() string {
	return [...]string{"", "Inaccuracy", "Mistake", "Blunder"}[j]
}

// Glyph is the move assessment PGN writes after the move: "?!" (NAG $6),
// "?" ($2), "??" ($4); "" for Good.
func (j Judgement) Glyph() string {
	return [...]string{"", "?!", "?", "??"}[j]
}

// NAG is the glyph's numeric annotation glyph (PGN standard 10): 6, 2, 4;
// 0 for Good.
func (j Judgement) NAG() int {
	return [...]int{0, 6, 2, 4}[j]
}

// Judge is lila's Advice: the judgement of a move by side (0 White, 1
// Black) that took the evaluation from prev to next (White's point of
// view), where scale converts the variant's centipawns to chess
// centipawns (1 for chess; see Curve).
//
// Both ordinary evaluations (CpAdvice): the drop of the mover's winning
// chances (WinningChances, [-1, +1]) of at least 0.3 is a blunder, 0.2 a
// mistake, 0.1 an inaccuracy; on lichess's win-percent scale [0, 100]
// these are drops of 15, 10 and 5 points. Otherwise (MateAdvice), from the
// mover's point of view: a mate against it appearing is a blunder, a
// mistake when it stood below -700 centipawns, an inaccuracy below -999; a
// mate for it lost (or turned against it) is a blunder, a mistake when it
// keeps more than 700, an inaccuracy above 999. A slower mate is not
// judged.
func Judge(prev, next Score, side int, scale float64) Judgement {
	sign := 1.0
	if side == 1 {
		sign = -1
	}
	if !prev.IsMate() && !next.IsMate() {
		delta := sign * (WinningChances(float64(prev.CP)*scale) - WinningChances(float64(next.CP)*scale))
		switch {
		case delta >= 0.3:
			return Blunder
		case delta >= 0.2:
			return Mistake
		case delta >= 0.1:
			return Inaccuracy
		}
		return Good
	}
	pm, nm := prev.mateSign()*int(sign), next.mateSign()*int(sign)
	// lila's prevCp/nextCp: the mover's centipawns, 0 for a mate.
	pcp, ncp := 0.0, 0.0
	if !prev.IsMate() {
		pcp = sign * float64(prev.CP) * scale
	}
	if !next.IsMate() {
		ncp = sign * float64(next.CP) * scale
	}
	switch {
	case pm == 0 && nm < 0: // MateCreated
		switch {
		case pcp < -999:
			return Inaccuracy
		case pcp < -700:
			return Mistake
		}
		return Blunder
	case pm > 0 && nm <= 0: // MateLost
		switch {
		case ncp > 999:
			return Inaccuracy
		case ncp > 700:
			return Mistake
		}
		return Blunder
	}
	return Good
}
