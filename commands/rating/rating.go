package rating

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"sandtable/internal/glicko2"
	"sandtable/storage"
)

// Side is one side of a finished game as its ratings see it: the
// players of the side and, for each, the moves they played, which give
// each player's share of the side's change (Moves nil: equal shares, a
// side of one player its whole; see commands.Spec.RatingSides).
type Side struct {
	Players []string
	Moves   []int
}

// Change is one player's rating before and after a rated game.
type Change struct {
	User          string
	Before, After storage.PlayerRating
}

// Glicko converts the stored rating into the
// algorithm's.
func Glicko(p *storage.PlayerRating) glicko2.Rating { return p.Glicko() }

// NewRating is the stored rating of a player never rated.
func NewRating() storage.PlayerRating {
	g := glicko2.New()
	return storage.PlayerRating{Rating: g.Rating, Deviation: g.Deviation, Volatility: g.Volatility}
}

// Rated reports whether the finished game rec changes ratings.
func Rated(rec *storage.Game) bool {
	return rec.Outcome != nil && rec.Outcome.Method != storage.Aborted && !rec.Unrated && rec.GuildID != ""
}

// shares are each player's share of the side's moves (Moves nil, or a
// side that made no move at all: equal shares).
func shares(s Side) []float64 {
	out := make([]float64, len(s.Players))
	total := 0
	for i := range s.Players {
		if i < len(s.Moves) {
			total += s.Moves[i]
		}
	}
	for i := range s.Players {
		switch {
		case s.Moves == nil || total == 0:
			out[i] = 1 / float64(len(s.Players))
		case i < len(s.Moves):
			out[i] = float64(s.Moves[i]) / float64(total)
		}
	}
	return out
}

// composite is a side as one opponent at now: its players' ratings, each
// grown to now (glicko2.Live), averaged with their shares of the side's
// moves as weights: the mean rating, the root mean square of the
// deviations. A member who never moved does not change it; a side of one
// player is that player.
func composite(s Side, before map[string]*storage.PlayerRating, now time.Time) glicko2.Rating {
	var r, d2, vol float64
	share := shares(s)
	for i, u := range s.Players {
		w := share[i]
		g := glicko2.Live(Glicko(before[u]), now)
		r += w * g.Rating
		d2 += w * g.Deviation * g.Deviation
		vol += w * g.Volatility
	}
	return glicko2.Rating{Rating: r, Deviation: math.Sqrt(d2), Volatility: vol, Last: now}
}

// Rate applies the finished game rec to its players' ratings and
// records in tx, the transaction that ends it, and returns the changes
// (none when the game is not rated). sides are the game's sides; a side
// scores 1 against another when it holds a winner and the other none, 0
// the other way round, and ½ otherwise: a draw, or a loss for everybody
// (Team Chess's mutual loss, docs/rules/teamchess.md). Every update is
// computed from the ratings before the game. A player whose rating already
// names rec as its last game is left alone (rated once).
//
// Each player gets the change a single player of their rating would get
// for their side's results against every other side as one composite
// opponent (composite; glicko2.Update, lichess's bounds), scaled by their
// share of their side's moves (glicko2.Toward); a player with no share is
// not rated. A side of one player is a plain game. Scaling the change, not
// the result, keeps a game's changes balanced: Glicko's change is not
// linear in a result's weight.
func Rate(tx storage.Tx, rec *storage.Game, sides []Side, now time.Time) ([]Change, error) {
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
				nr := NewRating()
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
	var changes []Change
	for i, s := range sides {
		share := shares(s)
		var results []glicko2.Result
		for j, o := range sides {
			if j == i || len(o.Players) == 0 {
				continue
			}
			score := 0.5
			switch {
			case won[i] && !won[j]:
				score = 1
			case won[j] && !won[i]:
				score = 0
			}
			results = append(results, glicko2.Result{Opponent: composite(o, before, now), Score: score})
		}
		if len(results) == 0 {
			continue
		}
		for pi, u := range s.Players {
			if share[pi] == 0 || before[u].LastGame == rec.ID {
				continue
			}
			full := glicko2.Update(Glicko(before[u]), results, now)
			g := glicko2.Toward(glicko2.Live(Glicko(before[u]), now), full, share[pi])
			g.Last = now
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
			changes = append(changes, Change{User: u, Before: *before[u], After: after})
		}
	}
	return changes, nil
}

// Text is a rating as players read it: rounded, with "?" when
// provisional (its deviation, grown by the time since its last game, above
// glicko2.ProvisionalDeviation).
func Text(p storage.PlayerRating, now time.Time) string {
	g := glicko2.Decay(Glicko(&p), now)
	s := fmt.Sprintf("%d", int(math.Round(g.Rating)))
	if g.Provisional() {
		s += "?"
	}
	return s
}

// ChangesLine is the line a rated game's final message gains:
// "Ratings: @alice 1500? → 1662? (+162) · @bob 1500? → 1338? (−162)".
func ChangesLine(changes []Change, now time.Time) string {
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
		parts = append(parts, fmt.Sprintf("<@%s> %s → %s (%s%d)", c.User, Text(c.Before, now), Text(c.After, now), sign, d))
	}
	return "Ratings: " + strings.Join(parts, " · ")
}

// Summary is "1623 ± 52" (with "?" when provisional), the deviation
// grown by the time since the last game.
func Summary(p storage.PlayerRating, now time.Time) string {
	d := glicko2.Decay(Glicko(&p), now)
	return fmt.Sprintf("%s ± %d", Text(p, now), int(math.Round(d.Deviation)))
}

// Record is "6 W · 3 L · 1 D".
func Record(p storage.PlayerRating) string {
	return fmt.Sprintf("%d W · %d L · %d D", p.Wins, p.Losses, p.Draws)
}

// RecordAs is Record for a game whose result without a winner is called
// noWinner (Draws counts those games: Rate scores them as draws):
// "6 W · 3 L · 1 mutual loss", the last part left out at 0; "" is Record.
// Team Chess has no draws, so every Draw of its ratings, those stored
// before this function too, is a mutual loss.
func RecordAs(p storage.PlayerRating, noWinner string) string {
	if noWinner == "" {
		return Record(p)
	}
	s := fmt.Sprintf("%d W · %d L", p.Wins, p.Losses)
	switch {
	case p.Draws == 1:
		s += " · 1 " + noWinner
	case p.Draws > 1:
		s += fmt.Sprintf(" · %d %s", p.Draws, plural(noWinner))
	}
	return s
}

// plural is the plural of a noun phrase: "mutual loss" → "mutual losses".
func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"):
		return s + "es"
	case strings.HasSuffix(s, "y"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}
