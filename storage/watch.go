package storage

import (
	"context"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Change is what a Watcher reports of other processes' writes: only the
// changes that may give a process work it would not learn of by itself.
type Change int

const (
	// TimerSet: another process set a game's timer (a deadline or a
	// reminder), maybe earlier than any this process knows.
	TimerSet Change = iota + 1
	// ProcessGone: a process's lease ended (it died, or stopped and handed
	// its effects over): the effects it claimed are anybody's now.
	ProcessGone
	// Missed: the watch was interrupted (the cluster lost its majority,
	// the watched revision was compacted): anything may have changed.
	Missed
)

func (c Change) String() string {
	switch c {
	case TimerSet:
		return "timer_set"
	case ProcessGone:
		return "process_gone"
	case Missed:
		return "missed"
	}
	return "unknown"
}

// Watcher is a store shared by processes whose changes can be followed, so
// that the processes sleep until told instead of polling.
type Watcher interface {
	// Watch calls fn with each Change until ctx ends; fn must not block.
	// Writes of this store's own commits are not reported when it can
	// tell them (its own commits already wake its loops).
	Watch(ctx context.Context, fn func(Change))
}

// ownRevisions remembers the revisions of a store's last commits.
type ownRevisions struct {
	mu   sync.Mutex
	revs [64]int64
	next int
}

func (o *ownRevisions) add(rev int64) {
	o.mu.Lock()
	o.revs[o.next%len(o.revs)] = rev
	o.next++
	o.mu.Unlock()
}

func (o *ownRevisions) has(rev int64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, r := range o.revs {
		if r == rev {
			return true
		}
	}
	return false
}

// Watch follows the timer index (puts only: the time is in the key) and
// the process keys (deletes only: a lease ended) with two etcd watches on
// the client's one stream: it reads nothing else and costs nothing while
// nothing changes.
func (s *Etcd) Watch(ctx context.Context, fn func(Change)) {
	timers := s.opts.Prefix + bTimers + "/"
	procs := s.opts.Prefix + bProcs + "/"
	var wg sync.WaitGroup
	follow := func(prefix string, opt clientv3.OpOption, c Change) {
		defer wg.Done()
		for ctx.Err() == nil {
			wctx := clientv3.WithRequireLeader(ctx)
			for resp := range s.cli.Watch(wctx, prefix, clientv3.WithPrefix(), opt) {
				if err := resp.Err(); err != nil {
					break
				}
				for _, ev := range resp.Events {
					if c == TimerSet && s.own.has(ev.Kv.ModRevision) {
						continue
					}
					fn(c)
					break
				}
			}
			if ctx.Err() != nil {
				return
			}
			fn(Missed)
			if sleepCtx(ctx, etcdRetry.Cap) != nil {
				return
			}
		}
	}
	wg.Add(2)
	go follow(timers, clientv3.WithFilterDelete(), TimerSet)
	go follow(procs, clientv3.WithFilterPut(), ProcessGone)
	wg.Wait()
}

// Watch reports ProcessGone when a fake lease ends and TimerSet when a
// transaction puts a timer (its own too: Memory cannot tell processes
// apart).
func (m *Memory) Watch(ctx context.Context, fn func(Change)) {
	m.mu.Lock()
	id := len(m.watchers)
	if m.watchers == nil {
		m.watchers = map[int]func(Change){}
	}
	for m.watchers[id] != nil {
		id++
	}
	m.watchers[id] = fn
	m.mu.Unlock()
	<-ctx.Done()
	m.mu.Lock()
	delete(m.watchers, id)
	m.mu.Unlock()
}

// notify calls the watchers with c; the caller holds m.mu.
func (m *Memory) notify(c Change) {
	for _, fn := range m.watchers {
		fn(c)
	}
}
