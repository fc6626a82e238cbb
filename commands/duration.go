package commands

import (
	"time"

	"sandtable/internal/duration"
)

// MoveTimeOption reads an optional per-move time limit, defaulting to the
// server's (its settings' move time) or else the configured one; limits
// outside 1 minute to 30 days are refused, and every refusal names that
// range.
func (a *App) MoveTimeOption(req *Request, name string) (time.Duration, error) {
	s := req.Str(name)
	if s == "" {
		gs, err := a.guildSettings(req)
		if err != nil {
			return 0, err
		}
		if gs.MoveTime > 0 {
			return gs.MoveTime, nil
		}
		return a.Settings.MoveTime, nil
	}
	d, err := duration.Parse(s)
	if err != nil || d < time.Minute || d > 30*24*time.Hour {
		return 0, Errorf("%s must be a time between 1m and 30d, written like 30m, 24h or 3d; %s is not.", name, QuoteInput(s))
	}
	return d, nil
}
