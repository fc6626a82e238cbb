package bot

import "sync"

// inflight counts the interactions being handled. Unlike a sync.WaitGroup,
// its Wait says when it has to block and for how many interactions, so that
// Shutdown can log it and tests can tell that Shutdown is waiting.
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while nobody waits
}

// Add counts one more interaction in.
func (f *inflight) Add() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

// Done counts one interaction out.
func (f *inflight) Done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n <= 0 {
		panic("bot: inflight.Done without Add")
	}
	f.n--
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// Wait returns once no interaction is in flight. If some are, it first calls
// blocking (when not nil) with their number, then blocks until they finish.
func (f *inflight) Wait(blocking func(n int)) {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return
	}
	if f.idle == nil {
		f.idle = make(chan struct{})
	}
	idle, n := f.idle, f.n
	f.mu.Unlock()
	if blocking != nil {
		blocking(n)
	}
	<-idle
}
