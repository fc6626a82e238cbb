package commands

import (
	"errors"
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

// closeThread is what a game's end asks of its threads, after
// ArchiveDelay: in its public thread a summary (result and method, and the
// link to the final message once known: written when delivered, see
// closingSummary), then archiving and locking the thread; then the same in
// each of others, the game's other threads (Spec.OtherThreads: a team's
// private thread), whose summary points to the public thread.
func closeThread(rec *storage.Game, others []string) []Effect {
	summary := closingSummary(rec, ChannelOfGame)
	effects := []Effect{
		{Op: OpPost, Channel: ChannelOfGame, Body: &summary, Closing: true},
		{Op: OpArchive, Channel: ChannelOfGame},
	}
	for _, th := range others {
		if th == "" || th == rec.ThreadID {
			continue
		}
		m := closingSummary(rec, th)
		effects = append(effects,
			Effect{Op: OpPost, Channel: th, Body: &m, Closing: true},
			Effect{Op: OpArchive, Channel: th})
	}
	return effects
}

// closingSummary is the last message the bot posts in channel, a thread of
// the finished game rec (ChannelOfGame or its ThreadID: the public thread),
// before archiving it: in the public thread the result, in another thread
// a pointer to the public one (whose summary pings the players already);
// both link to the game's final message (rec.FinalMessage) when it is
// known. It is written again when the summary is delivered (Effect.Closing),
// from the game as stored then, since the final message's ID may be learnt
// after the end was saved.
func closingSummary(rec *storage.Game, channel string) Message {
	link := MessageLink(rec.GuildID, rec.ThreadID, rec.FinalMessage)
	if channel != ChannelOfGame && channel != rec.ThreadID {
		where := fmt.Sprintf("<#%s>", rec.ThreadID)
		if link != "" {
			where = link
		}
		return Message{Content: "**Game over.** The result, the final board and the full record are in the game thread: " + where +
			"\nThis team thread is now archived and locked."}
	}
	if link == "" {
		return Message{Content: "**Game over.** " + outcomeLine(rec.Outcome) +
			" The full record is in the final board message above. This thread is now archived and locked."}
	}
	return Message{Content: "**Game over.** " + outcomeLine(rec.Outcome) +
		"\nFinal board and full record: " + link +
		"\nThis thread is now archived and locked."}
}

// MessageLink is the address of a message in a server's channel (or
// thread) that Discord shows as a jump to it: "" when any part is unknown.
func MessageLink(guildID, channelID, messageID string) string {
	if guildID == "" || channelID == "" || messageID == "" {
		return ""
	}
	return fmt.Sprintf("https://discord.com/channels/%s/%s/%s", guildID, channelID, messageID)
}

// markFinal finds, in an action that ends the game rec, the message that
// will show the end in its public thread, so that the closing summary can
// link to it (rec.FinalMessage): the last message the action shows there
// (its effects are delivered before its answer), preferring one with a
// board (files). An edit names its message at once (rec.FinalMessage is
// set here); a post's ID is learnt when the outbox delivers it
// (Effect.Final), and the answer's when the adapter reports it posted
// (Response.Posted) or when its outbox copy is delivered.
func (a *App) markFinal(rec *storage.Game, req *Request, resp *Response, effects []Effect) {
	if rec.ThreadID == "" {
		return
	}
	inThread := func(ch string) bool { return ch == ChannelOfGame || ch == rec.ThreadID }
	// Candidates in the order the thread shows them; answer stands for the
	// action's answer, shown last.
	const answer, none = -1, -2
	last, lastFiles := none, none
	consider := func(i int, files bool) {
		last = i
		if files {
			lastFiles = i
		}
	}
	for i, e := range effects {
		if (e.Op == OpPost || e.Op == OpBoard || (e.Op == OpEdit && e.Message != "")) && inThread(e.Channel) && e.Body != nil {
			consider(i, len(e.Body.Files) > 0)
		}
	}
	answered := req != nil && resp != nil && !resp.Ephemeral && resp.Modal == nil && len(resp.Choices) == 0 &&
		req.ChannelID == rec.ThreadID && (!resp.Update || req.MessageID != "")
	if answered {
		consider(answer, len(resp.Files) > 0)
	}
	pick := last
	if lastFiles != none {
		pick = lastFiles
	}
	switch {
	case pick == none:
	case pick == answer && resp.Update:
		rec.FinalMessage = req.MessageID
	case pick == answer:
		resp.final = rec.ID
		posted, id := resp.Posted, rec.ID
		resp.Posted = func(messageID string) {
			if posted != nil {
				posted(messageID)
			}
			a.finalPosted(id, messageID)
		}
	default:
		if effects[pick].Op == OpEdit {
			rec.FinalMessage = effects[pick].Message
		}
		// A post's ID (a live board's too, posted or edited in place), or
		// an edit's new one when Discord refuses the edit and it is posted
		// anew (30046).
		effects[pick].Final = true
	}
}

// finalPosted records messageID as the final message of the game gameID
// (the answer that showed its end, as the adapter reports it).
func (a *App) finalPosted(gameID, messageID string) {
	if messageID == "" {
		return
	}
	unlock := a.lock(gameID)
	defer unlock()
	err := a.update(func(tx storage.Tx) error { return setFinal(tx, gameID, messageID, a.Now()) })
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		a.Log.Warn("recording a game's final message failed", "game", gameID, "err", err)
	}
}

// setFinal records messageID as the final message of the game gameID, in
// tx.
func setFinal(tx storage.Tx, gameID, messageID string, now time.Time) error {
	rec, err := tx.Games().Get(gameID)
	if err != nil || rec.FinalMessage == messageID {
		return err
	}
	rec.FinalMessage = messageID
	return tx.Games().Put(rec, now)
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
