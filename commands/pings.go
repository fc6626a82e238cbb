package commands

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sandtable/storage"
)

// Turn pings (issue 25 items 1 and 2). Discord notifies a user only for a
// mention in a new message; the live board is edited in place and quiet,
// so whoever must act is told by a ping message of its own. When the clock
// rule starts a new turn (a new Clock.Key or Rule, or a new game), finish
// asks for the turn's pings (turnPings: an OpPing naming the actors, To);
// enqueue turns it, in the transaction that saves it, into
//
//   - the deletes of every ping of the game still shown (storage.Game.Pings),
//     so a thread keeps at most one ping and a player's direct messages one
//     per game: done by the turn's first ping (Effect.Replace), or an
//     OpUnping when nobody is to be pinged;
//   - one post in the game's thread (or Clock.PingIn: a Team Chess team's
//     thread) mentioning the actors who chose "thread" (the default), and one direct message per actor who chose
//     "dm" (it names the game and links its thread); nothing for "off"
//     (the live board still says whose turn it is). Computer seats are
//     never pinged.
//
// The turn's reminder (remind.go) is a ping of the same kind and replaces
// the turn's. The end of a game deletes its pings (an OpUnping queued with
// the end, before the thread's archive). A ping's ID is recorded in the
// transaction that marks its post done (recordPing; a replacing ping's
// record replaces them), and an OpUnping's deletes are cleared in the one
// that marks it done: a retry or a crash
// deletes nothing twice that matters (a message already gone is done) and
// leaves no ping behind.
//
// The choices are /notify's (notify.go), per user and server, stored in
// storage.Notify; a choice for every server (guild "") applies where a
// server has none of its own.

// turnPings asks for the pings of the turn whose clock is c (its actors)
// at now; reminder makes them its reminder.
func turnPings(c Clock, reminder bool, now time.Time) Effect {
	return Effect{Op: OpPing, To: append([]string(nil), c.Actors...), Channel: c.PingIn, Turn: turnWord(c.Rule), Reminder: reminder, Queued: now}
}

// turnWord names what a clock's actors must do.
func turnWord(r ClockRule) string {
	switch r {
	case PerTurn:
		return "turn"
	case Deployment:
		return "deployment"
	}
	return "move"
}

// startsTurn reports whether the clock moving from prev (nil: a new game)
// to next starts a turn that pings its actors.
func startsTurn(prev *Clock, next Clock) bool {
	return len(next.Actors) > 0 && (prev == nil || prev.Key != next.Key || prev.Rule != next.Rule)
}

// notifyChoice is where userID's pings go in guildID: their choice there,
// else their choice for every server, else the thread. One range read
// (Notify.Each) finds both: on etcd, one request per actor.
func notifyChoice(tx storage.Tx, guildID, userID string) (string, error) {
	where, all := "", ""
	if err := tx.Notify().Each(userID, func(g, w string) error {
		switch g {
		case guildID:
			where = w
		case "":
			all = w
		}
		return nil
	}); err != nil {
		return "", err
	}
	switch {
	case where != "":
		return where, nil
	case all != "":
		return all, nil
	}
	return storage.NotifyThread, nil
}

// expandPings replaces, in effects, each turn's pings asked for (an OpPing
// with To) by the effects that delete the pings before and ping each actor
// where they chose, read in tx. Games without a record ping nobody.
func (a *App) expandPings(tx storage.Tx, rec *storage.Game, effects []Effect) ([]Effect, error) {
	if !slices.ContainsFunc(effects, isPingRequest) {
		return effects, nil
	}
	out := make([]Effect, 0, len(effects)+2)
	for _, e := range effects {
		if !isPingRequest(e) {
			out = append(out, e)
			continue
		}
		if rec == nil {
			continue
		}
		first := len(out)
		var inThread []string
		for _, id := range e.To {
			if _, computer := rec.Computer(id); computer || id == a.self {
				continue
			}
			where, err := notifyChoice(tx, rec.GuildID, id)
			if err != nil {
				return nil, err
			}
			switch where {
			case storage.NotifyOff:
			case storage.NotifyDM:
				m := a.pingDM(rec, e)
				out = append(out, Effect{Op: OpPing, User: id, Body: &m})
			default:
				inThread = append(inThread, id)
			}
		}
		if len(inThread) > 0 {
			m := a.pingThread(rec, e, inThread)
			ch := e.Channel
			if ch == "" {
				ch = ChannelOfGame
			}
			out = append(out, Effect{Op: OpPing, Channel: ch, Body: &m})
		}
		if len(out) == first {
			out = append(out, Effect{Op: OpUnping}) // nobody to ping: the pings before still go
		} else {
			out[first].Replace = true
		}
	}
	return out, nil
}

// isPingRequest reports whether e asks for a turn's pings (turnPings).
func isPingRequest(e Effect) bool { return e.Op == OpPing && e.Body == nil && len(e.To) > 0 }

// pingThread is the ping in the game's thread of users: "<@bob>, your
// move (time runs out <t:..:R>)." or the reminder.
func (a *App) pingThread(rec *storage.Game, e Effect, users []string) Message {
	mentions := make([]string, len(users))
	for i, id := range users {
		mentions[i] = mentionID(id)
	}
	if e.Reminder {
		where := ""
		if rec.ThreadID != "" {
			where = " in " + ThreadLink(rec.GuildID, rec.ThreadID)
		}
		return Message{Content: fmt.Sprintf("Reminder: %s, %s left on your %s%s (time runs out <t:%d:R>).",
			andList(mentions), timeLeft(rec.Deadline.Sub(e.Queued)), e.Turn, where, rec.Deadline.Unix())}
	}
	text := fmt.Sprintf("%s, your %s.", andList(mentions), e.Turn)
	if !rec.Deadline.IsZero() {
		text = fmt.Sprintf("%s, your %s (time runs out <t:%d:R>).", andList(mentions), e.Turn, rec.Deadline.Unix())
	}
	return Message{Content: text}
}

// pingDM is the direct message pinging a player who chose "dm": it names
// the game and links its thread.
func (a *App) pingDM(rec *storage.Game, e Effect) Message {
	title := rec.Kind
	if k := a.kinds[rec.Kind]; k != nil && k.Title != "" {
		title = k.Title
	}
	where := ""
	if rec.ThreadID != "" {
		where = ": " + ThreadLink(rec.GuildID, rec.ThreadID)
	}
	var b strings.Builder
	if e.Reminder {
		fmt.Fprintf(&b, "Reminder: %s left on your %s in %s, game %s%s", timeLeft(rec.Deadline.Sub(e.Queued)), e.Turn, title, rec.ID, where)
	} else {
		fmt.Fprintf(&b, "Your %s in %s, game %s%s", e.Turn, title, rec.ID, where)
	}
	if !rec.Deadline.IsZero() {
		fmt.Fprintf(&b, " (time runs out <t:%d:R>)", rec.Deadline.Unix())
	}
	b.WriteString(".")
	return Message{Content: b.String()}
}

// recordPing records, in tx, what the delivered ping effect e did to its
// game's pings: an OpPing's message id is added (or replaces them), an
// OpUnping's deletes clear them, and so do a replacing ping's that posted
// nothing (id ""). A game that no longer exists needs nothing.
func (a *App) recordPing(tx storage.Tx, e *Effect, id string) error {
	rec, err := tx.Games().Get(e.Game)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if e.Op == OpUnping || id == "" {
		if len(rec.Pings) == 0 {
			return nil
		}
		rec.Pings = nil
		return tx.Games().Put(rec, a.Now())
	}
	p := storage.Ping{Channel: e.Channel, User: e.User, Message: id}
	if p.User != "" {
		p.Channel = ""
	} else if p.Channel == ChannelOfGame {
		p.Channel = rec.ThreadID
	}
	if e.Replace {
		// Its delivery deleted the pings recorded before it.
		rec.Pings = []storage.Ping{p}
		return tx.Games().Put(rec, a.Now())
	}
	if slices.Contains(rec.Pings, p) {
		return nil
	}
	rec.Pings = append(rec.Pings, p)
	return tx.Games().Put(rec, a.Now())
}
