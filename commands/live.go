package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"sandtable/commands/outbox"
	"sandtable/storage"
)

// One live board per channel (issue 25 item 1). A game thread reads as a
// header, one live board and at most one "your move" ping: each time the
// position changes, the game's live board there is edited in place
// (Turn.Board), and whoever must act now is pinged by a message of its own
// (pings.go), which the next turn's ping replaces. An edit pings nobody, and
// a board is quiet (ui.Message.Quiet: its mentions show names only), so
// only the ping message notifies. Discord limits edits of messages older
// than an hour (30046): a board it refuses to edit, or one deleted, is
// posted anew and the old one deleted, so the thread still holds one.
//
// The live board's ID is recorded when a board's post is delivered, in
// the transaction that marks it done (App.replaceBoard): the game record's
// Boards says which message is each channel's live board, and the delete
// of the one replaced is queued there, in a stream of its own. So a board
// that is posted replaces the live one exactly once, even when its post is
// retried, reconciled after a crash, or delivered after the next action
// was saved; and a board whose post Discord refuses for good replaces
// nothing. Compactions (OpCompact) queued by earlier versions, which
// posted every board anew, are still delivered.

// Board asks for m to be channelID's (ChannelOfGame: the game's thread)
// live board: the one there edited in place, or posted when there is none
// (or Discord allows no more edits of it). m is sent quiet: it pings
// nobody. compact is kept for the games' sake and no longer shown (boards
// are no longer replaced by new posts). A channel's boards are always
// posted through Board, so that the framework knows which one is live.
func (t *Turn[S]) Board(channelID string, m, compact Message) {
	c := Message{Content: compact.Content}
	m.Quiet = true
	t.Effect(Effect{Op: OpBoard, Channel: channelID, Body: &m, Compact: &c, InPlace: true})
}

// UpdateBoard is Board for a change within a turn (a SandTable player's
// placement): the same edit in place.
func (t *Turn[S]) UpdateBoard(channelID string, m, compact Message) {
	t.Board(channelID, m, compact)
}

// BoardLine sets what the live board of channelID would become once
// replaced, without touching the message. With no live board there, it
// does nothing.
func (t *Turn[S]) BoardLine(channelID string, compact Message) {
	c := Message{Content: compact.Content}
	t.Effect(Effect{Op: OpBoard, Channel: channelID, Compact: &c, InPlace: true})
}

// editBoard edits rec's live board of channel (as the game names it; ch is
// its ID) into body and returns its ID; "" when there is none to edit or
// Discord refuses the edit for good (then the board is posted anew).
func (a *App) editBoard(ctx context.Context, rec *storage.Game, channel, ch string, body Message) (string, error) {
	if rec == nil {
		return "", nil
	}
	live := LiveBoard(rec, channel)
	if live == "" {
		return "", nil
	}
	err := a.Platform.Edit(ctx, ch, live, body)
	var pe *PlatformError
	if errors.As(err, &pe) && (pe.Code == outbox.CodeTooManyEdits || pe.HTTPStatus == 404) {
		a.Log.Info("the live board cannot be edited: posting it anew", "game", rec.ID, "message", live, "err", err)
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return live, nil
}

// replaceBoard makes the message id, just posted by the board effect e of
// stream, its game's live board in e's channel, in tx, and queues the
// delete of the board it replaces there (at most once: the post is marked
// done in the same transaction), in the stream compactions(stream). A game
// that no longer exists, or a board edited in place, needs nothing.
func (a *App) replaceBoard(tx storage.Tx, stream string, e *Effect, id string) error {
	rec, err := tx.Games().Get(e.Game)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	var compact json.RawMessage
	if e.Compact != nil {
		if compact, err = json.Marshal(e.Compact); err != nil {
			return fmt.Errorf("game %s: a board's compact form: %w", rec.ID, err)
		}
	}
	boards := make([]storage.LiveBoard, 0, len(rec.Boards)+1)
	var old *storage.LiveBoard
	for i := range rec.Boards {
		if rec.Boards[i].Channel == e.Channel {
			b := rec.Boards[i]
			old = &b
			continue
		}
		boards = append(boards, rec.Boards[i])
	}
	if old != nil && old.Message == id {
		return nil // the live board edited in place: nothing changes
	}
	rec.Boards = append(boards, storage.LiveBoard{Channel: e.Channel, Message: id, Compact: compact})
	if err := tx.Games().Put(rec, a.Now()); err != nil {
		return err
	}
	if old == nil || old.Message == "" || old.Message == id {
		return nil // the first board, or the live one edited in place
	}
	// A board posted anew (no edit allowed, or a board of an earlier
	// version's flow): the one it replaces goes.
	return a.enqueue(tx, compactions(stream), rec, []Effect{{Op: OpDelete, Channel: e.Channel, Message: old.Message}})
}

// compactions is the outbox stream of the deletes (formerly compactions)
// of stream's replaced boards: a stream of their own, so that one never
// waits behind what the game queued for later (the closing of a finished
// game's thread).
func compactions(stream string) string { return stream + "-boards" }
