package storage

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"sandtable/internal/retry"
)

// ErrTooLarge is returned by an etcd Update whose transaction is over
// etcd's limits (operations per transaction, bytes per request); nothing
// of it is written.
var ErrTooLarge = errors.New("storage: transaction over etcd's limits")

// EtcdOptions configure OpenEtcd. Only Endpoints is required.
type EtcdOptions struct {
	// Endpoints are the client URLs of the cluster's members
	// ("http://127.0.0.1:2379"; https with TLS).
	Endpoints []string
	// Prefix starts every key the store writes (default "sandtable/"), so
	// several bots or other programs can share one cluster.
	Prefix string
	// DialTimeout bounds the first contact with the cluster (default 5s).
	DialTimeout time.Duration
	// RequestTimeout bounds each etcd request of a transaction (default
	// 10s); a request that times out is retried like a conflict.
	RequestTimeout time.Duration
	// Username and Password turn on etcd's authentication. Never logged.
	Username, Password string
	// TLSCA, TLSCert and TLSKey are PEM files; TLS is on when any is set:
	// TLSCA verifies the members, TLSCert and TLSKey (together) are the
	// client's certificate.
	TLSCA, TLSCert, TLSKey string
	// MaxTxnOps and MaxRequestBytes are the cluster's limits (etcd's
	// --max-txn-ops, default 128, and --max-request-bytes, default 1.5 MiB):
	// a transaction over them is refused before it is sent.
	MaxTxnOps       int
	MaxRequestBytes int
	// MaxAttempts bounds how often Update runs its function when its
	// commit conflicts (default 16); then Update returns ErrConflict.
	MaxAttempts int
	// MustExist refuses a prefix holding no store instead of creating one
	// (to read a store, as sandtable migrate does).
	MustExist bool
	// DialOptions are more gRPC options of the client (tests count the
	// requests the bot sends with an interceptor).
	DialOptions []grpc.DialOption
	// RetryFor bounds how long Update and View retry a transient failure
	// of the cluster (no leader, a member gone; default 30s, the time a
	// cluster needs to elect a new leader many times over).
	RetryFor time.Duration
}

// String describes the options without the password.
func (o EtcdOptions) String() string {
	c := o
	if c.Password != "" {
		c.Password = "[redacted]"
	}
	type plain EtcdOptions // no String method: no recursion
	return fmt.Sprintf("%+v", plain(c))
}

// GoString is String, for %#v.
func (o EtcdOptions) GoString() string { return "storage.EtcdOptions" + o.String() }

// LogValue hides the password from log/slog.
func (o EtcdOptions) LogValue() slog.Value { return slog.StringValue(o.String()) }

// The defaults of EtcdOptions.
const (
	DefaultEtcdPrefix      = "sandtable/"
	defaultMaxTxnOps       = 128
	defaultMaxRequestBytes = 1536 * 1024
	defaultMaxAttempts     = 16
	// requestMargin is kept free under MaxRequestBytes for the request's own
	// envelope (headers, the raft entry's fields).
	requestMargin = 1024
	// scanPage is how many keys one range request of a scan fetches.
	scanPage = 200
)

func (o *EtcdOptions) defaults() {
	if o.Prefix == "" {
		o.Prefix = DefaultEtcdPrefix
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = 10 * time.Second
	}
	if o.MaxTxnOps <= 0 {
		o.MaxTxnOps = defaultMaxTxnOps
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = defaultMaxRequestBytes
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = defaultMaxAttempts
	}
	if o.RetryFor <= 0 {
		o.RetryFor = 30 * time.Second
	}
}

// Etcd is the Store on an etcd cluster, shared by any number of bot
// processes: the schema and repositories of Bolt over etcd keys
// "<prefix><bucket>/<key>", with optimistic transactions (see the package
// documentation).
type Etcd struct {
	cli  *clientv3.Client
	opts EtcdOptions
	// Counters, for tests, benchmarks and operators.
	commits, retries atomic.Int64
	maxOps, maxBytes atomic.Int64
	// leases are the leases this store granted (lease.go), by ID.
	leases sync.Map
	// guesses are index values read before (guesser), by full key; at
	// most maxGuesses, then forgotten all at once.
	guessMu sync.Mutex
	guesses map[string]string
}

// maxGuesses bounds Etcd.guesses.
const maxGuesses = 1 << 14

var _ Store = (*Etcd)(nil)

// OpenEtcd connects to the cluster, checks that it answers, and creates or
// migrates the schema under the prefix (safe when several processes start
// at once: the schema is written in one compare-and-put).
func OpenEtcd(ctx context.Context, o EtcdOptions) (*Etcd, error) {
	o.defaults()
	if len(o.Endpoints) == 0 {
		return nil, errors.New("etcd: no endpoints")
	}
	where := strings.Join(o.Endpoints, ",")
	var tlsCfg *tls.Config
	if o.TLSCA != "" || o.TLSCert != "" || o.TLSKey != "" {
		if (o.TLSCert == "") != (o.TLSKey == "") {
			return nil, errors.New("etcd: a TLS client certificate needs both its certificate and its key")
		}
		info := transport.TLSInfo{TrustedCAFile: o.TLSCA, CertFile: o.TLSCert, KeyFile: o.TLSKey}
		var err error
		if tlsCfg, err = info.ClientConfig(); err != nil {
			return nil, fmt.Errorf("etcd: TLS: %w", err)
		}
	}
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   o.Endpoints,
		DialTimeout: o.DialTimeout,
		TLS:         tlsCfg,
		Username:    o.Username,
		Password:    o.Password,
		Logger:      zap.NewNop(), // errors come back to the callers
		DialOptions: o.DialOptions,
	})
	if err != nil {
		return nil, fmt.Errorf("etcd %s: %w", where, err)
	}
	s := &Etcd{cli: cli, opts: o}
	// A linearizable read needs a leader and a quorum: the cluster answers.
	cctx, cancel := context.WithTimeout(ctx, o.DialTimeout)
	_, err = cli.Get(cctx, o.Prefix+bMeta+"/schema")
	cancel()
	if err != nil {
		cli.Close()
		return nil, fmt.Errorf("etcd %s does not answer (waited %s): %w", where, o.DialTimeout, err)
	}
	if err := s.migrate(ctx); err != nil {
		cli.Close()
		return nil, fmt.Errorf("etcd %s, prefix %q: %w", where, o.Prefix, err)
	}
	return s, nil
}

// Close closes the client.
func (s *Etcd) Close() error { return s.cli.Close() }

// Prefix is the prefix of every key of the store.
func (s *Etcd) Prefix() string { return s.opts.Prefix }

// Endpoints are the cluster's client URLs the store was opened with.
func (s *Etcd) Endpoints() []string { return s.opts.Endpoints }

// Stats counts the transactions committed and the runs of Update functions
// thrown away for a conflict (or a transient failure) since the store was
// opened.
func (s *Etcd) Stats() (commits, retries int64) { return s.commits.Load(), s.retries.Load() }

// Largest is the largest transaction committed since the store was opened:
// its writes and its estimated request size in bytes (each the largest
// seen, maybe of two transactions).
func (s *Etcd) Largest() (ops, bytes int) { return int(s.maxOps.Load()), int(s.maxBytes.Load()) }

func storeMax(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// Update runs fn on a snapshot and commits its writes in one etcd
// transaction if nothing it read has changed since; otherwise fn runs
// again on a fresh snapshot (at most MaxAttempts times, then ErrConflict).
// A transient failure of the cluster (no leader, a member gone, a request
// timeout) is retried the same way for at most RetryFor.
func (s *Etcd) Update(ctx context.Context, fn func(Tx) error) error {
	conflicts := 0
	var failing time.Time // since when attempts fail transiently
	carry := carryOf(ctx)
	seed := s.takeCarry(carry)
	again := false // the last attempt ran on a carried snapshot: no pause
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if attempt > 1 && !again {
			s.retries.Add(1)
			if err := sleepCtx(ctx, backoff(attempt)); err != nil {
				return err
			}
		}
		again = false
		k := &etcdKV{s: s, ctx: ctx, writable: true}
		if seed != nil {
			k.seed(seed)
			seed = nil // a run again starts afresh
		}
		t := newTx(k)
		err := fn(t)
		if k.seeded && k.err == nil && (err != nil || len(k.writes) == 0) {
			// What fn decided without writing (its own error, or nothing
			// to write) may be the carried snapshot's age speaking: run it
			// again on a fresh one, which decides.
			t.rollback()
			again = true
			continue
		}
		if err == nil && k.err == nil {
			var ok bool
			ok, err = k.commit()
			var lost *uncertainCommit
			if errors.As(err, &lost) {
				// The commit's answer was lost: it may have landed. Look
				// rather than run fn again over its own writes.
				if k.landed() {
					s.commits.Add(1)
					return nil
				}
			}
			if errors.Is(err, ErrLeaseLost) && conflicts+1 < s.opts.MaxAttempts {
				// The lease is marked lost now: fn, run again, binds
				// nothing to it (a caller that holds no lease claims
				// nothing).
				t.rollback()
				conflicts++
				continue
			}
			if err == nil {
				if ok {
					s.commits.Add(1)
					if carry != nil {
						carry.put(k.carryState(k.committed))
					}
					return nil
				}
				t.rollback()
				failing = time.Time{}
				if conflicts++; conflicts >= s.opts.MaxAttempts {
					return fmt.Errorf("%w: the transaction conflicted %d times in a row", ErrConflict, conflicts)
				}
				continue
			}
		} else if k.err != nil {
			err = k.err // a read failed: what fn decided is void
		} else {
			t.rollback()
			return err // fn's own error
		}
		t.rollback()
		if !s.transient(ctx, err) {
			return err
		}
		if failing.IsZero() {
			failing = time.Now()
		} else if time.Since(failing) > s.opts.RetryFor {
			return fmt.Errorf("%w: etcd failing for %s: %w", ErrUnavailable, s.opts.RetryFor, err)
		}
	}
}

// View runs fn on one snapshot of the store (every read at one revision).
func (s *Etcd) View(ctx context.Context, fn func(Tx) error) error {
	start := time.Now()
	carry := carryOf(ctx)
	s.takeCarry(carry) // a View reads afresh; it leaves its own snapshot
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		k := &etcdKV{s: s, ctx: ctx}
		err := fn(newTx(k))
		if k.err == nil {
			if err == nil && carry != nil {
				carry.put(k.carryState(0))
			}
			return err
		}
		if !s.transient(ctx, k.err) {
			return k.err
		}
		if time.Since(start) > s.opts.RetryFor {
			return fmt.Errorf("%w: etcd failing for %s: %w", ErrUnavailable, s.opts.RetryFor, k.err)
		}
		if err := sleepCtx(ctx, backoff(attempt+1)); err != nil {
			return err
		}
	}
}

// transient reports whether err is a failure that a new attempt may not
// meet: no leader, a member unreachable, a request timeout while ctx is
// still alive, or a snapshot revision compacted away.
func (s *Etcd) transient(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	if errors.Is(err, rpctypes.ErrCompacted) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ee rpctypes.EtcdError
	if errors.As(err, &ee) {
		return ee.Code() == codes.Unavailable || ee.Code() == codes.DeadlineExceeded
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded:
		return true
	}
	return false
}

// etcdRetry is the pause between attempts at a transient failure of the
// cluster: 3 ms doubling to at most 375 ms, each drawn in its upper two
// thirds (1 to 3 ms at first), as the Discord effects' policy but faster.
var etcdRetry = retry.Policy{Base: 3 * time.Millisecond, Cap: 375 * time.Millisecond, Jitter: 2.0 / 3}

// backoff is the jittered pause before attempt n (2 and more; less counts
// as 2).
func backoff(n int) time.Duration { return etcdRetry.Backoff(n - 1) }

func sleepCtx(ctx context.Context, d time.Duration) error { return retry.Sleep(ctx, d) }

// etcdKV is kv over one etcd transaction attempt: reads at one revision
// (the first read's), writes buffered until commit.
type etcdKV struct {
	s        *Etcd
	ctx      context.Context
	writable bool
	rev      int64 // the snapshot revision; 0 until the first read
	// cache holds what was read at rev, by full key (a nil value: absent).
	cache map[string]cachedKV
	// reads is the read set: full key → its mod revision at rev (0:
	// absent), compared at commit.
	reads map[string]int64
	// ranges are the scanned ranges [from, to) of full keys.
	ranges [][2]string
	// writes are the buffered writes by full key (del: a delete).
	writes map[string]bufWrite
	// pages are the scan pages read, by range (fetch).
	pages map[[2]string]fetched
	// covered are ranges [from, to) of full keys read whole at rev: a key
	// in one that the cache does not hold is absent.
	covered [][2]string
	// pending are the reads prefetch noted, not sent yet.
	pending []prefetchRead
	// seeded says the attempt started from what an earlier transaction
	// carried over (Carry), at rev; carried are the ranges of full keys
	// it carried over whole (the cache holds every key in them).
	seeded  bool
	carried [][2]string
	// committed is the revision of the attempt's commit (0: none sent).
	committed int64
	// exact are the ones of ranges that scans read whole (a scan that
	// fn's error ended may have read less).
	exact [][2]string
	// err is the first failed read: the kv interface has no error on get,
	// so the attempt is void and Update returns (or retries on) err.
	err error
}

type cachedKV struct {
	v   []byte
	mod int64
}

type bufWrite struct {
	v     []byte
	del   bool
	lease int64 // put bound to this lease (0: none)
}

func (k *etcdKV) key(b, key string) string { return k.s.opts.Prefix + b + "/" + key }

// opts are the options of a read at the snapshot revision.
func (k *etcdKV) readOpts(o ...clientv3.OpOption) []clientv3.OpOption {
	if k.rev != 0 {
		o = append(o, clientv3.WithRev(k.rev))
	}
	return o
}

func (k *etcdKV) fail(err error) {
	if k.err == nil {
		k.err = err
	}
}

func (k *etcdKV) get(b, key string) []byte {
	full := k.key(b, key)
	if w, ok := k.writes[full]; ok {
		if w.del {
			return nil
		}
		return w.v
	}
	if c, ok := k.cache[full]; ok {
		k.recordRead(full, c.mod)
		return c.v
	}
	if k.err != nil {
		return nil
	}
	if !k.isCovered(full) {
		k.readBatch([]readOp{{key: full}})
		if k.err != nil {
			return nil
		}
	}
	c := k.cache[full] // absent when neither read nor covered: nil
	k.recordRead(full, c.mod)
	return c.v
}

func (k *etcdKV) guess(b, key string) (string, bool) {
	k.s.guessMu.Lock()
	defer k.s.guessMu.Unlock()
	v, ok := k.s.guesses[k.key(b, key)]
	return v, ok
}

func (k *etcdKV) learn(b, key, v string) {
	k.s.guessMu.Lock()
	defer k.s.guessMu.Unlock()
	if k.s.guesses == nil || len(k.s.guesses) >= maxGuesses {
		k.s.guesses = map[string]string{}
	}
	k.s.guesses[k.key(b, key)] = v
}

// inCarried reports whether full lies in a range carried over whole.
func (k *etcdKV) inCarried(full string) bool {
	for _, r := range k.carried {
		if full >= r[0] && full < r[1] {
			return true
		}
	}
	return false
}

// isCovered reports whether full lies in a range read (or carried over)
// whole at rev.
func (k *etcdKV) isCovered(full string) bool {
	for _, rs := range [][][2]string{k.covered, k.carried} {
		for _, r := range rs {
			if full >= r[0] && full < r[1] {
				return true
			}
		}
	}
	return false
}

// readOp is one read of a batch: the key key (end ""), or the first limit
// keys of [key, end) in key order.
type readOp struct {
	key, end string
	limit    int64
}

// clockOffsetKey is the full key of the clock offset, which nearly every
// transaction reads (Meta.ClockOffset): each batch fetches it along while
// the attempt has not read it, so it never costs a request of its own.
func (k *etcdKV) clockOffsetKey() string { return k.s.opts.Prefix + bMeta + "/clock_offset" }

// readBatch reads ops in one request (an etcd Txn of ranges, served as a
// linearizable read) at the snapshot revision, fixing it when unset, and
// remembers what they read: the values in the cache, each range's page in
// pages and the part of the range it read whole in covered. Nothing is
// added to the read set: that is the business of the get or scan that
// uses a value.
func (k *etcdKV) readBatch(ops []readOp) {
	ops = append(ops, k.pendingOps(ops)...)
	gets := make([]clientv3.Op, 0, len(ops)+1)
	for _, o := range ops {
		if o.end == "" {
			gets = append(gets, clientv3.OpGet(o.key, k.readOpts()...))
			continue
		}
		gets = append(gets, clientv3.OpGet(o.key, k.readOpts(clientv3.WithRange(o.end), clientv3.WithLimit(o.limit),
			clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))...))
	}
	off := k.clockOffsetKey()
	if _, ok := k.cache[off]; !ok && !k.isCovered(off) {
		ops = append(ops, readOp{key: off})
		gets = append(gets, clientv3.OpGet(off, k.readOpts()...))
	}
	ctx, cancel := context.WithTimeout(k.ctx, k.s.opts.RequestTimeout)
	defer cancel()
	resp, err := k.s.cli.Txn(ctx).Then(gets...).Commit()
	if err == nil && len(resp.Responses) != len(ops) {
		err = fmt.Errorf("%d answers to %d reads", len(resp.Responses), len(ops))
	}
	if err != nil {
		k.fail(fmt.Errorf("storage: etcd read %s: %w", ops[0].key, err))
		return
	}
	if k.rev == 0 {
		k.rev = resp.Header.Revision
	}
	for i, o := range ops {
		r := resp.Responses[i].GetResponseRange()
		if r == nil {
			k.fail(fmt.Errorf("storage: etcd read %s: not a range answer", o.key))
			return
		}
		var page []cachedKVKey
		for _, kv := range r.Kvs {
			c := cachedKV{v: kv.Value, mod: kv.ModRevision}
			if c.v == nil {
				c.v = []byte{}
			}
			full := string(kv.Key)
			k.remember(full, c)
			page = append(page, cachedKVKey{full, c})
		}
		if o.end == "" {
			if len(page) == 0 {
				k.remember(o.key, cachedKV{})
			}
			continue
		}
		more := r.More && len(page) > 0
		next, upTo := "", o.end
		if len(page) > 0 {
			next = page[len(page)-1].key + "\x00"
		}
		if more {
			upTo = next
		}
		k.covered = append(k.covered, [2]string{o.key, upTo})
		if k.pages == nil {
			k.pages = map[[2]string]fetched{}
		}
		if _, ok := k.pages[[2]string{o.key, o.end}]; !ok {
			k.pages[[2]string{o.key, o.end}] = fetched{page, more, next}
		}
	}
}

// prefetch notes what the repositories are about to read: the next read
// that needs a request reads it too, in the same request (the keys and the
// ranges' first pages not read yet in this attempt). A prefetch alone
// sends nothing: what a transaction carried over (Carry) is not read again.
func (k *etcdKV) prefetch(reads []prefetchRead) {
	k.pending = append(k.pending, reads...)
}

// pendingOps are the reads prefetch noted that are still to read, as
// readOps, without those in skip; it forgets them.
func (k *etcdKV) pendingOps(skip []readOp) []readOp {
	var ops []readOp
	seen := map[readOp]bool{}
	for _, o := range skip {
		seen[readOp{key: o.key, end: o.end}] = true
	}
	for _, r := range k.pending {
		from := k.key(r.b, r.key)
		if r.to == "" && !r.toEnd {
			if _, ok := k.cache[from]; !ok && !k.isCovered(from) && !seen[readOp{key: from}] {
				if _, ok := k.writes[from]; !ok {
					seen[readOp{key: from}] = true
					ops = append(ops, readOp{key: from})
				}
			}
			continue
		}
		end := k.key(r.b, r.to)
		if r.toEnd {
			end = prefixEnd(k.key(r.b, ""))
		}
		if _, ok := k.pages[[2]string{from, end}]; ok || k.inCarried(from) {
			continue
		}
		limit := r.limit
		if limit <= 0 {
			limit = scanPage
		}
		if o := (readOp{key: from, end: end}); !seen[o] {
			// The first read of a range in a batch is its page: the
			// largest limit asked.
			seen[o] = true
			ops = append(ops, readOp{key: from, end: end, limit: int64(limit)})
		} else {
			for i := range ops {
				if ops[i].key == from && ops[i].end == end {
					ops[i].limit = max(ops[i].limit, int64(limit))
				}
			}
		}
	}
	k.pending = nil
	return ops
}

func (k *etcdKV) remember(full string, c cachedKV) {
	if k.cache == nil {
		k.cache = map[string]cachedKV{}
	}
	k.cache[full] = c
}

func (k *etcdKV) recordRead(full string, mod int64) {
	if !k.writable {
		return
	}
	if k.reads == nil {
		k.reads = map[string]int64{}
	}
	k.reads[full] = mod
}

func (k *etcdKV) put(b, key string, v []byte) error {
	if !k.writable {
		return ErrReadOnly
	}
	if v == nil {
		v = []byte{}
	}
	k.write(k.key(b, key), bufWrite{v: append([]byte(nil), v...)})
	return nil
}

func (k *etcdKV) putBound(b, key string, v []byte, lease int64) error {
	if err := k.put(b, key, v); err != nil {
		return err
	}
	w := k.writes[k.key(b, key)]
	w.lease = lease
	k.writes[k.key(b, key)] = w
	return nil
}

func (k *etcdKV) del(b, key string) error {
	if !k.writable {
		return ErrReadOnly
	}
	k.write(k.key(b, key), bufWrite{del: true})
	return nil
}

func (k *etcdKV) write(full string, w bufWrite) {
	if k.writes == nil {
		k.writes = map[string]bufWrite{}
	}
	k.writes[full] = w
}

// scan merges the snapshot's keys in [from, to) with the buffered writes,
// in key order, fetching the snapshot a page at a time.
func (k *etcdKV) scan(b, from, to string, fn func(string, []byte) error) error {
	if k.err != nil {
		return k.err
	}
	base := k.key(b, "")
	start, end := base+from, prefixEnd(base)
	if to != "" {
		end = base + to
	}
	// The buffered writes in range, in key order.
	var buf []string
	for full := range k.writes {
		if full >= start && full < end {
			buf = append(buf, full)
		}
	}
	sort.Strings(buf)
	var page []cachedKVKey
	next, more := start, true
	observed := end // the end of what the scan read
	emit := func(full string, v []byte) (bool, error) {
		if err := fn(full[len(base):], v); err != nil {
			if errors.Is(err, errStop) {
				observed = full + "\x00"
				return true, nil
			}
			return true, err
		}
		return false, nil
	}
	var result error
loop:
	for {
		if len(page) == 0 && more {
			if page, more, next = k.fetch(next, end); k.err != nil {
				return k.err
			}
		}
		var full string
		var v []byte
		switch {
		case len(page) > 0 && (len(buf) == 0 || page[0].key <= buf[0]):
			full, v = page[0].key, page[0].v
			page = page[1:]
			if len(buf) > 0 && buf[0] == full {
				buf = buf[1:]
				w := k.writes[full]
				if w.del {
					continue
				}
				v = w.v
			}
		case len(buf) > 0 && (!more || len(page) > 0):
			// The next buffered key comes before any key of the snapshot
			// not fetched yet (or the snapshot is exhausted).
			full = buf[0]
			buf = buf[1:]
			w := k.writes[full]
			if w.del {
				continue
			}
			v = w.v
		case len(buf) > 0:
			continue // fetch the next page first
		default:
			break loop
		}
		stop, err := emit(full, v)
		if stop {
			result = err
			break
		}
	}
	if k.writable {
		k.ranges = append(k.ranges, [2]string{start, observed})
		if result == nil {
			k.exact = append(k.exact, [2]string{start, observed}) // read whole (Carry)
		}
	}
	return result
}

type cachedKVKey struct {
	key string
	cachedKV
}

// fetched is one page a fetch read.
type fetched struct {
	page []cachedKVKey
	more bool
	next string
}

// fetch reads one page of [from, end) at the snapshot; a page read already
// in this attempt is not read again (the snapshot does not change: the
// outbox seeks a stream's head several times in one transaction).
func (k *etcdKV) fetch(from, end string) (page []cachedKVKey, more bool, next string) {
	if f, ok := k.pages[[2]string{from, end}]; ok {
		return f.page, f.more, f.next
	}
	if f, ok := k.fromCovered(from, end); ok {
		if len(f.page) == 0 && f.more {
			// Nothing left of the carried range: what follows it. (An
			// empty page that says more ends a scan.)
			return k.fetch(f.next, end)
		}
		return f.page, f.more, f.next
	}
	page, more, next = k.fetchPage(from, end)
	if k.err == nil {
		if k.pages == nil {
			k.pages = map[[2]string]fetched{}
		}
		k.pages[[2]string{from, end}] = fetched{page, more, next}
	}
	return page, more, next
}

// fromCovered is the page of [from, end) that the cache holds whole (from
// lies in a covered range), up to the covered range's end. Each key of it
// joins the read set: a key of a range carried over from an earlier
// transaction that was deleted since is noticed at commit.
func (k *etcdKV) fromCovered(from, end string) (fetched, bool) {
	for _, r := range k.carried {
		if from < r[0] || from >= r[1] {
			continue
		}
		upTo := min(r[1], end)
		var f fetched
		for full, c := range k.cache {
			if full >= from && full < upTo && c.v != nil {
				f.page = append(f.page, cachedKVKey{full, c})
			}
		}
		sort.Slice(f.page, func(i, j int) bool { return f.page[i].key < f.page[j].key })
		for _, p := range f.page {
			k.recordRead(p.key, p.mod)
		}
		if upTo < end {
			f.more, f.next = true, upTo
		}
		return f, true
	}
	return fetched{}, false
}

func (k *etcdKV) fetchPage(from, end string) (page []cachedKVKey, more bool, next string) {
	k.readBatch([]readOp{{key: from, end: end, limit: scanPage}})
	if k.err != nil {
		return nil, false, ""
	}
	f := k.pages[[2]string{from, end}]
	return f.page, f.more, f.next
}

// commit sends the buffered writes in one etcd transaction guarded by the
// read set; ok false: something read changed since the snapshot.
func (k *etcdKV) commit() (ok bool, err error) {
	if len(k.writes) == 0 {
		return true, nil // read only: a snapshot is consistent by itself
	}
	var cmps []clientv3.Cmp
	size := 64
	keys := make([]string, 0, len(k.reads))
	for full := range k.reads {
		keys = append(keys, full)
	}
	sort.Strings(keys)
	for _, full := range keys {
		if mod := k.reads[full]; mod == 0 {
			cmps = append(cmps, clientv3.Compare(clientv3.CreateRevision(full), "=", 0))
		} else {
			cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(full), "=", mod))
		}
		size += len(full) + 24
	}
	seen := map[[2]string]bool{}
	for _, r := range k.ranges {
		if seen[r] {
			continue
		}
		seen[r] = true
		cmps = append(cmps, clientv3.Compare(clientv3.ModRevision(r[0]).WithRange(r[1]), "<", k.rev+1))
		size += len(r[0]) + len(r[1]) + 24
	}
	wkeys := make([]string, 0, len(k.writes))
	for full := range k.writes {
		wkeys = append(wkeys, full)
	}
	sort.Strings(wkeys)
	ops := make([]clientv3.Op, 0, len(wkeys))
	for _, full := range wkeys {
		w := k.writes[full]
		if w.del {
			ops = append(ops, clientv3.OpDelete(full))
		} else if w.lease != 0 {
			ops = append(ops, clientv3.OpPut(full, string(w.v), clientv3.WithLease(clientv3.LeaseID(w.lease))))
		} else {
			ops = append(ops, clientv3.OpPut(full, string(w.v)))
		}
		size += len(full) + len(w.v) + 16
	}
	o := k.s.opts
	switch {
	case len(ops) > o.MaxTxnOps:
		return false, fmt.Errorf("%w: %d writes, over the limit of %d operations per transaction (etcd's --max-txn-ops); nothing was written", ErrTooLarge, len(ops), o.MaxTxnOps)
	case len(cmps) > o.MaxTxnOps:
		return false, fmt.Errorf("%w: %d keys and ranges read, over the limit of %d comparisons per transaction (etcd's --max-txn-ops); nothing was written", ErrTooLarge, len(cmps), o.MaxTxnOps)
	case size > o.MaxRequestBytes-requestMargin:
		return false, fmt.Errorf("%w: about %d bytes, over the limit of %d bytes per request (etcd's --max-request-bytes, less %d for the envelope); nothing was written", ErrTooLarge, size, o.MaxRequestBytes, requestMargin)
	}
	ctx, cancel := context.WithTimeout(k.ctx, o.RequestTimeout)
	defer cancel()
	resp, err := k.s.cli.Txn(ctx).If(cmps...).Then(ops...).Commit()
	if err == nil && testLoseAnswer != nil && testLoseAnswer() {
		err = status.Error(codes.Unavailable, "test: the commit's answer was lost")
	}
	if err != nil {
		if errors.Is(err, rpctypes.ErrTooManyOps) || errors.Is(err, rpctypes.ErrRequestTooLarge) {
			return false, fmt.Errorf("%w: the cluster refused it: %v; nothing was written", ErrTooLarge, err)
		}
		if errors.Is(err, rpctypes.ErrLeaseNotFound) {
			for _, w := range k.writes {
				if w.lease != 0 {
					k.s.leaseLost(w.lease)
				}
			}
			return false, fmt.Errorf("%w: %v; nothing was written", ErrLeaseLost, err)
		}
		return false, &uncertainCommit{err}
	}
	if resp.Succeeded {
		storeMax(&k.s.maxOps, int64(len(ops)))
		storeMax(&k.s.maxBytes, int64(size))
		k.committed = resp.Header.Revision
	}
	return resp.Succeeded, nil
}

// carried is what a transaction on an Etcd store carries over to the next
// of its sequence (Carry): the snapshot it ended with, at rev.
type carried struct {
	s   *Etcd
	rev int64
	// cache holds values as of rev by full key (nil: absent); ranges are
	// ranges of full keys whose every key at rev the cache holds.
	cache  map[string]cachedKV
	ranges [][2]string
}

// takeCarry takes from c what this store's last transaction with it left
// (nil when none).
func (s *Etcd) takeCarry(c *Carry) *carried {
	if c == nil {
		return nil
	}
	x, _ := c.take().(*carried)
	if x == nil || x.s != s {
		return nil
	}
	return x
}

// seed starts the attempt from what an earlier transaction carried over:
// its snapshot at x.rev, read again only where it knows nothing.
func (k *etcdKV) seed(x *carried) {
	k.seeded, k.rev, k.carried = true, x.rev, x.ranges
	k.cache = make(map[string]cachedKV, len(x.cache))
	for full, c := range x.cache {
		k.cache[full] = c
	}
}

// carryState is what the attempt carries over: with nothing committed,
// everything it read, at its snapshot; after a commit at revision
// committed, what it knows of the store at that revision: the keys and
// scanned ranges it read (its commit compared them: unchanged since its
// snapshot, but for a key deleted from a scanned range, which the next
// transaction's comparison of that key notices) and what it wrote.
func (k *etcdKV) carryState(committed int64) *carried {
	if k.rev == 0 && committed == 0 {
		return nil // read nothing
	}
	x := &carried{s: k.s, rev: k.rev, cache: map[string]cachedKV{}}
	if committed == 0 {
		for full, c := range k.cache {
			x.cache[full] = c
		}
		x.ranges = append(append([][2]string{}, k.covered...), k.carried...)
		return x
	}
	x.rev = committed
	for full := range k.reads {
		x.cache[full] = k.cache[full] // absent when not cached: read absent
	}
	for _, r := range k.exact {
		x.ranges = append(x.ranges, r)
		for full, c := range k.cache {
			if full >= r[0] && full < r[1] && c.v != nil {
				if _, ok := x.cache[full]; !ok {
					x.cache[full] = c
				}
			}
		}
	}
	for full, w := range k.writes {
		if w.del {
			x.cache[full] = cachedKV{}
		} else {
			x.cache[full] = cachedKV{v: w.v, mod: committed}
		}
	}
	return x
}

// testLoseAnswer, set by tests, makes a commit that succeeded fail as if
// its answer had been lost on the way back.
var testLoseAnswer func() bool

// uncertainCommit is a commit that failed without an answer from the
// cluster: it may or may not have been applied.
type uncertainCommit struct{ err error }

func (u *uncertainCommit) Error() string { return "storage: etcd commit: " + u.err.Error() }
func (u *uncertainCommit) Unwrap() error { return u.err }

// landed reports whether the attempt's writes are in the store as one
// transaction wrote them: every key it put holds its value, all with one
// mod revision after the snapshot. (A transaction of deletes only cannot
// tell: it is run again, which deletes nothing twice.) When the store
// cannot be read, it answers false and the attempt runs again.
func (k *etcdKV) landed() bool {
	var puts []string
	for full, w := range k.writes {
		if !w.del {
			puts = append(puts, full)
		}
	}
	if len(puts) == 0 {
		return false
	}
	ops := make([]clientv3.Op, len(puts))
	for i, full := range puts {
		ops[i] = clientv3.OpGet(full)
	}
	deadline := time.Now().Add(k.s.opts.RetryFor)
	for attempt := 2; ; attempt++ {
		ctx, cancel := context.WithTimeout(k.ctx, k.s.opts.RequestTimeout)
		resp, err := k.s.cli.Txn(ctx).Then(ops...).Commit()
		cancel()
		if err != nil {
			if !k.s.transient(k.ctx, err) || time.Now().After(deadline) || sleepCtx(k.ctx, backoff(attempt)) != nil {
				return false
			}
			continue
		}
		var rev int64
		for i, r := range resp.Responses {
			kvs := r.GetResponseRange().GetKvs()
			if len(kvs) != 1 || !bytes.Equal(kvs[0].Value, k.writes[puts[i]].v) || kvs[0].ModRevision <= k.rev {
				return false
			}
			if rev == 0 {
				rev = kvs[0].ModRevision
			} else if kvs[0].ModRevision != rev {
				return false
			}
		}
		return true
	}
}

// etcdSchema reads the stored schema version under the prefix (0: none).
func (s *Etcd) etcdSchema(ctx context.Context) (int, error) {
	resp, err := s.cli.Get(ctx, s.opts.Prefix+bMeta+"/schema")
	if err != nil {
		return 0, err
	}
	if len(resp.Kvs) == 0 {
		return 0, nil
	}
	return strconv.Atoi(string(resp.Kvs[0].Value))
}

// SchemaVersion reads the stored schema version.
func (s *Etcd) SchemaVersion() (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.RequestTimeout)
	defer cancel()
	return s.etcdSchema(ctx)
}
