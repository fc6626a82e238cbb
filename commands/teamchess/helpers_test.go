package teamchess

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

var (
	buttonOf          = commandstest.ButtonOf
	alice, bob, carol = commandstest.Alice, commandstest.Bob, commandstest.Carol
	dan               = commands.User{ID: "100004", Name: "dan"}
	t0                = commandstest.T0
)

// newApp is an App with Team Chess registered, on a fake platform whose
// effects are delivered only by commandstest.Deliver.
func newApp(t *testing.T) (*commands.App, *commandstest.Platform, storage.Store) {
	t.Helper()
	return commandstest.NewApp(t, Register)
}

// startGame starts a Team Chess game through a stored lobby and its Start
// button, delivers its first effects, and returns the stored game with its
// public and team threads.
func startGame(t *testing.T, a *commands.App, store storage.Store, fen string, white, black []commands.User) (g *storage.Game, pub string, team [2]string) {
	t.Helper()
	l := &lobby{ID: commands.NewID(), Kind: Kind, GuildID: "g", ChannelID: "general", Creator: white[0],
		White: white, Black: black, MoveTime: time.Hour, Created: t0, StartFEN: fen}
	require.NoError(t, store.Update(t.Context(), func(tx storage.Tx) error { return tx.Lobbies().Put(l.ID, time.Time{}, l) }))
	resp, err := a.Handle(commandstest.Click(white[0], commands.CustomID{Scope: "c", ID: l.ID, Action: "start"}.String(), "lobbymsg-"+l.ID))
	require.NoError(t, err)
	require.True(t, resp.Update)
	commandstest.Deliver(t, a, t0)
	g = commandstest.Game(t, store, l.ID)
	return g, g.ThreadID, load(t, store, g.ID).TeamThreads
}

// in is a command by u in channel.
func in(u commands.User, channel, command, sub string, opts map[string]string) *commands.Request {
	r := commandstest.Cmd(u, command, sub, opts)
	r.ChannelID = channel
	return r
}

// click is u's click on the component customID (with select values) of
// the message "m1" in th1.
func click(u commands.User, customID string, values ...string) *commands.Request {
	r := commandstest.Click(u, customID, "m1")
	r.ChannelID, r.Values = "th1", values
	return r
}

// load decodes the stored game id.
func load(t *testing.T, store storage.Store, id string) *State {
	t.Helper()
	g := commandstest.Game(t, store, id)
	s, err := Game{}.Decode(g.StateVersion, g.State)
	require.NoError(t, err)
	return s
}

// text is everything a Team Chess message says: content, card
// descriptions and fields, and the text files (PGN, record) attached.
func text(t *testing.T, m commands.Message) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(m.Content + "\n")
	for _, e := range m.Cards {
		b.WriteString(e.Description + "\n")
		for _, f := range e.Fields {
			b.WriteString(f.Name + ": " + f.Value + "\n")
		}
	}
	for _, f := range m.Files {
		if strings.HasSuffix(f.Name, ".pgn") || strings.HasSuffix(f.Name, ".txt") {
			b.Write(f.Data)
		}
	}
	return b.String()
}

// selectOptions lists the values of m's select menu with action.
func selectOptions(t *testing.T, m commands.Message, action string) []string {
	t.Helper()
	var out []string
	for _, row := range m.Rows {
		for _, c := range row {
			if sm, ok := c.(ui.Select); ok {
				if id, _ := commands.ParseCustomID(sm.Route); id.Action == action {
					for _, o := range sm.Options {
						out = append(out, o.Value)
					}
				}
			}
		}
	}
	return out
}

// selectID returns the route of m's select menu with action.
func selectID(t *testing.T, m commands.Message, action string) string {
	t.Helper()
	for _, row := range m.Rows {
		for _, c := range row {
			if sm, ok := c.(ui.Select); ok {
				if id, _ := commands.ParseCustomID(sm.Route); id.Action == action {
					return sm.Route
				}
			}
		}
	}
	t.Fatalf("no %s menu", action)
	return ""
}

// requireAlready checks a private answer that a repeated click changed
// nothing.
func requireAlready(t *testing.T, r *commands.Response, err error, want string) {
	t.Helper()
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "a repeat is answered privately")
	require.False(t, r.Update, "a repeat leaves the message as it is")
	require.Equal(t, want, r.Content)
}

// boardIn delivers what is due and returns the newest board posted in
// channel (an action's news is its live board in every thread; the user
// who acted is answered privately).
func boardIn(t *testing.T, a *commands.App, p *commandstest.Platform, channel string) commands.Message {
	t.Helper()
	commandstest.Deliver(t, a, t0)
	posts := p.Shown() // the live board is edited in place
	for i := len(posts) - 1; i >= 0; i-- {
		if posts[i].Channel == channel && len(posts[i].Msg.Files) > 0 {
			return posts[i].Msg
		}
	}
	t.Fatalf("no board posted in %s", channel)
	return commands.Message{}
}

// allStats is every record of the guild, ranked (rule 6.1).
func allStats(a *commands.App, guildID string) ([]tc.PlayerStats, error) {
	st, err := guildStats(a, guildID, 1<<20, "")
	if err != nil {
		return nil, err
	}
	var out []tc.PlayerStats
	for _, r := range st.top {
		out = append(out, r.ps)
	}
	return out, nil
}
