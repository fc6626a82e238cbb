package storage

import (
	"context"
	"errors"
	"sort"
	"sync"
)

// Memory is the Store in maps, for unit tests: the same repositories and
// schema as Bolt, nothing on disk. Transactions are serialized; Update works
// on a copy that replaces the data only when fn succeeds.
type Memory struct {
	mu   sync.RWMutex
	data map[string]map[string][]byte
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty store of the current schema.
func NewMemory() *Memory {
	m := &Memory{data: map[string]map[string][]byte{}}
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
	t := newTx(&memKV{data: cp, writable: true})
	if err := fn(t); err != nil {
		t.rollback()
		return err
	}
	m.data = cp
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
	data     map[string]map[string][]byte
	writable bool
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
	return nil
}

func (k *memKV) del(b, key string) error {
	if !k.writable {
		return ErrReadOnly
	}
	delete(k.bucket(b), key)
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
