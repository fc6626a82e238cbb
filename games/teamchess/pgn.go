package teamchess

import (
	"fmt"
	"strconv"
	"strings"

	"sandtable/games/chess"
)

// PGN exports the game (issue 6 point 5). Tags, in order:
//
//   - the Seven Tag Roster: Event, Site, Date, Round from tags ("?" and
//     "????.??.??" when missing), White and Black (the team's distinct
//     members in queue order, joined by ", ", unless tags supply them),
//     Result ("1-0", "0-1", or "*" while ongoing and for a mutual loss);
//   - the caller's other tags, in order (names other than letters, digits
//     and underscores are dropped);
//   - Variant "Team Chess", SetUp "1", FEN (the start position);
//   - WhiteCommanders, BlackCommanders: each queue as "Ann (+1 -1); Bob*
//     (+0 -0); Ann 2nd (+0 -0)": name, "2nd" for a second command, "*" on
//     the commander active at the end, personal wins and losses;
//   - Sacrifices: every sacrificial move, "12. e8=Assassin:xd4; 20... d1=RoyalGuard"
//     ("-" when none);
//   - TagOuts: every tag-out, "15... Black Bob (fatigue) -> Cid" ("-" when none);
//   - Stagnation: the final counters, "W 1/4, B 3/4";
//   - Termination and WinCategory when the game is over: the result in
//     words and its Category key ("dishonourable_checkmate", "mutual_loss").
//
// The movetext has the moves in player notation (sacrifices with their
// roles, see SAN), "--" for a besieged side's pass, and comments in braces
// for tag-outs, forced moves, siege decisions and the result. Sacrifice
// SAN and "--" are not standard PGN: other programs may not read them.
func (g *Game) PGN(tags []chess.Tag) string {
	vals := map[string]string{}
	var extra []chess.Tag
	roster := []string{"Event", "Site", "Date", "Round", "White", "Black"}
	reserved := map[string]bool{"Result": true, "Variant": true, "SetUp": true, "FEN": true,
		"WhiteCommanders": true, "BlackCommanders": true, "Sacrifices": true, "TagOuts": true,
		"Stagnation": true, "Termination": true, "WinCategory": true}
	for _, t := range tags {
		if !validTagName(t.Name) || reserved[t.Name] {
			continue
		}
		isRoster := false
		for _, r := range roster {
			if r == t.Name {
				isRoster = true
			}
		}
		if isRoster {
			vals[t.Name] = t.Value
		} else {
			extra = append(extra, t)
		}
	}
	for c, name := range []string{"White", "Black"} {
		if _, ok := vals[name]; !ok {
			var names []string
			for _, m := range g.Members(chess.Color(c)) {
				names = append(names, m.Label())
			}
			vals[name] = strings.Join(names, ", ")
		}
	}
	var b strings.Builder
	write := func(name, val string) {
		b.WriteString("[" + name + " \"" + escapeTag(val) + "\"]\n")
	}
	for _, r := range roster {
		v, ok := vals[r]
		if !ok {
			v = "?"
			if r == "Date" {
				v = "????.??.??"
			}
		}
		write(r, v)
	}
	result := g.result.PGN()
	write("Result", result)
	for _, t := range extra {
		write(t.Name, t.Value)
	}
	write("Variant", "Team Chess")
	write("SetUp", "1")
	write("FEN", g.setup.FEN)
	write("WhiteCommanders", g.commanderTag(chess.White))
	write("BlackCommanders", g.commanderTag(chess.Black))
	var sacs, tags2 []string
	for _, e := range g.events {
		switch {
		case e.Kind == MoveEvent && e.Role != NoRole:
			sacs = append(sacs, moveNumber(e)+" "+e.SAN)
		case e.Kind == TagOutEvent:
			to := e.Incoming.Label()
			if e.Exhausted {
				to = "none"
			}
			tags2 = append(tags2, fmt.Sprintf("%s %s %s (%s) -> %s", moveNumber(e), e.Side.Title(), e.Commander.Label(), e.Reason, to))
		}
	}
	write("Sacrifices", dashIfEmpty(strings.Join(sacs, "; ")))
	write("TagOuts", dashIfEmpty(strings.Join(tags2, "; ")))
	write("Stagnation", fmt.Sprintf("W %d/4, B %d/4", g.stag[chess.White], g.stag[chess.Black]))
	if g.result.Over() {
		write("Termination", g.result.String())
		write("WinCategory", g.result.Category.Key())
	}
	b.WriteString("\n")
	wrap(&b, g.movetext(result))
	return b.String()
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func moveNumber(e Event) string {
	if e.Side == chess.Black {
		return strconv.Itoa(e.MoveNumber) + "..."
	}
	return strconv.Itoa(e.MoveNumber) + "."
}

func (g *Game) commanderTag(side chess.Color) string {
	t := &g.teams[side]
	parts := make([]string, len(t.queue))
	for i, c := range t.queue {
		s := c.Member.Label()
		if c.Term == 2 {
			s += " 2nd"
		}
		if i == t.active {
			s += "*"
		}
		loss := 0
		if c.Lost {
			loss = 1
		}
		parts[i] = fmt.Sprintf("%s (+%d -%d)", s, c.Wins, loss)
	}
	return strings.Join(parts, "; ")
}

// movetext returns the PGN tokens: move numbers, moves, "--", comments.
func (g *Game) movetext(result string) []string {
	var tokens []string
	needNumber := true
	for _, e := range g.events {
		switch e.Kind {
		case MoveEvent, PassEvent:
			if e.Side == chess.White {
				tokens = append(tokens, strconv.Itoa(e.MoveNumber)+".")
			} else if needNumber {
				tokens = append(tokens, strconv.Itoa(e.MoveNumber)+"...")
			}
			if e.Kind == PassEvent {
				tokens = append(tokens, "--", "{"+e.Side.Title()+" is besieged and passes}")
				needNumber = true
				continue
			}
			tokens = append(tokens, e.SAN)
			needNumber = false
			if e.Forced {
				tokens = append(tokens, "{forced by Saboteur}")
				needNumber = true
			}
		case TagOutEvent, SiegeContinueEvent, GameOverEvent:
			s := e.String()
			if i := strings.Index(s, " [stagnation"); i >= 0 {
				s = s[:i]
			}
			tokens = append(tokens, "{"+strings.NewReplacer("{", "(", "}", ")").Replace(s)+"}")
			needNumber = true
		}
	}
	return append(tokens, result)
}

// wrap writes tokens separated by spaces, lines at most 80 columns where
// tokens allow.
func wrap(b *strings.Builder, tokens []string) {
	line := 0
	for i, t := range tokens {
		if i > 0 {
			if line+1+len(t) > 80 {
				b.WriteString("\n")
				line = 0
			} else {
				b.WriteString(" ")
				line++
			}
		}
		b.WriteString(t)
		line += len(t)
	}
	b.WriteString("\n")
}

func validTagName(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	for _, c := range s {
		if !(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

func escapeTag(s string) string {
	return strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", " ", "\r", " ").Replace(s)
}
