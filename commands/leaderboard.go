package commands

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"sandtable/commands/rating"
	"sandtable/commands/ui"
	"sandtable/storage"
)

// /leaderboard and /stats (issue 17 item 2): every game's ratings in this
// server. A server's ratings are read by its guild ID only, so one
// server's list never shows another's players.

// leaderboardSize is how many players /leaderboard lists.
const leaderboardSize = 15

// recentGames is how many finished games /stats lists.
const recentGames = 5

// ratingDefinitions are /leaderboard and /stats, their game option
// choosing among the registered games.
func (a *App) ratingDefinitions() []*ui.Command {
	var choices []*ui.Choice
	for _, n := range a.kindNames() {
		choices = append(choices, &ui.Choice{Name: a.kinds[n].Title, Value: n})
	}
	return []*ui.Command{
		{
			Name: "leaderboard", Description: "This server's best rated players of a game", DMPermission: &dmPermission,
			Options: []*ui.CommandOption{{Type: ui.String, Name: "game", Description: "Which game", Required: true, Choices: choices}},
		},
		{
			Name: "stats", Description: "A player's ratings, record, streaks and recent games in this server", DMPermission: &dmPermission,
			Options: []*ui.CommandOption{
				{Type: ui.User, Name: "user", Description: "Whose stats (default: yours)"},
				{Type: ui.String, Name: "game", Description: "One game only (default: every game)", Choices: choices},
			},
		},
	}
}

// kindNames lists the registered kinds in name order.
func (a *App) kindNames() []string {
	names := make([]string, 0, len(a.kinds))
	for n := range a.kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// gameOption reads the game option: "" when absent, else a registered
// kind or a UserError.
func (a *App) gameOption(req *Request) (string, error) {
	g := strings.ToLower(req.Str("game"))
	if g == "" {
		return "", nil
	}
	if _, ok := a.kinds[g]; !ok {
		var titles []string
		for _, n := range a.kindNames() {
			titles = append(titles, n)
		}
		return "", Errorf("There is no game %s: choose one of %s.", QuoteInput(g), strings.Join(titles, ", "))
	}
	return g, nil
}

// leaderboard answers /leaderboard game:<g>: the public top list of this
// server, and the invoker's own line privately (PrivateNote).
func (a *App) leaderboard(req *Request) (*Response, error) {
	if req.GuildID == "" {
		return nil, Errorf("Ratings are per server: use /leaderboard in a server.")
	}
	kind, err := a.gameOption(req)
	if err != nil {
		return nil, err
	}
	if kind == "" {
		return nil, Errorf("Choose a game in the game option.")
	}
	k := a.kinds[kind]
	if k.leaderboard != nil {
		return k.leaderboard(a, req)
	}
	var st *storage.Standings
	if err := a.view(func(tx storage.Tx) error {
		var err error
		st, err = tx.Ratings().Standings(kind, req.GuildID, req.Now, leaderboardSize, req.User.ID)
		return err
	}); err != nil {
		return nil, err
	}
	if st.Total == 0 {
		return Reply("No rated game of %s has been finished in this server yet.", k.Title), nil
	}
	var lines []string
	for _, r := range st.Top {
		lines = append(lines, fmt.Sprintf("**%d.** <@%s> **%s** · %s · %s", r.Rank, r.User, rating.Summary(r.Rating, req.Now),
			Plural(r.Rating.Games, "game", "games"), rating.RecordAs(r.Rating, k.noWinner)))
	}
	resp := &Response{Message: Message{Cards: []*ui.Card{{
		Title:       k.Title + " leaderboard",
		Description: strings.Join(lines, "\n"),
		Color:       ColorChallenge,
		Footer:      "Glicko-2 ratings of this server's rated games. ? marks a provisional rating (deviation above 110), listed after the established ones.",
	}}}}
	if r := st.User; r != nil {
		resp.PrivateNote = &Message{Content: fmt.Sprintf("Your rank in %s: %d of %d · %s · %s · %s.", k.Title, r.Rank, st.Total,
			rating.Summary(r.Rating, req.Now), Plural(r.Rating.Games, "rated game", "rated games"), rating.RecordAs(r.Rating, k.noWinner))}
	} else {
		resp.PrivateNote = &Message{Content: fmt.Sprintf("You have no rated %s game in this server yet: you start at 1500?.", k.Title)}
	}
	return resp, nil
}

// streakText is "3 wins", "2 losses" or "none".
func streakText(n int) string {
	switch {
	case n > 0:
		return Plural(n, "win", "wins")
	case n < 0:
		return Plural(-n, "loss", "losses")
	}
	return "none"
}

// stats answers /stats [user] [game].
func (a *App) stats(req *Request) (*Response, error) {
	if req.GuildID == "" {
		return nil, Errorf("Ratings are per server: use /stats in a server.")
	}
	kind, err := a.gameOption(req)
	if err != nil {
		return nil, err
	}
	who := req.User
	if u := req.UserOpt("user"); u != nil {
		who = *u
	}
	kinds := a.kindNames()
	if kind != "" {
		kinds = []string{kind}
	}
	var fields []*ui.Field
	var finished []*storage.Game
	if err := a.view(func(tx storage.Tx) error {
		for _, kn := range kinds {
			st, err := tx.Ratings().Standings(kn, req.GuildID, req.Now, 0, who.ID)
			if err != nil {
				return err
			}
			if r := st.User; r != nil {
				fields = append(fields, &ui.Field{Name: a.kinds[kn].Title, Value: fmt.Sprintf(
					"**%s** · rank %d of %d\n%s · %s\nStreak: %s · best win streak: %d",
					rating.Summary(r.Rating, req.Now), r.Rank, st.Total, Plural(r.Rating.Games, "rated game", "rated games"),
					rating.RecordAs(r.Rating, a.kinds[kn].noWinner), streakText(r.Rating.Streak), r.Rating.BestStreak)})
			}
		}
		// The newest finished games in this server (of the game asked).
		// At most 10 pages: a player's last 500 games, whatever the
		// server, are looked at.
		var before time.Time
		for page := 0; len(finished) < recentGames && page < 10; page++ {
			games, err := tx.Games().Finished(who.ID, before, 50)
			if err != nil {
				return err
			}
			for _, g := range games {
				if g.GuildID == req.GuildID && slices.Contains(kinds, g.Kind) && len(finished) < recentGames {
					finished = append(finished, g)
				}
			}
			if len(games) < 50 {
				break
			}
			before = games[len(games)-1].Ended
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var recent []string
	for _, g := range finished {
		// Whom they played, as the archive says it: a team game names
		// the teammates as partners, not opponents.
		var vs string
		if k := a.kinds[g.Kind]; k != nil && k.versus != nil {
			vs = k.versus(a, g, who.ID)
		}
		if vs == "" {
			vs = versusOf(g, who.ID)
		}
		link := ThreadLink(g.GuildID, g.ThreadID)
		if l := MessageLink(g.GuildID, g.ThreadID, g.FinalMessage); l != "" {
			link = l
		}
		title := g.Kind
		if k := a.kinds[g.Kind]; k != nil {
			title = k.Title
		}
		label := RatedLabel(g)
		recent = append(recent, fmt.Sprintf("• <t:%d:d> [%s](%s): %s %s (%s)", g.Ended.Unix(), title, link,
			resultFor(g.Outcome, who.ID), Clip(vs, 300), label))
	}
	if len(fields) == 0 && len(recent) == 0 {
		what := "any game"
		if kind != "" {
			what = a.kinds[kind].Title
		}
		if who.ID == req.User.ID {
			return Reply("You have not finished %s in this server yet.", what), nil
		}
		return Reply("%s has not finished %s in this server yet.", EscapeText(who.Name, 0), what), nil
	}
	switch {
	case len(fields) == 0 && a.isSelf(&who):
		fields = append(fields, &ui.Field{Name: "Ratings", Value: "The computer is not rated: games against it are unrated."})
	case len(fields) == 0:
		fields = append(fields, &ui.Field{Name: "Ratings", Value: "No rated game yet: every rating starts at 1500?."})
	}
	if len(recent) > 0 {
		fields = append(fields, &ui.Field{Name: "Recent games", Value: Clip(strings.Join(recent, "\n"), 1024)})
	}
	name := who.Name
	if name == "" {
		name = "<@" + who.ID + ">"
	}
	return &Response{Message: Message{Cards: []*ui.Card{{
		Title:       "Stats · " + EscapeText(name, 0),
		Description: fmt.Sprintf("<@%s> in this server.", who.ID),
		Color:       ColorChallenge,
		Fields:      fields,
		Footer:      "Glicko-2 ratings (rating ± deviation); ? marks a provisional rating.",
	}}}}, nil
}
