package teamchess

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"sandtable/games/chess"
)

// Member is a player: a stable ID (the bot uses the Discord user ID) and a
// display name for records and PGN.
type Member struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
}

// Label returns the name, or the ID when there is no name.
func (m Member) Label() string {
	if m.Name != "" {
		return m.Name
	}
	return m.ID
}

// Commander is one command in a team's ordered queue (ruling 1). A member
// listed twice has two commands, Term 1 and Term 2, each counting as a
// separate commander for exhaustion.
type Commander struct {
	Member Member
	Term   int  // 1, or 2 for a member's second command
	Lost   bool // a personal loss ended this command (tag-out) or the game
	Wins   int  // personal wins earned while this command was active
}

type team struct {
	queue  []Commander
	active int // index into queue; len(queue) once every commander has lost
}

func (t *team) exhausted() bool { return t.active >= len(t.queue) }

func (t *team) current() *Commander {
	if t.exhausted() {
		return nil
	}
	return &t.queue[t.active]
}

const maxMembers = 32

// newTeams validates the queues (ruling 1, rule 1.1):
//   - each side has at least one commander, IDs are non-empty and at most
//     100 bytes, names valid UTF-8 of at most 100 characters (Discord's
//     names have at most 32, of up to 4 bytes each), and no member plays on
//     both sides;
//   - a member appears at most twice in a queue, and at most one member of
//     a team has a second command;
//   - a second command is only for balance: the team has fewer distinct
//     members than the other, and its queue is not longer than the other's.
func newTeams(white, black []Member) ([2]team, error) {
	var teams [2]team
	sides := [2][]Member{white, black}
	distinct := [2]int{}
	for c, ms := range sides {
		side := chess.Color(c)
		if len(ms) == 0 {
			return teams, fmt.Errorf("%s needs at least one commander", side.Title())
		}
		if len(ms) > maxMembers {
			return teams, fmt.Errorf("%s has %d commanders; at most %d are allowed", side.Title(), len(ms), maxMembers)
		}
		count := map[string]int{}
		doubled := ""
		for _, m := range ms {
			if strings.TrimSpace(m.ID) == "" {
				return teams, fmt.Errorf("%s has a commander without an ID", side.Title())
			}
			if len(m.ID) > 100 {
				return teams, fmt.Errorf("a commander ID is longer than 100 bytes")
			}
			if !utf8.ValidString(m.Name) || utf8.RuneCountInString(m.Name) > 100 {
				return teams, fmt.Errorf("a commander's name is not text of at most 100 characters")
			}
			count[m.ID]++
			term := count[m.ID]
			switch {
			case term > 2:
				return teams, fmt.Errorf("%s appears %d times in %s's queue; a member may have at most two commands (rule 1.1)", m.Label(), term, side.Title())
			case term == 2 && doubled != "":
				return teams, fmt.Errorf("only one member of a team may have a second command (rule 1.1); %s already has one", doubled)
			case term == 2:
				doubled = m.Label()
			}
			teams[c].queue = append(teams[c].queue, Commander{Member: m, Term: term})
		}
		distinct[c] = len(count)
	}
	for _, m := range white {
		for _, o := range black {
			if m.ID == o.ID {
				return teams, fmt.Errorf("%s cannot command on both sides", m.Label())
			}
		}
	}
	for c := range sides {
		other := 1 - c
		if len(sides[c]) == distinct[c] {
			continue
		}
		side := chess.Color(c).Title()
		if distinct[c] >= distinct[other] {
			return teams, fmt.Errorf("a second command is only for the smaller team (rule 1.1): %s has %d members and %s %d", side, distinct[c], chess.Color(other).Title(), distinct[other])
		}
		if len(sides[c]) > len(sides[other]) {
			return teams, fmt.Errorf("a second command may only balance the teams (rule 1.1): %s would have %d commands against %d", side, len(sides[c]), len(sides[other]))
		}
	}
	return teams, nil
}
