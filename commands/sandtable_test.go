package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
	"sandtable/storage"
)

// putSandTable stores a SandTable game in thread "th1" with alice South and
// bob North, in the position text, with a one-hour turn.
func putSandTable(t *testing.T, a *App, text string) *storage.Game {
	t.Helper()
	pos, err := sandtable.ParsePosition(text)
	require.NoError(t, err)
	st := &sandState{South: alice, North: bob, TurnTime: time.Hour, Started: t0}
	st.record(pos.Advance())
	g := &storage.Game{ID: "sand1", Kind: kindSandTable, GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{alice.ID, bob.ID}, Active: true, Deadline: t0.Add(time.Hour)}
	require.NoError(t, a.sandSave(g, st, pos, t0, ""))
	return g
}

func sandGame(t *testing.T, a *App) (*storage.Game, *sandState, *sandtable.Position) {
	t.Helper()
	g, err := a.snapshot("sand1")
	require.NoError(t, err)
	st, pos, err := loadSand(g)
	require.NoError(t, err)
	return g, st, pos
}

const mainPos = `sandtable-position 1
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

// TestParseDeployEdits: the engine reads the edits (its tests cover the
// notation); the panel's answer names the line, quoted inert.
func TestParseDeployEdits(t *testing.T) {
	edits, err := parseDeployEdits(sandtable.South, "place I a5 b5\nmove a5-c5")
	require.NoError(t, err)
	require.Len(t, edits, 3)
	require.Equal(t, "S move a5-c5", edits[2].act.String())
	require.Equal(t, "Line 2 (`move a5-c5`)", edits[2].label)
	for _, c := range []struct{ in, want string }{
		{"", "No change given"},
		{"place Q c3", "Line 1 (`place Q c3`): unknown piece letter `q`"},
		{"place T c3\nfly c4", "Line 2 (`fly c4`): unknown change `fly`"},
		{"place T c3\n\nfly c4", "Line 3 (`fly c4`)"},
		{"place T `@everyone`", "Line 1 (`place T ˋ@\u200beveryoneˋ`)"},
		{strings.Repeat("remove a1\n", 201), "At most 200 changes"},
	} {
		_, err := parseDeployEdits(sandtable.South, c.in)
		require.Contains(t, userMsg(t, err), c.want, c.in)
	}
}

func TestDroneNotation(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"d4", "f6"}: "Dd4-f6", {" D4 ", "F6"}: "Dd4-f6", {"si12", "f6"}: "DSI12-f6", {"SI12", " f6"}: "DSI12-f6",
	} {
		require.Equal(t, want, droneNotation(in[0], in[1]))
	}
}

func TestSandTableLastMoves(t *testing.T) {
	pos, err := sandtable.ParsePosition(mainPos)
	require.NoError(t, err)
	entries, err := pos.Clone().ApplyString("Tc3-c6/d7")
	require.NoError(t, err)
	path, steps := sandboard.LastMoves(entries)
	require.Equal(t, []render.Square{render.Square(sq(t, "c3")), render.Square(sq(t, "c6"))}, path)
	require.Equal(t, []render.Step{{From: render.Square(sq(t, "c6")), To: render.Square(sq(t, "d7"))}}, steps)
	entries, err = pos.Clone().ApplyString("e4-e5 c3-d4 f4-g5")
	require.NoError(t, err)
	path, steps = sandboard.LastMoves(entries)
	require.Nil(t, path)
	require.Equal(t, []render.Step{
		{From: render.Square(sq(t, "e4")), To: render.Square(sq(t, "e5"))},
		{From: render.Square(sq(t, "c3")), To: render.Square(sq(t, "d4"))},
		{From: render.Square(sq(t, "f4")), To: render.Square(sq(t, "g5"))},
	}, steps)
	require.Empty(t, func() []render.Step { _, s := sandboard.LastMoves(nil); return s }())
}

func sq(t *testing.T, s string) sandtable.Square {
	t.Helper()
	q, err := sandtable.ParseSquare(s)
	require.NoError(t, err)
	return q
}

func TestSandLogLines(t *testing.T) {
	pos, err := sandtable.ParsePosition(mainPos)
	require.NoError(t, err)
	entries, err := pos.ApplyString("e4-e5 f4-g5")
	require.NoError(t, err)
	more, err := pos.ApplyString("Mf5")
	require.NoError(t, err)
	lines := sandLogLines(sandtable.FilterLog(append(entries, more...), sandtable.NoSide), func(s sandtable.Side) string { return s.String() })
	text := strings.Join(lines, "\n")
	require.Contains(t, text, "• South played e4-e5 f4-g5.")
	require.Contains(t, text, "• North Infantry NI2 on g5 was destroyed by Infantry SI3.")
	require.Contains(t, text, "• South placed Mine SM1 on f5.")
	require.NotContains(t, text, "moved e4-e5", "per-Infantry moves are in the action line")
	require.NotContains(t, text, "played Mf5", "the placement line says it")
	require.NotContains(t, text, "hazard uses", "PostTurn bookkeeping is in the To move field")
	require.Equal(t, "…\nb\nc", clipLines([]string{"aaaaaaaaaa", "b", "c"}, 8))
}

func TestSandPrivateAnswers(t *testing.T) {
	a, _ := testApp(t)
	for _, c := range []struct {
		req  *Request
		want bool
	}{
		{&Request{Type: CommandRequest, Command: "sandtable", Sub: "deploy"}, true},
		{&Request{Type: CommandRequest, Command: "sandtable", Sub: "rules"}, true},
		{&Request{Type: CommandRequest, Command: "sandtable", Sub: "challenge"}, false},
		{&Request{Type: CommandRequest, Command: "step"}, true},
		{&Request{Type: CommandRequest, Command: "move", Options: map[string]Option{"move": {String: "Dd4-f6"}}}, true},
		{&Request{Type: CommandRequest, Command: "move", Options: map[string]Option{"move": {String: "d4-d5"}}}, false},
		{&Request{Type: CommandRequest, Command: "move", Options: map[string]Option{"move": {String: "(a note) Dd4-f6"}}}, true},
		{&Request{Type: ModalRequest, CustomID: "g:abcdef:drone-order"}, true},
		{&Request{Type: ModalRequest, CustomID: "g:abcdef:dep-layout"}, true},
		{&Request{Type: ComponentRequest, CustomID: "g:abcdef:dep-confirm"}, false},
	} {
		require.Equal(t, c.want, a.AnswersPrivately(c.req), "%+v", c.req)
	}
}

func TestSendPrivately(t *testing.T) {
	a, p := testApp(t)
	req := cmd(alice, "x", "", nil)
	r, err := a.SendPrivately(req, Message{Content: "secret"}, "sent by DM")
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, "sent by DM", r.Content)
	require.Equal(t, "secret", p.dms[alice.ID][0].Content)
	p.closed[alice.ID] = true
	r, err = a.SendPrivately(req, Message{Content: "secret"}, "sent by DM")
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	require.Equal(t, DMClosedNote+"\nsecret", r.Content)
	a.Platform = failingDM{p}
	_, err = a.SendPrivately(req, Message{Content: "secret"}, "sent by DM")
	require.Error(t, err)
	var ue *UserError
	require.False(t, errors.As(err, &ue), "a failure on Discord's side is not the user's fault")
}

type failingDM struct{ *fakePlatform }

func (failingDM) DM(string, Message) (string, error) {
	return "", fmt.Errorf("500 Internal Server Error")
}

// TestSandTimeoutRulings: the rulings of docs/rules/sandtable.md, "In
// Discord", on time: in play the side to move loses whatever its phase; in
// Deployment the one who confirmed wins, and nobody having confirmed
// cancels the game.
func TestSandTimeoutRulings(t *testing.T) {
	t.Run("postturn", func(t *testing.T) {
		a, p := testApp(t)
		putSandTable(t, a, strings.Replace(mainPos, "phase main", "phase postturn\nhazard-uses 1", 1))
		require.NoError(t, a.Sweep(t0.Add(59*time.Minute)))
		g, _, _ := sandGame(t, a)
		require.True(t, g.Active)
		require.NoError(t, a.Sweep(t0.Add(time.Hour)))
		g, st, _ := sandGame(t, a)
		require.False(t, g.Active)
		require.Equal(t, &sandOutcome{Winner: sandtable.North, Reason: "time", Turn: 1}, st.Outcome)
		require.Contains(t, p.sent[len(p.sent)-1].Msg.Content, alice.Mention()+" (South) ran out of time. "+bob.Mention()+" (North) wins on time: "+alice.Mention()+" (South) did not finish turn 1 in time.")
		_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Mf5"}))
		require.Contains(t, userMsg(t, err), "This game is over")
	})
	deploy := func(t *testing.T, actions ...string) (*App, *fakePlatform) {
		a, p := testApp(t)
		pos := sandtable.NewGame(5)
		for _, act := range actions {
			_, err := pos.ApplyString(act)
			require.NoError(t, err)
		}
		putSandTable(t, a, pos.Format())
		require.NoError(t, a.Sweep(t0.Add(time.Hour)))
		return a, p
	}
	t.Run("deployment, one confirmed", func(t *testing.T) {
		a, p := deploy(t, "N preset phalanx", "N confirm", "S preset phalanx")
		_, st, pos := sandGame(t, a)
		require.Equal(t, sandtable.North, st.Outcome.Winner)
		require.Equal(t, sandtable.PhaseDeployment, pos.Phase(), "nothing is revealed")
		last := p.sent[len(p.sent)-1].Msg
		require.Contains(t, last.Cards[0].Fields[len(last.Cards[0].Fields)-1].Value, "(North) wins on time: "+alice.Mention()+" (South) did not confirm a deployment in time.")
		require.Empty(t, last.Files)
	})
	t.Run("deployment, nobody confirmed", func(t *testing.T) {
		a, p := deploy(t, "S preset phalanx")
		_, st, _ := sandGame(t, a)
		require.Equal(t, "cancelled", st.Outcome.Reason)
		require.Contains(t, p.sent[len(p.sent)-1].Msg.Content, "cancelled, without a result")
	})
	t.Run("deployment, both confirmed means play began", func(t *testing.T) {
		a, _ := deploy(t, "S preset phalanx", "N preset phalanx", "S confirm", "N confirm")
		_, st, pos := sandGame(t, a)
		require.Equal(t, "time", st.Outcome.Reason)
		require.Equal(t, pos.ToMove().Opp(), st.Outcome.Winner)
	})
}

func TestSandMoveRefusalsAndDedupe(t *testing.T) {
	a, _ := testApp(t)
	putSandTable(t, a, mainPos)
	move := func(u User, text string) (*Response, error) {
		return a.Handle(cmd(u, "move", "", map[string]string{"move": text}))
	}
	for _, c := range []struct {
		u          User
		text, want string
	}{
		{carol, "e4-e5", "You are not playing"},
		{bob, "t19-t18", "It is not your turn: " + alice.Mention() + " (South) is to move (Main)."},
		{alice, "Dd4-f6", "Drone orders are secret"},
		{bob, "(note) Dd4-f6", "Drone orders are secret"},
		{alice, "resign", "use /resign"},
		{alice, "draw", "/draw offer"},
		{alice, "S place Ia5", "deployment change"},
		{alice, "e4-e6", "`e4-e6` is not allowed: Infantry SI2 on e4 cannot reach e6 in one step (ruling 4"},
		{alice, "Mf5", "a hazard use (Mf5) is only possible in PostTurn"},
		{alice, "e4-e5 T3", "cannot be read"},
		{alice, "", "Write your action"},
	} {
		_, err := move(c.u, c.text)
		require.Contains(t, userMsg(t, err), c.want, c.text)
	}
	req := cmd(alice, "move", "", map[string]string{"move": "e4-e5"})
	resp, err := a.Handle(req)
	require.NoError(t, err)
	require.Contains(t, resp.Content, alice.Mention()+" played **e4-e5**. PostTurn: 1 hazard use left.")
	again := cmd(alice, "move", "", map[string]string{"move": "Mf5"})
	again.InteractionID = req.InteractionID
	_, err = a.Handle(again)
	require.Contains(t, userMsg(t, err), "already applied")
	_, _, pos := sandGame(t, a)
	require.Equal(t, sandtable.PhasePostTurn, pos.Phase())
	_, err = a.Handle(cmd(alice, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "SandTable Chess has no draw claims")
}

func TestLoadSandTablePositionRefusals(t *testing.T) {
	a, _ := testApp(t)
	// An active game of another kind (Survival, registered by the bot).
	require.NoError(t, a.update(func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game1", Kind: "survival", GuildID: "g", ChannelID: "general", ThreadID: "th1",
			Players: []string{alice.ID, bob.ID}, Active: true, Deadline: t0.Add(time.Hour), State: []byte(`{}`)}, t0)
	}))
	require.ErrorContains(t, a.LoadSandTablePosition("game1", mainPos), "not an active SandTable game")
	putSandTable(t, a, mainPos)
	require.Error(t, a.LoadSandTablePosition("sand1", "sandtable-position 1\nphase nonsense\n"))
	a.Now = func() time.Time { return t0.Add(10 * time.Minute) } // the first deadline was t0+1h
	require.NoError(t, a.LoadSandTablePosition("sand1", strings.Replace(mainPos, "to-move south", "to-move north", 1)))
	g, st, pos := sandGame(t, a)
	require.Equal(t, sandtable.North, pos.ToMove())
	require.Equal(t, t0.Add(70*time.Minute), g.Deadline, "the clock restarts for the new position")
	require.Empty(t, st.Prev)
}

// TestSandStateRoundTrip: everything a restart needs is in the stored
// state, including drafts, step drafts and unconfirmed Drone orders.
func TestSandStateRoundTrip(t *testing.T) {
	a, _ := testApp(t)
	g := putSandTable(t, a, mainPos)
	_, st, pos := sandGame(t, a)
	st.Steps[sandtable.South] = []string{"e4-e5"}
	st.Drone[sandtable.North] = "DNI1-t17"
	st.DrawOffer = bob.ID
	require.NoError(t, a.sandSave(g, st, pos, t0, ""))
	var raw map[string]any
	require.NoError(t, json.Unmarshal(g.State, &raw))
	_, st2, pos2 := sandGame(t, a)
	require.Equal(t, st.Steps, st2.Steps)
	require.Equal(t, st.Drone, st2.Drone)
	require.Equal(t, bob.ID, st2.DrawOffer)
	require.Equal(t, pos.Format(), pos2.Format())
}

func TestSandBoardMessageFields(t *testing.T) {
	a, _ := testApp(t)
	putSandTable(t, a, mainPos)
	resp, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	e := resp.Cards[0]
	require.Equal(t, "board.png", e.Image)
	require.Equal(t, "board.png", resp.Files[0].Name)
	var fields []string
	for _, f := range e.Fields {
		fields = append(fields, f.Name+": "+f.Value)
	}
	all := strings.Join(fields, "\n")
	require.Contains(t, all, "South: alice: Infantry: 2 on the ground, 1 in crews\nVehicles: 1 Tank, 0 Airplanes\nMines + Anti-Air: 0 + 0 = 0 of 40\nBases: 1\nDrones pending: 0")
	require.Contains(t, all, "Neutral Vehicles (no crew): 1 Tank, 1 Airplane")
	require.Contains(t, all, "To move: "+alice.Mention()+" (South) · **Main**")
	var labels []string
	for _, row := range resp.Rows {
		for _, c := range row {
			labels = append(labels, c.(ui.Button).Label)
		}
	}
	require.Equal(t, []string{"My private view"}, labels, "no Drone button outside PostTurn")
}

// TestSandBoardAtHazardCap: at the cap of 40 Mines and Anti-Air the
// PostTurn prompt says that only a Drone can be used.
func TestSandBoardAtHazardCap(t *testing.T) {
	a, _ := testApp(t)
	var b strings.Builder
	b.WriteString("sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\npiece SB1 a1\npiece SI1 b1\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "piece SM%d %s\n", i, sandtable.Sq((i-1)%20, 4+(i-1)/20))
	}
	putSandTable(t, a, b.String())
	resp, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	var toMove string
	for _, f := range resp.Cards[0].Fields {
		if f.Name == "To move" {
			toMove = f.Value
		}
	}
	require.Contains(t, toMove, "South has 40 Mines and Anti-Air, the cap: only a Drone can be used")
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Mc1"}))
	require.Contains(t, userMsg(t, err), "only a Drone can be used")
}

// TestSandCommitClosesTheDraft: Commit posts the public board in the
// thread and turns its draft message into what was played, without the
// "not played yet" text and without buttons.
func TestSandCommitClosesTheDraft(t *testing.T) {
	a, p := testApp(t)
	putSandTable(t, a, mainPos)
	r, err := a.Handle(cmd(alice, "step", "", map[string]string{"step": "e4-e5"}))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Description, "(private, not played yet)")
	before := len(p.sent)
	r, err = a.Handle(click(alice, buttonOf(t, r.Message, "Commit")))
	require.NoError(t, err)
	require.True(t, r.Update, "the draft message itself is updated")
	require.Equal(t, "**Committed** ✅: you played **e4-e5** as your Main action of turn 1. The board is in <#th1>.", r.Content)
	require.Empty(t, r.Cards)
	require.Empty(t, r.Rows, "no live buttons")
	require.Len(t, p.sent, before+1)
	pub := p.sent[before]
	require.Equal(t, "th1", pub.Channel)
	require.Contains(t, pub.Msg.Content, alice.Mention()+" played **e4-e5**. PostTurn: 1 hazard use left.")
	require.Equal(t, "board.png", pub.Msg.Files[0].Name)
	_, _, pos := sandGame(t, a)
	require.Equal(t, sandtable.PhasePostTurn, pos.Phase())
}

// TestSandFinishedFootersAdvertiseNoMoves: once the game is over, the
// board and the deployment status no longer point to /move or /resign.
func TestSandFinishedFootersAdvertiseNoMoves(t *testing.T) {
	a, _ := testApp(t)
	putSandTable(t, a, mainPos)
	r, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Footer, "/move", "a game on shows how to play")
	r, err = a.Handle(cmd(alice, "resign", "", nil))
	require.NoError(t, err)
	require.Equal(t, "Game sand1 · South at the bottom · /sandtable rules", r.Cards[0].Footer)

	b, _ := testApp(t)
	putSandTable(t, b, sandtable.NewGame(9).Format())
	r, err = b.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Footer, "/resign", "a deployment on shows how to give up")
	r, err = b.Handle(cmd(alice, "resign", "", nil))
	require.NoError(t, err)
	require.Equal(t, "Game sand1 · /sandtable rules", r.Cards[0].Footer)
}

// TestSandStateFormat0: a state stored before the engine's JSON tags (log
// entries with Go field names and integer enums, the outcome's winner as a
// number) loads, and is saved again in the tagged form.
func TestSandStateFormat0(t *testing.T) {
	old, err := os.ReadFile("../games/sandtable/testdata/legacy/entries.json")
	require.NoError(t, err)
	var entries []json.RawMessage
	require.NoError(t, json.Unmarshal(old, &entries))
	a, _ := testApp(t)
	g := putSandTable(t, a, mainPos)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(g.State, &raw))
	raw["prev"], _ = json.Marshal(entries[:40])
	raw["cur"], _ = json.Marshal(entries[40:])
	raw["outcome"] = json.RawMessage(`{"winner":2,"reason":"time","turn":4}`)
	g.State, _ = json.Marshal(raw)
	st, _, err := loadSand(g)
	require.NoError(t, err)
	require.Len(t, append(st.Prev, st.Cur...), len(entries))
	require.Equal(t, sandtable.EntryDraft, st.Prev[0].Kind)
	require.Equal(t, sandtable.North, st.Outcome.Winner)
	require.Contains(t, st.resultLine(nil), "(North) wins on time")
	_, pos, err := loadSand(g)
	require.NoError(t, err)
	require.NoError(t, a.sandSave(g, st, pos, t0, ""))
	require.Contains(t, string(g.State), `"winner":"north"`)
	require.Contains(t, string(g.State), `"kind":"draft"`)
	require.NotContains(t, string(g.State), `"Kind"`)
	st2, _, err := loadSand(g)
	require.NoError(t, err)
	require.Equal(t, st.Prev, st2.Prev)
	require.Equal(t, st.Cur, st2.Cur)
}

// TestSandHistoryRebuildsEveryTurn: a game keeps the position of its
// reveal and its turn log (archived turns included), from which every
// turn's board is rebuilt; an operator's position starts a new history.
func TestSandHistoryRebuildsEveryTurn(t *testing.T) {
	a, _ := testApp(t)
	g := putSandTable(t, a, sandtable.NewGame(9).Format())
	_, st, pos := sandGame(t, a)
	start, _, err := a.sandHistory(g, st)
	require.NoError(t, err)
	require.Nil(t, start, "no history during Deployment")
	for _, text := range []string{"S preset phalanx", "N preset skirmish", "S confirm", "N confirm"} {
		act, err := sandtable.ParseAction(text)
		require.NoError(t, err)
		_, err = a.sandApply(g, st, pos, act, t0)
		require.NoError(t, err)
	}
	require.NoError(t, a.sandSave(g, st, pos, t0, ""))
	ends := map[int]string{}
	for i := 0; i < 60 && pos.Phase() != sandtable.PhaseFinished; i++ {
		var act sandtable.Action
		for _, l := range pos.LegalActions() {
			act = l
			if l.Kind == sandtable.ActDrone || i%7 == 0 {
				break // a Drone now and then
			}
		}
		turn := pos.Turn()
		_, err := a.sandApply(g, st, pos, act, t0)
		require.NoError(t, err, act.String())
		require.NoError(t, a.sandSave(g, st, pos, t0, ""))
		if pos.Turn() != turn {
			ends[turn] = pos.Format()
		}
	}
	require.Greater(t, st.LogSeq, 5, "turns were archived in the store")
	_, st, _ = sandGame(t, a)
	start, log, err := a.sandHistory(g, st)
	require.NoError(t, err)
	require.NotNil(t, start)
	require.Equal(t, 1, start.Turn())
	for turn, want := range ends {
		got, err := sandtable.Replay(start, log, turn)
		require.NoError(t, err, "turn %d", turn)
		require.Equal(t, want, got.Format(), "turn %d", turn)
	}

	require.NoError(t, a.LoadSandTablePosition(g.ID, mainPos))
	g, st, pos = sandGame(t, a)
	start, log, err = a.sandHistory(g, st)
	require.NoError(t, err)
	require.Equal(t, pos.Format(), start.Format(), "the loaded position starts the history")
	require.Empty(t, log)
}
