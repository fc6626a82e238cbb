package teamchess

import (
	"sort"
	"strings"

	"sandtable/games/chess"
)

// PlayerResult is one member's outcome of a finished game.
type PlayerResult struct {
	Member         Member
	Side           chess.Color
	TeamWon        bool // false for the losing team and for both in a mutual loss
	PersonalWins   int  // over all of the member's commands (rule 6.2)
	PersonalLosses int
}

// Summary is a finished game's result and every member's outcome, the
// input of Tally.
type Summary struct {
	Result  Result
	Players []PlayerResult
}

// Summary returns the summary of a finished game; ok is false while the
// game goes on.
func (g *Game) Summary() (s Summary, ok bool) {
	if g.phase != Finished {
		return Summary{}, false
	}
	s.Result = g.result
	for c := range g.teams {
		side := chess.Color(c)
		for _, m := range g.Members(side) {
			w, l := g.PersonalRecord(m.ID)
			s.Players = append(s.Players, PlayerResult{Member: m, Side: side,
				TeamWon: g.result.HasWinner() && g.result.Winner == side, PersonalWins: w, PersonalLosses: l})
		}
	}
	return s, true
}

// PlayerStats is a player's record over many games (issue 6 point 4):
// team wins and losses, personal wins and losses, and the categories of
// the team's wins and losses (keys: Category.Key). JSON-friendly.
type PlayerStats struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	Games          int            `json:"games"`
	TeamWins       int            `json:"team_wins"`
	TeamLosses     int            `json:"team_losses"`
	PersonalWins   int            `json:"personal_wins"`
	PersonalLosses int            `json:"personal_losses"`
	WinsBy         map[string]int `json:"wins_by,omitempty"`
	LossesBy       map[string]int `json:"losses_by,omitempty"`
}

// Ratio returns the personal win/loss ratio (rule 6.1): wins divided by
// losses, and with no losses the number of wins (issue 6 point 4).
func (s PlayerStats) Ratio() float64 {
	if s.PersonalLosses == 0 {
		return float64(s.PersonalWins)
	}
	return float64(s.PersonalWins) / float64(s.PersonalLosses)
}

// Add records one game's outcome for this player (the name is updated to
// the latest one).
func (s *PlayerStats) Add(r PlayerResult, c Category) {
	if s.ID == "" {
		s.ID = r.Member.ID
	}
	if r.Member.Name != "" {
		s.Name = r.Member.Name
	}
	s.Games++
	s.PersonalWins += r.PersonalWins
	s.PersonalLosses += r.PersonalLosses
	if r.TeamWon {
		s.TeamWins++
		if s.WinsBy == nil {
			s.WinsBy = map[string]int{}
		}
		s.WinsBy[c.Key()]++
	} else {
		s.TeamLosses++
		if s.LossesBy == nil {
			s.LossesBy = map[string]int{}
		}
		s.LossesBy[c.Key()]++
	}
}

// Tally adds a finished game's summary to stats, keyed by member ID,
// creating entries as needed. stats must not be nil.
func Tally(stats map[string]PlayerStats, sum Summary) {
	for _, r := range sum.Players {
		s := stats[r.Member.ID]
		s.Add(r, sum.Result.Category)
		stats[r.Member.ID] = s
	}
}

// Rank returns the players sorted for the leaderboard (rule 6.1, issue 6
// point 4): most team wins first, then the higher personal win/loss ratio
// (compared exactly, not in floating point), then fewer personal losses,
// then name (case-insensitive), then ID. The input is not changed.
func Rank(players []PlayerStats) []PlayerStats {
	out := append([]PlayerStats(nil), players...)
	sort.SliceStable(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

func less(a, b PlayerStats) bool {
	if a.TeamWins != b.TeamWins {
		return a.TeamWins > b.TeamWins
	}
	// a.w/max(a.l,1) > b.w/max(b.l,1)  <=>  a.w*max(b.l,1) > b.w*max(a.l,1)
	x := a.PersonalWins * max(b.PersonalLosses, 1)
	y := b.PersonalWins * max(a.PersonalLosses, 1)
	if x != y {
		return x > y
	}
	if a.PersonalLosses != b.PersonalLosses {
		return a.PersonalLosses < b.PersonalLosses
	}
	if n, m := strings.ToLower(a.Name), strings.ToLower(b.Name); n != m {
		return n < m
	}
	return a.ID < b.ID
}
