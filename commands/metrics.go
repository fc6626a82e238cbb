package commands

import (
	"encoding/json"
	"sort"
	"time"

	"sandtable/storage"
)

// ActiveGames counts the active games by kind, reading the store. Every
// active game runs a clock (a game's clock stops only when it ends), so the
// running deadlines list them all; each is read once to learn its kind.
func (a *App) ActiveGames() (map[string]int, error) {
	out := map[string]int{}
	err := a.view(func(tx storage.Tx) error {
		ids, err := tx.Games().Due(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			return err
		}
		for _, id := range ids {
			g, err := tx.Games().Get(id)
			if err != nil {
				return err
			}
			if g.Active {
				out[g.Kind]++
			}
		}
		return nil
	})
	return out, err
}

// OldestPending is how long the oldest effect still in the outbox has
// waited since it was saved, due or not (zero when the outbox is empty).
// Effects saved before queue times were recorded are not counted.
func (a *App) OldestPending(now time.Time) (time.Duration, error) {
	var oldest time.Time
	err := a.view(func(tx storage.Tx) error {
		// A stream's effects go in order, so its first is its oldest.
		heads, err := tx.Outbox().Heads(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), 1<<20)
		if err != nil {
			return err
		}
		for _, p := range heads {
			var e struct {
				Queued time.Time `json:"queued"`
			}
			if json.Unmarshal(p.Effect, &e) == nil && !e.Queued.IsZero() && (oldest.IsZero() || e.Queued.Before(oldest)) {
				oldest = e.Queued
			}
		}
		return nil
	})
	if err != nil || oldest.IsZero() || now.Before(oldest) {
		return 0, err
	}
	return now.Sub(oldest), nil
}

// KindNames lists the registered game kinds, sorted.
func (a *App) KindNames() []string {
	names := make([]string, 0, len(a.kinds))
	for n := range a.kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
