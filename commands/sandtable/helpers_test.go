package sandtable

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	engine "sandtable/games/sandtable"
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

// newApp is an App with SandTable registered (see commandstest.NewApp).
func newApp(t testing.TB) (*commands.App, *commandstest.Platform, storage.Store) {
	t.Helper()
	return commandstest.NewApp(t, Register)
}

// putGame stores the SandTable game "sand1" in thread "th1" with alice
// South and bob North, in the position text, with a one-hour turn and its
// deadline at t0+1h.
func putGame(t testing.TB, store storage.Store, text string) *storage.Game {
	t.Helper()
	pos, err := engine.ParsePosition(text)
	require.NoError(t, err)
	s := &State{South: alice, North: bob, TurnTime: time.Hour, Started: t0, pos: pos}
	s.record(pos.Advance())
	g := &storage.Game{ID: "sand1", Kind: Kind, GuildID: "g", ChannelID: "general", ThreadID: "th1",
		Players: []string{alice.ID, bob.ID}, Active: true, Deadline: t0.Add(time.Hour)}
	putState(t, store, g, s)
	return g
}

// putState writes s into g (at the codec's version) and stores both, with
// the turns s archives.
func putState(t testing.TB, store storage.Store, g *storage.Game, s *State) {
	t.Helper()
	raw, err := Game{}.Encode(s)
	require.NoError(t, err)
	g.State, g.StateVersion = raw, Game{}.Version()
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error {
		for i, turn := range s.archive {
			if err := tx.Logs().Put(g.ID, s.LogSeq-len(s.archive)+i+1, turn); err != nil {
				return err
			}
		}
		return tx.Games().Put(g, t0)
	}))
	s.archive = nil
}

// load reads the stored game "sand1" and decodes its state.
func load(t testing.TB, store storage.Store) (*storage.Game, *State) {
	t.Helper()
	g := commandstest.Game(t, store, "sand1")
	s, err := Game{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	return g, s
}

// viewOf reads store (for history).
func viewOf(t testing.TB, store storage.Store) func(func(storage.Tx) error) error {
	return func(fn func(storage.Tx) error) error { return store.View(t.Context(), fn) }
}

// click is u's click on the component customID of message "m1", with the
// select menu's values.
func click(u commands.User, customID string, values ...string) *commands.Request {
	r := commandstest.Click(u, customID, "m1")
	r.Values = values
	return r
}

// posts delivers the outbox and returns what was posted in channel since
// the index from.
func posts(t testing.TB, a *commands.App, p *commandstest.Platform, channel string, from int) []commands.Message {
	t.Helper()
	commandstest.Deliver(t, a, a.Now())
	all, _ := p.Snapshot()
	var out []commands.Message
	for _, s := range all[min(from, len(all)):] {
		if s.Channel == channel {
			out = append(out, s.Msg)
		}
	}
	return out
}

// sandGame reads the stored game "sand1": the record, the state and its
// position.
func sandGame(t testing.TB, store storage.Store) (*storage.Game, *State, *engine.Position) {
	t.Helper()
	g, s := load(t, store)
	return g, s, s.pos
}

// newestPanel delivers the outbox and returns u's newest deployment panel
// in their direct messages (failing when there is none).
func newestPanel(t testing.TB, a *commands.App, p *commandstest.Platform, u commands.User) commands.Message {
	t.Helper()
	commandstest.Deliver(t, a, a.Now())
	dms := p.DMs[u.ID]
	for i := len(dms) - 1; i >= 0; i-- {
		if len(dms[i].Cards) > 0 && strings.HasPrefix(dms[i].Cards[0].Title, "Your secret deployment") {
			return dms[i]
		}
	}
	t.Fatalf("no deployment panel in %s's direct messages", u.Name)
	return commands.Message{}
}

// dmClick is u's click on the component customID of a message in their
// direct messages (no guild).
func dmClick(u commands.User, customID string, values ...string) *commands.Request {
	r := click(u, customID, values...)
	r.GuildID, r.ChannelID = "", "dm:"+u.ID
	return r
}
