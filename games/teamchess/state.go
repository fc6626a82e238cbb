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
// Version 2 stores the result of a finished game (State.Result). Version 1
// states, written before, are still read: their finished games keep the
// category the honour rule of their time gave them (see Restore).
const StateVersion = 2

// State is a game's serialisable form: the start position, the queues,
// every action in order and, once the game is over, its result. Restore
// replays it deterministically.
type State struct {
	Version  int      `json:"version"`
	StartFEN string   `json:"start_fen"`
	White    []Member `json:"white"`
	Black    []Member `json:"black"`
	Actions  []Action `json:"actions"`
	// Result is the result the game was given when it ended (nil while it
	// goes on, and in version 1 states). Restore keeps its category, so a
	// finished game is never re-scored by a later rule.
	Result *StoredResult `json:"result,omitempty"`
}

// StoredResult is a finished game's result as stored: the Category key
// ("honourable_checkmate") and the winner ("white" or "black"; empty for a
// mutual loss).
type StoredResult struct {
	Category string `json:"category"`
	Winner   string `json:"winner,omitempty"`
}

// State returns the game's serialisable form (copies).
func (g *Game) State() State {
	s := State{
		Version:  StateVersion,
		StartFEN: g.setup.FEN,
		White:    append([]Member(nil), g.setup.White...),
		Black:    append([]Member(nil), g.setup.Black...),
		Actions:  append([]Action(nil), g.actions...),
	}
	if g.result.Over() {
		s.Result = &StoredResult{Category: g.result.Category.Key()}
		if g.result.HasWinner() {
			s.Result.Winner = sideName(g.result.Winner)
		}
	}
	return s
}

// Restore rebuilds a game by replaying s. The error names the first action
// that fails.
//
// The result keeps the category it was stored with: the replay must end
// the game the same way (same winner, same category, except that a
// checkmate's honour may differ, since the honour rule changed), and the
// stored category wins. A finished version 1 game, which has no stored
// result, gets the category of the honour rule of its time (a checkmate
// was dishonourable when the mating move was a sacrifice, the mating
// team's first move after one of its own sacrifices, or a Saboteur's
// forced move). A finished version 2 game without a stored result is
// refused.
func Restore(s State) (*Game, error) {
	if s.Version != StateVersion && s.Version != 1 {
		return nil, fmt.Errorf("unsupported Team Chess state version %d (this code reads 1 to %d)", s.Version, StateVersion)
	}
	g, err := NewGame(Setup{FEN: s.StartFEN, White: s.White, Black: s.Black})
	if err != nil {
		return nil, err
	}
	g.restoring = true
	for i, a := range s.Actions {
		if _, err := g.Apply(a); err != nil {
			return nil, fmt.Errorf("action %d (%s %s %s): %w", i+1, a.Side, a.Kind, a.Move, err)
		}
	}
	g.restoring = false
	switch {
	case s.Result != nil:
		if err := g.keepStoredResult(*s.Result); err != nil {
			return nil, err
		}
	case g.phase != Finished:
	case s.Version == 1:
		if isMate(g.result.Category) {
			g.setCategory(g.v1Mate)
		}
	default:
		return nil, fmt.Errorf("the game is over (%s) but its state has no stored result", g.result)
	}
	return g, nil
}

// keepStoredResult gives the replayed game the stored result's category,
// after checking that the replay ended the game the same way.
func (g *Game) keepStoredResult(r StoredResult) error {
	c, ok := parseCategory(r.Category)
	if !ok {
		return fmt.Errorf("stored result: unknown category %q", r.Category)
	}
	want := Result{Category: c}
	if c != MutualLoss {
		w, err := parseSide(r.Winner)
		if err != nil {
			return fmt.Errorf("stored result: %w", err)
		}
		want.Winner = w
	} else if r.Winner != "" {
		return fmt.Errorf("stored result: a mutual loss has no winner (got %q)", r.Winner)
	}
	got := g.result
	same := got.Over() && got.HasWinner() == want.HasWinner() && (!got.HasWinner() || got.Winner == want.Winner) &&
		(got.Category == c || isMate(got.Category) && isMate(c))
	if !same {
		return fmt.Errorf("the stored result (%s) does not match the replayed game (%s)", want, got)
	}
	g.setCategory(c)
	return nil
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
