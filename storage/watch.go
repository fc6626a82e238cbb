package storage

import (
	"context"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Change is what a Watcher reports of other processes' writes: only the
// changes that may give a process work it would not learn of by itself.
type Change int

const (
	// TimerSet: a process (this one too) set a game's timer (a deadline, a
	// reminder) or an invitation's expiry, at Event.At.
	TimerSet Change = iota + 1
	// ProcessGone: a process's lease ended (it died, or stopped and handed
	// its effects over): the effects it claimed are anybody's now.
	ProcessGone
	// Missed: the watch was interrupted (the cluster lost its majority,
	// the watched revision was compacted): anything may have changed.
	Missed
	// SettingsChanged: a process (this one too) saved a server's settings
	// (Guilds.PutSettings), Event.Guild's.
	SettingsChanged
)

func (c Change) String() string {
	switch c {
	case TimerSet:
		return "timer_set"
	case ProcessGone:
		return "process_gone"
	case Missed:
		return "missed"
	case SettingsChanged:
		return "settings_changed"
	}
	return "unknown"
}

// Event is one change a Watcher reports.
type Event struct {
	Change Change
	// At is a TimerSet's time, in the bot's clock (wall time less the
	// clock offset, Meta.ClockOffset): the watcher reads nothing to tell it.
	At time.Time
	// Guild is a SettingsChanged's server.
	Guild string
}

// Watcher is a store shared by processes whose changes can be followed, so
// that the processes sleep until told instead of polling.
type Watcher interface {
	// Watch calls fn with each Event until ctx ends; fn must not block.
	Watch(ctx context.Context, fn func(Event))
}

// timerAt reads the time of a timer or expiry index key (its first part).
func timerAt(key string) (time.Time, bool) {
	ts, _, _ := strings.Cut(key, "/")
	t, err := time.Parse(timeLayout, ts)
	return t, err == nil
}

// Watch follows the timer and expiry indexes (puts only: the time is in
// the key), the servers' settings (puts only) and the process keys
// (deletes only: a lease ended) with etcd
// watches on the client's one stream: it reads nothing and costs nothing
// while nothing changes. This store's own timer puts are reported too:
// the bot's timer loop learns of its own new timers from them.
func (s *Etcd) Watch(ctx context.Context, fn func(Event)) {
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
					e := Event{Change: c}
					if c == TimerSet {
						at, ok := timerAt(strings.TrimPrefix(string(ev.Kv.Key), prefix))
						if !ok {
							continue
						}
						e.At = at
					}
					if c == SettingsChanged {
						e.Guild = strings.TrimPrefix(string(ev.Kv.Key), prefix)
					}
					fn(e)
				}
			}
			if ctx.Err() != nil {
				return
			}
			fn(Event{Change: Missed})
			if sleepCtx(ctx, etcdRetry.Cap) != nil {
				return
			}
		}
	}
	wg.Add(4)
	go follow(s.opts.Prefix+bGuildSettings+"/", clientv3.WithFilterDelete(), SettingsChanged)
	go follow(s.opts.Prefix+bTimers+"/", clientv3.WithFilterDelete(), TimerSet)
	go follow(s.opts.Prefix+bExpiry+"/", clientv3.WithFilterDelete(), TimerSet)
	go follow(s.opts.Prefix+bProcs+"/", clientv3.WithFilterPut(), ProcessGone)
	wg.Wait()
}

// Watch reports ProcessGone when a fake lease ends, TimerSet when a
// transaction puts a timer or an expiry and SettingsChanged when it puts a
// server's settings.
func (m *Memory) Watch(ctx context.Context, fn func(Event)) {
	m.mu.Lock()
	id := len(m.watchers)
	if m.watchers == nil {
		m.watchers = map[int]func(Event){}
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

// notify calls the watchers with e; the caller holds m.mu.
func (m *Memory) notify(e Event) {
	for _, fn := range m.watchers {
		fn(e)
	}
}
