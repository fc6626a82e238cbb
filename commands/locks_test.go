package commands

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestKeyedLocks: one key's holders run one at a time, other keys do not
// wait, and a key is forgotten once nobody holds or waits for it.
func TestKeyedLocks(t *testing.T) {
	t.Parallel()
	var k keyedLocks
	unlock := k.lock("g1")
	other := make(chan struct{})
	go func() { k.lock("g2")(); close(other) }()
	select {
	case <-other:
	case <-time.After(time.Minute):
		t.Fatal("another key waited")
	}
	var mu sync.Mutex
	inside := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := k.lock("g1")
			mu.Lock()
			inside++
			require.Equal(t, 1, inside, "two holders of one key")
			mu.Unlock()
			mu.Lock()
			inside--
			mu.Unlock()
			u()
		}()
	}
	require.Eventually(t, func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return k.m["g1"].users == 9
	}, time.Minute, time.Millisecond, "the waiters queue on the held key")
	unlock()
	wg.Wait()
	require.Zero(t, k.held(), "no key is kept once released")
}
