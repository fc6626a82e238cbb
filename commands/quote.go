package commands

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sandtable/internal/playertext"
)

// Quoting what players typed. Whatever the bot repeats of a player's
// input (a move it refuses, a layout line, a comment it posts, a display
// name) goes through QuoteInput or EscapeText, so that it shows as typed
// and does nothing else: no mention can ping (a zero-width space follows
// every '@'), no markdown renders, no control character (NUL, bidi
// overrides, line breaks) survives, and echoes of input are clipped to
// maxEcho characters.

// maxEcho is the most characters of a player's input repeated in an answer.
const maxEcho = 100

// zwsp breaks mentions: "@\u200beveryone" and "<@\u200b123>" do not ping.
const zwsp = "\u200b"

// cleanInput removes the characters the readers of player input remove
// (playertext.Clean: NUL, zero-width and bidi controls, tag characters),
// so that an echo shows what was read; it turns line breaks and tabs into
// spaces, collapses runs of spaces, trims it and clips it to max
// characters (max <= 0: no limit).
func cleanInput(s string, max int) string {
	return squeeze(playertext.Clean(s), max)
}

// cleanText is cleanInput for free text (comments, names): emoji
// sequences keep their joiners and tags (playertext.Text).
func cleanText(s string, max int) string {
	return squeeze(playertext.Text(s), max)
}

// squeeze turns white space into single spaces, trims s and clips it to
// max characters.
func squeeze(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return Clip(b.String(), max)
}

// QuoteInput is a player's input, as typed, for an answer that repeats
// it: a code span of the cleaned input (at most maxEcho characters;
// backticks become ˋ so that the span cannot be closed early), or
// "(nothing)" when nothing printable is left.
func QuoteInput(s string) string {
	c := cleanInput(s, maxEcho)
	if c == "" {
		return "(nothing)"
	}
	c = strings.NewReplacer("`", "ˋ", "@", "@"+zwsp).Replace(c)
	return "`" + c + "`"
}

// EscapeText is free text from a player (a comment, a display name) or a
// message that may repeat one (an engine's refusal), cleaned and clipped
// to max characters (max <= 0: no limit), for plain text in a message:
// markdown characters are escaped with a backslash and mentions broken.
func EscapeText(s string, max int) string {
	return escapeMarkdown(cleanText(s, max))
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

// NotLegal refuses the move text a player typed, with the engine's reason
// (which may repeat the text).
func NotLegal(text, reason string) error {
	return Errorf("%s is not a legal move: %s", QuoteInput(text), EngineText(reason))
}

// goQuoted matches a string literal as %q writes it.
var goQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// EngineText is a rules engine's refusal for a message. Engines repeat
// what the player typed as Go-quoted strings (%q); each is shown as
// QuoteInput shows input (clipped, in a code span), the rest is escaped
// like free text, and the whole is clipped to 500 characters.
func EngineText(msg string) string {
	msg = cleanInput(msg, 0)
	var b strings.Builder
	last := 0
	for _, m := range goQuoted.FindAllStringIndex(msg, -1) {
		v, err := strconv.Unquote(msg[m[0]:m[1]])
		if err != nil {
			continue
		}
		b.WriteString(escapeMarkdown(msg[last:m[0]]))
		b.WriteString(QuoteInput(v))
		last = m[1]
	}
	b.WriteString(escapeMarkdown(msg[last:]))
	return Clip(b.String(), 500)
}

// Clip shortens s to at most max characters, ending with "…" when it cuts
// (max <= 0: no limit). It is the one way text is cut to a Discord limit.
//
// Characters are Unicode code points: Discord's API is written in Python 3
// and measures strings by code points ("\U0010FFFF" is one character; see
// discord/discord-api-docs#1315), and the fake Discord (internal/discordsim)
// measures the same way. Code points, not bytes: a cut by bytes splits a
// multi-byte character into invalid UTF-8 (which encoding/json then sends
// as U+FFFD) and keeps too little of non-ASCII text. Clip also never splits
// what shows as one symbol where it can help it: it does not keep a zero
// width joiner at the end or cut off a combining mark, variation selector,
// skin tone or tag character from what it follows, or half a flag (a
// pair of regional indicators); such a symbol is dropped whole.
func Clip(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	cut := max - 1
	for cut > 0 && (extendsPrevious(r[cut]) || r[cut-1] == zwj) {
		cut--
	}
	if cut > 0 && isRegionalIndicator(r[cut]) {
		n := 0
		for i := cut - 1; i >= 0 && isRegionalIndicator(r[i]); i-- {
			n++
		}
		if n%2 == 1 {
			cut--
		}
	}
	if cut == 0 {
		cut = max - 1 // one symbol longer than max: cut it anyway
	}
	return string(r[:cut]) + "…"
}

// zwj is the zero width joiner of emoji sequences such as 👨‍👩‍👧.
const zwj = '\u200d'

// extendsPrevious reports whether r belongs to the symbol before it: a
// combining mark, a joiner, a variation selector, a skin tone modifier or
// an emoji tag character.
func extendsPrevious(r rune) bool {
	switch {
	case r == zwj, r >= 0xFE00 && r <= 0xFE0F, r >= 0x1F3FB && r <= 0x1F3FF, r >= 0xE0020 && r <= 0xE007F:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc)
}

func isRegionalIndicator(r rune) bool { return r >= 0x1F1E6 && r <= 0x1F1FF }
