package teamchess

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/ui"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// Per-guild Team Chess records (issue 6 point 4): one
// tc.PlayerStats per player and guild in the store's records of kind
// "teamchess", updated in the transaction that ends a game (t.Also).

// leaderboardSize is how many players /teamchess leaderboard lists.
const leaderboardSize = 15

// tally adds a finished game's outcome to its players' records.
func tally(tx storage.Tx, guildID string, sum tc.Summary) error {
	for _, r := range sum.Players {
		var ps tc.PlayerStats
		if err := tx.Records().Get(Kind, guildID, r.Member.ID, &ps); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		ps.ID = r.Member.ID
		ps.Add(r, sum.Result.Category)
		if err := tx.Records().Put(Kind, guildID, r.Member.ID, &ps); err != nil {
			return err
		}
	}
	return nil
}

// guildStats reads every record of a guild, ranked (rule 6.1).
func guildStats(a *commands.App, guildID string) ([]tc.PlayerStats, error) {
	var all []tc.PlayerStats
	err := a.View(func(tx storage.Tx) error {
		return tx.Records().Each(Kind, guildID, func(_ string, raw []byte) error {
			var ps tc.PlayerStats
			if err := json.Unmarshal(raw, &ps); err != nil {
				return err
			}
			all = append(all, ps)
			return nil
		})
	})
	return tc.Rank(all), err
}

// ratingSides are a finished game's teams for the ratings (ruling D28):
// each member with the moves they played as commander.
func ratingSides(s *State) []commands.RatingSide {
	moves := map[string]int{}
	for _, act := range s.game.State().Actions {
		if act.Kind == tc.ActMove && act.By != "" {
			moves[act.By]++
		}
	}
	out := make([]commands.RatingSide, 0, len(sides))
	for _, side := range sides {
		var rs commands.RatingSide
		for _, m := range s.game.Members(side) {
			rs.Players = append(rs.Players, m.ID)
			rs.Moves = append(rs.Moves, moves[m.ID])
		}
		out = append(out, rs)
	}
	return out
}

// guildRatings reads the Team Chess ratings of a guild, by user.
func guildRatings(a *commands.App, guildID string) (map[string]storage.PlayerRating, error) {
	out := map[string]storage.PlayerRating{}
	err := a.View(func(tx storage.Tx) error {
		return tx.Ratings().Each(Kind, guildID, func(u string, r *storage.PlayerRating) error {
			out[u] = *r
			return nil
		})
	})
	return out, err
}

// ratingBeside is " · rating 1540?" for a player rated in Team Chess, ""
// for one never rated.
func ratingBeside(ratings map[string]storage.PlayerRating, id string, now time.Time) string {
	r, ok := ratings[id]
	if !ok {
		return ""
	}
	return " · rating " + commands.RatingText(r, now)
}

func ratioText(ps tc.PlayerStats) string {
	if ps.PersonalLosses == 0 {
		return fmt.Sprintf("%d, no losses", ps.PersonalWins)
	}
	return fmt.Sprintf("%.2f", ps.Ratio())
}

func leaderboard(a *commands.App, req *commands.Request) (*response, error) {
	if req.GuildID == "" {
		return nil, commands.Errorf("The leaderboard is per server: use this command in a server.")
	}
	ranked, err := guildStats(a, req.GuildID)
	if err != nil {
		return nil, err
	}
	ratings, err := guildRatings(a, req.GuildID)
	if err != nil {
		return nil, err
	}
	if len(ranked) == 0 {
		return commands.Reply("No Team Chess game has been finished in this server yet. Open one with `/teamchess new`."), nil
	}
	var lines []string
	mine := -1
	for i, ps := range ranked {
		if ps.ID == req.User.ID {
			mine = i
		}
		if i < leaderboardSize {
			lines = append(lines, fmt.Sprintf("**%d.** <@%s> · team %d-%d · personal %d-%d (ratio %s) · %s%s",
				i+1, ps.ID, ps.TeamWins, ps.TeamLosses, ps.PersonalWins, ps.PersonalLosses, ratioText(ps), commands.Plural(ps.Games, "game", "games"),
				ratingBeside(ratings, ps.ID, req.Now)))
		}
	}
	resp := &response{Message: commands.Message{Cards: []*ui.Card{{
		Title:       "Team Chess leaderboard",
		Description: strings.Join(lines, "\n"),
		Color:       commands.ColorChallenge,
		Footer:      "Ranked by team wins, then personal win/loss ratio (no losses: the number of wins), then fewer personal losses (rule 6.1). Ratings (Glicko-2, ? provisional) are shown beside, not ranked by (ruling D28).",
	}}}}
	// The list is public; the invoker's own rank is for them alone (ruling
	// D11), and a player with no record gets nothing private.
	if mine >= 0 {
		ps := ranked[mine]
		resp.PrivateNote = &commands.Message{Content: fmt.Sprintf("Your rank: %d of %d · team %d-%d · personal %d-%d (ratio %s) · %s%s.",
			mine+1, len(ranked), ps.TeamWins, ps.TeamLosses, ps.PersonalWins, ps.PersonalLosses, ratioText(ps), commands.Plural(ps.Games, "game", "games"),
			ratingBeside(ratings, ps.ID, req.Now))}
	}
	return resp, nil
}

func stats(a *commands.App, req *commands.Request) (*response, error) {
	if req.GuildID == "" {
		return nil, commands.Errorf("Records are per server: use this command in a server.")
	}
	who := req.User
	if u := req.UserOpt("user"); u != nil {
		who = *u
	}
	ranked, err := guildStats(a, req.GuildID)
	if err != nil {
		return nil, err
	}
	for i, ps := range ranked {
		if ps.ID != who.ID {
			continue
		}
		fields := []*ui.Field{
			{Name: "Rank", Value: fmt.Sprintf("%d of %d", i+1, len(ranked)), Inline: true},
			{Name: "Games", Value: fmt.Sprint(ps.Games), Inline: true},
			{Name: "Team wins / losses", Value: fmt.Sprintf("%d / %d", ps.TeamWins, ps.TeamLosses), Inline: true},
			{Name: "Personal wins / losses", Value: fmt.Sprintf("%d / %d", ps.PersonalWins, ps.PersonalLosses), Inline: true},
			{Name: "Personal win/loss ratio", Value: ratioText(ps), Inline: true},
		}
		var rated *storage.PlayerRating
		if err := a.View(func(tx storage.Tx) error {
			r, err := tx.Ratings().Get(Kind, req.GuildID, ps.ID)
			rated = r
			if errors.Is(err, storage.ErrNotFound) {
				err = nil
			}
			return err
		}); err != nil {
			return nil, err
		}
		if rated != nil {
			fields = append(fields, &ui.Field{Name: "Rating", Value: fmt.Sprintf("%s (%s rated)", commands.RatingText(*rated, req.Now),
				commands.Plural(rated.Games, "game", "games")), Inline: true})
		}
		if s := categoryCounts(ps.WinsBy); s != "" {
			fields = append(fields, &ui.Field{Name: "Team wins by category", Value: s})
		}
		if s := categoryCounts(ps.LossesBy); s != "" {
			fields = append(fields, &ui.Field{Name: "Team losses by category", Value: s})
		}
		return &response{Message: commands.Message{Cards: []*ui.Card{{
			Title:       "Team Chess record · " + commands.EscapeText(ps.Name, 0),
			Description: fmt.Sprintf("<@%s> in this server.", ps.ID),
			Color:       commands.ColorChallenge,
			Fields:      fields,
		}}}}, nil
	}
	if who.ID == req.User.ID {
		return commands.Reply("You have not finished a Team Chess game in this server yet."), nil
	}
	return commands.Reply("%s has not finished a Team Chess game in this server yet.", commands.EscapeText(who.Name, 0)), nil
}

// categoryCounts lists the counts by win category in rule order:
// "honourable checkmate 2 · Siege Win (dishonourable) 1".
func categoryCounts(m map[string]int) string {
	var parts []string
	for _, c := range tc.Categories {
		if n := m[c.Key()]; n > 0 {
			name := c.String()
			if c.Dishonourable() && c != tc.DishonourableCheckmate {
				name += " (dishonourable)"
			}
			parts = append(parts, fmt.Sprintf("%s: %d", name, n))
		}
	}
	return strings.Join(parts, "\n")
}
