package commands

import "time"

// SetComputerTimer makes after the timer of a's computer watchdog (the
// channel receives once the duration has passed; the func stops it).
func SetComputerTimer(a *App, after func(time.Duration) (<-chan time.Time, func())) {
	a.computers.after = after
}

// AbandonedComputerSearches is how many of a's computer searches are
// abandoned and still running.
func AbandonedComputerSearches(a *App) int { return int(a.computers.abandoned.Load()) }
