package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"sandtable/commands/outbox"
	"sandtable/storage"
)

// One live board per channel (issue 15 item 1). A game thread reads as a
// move list with one board at the bottom: each time the position changes,
// the game posts the new board as a new message (Turn.Board), carrying the
// ping of whoever must act now, and the board it replaces in that channel
// is edited once into its compact form, a line of text without image or
// buttons. Replacing rather than editing one message in place keeps the
// board at the bottom of the thread, next to the newest messages, makes the
// new board's ping a real notification (an edit pings nobody), and edits
// every message at most once: Discord limits edits of messages older than
// an hour (30046), which a board edited every move would soon hit.
//
// The swap is made when the new board's post is delivered, in the
// transaction that marks it done (App.replaceBoard): the game record's
// Boards says which message is each channel's live board, and the
// compaction of the one replaced is queued there, in the game's stream. So
// a board that is posted replaces the live one exactly once, even when its
// post is retried, reconciled after a crash, or delivered after the next
// action was saved; a compaction is an idempotent edit; and a board whose
// post Discord refuses for good replaces nothing.

// Board asks for m to be posted in channelID (ChannelOfGame: the game's
// thread) as the game's live board there, replacing the one posted before
// in that channel, which is then edited into its compact form. compact is
// what m's message becomes in turn when the next board replaces it: a
// line of text (content only: no image, card or button), e.g. "1. e8=Q —
// @alice". A channel's boards are always posted through Board, so that
// the framework knows which one is live.
func (t *Turn[S]) Board(channelID string, m, compact Message) {
	c := Message{Content: compact.Content}
	t.Effect(Effect{Op: OpBoard, Channel: channelID, Body: &m, Compact: &c})
}

// UpdateBoard asks for the live board of channelID to become m, edited in
// place (a change that needs nobody's attention: a SandTable player's
// placement within their own turn), its compact form now compact. With no
// live board there yet, or when Discord allows no more edits of it
// (30046) or it was deleted, m is posted as a new board instead (see
// Board). A live board is so edited a few times at most, by its own
// turn's actions, and then once more when it is compacted.
func (t *Turn[S]) UpdateBoard(channelID string, m, compact Message) {
	c := Message{Content: compact.Content}
	t.Effect(Effect{Op: OpBoard, Channel: channelID, Body: &m, Compact: &c, InPlace: true})
}

// BoardLine sets what the live board of channelID becomes once replaced
// (its compact form), without touching the message: for an action whose
// news is the next board (Board) but which also completes what the
// replaced board stood for (the last action of a SandTable turn). With no
// live board there, it does nothing.
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
// compaction of the board it replaces there (at most once: the post is
// marked done in the same transaction), in the stream compactions(stream). A game that no longer exists
// needs nothing.
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
	rec.Boards = append(boards, storage.LiveBoard{Channel: e.Channel, Message: id, Compact: compact})
	if err := tx.Games().Put(rec, a.Now()); err != nil {
		return err
	}
	if old == nil || old.Message == "" || old.Message == id {
		return nil // the first board, or the live one edited in place
	}
	body := Message{}
	if len(old.Compact) > 0 {
		if err := json.Unmarshal(old.Compact, &body); err != nil {
			return fmt.Errorf("game %s: the compact form of board %s: %w", rec.ID, old.Message, err)
		}
	}
	if body.Content == "" {
		body.Content = "(an earlier board)"
	}
	return a.enqueue(tx, compactions(stream), rec, []Effect{{Op: OpCompact, Channel: e.Channel, Message: old.Message, Body: &body}})
}

// compactions is the outbox stream of the compactions of stream's boards:
// a stream of their own, so that a compaction never waits behind what
// the game queued for later (the closing of a finished game's thread).
func compactions(stream string) string { return stream + "-boards" }
