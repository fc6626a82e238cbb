package commandstest

import (
	"sandtable/commands"
	"sandtable/storage"
)

// None is the state of a Toy: it has none.
type None struct{}

// Toy is a game with no state, no clock and no end, registered with
// commands.Register like any game: for tests of the router and of the bot's
// adapter that need commands, buttons or forms but no rules. Routes is its
// Spec; Line, when set, is its /games summary.
type Toy struct {
	Routes commands.Spec[None]
	Line   func(userID string) string
}

func (g Toy) Spec() commands.Spec[None]          { return g.Routes }
func (Toy) Version() int                         { return 1 }
func (Toy) Encode(None) ([]byte, error)          { return []byte("{}"), nil }
func (Toy) Decode(int, []byte) (None, error)     { return None{}, nil }
func (Toy) Clock(None) commands.Clock            { return commands.Clock{Rule: commands.NoClock} }
func (Toy) Outcome(None) (storage.Outcome, bool) { return storage.Outcome{}, false }
func (Toy) Timeout(*commands.Turn[None]) error   { return nil }
func (g Toy) Summary(_ *storage.Game, _ None, userID string) string {
	if g.Line == nil {
		return ""
	}
	return g.Line(userID)
}
