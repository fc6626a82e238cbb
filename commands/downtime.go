package commands

import (
	"encoding/json"
	"time"

	"sandtable/storage"
)

// The bot's clock stops while the bot is down: players cannot move then, so
// the time must not count against them (docs/rules/survival.md ruling 23,
// and the same for every game). The running bot records a heartbeat; at the
// next start, CreditDowntime moves every running deadline later by the time
// since the last heartbeat.

const (
	heartbeatNS  = "bot"
	heartbeatKey = "alive"
	// HeartbeatEvery is how often the bot should call Heartbeat; downtime
	// shorter than two of these is not credited (it is within the
	// heartbeat's own uncertainty).
	HeartbeatEvery = 30 * time.Second
)

// Heartbeat records that the bot is running at now.
func (a *App) Heartbeat(now time.Time) error {
	return a.Store.Update(func(tx *storage.Tx) error { return tx.PutDoc(heartbeatNS, heartbeatKey, now.UTC()) })
}

// CreditDowntime is called once when the bot starts, before any timer runs.
// It reads the last heartbeat and, when the bot was down for more than two
// heartbeat periods, moves the deadline of every active game and the expiry
// of every open challenge later by the downtime, in one transaction. It
// returns the downtime credited (0 when none) and how many deadlines moved,
// and records a fresh heartbeat.
func (a *App) CreditDowntime(now time.Time) (time.Duration, int, error) {
	var down time.Duration
	moved := 0
	err := a.Store.Update(func(tx *storage.Tx) error {
		var last time.Time
		if err := tx.GetDoc(heartbeatNS, heartbeatKey, &last); err == nil {
			down = now.Sub(last)
		}
		if down <= 2*HeartbeatEvery {
			down = 0
		} else {
			var err error
			if moved, err = tx.ShiftDeadlines(down, now); err != nil {
				return err
			}
			n, err := shiftChallenges(tx, down)
			if err != nil {
				return err
			}
			moved += n
		}
		return tx.PutDoc(heartbeatNS, heartbeatKey, now.UTC())
	})
	if err != nil {
		return 0, 0, err
	}
	return down, moved, nil
}

// shiftChallenges moves the expiry of every open challenge later by d.
func shiftChallenges(tx *storage.Tx, d time.Duration) (int, error) {
	var open []Challenge
	if err := tx.Docs(challengeNS, "", func(_ string, raw []byte) error {
		var ch Challenge
		if err := json.Unmarshal(raw, &ch); err != nil {
			return err
		}
		open = append(open, ch)
		return nil
	}); err != nil {
		return 0, err
	}
	for i := range open {
		open[i].Expires = open[i].Expires.Add(d)
		if err := tx.PutDoc(challengeNS, open[i].ID, &open[i]); err != nil {
			return 0, err
		}
	}
	return len(open), nil
}
