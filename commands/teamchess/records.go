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

// guildStats reads the ranking of a guild's records (rule 6.1): every
// record is read and ranked (tc.Rank), then the ratings of the first top
// players and userID's ("": none) only (ratingBeside). The records are
// not indexed as the ratings are (storage.Ratings.Standings): the order
// of a record changes with most games, and keeping an index of it would
// cost every game's end two more etcd writes per player, which a 7 v 7
// game's end could not afford under etcd's 128 operations per transaction.
func guildStats(a *commands.App, guildID string, top int, userID string) (*standings, error) {
	out := &standings{ratings: map[string]storage.PlayerRating{}}
	err := a.View(func(tx storage.Tx) error {
		var all []tc.PlayerStats
		if err := tx.Records().Each(Kind, guildID, func(_ string, raw []byte) error {
			var ps tc.PlayerStats
			if err := json.Unmarshal(raw, &ps); err != nil {
				return err
			}
			all = append(all, ps)
			return nil
		}); err != nil {
			return err
		}
		out.total = len(all)
		rate := func(id string) error {
			pr, err := tx.Ratings().Get(Kind, guildID, id)
			switch {
			case err == nil:
				out.ratings[id] = *pr
			case !errors.Is(err, storage.ErrNotFound):
				return err
			}
			return nil
		}
		for i, ps := range tc.Rank(all) {
			if i < top {
				out.top = append(out.top, ranked{rank: i + 1, ps: ps})
				if err := rate(ps.ID); err != nil {
					return err
				}
			}
			if userID != "" && ps.ID == userID {
				out.user = &ranked{rank: i + 1, ps: ps}
				if err := rate(ps.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
	return out, err
}

// standings are guildStats' answer.
type standings struct {
	total int
	top   []ranked
	user  *ranked
	// ratings are the Team Chess ratings of the players above, by user.
	ratings map[string]storage.PlayerRating
}

// ranked is one record at its rank.
type ranked struct {
	rank int
	ps   tc.PlayerStats
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
	st, err := guildStats(a, req.GuildID, leaderboardSize, req.User.ID)
	if err != nil {
		return nil, err
	}
	if st.total == 0 {
		return commands.Reply("No Team Chess game has been finished in this server yet. Open one with `/teamchess new`."), nil
	}
	var lines []string
	for _, r := range st.top {
		ps := r.ps
		lines = append(lines, fmt.Sprintf("**%d.** <@%s> · team %d-%d · personal %d-%d (ratio %s) · %s%s",
			r.rank, ps.ID, ps.TeamWins, ps.TeamLosses, ps.PersonalWins, ps.PersonalLosses, ratioText(ps), commands.Plural(ps.Games, "game", "games"),
			ratingBeside(st.ratings, ps.ID, req.Now)))
	}
	resp := &response{Message: commands.Message{Cards: []*ui.Card{{
		Title:       "Team Chess leaderboard",
		Description: strings.Join(lines, "\n"),
		Color:       commands.ColorChallenge,
		Footer:      "Ranked by team wins, then personal win/loss ratio (no losses: the number of wins), then fewer personal losses (rule 6.1). Ratings (Glicko-2, ? provisional) are shown beside, not ranked by (ruling D28).",
	}}}}
	// The list is public; the invoker's own rank is for them alone (ruling
	// D11), and a player with no record gets nothing private.
	if st.user != nil {
		ps := st.user.ps
		resp.PrivateNote = &commands.Message{Content: fmt.Sprintf("Your rank: %d of %d · team %d-%d · personal %d-%d (ratio %s) · %s%s.",
			st.user.rank, st.total, ps.TeamWins, ps.TeamLosses, ps.PersonalWins, ps.PersonalLosses, ratioText(ps), commands.Plural(ps.Games, "game", "games"),
			ratingBeside(st.ratings, ps.ID, req.Now))}
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
	st, err := guildStats(a, req.GuildID, 0, who.ID)
	if err != nil {
		return nil, err
	}
	if st.user != nil {
		ps := st.user.ps
		fields := []*ui.Field{
			{Name: "Rank", Value: fmt.Sprintf("%d of %d", st.user.rank, st.total), Inline: true},
			{Name: "Games", Value: fmt.Sprint(ps.Games), Inline: true},
			{Name: "Team wins / losses", Value: fmt.Sprintf("%d / %d", ps.TeamWins, ps.TeamLosses), Inline: true},
			{Name: "Personal wins / losses", Value: fmt.Sprintf("%d / %d", ps.PersonalWins, ps.PersonalLosses), Inline: true},
			{Name: "Personal win/loss ratio", Value: ratioText(ps), Inline: true},
		}
		if rated, ok := st.ratings[who.ID]; ok {
			fields = append(fields, &ui.Field{Name: "Rating", Value: fmt.Sprintf("%s (%s rated)", commands.RatingText(rated, req.Now),
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
