// Package sandboard converts the SandTable engine's views and turn logs
// into the renderer's input (render.SandTableBoard), the one conversion the
// bot and the `sandtable render` command share. It sits between
// games/sandtable and render so that neither imports the other. It draws
// from the engine's view for one viewer only (Position.View, the one place
// that decides what is secret) and filters nothing itself.
package sandboard

import (
	"fmt"

	"sandtable/games/sandtable"
	"sandtable/render"
)

var kinds = map[sandtable.Kind]render.SandPieceKind{
	sandtable.Infantry: render.Infantry, sandtable.Tank: render.Tank, sandtable.Airplane: render.Airplane,
	sandtable.Mine: render.Mine, sandtable.AntiAir: render.AntiAir, sandtable.Base: render.Base,
}

var sides = map[sandtable.Side]render.Side{
	sandtable.NoSide: render.Neutral, sandtable.South: render.South, sandtable.North: render.North,
}

// FromView converts the engine's view for one viewer (Position.View) into
// the renderer's input, which draws all of it: the pieces on the ground
// with their crew counts (crew themselves stand inside their Vehicle), the
// Craters, the Drone orders the view shows (not the hidden or cancelled
// ones; a Drone's spotter square is where its Infantry stands, a Vehicle's
// square when it has boarded one) and, in Deployment, the drafts the view
// holds. The view has decided what is secret; nothing is filtered here. A
// full position is refused: it holds every secret. No last move is set
// (see LastMoves) and South is at the bottom.
func FromView(v *sandtable.Position) (render.SandTableBoard, error) {
	var b render.SandTableBoard
	if !v.Redacted() {
		return b, fmt.Errorf("sandboard: a board is drawn from a view (Position.View), not from a full position")
	}
	for _, pc := range v.Pieces() {
		if !pc.Carrier.IsZero() {
			continue
		}
		k, ok := kinds[pc.Kind()]
		if !ok {
			return b, fmt.Errorf("piece %s has unknown kind %s", pc.ID, pc.Kind())
		}
		b.Pieces = append(b.Pieces, render.SandPiece{Square: render.Square(pc.Square), Kind: k, Owner: sides[pc.Owner], Crew: len(pc.Crew)})
	}
	for _, c := range v.Craters() {
		b.Craters = append(b.Craters, render.Square(c.Square))
	}
	for _, d := range v.Drones() {
		if d.Hidden || d.Cancelled || d.Target == sandtable.NoSquare {
			// NoSquare: an order a finished game's record keeps hidden
			continue
		}
		spotter, ok := v.Piece(d.Spotter)
		if !ok {
			continue // a destroyed spotter cancels its Drone (ruling 7)
		}
		b.Drones = append(b.Drones, render.DroneOrder{Owner: sides[d.Side], Spotter: render.Square(spotter.Square), Target: render.Square(d.Target)})
	}
	if v.Phase() == sandtable.PhaseDeployment {
		for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
			d := v.Draft(side)
			if d == nil {
				continue
			}
			for sq := sandtable.Square(0); sq < sandtable.NumSquares; sq++ {
				k := d.At(sq)
				if k == sandtable.NoKind {
					continue
				}
				owner := sides[side]
				if k.IsVehicle() {
					owner = render.Neutral // deployed without crew (ruling 2)
				}
				b.Drafts[sides[side]] = append(b.Drafts[sides[side]], render.SandPiece{Square: render.Square(sq), Kind: kinds[k], Owner: owner})
			}
		}
	}
	return b, nil
}

// LastMoves returns the movement of the last Main action in
// entries (a turn log, oldest first), for the board's highlights: a Vehicle
// move as its start and end square (where it stopped or was destroyed),
// with the step of a crew member leaving it, or the steps of an Infantry
// action. Pass public entries (sandtable.FilterLog) for a public image.
func LastMoves(entries []sandtable.Entry) (path []render.Square, steps []render.Step) {
	start := -1
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.Kind == sandtable.EntryAction && e.Phase == sandtable.PhaseMain {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, nil
	}
	for _, e := range entries[start+1:] {
		if e.Phase != sandtable.PhaseMain || e.Kind == sandtable.EntryAction {
			break
		}
		switch {
		case e.Kind == sandtable.EntryMove && e.Piece.Kind.IsVehicle():
			if e.From != e.To && e.From.Valid() && e.To.Valid() {
				path = []render.Square{render.Square(e.From), render.Square(e.To)}
			}
		case e.Kind == sandtable.EntryMove || e.Kind == sandtable.EntryLeave:
			if e.From.Valid() && e.To.Valid() && sandtable.Adjacent(e.From, e.To) {
				steps = append(steps, render.Step{From: render.Square(e.From), To: render.Square(e.To)})
			}
		}
	}
	return path, steps
}

// Board is viewer's image of p (NoSide: the public one): the engine's
// view of p for viewer (FromView), the last Main action of log as viewer
// may see it (sandtable.FilterLog) highlighted, and the orientation: a
// player's own side at the bottom, South in the public image (always, so
// spectators keep their bearings; set Flipped for North's side).
// It returns the frame to draw it with.
func Board(p *sandtable.Position, log []sandtable.Entry, viewer sandtable.Side) (render.SandTableBoard, render.View, error) {
	b, err := FromView(p.View(viewer))
	if err != nil {
		return b, render.ViewPublic, err
	}
	b.VehiclePath, b.InfantrySteps = LastMoves(sandtable.FilterLog(log, viewer))
	switch viewer {
	case sandtable.South:
		return b, render.ViewSouth, nil
	case sandtable.North:
		b.Flipped = true
		return b, render.ViewNorth, nil
	}
	return b, render.ViewPublic, nil
}
