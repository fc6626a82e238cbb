package storage

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Memory is the Store in maps, for unit tests: the same repositories and
// schema as Bolt, nothing on disk. Transactions are serialized; Update works
// on a copy that replaces the data only when fn succeeds.
type Memory struct {
	mu   sync.RWMutex
	data map[string]map[string][]byte
	// bound maps "bucket/key" to the fake lease the key is bound to
	// (lease.go); leases are the live ones.
	bound    map[string]int64
	leases   map[int64]*MemoryLease
	watchers map[int]func(Event)
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty store of the current schema.
func NewMemory() *Memory {
	m := &Memory{data: map[string]map[string][]byte{}, bound: map[string]int64{}}
	for _, b := range buckets {
		m.data[b] = map[string][]byte{}
	}
	return m
}

// Update runs fn on a copy of the data and keeps the copy if fn succeeds.
func (m *Memory) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cp := make(map[string]map[string][]byte, len(m.data))
	for b, kvs := range m.data {
		c := make(map[string][]byte, len(kvs))
		for k, v := range kvs {
			c[k] = v // values are never changed in place
		}
		cp[b] = c
	}
	k := &memKV{m: m, data: cp, writable: true, bind: map[string]int64{}}
	t := newTx(k)
	if err := fn(t); err != nil {
		t.rollback()
		return err
	}
	for _, id := range k.bind {
		if id != 0 && m.leases[id] == nil {
			t.rollback()
			return fmt.Errorf("%w: lease %d", ErrLeaseLost, id)
		}
	}
	var timers []Event
	for full, id := range k.bind {
		if id == 0 {
			delete(m.bound, full)
		} else {
			m.bound[full] = id
		}
		if key, ok := cutBucket(full, bGuildSettings); ok && cp[bGuildSettings][key] != nil {
			timers = append(timers, Event{Change: SettingsChanged, Guild: key})
		}
		for _, b := range []string{bTimers, bExpiry} {
			if key, ok := cutBucket(full, b); ok && cp[b][key] != nil {
				if at, ok := timerAt(key); ok {
					timers = append(timers, Event{Change: TimerSet, At: at})
				}
			}
		}
	}
	m.data = cp
	for _, e := range timers {
		m.notify(e)
	}
	return nil
}

// View runs fn on the data, read-only.
func (m *Memory) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return fn(newTx(&memKV{data: m.data}))
}

// Close does nothing.
func (m *Memory) Close() error { return nil }

type memKV struct {
	m        *Memory
	data     map[string]map[string][]byte
	writable bool
	// bind is what the transaction binds ("bucket/key" -> lease, 0:
	// unbound), applied when it commits.
	bind map[string]int64
}

func (k *memKV) bucket(b string) map[string][]byte {
	bk, ok := k.data[b]
	if !ok {
		panic("storage: no bucket " + b)
	}
	return bk
}

func (k *memKV) get(b, key string) []byte { return k.bucket(b)[key] }

func (k *memKV) put(b, key string, v []byte) error {
	if !k.writable {
		return ErrReadOnly
	}
	k.bucket(b)[key] = append([]byte{}, v...)
	k.bind[b+"/"+key] = 0
	return nil
}

func (k *memKV) putBound(b, key string, v []byte, lease int64) error {
	if err := k.put(b, key, v); err != nil {
		return err
	}
	k.bind[b+"/"+key] = lease
	return nil
}

func (k *memKV) del(b, key string) error {
	if !k.writable {
		return ErrReadOnly
	}
	delete(k.bucket(b), key)
	k.bind[b+"/"+key] = 0
	return nil
}

func (k *memKV) scan(b, from, to string, fn func(string, []byte) error) error {
	bk := k.bucket(b)
	keys := make([]string, 0, len(bk))
	for key := range bk {
		if key >= from && (to == "" || key < to) {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys)
	for _, key := range keys {
		if err := fn(key, bk[key]); err != nil {
			if errors.Is(err, errStop) {
				return nil
			}
			return err
		}
	}
	return nil
}
