package commands_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

var errTest = errors.New("HTTP 500")

// routeOf is the route of m's button labelled label.
func routeOf(t *testing.T, m commands.Message, label string) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if b, ok := c.(ui.Button); ok && b.Label == label {
				return b.Route
			}
		}
	}
	t.Fatalf("no %q button", label)
	return ""
}

// noteGame is a fake two-player game that sends direct messages and keeps
// what their delivery yields, and starts from challenges: the framework's
// Run, dm results (DMClosed) and the thread known to Start are tested on
// it.
type noteGame struct{}

type noteState struct {
	Thread string   `json:"thread"` // the thread ID Start saw
	DMs    []string `json:"dms"`    // what each dm effect yielded
	N      int      `json:"n"`
}

func (noteGame) Spec() commands.Spec[*noteState] {
	return commands.Spec[*noteState]{Name: "note", Title: "Note",
		Definitions: []*ui.Command{{Name: "dm", Description: "A direct message"}},
		Thread: map[string]commands.Action[*noteState]{
			// dm sends carol a direct message whose result the game keeps.
			"dm": func(t *commands.Turn[*noteState]) (*commands.Response, error) {
				t.Effect(commands.Effect{Op: commands.OpDM, User: commandstest.Carol.ID, Body: &commands.Message{Content: "hi"}, Result: "dm"})
				return &commands.Response{}, nil
			},
		},
		Start: func(t *commands.Turn[*noteState], ch *commands.Challenge) (string, error) {
			t.Save(&noteState{Thread: t.Game.ThreadID})
			t.Post(commands.Message{Content: "started"})
			return "Note · " + ch.Challenger.Name, nil
		},
		Delivered: func(t *commands.Turn[*noteState], result, id string) error {
			s := *t.State
			s.DMs = append(append([]string(nil), s.DMs...), result+"="+id)
			t.Save(&s)
			return nil
		},
	}
}

func (noteGame) Version() int                        { return 1 }
func (noteGame) Encode(s *noteState) ([]byte, error) { return json.Marshal(s) }
func (noteGame) Decode(v int, raw []byte) (*noteState, error) {
	var s noteState
	return &s, json.Unmarshal(raw, &s)
}
func (noteGame) Clock(*noteState) commands.Clock                  { return commands.Clock{Rule: commands.NoClock} }
func (noteGame) Outcome(*noteState) (storage.Outcome, bool)       { return storage.Outcome{}, false }
func (noteGame) Timeout(*commands.Turn[*noteState]) error         { return nil }
func (noteGame) Summary(*storage.Game, *noteState, string) string { return "" }

func noteSetup(t *testing.T) (*commands.App, *commandstest.Platform, storage.Store) {
	a, p, store := commandstest.NewApp(t, func(a *commands.App) {
		commands.Register[*noteState](a, noteGame{})
		commands.Register[*clockState](a, clockGame{})
	})
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		return tx.Games().Put(&storage.Game{ID: "game1", Kind: "note", ThreadID: "th1", Players: []string{commandstest.Alice.ID},
			Active: true, State: []byte(`{}`), StateVersion: 1}, commandstest.T0)
	}))
	return a, p, store
}

func noteOf(t *testing.T, store storage.Store, id string) *noteState {
	t.Helper()
	g := commandstest.Game(t, store, id)
	s, err := noteGame{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	return s
}

// TestDMResults: a dm effect with a Result feeds the message's ID back to
// the game, or DMClosed when the user's DMs are closed (Discord's 50007);
// any other failure is retried, never reported as closed.
func TestDMResults(t *testing.T) {
	t.Parallel()
	a, p, store := noteSetup(t)
	dm := func() {
		_, err := a.Handle(commandstest.Cmd(commandstest.Alice, "dm", "", nil))
		require.NoError(t, err)
	}
	dm()
	commandstest.Deliver(t, a, commandstest.T0)
	p.Closed[commandstest.Carol.ID] = true
	dm()
	commandstest.Deliver(t, a, commandstest.T0)
	p.Closed[commandstest.Carol.ID] = false
	fails := 1
	p.Fail = func(op, _ string) error {
		if op == "dm" && fails > 0 {
			fails--
			return &commands.PlatformError{HTTPStatus: 500, Status: "500 Internal Server Error", Err: errTest}
		}
		return nil
	}
	dm()
	commandstest.Deliver(t, a, commandstest.T0)
	require.Len(t, noteOf(t, store, "game1").DMs, 2, "a 500 yields nothing yet")
	commandstest.Deliver(t, a, commandstest.T0.Add(time.Minute))
	got := noteOf(t, store, "game1").DMs
	require.Len(t, got, 3)
	require.NotEqual(t, "dm="+commands.DMClosed, got[0])
	require.Equal(t, "dm="+commands.DMClosed, got[1])
	require.NotEqual(t, "dm="+commands.DMClosed, got[2], "the retried DM was sent")
}

// TestRun: Run acts on a game found by its ID, as a route does (saved
// under the game's lock, its effects queued), with no interaction to mark;
// a game of another state type is refused.
func TestRun(t *testing.T) {
	t.Parallel()
	a, p, store := noteSetup(t)
	r, err := commands.Run(a, &commands.Request{}, "game1", func(t *commands.Turn[*noteState]) (*commands.Response, error) {
		s := *t.State
		s.N = 7
		t.Save(&s)
		t.Post(commands.Message{Content: "ran"})
		return &commands.Response{}, nil
	})
	require.NoError(t, err)
	require.True(t, r.Committed)
	require.Equal(t, 7, noteOf(t, store, "game1").N)
	commandstest.Deliver(t, a, commandstest.T0)
	posts, _ := p.Snapshot()
	require.Len(t, posts, 1)
	require.Equal(t, "th1", posts[0].Channel)
	_, err = commands.Run(a, &commands.Request{}, "game1", func(t *commands.Turn[*clockState]) (*commands.Response, error) {
		return nil, nil
	})
	require.ErrorContains(t, err, "not registered with state")
}

// TestStartKnowsTheThread: a game started from a challenge's message
// knows its thread's ID (the message's) in Start.
func TestStartKnowsTheThread(t *testing.T) {
	t.Parallel()
	a, _, store := noteSetup(t)
	r := commandstest.Cmd(commandstest.Alice, "x", "", nil)
	r.ChannelID = "general"
	resp, err := a.OpenChallenge(r, "note", &commandstest.Bob, nil, nil)
	require.NoError(t, err)
	acc, err := a.Handle(commandstest.Click(commandstest.Bob, routeOf(t, resp.Message, "Accept"), "msg9"))
	require.NoError(t, err)
	require.Contains(t, acc.Cards[0].Description, "accepted")
	var games []*storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		games, err = tx.Games().Active(commandstest.Bob.ID)
		return err
	}))
	require.Len(t, games, 1)
	require.Equal(t, "msg9", games[0].ThreadID)
	require.Equal(t, "msg9", noteOf(t, store, games[0].ID).Thread, "Start saw the thread's ID")
}
