package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/grpc"

	"sandtable/internal/etcdtest"
	"sandtable/internal/testkit"
)

// TestEtcdNoLostUpdate: two Updates read the same game at once and both
// change it; one commits, the other's commit conflicts, and its re-run
// sees the first one's move.
func TestEtcdNoLostUpdate(t *testing.T) {
	s := openEtcd(t)
	update(t, s, func(tx Tx) error {
		return tx.Games().Put(&Game{ID: "g1", Kind: "survival", Active: true, State: json.RawMessage(`[]`)}, t0)
	})
	_, retriesBefore := s.Stats()
	var read sync.WaitGroup
	read.Add(2)
	var mu sync.Mutex
	runs := map[string]int{}
	move := func(m string) error {
		return s.Update(ctx, func(tx Tx) error {
			g, err := tx.Games().Get("g1")
			if err != nil {
				return err
			}
			mu.Lock()
			runs[m]++
			first := runs[m] == 1
			mu.Unlock()
			if first { // both read before either commits
				read.Done()
				read.Wait()
			}
			var moves []string
			if err := json.Unmarshal(g.State, &moves); err != nil {
				return err
			}
			g.State, _ = json.Marshal(append(moves, m))
			return tx.Games().Put(g, t0)
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- move("e2e4") }()
	go func() { errs <- move("d2d4") }()
	require.NoError(t, <-errs)
	require.NoError(t, <-errs)
	view(t, s, func(tx Tx) {
		g, err := tx.Games().Get("g1")
		require.NoError(t, err)
		var moves []string
		require.NoError(t, json.Unmarshal(g.State, &moves))
		require.ElementsMatch(t, []string{"e2e4", "d2d4"}, moves, "no update lost")
		require.Equal(t, int64(3), g.Version)
	})
	require.Equal(t, 3, runs["e2e4"]+runs["d2d4"], "one function ran twice")
	_, retries := s.Stats()
	require.Equal(t, int64(1), retries-retriesBefore)
}

// TestEtcdDifferentGamesDoNotConflict: moves of different games (a game,
// two effects and an interaction mark each, as a move commits) run side by
// side without a single retry: they share no key.
func TestEtcdDifferentGamesDoNotConflict(t *testing.T) {
	s := openEtcd(t)
	const workers, moves = 4, 25
	for w := range workers {
		update(t, s, func(tx Tx) error {
			return tx.Games().Put(&Game{ID: fmt.Sprintf("g%d", w), Kind: "survival", Players: []string{"u"}, Active: true}, t0)
		})
	}
	commits0, retries0 := s.Stats()
	var wg sync.WaitGroup
	errs := make(chan error, workers*moves)
	for w := range workers {
		wg.Go(func() {
			for i := range moves {
				errs <- moveOnce(s, fmt.Sprintf("g%d", w), fmt.Sprintf("i%d-%d", w, i), t0.Add(time.Duration(i)*time.Second))
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	commits, retries := s.Stats()
	require.Equal(t, int64(workers*moves), commits-commits0)
	require.Zero(t, retries-retries0, "different games share no key")
	t.Logf("%d moves on %d games at once: %d retries", workers*moves, workers, retries-retries0)
}

// moveOnce is the transaction of one move: the interaction's mark, the
// game, its board post and its answer's copy.
func moveOnce(s Store, gameID, interaction string, now time.Time) error {
	return s.Update(ctx, func(tx Tx) error {
		if _, err := tx.Dedupe().Mark(interaction, now); err != nil {
			return err
		}
		g, err := tx.Games().Get(gameID)
		if err != nil {
			return err
		}
		g.State = json.RawMessage(fmt.Sprintf(`{"ply":%d}`, g.Version))
		g.Deadline = now.Add(time.Hour)
		if err := tx.Games().Put(g, now); err != nil {
			return err
		}
		if _, err := tx.Outbox().Add(gameID, map[string]string{"op": "post"}); err != nil {
			return err
		}
		_, err = tx.Outbox().Add(gameID, map[string]string{"op": "answer"})
		return err
	})
}

// TestEtcdLimits: a transaction over etcd's operation count or request
// size is refused with ErrTooLarge naming the limit, and writes nothing;
// one at the limits commits.
func TestEtcdLimits(t *testing.T) {
	s := openEtcd(t)
	puts := func(n int) func(Tx) error {
		return func(tx Tx) error {
			for i := range n {
				if err := tx.Playground().Put(fmt.Sprintf("n%d/%03d", n, i), []byte("x")); err != nil {
					return err
				}
			}
			return nil
		}
	}
	count := func(prefix string) int {
		c := 0
		view(t, s, func(tx Tx) {
			require.NoError(t, tx.Playground().Each(prefix, func(string, []byte) error { c++; return nil }))
		})
		return c
	}
	require.NoError(t, s.Update(ctx, puts(128)))
	require.Equal(t, 128, count("n128/"))
	err := s.Update(ctx, puts(129))
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorContains(t, err, "128 operations")
	require.Zero(t, count("n129/"), "nothing written")

	// Sizes: just under the limit commits (so the estimate is not too
	// loose for the server), over it is refused before sending.
	limit := defaultMaxRequestBytes - requestMargin
	fits := strings.Repeat("a", limit-200)
	require.NoError(t, s.Update(ctx, func(tx Tx) error { return tx.Playground().Put("big/fits", []byte(fits)) }))
	err = s.Update(ctx, func(tx Tx) error {
		require.NoError(t, tx.Playground().Put("big/a", []byte("small")))
		return tx.Playground().Put("big/b", []byte(strings.Repeat("b", limit)))
	})
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorContains(t, err, "bytes per request")
	require.Equal(t, 1, count("big/"), "nothing of the refused transaction written")

	// A cluster with lower limits than configured refuses for itself:
	// still ErrTooLarge, nothing written.
	loose := openEtcd(t, func(o *EtcdOptions) { o.MaxTxnOps = 1000; o.Prefix = s.Prefix() })
	err = loose.Update(ctx, puts(129))
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorContains(t, err, "too many operations")
	require.Zero(t, count("n129/"))
}

// TestEtcdOpenRace: processes starting at once on an empty prefix create
// the schema once.
func TestEtcdOpenRace(t *testing.T) {
	eps := sharedEtcd().Endpoints()
	prefix := fmt.Sprintf("race%d/", prefixes.Add(1))
	const n = 4
	errs := make(chan error, n)
	var start sync.WaitGroup
	start.Add(1)
	for range n {
		go func() {
			start.Wait()
			s, err := OpenEtcd(ctx, EtcdOptions{Endpoints: eps, Prefix: prefix})
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	start.Done()
	for range n {
		require.NoError(t, <-errs)
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: eps})
	require.NoError(t, err)
	defer cli.Close()
	resp, err := cli.Get(ctx, prefix, clientv3.WithPrefix())
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1, "only the schema version")
	require.Equal(t, prefix+"meta/schema", string(resp.Kvs[0].Key))
	require.Equal(t, fmt.Sprint(SchemaVersion), string(resp.Kvs[0].Value))
	require.Equal(t, int64(1), resp.Kvs[0].Version, "written once")
}

// TestEtcdOpenErrors: no cluster at the endpoints, a prefix holding
// foreign keys and a newer schema are refused, each saying why.
func TestEtcdOpenErrors(t *testing.T) {
	_, err := OpenEtcd(ctx, EtcdOptions{Endpoints: []string{"http://127.0.0.1:1"}, DialTimeout: 300 * time.Millisecond})
	require.ErrorContains(t, err, "http://127.0.0.1:1 does not answer")
	_, err = OpenEtcd(ctx, EtcdOptions{})
	require.ErrorContains(t, err, "no endpoints")

	eps := sharedEtcd().Endpoints()
	cli, err := clientv3.New(clientv3.Config{Endpoints: eps})
	require.NoError(t, err)
	defer cli.Close()
	foreign := fmt.Sprintf("foreign%d/", prefixes.Add(1))
	_, err = cli.Put(ctx, foreign+"something", "x")
	require.NoError(t, err)
	_, err = OpenEtcd(ctx, EtcdOptions{Endpoints: eps, Prefix: foreign})
	require.ErrorContains(t, err, "not a SandTable store")

	future := fmt.Sprintf("future%d/", prefixes.Add(1))
	_, err = cli.Put(ctx, future+"meta/schema", "99")
	require.NoError(t, err)
	_, err = OpenEtcd(ctx, EtcdOptions{Endpoints: eps, Prefix: future})
	require.ErrorContains(t, err, "schema version 99 is newer")
}

// TestEtcdMemberStopped: on a 3-member cluster, stopping the leader in the
// middle of a run of Updates loses none and fails none: they go on with
// the other two once those have elected a new leader.
func TestEtcdMemberStopped(t *testing.T) {
	testkit.SkipUnlessLong(t, "a 3-member cluster and a leader election")
	c := etcdtest.StartCluster(t, 3)
	s, err := OpenEtcd(ctx, EtcdOptions{Endpoints: c.Endpoints()})
	require.NoError(t, err)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		return tx.Games().Put(&Game{ID: "g", Kind: "survival", Players: []string{"u"}, Active: true}, t0)
	})
	done := make(chan struct{})
	var moves int
	var runErr error
	go func() {
		defer close(done)
		for i := 0; i < 200 && runErr == nil; i++ {
			mctx, cancel := context.WithTimeout(ctx, time.Minute)
			runErr = s.Update(mctx, func(tx Tx) error {
				g, err := tx.Games().Get("g")
				if err != nil {
					return err
				}
				return tx.Games().Put(g, t0)
			})
			cancel()
			if runErr == nil {
				moves++
			}
		}
	}()
	// Stop member 0 once the run is under way.
	require.Eventually(t, func() bool {
		var v int64
		_ = s.View(ctx, func(tx Tx) error {
			g, err := tx.Games().Get("g")
			if err == nil {
				v = g.Version
			}
			return err
		})
		return v > 20
	}, time.Minute, 5*time.Millisecond)
	// Stop the leader: the other two must elect one and go on.
	leader := -1
	for i, ep := range c.Endpoints() {
		st, err := s.cli.Status(ctx, ep)
		require.NoError(t, err)
		if st.Leader == st.Header.MemberId {
			leader = i
		}
	}
	require.NotEqual(t, -1, leader)
	c.Stop(leader)
	<-done
	require.NoError(t, runErr)
	require.Equal(t, 200, moves)
	view(t, s, func(tx Tx) {
		g, err := tx.Games().Get("g")
		require.NoError(t, err)
		require.Equal(t, int64(201), g.Version, "every Update applied once")
	})
}

// TestEtcdLostCommitAnswer: a commit that landed but whose answer was lost
// (the member died before answering) is found in the store: Update
// succeeds without running its function again, so the change is applied
// once. A lost answer of a commit that did not land runs it again.
func TestEtcdLostCommitAnswer(t *testing.T) {
	s := openEtcd(t)
	var lose atomic.Int32
	testLoseAnswer = func() bool { return lose.Add(-1) >= 0 }
	defer func() { testLoseAnswer = nil }()
	runs := 0
	bump := func(tx Tx) error {
		runs++
		var c struct{ N int }
		if err := tx.Records().Get("k", "g", "n", &c); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		c.N++
		return tx.Records().Put("k", "g", "n", c)
	}
	lose.Store(1)
	require.NoError(t, s.Update(ctx, bump))
	require.Equal(t, 1, runs, "the function ran once")
	var c struct{ N int }
	view(t, s, func(tx Tx) { require.NoError(t, tx.Records().Get("k", "g", "n", &c)) })
	require.Equal(t, 1, c.N, "applied once")

	// A lost answer after a conflict (nothing landed) runs fn again.
	runs = 0
	lose.Store(1)
	first := true
	require.NoError(t, s.Update(ctx, func(tx Tx) error {
		if err := bump(tx); err != nil {
			return err
		}
		if first { // another process writes the key meanwhile
			first = false
			testLoseAnswer = nil
			require.NoError(t, s.Update(ctx, func(tx Tx) error { return tx.Records().Put("k", "g", "n", struct{ N int }{10}) }))
			testLoseAnswer = func() bool { return lose.Add(-1) >= 0 }
		}
		return nil
	}))
	require.Equal(t, 2, runs)
	view(t, s, func(tx Tx) { require.NoError(t, tx.Records().Get("k", "g", "n", &c)) })
	require.Equal(t, 11, c.N)
}

// TestEtcdOptionsHidePassword: the password never prints, whichever way
// the options are printed or logged.
func TestEtcdOptionsHidePassword(t *testing.T) {
	o := EtcdOptions{Endpoints: []string{"http://a:2379"}, Username: "bot", Password: "pw-sekrit"}
	var b strings.Builder
	fmt.Fprintf(&b, "%v %+v %#v %s", o, o, o, o)
	fmt.Fprintf(&b, "%v %+v", &o, &o)
	slog.New(slog.NewJSONHandler(&b, nil)).Info("x", "opts", o)
	slog.New(slog.NewTextHandler(&b, nil)).Info("x", "opts", o)
	require.NotContains(t, b.String(), "pw-sekrit")
	require.Contains(t, b.String(), "bot")
}

// TestEtcdAuth: on a cluster with authentication on, the store opens
// with the right user and password and is refused with a wrong one.
func TestEtcdAuth(t *testing.T) {
	c := etcdtest.Start(t)
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints()})
	require.NoError(t, err)
	defer cli.Close()
	_, err = cli.UserAdd(ctx, "root", "root-pw")
	require.NoError(t, err)
	_, err = cli.UserGrantRole(ctx, "root", "root")
	require.NoError(t, err)
	_, err = cli.AuthEnable(ctx)
	require.NoError(t, err)

	_, err = OpenEtcd(ctx, EtcdOptions{Endpoints: c.Endpoints(), Username: "root", Password: "wrong"})
	require.ErrorContains(t, err, "authentication failed")
	require.NotContains(t, err.Error(), "wrong")
	s, err := OpenEtcd(ctx, EtcdOptions{Endpoints: c.Endpoints(), Username: "root", Password: "root-pw"})
	require.NoError(t, err)
	defer s.Close()
	update(t, s, func(tx Tx) error { return tx.Meta().SetHeartbeat(t0) })
}

// TestBackoffEveryAttempt: the pause is positive and bounded for any attempt
// number a caller may pass, the first included (it was a negative shift: a
// panic that took down the bot when its first View met an unavailable cluster).
func TestBackoffEveryAttempt(t *testing.T) {
	for n := -1; n <= 40; n++ {
		d := backoff(n)
		require.Greater(t, d, time.Duration(0), "attempt %d", n)
		require.LessOrEqual(t, d, 375*time.Millisecond, "attempt %d", n)
	}
}

// TestEtcdViewWhileTheClusterIsDown: with the only member stopped, a View
// waits and retries (it used to panic on its first retry) and succeeds
// once the member is back; with the member gone longer than RetryFor, it
// returns an error.
func TestEtcdViewWhileTheClusterIsDown(t *testing.T) {
	c := etcdtest.Start(t)
	s, err := OpenEtcd(ctx, EtcdOptions{Endpoints: c.Endpoints(), RequestTimeout: 300 * time.Millisecond, RetryFor: 20 * time.Second})
	require.NoError(t, err)
	defer s.Close()
	update(t, s, func(tx Tx) error {
		return tx.Games().Put(&Game{ID: "g", Kind: "survival", Players: []string{"u"}, Active: true}, t0)
	})
	c.Stop(0)
	got := make(chan error, 1)
	tried := make(chan struct{}, 100)
	go func() {
		got <- s.View(ctx, func(tx Tx) error {
			_, err := tx.Games().Get("g")
			if err != nil {
				tried <- struct{}{}
			}
			return err
		})
	}()
	// Once an attempt has failed, the member comes back and a retry reads the game.
	select {
	case <-tried:
	case err := <-got:
		t.Fatalf("the View returned while the member was down: %v", err)
	}
	c.Restart(0)
	select {
	case err := <-got:
		require.NoError(t, err)
	case <-time.After(time.Minute):
		t.Fatal("the View did not return after the member came back")
	}

	short, err := OpenEtcd(ctx, EtcdOptions{Endpoints: c.Endpoints(), RequestTimeout: 200 * time.Millisecond, RetryFor: 500 * time.Millisecond})
	require.NoError(t, err)
	defer short.Close()
	c.Stop(0)
	err = short.View(ctx, func(tx Tx) error {
		_, err := tx.Games().Get("g")
		return err
	})
	require.ErrorIs(t, err, ErrUnavailable)
	require.NotErrorIs(t, err, ErrNotFound)
	err = short.Update(ctx, func(tx Tx) error { return tx.Meta().SetHeartbeat(t0) })
	require.ErrorIs(t, err, ErrUnavailable)
}

// TestEtcdBatchedReadsAtOneSnapshot: every read of a transaction is at
// the revision its first read fixed, the batched ones too (a key read with
// the clock offset, a stream's head read with its body and claim in one
// request): a game and an effect written after the first read are not
// seen, and neither is a changed clock offset.
func TestEtcdBatchedReadsAtOneSnapshot(t *testing.T) {
	s := openEtcd(t)
	update(t, s, func(tx Tx) error {
		if err := tx.Games().Put(&Game{ID: "g1", Kind: "survival", Active: true, State: json.RawMessage(`[]`)}, t0); err != nil {
			return err
		}
		if err := tx.Games().Put(&Game{ID: "g2", Kind: "survival", Active: true, Deadline: t0.Add(time.Hour), State: json.RawMessage(`[]`)}, t0); err != nil {
			return err
		}
		_, err := tx.Outbox().Add("s", map[string]string{"n": "1"})
		return err
	})
	other := openEtcd(t, func(o *EtcdOptions) { o.Prefix = s.Prefix() })
	first := true
	var heads []string
	require.NoError(t, s.View(ctx, func(tx Tx) error {
		if err := tx.Records().Get("survival", "guild", "u", &struct{}{}); !errors.Is(err, ErrNotFound) {
			return fmt.Errorf("want not found, got %v", err)
		}
		if first { // the snapshot is fixed: change what the rest reads
			first = false
			update(t, other, func(tx Tx) error {
				g, err := tx.Games().Get("g2")
				if err != nil {
					return err
				}
				g.State = json.RawMessage(`["e2e4"]`)
				if err := tx.Games().Put(g, t0); err != nil {
					return err
				}
				if err := tx.Meta().SetClockOffset(time.Minute); err != nil {
					return err
				}
				p, err := tx.Outbox().StreamHead("s")
				if err != nil {
					return err
				}
				if err := tx.Outbox().Done(p.ID); err != nil {
					return err
				}
				_, err = tx.Outbox().Add("s", map[string]string{"n": "2"})
				return err
			})
		}
		g, err := tx.Games().Get("g2")
		if err != nil {
			return err
		}
		require.JSONEq(t, `[]`, string(g.State), "g2 as of the snapshot")
		require.True(t, g.Deadline.Equal(t0.Add(time.Hour)), "the clock offset as of the snapshot: %s", g.Deadline)
		p, err := tx.Outbox().StreamHead("s")
		if err != nil {
			return err
		}
		heads = append(heads, string(p.Effect))
		return nil
	}))
	require.Equal(t, []string{`{"n":"1"}`}, heads, "the stream's head as of the snapshot")
	view(t, s, func(tx Tx) {
		g, err := tx.Games().Get("g2")
		require.NoError(t, err)
		require.JSONEq(t, `["e2e4"]`, string(g.State))
		require.True(t, g.Deadline.Equal(t0.Add(time.Hour+time.Minute)), "%s", g.Deadline)
		p, err := tx.Outbox().StreamHead("s")
		require.NoError(t, err)
		require.JSONEq(t, `{"n":"2"}`, string(p.Effect))
	})
}

// TestEtcdByChannelGuess: a store remembers which game a channel led to
// and reads that game with the channel's index in one request; when the
// channel now leads to another game (linked by another process), the
// index decides: the other game is read.
func TestEtcdByChannelGuess(t *testing.T) {
	var rpcs atomic.Int64
	count := grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		rpcs.Add(1)
		return invoker(ctx, method, req, reply, cc, opts...)
	})
	s := openEtcd(t, func(o *EtcdOptions) { o.DialOptions = []grpc.DialOption{count} })
	other := openEtcd(t, func(o *EtcdOptions) { o.Prefix = s.Prefix() })
	update(t, other, func(tx Tx) error {
		for _, id := range []string{"g1", "g2"} {
			if err := tx.Games().Put(&Game{ID: id, Kind: "survival", Active: true, State: json.RawMessage(`[]`)}, t0); err != nil {
				return err
			}
		}
		return tx.Games().LinkChannel("c", "g1")
	})
	byChannel := func() (string, int64) {
		before := rpcs.Load()
		var id string
		view(t, s, func(tx Tx) {
			g, err := tx.Games().ByChannel("c")
			require.NoError(t, err)
			id = g.ID
		})
		return id, rpcs.Load() - before
	}
	id, n := byChannel()
	require.Equal(t, "g1", id)
	require.Equal(t, int64(2), n, "the index, then the game")
	id, n = byChannel()
	require.Equal(t, "g1", id)
	require.Equal(t, int64(1), n, "the game guessed and read with the index")
	update(t, other, func(tx Tx) error { return tx.Games().LinkChannel("c", "g2") })
	id, n = byChannel()
	require.Equal(t, "g2", id, "the index decides")
	require.Equal(t, int64(2), n)
	id, _ = byChannel()
	require.Equal(t, "g2", id)
}

// countingEtcd opens a store under a new prefix whose unary requests are
// counted, and a second store (another process) on the same prefix.
func countingEtcd(t *testing.T) (s, other *Etcd, rpcs *atomic.Int64) {
	rpcs = &atomic.Int64{}
	count := grpc.WithChainUnaryInterceptor(func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		rpcs.Add(1)
		return invoker(ctx, method, req, reply, cc, opts...)
	})
	s = openEtcd(t, func(o *EtcdOptions) { o.DialOptions = []grpc.DialOption{count} })
	other = openEtcd(t, func(o *EtcdOptions) { o.Prefix = s.Prefix() })
	return s, other, rpcs
}

// TestEtcdCarry: an Update that starts from what the View before it
// carried over reads nothing the View read (one request: its commit), and
// the one after it starts from its commit; yet a change another process
// made meanwhile is never lost: a carried value changed since fails the
// commit and the function runs again on a fresh snapshot; an effect
// another process removed from a carried scanned range is noticed; and
// what a function decides without writing on a carried snapshot is
// decided again on a fresh one.
func TestEtcdCarry(t *testing.T) {
	s, other, rpcs := countingEtcd(t)
	update(t, s, func(tx Tx) error {
		if err := tx.Games().Put(&Game{ID: "g1", Kind: "survival", Active: true, State: json.RawMessage(`[]`)}, t0); err != nil {
			return err
		}
		_, err := tx.Outbox().Add("g1", map[string]string{"n": "1"})
		return err
	})
	move := func(tx Tx, m string) error {
		g, err := tx.Games().Get("g1")
		if err != nil {
			return err
		}
		var moves []string
		if err := json.Unmarshal(g.State, &moves); err != nil {
			return err
		}
		g.State, _ = json.Marshal(append(moves, m))
		return tx.Games().Put(g, t0)
	}
	moves := func() string {
		var st string
		view(t, other, func(tx Tx) {
			g, err := tx.Games().Get("g1")
			require.NoError(t, err)
			st = string(g.State)
		})
		return st
	}

	// The View, then the Update from its snapshot: one request.
	c := WithCarry(ctx, NewCarry())
	require.NoError(t, s.View(c, func(tx Tx) error {
		tx.Prefetch(HintGame("g1"), HintStreamHead("g1"))
		_, err := tx.Games().Get("g1")
		return err
	}))
	before := rpcs.Load()
	require.NoError(t, s.Update(c, func(tx Tx) error { return move(tx, "e2e4") }))
	require.Equal(t, int64(1), rpcs.Load()-before, "the commit only")
	// The next Update starts from that commit: one request again.
	before = rpcs.Load()
	require.NoError(t, s.Update(c, func(tx Tx) error { return move(tx, "e7e5") }))
	require.Equal(t, int64(1), rpcs.Load()-before, "the commit only")
	require.JSONEq(t, `["e2e4","e7e5"]`, moves())

	// Another process moves in between: the carried game is stale, the
	// commit conflicts, the re-run sees the other move. Nothing is lost.
	update(t, other, func(tx Tx) error { return move(tx, "g1f3") })
	runs := 0
	require.NoError(t, s.Update(c, func(tx Tx) error { runs++; return move(tx, "b8c6") }))
	require.Equal(t, 2, runs, "the carried snapshot's run conflicted")
	require.JSONEq(t, `["e2e4","e7e5","g1f3","b8c6"]`, moves())

	// A carried scan: the outbox's effects, counted by an Update. Another
	// process then removes one; the next Update, from the carry, counts
	// what is there at its commit, not what was carried.
	var head string
	require.NoError(t, s.Update(c, func(tx Tx) error {
		p, err := tx.Outbox().StreamHead("g1")
		if err != nil {
			return err
		}
		head = p.ID
		if n, err := tx.Outbox().Len(); err != nil || n != 1 {
			return fmt.Errorf("%d effects (%v), want 1", n, err)
		}
		return move(tx, "g8f6")
	}))
	update(t, other, func(tx Tx) error { return tx.Outbox().Done(head) })
	var counted []int
	require.NoError(t, s.Update(c, func(tx Tx) error {
		n, err := tx.Outbox().Len()
		if err != nil {
			return err
		}
		counted = append(counted, n)
		return move(tx, "d2d4")
	}))
	require.Equal(t, []int{1, 0}, counted, "the carried count, noticed stale at commit, then the count at the commit")
	require.JSONEq(t, `["e2e4","e7e5","g1f3","b8c6","g8f6","d2d4"]`, moves())

	// A decision without writing, on a carried snapshot, is made again on
	// a fresh one: the game another process ended is seen ended.
	update(t, other, func(tx Tx) error {
		g, err := tx.Games().Get("g1")
		if err != nil {
			return err
		}
		g.Active = false
		return tx.Games().Put(g, t0)
	})
	var active []bool
	err := s.Update(c, func(tx Tx) error {
		g, err := tx.Games().Get("g1")
		if err != nil {
			return err
		}
		active = append(active, g.Active)
		if g.Active {
			return errors.New("still on")
		}
		return nil
	})
	require.NoError(t, err, "decided on the fresh snapshot")
	require.Equal(t, []bool{true, false}, active, "the carried snapshot, then a fresh one")
}

// TestEtcdCarryScanPastDeleted: a scan from a carried snapshot whose first
// carried range holds only what the transaction before deleted goes on
// past it: an effect added after the one just done sees the stream's next
// effect as its head (the stream looked empty: the effect was indexed as a
// head too, a due index entry beside the real head's).
func TestEtcdCarryScanPastDeleted(t *testing.T) {
	s, _, rpcs := countingEtcd(t)
	var ids []string
	update(t, s, func(tx Tx) error {
		ids = nil
		for i := range 3 {
			id, err := tx.Outbox().Add("s", map[string]int{"n": i})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	c := WithCarry(ctx, NewCarry())
	require.NoError(t, s.Update(c, func(tx Tx) error { return tx.Outbox().Done(ids[0]) }))
	before := rpcs.Load()
	require.NoError(t, s.Update(c, func(tx Tx) error {
		_, err := tx.Outbox().Add("s", map[string]int{"n": 3})
		return err
	}))
	require.LessOrEqual(t, rpcs.Load()-before, int64(2), "from the carry")
	view(t, s, func(tx Tx) {
		ps, err := tx.Outbox().Heads(t0.Add(time.Hour), 10)
		require.NoError(t, err)
		require.Len(t, ps, 1, "one due index entry: the stream's head")
		require.Equal(t, ids[1], ps[0].ID)
	})
}
