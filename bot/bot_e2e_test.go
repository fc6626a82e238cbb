package bot_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
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

// testKind is a game kind whose commands misbehave on purpose.
func testKind(release <-chan struct{}, started chan<- struct{}) commandstest.Toy {
	return commandstest.Toy{Routes: commands.Spec[commandstest.None]{
		Name:  "test",
		Title: "Test",
		Definitions: []*ui.Command{
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
	}}
}

func TestPanicAnswersUserAndLogsStack(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
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
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	var draining atomic.Int64 // how many interactions Shutdown said it waits for
	opts := bot.Options{DeferAfter: time.Minute, Draining: func(n int) { draining.Store(int64(n)) }}
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), opts, testKind(release, started))
	alice := srv.User("alice")
	slow := h.slash(alice, h.gen.ID, "slow")
	select {
	case <-started:
	case <-time.After(wait):
		t.Fatal("the slow handler never started")
	}
	answers := "POST /interactions/" + slow.ID + "/*/callback"

	type stop struct {
		err      error
		answered bool // the in-flight interaction's answer had reached Discord
	}
	stopped := make(chan stop, 1)
	var returned atomic.Bool
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		err := h.bot.Shutdown(ctx)
		returned.Store(true)
		stopped <- stop{err, len(srv.CallsTo(answers)) > 0}
	}()
	// The handler is held until Shutdown says it waits for it, so a Shutdown
	// that does not wait closes the gateway (or returns) first, and fails here.
	require.NoError(t, srv.WaitFor(wait, func() bool {
		return draining.Load() != 0 || returned.Load() || len(srv.GatewayCloses()) > 0
	}), "Shutdown neither waited for the in-flight interaction nor closed the gateway")
	require.Empty(t, srv.GatewayCloses(), "Shutdown closed the gateway while an interaction was in flight")
	require.False(t, returned.Load(), "Shutdown returned while an interaction was in flight")
	require.EqualValues(t, 1, draining.Load(), "Shutdown waits for the one interaction in flight")
	sess := h.bot.Session()
	sess.RLock() // discordgo's Close holds the lock while it closes
	open := sess.DataReady
	sess.RUnlock()
	require.True(t, open, "the gateway was closed before Shutdown started waiting")

	// While shutting down, new interactions are refused politely.
	m, err := h.slash(alice, h.gen.ID, "games").WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, m.Text(), "restarting")

	close(release)
	m, err = slow.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Equal(t, "done", m.Content, "the in-flight interaction is answered")
	var st stop
	select {
	case st = <-stopped:
	case <-time.After(wait):
		t.Fatal("Shutdown did not return once the in-flight interaction was answered")
	}
	require.NoError(t, st.err)
	require.True(t, st.answered, "Shutdown returned before the in-flight interaction was answered")
	answer := srv.CallsTo(answers)
	require.Len(t, answer, 1)
	closes := srv.GatewayCloses()
	require.NotEmpty(t, closes, "Shutdown closes the gateway")
	for _, c := range closes {
		require.GreaterOrEqual(t, c.AfterCall, answer[0].Seq, "the answer reached Discord before the gateway was closed (%+v)", c)
	}
}

func TestGatewayIntentsAndGlobalRegistration(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	store := openStore(t)
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(srv.Token())
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
