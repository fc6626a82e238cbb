package sandtable

import "fmt"

// Playable returns a playable copy of a player's view (see View), for
// computer players and what-if analysis: the legal generators and Apply
// work on it, and it holds nothing the viewer may not see. The other
// side's hidden Drone orders are dropped (their spotters and targets are
// unknown, so a simulated end of the other side's turn resolves nothing),
// as are the other side's draft and the coin's seed, which the view has
// already removed. The viewer's own Drone orders and draft stay.
//
// It refuses a full position (a player must be handed only its view, so
// that its choices cannot depend on the other side's secrets) and a
// public view (NoSide).
func (p *Position) Playable() (*Position, error) {
	if !p.redacted {
		return nil, fmt.Errorf("Playable takes a player's view (Position.View), not a full position")
	}
	if p.viewer != South && p.viewer != North {
		return nil, fmt.Errorf("Playable takes a player's view, not the public view")
	}
	q := p.Clone()
	q.redacted = false
	q.viewer = NoSide
	q.seed = 0
	var keep []Drone
	for _, d := range q.drones {
		if !d.Hidden {
			keep = append(keep, d)
		}
	}
	q.drones = keep
	return q, nil
}
