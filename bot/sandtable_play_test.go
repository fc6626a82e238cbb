package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

const draftPosition = `sandtable-position 1
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

// choices runs an autocomplete of command's option as u and returns the
// suggestions as "name => value".
func (g *sandGame) choices(u *discordsim.User, command, option, typed string) []string {
	g.h.t.Helper()
	in, err := g.h.srv.Autocomplete(u, g.thread.ID, command, discordsim.Focused(option, typed))
	require.NoError(g.h.t, err)
	cs, err := in.WaitChoices(wait)
	require.NoError(g.h.t, err)
	var out []string
	for _, c := range cs {
		out = append(out, c.Name+" => "+c.Value.(string))
	}
	return out
}

// TestSandTableAutocompleteAndDraft: /move suggests whole legal actions
// (named with what they do): with nothing typed, Vehicle moves and
// Infantry steps; then a piece's moves, an Infantry's legal next steps
// after those typed; /step builds a private draft that Commit plays.
func TestSandTableAutocompleteAndDraft(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g, scan := h.sandSetup(alice, bob, draftPosition)

	all := g.choices(alice, "move", "move", "")
	require.Len(t, all, 25)
	require.Equal(t, "Tc3-c20 (Tank ST1, crew 1) => Tc3-c20", all[0])
	require.Contains(t, all, "e4-e5 (Infantry SI2) => e4-e5")
	require.Contains(t, all, "f4-g5 (Infantry SI3 destroys North's Infantry NI2) => f4-g5")
	require.Contains(t, all, "c3-c4 (crew of Tank ST1 steps out) => c3-c4")
	require.Equal(t, []string{"Waiting for alice (South) to play turn 1 => " + commands.WaitingValue}, g.choices(bob, "move", "move", ""),
		"one choice saying whose turn it is for the player not to move")

	tank := g.choices(alice, "move", "move", "Tc3-c")
	require.Contains(t, tank, "Tc3-c8 (Tank ST1, crew 1) => Tc3-c8")
	require.NotContains(t, strings.Join(tank, "\n"), "/", "dismounts only once the destination is typed")
	tank4 := g.choices(alice, "move", "move", "Tc3-c4")
	require.Contains(t, tank4, "Tc3-c4 (Tank ST1, crew 1) => Tc3-c4")
	require.Contains(t, tank4, "Tc3-c4/d5 (Tank ST1, crew 1; a crew member steps out to d5) => Tc3-c4/d5")
	for _, c := range append(append(all, tank...), tank4...) {
		require.True(t, strings.HasSuffix(c, "=> "+c[:strings.Index(c, " ")]), "the name starts with the value: %s", c)
	}
	steps := g.choices(alice, "move", "move", "e4")
	require.Contains(t, steps, "e4-e5 (Infantry SI2) => e4-e5")
	require.NotContains(t, strings.Join(steps, "\n"), "e4-f4", "f4 holds a friendly Infantry")
	next := g.choices(alice, "move", "move", "e4-e5 ")
	require.Equal(t, "e4-e5 (play these steps) => e4-e5", next[0])
	require.Contains(t, next, "e4-e5 f4-g5 (then Infantry SI3 destroys North's Infantry NI2) => e4-e5 f4-g5", "f4 may capture on g5 after e4-e5")
	require.Contains(t, next, "e4-e5 f4-e4 (then Infantry SI3) => e4-e5 f4-e4", "the square e4 left this turn may be entered")
	for _, c := range next {
		require.NotContains(t, c, "=> e4-e5 e5-", "SI2 has moved")
	}
	// Typing on after picking a choice: the client sends its name.
	on := g.choices(alice, "move", "move", "e4-e5 (Infantry SI2) f4-g")
	require.Equal(t, []string{"e4-e5 f4-g5 (then Infantry SI3 destroys North's Infantry NI2) => e4-e5 f4-g5", "e4-e5 f4-g4 (then Infantry SI3) => e4-e5 f4-g4", "e4-e5 f4-g3 (then Infantry SI3) => e4-e5 f4-g3"}, on)
	bad := g.choices(alice, "move", "move", "e4-e5 e4-e3 ")
	require.Equal(t, []string{"e4-e5 (then e4-e3 is not legal: there is no piece on e4) => e4-e5"}, bad, "the legal start, named with the reason")
	scan.check()

	// A private draft: /step, the preview, Undo, Commit.
	d := h.reply(alice, g.thread.ID, "step", discordsim.Opt("step", "e4-e5"))
	require.Contains(t, mustBeEphemeral(t, d, alice), "1. e4-e5")
	require.NotNil(t, d.Attachment("draft.png"))
	dump(t, "draft", d)
	require.Contains(t, g.choices(alice, "step", "step", "f4"), "f4-e4 (Infantry SI3) => f4-e4")
	require.Empty(t, g.choices(alice, "step", "step", "Tc3-"), "a draft holds Infantry steps only")
	r := h.reply(alice, g.thread.ID, "step", discordsim.Opt("step", "e5-e6"))
	require.Contains(t, mustBeEphemeral(t, r, alice), "Infantry SI2 has already moved this turn")
	d = h.reply(alice, g.thread.ID, "step", discordsim.Opt("step", "f4-f5"))
	require.Contains(t, d.Text(), "2. f4-f5")
	_, d = g.press(alice, d, "Undo last step")
	require.Contains(t, d.Text(), "Took back f4-f5")
	require.NotContains(t, d.Text(), "2. f4-f5")
	d = h.reply(alice, g.thread.ID, "step", discordsim.Opt("step", "f4-g5"))
	r = h.reply(bob, g.thread.ID, "step", discordsim.Opt("step", "t19-t18"))
	require.Contains(t, mustBeEphemeral(t, r, bob), "It is not your turn")
	scan.check()
	_, done := g.press(alice, d, "Commit")
	require.Equal(t, d.ID, done.ID, "the draft message itself says it was played")
	require.Contains(t, done.Text(), "**Committed** ✅: you played **e4-e5 f4-g5**")
	require.NotContains(t, done.Text(), "not played yet")
	require.Empty(t, done.Buttons())
	pub := g.board()
	require.Contains(t, pub.Text(), "played **e4-e5 f4-g5**")
	require.Contains(t, pub.Text(), "North Infantry NI2 on g5 was destroyed by Infantry SI3.")
	scan.check()

	// PostTurn: Mines and Anti-Air are suggested, Drones never.
	hz := g.choices(alice, "move", "move", "mf")
	require.NotEmpty(t, hz)
	for _, c := range hz {
		require.True(t, strings.HasPrefix(c, "Mf"), c)
	}
	require.Empty(t, g.choices(alice, "move", "move", "De5-"))
	require.Contains(t, g.refused(alice, "Tc3-c8"), "a Main action (Tc3-c8) is not possible now")
	require.Contains(t, g.refused(alice, "Mt20"), "t20 is not empty")
	require.Contains(t, g.refused(alice, "hello"), "`hello` cannot be read")
	scan.check()
}

// TestSandTableDeferredAnswers: with every interaction deferred, private
// answers stay private (commands defer ephemerally, forms from a message
// defer as updates of it) and land where they belong.
func TestSandTableDeferredAnswers(t *testing.T) {
	t.Parallel()
	h := newDeferringHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.SetDMsClosed(bob, true)
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)

	in := h.click(bob, g.status, buttonID(t, g.status, "Deploy (private)"))
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, respType(t, in))
	panel, err := in.WaitFollowup(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, panel, bob), "Your secret deployment: North")
	require.NotContains(t, h.srv.Message(g.status.ID).Text(), "secret deployment", "the status message is untouched")
	scan.check()

	// A private command deferred in the thread: the "thinking" message is
	// ephemeral, and the answer fills it.
	in = h.slash(bob, g.thread.ID, "sandtable deploy", discordsim.Opt("preset", "phalanx"))
	r, err := in.WaitResponse(wait)
	require.NoError(t, err)
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, m, bob), "Preset **phalanx** loaded")
	scan.check()
	in = h.slash(alice, g.thread.ID, "move", optMove("Dd4-f6"))
	m, err = in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, m, alice), "Drone orders are secret")
	scan.check()
	for _, v := range h.srv.VisibleMessages(h.srv.User("carol"), g.thread.ID) {
		require.NotContains(t, v.Text(), "Preset")
		require.NotContains(t, v.Text(), "Drone orders are secret")
	}
}

// TestSandTableRulesAndGames: /sandtable rules answers privately with the
// summary, the legend image and where the rulings are; /games lists the
// game with what the player has to do.
func TestSandTableRulesAndGames(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	rules := h.reply(alice, h.gen.ID, "sandtable rules")
	text := mustBeEphemeral(t, rules, alice)
	for _, want := range []string{"SandTable Chess", "Deployment", "PostTurn", "Drone", "You win", "docs/rules/sandtable.md", "SandTable board images", "Crater"} {
		require.Contains(t, text, want)
	}
	require.NotNil(t, rules.Attachment("legend.png"))
	dump(t, "rules", rules)

	g := h.sandStart(alice, bob)
	games := h.reply(alice, h.gen.ID, "games")
	require.Contains(t, mustBeEphemeral(t, games, alice), "<#"+g.thread.ID+">")
	require.Contains(t, games.Text(), "vs "+bob.Mention()+", you play South, **deploy and confirm**")
	require.NoError(t, h.loadSandPosition(g.id, draftPosition))
	games = h.reply(alice, h.gen.ID, "games")
	require.Contains(t, games.Text(), "**your turn** (turn 1, Main)")
	games = h.reply(bob, h.gen.ID, "games")
	require.Contains(t, games.Text(), "vs "+alice.Mention()+", you play North")
	require.NotContains(t, games.Text(), "your turn")
	m := h.reply(alice, g.thread.ID, "board")
	require.NotNil(t, m.Attachment("board.png"))
}

// TestSandTableAutocompleteFirstTurn: in a real game's first Main turn,
// after both deployed presets, every /move and /step choice, picked as
// is, is accepted; the one played is the one offered.
func TestSandTableAutocompleteFirstTurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	scan := newLeakScan(g)
	for u, preset := range map[*discordsim.User]string{alice: "fortress", bob: "skirmish"} {
		_, panel := g.deploy(u, g.thread.ID, discordsim.Opt("preset", preset))
		_, panel = g.press(u, panel, "Confirm")
		require.Contains(t, panel.Text(), "onfirmed")
	}
	pos := g.pos()
	require.Equal(t, sandtable.PhaseMain, pos.Phase())
	mover, other := g.user(pos.ToMove()), g.user(pos.ToMove().Opp())
	for _, command := range []string{"move", "step"} {
		c := g.choices(other, command, command, "")
		require.Len(t, c, 1, "/%s: one choice saying whose turn it is", command)
		require.Contains(t, c[0], "Waiting for "+mover.Name)
	}

	legal := func(command, value string, draft []sandtable.Step) {
		t.Helper()
		act, err := sandtable.ParseAction(value)
		require.NoError(t, err, "/%s choice %q", command, value)
		if command == "step" {
			require.Equal(t, sandtable.ActInfantry, act.Kind, value)
			_, err = pos.LegalNextSteps(append(append([]sandtable.Step{}, draft...), act.Steps...))
		} else {
			_, err = pos.Clone().Apply(act)
		}
		require.NoError(t, err, "/%s choice %q", command, value)
	}
	value := func(c string) string { return c[strings.LastIndex(c, " => ")+4:] }
	all := g.choices(mover, "move", "move", "")
	require.Len(t, all, 25)
	for _, c := range all {
		legal("move", value(c), nil)
		v := value(c)
		for _, typed := range []string{v[:strings.Index(v, "-")], v[:strings.Index(v, "-")+1], v + " "} {
			more := g.choices(mover, "move", "move", typed)
			require.NotEmpty(t, more, "typed %q", typed)
			for _, m := range more {
				legal("move", value(m), nil)
			}
		}
	}
	scan.check()

	// /step: a choice, then a choice after the draft.
	first := g.choices(mover, "step", "step", "")
	require.NotEmpty(t, first)
	v1 := value(first[0])
	legal("step", v1, nil)
	d := h.reply(mover, g.thread.ID, "step", discordsim.Opt("step", v1))
	require.Contains(t, mustBeEphemeral(t, d, mover), "1. "+v1)
	act, err := sandtable.ParseAction(v1)
	require.NoError(t, err)
	second := g.choices(mover, "step", "step", "")
	require.NotEmpty(t, second)
	for _, c := range second {
		legal("step", value(c), act.Steps)
	}
	v2 := value(second[len(second)-1])
	d = h.reply(mover, g.thread.ID, "step", discordsim.Opt("step", v2))
	require.Contains(t, mustBeEphemeral(t, d, mover), "2. "+v2)

	// /move: a choice played as it was offered.
	pick := value(all[len(all)/2])
	m := g.move(mover, pick)
	require.Contains(t, m.Text(), "played **"+pick+"**")
	scan.check()
}
