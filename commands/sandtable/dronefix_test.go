package sandtable

import (
	"bytes"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/ui"
)

// TestRefusedDroneReopensTheForm: a Drone target the rules refuse is
// answered privately with a button that reopens the form with what was
// typed; the target is in no custom ID (they are logged) and in no log
// line; the refusal changes nothing.
func TestRefusedDroneReopensTheForm(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	var logs bytes.Buffer
	a.Log = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	putGame(t, store, `sandtable-position 1
phase postturn
to-move south
hazard-uses 2
piece SB1 a1
piece SB2 b1
piece SI1 d4
piece SI2 h2
piece NB1 t20
piece NI1 t19
piece NI2 f6
piece NT9 k20
piece NP9 l20
`)
	req := click(alice, "g:sand1:drone-order:1")
	req.Type, req.Fields = commands.ModalRequest, map[string]string{"spotter": "d4", "target": "q17"}
	r, err := a.Handle(req)
	require.NoError(t, err, "answered, not refused as an error")
	require.True(t, r.Ephemeral)
	require.Contains(t, r.Content, "Nothing changed")
	var fix ui.Button
	for _, row := range r.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok {
				fix = b
			}
		}
	}
	require.NotEmpty(t, fix.Route, "a button reopens the form")
	require.NotContains(t, fix.Route, "q17", "what was typed is in no custom ID")
	_, st, _ := sandGame(t, store)
	require.Empty(t, st.Drone[0], "nothing changed")

	r, err = a.Handle(click(alice, fix.Route))
	require.NoError(t, err)
	require.NotNil(t, r.Modal)
	values := map[string]string{}
	for _, in := range r.Modal.Inputs {
		values[in.CustomID] = in.Value
	}
	require.Equal(t, map[string]string{"spotter": "d4", "target": "q17"}, values, "the form comes back as typed")
	_, err = a.Handle(click(bob, fix.Route))
	require.Error(t, err, "not bob's form")
	require.NotContains(t, logs.String(), "q17", "the target reaches no log line")
}
