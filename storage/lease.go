package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Leases bind outbox claims to the life of the process that holds them.
// A store shared by several processes (Etcd; Memory for tests) grants each
// process a lease, kept alive while the process lives (etcd's
// concurrency.Session renews it a third of its TTL before it runs out);
// a claim is a key of its own (bucket outbox_claims, never the effect's
// key) written bound to the lease, so it lasts exactly as long as its
// owner: a live process never loses a claim however long its backlog,
// and a dead process's claims are deleted by the store when its lease
// runs out. A bbolt file, which one process opens, needs no lease: its
// claims are written unbound and the process takes them all over at
// start (Outbox.Release with AnyOwner).

// ErrLeaseLost is returned by a transaction that binds a key to a lease
// the store no longer holds (it ran out, or was revoked): nothing of the
// transaction is written.
var ErrLeaseLost = errors.New("storage: the process's lease has ended")

// Lease is one process's lease on a shared store.
type Lease interface {
	// ID names the lease in claims (Outbox.Claim); never 0.
	ID() int64
	// Done is closed when the lease is lost: it ran out (its keep-alives
	// failed for its whole TTL, as when the cluster lost its majority) or
	// was revoked. The claims bound to it are gone or going.
	Done() <-chan struct{}
	// Revoke ends the lease now: its claims end at once (a process
	// stopping hands its effects over).
	Revoke(ctx context.Context) error
	// Abandon stops keeping the lease alive without revoking it: it runs
	// out within its TTL, as a dead process's does (tests).
	Abandon()
}

// Leaser is a store shared by processes that hold leases.
type Leaser interface {
	// Grant starts a lease of ttl for the process owner, kept alive until
	// it is revoked or lost. The store also keeps a key naming owner bound
	// to it, so that the others learn when it ends (Watcher).
	Grant(ctx context.Context, owner string, ttl time.Duration) (Lease, error)
}

// LeaseTTL bounds: etcd's own minimum is about 1.5 election timeouts
// (a cluster with slower elections grants more than asked).
const (
	MinLeaseTTL     = 2 * time.Second
	MaxLeaseTTL     = 60 * time.Second
	DefaultLeaseTTL = 10 * time.Second
)

// Grant starts the process's etcd lease: a concurrency.Session of ttl
// (whole seconds, at least MinLeaseTTL) and the key procs/<owner> bound
// to it.
func (s *Etcd) Grant(ctx context.Context, owner string, ttl time.Duration) (Lease, error) {
	if ttl < MinLeaseTTL || ttl > MaxLeaseTTL {
		return nil, fmt.Errorf("storage: a lease TTL must be between %s and %s, got %s", MinLeaseTTL, MaxLeaseTTL, ttl)
	}
	sess, err := concurrency.NewSession(s.cli, concurrency.WithTTL(int((ttl+time.Second-1)/time.Second)))
	if err != nil {
		return nil, fmt.Errorf("storage: etcd lease: %w", err)
	}
	l := &etcdLease{sess: sess, done: make(chan struct{})}
	go func() {
		select {
		case <-sess.Done():
			l.lose()
		case <-l.done:
		}
	}()
	rctx, cancel := context.WithTimeout(ctx, s.opts.RequestTimeout)
	defer cancel()
	if _, err := s.cli.Put(rctx, s.opts.Prefix+bProcs+"/"+owner, "", clientv3.WithLease(sess.Lease())); err != nil {
		_ = l.Revoke(ctx)
		return nil, fmt.Errorf("storage: etcd lease: %w", err)
	}
	s.leases.Store(int64(sess.Lease()), l)
	return l, nil
}

type etcdLease struct {
	sess *concurrency.Session
	once sync.Once
	done chan struct{}
}

func (l *etcdLease) ID() int64             { return int64(l.sess.Lease()) }
func (l *etcdLease) Done() <-chan struct{} { return l.done }
func (l *etcdLease) lose()                 { l.once.Do(func() { close(l.done) }) }

func (l *etcdLease) Revoke(ctx context.Context) error {
	defer l.lose()
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := l.sess.Client().Revoke(rctx, l.sess.Lease())
	l.sess.Orphan() // stop the keep-alives; the lease is revoked (or runs out)
	return err
}

func (l *etcdLease) Abandon() { l.sess.Orphan() }

// leaseLost marks the store's lease id lost (a commit found it gone).
func (s *Etcd) leaseLost(id int64) {
	if l, ok := s.leases.Load(id); ok {
		l.(*etcdLease).lose()
	}
}

// Grant starts a fake lease: it lasts until Expire or Revoke (its TTL is
// not timed: tests end it when they want the process dead).
func (m *Memory) Grant(_ context.Context, owner string, _ time.Duration) (Lease, error) {
	l := &MemoryLease{m: m, id: memLeases.Add(1), done: make(chan struct{})}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.leases == nil {
		m.leases = map[int64]*MemoryLease{}
	}
	m.leases[l.id] = l
	m.data[bProcs][owner] = []byte{}
	m.bound[bProcs+"/"+owner] = l.id
	return l, nil
}

var memLeases atomic.Int64

// MemoryLease is the Memory store's fake lease.
type MemoryLease struct {
	m    *Memory
	id   int64
	once sync.Once
	done chan struct{}
}

func (l *MemoryLease) ID() int64                    { return l.id }
func (l *MemoryLease) Done() <-chan struct{}        { return l.done }
func (l *MemoryLease) Revoke(context.Context) error { l.Expire(); return nil }
func (l *MemoryLease) Abandon()                     { l.Expire() }

// Expire ends the lease as if its process had died: the keys bound to it
// are deleted and Done is closed.
func (l *MemoryLease) Expire() {
	l.once.Do(func() {
		l.m.mu.Lock()
		delete(l.m.leases, l.id)
		for k, id := range l.m.bound {
			if id != l.id {
				continue
			}
			delete(l.m.bound, k)
			for b, kvs := range l.m.data {
				if key, ok := cutBucket(k, b); ok {
					delete(kvs, key)
				}
			}
		}
		l.m.notify(Event{Change: ProcessGone})
		l.m.mu.Unlock()
		close(l.done)
	})
}

// cutBucket splits the bound key full ("bucket/key") when its bucket is b.
func cutBucket(full, b string) (string, bool) {
	if len(full) > len(b) && full[:len(b)] == b && full[len(b)] == '/' {
		return full[len(b)+1:], true
	}
	return "", false
}
