package teamchess

import (
	"encoding/json"
	"fmt"

	"sandtable/games/chess"
)

// ActionKind names a stored action.
type ActionKind string

// The action kinds. Automatic consequences (passes, fatigue tag-outs,
// Political Agent tag-outs, results) are not stored: replay recomputes them.
const (
	ActMove          ActionKind = "move"           // Move: UCI-style (Move.UCI)
	ActTagOut        ActionKind = "tagout"         // voluntary tag-out (rule 1.2)
	ActTimeout       ActionKind = "timeout"        // move timer ran out (ruling B1)
	ActResign        ActionKind = "resign"         // ruling 6
	ActSiegeWin      ActionKind = "siege_win"      // rule 2.1
	ActSiegeContinue ActionKind = "siege_continue" // rule 2.1
)

// Action is one decision of a player (or of the bot's timer), as stored.
// Side is "white" or "black"; By is the acting member's ID ("" for the
// bot's own decisions); Move is set for ActMove.
type Action struct {
	Kind ActionKind `json:"kind"`
	Side string     `json:"side"`
	By   string     `json:"by,omitempty"`
	Move string     `json:"move,omitempty"`
}

func sideName(c chess.Color) string { return c.String() }

func parseSide(s string) (chess.Color, error) {
	switch s {
	case "white", "w":
		return chess.White, nil
	case "black", "b":
		return chess.Black, nil
	}
	return chess.White, fmt.Errorf("unknown side %q (expected white or black)", s)
}

// StateVersion is the version of the State layout written by this code.
const StateVersion = 1

// State is a game's serialisable form: the start position, the queues and
// every action in order. Restore replays it deterministically.
type State struct {
	Version  int      `json:"version"`
	StartFEN string   `json:"start_fen"`
	White    []Member `json:"white"`
	Black    []Member `json:"black"`
	Actions  []Action `json:"actions"`
}

// State returns the game's serialisable form (copies).
func (g *Game) State() State {
	return State{
		Version:  StateVersion,
		StartFEN: g.setup.FEN,
		White:    append([]Member(nil), g.setup.White...),
		Black:    append([]Member(nil), g.setup.Black...),
		Actions:  append([]Action(nil), g.actions...),
	}
}

// Restore rebuilds a game by replaying s. The error names the first action
// that fails.
func Restore(s State) (*Game, error) {
	if s.Version != StateVersion {
		return nil, fmt.Errorf("unsupported Team Chess state version %d (this code reads %d)", s.Version, StateVersion)
	}
	g, err := NewGame(Setup{FEN: s.StartFEN, White: s.White, Black: s.Black})
	if err != nil {
		return nil, err
	}
	for i, a := range s.Actions {
		if _, err := g.Apply(a); err != nil {
			return nil, fmt.Errorf("action %d (%s %s %s): %w", i+1, a.Side, a.Kind, a.Move, err)
		}
	}
	return g, nil
}

// MarshalJSON encodes State().
func (g *Game) MarshalJSON() ([]byte, error) { return json.Marshal(g.State()) }

// Load decodes a State written by MarshalJSON and restores the game.
func Load(data []byte) (*Game, error) {
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("decoding Team Chess state: %w", err)
	}
	return Restore(s)
}
