package sandtable

import "fmt"

// This file holds previews: what an action of one side would do, computed
// without the other side's secrets, for drafts, order confirmations and
// autocomplete notes.

// withoutSecretsOf returns a copy of p without side's secrets that could
// show through a simulated action: its pending Drone orders (a simulated
// end of turn would resolve them, showing their targets) and, in
// Deployment, its draft and the coin's seed. The copy stays playable (it
// is not a redacted view), so that the legal generators and Apply work
// on it.
func (p *Position) withoutSecretsOf(side Side) *Position {
	q := p.Clone()
	var keep []Drone
	for _, d := range q.drones {
		if d.Side != side {
			keep = append(keep, d)
		}
	}
	q.drones = keep
	if q.phase == PhaseDeployment {
		q.drafts[side] = nil
		q.seed = 0
	}
	return q
}

// Preview returns side's view (see View) of the position after side's
// action a, and the log entries side may see, without changing p. The
// action is tried on a copy from which the other side's secrets are
// removed first, so neither the result nor the log depends on them: a
// preview whose turn passes does not resolve the other side's Drones.
//
// Only the side to move's Main actions and hazard uses can be previewed;
// anything else, like an illegal action, returns the error Apply would
// give (a *RuleError for a rule) and no position.
func (p *Position) Preview(side Side, a Action) (*Position, []Entry, error) {
	if p.redacted {
		return nil, nil, fmt.Errorf("cannot preview an action on a redacted view")
	}
	if side != South && side != North || side != p.toMove || p.phase != PhaseMain && p.phase != PhasePostTurn {
		return nil, nil, illegal(RuleTurn, "only the side to move's Main action or hazard use can be previewed")
	}
	switch a.Kind {
	case ActInfantry, ActVehicle, ActMine, ActAntiAir, ActDrone:
	default:
		return nil, nil, illegal(RulePhase, "%s is not a Main action or a hazard use", quote(a.String()))
	}
	q := p.withoutSecretsOf(side.Opp())
	entries, err := q.Apply(a)
	if err != nil {
		return nil, nil, err
	}
	return q.View(side), FilterLog(entries, side), nil
}
