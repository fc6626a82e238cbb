package commands

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
		err := a.update(func(tx storage.Tx) error {
			var v T // decoded afresh by every run of the transaction
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

// Lobbies are a game's own invitations (a lobby gathering teams, say): documents
// the game defines, stored in storage.Tx.Lobbies with at least the fields
// "kind" (the game's Spec.Name), "channel_id" and, once posted,
// "message_id". Their buttons (scope "c") reach the game's
// Spec.Invitations under the lobby's lock; a lobby stays open LobbyTTL
// after its last change (PutLobby), then the timer sweep deletes it and
// edits its message into what the game's Spec.LobbyExpired says.

// lobbyHead is what the framework reads of any lobby document.
type lobbyHead struct {
	Kind      string `json:"kind"`
	ChannelID string `json:"channel_id"`
	MessageID string `json:"message_id,omitempty"`
}

// LobbyTTL is how long a lobby stays open after its last change
// (Settings.LobbyTTL; 24 hours when unset).
func (a *App) LobbyTTL() time.Duration {
	if a.Settings.LobbyTTL <= 0 {
		return 24 * time.Hour
	}
	return a.Settings.LobbyTTL
}

// Lobby reads the lobby id into v and returns its expiry (zero: never);
// storage.ErrNotFound when there is none. Called under the lobby's lock
// (from Spec.Invitations), it remembers what it read: the next PutLobby,
// CloseLobby or TakeLobby of that lobby writes only if the lobby is still
// what was read (another process may have changed it meanwhile; then
// storage.ErrConflict, and the router runs the handler again).
func (a *App) Lobby(id string, v any) (expires time.Time, err error) {
	var raw json.RawMessage
	err = a.view(func(tx storage.Tx) error {
		var err error
		expires, err = tx.Lobbies().Get(id, &raw)
		return err
	})
	if err != nil {
		return expires, err
	}
	a.shownMu.Lock()
	if a.lobbiesRead == nil {
		a.lobbiesRead = map[string]lobbyRead{}
	}
	a.lobbiesRead[id] = lobbyRead{expires: expires, raw: raw}
	a.shownMu.Unlock()
	return expires, json.Unmarshal(raw, v)
}

// lobbyRead is what Lobby read of a lobby.
type lobbyRead struct {
	expires time.Time
	raw     json.RawMessage
}

// errLobbyGone: the lobby was closed (started, cancelled, expired) by
// another process meanwhile.
var errLobbyGone = &UserError{Msg: "This challenge or lobby is no longer open."}

// lobbyCheck takes what Lobby last read of the lobby id and returns the
// check, to run in the transaction that writes it, that the lobby is still
// that (nil when nothing was read: a new lobby).
func (a *App) lobbyCheck(id string) func(tx storage.Tx) error {
	a.shownMu.Lock()
	read, ok := a.lobbiesRead[id]
	delete(a.lobbiesRead, id)
	a.shownMu.Unlock()
	if !ok {
		return func(storage.Tx) error { return nil }
	}
	return func(tx storage.Tx) error {
		var cur json.RawMessage
		exp, err := tx.Lobbies().Get(id, &cur)
		if errors.Is(err, storage.ErrNotFound) {
			return errLobbyGone
		}
		if err != nil {
			return err
		}
		if !exp.Equal(read.expires) || !bytes.Equal(cur, read.raw) {
			return fmt.Errorf("lobby %s: %w", id, storage.ErrConflict)
		}
		return nil
	}
}

// PutLobby stores v as the lobby id, open for LobbyTTL from req.Now, and
// marks req applied in the same transaction (a second delivery of the
// same interaction is refused). Call it under the lobby's lock: from
// Spec.Invitations, or for a lobby not posted yet.
func (a *App) PutLobby(req *Request, id string, v any) error {
	check := a.lobbyCheck(id)
	return a.update(func(tx storage.Tx) error {
		if err := check(tx); err != nil {
			return err
		}
		if req.InteractionID != "" {
			if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
				return err
			}
		}
		return tx.Lobbies().Put(id, req.Now.Add(a.LobbyTTL()), v)
	})
}

// CloseLobby deletes the lobby id (its message is the caller's answer).
func (a *App) CloseLobby(id string) error {
	take := a.TakeLobby(id)
	return a.update(take)
}

// TakeLobby returns what deletes the lobby id in a transaction, refusing
// when the lobby changed since Lobby read it: for a game that starts from
// the lobby in its own transaction (Turn.Also in Create).
func (a *App) TakeLobby(id string) func(tx storage.Tx) error {
	check := a.lobbyCheck(id)
	return func(tx storage.Tx) error {
		if err := check(tx); err != nil {
			return err
		}
		return tx.Lobbies().Delete(id)
	}
}

// LobbyPosted returns what records the ID of the message the bot posted
// for the lobby id (as Response.Posted), so that its expiry can edit it.
func (a *App) LobbyPosted(id string) func(messageID string) {
	return func(messageID string) {
		invitationPosted(a, lobbiesOf, id, func(doc *map[string]json.RawMessage) {
			raw, _ := json.Marshal(messageID)
			if *doc == nil {
				*doc = map[string]json.RawMessage{}
			}
			(*doc)["message_id"] = raw
		})
	}
}

// expireLobbies closes every lobby whose time is up: it is deleted and its
// message (when known) becomes what its game's Spec.LobbyExpired says.
func (a *App) expireLobbies(now time.Time) error {
	return expireInvitations(a, now, lobbiesOf, func(raw *json.RawMessage) []Effect {
		var h lobbyHead
		if err := json.Unmarshal(*raw, &h); err != nil || h.MessageID == "" {
			return nil
		}
		k := a.kinds[h.Kind]
		if k == nil || k.lobbyExpired == nil {
			return nil
		}
		m, err := k.lobbyExpired(a, *raw)
		if err != nil {
			a.Log.Warn("closing an expired lobby failed", "kind", h.Kind, "err", err)
			return nil
		}
		return []Effect{{Op: OpEdit, Channel: h.ChannelID, Message: h.MessageID, Body: &m}}
	})
}

// resultLobby, followed by a lobby's ID, as a post's Result records the
// posted message's ID in that lobby ("message_id"), for its expiry to
// close the message (see Turn.OpenLobby).
const resultLobby = "lobby:"

// setLobbyMessage records messageID as the message of the lobby id, in tx;
// a lobby gone meanwhile (started, cancelled, expired) is left alone. A
// handler of that lobby that read it before finds it changed at its write
// (lobbyCheck) and runs again.
func setLobbyMessage(tx storage.Tx, id, messageID string) error {
	var doc map[string]json.RawMessage
	exp, err := tx.Lobbies().Get(id, &doc)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if doc == nil {
		doc = map[string]json.RawMessage{}
	}
	raw, _ := json.Marshal(messageID)
	doc["message_id"] = raw
	return tx.Lobbies().Put(id, exp, doc)
}

// OpenLobby opens doc as the new lobby id (a document of the game's own
// lobby, see App.Lobby: a finished game's rematch, say), stored in the
// action's transaction and open for LobbyTTL, and asks for its message m
// to be posted in channelID on an outbox stream of its own: it shows at
// once, not held back behind the game's pending effects (the closing
// summary, due ArchiveDelay after the end), and the ID of the message is
// recorded in the lobby for its expiry to close it. For actions run by the
// router or by Run (not Start, Create or Delivered).
func (t *Turn[S]) OpenLobby(id string, doc any, channelID string, m Message) {
	expires := t.Now.Add(t.app.LobbyTTL())
	t.Also(func(tx storage.Tx) error { return tx.Lobbies().Put(id, expires, doc) })
	t.apart = append(t.apart, apart{stream: "lobby-" + id,
		effect: Effect{Op: OpPost, Channel: channelID, Body: &m, Result: resultLobby + id}})
}

// LobbyTTL is how long a lobby stays open after its last change (see
// App.LobbyTTL).
func (t *Turn[S]) LobbyTTL() time.Duration { return t.app.LobbyTTL() }

// apart is an effect an action asks for on an outbox stream of its own
// (see Turn.OpenLobby); latest makes it replace what is pending there
// (see Turn.Rename).
type apart struct {
	stream string
	effect Effect
	latest bool
}

// Rename asks for the channel channelID (a thread of the game) to be
// named name. Renames go on a stream of their own per channel, so a
// rename Discord holds back (about two a channel per 10 minutes) never
// holds the game's other effects; and only the latest wanted name waits
// there: a rename not delivered yet is replaced, keeping its place in
// the retry schedule.
func (t *Turn[S]) Rename(channelID, name string) {
	t.apart = append(t.apart, apart{stream: "rename-" + channelID, latest: true,
		effect: Effect{Op: OpRename, Channel: channelID, Name: name}})
}

// enqueueLatest queues e on stream in tx in place of what is pending there
// (see Turn.Rename): the replaced effect's failed attempts and due time
// carry over, so a rename refused for its rate waits its turn.
func (a *App) enqueueLatest(tx storage.Tx, stream string, rec *storage.Game, e Effect) error {
	head, err := tx.Outbox().StreamHead(stream)
	if err != nil {
		return err
	}
	if head != nil {
		if err := tx.Outbox().Done(head.ID); err != nil {
			return err
		}
	}
	_, lease, leased := a.currentLease()
	return a.addEffects(tx, stream, rec, []Effect{e}, func(id string, now time.Time) error {
		if head != nil && (head.Attempts > 0 || head.Due.After(now)) {
			if err := tx.Outbox().Retry(id, head.Attempts, head.Due); err != nil {
				return err
			}
		}
		if !leased {
			return nil
		}
		return tx.Outbox().Claim(id, a.Process, lease)
	})
}
