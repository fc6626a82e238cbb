package survival

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/storage"
)

var (
	buttonOf = commandstest.ButtonOf
	t0       = commandstest.T0
	alice    = commandstest.Alice
	bob      = commandstest.Bob
	carol    = commandstest.Carol

	cmd     = commandstest.Cmd
	userMsg = commandstest.UserMsg
)

// kingsShuffle: a lone king each, far apart: no capture is possible
// anywhere, so the kings can walk back and forth to repeat the position.
const kingsShuffle = "7k/8/8/8/8/8/8/K7 w - - 0 1"

// newApp is an App with Survival registered (see commandstest.NewApp).
func newApp(t testing.TB) (*commands.App, *commandstest.Platform, storage.Store) {
	t.Helper()
	return commandstest.NewApp(t, Register)
}

// putGame stores the Survival game "game1" starting from fen after moves
// (UCI), alice White and bob Black, an hour per move, in thread "th1" with
// its deadline at t0+1h, and returns its ID.
func putGame(t testing.TB, store storage.Store, fen string, moves ...string) string {
	t.Helper()
	s := &State{StartFEN: fen, Moves: moves, White: alice, Black: bob, MoveTime: time.Hour, Started: t0}
	raw, err := Game{}.Encode(s)
	require.NoError(t, err)
	return putRaw(t, store, raw, Game{}.Version(), true)
}

// putRaw stores the Survival game "game1" with the state raw as written at
// codec version version, in thread "th1", active or finished.
func putRaw(t testing.TB, store storage.Store, raw []byte, version int, active bool) string {
	t.Helper()
	g := &storage.Game{ID: "game1", Kind: Kind, GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{alice.ID, bob.ID}, Active: active, State: raw, StateVersion: version}
	if active {
		g.Deadline = t0.Add(time.Hour)
	}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Games().Put(g, t0) }))
	return g.ID
}

// load reads the stored game id and decodes its state.
func load(t testing.TB, store storage.Store, id string) (*storage.Game, *State) {
	t.Helper()
	g := commandstest.Game(t, store, id)
	st, err := Game{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	return g, st
}

// click is u's click on the component customID of message "m1".
func click(u commands.User, customID string) *commands.Request {
	return commandstest.Click(u, customID, "m1")
}

// fieldOf returns the value of the field named name of m's first card, ""
// when there is none.
func fieldOf(m commands.Message, name string) string {
	if len(m.Cards) == 0 {
		return ""
	}
	for _, f := range m.Cards[0].Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// fileOf returns m's file whose name has the suffix ext, nil when none.
func fileOf(m commands.Message, ext string) *ui.File {
	for _, f := range m.Files {
		if len(f.Name) >= len(ext) && f.Name[len(f.Name)-len(ext):] == ext {
			return f
		}
	}
	return nil
}

// liveBoard delivers what is due and returns the game's live board as it
// shows now (a move's news is its board, edited in place, the answer to
// the mover being private).
func liveBoard(t testing.TB, a *commands.App, p *commandstest.Platform) commands.Message {
	t.Helper()
	commandstest.Deliver(t, a, t0)
	posts := p.Shown()
	for i := len(posts) - 1; i >= 0; i-- {
		if len(posts[i].Msg.Files) > 0 && len(posts[i].Msg.Cards) > 0 {
			return posts[i].Msg
		}
	}
	t.Fatalf("no board posted among %d posts", len(posts))
	return commands.Message{}
}
