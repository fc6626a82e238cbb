// Package duration reads and writes durations as players and operators
// type them: Go durations with a day unit ("90m", "24h", "3d", "1d12h").
// The bot's configuration and its commands share it.
package duration

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Parse reads a duration as a player or an operator types it: a Go
// duration ("90m", "1h30m", "24h") or a whole number of days ("3d"), or a
// mix ("1d12h"). It returns an error naming the input when it cannot.
func Parse(s string) (time.Duration, error) {
	in := strings.ToLower(strings.TrimSpace(s))
	if in == "" {
		return 0, fmt.Errorf("empty duration: write one like 30m, 24h or 3d")
	}
	var days time.Duration
	if i := strings.IndexByte(in, 'd'); i >= 0 {
		n, err := strconv.Atoi(in[:i])
		if err != nil || n < 0 || n > 365 {
			return 0, fmt.Errorf("bad duration %q: write one like 30m, 24h or 3d", s)
		}
		days = time.Duration(n) * 24 * time.Hour
		in = in[i+1:]
		if in == "" {
			return days, nil
		}
	}
	d, err := time.ParseDuration(in)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("bad duration %q: write one like 30m, 24h or 3d", s)
	}
	return days + d, nil
}

// Format writes d the way Parse reads it, in the largest
// whole units: "3d", "1d12h", "90m" becomes "1h30m".
func Format(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	var b strings.Builder
	if days := d / (24 * time.Hour); days > 0 {
		fmt.Fprintf(&b, "%dd", days)
		d -= days * 24 * time.Hour
	}
	if h := d / time.Hour; h > 0 {
		fmt.Fprintf(&b, "%dh", h)
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		fmt.Fprintf(&b, "%dm", m)
		d -= m * time.Minute
	}
	if s := d / time.Second; s > 0 {
		fmt.Fprintf(&b, "%ds", s)
	}
	if b.Len() == 0 {
		return d.String()
	}
	return b.String()
}
