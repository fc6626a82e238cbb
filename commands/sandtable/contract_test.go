package sandtable

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// finished is a finished position whose result is winner (south, north or
// draw) by reason.
func finished(winner, reason string) string {
	return fmt.Sprintf("sandtable-position 1\nphase finished\nturn 7\nto-move south\nresult %s %s\n", winner, reason) +
		"piece SB1 a1\npiece SI1 b1\npiece NB1 t20\npiece NI1 t19\n"
}

// TestOutcomeOfEveryEnding: every way a SandTable game ends has a typed
// outcome: the winner's side and user, or none, and the method.
func TestOutcomeOfEveryEnding(t *testing.T) {
	t.Parallel()
	south, north := []string{alice.ID}, []string{bob.ID}
	for _, c := range []struct {
		name string
		s    *State
		want storage.Outcome
	}{
		{"resignation", stateOf(t, finished("north", "resignation")), storage.Outcome{Side: "north", Winners: north, Losers: south, Method: storage.Resignation}},
		{"no bases", stateOf(t, finished("south", "no-bases")), storage.Outcome{Side: "south", Winners: south, Losers: north, Method: storage.BaseCaptured}},
		{"no infantry", stateOf(t, finished("north", "no-infantry")), storage.Outcome{Side: "north", Winners: north, Losers: south, Method: storage.Elimination}},
		{"all tanks", stateOf(t, finished("south", "all-tanks")), storage.Outcome{Side: "south", Winners: south, Losers: north, Method: storage.VehicleControl}},
		{"all airplanes", stateOf(t, finished("north", "all-airplanes")), storage.Outcome{Side: "north", Winners: north, Losers: south, Method: storage.VehicleControl}},
		{"agreement", stateOf(t, finished("draw", "agreement")), storage.Outcome{Method: storage.Agreement}},
		{"simultaneous", stateOf(t, finished("draw", "simultaneous")), storage.Outcome{Method: storage.Simultaneous}},
		{"deadlock", stateOf(t, finished("draw", "deadlock")), storage.Outcome{Method: storage.Deadlock}},
		{"time in play", withEnd(stateOf(t, mainPos), &BotEnd{Winner: engine.North, Reason: "time", Turn: 3}), storage.Outcome{Side: "north", Winners: north, Losers: south, Method: storage.Time}},
		{"deployment time", withEnd(stateOf(t, engine.NewGame(1).Format()), &BotEnd{Winner: engine.South, Reason: "time"}), storage.Outcome{Side: "south", Winners: south, Losers: north, Method: storage.DeploymentTimeout}},
		{"cancelled", withEnd(stateOf(t, engine.NewGame(1).Format()), &BotEnd{Reason: "cancelled"}), storage.Outcome{Method: storage.Aborted}},
	} {
		got, over := Game{}.Outcome(c.s)
		require.True(t, over, c.name)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, commands.NoClock, Game{}.Clock(c.s).Rule, "%s: no clock once over", c.name)
	}
	_, over := Game{}.Outcome(stateOf(t, mainPos))
	require.False(t, over)
}

// stateOf is a state of alice (South) and bob (North) in the position text.
func stateOf(t *testing.T, text string) *State {
	t.Helper()
	pos, err := engine.ParsePosition(text)
	require.NoError(t, err)
	return &State{South: alice, North: bob, TurnTime: time.Hour, pos: pos}
}

func withEnd(s *State, e *BotEnd) *State { s.Outcome = e; return s }

// TestClockOfSandTable: one deployment period for both players (a
// confirmation keeps it), then a period per turn that the turn's Main
// action and hazard uses keep, restarted when the turn passes.
func TestClockOfSandTable(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, engine.NewGame(4).Format())
	at := func(d time.Duration) { a.Now = func() time.Time { return t0.Add(d) } }
	deadline := func() time.Time { return commandstest.Game(t, store, "sand1").Deadline }
	do := func(u commands.User, req *commands.Request) {
		t.Helper()
		req.Now = a.Now()
		_, err := a.Handle(req)
		require.NoError(t, err)
	}
	_, s := load(t, store)
	c := Game{}.Clock(s)
	require.Equal(t, commands.Deployment, c.Rule)
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, c.Actors)

	at(10 * time.Minute)
	do(alice, cmd(alice, "sandtable", "deploy", map[string]string{"preset": "phalanx"}))
	g, s := load(t, store)
	do(alice, click(alice, commands.CustomID{Scope: "g", ID: g.ID, Action: "dep-confirm", Arg: panelArg(s, engine.South, true)}.String()))
	require.Equal(t, t0.Add(time.Hour), deadline(), "a confirmation keeps the deployment period")
	_, s = load(t, store)
	require.Equal(t, []string{bob.ID}, Game{}.Clock(s).Actors, "who has not confirmed")

	at(20 * time.Minute)
	do(bob, cmd(bob, "sandtable", "deploy", map[string]string{"preset": "phalanx"}))
	g, s = load(t, store)
	do(bob, click(bob, commands.CustomID{Scope: "g", ID: g.ID, Action: "dep-confirm", Arg: panelArg(s, engine.North, true)}.String()))
	require.Equal(t, t0.Add(80*time.Minute), deadline(), "the reveal starts the first turn's period")
	_, s = load(t, store)
	c = Game{}.Clock(s)
	require.Equal(t, commands.PerTurn, c.Rule)
	mover := map[engine.Side]commands.User{engine.South: alice, engine.North: bob}[s.pos.ToMove()]
	require.Equal(t, []string{mover.ID}, c.Actors)

	at(30 * time.Minute)
	steps, err := s.pos.LegalNextSteps(nil)
	require.NoError(t, err)
	do(mover, cmd(mover, "move", "", map[string]string{"move": steps[0].String()}))
	_, s = load(t, store)
	require.Equal(t, engine.PhasePostTurn, s.pos.Phase())
	require.Equal(t, t0.Add(80*time.Minute), deadline(), "the Main action keeps the turn's period")
	at(40 * time.Minute)
	for s.pos.Phase() == engine.PhasePostTurn && s.pos.HazardUses() > 1 {
		uses, err := s.pos.LegalHazardUses()
		require.NoError(t, err)
		do(mover, cmd(mover, "move", "", map[string]string{"move": uses[0].String()}))
		_, s = load(t, store)
		require.Equal(t, t0.Add(80*time.Minute), deadline(), "a hazard use keeps the turn's period")
	}
	uses, err := s.pos.LegalHazardUses()
	require.NoError(t, err)
	do(mover, cmd(mover, "move", "", map[string]string{"move": uses[0].String()}))
	_, s = load(t, store)
	require.NotEqual(t, mover.ID, Game{}.Clock(s).Actors[0], "the turn passed")
	require.Equal(t, t0.Add(100*time.Minute), deadline(), "a new turn starts its period")
}

// TestStartIsOneTransaction: an accepted challenge saves the game with its
// first effects (the status message, both panels by DM), which reach
// Discord only from the outbox; the IDs they yield are recorded in the game.
func TestStartIsOneTransaction(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	r := cmd(alice, "sandtable", "challenge", map[string]string{"turn_time": "2h"})
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	ch, err := a.Handle(r)
	require.NoError(t, err)
	acc, err := a.Handle(click(bob, buttonOf(t, ch.Message, "Accept")))
	require.NoError(t, err)
	require.Contains(t, acc.Cards[0].Description, "accepted")
	require.True(t, acc.Committed)
	posts, _ := p.Snapshot()
	require.Empty(t, posts, "nothing is posted before the commit's effects are delivered")
	require.Empty(t, p.DMs)
	var games []*storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		games, err = tx.Games().Active(alice.ID)
		return err
	}))
	require.Len(t, games, 1)
	g := games[0]
	require.Equal(t, "m1", g.ThreadID, "the thread started from the challenge's message has its ID")
	require.Equal(t, t0.Add(2*time.Hour), g.Deadline, "the deployment period")
	require.Equal(t, 1, g.StateVersion)

	commandstest.Deliver(t, a, t0)
	posts, _ = p.Snapshot()
	require.Len(t, posts, 2, "the status and the deployment's ping")
	require.Equal(t, "m1", posts[0].Channel)
	require.Contains(t, posts[0].Msg.Cards[0].Title, "Deployment")
	require.Equal(t, "m1", posts[1].Channel)
	require.Contains(t, posts[1].Msg.Content, alice.Mention()+" and "+bob.Mention()+", your deployment")
	require.Len(t, p.DMs[alice.ID], 1)
	require.Len(t, p.DMs[bob.ID], 1)
	require.Contains(t, p.DMs[bob.ID][0].Cards[0].Description, "You play **North** against "+alice.Mention()+" in <#m1>")
	_, err = png.Decode(bytes.NewReader(p.DMs[bob.ID][0].Files[0].Data))
	require.NoError(t, err, "the panel carries its private image")
	g = commandstest.Game(t, store, g.ID)
	s, err := Game{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	require.NotEmpty(t, s.StatusMsg, "the status message's ID is recorded")
	require.Len(t, s.Panels[engine.South], 1, "the panels' IDs are recorded")
	require.Len(t, s.Panels[engine.North], 1)
	require.Equal(t, [3]bool{}, s.DMClosed)
}

// TestClosedDMsAtStart: a panel refused because its player's DMs are
// closed (Discord's 50007) is said in the thread, and the player's first
// private fallback carries the real image; a 500 on a panel's DM is
// retried, never reported as closed DMs.
func TestClosedDMsAtStart(t *testing.T) {
	t.Parallel()
	start := func(t *testing.T) (*commands.App, *commandstest.Platform, storage.Store, *storage.Game) {
		a, p, store := newApp(t)
		r := cmd(alice, "sandtable", "challenge", nil)
		r.ChannelID = "general"
		r.Options["opponent"] = commands.Option{User: &bob}
		ch, err := a.Handle(r)
		require.NoError(t, err)
		_, err = a.Handle(click(bob, buttonOf(t, ch.Message, "Accept")))
		require.NoError(t, err)
		var g *storage.Game
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
			games, err := tx.Games().Active(bob.ID)
			if len(games) == 1 {
				g = games[0]
			}
			return err
		}))
		require.NotNil(t, g)
		return a, p, store, g
	}
	closedNotes := func(p *commandstest.Platform) int {
		posts, _ := p.Snapshot()
		n := 0
		for _, s := range posts {
			if strings.Contains(s.Msg.Content, "cannot send you direct messages") {
				n++
			}
		}
		return n
	}
	t.Run("closed", func(t *testing.T) {
		a, p, store, g := start(t)
		p.Closed[bob.ID] = true
		commandstest.Deliver(t, a, t0)
		require.Equal(t, 1, closedNotes(p))
		g = commandstest.Game(t, store, g.ID)
		s, err := Game{}.Decode(g.StateVersion, g.State)
		require.NoError(t, err)
		require.True(t, s.DMClosed[engine.North])
		require.Empty(t, s.Panels[engine.North])
		status := posts(t, a, p, g.ThreadID, 0)[0]
		r, err := a.Handle(click(bob, buttonOf(t, status, "Deploy (private)")))
		require.NoError(t, err)
		require.True(t, r.Ephemeral)
		require.True(t, strings.HasPrefix(r.Content, commands.DMClosedNote))
		require.Len(t, r.Files, 1)
		_, err = png.Decode(bytes.NewReader(r.Files[0].Data))
		require.NoError(t, err, "the fallback carries the real image")
	})
	t.Run("500", func(t *testing.T) {
		a, p, store, g := start(t)
		fails := 1
		p.Fail = func(op, user string) error {
			if op == "dm" && user == bob.ID && fails > 0 {
				fails--
				return &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: fmt.Errorf("HTTP 500")}
			}
			return nil
		}
		commandstest.Deliver(t, a, t0)
		require.Zero(t, closedNotes(p), "a 500 is not a closed DM")
		require.Empty(t, p.DMs[bob.ID])
		commandstest.Deliver(t, a, t0.Add(time.Minute))
		require.Len(t, p.DMs[bob.ID], 1, "the panel arrives on retry")
		require.Zero(t, closedNotes(p))
		g = commandstest.Game(t, store, g.ID)
		s, err := Game{}.Decode(g.StateVersion, g.State)
		require.NoError(t, err)
		require.False(t, s.DMClosed[engine.North])
		require.Len(t, s.Panels[engine.North], 1)
	})
}

// TestRevealIsSavedWithItsEffects: the last Confirm saves the revealed
// position and, in the same transaction, the reveal's effects: the public
// board with the coin, the status message's edit and the note to the
// player who confirmed first; nothing is on Discord before they are
// delivered.
func TestRevealIsSavedWithItsEffects(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	pos := engine.NewGame(6)
	for _, act := range []string{"S preset phalanx", "N preset skirmish", "S confirm"} {
		_, err := pos.ApplyString(act)
		require.NoError(t, err)
	}
	g := putGame(t, store, pos.Format())
	_, s := load(t, store)
	s.StatusMsg = "status1"
	putState(t, store, g, s)
	r, err := a.Handle(click(bob, commands.CustomID{Scope: "g", ID: g.ID, Action: "dep-confirm", Arg: panelArg(s, engine.North, true)}.String()))
	require.NoError(t, err)
	require.Contains(t, r.Content, "both are revealed")
	_, s = load(t, store)
	require.Equal(t, engine.PhaseMain, s.pos.Phase(), "revealed in the stored game")
	require.Equal(t, 4, a.Pending(), "the reveal waits in the outbox: board, status edit, note, the turn's ping")
	before, edits := p.Snapshot()
	require.Empty(t, before)
	require.Empty(t, edits)
	commandstest.Deliver(t, a, t0)
	posted, edits := p.Snapshot()
	require.Len(t, posted, 2, "the board and the first turn's ping")
	require.Contains(t, posted[1].Msg.Content, ", your turn")
	require.Contains(t, posted[0].Msg.Content, "The coin is flipped: **"+s.pos.First().String()+"**")
	require.Equal(t, "board.png", posted[0].Msg.Files[0].Name)
	require.Len(t, edits, 1)
	require.Equal(t, "status1", edits[0].ID)
	require.Contains(t, edits[0].Msg.Cards[0].Fields[2].Value, "Both deployments were revealed")
	require.Len(t, p.DMs[alice.ID], 1)
	require.Contains(t, p.DMs[alice.ID][0].Content, "Both deployments are revealed in <#th1>")
	require.Zero(t, a.Pending())
}

// TestEndDuringDeploymentClosesPanels: a resignation during Deployment
// edits every remembered panel of both players and the status message,
// through the outbox.
func TestEndDuringDeploymentClosesPanels(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	g := putGame(t, store, engine.NewGame(6).Format())
	_, s := load(t, store)
	s.StatusMsg = "status1"
	for i := range maxPanels + 1 {
		s.addPanel(engine.South, fmt.Sprint("s", i))
	}
	s.addPanel(engine.North, "n0")
	putState(t, store, g, s)
	_, err := commandstest.Confirm(t, a, cmd(bob, "resign", "", nil))
	require.NoError(t, err)
	g, _ = load(t, store)
	require.False(t, g.Active)
	require.Equal(t, storage.Resignation, g.Outcome.Method)
	commandstest.Deliver(t, a, t0)
	_, edits := p.Snapshot()
	var ids []string
	for _, e := range edits {
		ids = append(ids, e.Channel+"/"+e.ID)
		if e.ID != "status1" {
			require.Empty(t, e.Msg.Rows, "a closed panel has no controls")
			require.Contains(t, e.Msg.Content, "ended during Deployment")
		}
	}
	require.Equal(t, []string{"th1/status1", "dm:" + alice.ID + "/s1", "dm:" + alice.ID + "/s2", "dm:" + alice.ID + "/s3", "dm:" + alice.ID + "/s4", "dm:" + alice.ID + "/s5", "dm:" + bob.ID + "/n0"}, ids,
		"the status, then the latest five panels of each player")
}

// TestNoAnalysis: SandTable games have no analysis (issue 24 item 5): no
// Analysis in the Spec, so no Analysis button is routed.
func TestNoAnalysis(t *testing.T) {
	t.Parallel()
	spec := Game{}.Spec()
	require.Nil(t, spec.Analysis)
	_, routed := spec.Components[commands.AnalysisAction]
	require.False(t, routed)
}
