package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"sandtable/commands/ui"
	"sandtable/internal/retry"
	"sandtable/storage"
)

// Delivery is one attempt at the effect Effect: its Channel (ChannelOfGame
// resolved), its Body as built for this attempt, its Game when it was
// read, and MaybeDone, whether an earlier attempt may have done it.
type Delivery struct {
	Effect    *Effect
	Channel   string
	Body      ui.Message
	Game      *storage.Game
	MaybeDone bool
}

// Host is what delivering an effect needs of the framework besides the
// platform: the live board's edit in place (see Effect.InPlace) and the
// search for a thread an interrupted start made.
type Host interface {
	// EditBoard edits rec's live board of channel (as the game names it;
	// ch is its ID) into body and returns its ID; "" when there is none to
	// edit or Discord refuses the edit for good.
	EditBoard(ctx context.Context, rec *storage.Game, channel, ch string, body ui.Message) (string, error)
	// UnownedThread is the newest active thread named name under parentID
	// that no game owns, or "".
	UnownedThread(ctx context.Context, guildID, parentID, name string) (string, error)
}

// exec is what the table's functions deliver with.
type exec struct {
	p   Platform
	log *slog.Logger
	h   Host
}

// Perform delivers d through its Op's entry in effectKinds: reconcile
// first (what an earlier attempt already did), else perform. It returns
// the ID the effect yields ("" for none); an Op missing from the table is
// an error.
func Perform(ctx context.Context, p Platform, log *slog.Logger, h Host, d *Delivery) (string, error) {
	kind, ok := effectKinds[d.Effect.Op]
	if !ok {
		return "", fmt.Errorf("unknown effect %q", d.Effect.Op)
	}
	x := &exec{p: p, log: log, h: h}
	if kind.reconcile != nil {
		if id, err := kind.reconcile(ctx, x, d); err != nil || id != "" {
			return id, err
		}
	}
	return kind.perform(ctx, x, d)
}

// effectKind is how the effects of one Op are delivered: reconcile (nil:
// nothing to reconcile) runs first and returns the ID of what an earlier
// attempt already did, "" when it finds nothing and perform must run;
// perform does the effect on the platform and returns the ID it yields.
type effectKind struct {
	reconcile func(ctx context.Context, x *exec, d *Delivery) (string, error)
	perform   func(ctx context.Context, x *exec, d *Delivery) (string, error)
}

// effectKinds is the delivery of every Op. An Op missing here is refused
// as unknown (and dropped: retrying cannot help).
var effectKinds = map[Op]effectKind{
	OpPost: {reconcile: reconcilePost, perform: send},
	// A board updated in place is reconciled by editing the live board
	// into its body (an edit does the same whatever came before); a board
	// line only (Turn.BoardLine) yields the live board and posts nothing.
	OpBoard: {
		reconcile: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			e := d.Effect
			if e.InPlace && e.Body == nil {
				return LiveBoard(d.Game, e.Channel), nil
			}
			if e.InPlace {
				if id, err := x.h.EditBoard(ctx, d.Game, e.Channel, d.Channel, d.Body); err != nil || id != "" {
					return id, err
				}
			}
			return reconcilePost(ctx, x, d)
		},
		perform: send,
	},
	OpEdit: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		err := x.p.Edit(ctx, d.Channel, d.Effect.Message, d.Body)
		var pe *PlatformError
		if errors.As(err, &pe) && pe.Code == CodeTooManyEdits {
			// Discord allows no more edits of this message: post it anew.
			return x.p.Send(ctx, d.Channel, d.Body)
		}
		return "", err
	}},
	OpDM: {
		reconcile: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			if !d.MaybeDone {
				return "", nil
			}
			recent, err := x.p.RecentDM(ctx, d.Effect.User, RecentLimit)
			if id := FindPost(recent, d.Body); err != nil || id != "" {
				return id, err
			}
			return "", nil
		},
		perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			e := d.Effect
			id, err := x.p.DM(ctx, e.User, d.Body)
			if errors.Is(err, ErrDMClosed) {
				x.log.Info("a direct message was not delivered: the user's DMs are closed", "user", e.User, "game", e.Game)
				if e.Result != "" {
					return DMClosed, nil
				}
				return "", nil
			}
			return id, err
		},
	},
	OpCompact: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		err := x.p.Edit(ctx, d.Channel, d.Effect.Message, d.Body)
		var pe *PlatformError
		if errors.As(err, &pe) && pe.Code == CodeTooManyEdits {
			// Posted anew, the line would land below the newer board:
			// wait until Discord allows the edit again.
			return "", fmt.Errorf("compacting board %s: Discord allows no edit of it now (%d), trying later", d.Effect.Message, CodeTooManyEdits)
		}
		if errors.As(err, &pe) && pe.HTTPStatus == 404 {
			return "", nil // deleted meanwhile: nothing left to compact
		}
		return "", err
	}},
	OpPing: {
		// The pings it replaces are deleted on every attempt, first (a
		// message already gone is done): a ping found posted by an earlier
		// attempt still replaces them.
		reconcile: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			if d.Effect.Replace && d.Game != nil {
				for _, p := range d.Game.Pings {
					if err := deleteMessage(ctx, x.p, p.Channel, p.User, p.Message); err != nil {
						return "", err
					}
				}
			}
			if !d.MaybeDone {
				return "", nil
			}
			if d.Effect.User != "" {
				recent, err := x.p.RecentDM(ctx, d.Effect.User, RecentLimit)
				if id := FindPost(recent, d.Body); err != nil || id != "" {
					return id, err
				}
				return "", nil
			}
			return alreadyPosted(ctx, x.p, d.Channel, d.Body)
		},
		perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			e := d.Effect
			if e.User == "" {
				return x.p.Send(ctx, d.Channel, d.Body)
			}
			id, err := x.p.DM(ctx, e.User, d.Body)
			if errors.Is(err, ErrDMClosed) {
				x.log.Info("a turn ping by direct message was not delivered: the user's DMs are closed", "user", e.User, "game", e.Game)
				return "", nil
			}
			return id, err
		},
	},
	OpUnping: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		if d.Game == nil {
			return "", nil
		}
		for _, p := range d.Game.Pings {
			if err := deleteMessage(ctx, x.p, p.Channel, p.User, p.Message); err != nil {
				return "", err
			}
		}
		return "", nil
	}},
	OpDelete: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		ch := d.Channel
		if d.Effect.User != "" {
			ch = ""
		}
		return "", deleteMessage(ctx, x.p, ch, d.Effect.User, d.Effect.Message)
	}},
	OpEditDM: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		err := x.p.EditDM(ctx, d.Effect.User, d.Effect.Message, d.Body)
		var pe *PlatformError
		if errors.As(err, &pe) && pe.Code == CodeTooManyEdits {
			return x.p.DM(ctx, d.Effect.User, d.Body)
		}
		return "", err
	}},
	// A thread started from a message needs no reconciling: starting it
	// again yields the same thread (StartThreadFrom).
	OpStartThread: {
		reconcile: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			if d.Effect.Message != "" || !d.MaybeDone {
				return "", nil
			}
			return x.h.UnownedThread(ctx, d.Effect.Guild, d.Channel, d.Effect.Name)
		},
		perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
			if d.Effect.Message != "" {
				return x.p.StartThreadFrom(ctx, d.Channel, d.Effect.Message, d.Effect.Name)
			}
			return x.p.StartThread(ctx, d.Channel, d.Effect.Name, d.Effect.Private)
		},
	},
	OpAddMember: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		return "", x.p.AddThreadMember(ctx, d.Channel, d.Effect.User)
	}},
	// Adding a member is idempotent, so a retry adds them all again; one
	// Discord refuses for good (a user gone from the server) is skipped,
	// and the effect is refused only when every member is.
	OpAddMembers: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		var refused error
		added := false
		for _, id := range d.Effect.Users {
			err := x.p.AddThreadMember(ctx, d.Channel, id)
			switch {
			case err == nil:
				added = true
			case !retry.IsPermanent(err):
				return "", err
			default:
				refused = err
				x.log.Warn("adding a member to a thread refused; the others are still added", "thread", d.Channel, "user", id, "err", err)
			}
		}
		if !added {
			return "", refused
		}
		return "", nil
	}},
	OpRemoveMember: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		return "", x.p.RemoveThreadMember(ctx, d.Channel, d.Effect.User)
	}},
	OpArchive: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		return "", x.p.ArchiveThread(ctx, d.Channel)
	}},
	OpRename: {perform: func(ctx context.Context, x *exec, d *Delivery) (string, error) {
		return "", x.p.RenameChannel(ctx, d.Channel, d.Effect.Name)
	}},
}

// deleteMessage deletes the message id of channelID, or the direct message
// id to userID when set: a message already gone (404, Discord's 10008) or
// in an archived thread (50083) is done.
func deleteMessage(ctx context.Context, p Platform, channelID, userID, id string) error {
	var err error
	if userID != "" {
		err = p.DeleteDM(ctx, userID, id)
	} else {
		err = p.Delete(ctx, channelID, id)
	}
	var pe *PlatformError
	if errors.As(err, &pe) && (pe.HTTPStatus == 404 || pe.Code == CodeArchivedThread) {
		return nil
	}
	return err
}

// reconcilePost finds a post an earlier attempt made (or, with
// Effect.Reconcile, one an answer's failed sending may have shown).
func reconcilePost(ctx context.Context, x *exec, d *Delivery) (string, error) {
	if !d.MaybeDone && !d.Effect.Reconcile {
		return "", nil
	}
	return alreadyPosted(ctx, x.p, d.Channel, d.Body)
}

// send posts the delivery's body in its channel.
func send(ctx context.Context, x *exec, d *Delivery) (string, error) {
	return x.p.Send(ctx, d.Channel, d.Body)
}

// alreadyPosted finds body among the bot's recent messages in channelID:
// the ID of the message an earlier attempt posted, or "".
func alreadyPosted(ctx context.Context, p Platform, channelID string, body ui.Message) (string, error) {
	recent, err := p.Recent(ctx, channelID, RecentLimit)
	if err != nil {
		return "", err
	}
	return FindPost(recent, body), nil
}

// LiveBoard is the message ID of game g's live board in channelID (as the
// game named the channel to Board), "" when none was posted there yet.
func LiveBoard(g *storage.Game, channelID string) string {
	for _, b := range g.Boards {
		if b.Channel == channelID {
			return b.Message
		}
	}
	return ""
}

// RecentLimit is how many recent messages reconciliation reads (Discord's
// most per request).
const RecentLimit = 100

// FindPost is the ID of the message of recent that is body, or "".
func FindPost(recent []Posted, body ui.Message) string {
	for _, p := range recent {
		if samePost(p, body) {
			return p.ID
		}
	}
	return ""
}

// samePost compares what Recent reads back of a message with a body.
func samePost(p Posted, m ui.Message) bool {
	if p.Content != m.Content || len(p.Cards) != len(m.Cards) {
		return false
	}
	for i, c := range m.Cards {
		if p.Cards[i].Title != c.Title || p.Cards[i].Description != c.Description || p.Cards[i].Footer != c.Footer {
			return false
		}
	}
	return true
}
