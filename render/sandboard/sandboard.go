// Package sandboard converts SandTable engine positions and turn logs into
// the renderer's input (render.SandTableBoard), the one conversion the bot
// and the `sandtable render` command share. It sits between games/sandtable
// and render so that neither imports the other.
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

// FromPosition converts an engine position (full, or a redacted view)
// into the renderer's input, secrets included: the renderer's View decides
// which of them are drawn. Pieces on the ground are listed with their crew
// counts (crew themselves stand inside their Vehicle); Drones that are
// hidden (another side's, in a redacted view) or cancelled are left out; a
// Drone's spotter square is where its Infantry stands (a Vehicle's square
// when it has boarded one). No last move is set (see LastMoves)
// and South is at the bottom.
func FromPosition(p *sandtable.Position) (render.SandTableBoard, error) {
	var b render.SandTableBoard
	for _, pc := range p.Pieces() {
		if !pc.Carrier.IsZero() {
			continue
		}
		k, ok := kinds[pc.Kind()]
		if !ok {
			return b, fmt.Errorf("piece %s has unknown kind %s", pc.ID, pc.Kind())
		}
		b.Pieces = append(b.Pieces, render.SandPiece{Square: render.Square(pc.Square), Kind: k, Owner: sides[pc.Owner], Crew: len(pc.Crew)})
	}
	for _, c := range p.Craters() {
		b.Craters = append(b.Craters, render.Square(c.Square))
	}
	for _, d := range p.Drones() {
		if d.Hidden || d.Cancelled {
			continue
		}
		spotter, ok := p.Piece(d.Spotter)
		if !ok {
			continue // a destroyed spotter cancels its Drone (ruling 7)
		}
		b.Drones = append(b.Drones, render.DroneOrder{Owner: sides[d.Side], Spotter: render.Square(spotter.Square), Target: render.Square(d.Target)})
	}
	if p.Phase() == sandtable.PhaseDeployment {
		for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
			d := p.Draft(side)
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

// Public is the public image's input: the position's pieces
// and Craters, the last Main action of log highlighted, and the side to move
// at the bottom. Drawn with render.ViewPublic it shows no secret; the game
// thread's images are exactly this.
func Public(p *sandtable.Position, log []sandtable.Entry) (render.SandTableBoard, error) {
	b, err := FromPosition(p)
	if err != nil {
		return b, err
	}
	b.VehiclePath, b.InfantrySteps = LastMoves(sandtable.FilterLog(log, sandtable.NoSide))
	b.Flipped = p.ToMove() == sandtable.North
	return b, nil
}
