package bot_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// countingStore counts the transactions run on a store and signals each.
type countingStore struct {
	storage.Store
	n    atomic.Int64
	each chan struct{}
}

func (s *countingStore) note() {
	s.n.Add(1)
	select {
	case s.each <- struct{}{}:
	default:
	}
}

func (s *countingStore) View(ctx context.Context, fn func(storage.Tx) error) error {
	s.note()
	return s.Store.View(ctx, fn)
}

func (s *countingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	s.note()
	return s.Store.Update(ctx, fn)
}

// TestIdleBotReadsNothing: a bot on a bbolt file with nothing due (no
// timer, an empty outbox) and the default loops (no SweepEvery) makes no
// store transaction at all between its start and its heartbeat 30 s later:
// its loops sleep until their next time instead of polling. The quiet
// window asked for, 6 s of real time, is longer than the fixed 5-second
// tick the loops had before, so a polling loop fails it.
func TestIdleBotReadsNothing(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	raw, err := storage.Open(filepath.Join(t.TempDir(), "bot.db"), time.Second)
	require.NoError(t, err)
	store := &countingStore{Store: raw, each: make(chan struct{}, 1)}
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(srv.Token())
	var sweeps, rounds atomic.Int64
	b, err := bot.New(cfg, store, bot.Options{HTTPClient: srv.HTTPClient(),
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		AfterSweep:   func(time.Time, error) { sweeps.Add(1) },
		AfterDeliver: func() { rounds.Add(1) }})
	require.NoError(t, err)
	srv.Connect(b.Session())
	require.NoError(t, b.Start())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = b.Shutdown(ctx)
		_ = raw.Close()
	})
	require.NoError(t, srv.WaitCommands(wait, srv.Channel("general").ID, "survival", "move"))
	require.Eventually(t, func() bool { return sweeps.Load() > 0 && rounds.Load() > 0 }, wait, 10*time.Millisecond,
		"both loops ran once")

	// Wait (at most wait) for 6 s of real time without a transaction;
	// each transaction starts the window again.
	const quiet = 6 * time.Second
	deadline := time.After(wait)
	for {
		before := store.n.Load()
		window := time.NewTimer(quiet)
		select {
		case <-window.C:
			require.Equal(t, before, store.n.Load())
			s, r := sweeps.Load(), rounds.Load()
			t.Logf("quiet for %s after %d transactions (%d timer rounds, %d dispatcher rounds)", quiet, before, s, r)
			return
		case <-store.each:
			window.Stop()
		case <-deadline:
			window.Stop()
			t.Fatalf("the idle bot never went %s without a store transaction (%d in all)", quiet, store.n.Load())
		}
	}
}

// TestRetryWithoutPolling: with the event-driven loops on the real clock
// (no SweepEvery), a board whose post failed arrives when its retry is due:
// the dispatcher sleeps until the outbox's next due time (NextDelivery)
// instead of waiting for a tick.
func TestRetryWithoutPolling(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	h := startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{SweepEvery: -1})
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	h.srv.ServerErrorNext("POST /channels/*/messages", 1)
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	_, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	threads := h.srv.Threads(h.gen.ID)
	require.Len(t, threads, 1)
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		return len(h.messagesWith(threads[0].ID, "first move must be a promotion")) > 0
	}), "the retried board arrives")
	require.Len(t, h.messagesWith(threads[0].ID, "first move must be a promotion"), 1, "once")
	h.move(alice, h.srv.ChannelByID(threads[0].ID), "g7g8q")
}
