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
// A resumed game's PGN starts at the position it was resumed at. result
// is a PGN result ("1-0", "0-1", "1/2-1/2", "*"); empty means the
// Outcome's result ("*" while the game goes on). Tags with names other
// than letters, digits and underscores are dropped; the caller cannot
// override Result, Variant, SetUp or FEN.
func (g *Game) PGN(tags []Tag, result string) string {
	return g.PGNWithComments(tags, result, nil)
}

// PGNWithComments is PGN with a comment after each move: comments[i],
// when given and not empty, follows the i-th move as "{ comments[i] }"
// (e.g. "[%clk 0:09:58]"); a closing brace in a comment is dropped.
func (g *Game) PGNWithComments(tags []Tag, result string, comments []string) string {
	switch result {
	case "1-0", "0-1", "1/2-1/2", "*":
	default:
		o, _ := g.Outcome()
		result = o.Result.String()
	}
	var b strings.Builder
	WritePGNHeader(&b, tags, nil, result, []Tag{
		{"Variant", g.Variant().Title()},
		{"SetUp", "1"},
		{"FEN", g.StartFEN()},
	})

	var tokens []string
	num := int(g.start.fullmove)
	black := g.start.turn == Black
	for i, san := range g.sans {
		if !black {
			tokens = append(tokens, strconv.Itoa(num)+".")
		} else if i == 0 || (i <= len(comments) && comments[i-1] != "") {
			// Black's move after a comment carries its number again.
			tokens = append(tokens, strconv.Itoa(num)+"...")
		}
		tokens = append(tokens, san)
		if i < len(comments) && comments[i] != "" {
			tokens = append(tokens, "{ "+strings.ReplaceAll(comments[i], "}", "")+" }")
		}
		if black {
			num++
		}
		black = !black
	}
	WrapPGN(&b, append(tokens, result))
	return b.String()
}

// pgnRoster is the Seven Tag Roster without Result, in PGN order.
var pgnRoster = []string{"Event", "Site", "Date", "Round", "White", "Black"}

// WritePGNHeader writes a PGN tag section and the blank line after it:
// the Seven Tag Roster (each value from tags, else from defaults, else "?",
// "????.??.??" for Date), Result, the caller's other tags in order, then
// the variant's own tags (own). Tags named like Result or one of own are
// dropped from tags, so a caller cannot override them; so are names other
// than letters, digits and underscores (PGN standard 8.1.1). Values are
// escaped (backslash, quote) and kept on one line.
func WritePGNHeader(b *strings.Builder, tags []Tag, defaults map[string]string, result string, own []Tag) {
	reserved := map[string]bool{"Result": true}
	for _, t := range own {
		reserved[t.Name] = true
	}
	vals := map[string]string{}
	var extra []Tag
	for _, t := range tags {
		if !validTagName(t.Name) || reserved[t.Name] {
			continue
		}
		if isRosterTag(t.Name) {
			vals[t.Name] = t.Value
		} else {
			extra = append(extra, t)
		}
	}
	write := func(name, val string) {
		b.WriteString("[" + name + " \"" + escapeTag(val) + "\"]\n")
	}
	for _, r := range pgnRoster {
		v, ok := vals[r]
		if !ok {
			v, ok = defaults[r]
		}
		if !ok {
			v = "?"
			if r == "Date" {
				v = "????.??.??"
			}
		}
		write(r, v)
	}
	write("Result", result)
	for _, t := range append(extra, own...) {
		write(t.Name, t.Value)
	}
	b.WriteString("\n")
}

func isRosterTag(name string) bool {
	for _, r := range pgnRoster {
		if r == name {
			return true
		}
	}
	return false
}

// WrapPGN writes movetext tokens separated by spaces in lines of at most 80
// columns where the tokens allow (PGN standard 8.2.6), and a final newline.
func WrapPGN(b *strings.Builder, tokens []string) {
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

// tagEscaper escapes a PGN tag value (built once, see separators).
var tagEscaper = strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", " ", "\r", " ")

func escapeTag(s string) string {
	return tagEscaper.Replace(s)
}
