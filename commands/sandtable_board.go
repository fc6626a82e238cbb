package commands

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"sandtable/commands/ui"
	"sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
)

// SandTable board images and the plain-language turn log (issue 7 point 3).
// The conversion from an engine position to the renderer's input is
// render/sandboard's, so that the bot and `sandtable render` draw the same
// board.

// sandImageSize is the edge of every SandTable image the bot sends.
const sandImageSize = render.DefaultSandTableSize

// sandPublicFile renders the public board of the full position p: the
// engine's public view, with the last Main action of log.
func (a *App) sandPublicFile(p *sandtable.Position, log []sandtable.Entry) (*ui.File, error) {
	return a.sandViewFile(p, log, sandtable.NoSide, "board.png")
}

// sandPrivateFile renders side's private view: its deployment draft or its
// pending Drones on top of the public board, its own side at the bottom. It
// is drawn from the engine's view for side, so nothing of the other side's
// secrets can reach it.
func (a *App) sandPrivateFile(p *sandtable.Position, log []sandtable.Entry, side sandtable.Side, name string) (*ui.File, error) {
	return a.sandViewFile(p, log, side, name)
}

func (a *App) sandViewFile(p *sandtable.Position, log []sandtable.Entry, viewer sandtable.Side, name string) (*ui.File, error) {
	b, v, err := sandboard.Board(p, log, viewer)
	if err != nil {
		return nil, err
	}
	return a.sandPNG(&b, v, name)
}

func (a *App) sandPNG(b *render.SandTableBoard, v render.View, name string) (*ui.File, error) {
	var buf bytes.Buffer
	if err := a.Render.SandTablePNG(&buf, b, v, sandImageSize); err != nil {
		return nil, fmt.Errorf("rendering the SandTable board: %w", err)
	}
	return &ui.File{Name: name, ContentType: "image/png", Data: buf.Bytes()}, nil
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
		c.GroundInfantry, c.CrewInfantry, Plural(c.Tanks, "Tank", "Tanks"), Plural(c.Airplanes, "Airplane", "Airplanes"),
		c.Mines, c.AntiAir, c.Hazards, sandtable.HazardCap, c.Bases, c.PendingDrones)
}
