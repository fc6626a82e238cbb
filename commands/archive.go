package commands

import (
	"fmt"
	"strings"
	"time"

	"sandtable/storage"
)

// ArchiveDelay is how long after a game ends its thread is archived and
// locked, with a last summary. Everything the end shows comes first: the
// answer to the ending action (posted by the adapter right after the
// commit, or by its outbox copy answerGrace later when sending it failed)
// and the end's own effects; Discord refuses posts in a locked thread, even
// the bot's.
const ArchiveDelay = answerGrace + 30*time.Second

// closeThread is what a game's end asks of its public thread, after
// ArchiveDelay: a summary (result and method), then archiving and locking
// the thread.
func closeThread(rec *storage.Game) []Effect {
	summary := Message{Content: "**Game over.** " + outcomeLine(rec.Outcome) +
		" The full record is in the final board message above. This thread is now archived and locked."}
	return []Effect{
		{Op: OpPost, Channel: ChannelOfGame, Body: &summary},
		{Op: OpArchive, Channel: ChannelOfGame},
	}
}

// outcomeLine says who won and how, from the typed outcome.
func outcomeLine(o *storage.Outcome) string {
	if o == nil {
		return "The game has ended."
	}
	method := strings.ReplaceAll(string(o.Method), "_", " ")
	mention := func(ids []string) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = "<@" + id + ">"
		}
		return strings.Join(out, ", ")
	}
	switch {
	case len(o.Winners) > 0:
		verb := "wins"
		if len(o.Winners) > 1 {
			verb = "win"
		}
		return fmt.Sprintf("%s %s by %s.", mention(o.Winners), verb, method)
	case len(o.Losers) > 0:
		return fmt.Sprintf("Everybody loses (%s).", method)
	}
	return fmt.Sprintf("Drawn (%s).", method)
}

// enqueueLate saves effects in the outbox stream of stream, in tx, due at
// due and claimed by nobody: whichever process's dispatcher runs when they
// are due performs them (reconciled first, as effects of another process
// are). They hold back the effects queued after them in their stream.
func (a *App) enqueueLate(tx storage.Tx, stream string, rec *storage.Game, effects []Effect, due time.Time) error {
	return a.addEffects(tx, stream, rec, effects, func(id string, _ time.Time) error {
		return tx.Outbox().Retry(id, 0, due)
	})
}
