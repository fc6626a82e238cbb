package commands

import (
	"context"
	"encoding/json"
	"time"

	"sandtable/storage"
)

var errAlreadyApplied = &UserError{Msg: "This action was already applied once; it was not applied again."}

// markApplied marks the interaction interactionID applied in tx, the
// transaction of the change it makes; a second application of the same
// interaction is refused with errAlreadyApplied.
func markApplied(tx storage.Tx, interactionID string, now time.Time) error {
	seen, err := tx.Dedupe().Mark(interactionID, now)
	if err != nil {
		return err
	}
	if seen {
		return errAlreadyApplied
	}
	return nil
}

// saveGame writes the transition of game g in one transaction: st, the
// kind's state, encoded as JSON into g.State, and g itself. When
// interactionID is set, the transaction marks it applied (markApplied);
// extra, when not nil, writes what else the transition changes (archived
// logs, players' records) in the same transaction.
func (a *App) saveGame(g *storage.Game, st any, now time.Time, interactionID string, extra func(tx storage.Tx) error) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	g.State = raw
	return a.update(func(tx storage.Tx) error {
		if interactionID != "" {
			if err := markApplied(tx, interactionID, now); err != nil {
				return err
			}
		}
		if extra != nil {
			if err := extra(tx); err != nil {
				return err
			}
		}
		return tx.Games().Put(g, now)
	})
}

// update runs fn in one store transaction (see storage.Store.Update).
func (a *App) update(fn func(tx storage.Tx) error) error {
	return a.Store.Update(context.Background(), fn)
}

// view runs fn in a read-only store transaction.
func (a *App) view(fn func(tx storage.Tx) error) error {
	return a.Store.View(context.Background(), fn)
}

// View runs fn in a read-only store transaction: what handlers that are
// not tied to one game (a leaderboard, say) read.
func (a *App) View(fn func(tx storage.Tx) error) error { return a.view(fn) }
