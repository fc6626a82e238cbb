package engine

import (
	"slices"

	"sandtable/games/sandtable"
)

// This file is the SandTable evaluation: a static score of a playable
// position from one side's point of view, in points (an Infantry is 100).

// SandTable piece values, in points.
const (
	stInfantry = 100
	stTank     = 320
	stAirplane = 360
	stHazard   = 35
	// stBases is the worth of a side's Bases by how many are left: losing
	// the last one loses the game.
	stBaseOne = 1600
	stBaseTwo = 2400
	stWin     = 1_000_000
)

// stBoard is a position's pieces indexed by square, for the evaluation.
type stBoard struct {
	pcs    []sandtable.Piece
	at     [sandtable.NumSquares]int16 // index into pcs of the piece on the ground, -1 if none
	crater [sandtable.NumSquares]bool
	// vehicles[k][owner] counts Tanks (k 0) and Airplanes (k 1) by
	// controller (NoSide: neutral); total[k] all of them.
	vehicles [2][3]int
	total    [2]int
}

func vkind(k sandtable.Kind) int {
	if k == sandtable.Tank {
		return 0
	}
	return 1
}

func newSTBoard(p *sandtable.Position) *stBoard {
	b := &stBoard{pcs: p.Pieces()}
	for i := range b.at {
		b.at[i] = -1
	}
	for i := range b.pcs {
		pc := &b.pcs[i]
		if pc.Carrier.IsZero() {
			b.at[pc.Square] = int16(i)
		}
		if pc.ID.Kind.IsVehicle() {
			b.vehicles[vkind(pc.ID.Kind)][pc.Owner]++
			b.total[vkind(pc.ID.Kind)]++
		}
	}
	for _, c := range p.Craters() {
		b.crater[c.Square] = true
	}
	return b
}

func (b *stBoard) piece(sq sandtable.Square) *sandtable.Piece {
	if i := b.at[sq]; i >= 0 {
		return &b.pcs[i]
	}
	return nil
}

func vehicleValue(k sandtable.Kind) int {
	if k == sandtable.Tank {
		return stTank
	}
	return stAirplane
}

// baseValue is what destroying one of side's Bases takes from it, given
// how many it has.
func baseValue(n int) int {
	if n <= 1 {
		return stWin / 4
	}
	return stBaseTwo - stBaseOne
}

// stEval scores p for me: material (Infantry crews included, controlled
// Vehicles, hazards, Bases), progress to the all-Tanks and all-Airplanes
// victories, neutral Vehicles each side can reach first, the threats the
// opponent's next Main action makes (weighted threatWeight/100) and mine
// (weighted a fifth of that), and Infantry advance.
//
// opDrones is the opponent's number of pending Drone orders (public),
// which resolve at its next PreTurn: the most valuable of our pieces
// within their reach (two squares of one of its Infantry on the ground)
// count as lost with some odds.
func stEval(p *sandtable.Position, me sandtable.Side, threatWeight, opDrones int) int {
	if p.Phase() == sandtable.PhaseFinished {
		switch p.Result().Winner {
		case me:
			return stWin - p.Turn()
		case me.Opp():
			return -stWin + p.Turn()
		}
		return 0
	}
	b := newSTBoard(p)
	op := me.Opp()
	score := 0
	var bases [3]int
	var tanks, planes [3]int
	totalTanks, totalPlanes := 0, 0
	for i := range b.pcs {
		pc := &b.pcs[i]
		sign := 0
		switch pc.Owner {
		case me:
			sign = 1
		case op:
			sign = -1
		}
		switch pc.ID.Kind {
		case sandtable.Infantry:
			score += sign * stInfantry
			if pc.Carrier.IsZero() {
				// advance: ranks towards the opponent
				adv := pc.Square.Rank()
				if pc.Owner == sandtable.North {
					adv = sandtable.Ranks - 1 - adv
				}
				score += sign * 2 * min(adv, 12)
			}
		case sandtable.Tank:
			totalTanks++
			tanks[pc.Owner]++
			score += sign * (stTank + 10*len(pc.Crew))
		case sandtable.Airplane:
			totalPlanes++
			planes[pc.Owner]++
			score += sign * (stAirplane + 10*len(pc.Crew))
		case sandtable.Mine, sandtable.AntiAir:
			score += sign * stHazard
		case sandtable.Base:
			bases[pc.Owner]++
		}
	}
	for _, s := range []sandtable.Side{me, op} {
		sign := 1
		if s == op {
			sign = -1
		}
		switch bases[s] {
		case 1:
			score += sign * stBaseOne
		case 2:
			score += sign * stBaseTwo
		}
	}
	// One kind of Vehicle wholly out of a side's control: the other needs
	// only the neutral ones.
	for _, k := range []int{0, 1} {
		if b.total[k] > 0 && b.vehicles[k][me] == 0 && b.vehicles[k][op] > 0 {
			score -= 1500
		}
		if b.total[k] > 0 && b.vehicles[k][op] == 0 && b.vehicles[k][me] > 0 {
			score += 1500
		}
	}
	if totalTanks > 0 {
		score += 900 * (tanks[me]*tanks[me] - tanks[op]*tanks[op]) / (totalTanks * totalTanks)
	}
	if totalPlanes > 0 {
		score += 900 * (planes[me]*planes[me] - planes[op]*planes[op]) / (totalPlanes * totalPlanes)
	}
	// Neutral Vehicles: worth a share to the side whose Infantry is nearer.
	for i := range b.pcs {
		pc := &b.pcs[i]
		if !pc.ID.Kind.IsVehicle() || pc.Owner != sandtable.NoSide {
			continue
		}
		dm, do := b.nearestInfantry(pc.Square, me), b.nearestInfantry(pc.Square, op)
		v := vehicleValue(pc.ID.Kind) / 2
		score += v/dm - v/do
	}
	if opDrones > 0 {
		score -= b.droneRisk(op, me, bases[me], opDrones) * 6 / 10
	}
	if threatWeight > 0 {
		theirs := b.threat(op, me, bases[me])
		mine := b.threat(me, op, bases[op])
		score += (mine*threatWeight/5 - theirs*threatWeight) / 100
	}
	return score
}

// nearestInfantry returns the Chebyshev distance from sq to side's
// nearest Infantry on the ground (99 if none).
func (b *stBoard) nearestInfantry(sq sandtable.Square, side sandtable.Side) int {
	best := 99
	for i := range b.pcs {
		pc := &b.pcs[i]
		if pc.ID.Kind == sandtable.Infantry && pc.Owner == side && pc.Carrier.IsZero() {
			best = min(best, sandtable.Dist(sq, pc.Square))
		}
	}
	return best
}

// stVehicleWin is what a step to the all-Tanks or all-Airplanes victory
// is worth in a threat: far more than any material.
const stVehicleWin = stWin / 8

// gainOn is what att (vic's opponent) gains by taking the piece t of vic
// with a Unit (destroying it, or for Infantry capturing a Vehicle or
// boarding a neutral one), a Vehicle victory it would bring included.
func (b *stBoard) gainOn(t *sandtable.Piece, vic sandtable.Side, vicBases int, infantry bool) int {
	if t.ID.Kind.IsVehicle() {
		k := vkind(t.ID.Kind)
		att := b.vehicles[k][vic.Opp()]
		switch {
		case t.Owner == vic && infantry && att+1 == b.total[k],
			t.Owner == vic && !infantry && att > 0 && att == b.total[k]-1,
			t.Owner == sandtable.NoSide && infantry && len(t.Crew) < sandtable.MaxCrew && att+1 == b.total[k]:
			return stVehicleWin
		}
		if t.Owner == sandtable.NoSide && infantry && len(t.Crew) < sandtable.MaxCrew {
			return vehicleValue(t.ID.Kind)
		}
	}
	switch {
	case t.Owner == vic && t.ID.Kind == sandtable.Infantry:
		return stInfantry
	case t.Owner == vic && t.ID.Kind.IsVehicle():
		g := vehicleValue(t.ID.Kind) + stInfantry*len(t.Crew)
		if infantry {
			g += vehicleValue(t.ID.Kind) // captured, not only destroyed
		}
		return g
	case t.Owner == vic && t.ID.Kind.IsHazard():
		return stHazard
	case t.Owner == vic && t.ID.Kind == sandtable.Base:
		return baseValue(vicBases)
	}
	return 0
}

var stOrth = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
var stAll = [][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// threat estimates the most att can win from vic with one Main action:
// the best single Vehicle move (Tanks sweep enemy Infantry off their path
// and die on Mines, Airplanes die on Anti-Air and clear Mines), or all of
// its Infantry each taking the best adjacent target (a capture of a
// Vehicle, a neutral Vehicle boarded, a Base, Infantry, hazards).
func (b *stBoard) threat(att, vic sandtable.Side, vicBases int) int {
	best := 0
	// dismount's answers for this call, by square (-1: not computed)
	var dm [sandtable.NumSquares]int32
	for i := range dm {
		dm[i] = -1
	}
	dismount := func(sq sandtable.Square) int {
		if dm[sq] < 0 {
			dm[sq] = int32(b.dismount(sq, vic, vicBases))
		}
		return int(dm[sq])
	}
	for i := range b.pcs {
		v := &b.pcs[i]
		if !v.ID.Kind.IsVehicle() || v.Owner != att {
			continue
		}
		tank := v.ID.Kind == sandtable.Tank
		dirs := stAll
		if tank {
			dirs = stOrth
		}
		own := vehicleValue(v.ID.Kind) + stInfantry*len(v.Crew)
		for _, d := range dirs {
			pass := 0
			for n := 1; ; n++ {
				sq := sandtable.Sq(v.Square.File()+d[0]*n, v.Square.Rank()+d[1]*n)
				if sq == sandtable.NoSquare || b.crater[sq] {
					break
				}
				t := b.piece(sq)
				if t == nil {
					best = max(best, pass+dismount(sq))
					continue
				}
				if t.Owner == vic && (tank && t.ID.Kind == sandtable.Mine || !tank && t.ID.Kind == sandtable.AntiAir) {
					best = max(best, pass+stHazard-own)
					break
				}
				if tank {
					if t.ID.Kind.IsVehicle() {
						if t.Owner == vic {
							best = max(best, pass+b.gainOn(t, vic, vicBases, false))
						}
						break
					}
					if t.Owner == vic {
						g := b.gainOn(t, vic, vicBases, false)
						if t.ID.Kind == sandtable.Infantry || t.ID.Kind == sandtable.AntiAir {
							pass += g
							best = max(best, pass+dismount(sq))
						} else {
							best = max(best, pass+g+dismount(sq))
						}
					}
					continue
				}
				// Airplane
				if t.Owner == vic {
					if t.ID.Kind == sandtable.Mine {
						pass += stHazard
						best = max(best, pass)
					} else {
						best = max(best, pass+b.gainOn(t, vic, vicBases, false)+dismount(sq))
					}
				} else if t.Owner == sandtable.NoSide || t.ID.Kind != sandtable.Infantry {
					continue
				}
				best = max(best, pass+dismount(sq))
			}
		}
	}
	// Infantry: each takes its best adjacent target, a target once.
	var taken [sandtable.NumSquares]bool
	sum := 0
	for i := range b.pcs {
		pc := &b.pcs[i]
		if pc.ID.Kind != sandtable.Infantry || pc.Owner != att {
			continue
		}
		g, at := 0, sandtable.NoSquare
		for _, d := range stAll {
			sq := sandtable.Sq(pc.Square.File()+d[0], pc.Square.Rank()+d[1])
			if sq == sandtable.NoSquare || taken[sq] || b.crater[sq] {
				continue
			}
			t := b.piece(sq)
			if t == nil {
				continue
			}
			x := b.gainOn(t, vic, vicBases, true)
			if x > g {
				g, at = x, sq
			}
		}
		if g > 0 {
			taken[at] = true
			sum += g
		}
	}
	return max(best, sum)
}

// dismount is the best a crew member stepping out of a Vehicle on sq
// takes from vic (ruling 5's dismount).
func (b *stBoard) dismount(sq sandtable.Square, vic sandtable.Side, vicBases int) int {
	g := 0
	for _, d := range stAll {
		n := sandtable.Sq(sq.File()+d[0], sq.Rank()+d[1])
		if n == sandtable.NoSquare || b.crater[n] {
			continue
		}
		if t := b.piece(n); t != nil {
			g = max(g, b.gainOn(t, vic, vicBases, true))
		}
	}
	return g
}

// droneRisk sums the worth of vic's opDrones most valuable pieces that
// att's pending Drones may hit: those within two squares of att's
// Infantry on the ground (a spotter stands where it declared; Bases are
// never targets).
func (b *stBoard) droneRisk(att, vic sandtable.Side, vicBases, opDrones int) int {
	var risks []int
	for i := range b.pcs {
		t := &b.pcs[i]
		if t.Owner != vic || !t.Carrier.IsZero() || t.ID.Kind == sandtable.Base || t.ID.Kind.IsHazard() {
			continue
		}
		reach := false
		for j := range b.pcs {
			s := &b.pcs[j]
			if s.ID.Kind == sandtable.Infantry && s.Owner == att && s.Carrier.IsZero() && sandtable.Dist(s.Square, t.Square) <= 2 {
				reach = true
				break
			}
		}
		if reach {
			risks = append(risks, b.gainOn(t, vic, vicBases, false))
		}
	}
	slices.Sort(risks)
	sum := 0
	for i := len(risks) - 1; i >= 0 && i >= len(risks)-opDrones; i-- {
		sum += risks[i]
	}
	return sum
}
