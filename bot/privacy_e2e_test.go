package bot_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/internal/discordsim"
)

// noteKind has one command answering publicly with a private note.
func noteKind() commandstest.Toy {
	return commandstest.Toy{Routes: commands.Spec[commandstest.None]{
		Name:        "note",
		Title:       "Note",
		Definitions: []*ui.Command{{Name: "standings", Description: "A public list and your own line"}},
		TopLevel: map[string]commands.Handler{
			"standings": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
				r := commands.Reply("the list")
				r.PrivateNote = &commands.Message{Content: "your own line, " + req.User.Name}
				return r, nil
			},
		},
	}}
}

// TestPrivateNoteFollowsAPublicAnswer: a public answer with a private note
// (Response.PrivateNote) reaches everyone, the note only the invoker,
// whether the bot answered at once or deferred.
func TestPrivateNoteFollowsAPublicAnswer(t *testing.T) {
	t.Parallel()
	for name, deferAfter := range map[string]time.Duration{"at once": time.Minute, "deferred": -1} {
		t.Run(name, func(t *testing.T) {
			srv := discordsim.Start(t, discordsim.Options{})
			h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{DeferAfter: deferAfter}, noteKind())
			alice, bob := srv.User("alice"), srv.User("bob")
			in := h.slash(alice, h.gen.ID, "standings")
			m, err := in.WaitMessage(wait, nil)
			require.NoError(t, err)
			require.False(t, m.Ephemeral())
			require.Equal(t, "the list", m.Text())
			note, err := in.WaitFollowup(wait, func(f *discordsim.Message) bool { return f.ID != m.ID })
			require.NoError(t, err)
			require.Equal(t, "your own line, alice", mustBeEphemeral(t, note, alice))
			for _, v := range srv.VisibleMessages(bob, h.gen.ID) {
				require.NotContains(t, v.Text(), "your own line")
			}
		})
	}
}

// TestGamesListNeverShowsPublicly: /games is private from its first
// message: deferred, it "thinks" privately, so nobody sees that it was
// used, and its list is private.
func TestGamesListNeverShowsPublicly(t *testing.T) {
	t.Parallel()
	h := newDeferringHarness(t)
	alice := h.srv.User("alice")
	in := h.slash(alice, h.gen.ID, "games")
	r, err := in.WaitResponse(wait)
	require.NoError(t, err)
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
	require.NotNil(t, r.Data)
	require.NotZero(t, r.Data.Flags&discordgo.MessageFlagsEphemeral, "the deferral is private")
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, m, alice), "no active games")
}
