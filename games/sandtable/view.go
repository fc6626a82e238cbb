package sandtable

// View returns what viewer may see of the position: viewer is South or
// North for a player, NoSide for the public (spectators, the game thread).
// It is the one place that decides what is secret: images are drawn from
// a view (render/sandboard refuses a full position) and nothing filters
// again after it; FilterLog does the same for the turn log.
// The view is a redacted copy (Redacted set, Viewer = viewer) without the
// secrets of the rules (rule text, Deployment and Drones):
//   - during Deployment, every draft but the viewer's own is removed (only
//     whether it is confirmed remains);
//   - every Drone order of the other side becomes a hidden Drone: its count
//     is public, its spotter and target are not;
//   - the seed that decides the coin is removed.
//
// Everything else (all pieces, crews, Craters, counters) is public once the
// deployments are revealed. A view cannot be played on: Apply and the legal
// action generators refuse it. Filter the turn log with FilterLog.
func (p *Position) View(viewer Side) *Position {
	q := p.Clone()
	q.redacted = true
	q.viewer = viewer
	q.seed = 0
	for _, s := range []Side{South, North} {
		if s != viewer {
			q.drafts[s] = nil
		}
	}
	if q.phase != PhaseDeployment {
		q.drafts = [3]*Deployment{}
	}
	for i, d := range q.drones {
		if d.Side != viewer {
			q.drones[i] = Drone{Side: d.Side, Target: NoSquare, Hidden: true}
		}
	}
	return q
}
