package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Challenge is an open invitation from one player to another to start a
// two-player game. It is stored until accepted, declined, cancelled or
// expired.
type Challenge struct {
	ID         string            `json:"id"`
	Kind       string            `json:"kind"`
	GuildID    string            `json:"guild_id"`
	ChannelID  string            `json:"channel_id"`
	MessageID  string            `json:"message_id,omitempty"`
	Challenger User              `json:"challenger"`
	Opponent   User              `json:"opponent"`
	Options    map[string]string `json:"options,omitempty"`
	Expires    time.Time         `json:"expires"`
	// Casual: the game changes no rating (the challenge's casual option).
	Casual bool `json:"casual,omitempty"`
}

// getChallenge reads the challenge id into ch, its expiry as the store
// keeps it (downtime credited).
func getChallenge(tx storage.Tx, id string, ch *Challenge) error {
	exp, err := tx.Challenges().Get(id, ch)
	if err != nil {
		return err
	}
	ch.Expires = exp
	return nil
}

// errChallengeGone: the challenge was answered or expired meanwhile (by
// another process: within one, its lock orders the answers).
var errChallengeGone = &UserError{Msg: "This challenge or lobby is no longer open."}

// takeChallenge deletes the challenge id in tx, the transaction that
// answers it, or returns errChallengeGone when it is not there any more:
// of two processes answering or expiring one challenge at once, one wins.
func takeChallenge(tx storage.Tx, id string) error {
	var ch Challenge
	if err := getChallenge(tx, id, &ch); errors.Is(err, storage.ErrNotFound) {
		return errChallengeGone
	} else if err != nil {
		return err
	}
	return tx.Challenges().Delete(id)
}

// ChallengeStarter starts the game of an accepted challenge: it creates and
// saves the game, creates its thread and posts the first board there. It
// returns the thread's ID.
type ChallengeStarter func(a *App, req *Request, ch *Challenge) (threadID string, err error)

// Duration reads the time option name that the challenge command stored
// (as time.Duration's String, once validated by MoveTimeOption).
func (ch *Challenge) Duration(name string) (time.Duration, error) {
	d, err := time.ParseDuration(ch.Options[name])
	if err != nil {
		return 0, fmt.Errorf("challenge %s: bad %s: %w", ch.ID, name, err)
	}
	return d, nil
}

// threadFailed is Discord's refusal to create a game's thread (what), which
// the user is told about (threadRefusal) instead of a generic apology.
type threadFailed struct {
	what string
	err  error
}

func (e *threadFailed) Error() string { return "creating " + e.what + ": " + e.err.Error() }
func (e *threadFailed) Unwrap() error { return e.err }

// threadRefusal explains a failed start to the user when the cause was the
// thread (ok false otherwise): gone says the challenge or lobby was closed
// (ErrNoThreads: it can never start in its channel), else it stays open,
// and again says how to retry.
func threadRefusal(err error, again string) (msg string, gone, ok bool) {
	var tf *threadFailed
	if !errors.As(err, &tf) {
		return "", false, false
	}
	if errors.Is(err, ErrNoThreads) {
		return "This game cannot start here: each game is played in its own thread, and Discord cannot create a thread in this channel (it is a thread itself, or a kind of channel without threads). Start it again from a server text channel.", true, true
	}
	return fmt.Sprintf("I could not create %s: Discord said %s. Nothing was started. An admin may need to let me create public and private threads in this channel; then %s", tf.what, discordReason(tf.err), again), false, true
}

// ThreadRefused explains to the user a start that failed because Discord
// refused to create a thread (what: "the game's thread", "White's private
// team thread") with err: msg says what Discord said and, unless gone, that
// nothing was started and how to try again (again). gone reports that the
// channel can never hold threads (ErrNoThreads): the invitation should be
// closed, since it can never start there.
func ThreadRefused(what string, err error, again string) (msg string, gone bool) {
	msg, gone, _ = threadRefusal(&threadFailed{what: what, err: err}, again)
	return msg, gone
}

// discordReason is what Discord said in err, for a user: its message and
// code when err is a PlatformError carrying one, else its HTTP status, else
// err's text; clipped.
func discordReason(err error) string {
	var pe *PlatformError
	s := err.Error()
	if errors.As(err, &pe) && pe.Message != "" {
		s = fmt.Sprintf("\"%s\" (error %d)", EscapeText(pe.Message, 0), pe.Code)
	} else if errors.As(err, &pe) && pe.Status != "" {
		s = pe.Status
	}
	return Clip(s, 200)
}

// needTextChannel refuses to open a challenge or lobby in req's channel
// unless it is a server text channel, the only kind in which the bot can
// create the game's threads. When the type cannot be read, it lets the
// command go on: the start then says what went wrong.
func (a *App) needTextChannel(req *Request) error {
	t, err := a.Platform.ChannelType(req.Context(), req.ChannelID)
	if err != nil {
		a.Log.Warn("reading the channel type failed", "channel", req.ChannelID, "err", err)
		return nil
	}
	switch t {
	case ui.TextChannel:
		return nil
	case ui.PublicThread, ui.PrivateThread, ui.NewsThread:
		return Errorf("Use this in a server text channel, not in a thread: each game is played in its own thread, and Discord cannot create a thread inside a thread.")
	}
	return Errorf("Use this in a server text channel: each game is played in its own thread, and this kind of channel cannot hold the game's threads.")
}

// NeedTextChannel refuses to open an invitation (a game's own lobby) in
// req's channel unless it is a server text channel, where the game's
// threads can be created (as OpenChallenge does for challenges).
// It then checks the member against the server's settings (mayStart).
func (a *App) NeedTextChannel(req *Request) error {
	if err := a.needTextChannel(req); err != nil {
		return err
	}
	return a.mayStart(req, false)
}

// OpenChallenge validates and posts a challenge from req's user to
// opponent to a game of the registered kind: options are the game's
// validated settings, which its Start reads back (Challenge.Options,
// Challenge.Duration), and describe lines shown in the challenge.
func (a *App) OpenChallenge(req *Request, kind string, opponent *User, options map[string]string, describe []string) (*Response, error) {
	k := a.kinds[kind]
	if k == nil {
		return nil, fmt.Errorf("challenge to unknown kind %q", kind)
	}
	return a.openChallenge(req, k, opponent, options, describe)
}

// openChallenge validates and posts a challenge for kind k. Options are the
// kind's already validated settings, and describe lines shown in the embed.
func (a *App) openChallenge(req *Request, k *kindTable, opponent *User, options map[string]string, describe []string) (*Response, error) {
	self, err := a.checkChallenge(req, k, opponent)
	if err != nil {
		return nil, err
	}
	if self {
		return a.computerChallenge(req, k, opponent, options, newID())
	}
	ch := a.newChallenge(req, k, opponent, options)
	if err := a.update(func(tx storage.Tx) error {
		if err := openBetween(tx, a, ch, req.Now); err != nil {
			return err
		}
		if err := a.countStart(tx, req); err != nil {
			return err
		}
		return tx.Challenges().Put(ch.ID, ch.Expires, ch)
	}); err != nil {
		return nil, err
	}
	return &Response{Posted: func(mid string) { a.challengePosted(ch.ID, mid) }, Message: a.challengeMessage(k, ch, describe, req.Now)}, nil
}

// checkChallenge refuses a challenge from req's user to opponent that
// cannot be made; self reports a challenge to the bot, a game against the
// computer.
func (a *App) checkChallenge(req *Request, k *kindTable, opponent *User) (self bool, err error) {
	if req.GuildID == "" {
		return false, Errorf("Challenges are made in a server channel, not in direct messages.")
	}
	if opponent == nil {
		return false, Errorf("Name the player you challenge in the opponent option.")
	}
	if opponent.ID == req.User.ID {
		return false, Errorf("You cannot challenge yourself: pick another player as opponent.")
	}
	self = a.isSelf(opponent)
	if opponent.Bot && !self {
		return false, Errorf("%s is a bot and cannot play: challenge a person, or me to play the computer.", EscapeText(opponent.Name, 0))
	}
	if self && (k.computer == nil || k.start == nil) {
		return false, Errorf("I do not play %s yet: challenge a person.", k.Title)
	}
	if !self && req.Str("level") != "" {
		return false, Errorf("The level option is for games against the computer: name me as the opponent to play it, or leave the level out.")
	}
	if err := a.needTextChannel(req); err != nil {
		return false, err
	}
	if err := a.mayStartThen(req, self); err != nil {
		return false, err
	}
	return self, nil
}

// computerChallenge starts at once the game against the computer that
// req's user asked for, as the game id.
func (a *App) computerChallenge(req *Request, k *kindTable, opponent *User, options map[string]string, id string) (*Response, error) {
	level, err := computerLevel(k, req)
	if err != nil {
		return nil, err
	}
	return a.startComputerGame(req, k, &Challenge{ID: id, Kind: k.Name, GuildID: req.GuildID, ChannelID: req.ChannelID,
		Challenger: req.User, Opponent: *opponent, Options: options, Expires: req.Now}, level)
}

// newChallenge is the challenge from req's user to opponent, not stored.
func (a *App) newChallenge(req *Request, k *kindTable, opponent *User, options map[string]string) *Challenge {
	return &Challenge{
		ID:         newID(),
		Kind:       k.Name,
		GuildID:    req.GuildID,
		ChannelID:  req.ChannelID,
		Challenger: req.User,
		Opponent:   *opponent,
		Options:    options,
		Expires:    req.Now.Add(a.Settings.ChallengeTTL),
		Casual:     req.Casual() || options["casual"] == "true",
	}
}

// challengeMessage is the message that shows the open challenge ch.
func (a *App) challengeMessage(k *kindTable, ch *Challenge, describe []string, now time.Time) Message {
	desc := fmt.Sprintf("%s challenges %s to a game of **%s**.", ch.Challenger.Mention(), ch.Opponent.Mention(), k.Title)
	desc += "\n" + a.ratedLine(k.Name, ch.GuildID, ch.Casual, now, ch.Challenger.ID, ch.Opponent.ID)
	for _, d := range describe {
		desc += "\n" + d
	}
	desc += fmt.Sprintf("\nThe challenge expires <t:%d:R>.", ch.Expires.Unix())
	id := func(action string) string { return CustomID{Scope: "c", ID: ch.ID, Action: action}.String() }
	return Message{
		Content: ch.Opponent.Mention() + ", you have been challenged!",
		Cards: []*ui.Card{{
			Title:       k.Title + " challenge",
			Description: desc,
			Color:       ColorChallenge,
		}},
		Rows: []ui.Row{{
			ui.Button{Label: "Accept", Style: ui.Success, Route: id("accept")},
			ui.Button{Label: "Decline", Style: ui.Danger, Route: id("decline")},
			ui.Button{Label: "Cancel", Style: ui.Secondary, Route: id("cancel")},
		}},
	}
}

// challengeHandlers returns the Accept, Decline and Cancel button handlers
// for a two-player kind whose games start with start.
func challengeHandlers(start ChallengeStarter) map[string]Handler {
	return map[string]Handler{
		"accept":  func(a *App, req *Request) (*Response, error) { return a.answerChallenge(req, "accept", start) },
		"decline": func(a *App, req *Request) (*Response, error) { return a.answerChallenge(req, "decline", nil) },
		"cancel":  func(a *App, req *Request) (*Response, error) { return a.answerChallenge(req, "cancel", nil) },
	}
}

// answerChallenge runs under the challenge's lock (taken by the router).
func (a *App) answerChallenge(req *Request, action string, start ChallengeStarter) (*Response, error) {
	id, err := ParseCustomID(req.CustomID)
	if err != nil {
		return nil, err
	}
	var ch Challenge
	if err := a.view(func(tx storage.Tx) error { return getChallenge(tx, id.ID, &ch) }); err != nil {
		return nil, err
	}
	k := a.kinds[ch.Kind]
	if !req.Now.Before(ch.Expires) {
		if err := a.update(func(tx storage.Tx) error { return tx.Challenges().Delete(ch.ID) }); err != nil {
			return nil, err
		}
		return closedChallenge(k, &ch, "This challenge expired before it was answered."), nil
	}
	switch action {
	case "cancel":
		if req.User.ID != ch.Challenger.ID {
			return nil, Errorf("Only %s, who made this challenge, can cancel it.", EscapeText(ch.Challenger.Name, 0))
		}
	case "accept", "decline":
		if req.User.ID != ch.Opponent.ID {
			if req.User.ID == ch.Challenger.ID {
				return nil, Errorf("You made this challenge; only %s can %s it. Use Cancel to withdraw it.", EscapeText(ch.Opponent.Name, 0), action)
			}
			return nil, Errorf("This challenge is for %s; only they can %s it.", EscapeText(ch.Opponent.Name, 0), action)
		}
	}
	if action == "accept" {
		if err := a.mayAccept(req, ch.GuildID); err != nil {
			return nil, err
		}
	}
	if action == "accept" && k != nil && k.start != nil {
		return a.acceptChallenge(req, k, &ch)
	}
	// Delete first: if starting fails, nothing is left half-done, and a
	// second click finds the challenge gone.
	if err := a.update(func(tx storage.Tx) error { return takeChallenge(tx, ch.ID) }); err != nil {
		return nil, err
	}
	switch action {
	case "cancel", "decline":
		note := fmt.Sprintf("%s withdrew this challenge.", ch.Challenger.Mention())
		if action == "decline" {
			note = fmt.Sprintf("%s declined the challenge.", ch.Opponent.Mention())
		}
		r := closedChallenge(k, &ch, note)
		r.Committed = true // the challenge is closed: a lost answer is still shown
		return r, nil
	}
	threadID, err := start(a, req, &ch)
	if err != nil {
		msg, gone, explained := threadRefusal(err, "accept again.")
		if explained {
			a.Log.Warn("starting a challenge failed", "challenge", ch.ID, "err", err)
		}
		if gone {
			// It can never start in its channel: it stays closed.
			return closedChallenge(k, &ch, msg), nil
		}
		// Put the challenge back so it can be accepted again.
		if perr := a.update(func(tx storage.Tx) error { return tx.Challenges().Put(ch.ID, ch.Expires, &ch) }); perr != nil {
			a.Log.Error("restoring challenge failed", "challenge", ch.ID, "err", perr)
		}
		if explained {
			return nil, Errorf("%s The challenge is still open.", msg)
		}
		return nil, err
	}
	return closedChallenge(k, &ch, fmt.Sprintf("%s accepted. The game is on in <#%s>.", ch.Opponent.Mention(), threadID)), nil
}

// acceptChallenge starts the game of the challenge ch, of a kind
// registered with Register, under the challenge's lock. The game's public
// thread is started from the challenge's message first: a retry (after a
// failure or a crash before the commit) gets the same thread back, never a
// second one, and a refusal leaves the challenge open. Then one
// transaction closes the challenge, saves the game and queues its first
// effects (players added to the thread, the first board).
func (a *App) acceptChallenge(req *Request, k *kindTable, ch *Challenge) (*Response, error) {
	// The game takes the challenge's ID: what opened the challenge (a
	// finished game's Rematch) finds the game it became.
	rec := &storage.Game{ID: ch.ID, Kind: k.Name, GuildID: ch.GuildID, ChannelID: ch.ChannelID,
		Players: []string{ch.Challenger.ID, ch.Opponent.ID}, Active: true, Unrated: ch.Casual}
	starter := req.MessageID
	if starter == "" {
		starter = ch.MessageID
	}
	// A thread started from a message has the message's ID: Start can
	// name the game's thread in its first messages.
	rec.ThreadID = starter
	name, effects, err := k.start(a, req, ch, rec)
	if err != nil {
		return nil, err
	}
	var threadID string
	if starter != "" {
		threadID, err = a.Platform.StartThreadFrom(req.Context(), ch.ChannelID, starter, name)
	} else {
		threadID, err = a.Platform.StartThread(req.Context(), ch.ChannelID, name, false)
	}
	if err != nil {
		err = &threadFailed{what: "the game's thread", err: err}
		a.Log.Warn("starting a challenge failed", "challenge", ch.ID, "err", err)
		msg, gone, _ := threadRefusal(err, "accept again.")
		if gone {
			if err := a.update(func(tx storage.Tx) error { return tx.Challenges().Delete(ch.ID) }); err != nil {
				return nil, err
			}
			return closedChallenge(k, ch, msg), nil
		}
		return nil, Errorf("%s The challenge is still open.", msg)
	}
	rec.ThreadID = threadID
	r := closedChallenge(k, ch, fmt.Sprintf("%s accepted. The game is on in <#%s>.", ch.Opponent.Mention(), threadID))
	closed := r.Message
	// The answer closes the challenge's message; so does this edit, in case
	// the answer is lost (a crash right after the commit): it is the
	// message's last state, so doing it twice changes nothing.
	first := []Effect{
		{Op: OpAddMember, Channel: threadID, User: ch.Challenger.ID},
		{Op: OpAddMember, Channel: threadID, User: ch.Opponent.ID},
	}
	if starter != "" {
		first = append([]Effect{{Op: OpEdit, Channel: ch.ChannelID, Message: starter, Body: &closed}}, first...)
	}
	effects = append(first, effects...)
	// Under the challenge's lock, which is the new game's (same ID).
	if err := a.commitNewGame(req, rec, true, effects, func(tx storage.Tx) error { return takeChallenge(tx, ch.ID) }); err != nil {
		return nil, err
	}
	r.Committed = true
	return r, nil
}

// commitNewGame saves the new game rec and its first effects in one
// transaction, with the interaction's mark and also's writes (when not
// nil), sets rec to what was saved, then delivers the effects and starts a
// computer's move if one is due. locked says the caller holds the lock
// keyed by rec's ID.
func (a *App) commitNewGame(req *Request, rec *storage.Game, locked bool, effects []Effect, also func(tx storage.Tx) error) error {
	var saved *storage.Game
	err := a.Store.Update(req.Context(), func(tx storage.Tx) error {
		if req.InteractionID != "" {
			if err := markApplied(tx, req.InteractionID, req.Now); err != nil {
				return err
			}
		}
		if also != nil {
			if err := also(tx); err != nil {
				return err
			}
		}
		var err error
		if saved, err = putGame(tx, rec, req.Now); err != nil {
			return err
		}
		return a.enqueue(tx, rec.ID, rec, effects)
	})
	if err != nil {
		return err
	}
	*rec = *saved
	a.deliverNow(req.Context(), rec.ID, locked)
	a.kick()
	a.maybeComputer(rec, req.Now)
	return nil
}

func closedChallenge(k *kindTable, ch *Challenge, outcome string) *Response {
	title := "Challenge"
	if k != nil {
		title = k.Title + " challenge"
	}
	return &Response{Update: true, Message: Message{
		Cards: []*ui.Card{{
			Title:       title,
			Description: fmt.Sprintf("%s challenged %s.\n%s", ch.Challenger.Mention(), ch.Opponent.Mention(), outcome),
			Color:       ColorClosed,
		}},
		Rows: []ui.Row{},
	}}
}

// expireChallenges closes every challenge whose time is up, editing its
// message when the message ID is known.
func (a *App) expireChallenges(now time.Time) error {
	return expireInvitations(a, now, challengesOf, func(ch *Challenge) []Effect {
		if ch.MessageID == "" {
			return nil
		}
		m := closedChallenge(a.kinds[ch.Kind], ch, "This challenge expired before it was answered.").Message
		return []Effect{{Op: OpEdit, Channel: ch.ChannelID, Message: ch.MessageID, Body: &m}}
	})
}

// challengePosted records the message ID of a challenge the bot has just
// posted, so that its expiry can edit it.
func (a *App) challengePosted(id, messageID string) {
	invitationPosted(a, challengesOf, id, func(ch *Challenge) { ch.MessageID = messageID })
}

// openBetween refuses ch when its two players already have an open
// challenge in its server, in either direction and of any game, naming
// that one. An expired challenge the sweep has not closed yet does not
// count; one whose message was never shown (its answer failed, so it has
// no message ID) is withdrawn for ch, which replaces it.
func openBetween(tx storage.Tx, a *App, ch *Challenge, now time.Time) error {
	var open *Challenge
	var unseen []string
	err := tx.Challenges().Each(func(id string, raw []byte) error {
		var c Challenge
		if json.Unmarshal(raw, &c) != nil || c.GuildID != ch.GuildID || open != nil {
			return nil
		}
		pair := (c.Challenger.ID == ch.Challenger.ID && c.Opponent.ID == ch.Opponent.ID) ||
			(c.Challenger.ID == ch.Opponent.ID && c.Opponent.ID == ch.Challenger.ID)
		if !pair {
			return nil
		}
		// The expiry as the store keeps it (downtime credited).
		if err := getChallenge(tx, id, &c); err != nil {
			return err
		}
		switch {
		case !c.Expires.After(now):
		case c.MessageID == "":
			unseen = append(unseen, id)
		default:
			open = &c
		}
		return nil
	})
	if err != nil {
		return err
	}
	if open == nil {
		for _, id := range unseen {
			if err := tx.Challenges().Delete(id); err != nil {
				return err
			}
		}
		return nil
	}
	title := open.Kind
	if k := a.kinds[open.Kind]; k != nil {
		title = k.Title
	}
	by := "your"
	if open.Challenger.ID != ch.Challenger.ID {
		by = EscapeText(open.Challenger.Name, 0) + "'s"
	}
	return Errorf("You and %s already have an open challenge: %s %s challenge (https://discord.com/channels/%s/%s/%s), expiring <t:%d:R>. One open challenge per pair of players: accept, decline or cancel that one first.",
		EscapeText(ch.Opponent.Name, 0), by, title, open.GuildID, open.ChannelID, open.MessageID, open.Expires.Unix())
}

// Rematch opens a challenge, as OpenChallenge does, from t's user to
// opponent to a new game of kind, in the text channel of t's game (a
// finished game's Rematch button is clicked in its thread, where no game
// thread can start), or starts at once the game against the computer.
// prev is the rematch this game opened before ("" for none), as Rematch
// returned it: while that challenge is open, or once that computer game
// has started, the click is answered with it and nothing is opened (a
// double click opens one). The game keeps the returned id (its state,
// saved by the action). The challenge is stored in the action's
// transaction (one open challenge per pair) and posted on an outbox
// stream of its own, its message recorded for its expiry to close it; the
// clicker is answered privately. Accept, Decline, Cancel and the expiry
// work as for any challenge.
func (t *Turn[S]) Rematch(prev, kind string, opponent *User, options map[string]string, describe []string) (*Response, string, error) {
	a := t.app
	k := a.kinds[kind]
	if k == nil {
		return nil, "", fmt.Errorf("rematch of unknown kind %q", kind)
	}
	if prev != "" {
		if r, err := t.rematchDone(prev); r != nil || err != nil {
			return r, prev, err
		}
	}
	req := *t.Req
	req.ChannelID = t.Game.ChannelID
	computer := a.isSelf(opponent)
	if seat, ok := t.Game.Computer(opponent.ID); ok && computer {
		// Against the computer again, at the same level: it starts at once.
		req.Options = map[string]Option{"level": {String: seat.Level}}
	} else if t.Game.Unrated && options["casual"] == "" {
		// A rematch of a casual game is casual.
		options = maps.Clone(options)
		if options == nil {
			options = map[string]string{}
		}
		options["casual"] = "true"
	}
	self, err := a.checkChallenge(&req, k, opponent)
	if err != nil {
		return nil, "", err
	}
	if self {
		id := newID()
		// The action's transaction, which keeps id in the game, marks the
		// interaction applied: the new game's must not.
		req.InteractionID = ""
		resp, err := a.computerChallenge(&req, k, opponent, options, id)
		if err != nil {
			return nil, "", err
		}
		// The new game's announcement names the computer and links its thread.
		if len(resp.Message.Cards) > 0 {
			return Private("Rematch started: %s", resp.Message.Cards[0].Description), id, nil
		}
		return Private("Rematch started against the computer: see <#%s>.", t.Game.ChannelID), id, nil
	}
	ch := a.newChallenge(&req, k, opponent, options)
	t.Also(func(tx storage.Tx) error {
		if err := openBetween(tx, a, ch, req.Now); err != nil {
			return err
		}
		if err := a.countStart(tx, &req); err != nil {
			return err
		}
		return tx.Challenges().Put(ch.ID, ch.Expires, ch)
	})
	m := a.challengeMessage(k, ch, describe, req.Now)
	t.apart = append(t.apart, apart{stream: "rematch-" + ch.ID,
		effect: Effect{Op: OpPost, Channel: t.Game.ChannelID, Body: &m, Result: resultChallenge + ch.ID}})
	return Private("Rematch offered: %s can accept it in <#%s>.", opponent.Mention(), t.Game.ChannelID), ch.ID, nil
}

// rematchDone answers a Rematch click when the rematch prev is still
// open (a challenge) or has started (a game against the computer), nil
// when a new one may be opened.
func (t *Turn[S]) rematchDone(prev string) (*Response, error) {
	var (
		ch      Challenge
		open    bool
		started *storage.Game
	)
	err := t.View(func(tx storage.Tx) error {
		err := getChallenge(tx, prev, &ch)
		open = err == nil && t.Now.Before(ch.Expires)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		if started, err = tx.Games().Get(prev); errors.Is(err, storage.ErrNotFound) {
			started, err = nil, nil
		}
		return err
	})
	switch {
	case err != nil:
		return nil, err
	case open:
		where := fmt.Sprintf("<#%s>", ch.ChannelID)
		if link := MessageLink(ch.GuildID, ch.ChannelID, ch.MessageID); link != "" {
			where = link
		}
		return Private("A rematch is already offered: %s challenged %s in %s, expiring <t:%d:R>. %s can accept or decline it there.",
			ch.Challenger.Mention(), ch.Opponent.Mention(), where, ch.Expires.Unix(), ch.Opponent.Mention()), nil
	case started != nil && started.ThreadID != "":
		return Private("The rematch has already started, in <#%s>.", started.ThreadID), nil
	}
	return nil, nil
}

// resultChallenge, followed by a challenge's ID, as a post's Result
// records the posted message's ID in that challenge, for its expiry to
// close the message (see Turn.Rematch).
const resultChallenge = "challenge:"

// setChallengeMessage records messageID as the message of the challenge
// id, in tx; a challenge gone meanwhile is left alone.
func setChallengeMessage(tx storage.Tx, id, messageID string) error {
	var ch Challenge
	exp, err := tx.Challenges().Get(id, &ch)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	ch.MessageID = messageID
	return tx.Challenges().Put(id, exp, &ch)
}
