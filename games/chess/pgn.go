package chess

import (
	"strconv"
	"strings"
)

// Tag is one PGN tag pair.
type Tag struct {
	Name, Value string
}

// PGN exports the game: the Seven Tag Roster (Event, Site, Date, Round,
// White, Black, Result; "?" or "????.??.??" unless supplied), the caller's
// other tags in order, then Variant, SetUp "1" and FEN (the start
// position), then the SAN movetext wrapped at 80 columns and the result.
// result is a PGN result ("1-0", "0-1", "1/2-1/2", "*"); empty means the
// automatic Status result. Tags with names other than letters, digits and
// underscores are dropped; the caller cannot override Result, Variant, SetUp
// or FEN.
func (g *Game) PGN(tags []Tag, result string) string {
	switch result {
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		result = g.Status().Result.String()
	}
	vals := map[string]string{}
	var extra []Tag
	roster := []string{"Event", "Site", "Date", "Round", "White", "Black"}
	for _, t := range tags {
		if !validTagName(t.Name) {
			continue
		}
		switch t.Name {
		case "Result", "Variant", "SetUp", "FEN":
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
	write("Result", result)
	for _, t := range extra {
		write(t.Name, t.Value)
	}
	write("Variant", g.Variant().Title())
	write("SetUp", "1")
	write("FEN", g.StartFEN())
	b.WriteString("\n")

	var tokens []string
	num := int(g.start.fullmove)
	black := g.start.turn == Black
	for i, san := range g.sans {
		if !black {
			tokens = append(tokens, strconv.Itoa(num)+".")
		} else if i == 0 {
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, san)
		if black {
			num++
		}
		black = !black
	}
	tokens = append(tokens, result)
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
	return b.String()
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
	s = strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", " ", "\r", " ").Replace(s)
	return s
}
