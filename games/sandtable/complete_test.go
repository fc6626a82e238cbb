package sandtable

import (
	"slices"
	"strings"
	"testing"
)

// discord are the limits the bot completes within.
var discord = Limits{Max: 25, MaxLen: 100}

const completePos = `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece ST1 c3 SI1
piece SI2 e4
piece SI3 f4
piece NB1 t20
piece NI1 t19
piece NI2 g5
piece NT9 k20
piece NP9 l20
`

func parseAdvanced(t testing.TB, text string) *Position {
	t.Helper()
	p, err := ParsePosition(text)
	if err != nil {
		t.Fatal(err)
	}
	p.Advance()
	return p
}

// firstTurn is a real game's first Main turn: both sides deployed a preset
// and confirmed, the coin chose who moves first.
func firstTurn(t testing.TB, seed uint64, south, north string) *Position {
	t.Helper()
	p := NewGame(seed)
	for _, a := range []Action{
		{Kind: ActDeployPreset, Side: South, Name: south}, {Kind: ActDeployPreset, Side: North, Name: north},
		{Kind: ActDeployConfirm, Side: South}, {Kind: ActDeployConfirm, Side: North},
	} {
		if _, err := p.Apply(a); err != nil {
			t.Fatal(err)
		}
	}
	if p.Phase() != PhaseMain || p.Turn() != 1 {
		t.Fatalf("not the first Main: %s turn %d", p.Phase(), p.Turn())
	}
	return p
}

// completePositions are Main positions for the completion tests: crews
// stepping out, neutral and enemy Vehicles to board or capture, Airplanes,
// a Base in reach, North to move, and real first turns.
func completePositions(t *testing.T) map[string]*Position {
	t.Helper()
	out := map[string]*Position{
		"main": parseAdvanced(t, completePos),
		"vehicles": parseAdvanced(t, `sandtable-position 1
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
`),
		"north": parseAdvanced(t, `sandtable-position 1
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
`),
		"first turn phalanx":           firstTurn(t, 1, "phalanx", "phalanx"),
		"first turn fortress/skirmish": firstTurn(t, 2, "fortress", "skirmish"),
	}
	return out
}

// typedPrefixes are what a player may have typed: for each of p's pieces
// that can act, its square, the square and a dash, one legal step and a
// space, plus fixed texts.
func typedPrefixes(t *testing.T, p *Position) []string {
	t.Helper()
	typed := []string{"", " ", "e", "e4", "e4-", "e4-e5 ", "e4-e5 f", "e4-e3 ", "e4-e5 e4-e3 ", "zz", "T", "P", "M", "A", "D", "c3", "Tc3", "Tc3-", "Tc3-c", "Tc3-c4", "Ph2-", "Tc14-"}
	steps, err := p.LegalNextSteps(nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Square]bool{}
	for _, s := range steps {
		if !seen[s.From] {
			seen[s.From] = true
			typed = append(typed, s.From.String(), s.From.String()+"-", s.String()+" ", s.String()+" "+s.From.String())
		}
	}
	return typed
}

// named is how a client shows a choice, and sends it back when the player
// types on after picking it.
func named(c Choice) string {
	if c.Note == "" {
		return c.Value
	}
	return c.Value + " (" + c.Note + ")"
}

// requirePlayable checks every choice: within the limits, and its value,
// and its name read as typed text, a legal action of p.
func requirePlayable(t *testing.T, p *Position, typed string, cs []Choice) {
	t.Helper()
	if len(cs) > discord.Max {
		t.Fatalf("typed %q: %d choices", typed, len(cs))
	}
	for _, c := range cs {
		if len(c.Value) > discord.MaxLen {
			t.Fatalf("typed %q: value %q too long", typed, c.Value)
		}
		a, err := ParseAction(c.Value)
		if err != nil {
			t.Fatalf("typed %q: choice %q: %v", typed, c.Value, err)
		}
		if _, err := p.Clone().Apply(a); err != nil {
			t.Fatalf("typed %q: choice %q is not legal: %v", typed, c.Value, err)
		}
		back, err := ParseAction(StripNotes(named(c)))
		if err != nil || back.String() != a.String() {
			t.Fatalf("the name %q as typed text reads %v (%v)", named(c), back, err)
		}
	}
}

// TestCompleteMoveChoicesArePlayable: whatever is typed, every choice is
// a whole legal action; the commonest texts get choices.
func TestCompleteMoveChoicesArePlayable(t *testing.T) {
	t.Parallel()
	for name, p := range completePositions(t) {
		t.Run(name, func(t *testing.T) {
			side := p.ToMove()
			for _, typed := range typedPrefixes(t, p) {
				cs := p.CompleteMove(side, typed, discord)
				requirePlayable(t, p, typed, cs)
				if typed == "" && len(cs) != 25 {
					t.Errorf("nothing typed: %d choices, want a full list", len(cs))
				}
			}
			steps, _ := p.LegalNextSteps(nil)
			for _, s := range steps[:min(len(steps), 12)] {
				for _, typed := range []string{s.From.String(), s.From.String() + "-", s.String(), s.String() + " "} {
					if len(p.CompleteMove(side, typed, discord)) == 0 {
						t.Errorf("typed %q: no choice", typed)
					}
				}
			}
			moves, _ := p.LegalVehicleMoves()
			done := map[string]bool{}
			for _, m := range moves {
				base, _, _ := strings.Cut(m.String(), "/")
				for _, typed := range []string{base[:1], base[:strings.Index(base, "-")], base[:strings.Index(base, "-")+1], base} {
					if done[typed] {
						continue
					}
					done[typed] = true
					cs := p.CompleteMove(side, typed, discord)
					requirePlayable(t, p, typed, cs)
					if len(cs) == 0 {
						t.Errorf("typed %q: no choice", typed)
					}
				}
			}
			if cs := p.CompleteMove(side.Opp(), "", discord); cs != nil {
				t.Errorf("the side not to move is offered %v", cs)
			}
		})
	}
}

// TestCompleteTypingOn: picking a choice and typing on (the client then
// sends the choice's name with what follows) offers the choice's steps
// plus one more; a typed step that is not legal gives the legal steps
// before it, noted with the reason.
func TestCompleteTypingOn(t *testing.T) {
	t.Parallel()
	p := parseAdvanced(t, completePos)
	first := p.CompleteMove(South, "e4-e5", discord)
	if len(first) == 0 || first[0] != (Choice{"e4-e5", "Infantry SI2"}) {
		t.Fatalf("first choices %v", first)
	}
	typed := named(first[0]) + " f4"
	next := p.CompleteMove(South, typed, discord)
	if len(next) == 0 {
		t.Fatal("nothing after typing on")
	}
	for _, c := range next {
		if !strings.HasPrefix(c.Value, "e4-e5 f4-") {
			t.Errorf("choice %q does not continue the typed steps", c.Value)
		}
	}
	requirePlayable(t, p, typed, next)
	bad := p.CompleteMove(South, "e4-e5 e4-e3 ", discord)
	want := []Choice{{"e4-e5", "then e4-e3 is not legal: there is no piece on e4"}}
	if !slices.Equal(bad, want) {
		t.Errorf("got %v, want %v", bad, want)
	}
}

// TestCompleteStepsArePlayable: every step choice adds legal steps to the
// draft.
func TestCompleteStepsArePlayable(t *testing.T) {
	t.Parallel()
	for name, p := range completePositions(t) {
		t.Run(name, func(t *testing.T) {
			side := p.ToMove()
			steps, _ := p.LegalNextSteps(nil)
			for _, draft := range [][]Step{nil, steps[:1]} {
				for _, typed := range typedPrefixes(t, p) {
					cs := p.CompleteSteps(side, draft, typed, discord)
					if typed == "" && len(cs) == 0 {
						t.Errorf("draft %v: nothing offered", draft)
					}
					for _, c := range cs {
						a, err := ParseAction(c.Value)
						if err != nil || a.Kind != ActInfantry {
							t.Fatalf("draft %v, typed %q: choice %q: %v", draft, typed, c.Value, err)
						}
						if _, err := p.LegalNextSteps(append(slices.Clone(draft), a.Steps...)); err != nil {
							t.Fatalf("draft %v, typed %q: choice %q: %v", draft, typed, c.Value, err)
						}
					}
				}
			}
		})
	}
}

// TestCompleteMixesKinds: with nothing typed, the list holds both Vehicle
// moves and Infantry steps, several pieces of each, captures first; in
// PostTurn, Mines and Anti-Air.
func TestCompleteMixesKinds(t *testing.T) {
	t.Parallel()
	p := completePositions(t)["vehicles"]
	cs := p.CompleteMove(South, "", discord)
	kinds := map[ActionKind]int{}
	pieces := map[Square]bool{}
	var infantry []string
	var names []string
	for _, c := range cs {
		a, err := ParseAction(c.Value)
		if err != nil {
			t.Fatal(err)
		}
		kinds[a.Kind]++
		names = append(names, named(c))
		if a.Kind == ActVehicle {
			pieces[a.From] = true
		} else {
			pieces[a.Steps[0].From] = true
			infantry = append(infantry, named(c))
		}
	}
	if kinds[ActVehicle] < 2 || kinds[ActInfantry] < 11 || len(pieces) != 5 {
		t.Errorf("kinds %v, pieces %v: want Vehicle moves, Infantry steps and every piece that can act", kinds, pieces)
	}
	if infantry[0] != "j9-k10 (Infantry SI6 destroys North's Base NB1)" {
		t.Errorf("the most valuable capture comes first: %v", infantry)
	}
	if !strings.Contains(infantry[1], "captures North's Tank NT1") {
		t.Errorf("captures come first: %v", infantry)
	}
	if !slices.Contains(names, "f4-f3 (Infantry SI3 boards the neutral Tank NT9)") {
		t.Errorf("boarding the neutral Tank missing: %v", names)
	}
	first := firstTurn(t, 1, "phalanx", "phalanx")
	var all []string
	for _, c := range first.CompleteMove(first.ToMove(), "", discord) {
		all = append(all, c.Note)
	}
	if !strings.Contains(strings.Join(all, "\n"), "boards the neutral Tank") {
		t.Errorf("the first turn offers no crewing of a Vehicle: %v", all)
	}

	post := parseAdvanced(t, "sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 2\npiece SB1 a1\npiece SB2 b1\npiece SI2 e4\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n")
	for _, typed := range []string{"", "M", "mf", "A", "Ae", "e5", "f", "Me5 (place a Mine on e5)"} {
		hz := post.CompleteMove(South, typed, discord)
		if len(hz) == 0 {
			t.Errorf("typed %q: no placement", typed)
		}
		requirePlayable(t, post, typed, hz)
		for _, c := range hz {
			if a, _ := ParseAction(c.Value); a.Kind != ActMine && a.Kind != ActAntiAir {
				t.Errorf("typed %q: %q is not a placement", typed, c.Value)
			}
		}
	}
	got := post.CompleteMove(South, "e5", discord)
	want := []Choice{{"Me5", "place a Mine on e5"}, {"Ae5", "place an Anti-Air on e5"}}
	if !slices.Equal(got, want) {
		t.Errorf("e5: got %v, want %v", got, want)
	}
	if post.CompleteSteps(South, nil, "", discord) != nil {
		t.Error("steps offered in PostTurn")
	}
}

// TestCompleteIgnoresSecrets: the choices for a player are the same
// whatever the other side's Drone orders are, and never name a Drone.
func TestCompleteIgnoresSecrets(t *testing.T) {
	t.Parallel()
	base := parseAdvanced(t, completePos)
	withDrones := parseAdvanced(t, completePos+"drone NI2 e5\ndrone NI1 f4\n")
	for _, typed := range []string{"", "e4", "e4-e5 ", "f4-g", "Tc3-", "Tc3-c4", "c3"} {
		if a, b := base.CompleteMove(South, typed, discord), withDrones.CompleteMove(South, typed, discord); !slices.Equal(a, b) {
			t.Errorf("typed %q: %v without North's Drones, %v with", typed, a, b)
		}
		if a, b := base.CompleteSteps(South, nil, typed, discord), withDrones.CompleteSteps(South, nil, typed, discord); !slices.Equal(a, b) {
			t.Errorf("steps typed %q: %v without North's Drones, %v with", typed, a, b)
		}
	}
	post := "sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 2\npiece SB1 a1\npiece SB2 b1\npiece SI2 e4\npiece NB1 t20\npiece NI1 t19\npiece NI2 g6\npiece NT9 k20\npiece NP9 l20\n"
	p1, p2 := parseAdvanced(t, post), parseAdvanced(t, post+"drone NI2 e5\n")
	for _, typed := range []string{"", "M", "Ae", "D"} {
		if a, b := p1.CompleteMove(South, typed, discord), p2.CompleteMove(South, typed, discord); !slices.Equal(a, b) {
			t.Errorf("typed %q: %v without North's Drone, %v with", typed, a, b)
		}
	}
	for _, c := range p1.CompleteMove(South, "", discord) {
		if strings.Contains(c.Value, "D") {
			t.Errorf("a Drone is suggested: %q", c.Value)
		}
	}
}

func TestCompleteLimits(t *testing.T) {
	t.Parallel()
	p := parseAdvanced(t, completePos)
	if n := len(p.CompleteMove(South, "", Limits{Max: 3})); n != 3 {
		t.Errorf("Max 3: %d choices", n)
	}
	for _, c := range p.CompleteMove(South, "e4-e5 ", Limits{MaxLen: 5}) {
		if len(c.Value) > 5 {
			t.Errorf("MaxLen 5: %q", c.Value)
		}
	}
	first := firstTurn(t, 1, "phalanx", "phalanx")
	if n := len(first.CompleteMove(first.ToMove(), "", Limits{})); n <= 25 {
		t.Errorf("no limit: only %d choices", n)
	}
	if p.View(South).CompleteMove(South, "", discord) != nil {
		t.Error("a redacted view completes")
	}
}

func TestStripNotes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"e4-e5 (Infantry SI2) f4": "e4-e5  f4",
		"a (b (c) d) e":           "a  e",
		"e4-e5 (open":             "e4-e5 ",
		"x) y":                    "x) y",
	} {
		if got := StripNotes(in); got != want {
			t.Errorf("StripNotes(%q) = %q, want %q", in, got, want)
		}
	}
}
