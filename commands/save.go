package commands

import (
	"time"

	"sandtable/storage"
)

var errAlreadyApplied = &UserError{Msg: "This action was already applied once; it was not applied again."}

// markApplied marks the interaction interactionID applied in tx, the
// transaction of the change it makes; a second application of the same
// interaction is refused with errAlreadyApplied.
func markApplied(tx *storage.Tx, interactionID string, now time.Time) error {
	seen, err := tx.MarkInteraction(interactionID, now)
	if err != nil {
		return err
	}
	if seen {
		return errAlreadyApplied
	}
	return nil
}
