package commands

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/games/sandtable"
)

// sandFirstTurn is a real game's first Main turn: both sides deployed a
// preset and confirmed, the coin chose who moves first.
func sandFirstTurn(t *testing.T, seed uint64, south, north string) *sandtable.Position {
	t.Helper()
	pos := sandtable.NewGame(seed)
	for side, preset := range map[sandtable.Side]string{sandtable.South: south, sandtable.North: north} {
		_, err := pos.Apply(sandtable.Action{Kind: sandtable.ActDeployPreset, Side: side, Name: preset})
		require.NoError(t, err)
	}
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		_, err := pos.Apply(sandtable.Action{Kind: sandtable.ActDeployConfirm, Side: side})
		require.NoError(t, err)
	}
	require.Equal(t, sandtable.PhaseMain, pos.Phase)
	require.Equal(t, 1, pos.Turn)
	return pos
}

// completePositions are Main positions for the autocomplete tests: crews
// stepping out, neutral and enemy Vehicles to board or capture, Airplanes,
// a Base in reach, North to move, and real first turns.
func completePositions(t *testing.T) map[string]*sandtable.Position {
	t.Helper()
	out := map[string]*sandtable.Position{}
	for name, text := range map[string]string{
		"main": mainPos,
		"vehicles": `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SB2 b1
piece ST1 c3 SI1 SI4
piece SP1 h2 SI5
piece SI2 e4
piece SI3 f4
piece SI6 j9
piece NB1 k10
piece NI1 t19
piece NI2 g5
piece NT1 e5 NI3
piece NT9 f3
piece NP9 l20
piece NM1 i10
`,
		"north": `sandtable-position 1
phase main
to-move north
piece SB1 a1
piece SI1 e8
piece ST9 d13
piece NB1 t20
piece NI1 e9
piece NI2 e12
piece NT1 c14 NI3
piece NP1 p15 NI4 NI5
`,
	} {
		pos, err := sandtable.ParsePosition(text)
		require.NoError(t, err, name)
		pos.Advance()
		require.Equal(t, sandtable.PhaseMain, pos.Phase, name)
		out[name] = pos
	}
	out["first turn phalanx"] = sandFirstTurn(t, 1, "phalanx", "phalanx")
	out["first turn fortress/skirmish"] = sandFirstTurn(t, 2, "fortress", "skirmish")
	return out
}

// typedPrefixes are what a player may have typed in /move or /step: for
// each of pos's pieces that can act, its square, the square and a dash,
// one legal step and a space, plus fixed texts.
func typedPrefixes(t *testing.T, pos *sandtable.Position) []string {
	t.Helper()
	typed := []string{"", " ", "e", "e4", "e4-", "e4-e5 ", "e4-e5 f", "e4-e3 ", "e4-e5 e4-e3 ", "zz", "T", "P", "M", "A", "D", "c3", "Tc3", "Tc3-", "Tc3-c", "Tc3-c4", "Ph2-", "Tc14-"}
	steps, err := pos.LegalNextSteps(nil)
	require.NoError(t, err)
	seen := map[sandtable.Square]bool{}
	for _, s := range steps {
		if seen[s.From] {
			continue
		}
		seen[s.From] = true
		typed = append(typed, s.From.String(), s.From.String()+"-", s.String()+" ", s.String()+" "+s.From.String())
	}
	return typed
}

// requirePlayable checks every choice: within Discord's limits, its name
// starting with its value (so that typing on after picking it still
// reads), and its value, and its name as typed text, accepted by /move.
func requirePlayable(t *testing.T, pos *sandtable.Position, typed string, cs []*ui.Choice) {
	t.Helper()
	require.LessOrEqual(t, len(cs), 25, "typed %q", typed)
	for _, c := range cs {
		v := c.Value
		require.LessOrEqual(t, len(v), 100)
		require.LessOrEqual(t, len(c.Name), 100)
		require.True(t, strings.HasPrefix(c.Name, v+" (") || c.Name == v, "name %q starts with value %q", c.Name, v)
		act, err := sandMoveAction(v)
		require.NoError(t, err, "typed %q: choice %q", typed, v)
		_, err = pos.Clone().Apply(act)
		require.NoError(t, err, "typed %q: choice %q is not legal", typed, v)
		byName, err := sandMoveAction(c.Name)
		require.NoError(t, err, "the name %q as typed text", c.Name)
		require.Equal(t, act.String(), byName.String())
	}
}

// TestSandAutocompleteChoicesArePlayable: whatever is typed, every /move
// choice is a whole legal action that /move accepts as it is; the
// commonest texts get choices.
func TestSandAutocompleteChoicesArePlayable(t *testing.T) {
	for name, pos := range completePositions(t) {
		t.Run(name, func(t *testing.T) {
			for _, typed := range typedPrefixes(t, pos) {
				cs := mainChoices(pos, nil, typed, true)
				requirePlayable(t, pos, typed, cs)
				if typed == "" {
					require.Len(t, cs, 25, "nothing typed: a full list")
				}
			}
			steps, err := pos.LegalNextSteps(nil)
			require.NoError(t, err)
			for _, s := range steps[:min(len(steps), 12)] {
				for _, typed := range []string{s.From.String(), s.From.String() + "-", s.String(), s.String() + " "} {
					require.NotEmpty(t, mainChoices(pos, nil, typed, true), "typed %q", typed)
				}
			}
			moves, err := pos.LegalVehicleMoves()
			require.NoError(t, err)
			done := map[string]bool{}
			for _, m := range moves {
				base, _, _ := strings.Cut(m.String(), "/")
				for _, typed := range []string{base[:1], base[:strings.Index(base, "-")], base[:strings.Index(base, "-")+1], base} {
					if done[typed] {
						continue
					}
					done[typed] = true
					cs := mainChoices(pos, nil, typed, true)
					requirePlayable(t, pos, typed, cs)
					require.NotEmpty(t, cs, "typed %q", typed)
				}
			}
		})
	}
}

// TestSandAutocompleteTypingOn: picking a choice and typing on (the client
// then sends the choice's name with what follows) offers the choice's
// steps plus one more.
func TestSandAutocompleteTypingOn(t *testing.T) {
	pos, err := sandtable.ParsePosition(mainPos)
	require.NoError(t, err)
	first := mainChoices(pos, nil, "e4-e5", true)
	require.Equal(t, "e4-e5 (Infantry SI2)", first[0].Name)
	next := mainChoices(pos, nil, first[0].Name+" f4", true)
	require.NotEmpty(t, next)
	for _, c := range next {
		require.True(t, strings.HasPrefix(c.Value, "e4-e5 f4-"), c.Value)
	}
	requirePlayable(t, pos, first[0].Name+" f4", next)
	bad := mainChoices(pos, nil, "e4-e5 e4-e3 ", true)
	require.Equal(t, []string{"e4-e5 (then e4-e3 is not legal: there is no piece on e4)"}, choiceNames(bad))
	require.Equal(t, "e4-e5", bad[0].Value)
}

func choiceNames(cs []*ui.Choice) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

// TestSandStepChoicesArePlayable: every /step choice adds legal steps to
// the draft, which /step accepts as they are.
func TestSandStepChoicesArePlayable(t *testing.T) {
	for name, pos := range completePositions(t) {
		t.Run(name, func(t *testing.T) {
			steps, err := pos.LegalNextSteps(nil)
			require.NoError(t, err)
			for _, draft := range [][]sandtable.Step{nil, steps[:1]} {
				for _, typed := range typedPrefixes(t, pos) {
					cs := mainChoices(pos, draft, typed, false)
					if typed == "" {
						require.NotEmpty(t, cs)
					}
					for _, c := range cs {
						v := c.Value
						require.True(t, strings.HasPrefix(c.Name, v+" (") || c.Name == v, "name %q starts with value %q", c.Name, v)
						act, err := sandStepAction(v)
						require.NoError(t, err, "draft %v, typed %q: choice %q", draft, typed, v)
						_, err = pos.LegalNextSteps(append(append([]sandtable.Step{}, draft...), act.Steps...))
						require.NoError(t, err, "draft %v, typed %q: choice %q", draft, typed, v)
					}
				}
			}
		})
	}
}

// TestSandAutocompleteMixesKinds: with nothing typed, the list holds both
// Vehicle moves and Infantry steps, several pieces of each, captures
// first; in PostTurn, Mines and Anti-Air.
func TestSandAutocompleteMixesKinds(t *testing.T) {
	pos := completePositions(t)["vehicles"]
	cs := mainChoices(pos, nil, "", true)
	kinds := map[sandtable.ActionKind]int{}
	pieces := map[string]bool{}
	for _, c := range cs {
		act, err := sandMoveAction(c.Value)
		require.NoError(t, err)
		kinds[act.Kind]++
		if act.Kind == sandtable.ActVehicle {
			pieces[act.From.String()] = true
		} else {
			pieces[act.Steps[0].From.String()] = true
		}
	}
	require.Greater(t, kinds[sandtable.ActVehicle], 1)
	require.Greater(t, kinds[sandtable.ActInfantry], 10)
	require.Len(t, pieces, 5, "every piece that can act is in the list, not one piece's moves only")
	var infantry []string
	for _, c := range cs {
		if act, _ := sandMoveAction(c.Value); act.Kind == sandtable.ActInfantry {
			infantry = append(infantry, c.Name)
		}
	}
	require.Equal(t, "j9-k10 (Infantry SI6 destroys North's Base NB1)", infantry[0], "the most valuable capture comes first: %v", infantry)
	require.Contains(t, infantry[1], "captures North's Tank NT1", "captures come first: %v", infantry)
	require.Contains(t, choiceNames(cs), "f4-f3 (Infantry SI3 boards the neutral Tank NT9)")

	first := sandFirstTurn(t, 1, "phalanx", "phalanx")
	names := strings.Join(choiceNames(mainChoices(first, nil, "", true)), "\n")
	require.Contains(t, names, "boards the neutral Tank", "the first turn offers crewing Vehicles")

	post, err := sandtable.ParsePosition("sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 2\npiece SB1 a1\npiece SB2 b1\npiece SI2 e4\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n")
	require.NoError(t, err)
	for _, typed := range []string{"", "M", "mf", "A", "Ae", "e5", "f", "Me5 (place a Mine on e5)"} {
		hz := hazardChoices(post, typed)
		require.NotEmpty(t, hz, typed)
		for _, c := range hz {
			v := c.Value
			require.True(t, strings.HasPrefix(c.Name, v+" ("), c.Name)
			act, err := sandMoveAction(v)
			require.NoError(t, err)
			require.Contains(t, []sandtable.ActionKind{sandtable.ActMine, sandtable.ActAntiAir}, act.Kind)
			_, err = post.Clone().Apply(act)
			require.NoError(t, err, v)
		}
	}
	require.Equal(t, []string{"Me5 (place a Mine on e5)", "Ae5 (place an Anti-Air on e5)"}, choiceNames(hazardChoices(post, "e5")))
}

// TestSandAutocompleteAnswersAreAccepted: choices offered through the
// router, submitted as the option, are played by /move and added by
// /step (a few per list: every handler call draws a board).
func TestSandAutocompleteAnswersAreAccepted(t *testing.T) {
	pos := sandFirstTurn(t, 3, "skirmish", "fortress")
	mover := alice
	if pos.ToMove == sandtable.North {
		mover = bob
	}
	ask := func(a *App, command, typed string) []*ui.Choice {
		req := cmd(mover, command, "", map[string]string{command: typed})
		req.Type, req.Focused = AutocompleteRequest, command
		resp, err := a.Handle(req)
		require.NoError(t, err)
		return resp.Choices
	}
	a, _ := testApp(t)
	putSandTable(t, a, pos.Format())
	moves := ask(a, "move", "")
	require.Len(t, moves, 25)
	steps := ask(a, "step", "")
	require.NotEmpty(t, steps)
	other := bob
	if mover == bob {
		other = alice
	}
	req := cmd(other, "move", "", map[string]string{"move": ""})
	req.Type, req.Focused = AutocompleteRequest, "move"
	resp, err := a.Handle(req)
	require.NoError(t, err)
	require.Empty(t, resp.Choices, "nothing for the player not to move")

	for i, c := range []*ui.Choice{moves[0], moves[24]} {
		a, _ := testApp(t)
		putSandTable(t, a, pos.Format())
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
	var c choices
	c.add("e4-e5", strings.Repeat("é", 120))
	name := c.out[0].Name
	require.Equal(t, 100, utf8.RuneCountInString(name))
	require.True(t, strings.HasPrefix(name, "e4-e5 (é"))
	require.True(t, strings.HasSuffix(name, "é…)"))
	require.True(t, utf8.ValidString(name))
	require.Equal(t, "e4-e5", strings.TrimSpace(stripNotes(name)))
	c.add("e5-e6", strings.Repeat("🏰", 92)) // exactly 100 characters with the value
	require.Equal(t, "e5-e6 ("+strings.Repeat("🏰", 92)+")", c.out[1].Name, "a note that fits is whole")
	c.out = c.out[:1]
	long := strings.TrimSpace(strings.Repeat("a1-a2 ", 16)) // 95 characters
	c.add(long, "a note")
	require.Equal(t, long, c.out[1].Name, "no room for a note")
	c.add(strings.Repeat("a", 101), "too long a value")
	require.Len(t, c.out, 2, "a value over 100 characters is left out")
}
