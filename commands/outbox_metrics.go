package commands

import (
	"time"

	"sandtable/storage"
)

// What the bot's metrics read of delivery: this process's figures, kept in
// memory, no store read (the outbox's gauges, Pending and Due, read the
// store).

// PoolSize is how many streams Deliver delivers at once (App.Workers).
func (a *App) PoolSize() int { return a.workers() }

// Delivering counts the outbox streams this process is delivering now:
// its pool's busy workers and the actions delivering their own effects
// right after their commit.
func (a *App) Delivering() int {
	a.streams.mu.Lock()
	defer a.streams.mu.Unlock()
	return len(a.streams.busy)
}

// Parked counts the streams waiting for their replay to be drawn.
func (a *App) Parked() int {
	a.streams.mu.Lock()
	defer a.streams.mu.Unlock()
	return len(a.streams.parked)
}

// observeDone reports to OnDone the wait of the effect p, queued at
// queued, just recorded done.
func (a *App) observeDone(p storage.Pending, queued time.Time) {
	if a.OnDone == nil {
		return
	}
	since := queued // a first attempt's Due is zero: due once queued
	if p.Due.After(since) {
		since = p.Due
	}
	if since.IsZero() {
		return // queued before queue times were recorded
	}
	a.OnDone(max(a.Now().Sub(since), 0))
}
