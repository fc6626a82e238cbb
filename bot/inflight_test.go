package bot

import (
	"testing"
	"time"
)

func TestInflightWaitReportsWhatItWaitsFor(t *testing.T) {
	t.Parallel()
	var f inflight
	f.Wait(func(n int) { t.Errorf("Wait with nothing in flight reported %d", n) })

	f.Add()
	f.Add()
	reported := make(chan int, 1)
	returned := make(chan struct{})
	go func() {
		f.Wait(func(n int) { reported <- n })
		close(returned)
	}()
	select {
	case n := <-reported:
		if n != 2 {
			t.Errorf("Wait reported %d in flight, want 2", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait never reported that it blocks")
	}
	f.Done()
	f.Done()
	select {
	case <-returned:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not return once nothing was in flight")
	}
	// Counting in again after a drain works as before.
	f.Add()
	f.Done()
	f.Wait(nil)
}

func TestInflightDoneWithoutAddPanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("Done without Add did not panic")
		}
	}()
	var f inflight
	f.Done()
}
