package commands

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/internal/glicko2"
	"sandtable/storage"
)

// Ratings (issue 17): every game's players carry a Glicko-2 rating per
// server and game kind (storage.Ratings, internal/glicko2), updated by the
// framework in the transaction that ends a game (kindOf.runOnce), so a
// game is rated once or not at all whatever crashes or retries happen. A
// game is rated when it ended with an outcome other than aborted, in a
// server, and is not Unrated (a casual challenge or lobby, a computer
// seat).

// RatingSide is one side of a finished game as its ratings see it: the
// players of the side and, for each, the moves they played (Moves nil:
// each player took a whole part; see RatingSides).
type RatingSide struct {
	Players []string
	Moves   []int
}

// CasualOption is the boolean option "casual" of a challenge command (and
// of a lobby's), which OpenChallenge reads: a casual game changes no
// rating. Challenges are rated by default.
func CasualOption() *ui.CommandOption {
	return &ui.CommandOption{Type: ui.Boolean, Name: "casual", Description: "A casual game: no rating changes (default: rated)"}
}

// Casual reports whether req asks for a casual (unrated) game through its
// "casual" option.
func (r *Request) Casual() bool {
	o, ok := r.Options["casual"]
	return ok && (o.Bool || o.String == "true")
}

// RatingChange is one player's rating before and after a rated game.
type RatingChange struct {
	User          string
	Before, After storage.PlayerRating
}

// toGlicko and fromGlicko convert between the stored rating and the
// algorithm's.
func toGlicko(p *storage.PlayerRating) glicko2.Rating {
	if p == nil || p.Deviation == 0 {
		return glicko2.New()
	}
	return glicko2.Rating{Rating: p.Rating, Deviation: p.Deviation, Volatility: p.Volatility, Last: p.Last}
}

// newRating is the stored rating of a player never rated.
func newRating() storage.PlayerRating {
	g := glicko2.New()
	return storage.PlayerRating{Rating: g.Rating, Deviation: g.Deviation, Volatility: g.Volatility}
}

// Rated reports whether the finished game rec changes ratings.
func Rated(rec *storage.Game) bool {
	return rec.Outcome != nil && rec.Outcome.Method != storage.Aborted && !rec.Unrated && rec.GuildID != ""
}

// sideWeights are the parts of a side's players in the game: own is each
// player's weight as the one rated (the side's most active player 1, the
// others in proportion to their moves; a player with no move 0), faced
// each player's weight as an opponent (their share of the side's moves).
// A side with no move at all counts every player equally.
func sideWeights(s RatingSide) (own, faced []float64) {
	own, faced = make([]float64, len(s.Players)), make([]float64, len(s.Players))
	total, most := 0, 0
	for i := range s.Players {
		if i < len(s.Moves) {
			total += s.Moves[i]
			most = max(most, s.Moves[i])
		}
	}
	for i := range s.Players {
		if s.Moves == nil || total == 0 {
			own[i], faced[i] = 1, 1/float64(len(s.Players))
			continue
		}
		m := 0
		if i < len(s.Moves) {
			m = s.Moves[i]
		}
		own[i], faced[i] = float64(m)/float64(most), float64(m)/float64(total)
	}
	return own, faced
}

// rateGame applies the finished game rec to its players' ratings and
// records in tx, the transaction that ends it, and returns the changes
// (none when the game is not rated). sides are the game's sides; a side
// scores 1 against another when it holds a winner and the other none, 0
// the other way round, and ½ otherwise: a draw, or a loss for everybody
// (Team Chess's mutual loss, docs/rules/teamchess.md). Every update is
// computed from the ratings before the game. A player whose rating already
// names rec as its last game is left alone (rated once).
func rateGame(tx storage.Tx, rec *storage.Game, sides []RatingSide, now time.Time) ([]RatingChange, error) {
	if !Rated(rec) || len(sides) < 2 {
		return nil, nil
	}
	winners := map[string]bool{}
	for _, w := range rec.Outcome.Winners {
		winners[w] = true
	}
	before := map[string]*storage.PlayerRating{}
	for _, s := range sides {
		for _, u := range s.Players {
			pr, err := tx.Ratings().Get(rec.Kind, rec.GuildID, u)
			if errors.Is(err, storage.ErrNotFound) {
				nr := newRating()
				pr = &nr
			} else if err != nil {
				return nil, err
			}
			before[u] = pr
		}
	}
	won := make([]bool, len(sides))
	anyWon := false
	for i, s := range sides {
		for _, u := range s.Players {
			if winners[u] {
				won[i], anyWon = true, true
			}
		}
	}
	var changes []RatingChange
	for i, s := range sides {
		own, _ := sideWeights(s)
		for pi, u := range s.Players {
			if own[pi] == 0 || before[u].LastGame == rec.ID {
				continue
			}
			var results []glicko2.Result
			for j, o := range sides {
				if j == i {
					continue
				}
				score := 0.5
				switch {
				case won[i] && !won[j]:
					score = 1
				case won[j] && !won[i]:
					score = 0
				}
				_, faced := sideWeights(o)
				for oi, ou := range o.Players {
					if faced[oi] > 0 {
						results = append(results, glicko2.Result{Opponent: toGlicko(before[ou]), Score: score, Weight: own[pi] * faced[oi]})
					}
				}
			}
			if len(results) == 0 {
				continue
			}
			g := glicko2.Update(toGlicko(before[u]), results, now)
			after := *before[u]
			after.Rating, after.Deviation, after.Volatility, after.Last = g.Rating, g.Deviation, g.Volatility, g.Last
			after.Games++
			after.LastGame = rec.ID
			switch {
			case won[i]:
				after.Wins++
				after.Streak = max(after.Streak, 0) + 1
				after.BestStreak = max(after.BestStreak, after.Streak)
			case anyWon:
				after.Losses++
				after.Streak = min(after.Streak, 0) - 1
			default:
				after.Draws++
				after.Streak = 0
			}
			if err := tx.Ratings().Put(rec.Kind, rec.GuildID, u, &after); err != nil {
				return nil, err
			}
			changes = append(changes, RatingChange{User: u, Before: *before[u], After: after})
		}
	}
	return changes, nil
}

// RatingText is a rating as players read it: rounded, with "?" when
// provisional (its deviation, grown by the time since its last game, above
// glicko2.ProvisionalDeviation).
func RatingText(p storage.PlayerRating, now time.Time) string {
	g := glicko2.Decay(toGlicko(&p), now)
	s := fmt.Sprintf("%d", int(math.Round(g.Rating)))
	if g.Provisional() {
		s += "?"
	}
	return s
}

// ratingChangesLine is the line a rated game's final message gains:
// "Ratings: @alice 1500? → 1662? (+162) · @bob 1500? → 1338? (−162)".
func ratingChangesLine(changes []RatingChange, now time.Time) string {
	if len(changes) == 0 {
		return ""
	}
	parts := make([]string, 0, len(changes))
	for _, c := range changes {
		d := int(math.Round(c.After.Rating)) - int(math.Round(c.Before.Rating))
		sign := "+"
		if d < 0 {
			sign, d = "−", -d
		}
		parts = append(parts, fmt.Sprintf("<@%s> %s → %s (%s%d)", c.User, RatingText(c.Before, now), RatingText(c.After, now), sign, d))
	}
	return "Ratings: " + strings.Join(parts, " · ")
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

// rankedRatings lists a guild's ratings of a kind, best first (rating,
// then fewer games' uncertainty: lower deviation, then user ID).
func rankedRatings(tx storage.Tx, kind, guildID string) ([]rankedRating, error) {
	var all []rankedRating
	err := tx.Ratings().Each(kind, guildID, func(u string, r *storage.PlayerRating) error {
		all = append(all, rankedRating{User: u, PlayerRating: *r})
		return nil
	})
	sort.SliceStable(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Rating != b.Rating {
			return a.Rating > b.Rating
		}
		if a.Deviation != b.Deviation {
			return a.Deviation < b.Deviation
		}
		return a.User < b.User
	})
	return all, err
}

type rankedRating struct {
	User string
	storage.PlayerRating
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
	pr := newRating()
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

// RatedLabel is "rated", "casual" or "unrated" (a game with a computer
// seat) for the game rec, as the game header
// shows it.
func RatedLabel(rec *storage.Game) string {
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
		pr := newRating()
		r, err := t.tx.Ratings().Get(t.Game.Kind, t.Game.GuildID, userID)
		switch {
		case err == nil:
			pr = *r
		case !errors.Is(err, storage.ErrNotFound):
			return ""
		}
		return RatingText(pr, t.Now)
	}
	return t.app.RatingOf(t.Game.Kind, t.Game.GuildID, userID, t.Now)
}

// WithRating is "<@id> (1500?)": a player's mention with their rating in
// t's game (just the mention outside a server).
func (t *Turn[S]) WithRating(u User) string {
	if r := t.RatingOf(u.ID); r != "" {
		return u.Mention() + " (" + r + ")"
	}
	return u.Mention()
}

// RatedLabel is "rated" or "casual" for t's game (see RatedLabel).
func (t *Turn[S]) RatedLabel() string {
	if t.Game == nil {
		return ""
	}
	return RatedLabel(t.Game)
}
