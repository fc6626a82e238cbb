package sandtable

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// One deployment panel per player (ruling D20): giving the panel again
// sends it anew and turns the older ones into pointers; an older panel's
// controls change nothing; a refusal is shown in the panel and the next
// success replaces it.

// started accepts a challenge from alice to bob and delivers the first
// effects: the game, its status message and both panels by DM (unless
// closed names users whose direct messages are closed).
func started(t *testing.T, closed ...commands.User) (*commands.App, *commandstest.Platform, storage.Store, *storage.Game) {
	t.Helper()
	a, p, store := newApp(t)
	for _, u := range closed {
		p.Closed[u.ID] = true
	}
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
	commandstest.Deliver(t, a, a.Now())
	return a, p, store, g
}

// stateOf reads game g's state.
func gameState(t *testing.T, store storage.Store, g *storage.Game) *State {
	t.Helper()
	rec := commandstest.Game(t, store, g.ID)
	s, err := Game{}.Decode(rec.StateVersion, rec.State)
	require.NoError(t, err)
	return s
}

// statusOf is game g's deployment status message as posted.
func statusOf(t *testing.T, p *commandstest.Platform, g *storage.Game) commands.Message {
	t.Helper()
	posted, _ := p.Snapshot()
	for _, s := range posted {
		if s.Channel == g.ThreadID && len(s.Msg.Cards) > 0 && strings.Contains(s.Msg.Cards[0].Title, "Deployment") {
			return s.Msg
		}
	}
	t.Fatal("no deployment status posted")
	return commands.Message{}
}

// lastEdit is the newest edit of the message id, or nil.
func lastEdit(p *commandstest.Platform, id string) *commands.Message {
	_, edits := p.Snapshot()
	for i := len(edits) - 1; i >= 0; i-- {
		if edits[i].ID == id {
			return &edits[i].Msg
		}
	}
	return nil
}

// requireMoved asserts that m is an older panel turned into a pointer: no
// card, no image, no control.
func requireMoved(t *testing.T, m *commands.Message) {
	t.Helper()
	require.NotNil(t, m, "the older panel was edited")
	require.Contains(t, m.Content, "This deployment panel moved")
	require.Empty(t, m.Cards)
	require.Empty(t, m.Files)
	require.Empty(t, m.Rows)
}

func TestReopeningKeepsOnePanel(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	s := gameState(t, store, g)
	require.Len(t, s.Panels[engine.South], 1)
	require.Equal(t, 1, s.PanelSeq[engine.South])
	require.NotEmpty(t, s.PanelKey[engine.South])
	require.Len(t, p.DMs[alice.ID], 1)
	status := statusOf(t, p, g)

	seen := []string{s.Panels[engine.South][0]}
	keys := map[string]bool{s.PanelKey[engine.South]: true}
	reopen := []func() *commands.Request{
		func() *commands.Request { return click(alice, buttonOf(t, status, "Deploy (private)")) },
		func() *commands.Request {
			r := cmd(alice, "sandtable", "deploy", nil)
			r.ChannelID = g.ThreadID
			return r
		},
		func() *commands.Request {
			r := cmd(alice, "sandtable", "deploy", map[string]string{"preset": "phalanx"})
			r.GuildID, r.ChannelID = "", "dm:"+alice.ID
			return r
		},
		func() *commands.Request {
			r := cmd(alice, "sandtable", "deploy", map[string]string{"edit": "remove a9; place I a9"})
			r.ChannelID = g.ThreadID
			return r
		},
	}
	for i, req := range reopen {
		r, err := a.Handle(req())
		require.NoError(t, err)
		require.True(t, r.Ephemeral)
		if i == 2 {
			require.Contains(t, r.Content, "I sent your deployment panel anew, here in our direct messages: it is the newest panel", "typed in the DMs")
		} else {
			require.Contains(t, r.Content, "I sent your deployment panel to you by direct message: it is the newest message there")
		}
		require.Empty(t, r.Files, "the answer where the user is is short: the panel is in the DMs")
		require.Empty(t, r.Rows)
		commandstest.Deliver(t, a, a.Now())
		s = gameState(t, store, g)
		require.Len(t, s.Panels[engine.South], 1, "one live panel")
		live := s.Panels[engine.South][0]
		require.NotContains(t, seen, live, "the panel is sent anew")
		require.Equal(t, i+2, s.PanelSeq[engine.South])
		require.False(t, keys[s.PanelKey[engine.South]], "a new key")
		keys[s.PanelKey[engine.South]] = true
		requireMoved(t, lastEdit(p, seen[len(seen)-1]))
		require.Nil(t, lastEdit(p, live), "the new panel stays as it was sent")
		seen = append(seen, live)
		newest := p.DMs[alice.ID][len(p.DMs[alice.ID])-1]
		require.Contains(t, newest.Cards[0].Footer, fmt.Sprintf("panel %d", i+2))
		require.NotEmpty(t, newest.Rows)
	}
	require.Len(t, p.DMs[alice.ID], 5, "one direct message per panel given, no duplicate")
	for _, id := range seen[:len(seen)-1] {
		requireMoved(t, lastEdit(p, id))
	}
	require.Contains(t, p.DMs[alice.ID][4].Content, "2 changes applied", "a change by command shows in the panel given anew")
	require.Len(t, p.DMs[bob.ID], 1, "Bob's panel is his own")
	require.Equal(t, 1, gameState(t, store, g).PanelSeq[engine.North])
}

// TestOlderPanelChangesNothing: every control of a panel that is no longer
// the live one, and a form opened from it, turns its message into a
// pointer and changes nothing; the live panel's controls act.
func TestOlderPanelChangesNothing(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	old := p.DMs[alice.ID][0]
	_, err := a.Handle(click(alice, buttonOf(t, statusOf(t, p, g), "Deploy (private)")))
	require.NoError(t, err)
	commandstest.Deliver(t, a, a.Now())
	before := gameState(t, store, g)
	routes := map[string]*commands.Request{}
	for _, label := range []string{"Random", "Paste layout", "Edit pieces", "Clear", "Confirm", "Layout as text"} {
		routes[label] = dmClick(alice, buttonOf(t, old, label))
	}
	routes["preset"] = dmClick(alice, selectRoute(t, old), "fortress")
	edits := dmClick(alice, strings.Replace(buttonOf(t, old, "Edit pieces"), ":dep-edit:", ":dep-edits:", 1))
	edits.Type, edits.Fields = commands.ModalRequest, map[string]string{"edits": "place T c3"}
	routes["the Edit pieces form"] = edits
	layout := dmClick(alice, strings.Replace(buttonOf(t, old, "Paste layout"), ":dep-paste", ":dep-layout", 1))
	layout.Type, layout.Fields = commands.ModalRequest, map[string]string{"layout": "9 T"}
	routes["the Paste layout form"] = layout
	for what, req := range routes {
		r, err := a.Handle(req)
		require.NoError(t, err, what)
		require.True(t, r.Update, "%s: the older panel itself is answered", what)
		requireMoved(t, &r.Message)
		require.Nil(t, r.Modal, "%s opens no form", what)
		after := gameState(t, store, g)
		require.Equal(t, before.pos.Format(), after.pos.Format(), "%s on an older panel changed nothing", what)
		require.Equal(t, before.PanelKey, after.PanelKey)
	}
	// An ephemeral panel (in the thread) says how to see the live one.
	req := click(alice, buttonOf(t, old, "Random"))
	r, err := a.Handle(req)
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "This deployment panel was replaced by a newer one")
	require.Contains(t, r.Content, "Deploy (private)")

	live := p.DMs[alice.ID][1]
	r, err = a.Handle(dmClick(alice, buttonOf(t, live, "Random")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "A random valid deployment")
	require.NoError(t, gameState(t, store, g).pos.Draft(engine.South).Validate(), "the live panel acts")
}

// selectRoute is the route of the first select menu of m.
func selectRoute(t *testing.T, m commands.Message) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if s, ok := c.(ui.Select); ok {
				return s.Route
			}
		}
	}
	t.Fatal("no select menu")
	return ""
}

func TestPanelRefusalReplacedBySuccess(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	panel := p.DMs[alice.ID][0]
	before := gameState(t, store, g).pos.Format()
	r, err := a.Handle(dmClick(alice, buttonOf(t, panel, "Confirm")))
	require.NoError(t, err)
	require.True(t, r.Update, "the refusal is shown in the panel, where the player clicked")
	require.False(t, r.Ephemeral)
	require.True(t, strings.HasPrefix(r.Content, "⚠️ You cannot confirm yet: the deployment is not valid: 0 of 2 Bases placed"), r.Content)
	require.Contains(t, r.Cards[0].Title, "Your secret deployment", "with the panel as it is")
	require.Len(t, r.Files, 1)
	require.NotEmpty(t, r.Rows, "its controls still work")
	require.Equal(t, before, gameState(t, store, g).pos.Format(), "nothing changed")
	require.False(t, r.Committed)

	// A bad line in the Edit pieces form: refused in the panel too.
	edits := dmClick(alice, strings.Replace(buttonOf(t, r.Message, "Edit pieces"), ":dep-edit:", ":dep-edits:", 1))
	edits.Type, edits.Fields = commands.ModalRequest, map[string]string{"edits": "place T c3\nplace T c12"}
	r, err = a.Handle(edits)
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "⚠️ Line 2 (`place T c12`) is not allowed")
	require.Equal(t, before, gameState(t, store, g).pos.Format(), "all or nothing")

	// The next success replaces the refusal in the same message.
	r, err = a.Handle(dmClick(alice, buttonOf(t, r.Message, "Random")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Equal(t, "A random valid deployment.", r.Content)
	require.Len(t, p.DMs[alice.ID], 1, "no message was added to the DMs")

	// Layout as text shows in the panel as well.
	r, err = a.Handle(dmClick(alice, buttonOf(t, r.Message, "Layout as text")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "Your current layout (South)")
	require.Contains(t, r.Content, "# South deployment")
	require.NotEmpty(t, r.Rows)

	// Someone who does not play is refused privately, as anywhere.
	_, err = a.Handle(dmClick(carol, buttonOf(t, r.Message, "Random")))
	require.Contains(t, userMsg(t, err), "You are not playing in this game")
}

// lossy is a platform whose first lose direct messages are sent but
// reported failed (the answer lost on the way back).
type lossy struct {
	*commandstest.Platform
	lose int
}

func (l *lossy) DM(ctx context.Context, userID string, m commands.Message) (string, error) {
	id, err := l.Platform.DM(ctx, userID, m)
	if err == nil && l.lose > 0 {
		l.lose--
		return "", &commands.PlatformError{HTTPStatus: 502, Status: "502 Bad Gateway", Err: fmt.Errorf("HTTP 502")}
	}
	return id, err
}

// TestReopenRetriedSendsOnePanel: a panel given anew is an effect saved
// with the new key: when its direct message was sent but the answer got
// lost, the retry finds it among the recent direct messages (the panel's
// number tells it from the older panel, the same otherwise) and sends no
// second one.
func TestReopenRetriedSendsOnePanel(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	l := &lossy{Platform: p}
	a.Platform = l
	status := statusOf(t, p, g)
	_, err := a.Handle(click(alice, buttonOf(t, status, "Deploy (private)")))
	require.NoError(t, err)
	commandstest.Deliver(t, a, a.Now())
	require.Len(t, p.DMs[alice.ID], 2)
	l.lose = 1
	_, err = a.Handle(click(alice, buttonOf(t, status, "Deploy (private)")))
	require.NoError(t, err)
	commandstest.Deliver(t, a, a.Now())
	require.Len(t, p.DMs[alice.ID], 3, "sent, though reported failed")
	require.Equal(t, 2, a.Pending(), "to be retried, with the older panel's edit behind it")
	commandstest.Deliver(t, a, a.Now().Add(time.Hour))
	require.Len(t, p.DMs[alice.ID], 3, "the retry sent no second panel")
	s := gameState(t, store, g)
	require.Equal(t, []string{"dm-2"}, s.Panels[engine.South], "the retry found the newest panel (its index 2), not the one before")
	require.Zero(t, a.Pending())

	// Not sent at all: the retry, which looks first, must not take the
	// panel before (the same but for its number) for this one.
	fails := 1
	p.Fail = func(op, _ string) error {
		if op == "dm" && fails > 0 {
			fails--
			return &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: fmt.Errorf("HTTP 500")}
		}
		return nil
	}
	_, err = a.Handle(click(alice, buttonOf(t, status, "Deploy (private)")))
	require.NoError(t, err)
	commandstest.Deliver(t, a, a.Now())
	require.Len(t, p.DMs[alice.ID], 3)
	commandstest.Deliver(t, a, a.Now().Add(time.Hour))
	require.Len(t, p.DMs[alice.ID], 4, "the retry sent the panel")
	require.Contains(t, p.DMs[alice.ID][3].Cards[0].Footer, "panel 4")
	require.NotEqual(t, []string{"dm-2"}, gameState(t, store, g).Panels[engine.South])
}

// TestPanelDeliveredAfterANewerOne: two panels given before the first is
// delivered: the first, no longer live when it arrives, is turned into a
// pointer at once; the second is the live one.
func TestPanelDeliveredAfterANewerOne(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	status := statusOf(t, p, g)
	for range 2 {
		_, err := a.Handle(click(alice, buttonOf(t, status, "Deploy (private)")))
		require.NoError(t, err)
	}
	commandstest.Deliver(t, a, a.Now())
	require.Len(t, p.DMs[alice.ID], 3)
	s := gameState(t, store, g)
	require.Len(t, s.Panels[engine.South], 1)
	_, edits := p.Snapshot()
	var moved []string
	for _, e := range edits {
		if strings.Contains(e.Msg.Content, "This deployment panel moved") {
			moved = append(moved, e.ID)
		}
	}
	require.Len(t, moved, 2, "the start panel and the first panel given again point to the live one")
	require.NotContains(t, moved, s.Panels[engine.South][0])
}

// TestPanelsWithClosedDMs: with closed direct messages every panel is an
// ephemeral answer with its own key: an older one's controls change
// nothing; once the player's DMs open, the panel goes there again.
func TestPanelsWithClosedDMs(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t, bob)
	require.True(t, gameState(t, store, g).DMClosed[engine.North])
	status := statusOf(t, p, g)
	open := func() commands.Message {
		r, err := a.Handle(click(bob, buttonOf(t, status, "Deploy (private)")))
		require.NoError(t, err)
		require.True(t, r.Ephemeral)
		require.True(t, strings.HasPrefix(r.Content, commands.DMClosedNote))
		require.Len(t, r.Files, 1)
		return r.Message
	}
	first := open()
	second := open()
	before := gameState(t, store, g).pos.Format()
	r, err := a.Handle(click(bob, buttonOf(t, first, "Random")))
	require.NoError(t, err)
	require.True(t, r.Update)
	require.Contains(t, r.Content, "This deployment panel was replaced by a newer one")
	require.Empty(t, r.Rows)
	require.Equal(t, before, gameState(t, store, g).pos.Format())
	r, err = a.Handle(click(bob, buttonOf(t, second, "Random")))
	require.NoError(t, err)
	require.Contains(t, r.Content, "A random valid deployment")
	commandstest.Deliver(t, a, a.Now())
	require.Empty(t, p.DMs[bob.ID])

	p.Closed[bob.ID] = false
	r, err = a.Handle(click(bob, buttonOf(t, status, "Deploy (private)")))
	require.NoError(t, err)
	require.Contains(t, r.Content, "by direct message")
	require.Len(t, p.DMs[bob.ID], 1)
	s := gameState(t, store, g)
	require.False(t, s.DMClosed[engine.North])
	require.Len(t, s.Panels[engine.North], 1)
	r, err = a.Handle(click(bob, buttonOf(t, second, "Random")))
	require.NoError(t, err)
	require.Contains(t, r.Content, "replaced by a newer one", "the ephemeral panel is no longer live")
}

// TestRevealClosesTheWaitingPanel: the player who confirmed first has
// their live panel closed by the reveal.
func TestRevealClosesTheWaitingPanel(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	for _, u := range []commands.User{alice, bob} {
		panel := p.DMs[u.ID][0]
		r, err := a.Handle(dmClick(u, selectRoute(t, panel), "phalanx"))
		require.NoError(t, err)
		_, err = a.Handle(dmClick(u, buttonOf(t, r.Message, "Confirm")))
		require.NoError(t, err)
	}
	require.Equal(t, engine.PhaseMain, gameState(t, store, g).pos.Phase())
	commandstest.Deliver(t, a, a.Now())
	m := lastEdit(p, gameState(t, store, g).Panels[engine.South][0])
	require.NotNil(t, m, "Alice's panel is closed")
	require.Contains(t, m.Content, "Deployment is over")
	require.Empty(t, m.Rows)
	require.Empty(t, m.Files)
}

// TestDeploymentFromAnotherGuildIsRefused: /sandtable deploy naming the
// game (its game option) from another server, and a panel's button
// replayed there, are refused and change nothing; the same command in
// direct messages (no server), by a player, applies as always.
func TestDeploymentFromAnotherGuildIsRefused(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	version := commandstest.Game(t, store, g.ID).Version
	pending := func() int {
		var n int
		require.NoError(t, store.View(t.Context(), func(tx storage.Tx) (err error) { n, err = tx.Outbox().Len(); return err }))
		return n
	}
	require.Zero(t, pending())
	panel := newestPanel(t, a, p, alice)

	r := cmd(alice, "sandtable", "deploy", map[string]string{"preset": "phalanx", "game": g.ID})
	r.GuildID, r.ChannelID = "other", "elsewhere"
	_, err := a.Handle(r)
	require.Contains(t, userMsg(t, err), "another server")
	replayed := click(alice, buttonOf(t, panel, "Random"))
	replayed.GuildID = "other"
	_, err = a.Handle(replayed)
	require.Contains(t, userMsg(t, err), "another server")
	require.Equal(t, version, commandstest.Game(t, store, g.ID).Version, "nothing changed")
	require.Zero(t, pending(), "no effect queued")
	require.False(t, gameState(t, store, g).pos.Confirmed(engine.South))

	r = cmd(alice, "sandtable", "deploy", map[string]string{"preset": "phalanx", "game": g.ID})
	r.GuildID, r.ChannelID = "", "dm:"+alice.ID
	_, err = a.Handle(r)
	require.NoError(t, err)
	require.Greater(t, commandstest.Game(t, store, g.ID).Version, version)
}

// TestEmptyLayoutChangesNothing: a layout that places no piece (an empty
// file or form) is refused and leaves the deployment as it was; it wiped a
// complete one (fresh-user finding).
func TestEmptyLayoutChangesNothing(t *testing.T) {
	t.Parallel()
	a, p, store, g := started(t)
	panel := p.DMs[alice.ID][0]
	_, err := a.Handle(dmClick(alice, buttonOf(t, panel, "Random")))
	require.NoError(t, err)
	before := gameState(t, store, g)
	for _, text := range []string{"", "   \n\n", "# only a comment\n"} {
		layout := dmClick(alice, strings.Replace(buttonOf(t, panel, "Paste layout"), ":dep-paste", ":dep-layout", 1))
		layout.Type, layout.Fields = commands.ModalRequest, map[string]string{"layout": text}
		r, err := a.Handle(layout) // the panel says the refusal in place
		require.NoError(t, err)
		require.Contains(t, r.Message.Content, "places no piece", "%q", text)
		require.Equal(t, before.pos.Format(), gameState(t, store, g).pos.Format(), "%q changed nothing", text)
	}
}
