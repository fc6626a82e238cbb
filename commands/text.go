package commands

import (
	"fmt"
	"strings"
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
