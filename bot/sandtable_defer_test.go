package bot_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/commands/ui"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// slowFormKind is a test kind whose form submits are slow, to check the
// deferred paths that private flows (SandTable's deployment panel and
// Drone orders) rely on: a form submitted from a message is deferred as an
// update of that message, so its answer edits the message (Update) or
// follows up (ephemeral) without ever showing a public "thinking" message.
// A submit answers only when release delivers (the test sends once it has
// seen the deferral), or after wait.
func slowFormKind(release <-chan struct{}) commandstest.Toy {
	return commandstest.Toy{Routes: commands.Spec[commandstest.None]{
		Name: "slowform", Title: "Slow form",
		Definitions: []*ui.Command{{Name: "slowform", Description: "A form test"}},
		TopLevel: map[string]commands.Handler{"slowform": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
			g := &storage.Game{ID: "slowform" + req.InteractionID[len(req.InteractionID)-6:], Kind: "slowform", ThreadID: "x" + req.InteractionID, Players: []string{req.User.ID}, Active: true}
			if err := a.Store.Update(context.Background(), func(tx storage.Tx) error { return tx.Games().Put(g, req.Now) }); err != nil {
				return nil, err
			}
			return &commands.Response{Ephemeral: true, Message: commands.Message{Content: "panel v1", Rows: []ui.Row{
				{ui.Button{Label: "Form", Style: ui.Primary,
					Route: commands.CustomID{Scope: "g", ID: g.ID, Action: "open"}.String()}}}}}, nil
		}},
		Components: map[string]commands.Action[commandstest.None]{"open": func(t *commands.Turn[commandstest.None]) (*commands.Response, error) {
			g := t.Game
			return &commands.Response{Modal: &commands.Modal{CustomID: commands.CustomID{Scope: "g", ID: g.ID, Action: "submit"}.String(), Title: "Form",
				Inputs: []commands.ModalInput{{CustomID: "how", Label: "update or private", Required: true}}}}, nil
		}},
		Modals: map[string]commands.Action[commandstest.None]{"submit": func(t *commands.Turn[commandstest.None]) (*commands.Response, error) {
			req := t.Req
			select {
			case <-release:
			case <-time.After(wait):
			}
			if req.Fields["how"] == "update" {
				return &commands.Response{Update: true, Message: commands.Message{Content: "panel v2"}}, nil
			}
			return commands.Private("a private answer"), nil
		}},
	}}
}

func TestSandTableDeferredFormSubmits(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	release := make(chan struct{})
	// The submit handler waits for release, so it is deferred whatever the
	// delay; the delay is long so that opening the form (a modal cannot
	// follow a deferral) is answered in time on a busy machine.
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{DeferAfter: 2500 * time.Millisecond}, slowFormKind(release))
	alice, carol := srv.User("alice"), srv.User("carol")
	panel := h.reply(alice, h.gen.ID, "slowform")
	require.True(t, panel.Ephemeral())
	for _, how := range []string{"private", "update"} {
		in := h.click(alice, panel, buttonID(t, panel, "Form"))
		require.Equal(t, discordgo.InteractionResponseModal, respType(t, in))
		sub, err := srv.SubmitModal(alice, map[string]string{"how": how})
		require.NoError(t, err)
		require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, respType(t, sub), "a form from a message defers as an update")
		select { // the handler answers after the deferral
		case release <- struct{}{}:
		case <-time.After(wait):
			t.Fatal("the submit handler no longer waits")
		}
		if how == "update" {
			require.NoError(t, srv.WaitFor(wait, func() bool { return srv.Message(panel.ID).Content == "panel v2" }))
			require.True(t, srv.Message(panel.ID).Ephemeral(), "the ephemeral panel was edited in place")
		} else {
			f, err := sub.WaitFollowup(wait, nil)
			require.NoError(t, err)
			require.Contains(t, mustBeEphemeral(t, f, alice), "a private answer")
			require.NotNil(t, srv.Message(panel.ID), "the panel is still there")
		}
	}
	for _, m := range srv.VisibleMessages(carol, h.gen.ID) {
		require.False(t, strings.Contains(m.Text(), "panel") || strings.Contains(m.Text(), "private"), "public: %q", m.Text())
	}
}

// TestLateFormOpensNothingSilently: when the handler behind a button answers
// with a form after the bot has deferred, the form can no longer be shown;
// the user is told privately to click again instead of seeing nothing.
func TestLateFormOpensNothingSilently(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{DeferAfter: -1}, slowFormKind(nil))
	alice := srv.User("alice")
	in := h.slash(alice, h.gen.ID, "slowform")
	f, err := in.WaitFollowup(wait, nil)
	require.NoError(t, err)
	panel := f
	in = h.click(alice, panel, buttonID(t, panel, "Form"))
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, respType(t, in))
	f, err = in.WaitFollowup(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, f, alice), "took too long to open")
}
