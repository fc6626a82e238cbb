package commands

import (
	"context"
	"sync"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// streamSet is the outbox streams this process is delivering (one
// delivery at a time per stream keeps its order) and those parked behind
// a replay being drawn.
type streamSet struct {
	mu     sync.Mutex
	busy   map[string]chan struct{} // closed when the stream is released
	parked map[string]bool
}

// acquire takes stream for one delivery, waiting at most wait for the
// delivery holding it; false when it is held still, or parked.
func (s *streamSet) acquire(ctx context.Context, stream string, wait time.Duration) bool {
	var timeout <-chan time.Time
	for {
		s.mu.Lock()
		if s.parked[stream] {
			s.mu.Unlock()
			return false
		}
		free, held := s.busy[stream]
		if !held {
			if s.busy == nil {
				s.busy = map[string]chan struct{}{}
			}
			s.busy[stream] = make(chan struct{})
			s.mu.Unlock()
			return true
		}
		s.mu.Unlock()
		if wait <= 0 {
			return false
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-free:
		case <-timeout:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (s *streamSet) release(stream string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if free, ok := s.busy[stream]; ok {
		close(free)
		delete(s.busy, stream)
	}
}

// park keeps stream from being delivered until unpark.
func (s *streamSet) park(stream string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.parked == nil {
		s.parked = map[string]bool{}
	}
	s.parked[stream] = true
}

func (s *streamSet) unpark(stream string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.parked, stream)
}

// replayDrawer draws finished games' replays (GIFs, seconds of CPU for a
// long game) off the delivery path: the effect's stream is parked while
// its replay is drawn, one at a time, and delivered once it is ready, so
// a replay never holds a delivery worker and the thread's closing effects
// queued behind it still come after it.
type replayDrawer struct {
	mu      sync.Mutex
	drawn   map[string]*drawnReplay // by effect ID
	drawing int                     // replays being drawn
	fresh   int                     // replays drawn since the last WaitReplays
	idle    *sync.Cond
	one     sync.Mutex // one drawing at a time: each takes a core
}

type drawnReplay struct {
	file    *ui.File
	caption string
	err     error
	ready   bool
}

// replay returns the drawn replay of the effect id of stream for game rec,
// or starts drawing it (parking stream) and returns nil: the caller
// leaves the effect for a later pass, which the drawing's end wakes.
func (a *App) replay(id, stream string, rec *storage.Game) *drawnReplay {
	d := &a.replays
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.drawn == nil {
		d.drawn = map[string]*drawnReplay{}
		d.idle = sync.NewCond(&d.mu)
	}
	if r := d.drawn[id]; r != nil {
		if r.ready {
			return r
		}
		return nil
	}
	r := &drawnReplay{}
	d.drawn[id] = r
	d.drawing++
	a.streams.park(stream)
	go func() {
		d.one.Lock()
		f, caption, err := a.replayOf(rec)
		d.one.Unlock()
		d.mu.Lock()
		r.file, r.caption, r.err, r.ready = f, caption, err, true
		d.drawing--
		d.fresh++
		// Unparked before anyone can see the drawing done: a Deliver
		// after WaitReplays must find the stream deliverable.
		a.streams.unpark(stream)
		d.idle.Broadcast()
		d.mu.Unlock()
		a.kick()
	}()
	return nil
}

// forgetReplay drops the drawn replay of the effect id once it is done.
func (a *App) forgetReplay(id string) {
	a.replays.mu.Lock()
	defer a.replays.mu.Unlock()
	delete(a.replays.drawn, id)
}

// WaitReplays waits until no replay is being drawn and reports whether a
// replay was drawn since its last call (a Deliver after it delivers what
// was drawn; a drawing that ended before the call counts too).
func (a *App) WaitReplays() bool {
	d := &a.replays
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.drawing > 0 {
		d.idle.Wait()
	}
	drawn := d.fresh > 0
	d.fresh = 0
	return drawn
}
