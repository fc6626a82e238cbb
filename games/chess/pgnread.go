package chess

import (
	"fmt"
	"strings"
	"unicode"
)

// PGNGame is one game read from PGN text (ReadPGN): its tag pairs in
// order, the moves of its main line as written (SAN or player notation,
// with check and annotation marks; "--" for a pass), and its result
// ("1-0", "0-1", "1/2-1/2", or "*" when the movetext ends without one).
type PGNGame struct {
	Tags   []Tag
	Moves  []string
	Result string
	More   bool // the text goes on after this game (another game, unread)
}

// Tag returns the value of the first tag named name.
func (g *PGNGame) Tag(name string) (string, bool) {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// ReadPGN reads the first game of a PGN text (PGN standard, sections 8.1
// and 8.2): tag pairs ([Name "value"], with \" and \\ escapes), then the
// movetext, whose move numbers ("12." and "12..."), comments ({...} and
// ; to the end of the line), numeric annotation glyphs ($1), recursive
// variations ((...), skipped: only the main line is kept) and escape lines
// (% in the first column) are dropped. The game ends at its result or
// where a next game's tags begin; what follows is not read. It checks the
// text's form only: the moves are checked when they are played. Errors
// name the line: a tag pair that is not closed or has no quoted value, an
// unclosed comment or variation, a text with no game, or binary data (a
// NUL byte: an image or an archive given for a PGN file).
func ReadPGN(text string) (*PGNGame, error) {
	g := &PGNGame{}
	text = strings.TrimPrefix(text, "\uFEFF")
	if at := strings.IndexByte(text, 0); at >= 0 {
		return nil, fmt.Errorf("not a PGN text: binary data (a NUL byte at byte %d)", at)
	}
	line := 1
	i := 0
	inMoves := false
	depth := 0 // variation nesting
	errf := func(format string, a ...any) error {
		return fmt.Errorf("PGN line %d: %s", line, fmt.Sprintf(format, a...))
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
			if i < len(text) && text[i] == '%' { // escape line
				for i < len(text) && text[i] != '\n' {
					i++
				}
			}
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '%' && i == 0:
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return nil, errf("a comment { is not closed")
			}
			line += strings.Count(text[i:i+end], "\n")
			i += end + 1
		case c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth == 0 {
				return nil, errf("a ) closes no variation")
			}
			depth--
			i++
		case c == '[' && depth == 0:
			if inMoves {
				g.More = true
				return finishPGN(g, "*") // the next game begins
			}
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			t, err := parseTagPair(strings.TrimSpace(text[i : i+end]))
			if err != nil {
				return nil, errf("%v", err)
			}
			g.Tags = append(g.Tags, t)
			i += end
		default:
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\r\n{};()[", rune(text[j])) {
				j++
			}
			if j == i { // a lone ] or another character of its own
				j++
			}
			tok := text[i:j]
			i = j
			if depth > 0 {
				continue
			}
			inMoves = true
			switch tok {
			case "1-0", "0-1", "1/2-1/2", "*":
				g.More = strings.TrimSpace(text[i:]) != ""
				return finishPGN(g, tok)
			}
			if tok[0] == '$' {
				continue
			}
			// a move number, alone ("12.", "12...") or before its move ("12.e4")
			k := 0
			for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
				k++
			}
			if k > 0 && k < len(tok) && tok[k] == '.' {
				tok = strings.TrimLeft(tok[k:], ".")
			} else if k == len(tok) {
				return nil, errf("%q is neither a move nor a move number", tok)
			}
			if tok != "" {
				g.Moves = append(g.Moves, tok)
			}
		}
	}
	if depth > 0 {
		return nil, errf("a variation ( is not closed")
	}
	if len(g.Tags) == 0 && len(g.Moves) == 0 {
		return nil, fmt.Errorf("PGN: no game in the text")
	}
	return finishPGN(g, "*")
}

func finishPGN(g *PGNGame, result string) (*PGNGame, error) {
	g.Result = result
	return g, nil
}

// parseTagPair reads `[Name "value"]`.
func parseTagPair(s string) (Tag, error) {
	if !strings.HasSuffix(s, "]") {
		return Tag{}, fmt.Errorf("the tag pair %s is not closed by ]", quoteShort(s))
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	n := strings.IndexFunc(body, unicode.IsSpace)
	if n <= 0 || !validTagName(body[:n]) {
		return Tag{}, fmt.Errorf("the tag pair %s has no name", quoteShort(s))
	}
	name, rest := body[:n], strings.TrimSpace(body[n:])
	if len(rest) < 2 || rest[0] != '"' || rest[len(rest)-1] != '"' {
		return Tag{}, fmt.Errorf("the tag %s has no quoted value", name)
	}
	var b strings.Builder
	v := rest[1 : len(rest)-1]
	for k := 0; k < len(v); k++ {
		if v[k] == '\\' && k+1 < len(v) {
			k++
		}
		b.WriteByte(v[k])
	}
	return Tag{Name: name, Value: b.String()}, nil
}

func quoteShort(s string) string {
	if r := []rune(s); len(r) > 40 {
		s = string(r[:40]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
