package commands

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Plural writes n with the noun one or many: "1 capture", "3 captures".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ListAtMost joins items with commas, at most max of them, then says how
// many more there are.
func ListAtMost(items []string, max int) string {
	if len(items) <= max {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:max], ", ") + fmt.Sprintf(" and %d more", len(items)-max)
}

// ClipLines joins lines, dropping the oldest ones to stay within max
// characters (a log shown in a card).
func ClipLines(lines []string, max int) string {
	s := strings.Join(lines, "\n")
	for utf8.RuneCountInString(s) > max && len(lines) > 1 {
		lines = lines[1:]
		s = "…\n" + strings.Join(lines, "\n")
	}
	return Clip(s, max)
}

// maxChoiceLen is Discord's limit on an autocomplete choice's name and
// value (100 characters).
const maxChoiceLen = 100
