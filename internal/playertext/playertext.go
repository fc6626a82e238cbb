// Package playertext is the one rule for invisible characters in what
// players type. Every reader of player input (move notation in the three
// games, SandTable deployment edits, layouts and positions, Drone orders,
// autocomplete) and every echo of it (commands' quoteInput) removes the
// same characters, so that what a player sees repeated is what was read.
//
// Removed: format characters (Unicode category Cf: U+200B zero-width
// space, U+200C, U+200D, U+2060, U+FEFF, the bidi controls U+202A-U+202E
// and U+2066-U+2069, tag characters, ...), control characters (C0 and C1)
// other than white space, and U+FFFD (what invalid UTF-8 decodes to).
// White space (space, tab, line breaks, no-break space) is kept: readers
// treat it as a separator. Free text (comments, names) keeps emoji
// sequences whole: see Text.
//
// The package has no dependencies, so rules engines (games/) and the
// commands package share it.
package playertext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Invisible reports whether Clean removes r: a format character (Cf), a
// control character that is not white space, or U+FFFD.
func Invisible(r rune) bool {
	switch {
	case unicode.IsSpace(r):
		return false
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == utf8.RuneError:
		return true
	}
	return false
}

// Clean is s without the characters Invisible reports (invalid UTF-8
// bytes are removed too). It returns s itself when there is nothing to
// remove.
func Clean(s string) string {
	i := strings.IndexFunc(s, Invisible)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if !Invisible(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ZWJ is the zero width joiner of emoji sequences such as 👩‍💻.
const ZWJ = '\u200d'

// cancelTag ends an emoji tag sequence (the flags of Scotland, Wales...).
const cancelTag = '\U000E007F'

func isTag(r rune) bool { return r >= 0xE0020 && r <= 0xE007E }

// IsEmoji reports whether r is a pictographic symbol that may start or
// continue an emoji sequence: an "other symbol" (So) or a character of the
// emoji blocks U+1F000-U+1FAFF (skin tones included).
func IsEmoji(r rune) bool {
	return (r >= 0x1F000 && r <= 0x1FAFF) || unicode.Is(unicode.So, r)
}

// isVariation reports whether r is a variation selector (U+FE00-U+FE0F).
func isVariation(r rune) bool { return r >= 0xFE00 && r <= 0xFE0F }

// Text is free text (a comment, a display name) cleaned as Clean does,
// except that emoji sequences stay whole: a zero width joiner is kept
// between an emoji (or its variation selector or skin tone, or a kept
// joiner or tag) and a following emoji, and tag characters are kept after
// an emoji or a kept tag when more tags or the cancel tag follow; the
// cancel tag is kept after a kept tag. Everywhere else (a joiner between
// letters, a lone tag, zero-width spaces, bidi controls) they are removed
// like any other invisible character, since there they only serve to
// spoof.
func Text(s string) string {
	if strings.IndexFunc(s, Invisible) < 0 {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(-1) // the rune before r, if it was kept
	for i, r := range rs {
		next := rune(-1)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		keep := !Invisible(r)
		switch {
		case r == ZWJ:
			keep = (IsEmoji(prev) || isVariation(prev) || prev == ZWJ || isTag(prev) || prev == cancelTag) && IsEmoji(next)
		case isTag(r):
			keep = (IsEmoji(prev) || isTag(prev)) && (isTag(next) || next == cancelTag)
		case r == cancelTag:
			keep = isTag(prev)
		}
		if keep {
			b.WriteRune(r)
			prev = r
		} else {
			prev = -1 // a removed character breaks a sequence
		}
	}
	return b.String()
}

// utf8BOM is the byte-order mark some editors write at the start of a
// UTF-8 file.
const utf8BOM = "\ufeff"

// File prepares the text of a file a player gives (a SandTable layout or
// position): a UTF-8 byte-order mark at its start is dropped, bytes that
// are not UTF-8 are an error naming the first one and its line (a file
// saved as UTF-16 or in a legacy code page), and the rest is cleaned as
// Clean does.
func File(text string) (string, error) {
	text = strings.TrimPrefix(text, utf8BOM)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && n == 1 {
			line := 1 + strings.Count(text[:i], "\n")
			hint := ""
			if strings.HasPrefix(text, "\xff\xfe") || strings.HasPrefix(text, "\xfe\xff") {
				hint = " (it looks like UTF-16)"
			}
			return "", fmt.Errorf("the text is not UTF-8%s: byte 0x%02x on line %d cannot be read; save it as UTF-8 text", hint, text[i], line)
		}
		i += n
	}
	return Clean(text), nil
}

// Quote quotes s for an error message as %q does. Input longer than max
// characters (runes) is cut at a character boundary, with an ellipsis
// inside the quotes and the full length after them:
// "abc…" (900000 characters).
func Quote(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return strconv.Quote(s)
	}
	end, i := 0, 0
	for end = range s {
		if i == max {
			break
		}
		i++
	}
	return strconv.Quote(s[:end]+"…") + " (" + strconv.Itoa(n) + " characters)"
}
