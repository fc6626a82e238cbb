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
	"sandtable/bot/discordtest"
	"sandtable/commands"
)

// testKind is a game kind whose commands misbehave on purpose.
func testKind(release <-chan struct{}, started chan<- struct{}) *commands.Kind {
	return &commands.Kind{
		Name:  "test",
		Title: "Test",
		Definitions: []*discordgo.ApplicationCommand{
			{Name: "boom", Description: "Panics"},
			{Name: "slow", Description: "Waits"},
		},
		TopLevel: map[string]commands.Handler{
			"boom": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
				var m map[string]int
				m["x"]++ // nil map write: a real panic
				return nil, nil
			},
			"slow": func(a *commands.App, req *commands.Request) (*commands.Response, error) {
				started <- struct{}{}
				<-release
				return commands.Reply("done"), nil
			},
		},
	}
}

func TestPanicAnswersUserAndLogsStack(t *testing.T) {
	srv := discordtest.Start(t, discordtest.Options{})
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{}, testKind(nil, nil))
	alice := srv.User("alice")
	m := h.reply(alice, h.gen.ID, "boom")
	text := mustBeEphemeral(t, m, alice)
	require.Contains(t, text, "something went wrong on my side (reference ")
	require.NotContains(t, text, "nil map", "internals are not shown to users")
	logs := h.logs.String()
	require.Contains(t, logs, "handler panicked")
	require.Contains(t, logs, "assignment to entry in nil map")
	require.Contains(t, logs, "bot_e2e_test.go", "the stack is logged")
	// The bot keeps working.
	require.Contains(t, mustBeEphemeral(t, h.reply(alice, h.gen.ID, "games"), alice), "no active games")
}

func TestGracefulShutdownFinishesInFlight(t *testing.T) {
	srv := discordtest.Start(t, discordtest.Options{})
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{DeferAfter: time.Minute}, testKind(release, started))
	alice := srv.User("alice")
	slow := h.slash(alice, h.gen.ID, "slow")
	<-started

	stopped := make(chan error, 1)
	go func() {
		// The grace period outlasts the waits below: a shorter one ends Shutdown early on a
		// busy machine, which this test would take for Shutdown not waiting.
		ctx, cancel := context.WithTimeout(context.Background(), 3*wait)
		defer cancel()
		stopped <- h.bot.Shutdown(ctx)
	}()
	// While shutting down, new interactions are refused politely.
	require.Eventually(t, func() bool {
		in := h.slash(alice, h.gen.ID, "games")
		m, err := in.WaitMessage(wait, nil)
		return err == nil && strings.Contains(m.Text(), "restarting")
	}, wait, 10*time.Millisecond)
	select {
	case <-stopped:
		t.Fatal("Shutdown returned while an interaction was in flight")
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	m, err := slow.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Equal(t, "done", m.Content, "the in-flight interaction is answered")
	require.NoError(t, <-stopped)
}

func TestGatewayIntentsAndGlobalRegistration(t *testing.T) {
	h := newHarness(t)
	sessions := h.srv.GatewaySessions()
	require.NotEmpty(t, sessions)
	require.Equal(t, discordgo.IntentsGuilds, sessions[0].Intents, "only the Guilds intent")
	require.Equal(t, [2]int{0, 1}, sessions[0].Shard)
	names := map[string]bool{}
	for _, c := range h.srv.Commands("") {
		names[c.Name] = true
	}
	for _, want := range []string{"survival", "move", "resign", "draw", "board", "games"} {
		require.True(t, names[want], "global command /%s registered", want)
	}
}

func TestDevGuildRegistrationAndShard(t *testing.T) {
	srv := discordtest.Start(t, discordtest.Options{})
	store := openStore(t)
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.Secret(srv.Token())
	cfg.Discord.DevGuildID = srv.Guild().ID
	cfg.Discord.ShardID = 0
	cfg.Discord.ShardCount = 2
	b, err := bot.New(cfg, store, bot.Options{HTTPClient: srv.HTTPClient()})
	require.NoError(t, err)
	srv.Connect(b.Session())
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Shutdown(context.Background()) })
	require.NoError(t, srv.WaitCommands(wait, srv.Channel("general").ID, "survival"))
	require.Empty(t, srv.Commands(""), "nothing registered globally with a dev guild")
	require.NotEmpty(t, srv.Commands(srv.Guild().ID))
	require.Equal(t, [2]int{0, 2}, srv.GatewaySessions()[0].Shard)
}
