package commands

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sandtable/games/sandtable"
	"sandtable/render"
)

// SandTable board images and the plain-language turn log (issue 7 point 3).
// The conversion from an engine position to the renderer's input lives here
// so that the bot and `sandtable render` draw the same board.

var sandKinds = map[sandtable.Kind]render.SandPieceKind{
	sandtable.Infantry: render.Infantry, sandtable.Tank: render.Tank, sandtable.Airplane: render.Airplane,
	sandtable.Mine: render.Mine, sandtable.AntiAir: render.AntiAir, sandtable.Base: render.Base,
}

var sandSides = map[sandtable.Side]render.Side{
	sandtable.NoSide: render.Neutral, sandtable.South: render.South, sandtable.North: render.North,
}

// SandTableBoard converts an engine position (full, or a redacted view)
// into the renderer's input, secrets included: the renderer's View decides
// which of them are drawn. Pieces on the ground are listed with their crew
// counts (crew themselves stand inside their Vehicle); Drones that are
// hidden (another side's, in a redacted view) or cancelled are left out; a
// Drone's spotter square is where its Infantry stands (a Vehicle's square
// when it has boarded one). No last move is set (see SandTableLastMoves)
// and South is at the bottom.
func SandTableBoard(p *sandtable.Position) (render.SandTableBoard, error) {
	var b render.SandTableBoard
	for _, pc := range p.Pieces() {
		if !pc.Carrier.IsZero() {
			continue
		}
		k, ok := sandKinds[pc.Kind()]
		if !ok {
			return b, fmt.Errorf("piece %s has unknown kind %s", pc.ID, pc.Kind())
		}
		b.Pieces = append(b.Pieces, render.SandPiece{Square: render.Square(pc.Square), Kind: k, Owner: sandSides[pc.Owner], Crew: len(pc.Crew)})
	}
	for _, c := range p.Craters {
		b.Craters = append(b.Craters, render.Square(c.Square))
	}
	for _, d := range p.Drones {
		if d.Hidden || d.Cancelled {
			continue
		}
		spotter, ok := p.Piece(d.Spotter)
		if !ok {
			continue // a destroyed spotter cancels its Drone (ruling 7)
		}
		b.Drones = append(b.Drones, render.DroneOrder{Owner: sandSides[d.Side], Spotter: render.Square(spotter.Square), Target: render.Square(d.Target)})
	}
	if p.Phase == sandtable.PhaseDeployment {
		for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
			d := p.Drafts[side]
			if d == nil {
				continue
			}
			for sq := sandtable.Square(0); sq < sandtable.NumSquares; sq++ {
				k := d.At(sq)
				if k == sandtable.NoKind {
					continue
				}
				owner := sandSides[side]
				if k.IsVehicle() {
					owner = render.Neutral // deployed without crew (ruling 2)
				}
				b.Drafts[sandSides[side]] = append(b.Drafts[sandSides[side]], render.SandPiece{Square: render.Square(sq), Kind: sandKinds[k], Owner: owner})
			}
		}
	}
	return b, nil
}

// SandTableLastMoves returns the movement of the last Main action in
// entries (a turn log, oldest first), for the board's highlights: a Vehicle
// move as its start and end square (where it stopped or was destroyed),
// with the step of a crew member leaving it, or the steps of an Infantry
// action. Pass public entries (sandtable.FilterLog) for a public image.
func SandTableLastMoves(entries []sandtable.Entry) (path []render.Square, steps []render.Step) {
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

// SandTablePublicBoard is the public image's input: the position's pieces
// and Craters, the last Main action of log highlighted, and the side to move
// at the bottom. Drawn with render.ViewPublic it shows no secret; the game
// thread's images are exactly this.
func SandTablePublicBoard(p *sandtable.Position, log []sandtable.Entry) (render.SandTableBoard, error) {
	b, err := SandTableBoard(p)
	if err != nil {
		return b, err
	}
	b.VehiclePath, b.InfantrySteps = SandTableLastMoves(sandtable.FilterLog(log, sandtable.NoSide))
	b.Flipped = p.ToMove == sandtable.North
	return b, nil
}

// sandImageSize is the edge of every SandTable image the bot sends.
const sandImageSize = render.DefaultSandTableSize

// sandPublicFile renders the public board of the full position p.
func (a *App) sandPublicFile(p *sandtable.Position, log []sandtable.Entry) (*discordgo.File, error) {
	b, err := SandTablePublicBoard(p, log)
	if err != nil {
		return nil, err
	}
	return a.sandPNG(&b, render.ViewPublic, "board.png")
}

// sandPrivateFile renders side's private view: its deployment draft or its
// pending Drones on top of the public board, its own side at the bottom. It
// is drawn from the engine's redacted view for side, so nothing of the other
// side's secrets can reach it.
func (a *App) sandPrivateFile(p *sandtable.Position, log []sandtable.Entry, side sandtable.Side, name string) (*discordgo.File, error) {
	view := p.View(side)
	b, err := SandTableBoard(view)
	if err != nil {
		return nil, err
	}
	b.VehiclePath, b.InfantrySteps = SandTableLastMoves(sandtable.FilterLog(log, side))
	b.Flipped = side == sandtable.North
	v := render.ViewSouth
	if side == sandtable.North {
		v = render.ViewNorth
	}
	return a.sandPNG(&b, v, name)
}

func (a *App) sandPNG(b *render.SandTableBoard, v render.View, name string) (*discordgo.File, error) {
	var buf bytes.Buffer
	if err := a.Render.SandTablePNG(&buf, b, v, sandImageSize); err != nil {
		return nil, fmt.Errorf("rendering the SandTable board: %w", err)
	}
	return &discordgo.File{Name: name, ContentType: "image/png", Reader: &buf}, nil
}

// sandLogLines writes a turn log as short lines for people: a header per
// turn, then what happened, without the per-Infantry moves that the action
// line already says and without the PostTurn bookkeeping. Pass entries the
// reader may see.
func sandLogLines(entries []sandtable.Entry, name func(sandtable.Side) string) []string {
	var out []string
	for i, e := range entries {
		switch e.Kind {
		case sandtable.EntryTurn:
			out = append(out, fmt.Sprintf("**Turn %d: %s**", e.Turn, name(e.Side)))
			continue
		case sandtable.EntryDraft, sandtable.EntryHazardUses:
			continue
		case sandtable.EntryMove:
			if !e.Piece.Kind.IsVehicle() {
				continue
			}
		case sandtable.EntryAction:
			// "South played Mf5." is followed by "South placed Mine SM16 on f5."
			if i+1 < len(entries) && entries[i+1].Kind == sandtable.EntryPlace {
				continue
			}
		}
		out = append(out, "• "+e.Text)
	}
	return out
}

// clipLines joins lines, dropping the oldest ones to stay within max
// characters.
func clipLines(lines []string, max int) string {
	s := strings.Join(lines, "\n")
	for utf8.RuneCountInString(s) > max && len(lines) > 1 {
		lines = lines[1:]
		s = "…\n" + strings.Join(lines, "\n")
	}
	return Clip(s, max)
}

// sandCountsText is one side's material for the embed (issue 7 point 3):
// Infantry on the ground and in crews, Vehicles it controls, Mines and
// Anti-Air against the cap, Bases, pending Drones.
func sandCountsText(c sandtable.SideCounts) string {
	return fmt.Sprintf("Infantry: %d on the ground, %d in crews\nVehicles: %s, %s\nMines + Anti-Air: %d + %d = %d of %d\nBases: %d\nDrones pending: %d",
		c.GroundInfantry, c.CrewInfantry, plural(c.Tanks, "Tank", "Tanks"), plural(c.Airplanes, "Airplane", "Airplanes"),
		c.Mines, c.AntiAir, c.Hazards, sandtable.HazardCap, c.Bases, c.PendingDrones)
}
