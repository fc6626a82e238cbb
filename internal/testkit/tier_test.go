package testkit

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestTiers(t *testing.T) {
	for _, c := range []struct {
		env  string
		long bool
	}{{"", false}, {"0", false}, {"1", true}, {"yes", true}} {
		t.Setenv(LongEnv, c.env)
		if Long() != c.long {
			t.Errorf("%s=%q: Long() = %v, want %v", LongEnv, c.env, Long(), c.long)
		}
		if got, want := Size(1, 2), map[bool]int{false: 1, true: 2}[c.long]; got != want {
			t.Errorf("%s=%q: Size(1, 2) = %d, want %d", LongEnv, c.env, got, want)
		}
	}
}

func TestClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	c := NewClock(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Now() = %v, want %v", c.Now(), start)
	}
	c.Advance(90 * time.Second)
	if want := start.Add(90 * time.Second); !c.Now().Equal(want) {
		t.Fatalf("after Advance: %v, want %v", c.Now(), want)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Fatalf("after Set: %v, want %v", c.Now(), start)
	}
}

func TestSyncBuffer(t *testing.T) {
	t.Parallel()
	var b SyncBuffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				fmt.Fprint(&b, "x")
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if n := len(b.String()); n != 800 {
		t.Fatalf("%d bytes written, want 800", n)
	}
}
