package commands

import (
	"context"
	"errors"
	"strings"
	"time"

	"sandtable/storage"
)

// Turn reminders. When a share of the running clock's period has passed
// (Settings.RemindAt, 0.75 by default in the bot's configuration; 0 turns
// reminders off), whoever must act (Clock.Actors: the player to move, the
// player whose SandTable turn it is, the players who have not confirmed
// their deployment, the Team Chess commander) is mentioned once in the
// game's thread, with the time left and a link to the thread.
//
// The reminder is a turn ping (pings.go): it replaces the turn's ping and
// goes where each actor chose (/notify). It is a framework timer stored with the game, like its
// deadline: storage.Game.Remind, indexed with the deadlines (Games.Due).
// finish sets it whenever the clock restarts (a new Clock.Key: a move, a
// turn, a phase), keeps it while the key stays, and clears it when no clock
// runs or the game ends. Sweep finds it due and remindGame posts the
// reminder as an outbox effect in the transaction that clears
// storage.Game.Remind (Games.Put's version compare serializes it with any
// action or another process's sweep): a reminder is sent once per run of
// the clock, never again after a restart, and never by two processes.

// ThreadLink is the address of a game's thread in Discord,
// https://discord.com/channels/<guild>/<thread>: a link that opens the
// thread from anywhere (a list of games, a notification). Without a guild
// it is the thread's mention, <#thread>.
func ThreadLink(guildID, threadID string) string {
	if guildID == "" {
		return "<#" + threadID + ">"
	}
	return "https://discord.com/channels/" + guildID + "/" + threadID
}

// restarts reports whether the clock rule starts a new run of the clock
// (a new deadline) when the clock moves from prev (nil: a new game) to
// next, given the deadline before.
func restarts(prev *Clock, next Clock, deadline time.Time) bool {
	return prev == nil || prev.Key != next.Key || prev.Rule != next.Rule || deadline.IsZero()
}

// nextRemind is when the reminder of the clock falls after an action that
// moved it from prev to next, the deadline going from before to deadline:
// at share of next.Period into a run that starts now; the reminder stored,
// remind, while the same run goes on (zero once sent); zero when no clock
// runs, reminders are off (share outside (0, 1)) or the clock is a Fischer
// clock (reminders are for per-move deadlines only).
func nextRemind(share float64, prev *Clock, next Clock, before, deadline, remind time.Time) time.Time {
	switch {
	case deadline.IsZero() || share <= 0 || share >= 1 || next.Rule == Fischer:
		return time.Time{}
	case !restarts(prev, next, before):
		return remind
	}
	start := deadline.Add(-next.Period)
	return start.Add(time.Duration(share * float64(next.Period)))
}

// remindGame sends the reminder of the game id when it is due at now:
// under the game's lock, read again after a conflict with another process.
func (a *App) remindGame(id string, now time.Time) error {
	unlock := a.lock(id)
	defer unlock()
	for n := 1; ; n++ {
		rec, err := a.snapshot(id)
		if err != nil {
			return err
		}
		if !rec.Active || rec.Remind.IsZero() || rec.Remind.After(now) {
			return nil // not due, sent, or the game moved on meanwhile
		}
		err = a.remindOnce(rec, now)
		if !errors.Is(err, storage.ErrConflict) || n == maxRuns {
			return err
		}
	}
}

// remindOnce commits, in one transaction, the reminder's post (when
// someone must act and reminders are on) and its timer cleared.
func (a *App) remindOnce(rec *storage.Game, now time.Time) error {
	var effects []Effect
	var actors int
	if k := a.kinds[rec.Kind]; k != nil && k.clockOf != nil && a.Settings.RemindAt > 0 && rec.Deadline.After(now) {
		c, err := k.clockOf(a, rec)
		if err != nil {
			return err
		}
		if len(c.Actors) > 0 && c.Rule != NoClock {
			// The reminder replaces the turn's ping, where each chose.
			actors = len(c.Actors)
			effects = append(effects, turnPings(c, true, now))
		}
	}
	next := *rec
	next.Remind = time.Time{}
	ctx := context.Background()
	if err := a.Store.Update(ctx, func(tx storage.Tx) error {
		if _, err := putGame(tx, &next, now); err != nil {
			return err
		}
		return a.enqueue(tx, rec.ID, rec, effects)
	}); err != nil {
		return err
	}
	if len(effects) > 0 {
		a.Log.Info("turn reminder", "game", rec.ID, "actors", actors)
		a.deliverNow(ctx, rec.ID, true) // remindGame holds the game's lock
		a.kick()
	}
	return nil
}

// timeLeft says d to the minute in at most two units: "6 hours",
// "1 day 2 hours", "45 minutes", "less than a minute".
func timeLeft(d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	switch {
	case d < time.Minute:
		return "less than a minute"
	case days > 0 && hours > 0:
		return Plural(days, "day", "days") + " " + Plural(hours, "hour", "hours")
	case days > 0:
		return Plural(days, "day", "days")
	case hours > 0 && mins > 0:
		return Plural(hours, "hour", "hours") + " " + Plural(mins, "minute", "minutes")
	case hours > 0:
		return Plural(hours, "hour", "hours")
	}
	return Plural(mins, "minute", "minutes")
}

// andList joins items as a sentence does: "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// waitingOn says whom the game whose clock is c waits on, for userID's
// /games: "<@bob>" (a list of games is an ephemeral answer: its mentions
// show names and ping nobody), "**you** and <@bob>", or "" when nobody
// must act or only userID must: the game's Summary then says it is their
// move, and saying it twice reads as noise.
func waitingOn(c Clock, userID string) string {
	var who []string
	mine := false
	for _, id := range c.Actors {
		if id == userID {
			mine = true
		} else {
			who = append(who, mentionID(id))
		}
	}
	if mine && len(who) > 0 {
		who = append([]string{"**you**"}, who...)
	}
	return andList(who)
}
