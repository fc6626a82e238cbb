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
//
// The movetext and the Sacrifices and TagOuts tags come from the record
// (Events): for a game resumed from a Snapshot they begin at the latest
// move before the snapshot, so export Replay's game instead.
func (g *Game) PGN(tags []chess.Tag) string {
	defaults := map[string]string{}
	for c, name := range []string{"White", "Black"} {
		var names []string
		for _, m := range g.Members(chess.Color(c)) {
			names = append(names, m.Label())
		}
		defaults[name] = strings.Join(names, ", ")
	}
	var sacs, tagOuts []string
	for _, e := range g.events {
		switch {
		case e.Kind == MoveEvent && e.Role != NoRole:
			sacs = append(sacs, moveNumber(e)+" "+e.SAN)
		case e.Kind == TagOutEvent:
			to := e.Incoming.Label()
			if e.Exhausted {
				to = "none"
			}
			tagOuts = append(tagOuts, fmt.Sprintf("%s %s %s (%s) -> %s", moveNumber(e), e.Side.Title(), e.Commander.Label(), e.Reason, to))
		}
	}
	own := []chess.Tag{
		{Name: "Variant", Value: "Team Chess"},
		{Name: "SetUp", Value: "1"},
		{Name: "FEN", Value: g.setup.FEN},
		{Name: "WhiteCommanders", Value: g.commanderTag(chess.White)},
		{Name: "BlackCommanders", Value: g.commanderTag(chess.Black)},
		{Name: "Sacrifices", Value: dashIfEmpty(strings.Join(sacs, "; "))},
		{Name: "TagOuts", Value: dashIfEmpty(strings.Join(tagOuts, "; "))},
		{Name: "Stagnation", Value: fmt.Sprintf("W %d/4, B %d/4", g.stag[chess.White], g.stag[chess.Black])},
	}
	if g.result.Over() {
		own = append(own, chess.Tag{Name: "Termination", Value: g.result.String()},
			chess.Tag{Name: "WinCategory", Value: g.result.Category.Key()})
	}
	// Termination and WinCategory are the game's own even while it goes on.
	var callers []chess.Tag
	for _, t := range tags {
		if t.Name != "Termination" && t.Name != "WinCategory" {
			callers = append(callers, t)
		}
	}
	result := g.result.PGN()
	var b strings.Builder
	chess.WritePGNHeader(&b, callers, defaults, result, own)
	chess.WrapPGN(&b, g.movetext(result))
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
