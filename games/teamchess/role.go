package teamchess

import (
	"strings"
)

// Role is the duty a pawn performs when it is consumed by an 8th-rank
// sacrifice (Team Chess rule 3). It travels in the chess move's tag
// (chess.Move.WithTag), so a sacrificial chess.Move carries its role.
type Role uint8

// The roles of rule 3. NoRole marks a move that is not a sacrifice.
const (
	NoRole         Role = iota
	RoyalGuard          // rule 3.1: places the team's captured Queen on the sacrifice square
	Assassin            // rule 3.2: removes one opposing piece other than the King
	Saboteur            // rule 3.3: names the opponent's next move in full
	PoliticalAgent      // rule 3.4: the opposing active commander suffers a personal loss
)

// Roles lists the four roles in rule order.
var Roles = []Role{RoyalGuard, Assassin, Saboteur, PoliticalAgent}

// String returns the role's name as the rules write it ("Royal Guard").
func (r Role) String() string {
	switch r {
	case RoyalGuard:
		return "Royal Guard"
	case Assassin:
		return "Assassin"
	case Saboteur:
		return "Saboteur"
	case PoliticalAgent:
		return "Political Agent"
	}
	return "no role"
}

// withArticle returns "a Royal Guard", "an Assassin".
func (r Role) withArticle() string {
	if r == Assassin {
		return "an Assassin"
	}
	return "a " + r.String()
}

// Notation returns the role as written in move notation ("RoyalGuard",
// "Assassin", "Saboteur", "PoliticalAgent").
func (r Role) Notation() string { return strings.ReplaceAll(r.String(), " ", "") }

// Letter returns the role's letter in the UCI-style form: g, a, s or p.
func (r Role) Letter() byte {
	switch r {
	case RoyalGuard:
		return 'g'
	case Assassin:
		return 'a'
	case Saboteur:
		return 's'
	case PoliticalAgent:
		return 'p'
	}
	return 0
}

// Rule returns the rule-text section of the role ("3.1").
func (r Role) Rule() string {
	switch r {
	case RoyalGuard:
		return "3.1"
	case Assassin:
		return "3.2"
	case Saboteur:
		return "3.3"
	case PoliticalAgent:
		return "3.4"
	}
	return "3"
}

// roleAliases are the exact (lower-case, no spaces) spellings accepted for
// each role, besides unambiguous prefixes of the full names.
var roleAliases = map[string]Role{
	"g": RoyalGuard, "q": RoyalGuard, "rg": RoyalGuard, "guard": RoyalGuard, "queen": RoyalGuard,
	"royalguard": RoyalGuard, "royal": RoyalGuard,
	"a": Assassin, "assassin": Assassin, "assassinate": Assassin, "kill": Assassin,
	"s": Saboteur, "saboteur": Saboteur, "sabotage": Saboteur, "sab": Saboteur,
	"p": PoliticalAgent, "pa": PoliticalAgent, "agent": PoliticalAgent, "political": PoliticalAgent,
	"politicalagent": PoliticalAgent,
}

// roleNames are the full names whose unambiguous prefixes are accepted.
var roleNames = []struct {
	name string
	role Role
}{
	{"royalguard", RoyalGuard}, {"guard", RoyalGuard}, {"queen", RoyalGuard},
	{"assassin", Assassin}, {"saboteur", Saboteur},
	{"politicalagent", PoliticalAgent}, {"agent", PoliticalAgent},
}

// ParseRole reads a role name leniently: the full name in any case with or
// without spaces, underscores or hyphens ("Royal Guard", "political_agent"),
// the letters g/q, a, s, p, the aliases guard, queen, agent, pa, rg, or any
// unambiguous prefix of two letters or more of a full name ("assa",
// "sab", "pol"). ParseMove accepts the letter p only in the UCI-style form
// (e7e8p): in SAN a P names no role (ruling A5).
func ParseRole(s string) (Role, bool) {
	k := strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "", "\t", "").Replace(s))
	if k == "" {
		return NoRole, false
	}
	if r, ok := roleAliases[k]; ok {
		return r, true
	}
	if len(k) < 2 {
		return NoRole, false // single letters only as aliases (r, n, b are not roles)
	}
	found := NoRole
	for _, n := range roleNames {
		if strings.HasPrefix(n.name, k) {
			if found != NoRole && found != n.role {
				return NoRole, false
			}
			found = n.role
		}
	}
	return found, found != NoRole
}
