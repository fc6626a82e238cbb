package sandtable

import (
	"fmt"
	"unicode/utf8"

	"sandtable/commands"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
)

// Autocomplete for /move and /step (ruling D10 in docs/rules/sandtable.md).
// The engine completes what was typed (Position.CompleteMove,
// CompleteSteps: whole legal actions, computed without the other side's
// secrets); this file turns its choices into Discord's: at most 25, a
// choice's name its value followed by its note in parentheses, within 100
// characters. Discord sends a picked choice's value as the option; the
// commands ignore parenthesised notes (engine.StripNotes), so a player who
// picks a choice and types on (the client then sends the name as typed
// text) still gets suggestions and a playable action.

// maxChoices and maxChoiceLen are Discord's limits: 25 choices, each name
// and value at most 100 characters.
const (
	maxChoices   = 25
	maxChoiceLen = 100
)

// limits are Discord's limits on the engine's completions.
var limits = engine.Limits{Max: maxChoices, MaxLen: maxChoiceLen}

// choices collects autocomplete choices: distinct values, at most
// maxChoices, none longer than Discord allows.
type choices struct {
	out  []*ui.Choice
	seen map[string]bool
}

func (c *choices) full() bool { return len(c.out) >= maxChoices }

// add offers value, named value plus note in parentheses (clipped to fit);
// it reports whether there is room for more.
func (c *choices) add(value, note string) bool {
	if c.full() {
		return false
	}
	if value == "" || utf8.RuneCountInString(value) > maxChoiceLen || c.seen[value] {
		return true
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[value] = true
	name := value
	if note != "" {
		// The note is cut to what fits; a note that would keep less than
		// two of its characters is left out.
		room := maxChoiceLen - utf8.RuneCountInString(value) - len(" ()")
		if room >= 3 || room >= utf8.RuneCountInString(note) {
			name = value + " (" + commands.Clip(note, room) + ")"
		}
	}
	c.out = append(c.out, &ui.Choice{Name: name, Value: value})
	return !c.full()
}

// uiChoices names the engine's choices for Discord.
func uiChoices(cs []engine.Choice) []*ui.Choice {
	var c choices
	for _, e := range cs {
		c.add(e.Value, e.Note)
	}
	return c.out
}

// mayComplete reports whether t's user gets /move's and /step's
// choices: the player to move, after Deployment, in a game that is on
// (ruling D16; the framework answers anyone else with whoseTurn).
func mayComplete(t *turn) bool {
	s := t.State
	if !t.Game.Active || s.over() || s.pos.Phase() == engine.PhaseDeployment {
		return false
	}
	side, ok := s.sideOf(t.Req.User.ID)
	return ok && side == s.pos.ToMove()
}

// whoseTurn is the one autocomplete choice of whoever may not act now.
func whoseTurn(s *State) string {
	switch {
	case s.over():
		return "This game is over"
	case s.pos.Phase() == engine.PhaseDeployment:
		return "Deployment: /move starts after both deployments are revealed"
	}
	side := s.pos.ToMove()
	return fmt.Sprintf("Waiting for %s (%s) to play turn %d", s.player(side).Name, side, s.pos.Turn())
}

// completer is the side of t's user when they may get suggestions: a
// player of a game that is on.
func completer(t *turn) (engine.Side, bool) {
	if !t.Game.Active || t.State.over() {
		return 0, false
	}
	return t.State.sideOf(t.Req.User.ID)
}

// moveAutocomplete offers the player to move (nobody else) legal actions
// completing what they typed: in Main, Infantry steps and Vehicle moves;
// in PostTurn, Mine and Anti-Air placements (never Drones, which are given
// in private).
func moveAutocomplete(t *turn) (*response, error) {
	side, ok := completer(t)
	if !ok {
		return &response{}, nil
	}
	return &response{Choices: uiChoices(t.State.pos.CompleteMove(side, t.Req.Typed("move"), limits))}, nil
}

// stepAutocomplete offers the player to move, in Main, legal steps to add
// to their draft.
func stepAutocomplete(t *turn) (*response, error) {
	side, ok := completer(t)
	if !ok {
		return &response{}, nil
	}
	return &response{Choices: uiChoices(t.State.pos.CompleteSteps(side, t.State.draftSteps(side), t.Req.Typed("step"), limits))}, nil
}
