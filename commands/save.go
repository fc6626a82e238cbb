package commands

import (
	"context"
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

// putGame writes a copy of rec in tx and returns it: Games.Put changes the
// record it is given (its version, its times), and a transaction function
// may run again (storage.Store.Update), so rec itself must stay as read
// until the commit; the caller then takes the copy.
func putGame(tx storage.Tx, rec *storage.Game, now time.Time) (*storage.Game, error) {
	cp := *rec
	if err := tx.Games().Put(&cp, now); err != nil {
		return nil, err
	}
	return &cp, nil
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
