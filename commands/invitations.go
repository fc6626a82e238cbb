package commands

import (
	"errors"
	"time"

	"sandtable/storage"
)

// Challenges and lobbies are invitations: stored with an expiry
// (storage.Invitations), answered under their own lock, and closed by the
// timer sweep when their time is up. These helpers serve both.

// invitations picks a repository of open invitations in a transaction.
type invitations func(tx storage.Tx) storage.Invitations

func challengesOf(tx storage.Tx) storage.Invitations { return tx.Challenges() }
func lobbiesOf(tx storage.Tx) storage.Invitations    { return tx.Lobbies() }

// expireInvitations deletes, each under its lock, every invitation of repo
// whose expiry is at or before now (unless it was answered or renewed
// meanwhile); closed gives the effects that close its message, queued in
// the transaction that deletes it (so an expiry is announced once, even
// across a Discord failure or a crash).
func expireInvitations[T any](a *App, now time.Time, repo invitations, closed func(*T) []Effect) error {
	var expired []string
	if err := a.view(func(tx storage.Tx) error {
		var err error
		expired, err = repo(tx).Expired(now)
		return err
	}); err != nil {
		return err
	}
	for _, id := range expired {
		unlock := a.lock(id)
		var v T
		err := a.update(func(tx storage.Tx) error {
			exp, err := repo(tx).Get(id, &v)
			if err != nil {
				return err
			}
			if now.Before(exp) {
				return storage.ErrNotFound // answered or renewed meanwhile
			}
			if err := repo(tx).Delete(id); err != nil {
				return err
			}
			return a.enqueue(tx, id, nil, closed(&v))
		})
		unlock()
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return err
		}
		a.kick()
	}
	return nil
}

// invitationPosted records, under its lock, what set writes into the
// invitation id of repo (the ID of the message the bot just posted for
// it, so that its expiry can close that message). An invitation already
// gone is left alone; other failures are logged.
func invitationPosted[T any](a *App, repo invitations, id string, set func(*T)) {
	unlock := a.lock(id)
	defer unlock()
	err := a.update(func(tx storage.Tx) error {
		var v T
		exp, err := repo(tx).Get(id, &v)
		if err != nil {
			return err
		}
		set(&v)
		return repo(tx).Put(id, exp, &v)
	})
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Log.Warn("recording an invitation's message failed", "id", id, "err", err)
	}
}
