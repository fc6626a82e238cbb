package bot_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/internal/etcdtest"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// TestReadyzFollowsTheEtcdStore: /readyz reads the store, so a bot whose etcd
// cluster is down is not ready (it used to say ok, its check reading
// nothing), answers within a few seconds, keeps running, and is ready again
// when the cluster is back. It answers a short reason; the store's error
// (addresses, timeouts) is in the log only.
func TestReadyzFollowsTheEtcdStore(t *testing.T) {
	t.Parallel()
	c := etcdtest.Start(t)
	store, err := storage.OpenEtcd(context.Background(), storage.EtcdOptions{Endpoints: c.Endpoints(),
		RequestTimeout: 300 * time.Millisecond, RetryFor: time.Second})
	require.NoError(t, err)
	defer store.Close()
	srv := discordsim.Start(t, discordsim.Options{})
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(srv.Token())
	var logs testkit.SyncBuffer
	b, err := bot.New(cfg, store, bot.Options{HTTPClient: srv.HTTPClient(), HTTPListen: "127.0.0.1:0",
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	require.NoError(t, err)
	srv.Connect(b.Session())
	require.NoError(t, b.Start())
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = b.Shutdown(ctx)
	}()
	client := &http.Client{Timeout: wait} // an unbounded check fails the test
	readyz := func() (int, string) {
		resp, err := client.Get("http://" + b.HTTPAddr() + "/readyz")
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	require.Eventually(t, func() bool { code, _ := readyz(); return code == http.StatusOK }, wait, 10*time.Millisecond)

	c.Stop(0)
	code, body := readyz()
	require.Equal(t, http.StatusServiceUnavailable, code, body)
	require.Equal(t, "not ready: store unavailable", strings.TrimSpace(body), "a short reason, no error text")
	for _, ep := range c.Endpoints() {
		require.NotContains(t, body, strings.TrimPrefix(ep, "http://"))
	}
	require.Contains(t, logs.String(), "/readyz: not ready", "the detail is logged")
	require.Contains(t, logs.String(), "reason=\"store unavailable\" err=")

	c.Restart(0)
	require.Eventually(t, func() bool { code, _ := readyz(); return code == http.StatusOK }, wait, 10*time.Millisecond)
}

// TestStartFailsOnATakenListenAddress: when http.listen cannot be bound,
// Start says so naming the key, and Shutdown returns at once (it used to
// wait for loops that never started until its grace period ran out).
func TestStartFailsOnATakenListenAddress(t *testing.T) {
	t.Parallel()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	srv := discordsim.Start(t, discordsim.Options{})
	store := storage.NewMemory()
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(srv.Token())
	b, err := bot.New(cfg, store, bot.Options{HTTPClient: srv.HTTPClient(), HTTPListen: taken.Addr().String(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	srv.Connect(b.Session())
	err = b.Start()
	require.ErrorContains(t, err, "http.listen")
	// Nothing runs: a grace period much shorter than the tests' usual wait is plenty.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, b.Shutdown(ctx), "Shutdown waited for loops that never ran")
}
