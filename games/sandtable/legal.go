package sandtable

import (
	"fmt"
	"slices"
)

// This file generates legal actions for autocomplete and computer players.

func (p *Position) needPhase(ph Phase) error {
	if p.redacted {
		return fmt.Errorf("legal actions are computed on the full position, not on a redacted view")
	}
	if p.phase != ph {
		return illegal(RulePhase, "it is the %s phase, not %s", p.phase.Title(), ph.Title())
	}
	return nil
}

// LegalNextSteps returns, for an Infantry Main action whose first steps are
// prefix (applied in order), every legal next step, sorted by From then To.
// A crew exit is given once per Vehicle and square, as From = the Vehicle's
// square (the first crew member who has not moved steps out). An illegal
// prefix returns its *RuleError. Ending the action after the prefix is
// legal whenever prefix is not empty.
func (p *Position) LegalNextSteps(prefix []Step) ([]Step, error) {
	if err := p.needPhase(PhaseMain); err != nil {
		return nil, err
	}
	q := p.Clone()
	l := &logger{p: q, quiet: true}
	moved := map[ID]bool{}
	for i, st := range prefix {
		if err := q.infantryStep(l, st, moved); err != nil {
			return nil, wrapStep(i, st, err)
		}
	}
	return q.nextSteps(moved, false), nil
}

// nextSteps lists legal single steps; with first it stops at the first.
func (p *Position) nextSteps(moved map[ID]bool, first bool) []Step {
	side := p.toMove
	var out []Step
	for i := range p.pieces {
		pc := &p.pieces[i]
		if pc.Owner != side {
			continue
		}
		var who ID
		switch {
		case pc.ID.Kind == Infantry && pc.Carrier.IsZero():
			if moved[pc.ID] {
				continue
			}
			who = pc.ID
		case pc.ID.Kind.IsVehicle():
			for _, c := range pc.Crew {
				if !moved[c] {
					who = c
					break
				}
			}
			if who.IsZero() {
				continue
			}
		default:
			continue
		}
		for _, n := range neighbors(pc.Square) {
			if p.mayInfantryEnter(side, n) {
				out = append(out, Step{From: pc.Square, To: n})
				if first {
					return out
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Step) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		return int(a.To) - int(b.To)
	})
	return out
}

var orth = [][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
var allDirs = [][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

// vehicleDestinations lists the legal destinations of the mover's Vehicle
// on from (ruling 5); with first it stops at the first.
func (p *Position) vehicleDestinations(v *Piece, first bool) []Square {
	dirs := allDirs
	if v.ID.Kind == Tank {
		dirs = orth
	}
	var out []Square
	for _, d := range dirs {
		for n := 1; ; n++ {
			s := Sq(v.Square.File()+d[0]*n, v.Square.Rank()+d[1]*n)
			if s == NoSquare || p.hasCrater(s) {
				break
			}
			a := Action{Kind: ActVehicle, Vehicle: v.ID.Kind, From: v.Square, To: s}
			if _, _, err := p.vehiclePath(a); err == nil {
				out = append(out, s)
				if first {
					return out
				}
			}
			if t := p.ground(s); t != nil && t.ID.Kind.IsVehicle() && v.ID.Kind == Tank {
				break
			}
		}
	}
	return out
}

// LegalVehicleMoves returns every legal Vehicle move of the side to move,
// each without dismount and with each legal dismount square of its first
// crew member, in the order of pieces (ID), destinations, dismounts.
func (p *Position) LegalVehicleMoves() ([]Action, error) {
	if err := p.needPhase(PhaseMain); err != nil {
		return nil, err
	}
	var out []Action
	for i := range p.pieces {
		v := &p.pieces[i]
		if !v.ID.Kind.IsVehicle() || v.Owner != p.toMove {
			continue
		}
		out = append(out, p.vehicleActions(v.Square)...)
	}
	return out, nil
}

// VehicleMovesFrom returns the legal moves (with dismounts) of the side to
// move's Vehicle on sq, for autocomplete.
func (p *Position) VehicleMovesFrom(sq Square) ([]Action, error) {
	if err := p.needPhase(PhaseMain); err != nil {
		return nil, err
	}
	v := p.ground(sq)
	if v == nil || !v.ID.Kind.IsVehicle() || v.Owner != p.toMove {
		return nil, illegal(RulePiece, "%s holds no Vehicle of %s", sq, p.toMove)
	}
	return p.vehicleActions(sq), nil
}

func (p *Position) vehicleActions(from Square) []Action {
	v := p.ground(from)
	var out []Action
	for _, to := range p.vehicleDestinations(v, false) {
		a := Action{Kind: ActVehicle, Vehicle: v.ID.Kind, From: from, To: to}
		out = append(out, a)
		q := p.Clone()
		l := &logger{p: q, quiet: true}
		if err := q.vehicleMove(l, a); err != nil {
			continue
		}
		if q.get(v.ID) == nil {
			continue // destroyed on the way: no dismount
		}
		for _, n := range neighbors(to) {
			if q.mayInfantryEnter(q.toMove, n) {
				b := a
				b.Dismount = &Step{From: NoSquare, To: n}
				out = append(out, b)
			}
		}
	}
	return out
}

// HasLegalMain reports whether the side to move has any legal Main action
// (ruling 3: otherwise Main is skipped).
func (p *Position) HasLegalMain() bool {
	if len(p.nextSteps(nil, true)) > 0 {
		return true
	}
	for i := range p.pieces {
		v := &p.pieces[i]
		if v.ID.Kind.IsVehicle() && v.Owner == p.toMove && len(p.vehicleDestinations(v, true)) > 0 {
			return true
		}
	}
	return false
}

// LegalHazardUses returns every legal PostTurn hazard use of the side to
// move: Mines, then Anti-Air (both only below the cap and while their
// numbers last), then Drones (by spotter square), each in square order.
func (p *Position) LegalHazardUses() ([]Action, error) {
	if err := p.needPhase(PhasePostTurn); err != nil {
		return nil, err
	}
	side := p.toMove
	var out []Action
	if p.Hazards(side) < HazardCap {
		var sqs []Square
		for sq := Square(0); sq < NumSquares; sq++ {
			if p.ground(sq) != nil || p.hasCrater(sq) {
				continue
			}
			for _, n := range neighbors(sq) {
				if t := p.ground(n); t != nil && t.ID.Kind == Infantry && t.Owner == side {
					sqs = append(sqs, sq)
					break
				}
			}
		}
		for i, k := range []ActionKind{ActMine, ActAntiAir} {
			if p.nextHazard[side][i] >= MaxIDNumber {
				continue // numbers used up (G12)
			}
			for _, sq := range sqs {
				out = append(out, Action{Kind: k, From: NoSquare, To: sq})
			}
		}
	}
	droneRoom := p.PendingDrones(side) < NumSquares // the most a position holds
	for sq := Square(0); sq < NumSquares && droneRoom; sq++ {
		t := p.ground(sq)
		if t == nil || t.ID.Kind != Infantry || t.Owner != side {
			continue
		}
		for r := sq.Rank() - 2; r <= sq.Rank()+2; r++ {
			for f := sq.File() - 2; f <= sq.File()+2; f++ {
				tg := Sq(f, r)
				if tg != NoSquare && !p.baseSquare(tg) {
					out = append(out, Action{Kind: ActDrone, From: sq, To: tg})
				}
			}
		}
	}
	return out, nil
}

// LegalActions returns the legal actions of the phase: in Main every
// one-step Infantry action and every Vehicle move (longer Infantry actions
// are built with LegalNextSteps); in PostTurn every hazard use; otherwise
// none.
func (p *Position) LegalActions() []Action {
	switch p.phase {
	case PhaseMain:
		steps, _ := p.LegalNextSteps(nil)
		var out []Action
		for _, s := range steps {
			out = append(out, Action{Kind: ActInfantry, Steps: []Step{s}})
		}
		vm, _ := p.LegalVehicleMoves()
		return append(out, vm...)
	case PhasePostTurn:
		h, _ := p.LegalHazardUses()
		return h
	}
	return nil
}
