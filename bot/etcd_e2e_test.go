package bot_test

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.etcd.io/etcd/api/v3/etcdserverpb"
	"google.golang.org/grpc"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/internal/etcdtest"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// Bots on an etcd store, in the test process: each with its own etcd
// client (closing one is its process's end), its lease, its watch, on the
// real clock with the event-driven loops (no SweepEvery).

// rpcCounter counts the unary etcd requests a client sends (ranges,
// transactions, puts, lease grants): the keep-alive and watch streams are
// not unary and are not counted.
type rpcCounter struct {
	n    atomic.Int64
	mu   sync.Mutex
	by   map[string]int
	each chan struct{}
	// sites, when set, counts the requests by call site too: the storage
	// function that sent it and the caller outside storage (benchmarks).
	sites map[string]int
	// reads counts the keys or ranges read by bucket, alone (a Range
	// request) or batched in a transaction's read request.
	reads map[string]int
}

func newRPCCounter() *rpcCounter {
	return &rpcCounter{by: map[string]int{}, reads: map[string]int{}, each: make(chan struct{}, 1)}
}

// bucketOf is a key's bucket: its part after the store's prefix.
func bucketOf(key []byte) string {
	parts := strings.SplitN(string(key), "/", 3)
	if len(parts) > 1 {
		return parts[1]
	}
	return ""
}

func (c *rpcCounter) interceptor(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	c.n.Add(1)
	name := method[strings.LastIndex(method, "/")+1:]
	if r, ok := req.(*etcdserverpb.RangeRequest); ok {
		// Which bucket: the key's part after the store's prefix.
		parts := strings.SplitN(string(r.Key), "/", 3)
		if len(parts) > 1 {
			name += " " + parts[1]
		}
		if len(r.RangeEnd) > 0 {
			name += " (scan)"
		}
	}
	c.mu.Lock()
	c.by[name]++
	switch r := req.(type) {
	case *etcdserverpb.RangeRequest:
		c.reads[bucketOf(r.Key)]++
	case *etcdserverpb.TxnRequest:
		for _, op := range append(append([]*etcdserverpb.RequestOp(nil), r.Success...), r.Failure...) {
			if rr := op.GetRequestRange(); rr != nil {
				c.reads[bucketOf(rr.Key)]++
			}
		}
	}
	if c.sites != nil {
		c.sites[name+" "+callSite()]++
	}
	c.mu.Unlock()
	select {
	case c.each <- struct{}{}:
	default:
	}
	return invoker(ctx, method, req, reply, cc, opts...)
}

// callSite names the storage functions that sent a request (innermost
// first, the kv layer's left out) and the closest function outside
// storage that called them.
func callSite() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	var chain []string
	outside := ""
	for {
		f, more := frames.Next()
		fn := f.Function
		if short, ok := strings.CutPrefix(fn, "sandtable/storage."); ok {
			if !strings.Contains(short, "etcdKV") && !strings.HasPrefix(short, "(*Etcd).") {
				chain = append(chain, short)
			}
		} else if len(chain) > 0 || strings.HasPrefix(fn, "sandtable/") && !strings.HasPrefix(fn, "sandtable/bot_test") {
			if strings.HasPrefix(fn, "sandtable/") {
				outside = strings.TrimPrefix(fn, "sandtable/")
			}
		}
		if outside != "" || !more {
			break
		}
	}
	return strings.Join(chain, "<") + " << " + outside
}

func (c *rpcCounter) sitesCopy() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.sites {
		out[k] = v
	}
	return out
}

// readsOf counts the reads of bucket's keys so far (see rpcCounter.reads).
func (c *rpcCounter) readsOf(bucket string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[bucket]
}

func (c *rpcCounter) methods() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]int{}
	for k, v := range c.by {
		out[k] = v
	}
	return out
}

// etcdBot is one bot on its own client of the cluster.
type etcdBot struct {
	h     *harness
	store *storage.Etcd
	rpcs  *rpcCounter
	logs  *testkit.SyncBuffer
	down  bool
}

// startEtcdBot starts a bot serving shards of count on the cluster, with
// lease TTL ttl (etcdtest's slow elections make etcd grant at least 6 s).
func startEtcdBot(t testing.TB, srv *discordsim.Server, c *etcdtest.Cluster, gen *discordsim.Channel, count int, shards []int, configure func(*bot.Config), opts bot.Options) *etcdBot {
	t.Helper()
	rpcs := newRPCCounter()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	store, err := storage.OpenEtcd(ctx, storage.EtcdOptions{Endpoints: c.Endpoints(),
		DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(rpcs.interceptor)}})
	require.NoError(t, err)
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(srv.Token())
	cfg.Discord.ShardCount = count
	cfg.Discord.ShardIDs = shards
	cfg.Outbox.LeaseTTL = bot.Duration(2 * time.Second)
	if configure != nil {
		configure(&cfg)
	}
	logs := &testkit.SyncBuffer{}
	opts.HTTPClient = srv.HTTPClient()
	opts.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(logs), &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := bot.New(cfg, store, opts)
	require.NoError(t, err)
	for _, s := range b.Sessions() {
		srv.Connect(s)
	}
	require.NoError(t, b.Start())
	e := &etcdBot{h: &harness{t: t, srv: srv, bot: b, logs: logs, gen: gen}, store: store, rpcs: rpcs, logs: logs}
	t.Cleanup(func() { e.stop(false) })
	return e
}

// stop shuts the bot down (crash: as a dying process, its lease left to
// run out) and closes its client.
func (e *etcdBot) stop(crash bool) {
	if e.down {
		return
	}
	e.down = true
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if crash {
		_ = e.h.bot.Crash(ctx)
	} else {
		_ = e.h.bot.Shutdown(ctx)
	}
	_ = e.store.Close()
}

// TestEtcdDeadProcessEffectsTakenOverOnce: bot A, serving the game's
// shard, posts a game's first board; Discord applies the post but A never
// learns it (the answer is held) and A dies (its lease abandoned, not
// revoked). Its claim vanishes with its lease; bot B, woken by the end of
// A's lease (no polling), takes the board over, reconciles it (finds it
// posted) and does not post it again: one board in the thread.
func TestEtcdDeadProcessEffectsTakenOverOnce(t *testing.T) {
	t.Parallel()
	c := etcdtest.Start(t)
	srv := discordsim.Start(t, discordsim.Options{})
	g, err := srv.AddGuildOnShard("Far Server", 0, 2, "war")
	require.NoError(t, err)
	gen := srv.Channels(g.ID)[0]
	a := startEtcdBot(t, srv, c, gen, 2, []int{0}, nil, bot.Options{})
	b := startEtcdBot(t, srv, c, gen, 2, []int{1}, nil, bot.Options{})
	require.NoError(t, srv.WaitCommands(wait, gen.ID, "survival", "move"))
	alice, bob := srv.User("alice"), srv.User("bob")

	ch := a.h.reply(alice, gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	pattern := "POST /channels/*/messages"
	srv.FailNext(pattern, 1, discordsim.Fault{Apply: true, Hold: time.Hour})
	_, err = srv.Click(bob, ch, buttonID(t, ch, "Accept"))
	require.NoError(t, err)
	// The accept waits for its board (delivered before its answer), which
	// waits for an answer that never comes: A is cut off mid-delivery.
	var thread string
	require.NoError(t, srv.WaitFor(wait, func() bool {
		ths := srv.Threads(gen.ID)
		if len(ths) == 1 {
			thread = ths[0].ID
		}
		return thread != ""
	}))
	boards := func() int {
		n := 0
		for _, m := range srv.Messages(thread) {
			if strings.Contains(m.Text(), "first move must be a promotion") {
				n++
			}
		}
		return n
	}
	require.NoError(t, srv.WaitFor(wait, func() bool { return boards() == 1 }), "A's post applied")
	died := time.Now()
	crashed := make(chan struct{})
	go func() { defer close(crashed); a.stop(true) }() // A dies with its post unanswered
	t.Cleanup(func() { <-crashed })
	require.Eventually(t, func() bool { return strings.Contains(b.logs.String(), "took over an effect claimed before") },
		wait, 10*time.Millisecond, "B takes A's board over once A's lease ends")
	t.Logf("taken over %s after A died", time.Since(died).Round(100*time.Millisecond))
	require.Eventually(t, func() bool { return b.h.bot.App().Due(time.Now()) == 0 }, wait, 10*time.Millisecond, "B delivers everything due")
	require.Equal(t, 1, boards(), "the board once: reconciled, not posted again")
	require.Contains(t, b.logs.String(), "change=process_gone", "woken by A's lease ending")
}

// TestIdleEtcdBotReadsNothing: a bot on etcd with nothing due sends no
// request to etcd between its start and its heartbeat 30 s later: its
// loops sleep until told (its own commits, the watch of the others'
// changes) instead of polling every 5 s. Only the lease's keep-alives and
// the watch stream run, which are streams, not counted.
func TestIdleEtcdBotReadsNothing(t *testing.T) {
	t.Parallel()
	c := etcdtest.Start(t)
	srv := discordsim.Start(t, discordsim.Options{})
	var sweeps, rounds atomic.Int64
	e := startEtcdBot(t, srv, c, srv.Channel("general"), 1, []int{0}, nil, bot.Options{
		AfterSweep: func(time.Time, error) { sweeps.Add(1) }, AfterDeliver: func() { rounds.Add(1) }})
	require.NoError(t, srv.WaitCommands(wait, srv.Channel("general").ID, "survival", "move"))
	require.Eventually(t, func() bool { return sweeps.Load() > 0 && rounds.Load() > 0 }, wait, 10*time.Millisecond,
		"both loops ran once")
	const quiet = 6 * time.Second
	deadline := time.After(wait)
	for {
		before := e.rpcs.n.Load()
		window := time.NewTimer(quiet)
		select {
		case <-window.C:
			require.Equal(t, before, e.rpcs.n.Load())
			t.Logf("quiet for %s after %d etcd requests: %v", quiet, before, e.rpcs.methods())
			return
		case <-e.rpcs.each:
			window.Stop()
		case <-deadline:
			window.Stop()
			t.Fatalf("the idle bot never went %s without an etcd request (%d in all: %v)", quiet, e.rpcs.n.Load(), e.rpcs.methods())
		}
	}
}

// TestEtcdLeaseLostThenRenewed: the store loses its majority (its one
// member stops) for longer than the lease's TTL: the bot notices its lease
// lost and stops delivering; when the member is back it takes a new lease
// and plays on, its effects delivered once.
func TestEtcdLeaseLostThenRenewed(t *testing.T) {
	t.Parallel()
	c := etcdtest.Start(t)
	srv := discordsim.Start(t, discordsim.Options{})
	gen := srv.Channel("general")
	e := startEtcdBot(t, srv, c, gen, 1, []int{0}, nil, bot.Options{})
	require.NoError(t, srv.WaitCommands(wait, gen.ID, "survival", "move"))

	stopped := time.Now()
	c.Stop(0)
	require.Eventually(t, func() bool { return strings.Contains(e.logs.String(), "lease on the store was lost") },
		wait, 10*time.Millisecond, "the lease runs out while the store is down")
	lost := time.Now()
	c.Restart(0)
	back := time.Now()
	require.Eventually(t, func() bool { return strings.Contains(e.logs.String(), "holding a new lease") },
		wait, 10*time.Millisecond, "a new lease once the store is back")
	t.Logf("lease lost %s after the stop; the member back %s later; a new lease %s after that",
		lost.Sub(stopped).Round(100*time.Millisecond), back.Sub(lost).Round(100*time.Millisecond), time.Since(back).Round(100*time.Millisecond))

	alice, bob := srv.User("alice"), srv.User("bob")
	thread := survivalOnEtcd(t, e, alice, bob)
	in, err := srv.Slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	require.NoError(t, err)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(m.Text(), "You played"), m.Text())
	require.Eventually(t, func() bool { return e.h.bot.App().Due(time.Now()) == 0 }, wait, 10*time.Millisecond)
	boards, seen := 0, map[string]bool{}
	for _, m := range srv.Messages(thread.ID) {
		if m.Ephemeral() {
			continue
		}
		require.False(t, seen[m.Text()], "shown twice: %q", m.Text())
		seen[m.Text()] = true
		if m.Attachment("board.png") != nil {
			boards++
			require.NotContains(t, m.Text(), "first move must be a promotion", "the live board is the move's")
		}
	}
	require.Equal(t, 1, boards, "one live board")
}
