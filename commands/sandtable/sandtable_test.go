package sandtable

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
	"sandtable/storage"
)

// TestParseDeployEdits: the engine reads the edits (its tests cover the
// notation); the panel's answer names the line, quoted inert.
func TestParseDeployEdits(t *testing.T) {
	t.Parallel()
	edits, err := parseDeployEdits(engine.South, "place I a5 b5\nmove a5-c5")
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
		_, err := parseDeployEdits(engine.South, c.in)
		require.Contains(t, userMsg(t, err), c.want, c.in)
	}
}

// TestDeployEditsIgnoreInvisibleCharacters: invisible characters in typed
// edits are not read.
func TestDeployEditsIgnoreInvisibleCharacters(t *testing.T) {
	t.Parallel()
	edits, err := parseDeployEdits(engine.South, "place T\u200b c3\u2060; move\u00a0c3-d3\x00\nremove \ufeffd3")
	require.NoError(t, err)
	require.Len(t, edits, 3)
}

func TestDroneNotation(t *testing.T) {
	t.Parallel()
	for in, want := range map[[2]string]string{
		{"d4", "f6"}: "Dd4-f6", {" D4 ", "F6"}: "Dd4-f6", {"si12", "f6"}: "DSI12-f6", {"SI12", " f6"}: "DSI12-f6",
	} {
		require.Equal(t, want, droneNotation(in[0], in[1]))
	}
	req := &commands.Request{Fields: map[string]string{"spotter": "SI1\u200b", "target": "d\u20604"}}
	require.Equal(t, "DSI1-d4", droneNotation(req.Field("spotter"), req.Field("target")), "form fields are read without invisible characters")
}

func TestSandTableLastMoves(t *testing.T) {
	t.Parallel()
	pos, err := engine.ParsePosition(mainPos)
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

func sq(t *testing.T, s string) engine.Square {
	t.Helper()
	q, err := engine.ParseSquare(s)
	require.NoError(t, err)
	return q
}

func TestSandLogLines(t *testing.T) {
	t.Parallel()
	pos, err := engine.ParsePosition(mainPos)
	require.NoError(t, err)
	entries, err := pos.ApplyString("e4-e5 f4-g5")
	require.NoError(t, err)
	more, err := pos.ApplyString("Mf5")
	require.NoError(t, err)
	lines := logLines(engine.FilterLog(append(entries, more...), engine.NoSide), func(s engine.Side) string { return s.String() })
	text := strings.Join(lines, "\n")
	require.Contains(t, text, "• South played e4-e5 f4-g5.")
	require.Contains(t, text, "• North Infantry NI2 on g5 was destroyed by Infantry SI3.")
	require.Contains(t, text, "• South placed Mine SM1 on f5.")
	require.NotContains(t, text, "moved e4-e5", "per-Infantry moves are in the action line")
	require.NotContains(t, text, "played Mf5", "the placement line says it")
	require.NotContains(t, text, "hazard uses", "PostTurn bookkeeping is in the To move field")
	require.Equal(t, "…\nb\nc", commands.ClipLines([]string{"aaaaaaaaaa", "b", "c"}, 8))
}

func TestSandPrivateAnswers(t *testing.T) {
	t.Parallel()
	a, _, _ := newApp(t)
	for _, c := range []struct {
		req  *commands.Request
		want bool
	}{
		{&commands.Request{Type: commands.CommandRequest, Command: "sandtable", Sub: "deploy"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "sandtable", Sub: "rules"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "sandtable", Sub: "challenge"}, false},
		{&commands.Request{Type: commands.CommandRequest, Command: "step"}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "move", Options: map[string]commands.Option{"move": {String: "Dd4-f6"}}}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "move", Options: map[string]commands.Option{"move": {String: "d4-d5"}}}, true},
		{&commands.Request{Type: commands.CommandRequest, Command: "draw", Sub: "offer"}, false},
		{&commands.Request{Type: commands.CommandRequest, Command: "move", Options: map[string]commands.Option{"move": {String: "(a note) Dd4-f6"}}}, true},
		{&commands.Request{Type: commands.ModalRequest, CustomID: "g:abcdef:drone-order"}, true},
		{&commands.Request{Type: commands.ModalRequest, CustomID: "g:abcdef:dep-layout"}, true},
		{&commands.Request{Type: commands.ComponentRequest, CustomID: "g:abcdef:dep-confirm"}, false},
	} {
		require.Equal(t, c.want, a.AnswersPrivately(c.req), "%+v", c.req)
	}
}

// lastPost delivers the outbox and returns the newest message "th1" shows
// (as last edited: the live board is edited in place), turn pings aside.
func lastPost(t *testing.T, a *commands.App, p *commandstest.Platform) commands.Message {
	t.Helper()
	commandstest.Deliver(t, a, a.Now())
	var ps []commands.Message
	for _, s := range p.Shown() {
		if s.Channel == "th1" && !isPing(s.Msg) {
			ps = append(ps, s.Msg)
		}
	}
	require.NotEmpty(t, ps)
	return ps[len(ps)-1]
}

// isPing reports whether m is a turn's ping (a message of its own that
// mentions whoever must act).
func isPing(m commands.Message) bool {
	return !m.Quiet && len(m.Cards) == 0 && len(m.Files) == 0 && strings.Contains(m.Content, ", your ")
}

// TestSandTimeoutRulings: the rulings of docs/rules/sandtable.md, "In
// Discord", on time: in play the side to move loses whatever its phase; in
// Deployment the one who confirmed wins, and nobody having confirmed
// cancels the game.
func TestSandTimeoutRulings(t *testing.T) {
	t.Parallel()
	t.Run("postturn", func(t *testing.T) {
		a, p, store := newApp(t)
		putGame(t, store, strings.Replace(mainPos, "phase main", "phase postturn\nhazard-uses 1", 1))
		require.NoError(t, a.Sweep(t0.Add(59*time.Minute)))
		g, _ := load(t, store)
		require.True(t, g.Active)
		require.NoError(t, a.Sweep(t0.Add(time.Hour)))
		g, s := load(t, store)
		require.False(t, g.Active)
		require.Equal(t, &BotEnd{Winner: engine.North, Reason: "time", Turn: 1}, s.Outcome)
		require.Equal(t, &storage.Outcome{Side: "north", Winners: []string{bob.ID}, Losers: []string{alice.ID}, Method: storage.Time}, g.Outcome)
		require.Contains(t, lastPost(t, a, p).Content, alice.Mention()+" (South) ran out of time. "+bob.Mention()+" (North) wins on time: "+alice.Mention()+" (South) did not finish turn 1 in time.")
		_, err := a.Handle(cmd(alice, "move", "", map[string]string{"move": "Mf5"}))
		require.Contains(t, userMsg(t, err), "This game is over")
	})
	deploy := func(t *testing.T, actions ...string) (*commands.App, *commandstest.Platform, storage.Store) {
		a, p, store := newApp(t)
		pos := engine.NewGame(5)
		for _, act := range actions {
			_, err := pos.ApplyString(act)
			require.NoError(t, err)
		}
		putGame(t, store, pos.Format())
		require.NoError(t, a.Sweep(t0.Add(time.Hour)))
		return a, p, store
	}
	t.Run("deployment, one confirmed", func(t *testing.T) {
		a, p, store := deploy(t, "N preset phalanx", "N confirm", "S preset phalanx")
		g, s := load(t, store)
		require.Equal(t, engine.North, s.Outcome.Winner)
		require.Equal(t, storage.DeploymentTimeout, g.Outcome.Method)
		require.Equal(t, []string{bob.ID}, g.Outcome.Winners)
		require.Equal(t, engine.PhaseDeployment, s.pos.Phase(), "nothing is revealed")
		last := lastPost(t, a, p)
		require.Contains(t, last.Cards[0].Fields[len(last.Cards[0].Fields)-1].Value, "(North) wins on time: "+alice.Mention()+" (South) did not confirm a deployment in time.")
		require.Empty(t, last.Files)
	})
	t.Run("deployment, nobody confirmed", func(t *testing.T) {
		a, p, store := deploy(t, "S preset phalanx")
		g, s := load(t, store)
		require.Equal(t, "cancelled", s.Outcome.Reason)
		require.Equal(t, &storage.Outcome{Method: storage.Aborted}, g.Outcome)
		require.Contains(t, lastPost(t, a, p).Content, "cancelled, without a result")
	})
	t.Run("deployment, both confirmed means play began", func(t *testing.T) {
		_, _, store := deploy(t, "S preset phalanx", "N preset phalanx", "S confirm", "N confirm")
		_, s := load(t, store)
		require.Equal(t, "time", s.Outcome.Reason)
		require.Equal(t, s.pos.ToMove().Opp(), s.Outcome.Winner)
	})
}

func TestSandMoveRefusalsAndDedupe(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, mainPos)
	move := func(u commands.User, text string) (*commands.Response, error) {
		return a.Handle(cmd(u, "move", "", map[string]string{"move": text}))
	}
	for _, c := range []struct {
		u          commands.User
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
	require.True(t, resp.Ephemeral)
	require.Equal(t, "You played **e4-e5**. PostTurn: 1 hazard use left.", resp.Content)
	require.Contains(t, lastPost(t, a, p).Content, alice.Mention()+" played **e4-e5**. PostTurn: 1 hazard use left.")
	again := cmd(alice, "move", "", map[string]string{"move": "Mf5"})
	again.InteractionID = req.InteractionID
	_, err = a.Handle(again)
	require.Contains(t, userMsg(t, err), "already applied")
	_, s := load(t, store)
	require.Equal(t, engine.PhasePostTurn, s.pos.Phase())
	_, err = a.Handle(cmd(alice, "draw", "claim", nil))
	require.Contains(t, userMsg(t, err), "SandTable Chess has no draw claims")
}

func TestLoadPositionRefusals(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	// An active game of another kind.
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game1", Kind: "survival", GuildID: "g", ChannelID: "general", ThreadID: "th1",
			Players: []string{alice.ID, bob.ID}, Active: true, Deadline: t0.Add(time.Hour), State: []byte(`{}`)}, t0)
	}))
	require.ErrorContains(t, LoadPosition(a, "game1", mainPos), "not an active SandTable game")
	putGame(t, store, mainPos)
	require.Error(t, LoadPosition(a, "sand1", "sandtable-position 1\nphase nonsense\n"))
	a.Now = func() time.Time { return t0.Add(10 * time.Minute) } // the first deadline was t0+1h
	require.NoError(t, LoadPosition(a, "sand1", strings.Replace(mainPos, "to-move south", "to-move north", 1)))
	g, s := load(t, store)
	require.Equal(t, engine.North, s.pos.ToMove())
	require.Equal(t, t0.Add(70*time.Minute), g.Deadline, "the clock restarts for the new position")
	require.Empty(t, s.Prev)
	require.Contains(t, lastPost(t, a, p).Content, "set up by an operator")
	// Loading the same turn again restarts the clock again.
	a.Now = func() time.Time { return t0.Add(20 * time.Minute) }
	require.NoError(t, LoadPosition(a, "sand1", strings.Replace(mainPos, "to-move south", "to-move north", 1)))
	g, _ = load(t, store)
	require.Equal(t, t0.Add(80*time.Minute), g.Deadline)
}

// TestSandStateRoundTrip: everything a restart needs is in the stored
// state, including drafts, step drafts and unconfirmed Drone orders.
func TestSandStateRoundTrip(t *testing.T) {
	t.Parallel()
	_, _, store := newApp(t)
	g := putGame(t, store, mainPos)
	_, s := load(t, store)
	s.Steps[engine.South] = []string{"e4-e5"}
	s.Drone[engine.North] = "DNI1-t17"
	s.Offer = bob.ID
	putState(t, store, g, s)
	var raw map[string]any
	require.NoError(t, json.Unmarshal(g.State, &raw))
	require.Equal(t, bob.ID, raw["draw_offer"], "the draw offer keeps its stored name")
	_, s2 := load(t, store)
	require.Equal(t, s.Steps, s2.Steps)
	require.Equal(t, s.Drone, s2.Drone)
	require.Equal(t, bob.ID, s2.Offer)
	require.Equal(t, s.pos.Format(), s2.pos.Format())
}

func TestSandBoardMessageFields(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, mainPos)
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
	require.Contains(t, all, "South: alice (1500?): Infantry: 2 on the ground, 1 in crews\nVehicles: 1 Tank, 0 Airplanes\nMines + Anti-Air: 0 + 0 = 0 of 40\nBases: 1\nDrones pending: 0")
	require.Contains(t, all, "Neutral Vehicles (no crew): 1 Tank, 1 Airplane")
	require.Contains(t, all, "To move: "+alice.Mention()+" (South) · **Main**")
	var labels []string
	for _, row := range resp.Rows {
		for _, c := range row {
			labels = append(labels, c.(ui.Button).Label)
		}
	}
	require.Equal(t, []string{"My private view", "Flip board", "Zoom", "History"}, labels, "no Drone button outside PostTurn")
}

// TestSandPublicBoardFromSouthAndFlip: the public board is drawn from
// South's side also with North to move (ruling D15), and its Flip button
// shows anyone, privately, the public view from North's side, changing
// nothing.
func TestSandPublicBoardFromSouthAndFlip(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	putGame(t, store, strings.Replace(mainPos, "to-move south", "to-move north", 1))
	drawn := func(flipped bool) []byte {
		t.Helper()
		_, s, pos := sandGame(t, store)
		b, v, err := sandboard.Board(pos, append(append([]engine.Entry{}, s.Prev...), s.Cur...), engine.NoSide)
		require.NoError(t, err)
		b.Flipped = flipped
		var buf bytes.Buffer
		require.NoError(t, a.Render.SandTablePNG(&buf, &b, v, imageSize))
		return buf.Bytes()
	}
	r, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.True(t, bytes.Equal(drawn(false), r.Files[0].Data), "North to move, the public board is drawn from South's side")
	require.Contains(t, r.Cards[0].Footer, "South at the bottom")
	before := commandstest.Game(t, store, "sand1")
	f, err := a.Handle(click(carol, buttonOf(t, r.Message, "Flip board")))
	require.NoError(t, err)
	require.True(t, f.Ephemeral, "Flip answers privately")
	require.Equal(t, "The public board (turn 1) from North's side:", f.Content)
	require.True(t, bytes.Equal(drawn(true), f.Files[0].Data), "Flip shows North's side")
	after := commandstest.Game(t, store, "sand1")
	require.Equal(t, before, after, "Flip changes nothing")
	f, err = a.Handle(click(carol, "g:sand1:flip:0"))
	require.NoError(t, err)
	require.Contains(t, f.Content, "earlier turn", "a board of an earlier turn says the view is of the board now")
}

// TestSandBoardAtHazardCap: at the cap of 40 Mines and Anti-Air the
// PostTurn prompt says that only a Drone can be used.
func TestSandBoardAtHazardCap(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	var b strings.Builder
	b.WriteString("sandtable-position 1\nphase postturn\nto-move south\nhazard-uses 1\npiece SB1 a1\npiece SI1 b1\npiece NB1 t20\npiece NI1 t19\npiece NT9 k20\npiece NP9 l20\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "piece SM%d %s\n", i, engine.Sq((i-1)%20, 4+(i-1)/20))
	}
	putGame(t, store, b.String())
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
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, mainPos)
	r, err := a.Handle(cmd(alice, "step", "", map[string]string{"step": "e4-e5"}))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Description, "(private, not played yet)")
	before, _ := p.Snapshot()
	r, err = a.Handle(click(alice, buttonOf(t, r.Message, "Commit")))
	require.NoError(t, err)
	require.True(t, r.Update, "the draft message itself is updated")
	require.Equal(t, "**Committed** ✅: you played **e4-e5** as your Main action of turn 1. The board is in <#th1>.", r.Content)
	require.Empty(t, r.Cards)
	require.Empty(t, r.Rows, "no live buttons")
	pubs := posts(t, a, p, "th1", len(before))
	require.Len(t, pubs, 1)
	require.Contains(t, pubs[0].Content, alice.Mention()+" played **e4-e5**. PostTurn: 1 hazard use left.")
	require.Equal(t, "board.png", pubs[0].Files[0].Name)
	_, s := load(t, store)
	require.Equal(t, engine.PhasePostTurn, s.pos.Phase())
}

// TestSandFinishedFootersAdvertiseNoMoves: once the game is over, the
// board and the deployment status no longer point to /move or /resign.
func TestSandFinishedFootersAdvertiseNoMoves(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, mainPos)
	r, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "/board answers privately")
	require.Contains(t, r.Cards[0].Footer, "/move", "a game on shows how to play")
	_, err = commandstest.Confirm(t, a, cmd(alice, "resign", "", nil))
	require.NoError(t, err)
	require.Equal(t, "Game sand1 · rated · South at the bottom · /sandtable rules", lastPost(t, a, p).Cards[0].Footer)

	b, pb, store := newApp(t)
	putGame(t, store, engine.NewGame(9).Format())
	r, err = b.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.Contains(t, r.Cards[0].Footer, "/resign", "a deployment on shows how to give up")
	_, err = commandstest.Confirm(t, b, cmd(alice, "resign", "", nil))
	require.NoError(t, err)
	require.Equal(t, "Game sand1 · rated · /sandtable rules", lastPost(t, b, pb).Cards[0].Footer)
}

// TestSandStateFormat0: a state stored before the engine's JSON tags (log
// entries with Go field names and integer enums, the outcome's winner as a
// number), at codec version 0, loads, and is saved again in the tagged
// form at version 1.
func TestSandStateFormat0(t *testing.T) {
	t.Parallel()
	old, err := os.ReadFile("../../games/sandtable/testdata/legacy/entries.json")
	require.NoError(t, err)
	var entries []json.RawMessage
	require.NoError(t, json.Unmarshal(old, &entries))
	_, _, store := newApp(t)
	g := putGame(t, store, mainPos)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(g.State, &raw))
	raw["prev"], _ = json.Marshal(entries[:40])
	raw["cur"], _ = json.Marshal(entries[40:])
	raw["outcome"] = json.RawMessage(`{"winner":2,"reason":"time","turn":4}`)
	state, _ := json.Marshal(raw)
	s, err := Game{}.Decode(0, state)
	require.NoError(t, err)
	require.Len(t, append(s.Prev, s.Cur...), len(entries))
	require.Equal(t, engine.EntryDraft, s.Prev[0].Kind)
	require.Equal(t, engine.North, s.Outcome.Winner)
	require.Contains(t, s.resultLine(), "(North) wins on time")
	out, err := Game{}.Encode(s)
	require.NoError(t, err)
	require.Contains(t, string(out), `"winner":"north"`)
	require.Contains(t, string(out), `"kind":"draft"`)
	require.NotContains(t, string(out), `"Kind"`)
	s2, err := Game{}.Decode(1, out)
	require.NoError(t, err)
	require.Equal(t, s.Prev, s2.Prev)
	require.Equal(t, s.Cur, s2.Cur)
	_, err = Game{}.Decode(2, out)
	require.ErrorContains(t, err, "unknown SandTable state version 2")
}

// TestSandHistoryRebuildsEveryTurn: a game keeps the position of its
// reveal and its turn log (archived turns included), from which every
// turn's board is rebuilt; an operator's position starts a new history.
func TestSandHistoryRebuildsEveryTurn(t *testing.T) {
	t.Parallel()
	a, _, store := newApp(t)
	g := putGame(t, store, engine.NewGame(9).Format())
	_, s := load(t, store)
	start, _, err := history(viewOf(t, store), g.ID, s)
	require.NoError(t, err)
	require.Nil(t, start, "no history during Deployment")
	for _, text := range []string{"S preset phalanx", "N preset skirmish", "S confirm", "N confirm"} {
		act, err := engine.ParseAction(text)
		require.NoError(t, err)
		_, err = s.apply(act)
		require.NoError(t, err)
	}
	putState(t, store, g, s)
	ends := map[int]string{}
	for i := 0; i < 60 && s.pos.Phase() != engine.PhaseFinished; i++ {
		var act engine.Action
		for _, l := range s.pos.LegalActions() {
			act = l
			if l.Kind == engine.ActDrone || i%7 == 0 {
				break // a Drone now and then
			}
		}
		turn := s.pos.Turn()
		_, err := s.apply(act)
		require.NoError(t, err, act.String())
		putState(t, store, g, s)
		if s.pos.Turn() != turn {
			ends[turn] = s.pos.Format()
		}
	}
	require.Greater(t, s.LogSeq, 5, "turns were archived in the store")
	_, s = load(t, store)
	start, log, err := history(viewOf(t, store), g.ID, s)
	require.NoError(t, err)
	require.NotNil(t, start)
	require.Equal(t, 1, start.Turn())
	for turn, want := range ends {
		got, err := engine.Replay(start, log, turn)
		require.NoError(t, err, "turn %d", turn)
		require.Equal(t, want, got.Format(), "turn %d", turn)
	}

	require.NoError(t, LoadPosition(a, g.ID, mainPos))
	_, s = load(t, store)
	start, log, err = history(viewOf(t, store), g.ID, s)
	require.NoError(t, err)
	require.Equal(t, s.pos.Format(), start.Format(), "the loaded position starts the history")
	require.Empty(t, log)
}

// TestAcceptWhereThreadsCannotBe: a challenge whose channel cannot hold
// threads is closed at acceptance, saying why, and nothing is saved.
func TestAcceptWhereThreadsCannotBe(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	r := cmd(alice, "sandtable", "challenge", nil)
	r.ChannelID = "general"
	r.Options["opponent"] = commands.Option{User: &bob}
	resp, err := a.Handle(r)
	require.NoError(t, err)
	p.Fail = func(op, _ string) error {
		if op == "thread" {
			return errors.Join(commands.ErrNoThreads, errors.New("HTTP 400"))
		}
		return nil
	}
	acc, err := a.Handle(click(bob, buttonOf(t, resp.Message, "Accept")))
	require.NoError(t, err)
	require.True(t, acc.Update)
	require.Contains(t, acc.Cards[0].Description, "This game cannot start here")
	require.Empty(t, acc.Rows)
	_, err = a.Handle(click(bob, buttonOf(t, resp.Message, "Accept")))
	require.Contains(t, userMsg(t, err), "no longer open")
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		games, err := tx.Games().Active(alice.ID)
		require.Empty(t, games, "no game was saved")
		return err
	}))
}

// TestGamesNeedATextChannel: a SandTable challenge is opened only in a
// server text channel, where the bot can create the game's thread.
func TestGamesNeedATextChannel(t *testing.T) {
	t.Parallel()
	a, p, _ := newApp(t)
	open := func(channel string, typ ui.ChannelType) error {
		p.Types[channel] = typ
		r := cmd(alice, "sandtable", "challenge", nil)
		r.ChannelID = channel
		r.Options["opponent"] = commands.Option{User: &bob}
		_, err := a.Handle(r)
		return err
	}
	require.Contains(t, userMsg(t, open("th9", ui.PublicThread)), "Use this in a server text channel, not in a thread")
	require.Contains(t, userMsg(t, open("voice", ui.OtherChannel)), "this kind of channel cannot hold the game's threads")
	require.NoError(t, open("general", ui.TextChannel))
}

// TestSandOneLiveBoardPerTurn: every action edits the live board in place
// (quiet); the placement that ends the turn pings the next player by a
// message of its own, which the next turn's ping deletes. The mover is
// answered privately.
func TestSandOneLiveBoardPerTurn(t *testing.T) {
	t.Parallel()
	a, p, store := newApp(t)
	putGame(t, store, mainPos)
	r, err := a.Handle(cmd(carol, "board", "", nil))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	// A first board, as the game's live one.
	_, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "e4-e5"}))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	first, _ := p.Snapshot()
	require.Len(t, first, 1, "no live board yet: posted")
	require.True(t, first[0].Msg.Quiet)
	r, err = a.Handle(cmd(alice, "move", "", map[string]string{"move": "Mf5"}))
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	commandstest.Deliver(t, a, t0)
	posts, edits := p.Snapshot()
	require.Len(t, posts, 2, "the turn passed: the board edited, the next player pinged")
	require.True(t, strings.HasPrefix(posts[1].Msg.Content, bob.Mention()+", your turn"), posts[1].Msg.Content)
	require.Len(t, edits, 1)
	require.Equal(t, posts[0].ID, edits[0].ID)
	require.Len(t, edits[0].Msg.Files, 1)
	require.Contains(t, edits[0].Msg.Content, bob.Mention()+", your turn", "the board says whose turn it is")

	// Bob's Main action updates his turn's board in place, pinging nobody.
	_, err = a.Handle(cmd(bob, "move", "", map[string]string{"move": "t19-t18"}))
	require.NoError(t, err)
	commandstest.Deliver(t, a, t0)
	posts, edits = p.Snapshot()
	require.Len(t, posts, 2, "the same player goes on: no new message")
	require.Len(t, edits, 2)
	require.Equal(t, posts[0].ID, edits[1].ID)
	require.Len(t, edits[1].Msg.Files, 1, "the live board keeps its image")
	require.Contains(t, edits[1].Msg.Content, "t19-t18")
	g, _ := load(t, store)
	require.Equal(t, posts[0].ID, commands.LiveBoard(g, commands.ChannelOfGame))
}
