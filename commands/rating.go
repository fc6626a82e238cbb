package commands

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sandtable/commands/rating"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// CasualOption is the boolean option "casual" of a challenge command (and
// of a lobby's), which OpenChallenge reads: a casual game changes no
// rating. Challenges are rated by default.
func CasualOption() *ui.CommandOption {
	return &ui.CommandOption{Type: ui.Boolean, Name: "casual", Description: "A casual game: no rating changes (default: rated)"}
}

// Casual reports whether req asks for a casual (unrated) game through its
// "casual" option, or, without it, whether the server's games are casual by
// default (its settings, read before a challenge or a lobby opens).
func (r *Request) Casual() bool {
	o, ok := r.Options["casual"]
	if !ok {
		return r.casualDefault
	}
	return o.Bool || o.String == "true"
}

// withRatingLine returns effects (a copy) and resp's message with line
// added to the game's final message: the effect marked Final, else the
// answer when it is the final message (final), else a post of its own in
// the game's thread. orig is resp's message as the action returned it, so
// that a transaction run again starts from it.
func withRatingLine(effects []Effect, resp *Response, orig Message, final bool, line string) []Effect {
	out := append([]Effect(nil), effects...)
	if resp != nil {
		resp.Message = orig
	}
	if line == "" {
		return out
	}
	add := func(m Message) Message {
		if m.Content == "" {
			m.Content = line
		} else {
			m.Content = Clip(m.Content+"\n"+line, 2000)
		}
		return m
	}
	for i := range out {
		if out[i].Final && out[i].Body != nil {
			b := add(*out[i].Body)
			out[i].Body = &b
			return out
		}
	}
	if final && resp != nil {
		resp.Message = add(orig)
		return out
	}
	return append(out, Effect{Op: OpPost, Channel: ChannelOfGame, Body: &Message{Content: line}})
}

// ratedLine says whether a game about to start is rated, with each
// player's rating in the guild: "Rated · @alice 1500? · @bob 1623".
func (a *App) ratedLine(kind, guildID string, casual bool, now time.Time, users ...string) string {
	head := "**Rated** game"
	if casual {
		head = "**Casual** game (no rating changes)"
	}
	parts := []string{head}
	if guildID != "" {
		for _, u := range users {
			parts = append(parts, fmt.Sprintf("<@%s> %s", u, a.RatingOf(kind, guildID, u, now)))
		}
	}
	return strings.Join(parts, " · ")
}

// RatingOf is userID's rating in kind in the guild as RatingText shows
// it ("1500?" for a player never rated); "" when it cannot be read.
func (a *App) RatingOf(kind, guildID, userID string, now time.Time) string {
	pr := rating.NewRating()
	if guildID == "" {
		return RatingText(pr, now)
	}
	if err := a.view(func(tx storage.Tx) error {
		r, err := tx.Ratings().Get(kind, guildID, userID)
		if err == nil {
			pr = *r
		} else if errors.Is(err, storage.ErrNotFound) {
			err = nil
		}
		return err
	}); err != nil {
		a.Log.Warn("reading a rating failed", "kind", kind, "user", userID, "err", err)
		return ""
	}
	return RatingText(pr, now)
}

// RatedLabel is "rated", "casual", "unrated" (a game with a computer
// seat) or "aborted · unrated" for the game rec, as the game header shows
// it.
func RatedLabel(rec *storage.Game) string {
	if rec.Outcome != nil && rec.Outcome.Method == storage.Aborted {
		return abortedLabel
	}
	if len(rec.Computers) > 0 {
		return "unrated"
	}
	if rec.Unrated {
		return "casual"
	}
	return "rated"
}

// RatingOf is userID's rating in t's game kind and server, as shown beside
// their name in the game's header ("1500?"); "" outside a server.
func (t *Turn[S]) RatingOf(userID string) string {
	if t.Game == nil || t.Game.GuildID == "" || t.app == nil {
		return ""
	}
	if len(t.Game.Computers) > 0 {
		return "" // a game with a computer seat is unrated: no rating beside anyone
	}
	if t.tx != nil {
		// Inside the transaction (Spec.Delivered): a View here would wait
		// for it on some stores.
		pr := rating.NewRating()
		r, err := t.tx.Ratings().Get(t.Game.Kind, t.Game.GuildID, userID)
		switch {
		case err == nil:
			pr = *r
		case !errors.Is(err, storage.ErrNotFound):
			return ""
		}
		return RatingText(pr, t.Now)
	}
	if r, ok := t.ratings[userID]; ok {
		return r
	}
	if p := t.Req.preRead(t.Game); p != nil {
		if r, ok := p.ratings[userID]; ok {
			pr := rating.NewRating()
			if r != nil {
				pr = *r
			}
			return RatingText(pr, t.Now)
		}
	}
	t.ratings = t.app.ratingsOf(t.Game.Kind, t.Game.GuildID, t.Now, append(slices.Clone(t.Game.Players), userID)...)
	return t.ratings[userID]
}

// preRead are the ratings read with r's game g (nil: none).
func (r *Request) preRead(g *storage.Game) *preRead {
	if r == nil || r.ratings == nil || r.ratings.kind != g.Kind || r.ratings.guild != g.GuildID {
		return nil
	}
	return r.ratings
}

// ratingsOf is RatingOf of each of users, read together; a rating that
// cannot be read is "" (and logged).
func (a *App) ratingsOf(kind, guildID string, now time.Time, users ...string) map[string]string {
	out := map[string]string{}
	err := a.view(func(tx storage.Tx) error {
		hs := make([]storage.Hint, len(users))
		for i, u := range users {
			hs[i] = storage.HintRating(kind, guildID, u)
		}
		tx.Prefetch(hs...)
		for _, u := range users {
			pr := rating.NewRating()
			r, err := tx.Ratings().Get(kind, guildID, u)
			if err == nil {
				pr = *r
			} else if !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			out[u] = RatingText(pr, now)
		}
		return nil
	})
	if err != nil {
		a.Log.Warn("reading ratings failed", "kind", kind, "users", users, "err", err)
		return map[string]string{}
	}
	return out
}

// WithRating is "<@id> (1500?)": a player's mention with their rating in
// t's game (just the mention outside a server).
func (t *Turn[S]) WithRating(u User) string {
	if r := t.RatingOf(u.ID); r != "" {
		return u.Mention() + " (" + r + ")"
	}
	return u.Mention()
}

// abortedLabel is the label of an aborted game: unrated, whatever it was
// to be.
const abortedLabel = "aborted · unrated"

// RatedLabel is "rated", "casual" or "unrated" for t's game, or "aborted ·
// unrated" once s, its state, is aborted (see RatedLabel).
func (t *Turn[S]) RatedLabel(s S) string {
	if t.Game == nil {
		return ""
	}
	if t.kind != nil {
		if o, over := t.kind.outcome(s); over && o.Method == storage.Aborted {
			return abortedLabel
		}
	}
	return RatedLabel(t.Game)
}

// RatingSide is one side of a finished game as its ratings see it (see
// rating.Side; Spec.RatingSides).
type RatingSide = rating.Side

// RatingChange is one player's rating before and after a rated game.
type RatingChange = rating.Change

// Rated reports whether the finished game rec changes ratings.
func Rated(rec *storage.Game) bool { return rating.Rated(rec) }

// RatingText is a rating as players read it (see rating.Text).
func RatingText(p storage.PlayerRating, now time.Time) string { return rating.Text(p, now) }
