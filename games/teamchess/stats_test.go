package teamchess

import (
	"slices"
	"testing"
)

func names(ps []PlayerStats) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// TestRank covers ruling 6.1 and issue 6 point 4: team wins, then personal
// win/loss ratio (no losses: the ratio is the number of wins), then fewer
// losses, then name.
func TestRank(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		players []PlayerStats
		want    []string
	}{
		{"team wins first", []PlayerStats{
			{Name: "A", TeamWins: 1, PersonalWins: 9},
			{Name: "B", TeamWins: 2, PersonalWins: 0, PersonalLosses: 5},
		}, []string{"B", "A"}},
		{"then ratio", []PlayerStats{
			{Name: "A", TeamWins: 1, PersonalWins: 3, PersonalLosses: 2}, // 1.5
			{Name: "B", TeamWins: 1, PersonalWins: 2, PersonalLosses: 1}, // 2
		}, []string{"B", "A"}},
		{"no losses: ratio is the wins", []PlayerStats{
			{Name: "A", TeamWins: 1, PersonalWins: 2},                    // 2
			{Name: "B", TeamWins: 1, PersonalWins: 5, PersonalLosses: 2}, // 2.5
			{Name: "C", TeamWins: 1, PersonalWins: 1},                    // 1
		}, []string{"B", "A", "C"}},
		{"equal ratio: fewer losses", []PlayerStats{
			{Name: "A", TeamWins: 1, PersonalWins: 4, PersonalLosses: 2},
			{Name: "B", TeamWins: 1, PersonalWins: 2, PersonalLosses: 1},
		}, []string{"B", "A"}},
		{"no-loss 2 wins ties 4-2: fewer losses", []PlayerStats{
			{Name: "A", TeamWins: 0, PersonalWins: 4, PersonalLosses: 2},
			{Name: "B", TeamWins: 0, PersonalWins: 2},
		}, []string{"B", "A"}},
		{"then name, case-insensitive", []PlayerStats{
			{Name: "bob", ID: "2"}, {Name: "Amy", ID: "3"}, {Name: "amy", ID: "1"},
		}, []string{"amy", "Amy", "bob"}},
		{"exact ratio comparison", []PlayerStats{
			{Name: "A", PersonalWins: 1, PersonalLosses: 3}, // 0.333...
			{Name: "B", PersonalWins: 2, PersonalLosses: 6}, // equal ratio, more losses
			{Name: "C", PersonalWins: 0, PersonalLosses: 0},
		}, []string{"A", "B", "C"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := slices.Clone(c.players)
			got := names(Rank(c.players))
			if !slices.Equal(got, c.want) {
				t.Errorf("Rank = %v, want %v", got, c.want)
			}
			if !slices.EqualFunc(in, c.players, func(a, b PlayerStats) bool { return a.Name == b.Name }) {
				t.Error("Rank changed its input")
			}
		})
	}
	if r := (PlayerStats{PersonalWins: 3}).Ratio(); r != 3 {
		t.Errorf("ratio without losses = %v", r)
	}
	if r := (PlayerStats{PersonalWins: 3, PersonalLosses: 2}).Ratio(); r != 1.5 {
		t.Errorf("ratio = %v", r)
	}
}

// TestLeaderboardAfterGames tallies several finished games and ranks them.
func TestLeaderboardAfterGames(t *testing.T) {
	t.Parallel()
	stats := map[string]PlayerStats{}
	add := func(g *Game) {
		t.Helper()
		s, ok := g.Summary()
		if !ok {
			t.Fatal("game not finished")
		}
		Tally(stats, s)
	}
	// Game 1: Black (cid, dan) wins by honourable checkmate; cid mates.
	g, _ := NewGame(Setup{White: ids("ann bob"), Black: ids("cid dan")})
	if _, ok := g.Summary(); ok {
		t.Fatal("summary of an unfinished game")
	}
	playAll(t, g, "f3", "e5", "g4", "Qh4#")
	add(g)
	// Game 2: ann tags out, bob resigns: Black wins; cid +2.
	g, _ = NewGame(Setup{White: ids("ann bob"), Black: ids("cid dan")})
	g.TagOut("ann")
	g.Resign("bob")
	add(g)
	// Game 3: mutual loss, ann and cid lose.
	g, _ = NewGame(Setup{White: ids("ann bob"), Black: ids("cid dan")})
	playAll(t, g, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8")
	add(g)
	// Game 4: White (ann) wins by Siege Win against eve.
	g, _ = NewGame(Setup{FEN: "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1", White: ids("ann"), Black: ids("eve")})
	playAll(t, g, "Qg6")
	g.SiegeWin("ann")
	add(g)

	want := map[string]PlayerStats{
		"ann": {ID: "ann", Name: "Ann", Games: 4, TeamWins: 1, TeamLosses: 3, PersonalWins: 1, PersonalLosses: 3},
		"bob": {ID: "bob", Name: "Bob", Games: 3, TeamWins: 0, TeamLosses: 3, PersonalWins: 0, PersonalLosses: 1},
		"cid": {ID: "cid", Name: "Cid", Games: 3, TeamWins: 2, TeamLosses: 1, PersonalWins: 3, PersonalLosses: 1},
		"dan": {ID: "dan", Name: "Dan", Games: 3, TeamWins: 2, TeamLosses: 1, PersonalWins: 0, PersonalLosses: 0},
		"eve": {ID: "eve", Name: "Eve", Games: 1, TeamWins: 0, TeamLosses: 1, PersonalWins: 0, PersonalLosses: 1},
	}
	for id, w := range want {
		s := stats[id]
		if s.ID != w.ID || s.Name != w.Name || s.Games != w.Games || s.TeamWins != w.TeamWins || s.TeamLosses != w.TeamLosses ||
			s.PersonalWins != w.PersonalWins || s.PersonalLosses != w.PersonalLosses {
			t.Errorf("%s: %+v, want %+v", id, s, w)
		}
	}
	if c := stats["cid"].WinsBy; c["honourable_checkmate"] != 1 || c["resignation"] != 1 || stats["cid"].LossesBy["mutual_loss"] != 1 {
		t.Errorf("cid categories: %v %v", c, stats["cid"].LossesBy)
	}
	if stats["ann"].WinsBy["siege_win"] != 1 || stats["eve"].LossesBy["siege_win"] != 1 {
		t.Errorf("siege categories: %v %v", stats["ann"].WinsBy, stats["eve"].LossesBy)
	}
	var all []PlayerStats
	for _, s := range stats {
		all = append(all, s)
	}
	// cid and dan: 2 team wins; cid ratio 3 beats dan 0. ann: 1 team win.
	// bob and eve: 0 team wins, ratio 0 both; one loss each: name decides.
	if got := names(Rank(all)); !slices.Equal(got, []string{"Cid", "Dan", "Ann", "Bob", "Eve"}) {
		t.Errorf("leaderboard %v", got)
	}
}
