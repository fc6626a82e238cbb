package commands_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
)

// TestRegisterChecksRoutes: a route table with a collision or an unknown
// route panics at registration, naming the route; a sound one registers.
func TestRegisterChecksRoutes(t *testing.T) {
	t.Parallel()
	type spec = commands.Spec[commandstest.None]
	type acts = map[string]commands.Action[commandstest.None]
	act := func(*commands.Turn[commandstest.None]) (*commands.Response, error) { return nil, nil }
	top := func(*commands.App, *commands.Request) (*commands.Response, error) { return nil, nil }
	def := func(n string) []*ui.Command { return []*ui.Command{{Name: n, Description: "x"}} }
	first := spec{Name: "first", Title: "First", Definitions: def("first"), TopLevel: map[string]commands.Handler{"first": top}}
	for _, c := range []struct {
		name string
		spec spec
		want string // "" : registers
	}{
		{"sound", spec{Name: "good", Title: "Good", Definitions: def("poke"), Thread: acts{"poke": act, "move": act},
			Autocomplete: acts{"move": act}, Components: acts{"poke-it": act}, Modals: acts{"form": act}}, ""},
		{"top-level undefined", spec{Name: "x", TopLevel: map[string]commands.Handler{"x": top}}, "not among the game's Definitions"},
		{"top-level shared", spec{Name: "x", Definitions: def("games"), TopLevel: map[string]commands.Handler{"games": top}}, "is a shared command"},
		{"top-level twice", spec{Name: "x", Definitions: def("first"), TopLevel: map[string]commands.Handler{"first": top}}, "is also first's"},
		{"thread undefined", spec{Name: "x", Thread: acts{"poke": act}}, "/poke is defined nowhere"},
		{"autocomplete without command", spec{Name: "x", Autocomplete: acts{"move": act}}, "autocomplete of /move"},
		{"defined without route", spec{Name: "x", Definitions: def("lost")}, "/lost is defined but has no route"},
		{"framework's confirmation", spec{Name: "x", Components: acts{"confirm": act}}, "framework's confirmation"},
		{"invalid action", spec{Name: "x", Modals: acts{"Form:1": act}}, "not a valid custom ID action"},
		{"challenge action", spec{Name: "x", Invitations: map[string]commands.Handler{"accept": top},
			Start: func(*commands.Turn[commandstest.None], *commands.Challenge) (string, error) { return "", nil }}, "framework's challenge action"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, _, _ := commandstest.NewApp(t, func(a *commands.App) { commands.Register(a, commandstest.Toy{Routes: first}) })
			register := func() { commands.Register(a, commandstest.Toy{Routes: c.spec}) }
			if c.want == "" {
				require.NotPanics(t, register)
				return
			}
			defer func() {
				r := recover()
				require.NotNil(t, r, "registering panics")
				require.Contains(t, r, c.want)
			}()
			register()
		})
	}
}
