package commands

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quoting what players typed. Whatever the bot repeats of a player's
// input (a move it refuses, a layout line, a comment it posts, a display
// name) goes through quoteInput or escapeText, so that it shows as typed
// and does nothing else: no mention can ping (a zero-width space follows
// every '@'), no markdown renders, no control character (NUL, bidi
// overrides, line breaks) survives, and echoes of input are clipped to
// maxEcho characters.

// maxEcho is the most characters of a player's input repeated in an answer.
const maxEcho = 100

// zwsp breaks mentions: "@\u200beveryone" and "<@\u200b123>" do not ping.
const zwsp = "\u200b"

// cleanInput removes control and format characters (NUL, zero-width and
// bidi controls, tag characters) from s, turns line breaks and tabs into
// spaces, collapses runs of spaces, trims it and clips it to max
// characters (max <= 0: no limit).
func cleanInput(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return clipRunes(b.String(), max)
}

// quoteInput is a player's input, as typed, for an answer that repeats
// it: a code span of the cleaned input (at most maxEcho characters;
// backticks become ˋ so that the span cannot be closed early), or
// "(nothing)" when nothing printable is left.
func quoteInput(s string) string {
	c := cleanInput(s, maxEcho)
	if c == "" {
		return "(nothing)"
	}
	c = strings.NewReplacer("`", "ˋ", "@", "@"+zwsp).Replace(c)
	return "`" + c + "`"
}

// escapeText is free text from a player (a comment, a display name) or a
// message that may repeat one (an engine's refusal), cleaned and clipped
// to max characters (max <= 0: no limit), for plain text in a message:
// markdown characters are escaped with a backslash and mentions broken.
func escapeText(s string, max int) string {
	return escapeMarkdown(cleanInput(s, max))
}

// escapeMarkdown escapes markdown characters with a backslash and breaks
// mentions, changing nothing else.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '*', '_', '~', '`', '|', '[', ']', '<', '>', '#':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '@':
			b.WriteString("@" + zwsp)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// notLegal refuses the move text a player typed, with the engine's reason
// (which may repeat the text).
func notLegal(text, reason string) error {
	return Errorf("%s is not a legal move: %s", quoteInput(text), engineText(reason))
}

// goQuoted matches a string literal as %q writes it.
var goQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// engineText is a rules engine's refusal for a message. Engines repeat
// what the player typed as Go-quoted strings (%q); each is shown as
// quoteInput shows input (clipped, in a code span), the rest is escaped
// like free text, and the whole is clipped to 500 characters.
func engineText(msg string) string {
	msg = cleanInput(msg, 0)
	var b strings.Builder
	last := 0
	for _, m := range goQuoted.FindAllStringIndex(msg, -1) {
		v, err := strconv.Unquote(msg[m[0]:m[1]])
		if err != nil {
			continue
		}
		b.WriteString(escapeMarkdown(msg[last:m[0]]))
		b.WriteString(quoteInput(v))
		last = m[1]
	}
	b.WriteString(escapeMarkdown(msg[last:]))
	return clipRunes(b.String(), 500)
}

// clipRunes shortens s to at most max characters (Unicode code points),
// ending with "…" when it cut.
func clipRunes(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}
