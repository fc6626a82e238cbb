package testkit

import (
	"bytes"
	"sync"
	"time"
)

// Wait is the deadline of a condition a test waits for (an answer, a
// message, a delivery). It only costs time when a test fails, so it is
// generous: under the race detector on a busy two-core machine one answer
// that renders a board can take well over 15 s.
const Wait = 90 * time.Second

// SyncBuffer is a bytes.Buffer that several goroutines may write and read
// (a logger's sink, a child process's output).
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Clock is a settable clock for code that takes a Now function: it stands
// still until a test advances it.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock that reads start.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}
