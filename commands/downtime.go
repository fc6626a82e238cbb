package commands

import (
	"time"

	"sandtable/storage"
)

// The bot's clock stops while the bot is down: players cannot move then, so
// the time must not count against them (docs/rules/survival.md ruling 23,
// and the same for every game). The running bot records a heartbeat; at the
// next start, CreditDowntime adds the time since the last heartbeat to the
// store's clock offset, which moves every running deadline and challenge
// expiry later at once without rewriting a game (storage.Meta).

// HeartbeatEvery is how often the bot should call Heartbeat; downtime
// shorter than two of these is not credited (it is within the heartbeat's
// own uncertainty).
const HeartbeatEvery = 30 * time.Second

// Heartbeat records that the bot is running at now.
func (a *App) Heartbeat(now time.Time) error {
	return a.update(func(tx storage.Tx) error { return tx.Meta().SetHeartbeat(now) })
}

// CreditDowntime is called once when the bot starts, before any timer runs.
// It reads the last heartbeat and, when the bot was down for more than two
// heartbeat periods, credits the downtime to every running deadline and
// open challenge (the store's clock offset grows by it), in one
// transaction. It returns the downtime credited (0 when none) and records a
// fresh heartbeat.
func (a *App) CreditDowntime(now time.Time) (time.Duration, error) {
	var down time.Duration
	err := a.update(func(tx storage.Tx) error {
		down = 0 // set afresh by every run of the transaction
		last, err := tx.Meta().Heartbeat()
		if err != nil {
			return err
		}
		if !last.IsZero() {
			down = now.Sub(last)
		}
		if down <= 2*HeartbeatEvery {
			down = 0
		} else {
			off, err := tx.Meta().ClockOffset()
			if err != nil {
				return err
			}
			if err := tx.Meta().SetClockOffset(off + down); err != nil {
				return err
			}
		}
		return tx.Meta().SetHeartbeat(now)
	})
	if err != nil {
		return 0, err
	}
	return down, nil
}
