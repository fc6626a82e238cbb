package commands

import "unicode/utf8"

// clipRunes shortens s to at most max characters (Unicode code points),
// ending with "…" when it cut.
func clipRunes(s string, max int) string {
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}
