package sandtable

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
)

// sandFirstTurn is a real game's first Main turn: both sides deployed a
// preset and confirmed, the coin chose who moves first.
func sandFirstTurn(t *testing.T, seed uint64, south, north string) *engine.Position {
	t.Helper()
	pos := engine.NewGame(seed)
	for side, preset := range map[engine.Side]string{engine.South: south, engine.North: north} {
		_, err := pos.Apply(engine.Action{Kind: engine.ActDeployPreset, Side: side, Name: preset})
		require.NoError(t, err)
	}
	for _, side := range []engine.Side{engine.South, engine.North} {
		_, err := pos.Apply(engine.Action{Kind: engine.ActDeployConfirm, Side: side})
		require.NoError(t, err)
	}
	require.Equal(t, engine.PhaseMain, pos.Phase())
	require.Equal(t, 1, pos.Turn())
	return pos
}

// TestSandAutocompleteNames: the engine's choices become Discord's, named
// by their value and note (the engine's tests cover which choices).
func TestSandAutocompleteNames(t *testing.T) {
	t.Parallel()
	pos, err := engine.ParsePosition(mainPos)
	require.NoError(t, err)
	cs := uiChoices(pos.CompleteMove(engine.South, "e4-e5", limits))
	require.Equal(t, "e4-e5 (Infantry SI2)", cs[0].Name)
	require.Equal(t, "e4-e5", cs[0].Value)
	act, err := moveAction(cs[0].Name + " f4-f5")
	require.NoError(t, err, "a name typed on is read without its note")
	require.Equal(t, "e4-e5 f4-f5", act.String())
}

// TestSandAutocompleteAnswersAreAccepted: choices offered through the
// router, submitted as the option, are played by /move and added by
// /step (a few per list: every handler call draws a board).
func TestSandAutocompleteAnswersAreAccepted(t *testing.T) {
	t.Parallel()
	pos := sandFirstTurn(t, 3, "skirmish", "fortress")
	mover := alice
	if pos.ToMove() == engine.North {
		mover = bob
	}
	ask := func(a *commands.App, command, typed string) []*ui.Choice {
		req := cmd(mover, command, "", map[string]string{command: typed})
		req.Type, req.Focused = commands.AutocompleteRequest, command
		resp, err := a.Handle(req)
		require.NoError(t, err)
		return resp.Choices
	}
	a, _, store := newApp(t)
	putGame(t, store, pos.Format())
	moves := ask(a, "move", "")
	require.Len(t, moves, 25)
	steps := ask(a, "step", "")
	require.NotEmpty(t, steps)
	other := bob
	if mover == bob {
		other = alice
	}
	req := cmd(other, "move", "", map[string]string{"move": ""})
	req.Type, req.Focused = commands.AutocompleteRequest, "move"
	resp, err := a.Handle(req)
	require.NoError(t, err)
	require.Len(t, resp.Choices, 1, "one choice for the player not to move")
	require.Equal(t, commands.WaitingValue, resp.Choices[0].Value)
	require.Contains(t, resp.Choices[0].Name, "Waiting for "+mover.Name)

	for i, c := range []*ui.Choice{moves[0], moves[24]} {
		a, _, store := newApp(t)
		putGame(t, store, pos.Format())
		resp, err := a.Handle(cmd(mover, "move", "", map[string]string{"move": c.Value}))
		require.NoError(t, err, "choice %d %q", i, c.Value)
		require.Contains(t, resp.Content, fmt.Sprintf("played **%s**", c.Value))
	}
	resp, err = a.Handle(cmd(mover, "step", "", map[string]string{"step": steps[0].Value}))
	require.NoError(t, err)
	more := ask(a, "step", "")
	require.NotEmpty(t, more)
	resp, err = a.Handle(cmd(mover, "step", "", map[string]string{"step": more[len(more)-1].Value}))
	require.NoError(t, err, "step choice %q after the draft", more[len(more)-1].Value)
	require.Contains(t, resp.Cards[0].Description, "2. ")
}

// TestSandChoiceNamesFit: a long note is clipped to Discord's 100
// characters (code points, not bytes: a multi-byte note keeps as much as
// an ASCII one), closed, and never cuts the value.
func TestSandChoiceNamesFit(t *testing.T) {
	t.Parallel()
	var c choices
	c.add("e4-e5", strings.Repeat("é", 120))
	name := c.out[0].Name
	require.Equal(t, 100, utf8.RuneCountInString(name))
	require.True(t, strings.HasPrefix(name, "e4-e5 (é"))
	require.True(t, strings.HasSuffix(name, "é…)"))
	require.True(t, utf8.ValidString(name))
	require.Equal(t, "e4-e5", strings.TrimSpace(engine.StripNotes(name)))
	c.add("e5-e6", strings.Repeat("🏰", 92)) // exactly 100 characters with the value
	require.Equal(t, "e5-e6 ("+strings.Repeat("🏰", 92)+")", c.out[1].Name, "a note that fits is whole")
	c.out = c.out[:1]
	long := strings.TrimSpace(strings.Repeat("a1-a2 ", 16)) // 95 characters
	c.add(long, "a note")
	require.Equal(t, long, c.out[1].Name, "no room for a note")
	c.add(strings.Repeat("a", 101), "too long a value")
	require.Len(t, c.out, 2, "a value over 100 characters is left out")
}
