package commands

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Fischer clocks (issue 25): each side has its own time for the whole game
// and gains an increment after each of its moves. A game keeps its clocks
// in its own state; the framework's deadline is the remaining time of the
// side to move (Clock.Rule Fischer, Clock.Period that remaining time, a new
// Key each move), so the flag falls at the exact moment, downtime is
// credited like any deadline (the store's clock offset) and a server
// manager's extension adds to the side to move's clock.

// TimeControl is a Fischer time control: Base for each side's whole game,
// Inc added after each of its moves.
type TimeControl struct {
	Base time.Duration `json:"base"`
	Inc  time.Duration `json:"inc"`
}

// The range of the clock option: a faster game is not playable over
// Discord's round trips.
const (
	minClockBase = 3 * time.Minute
	maxClockBase = 180 * time.Minute
	maxClockInc  = 180 * time.Second
)

// clockForm names the option's form, in every refusal.
const clockForm = "written minutes+seconds, e.g. 10+5, from 3+0 to 180+180"

// ParseTimeControl reads "<minutes>+<seconds>" (3+0 .. 180+180).
func ParseTimeControl(text string) (TimeControl, error) {
	refuse := func() (TimeControl, error) {
		return TimeControl{}, Errorf("clock must be a Fischer clock %s; %s is not.", clockForm, QuoteInput(text))
	}
	m, s, ok := strings.Cut(strings.TrimSpace(text), "+")
	if !ok {
		return refuse()
	}
	mins, err1 := strconv.Atoi(strings.TrimSpace(m))
	secs, err2 := strconv.Atoi(strings.TrimSpace(s))
	if err1 != nil || err2 != nil || mins < 0 || secs < 0 || mins > 100000 || secs > 100000 {
		return refuse()
	}
	tc := TimeControl{Base: time.Duration(mins) * time.Minute, Inc: time.Duration(secs) * time.Second}
	if tc.Base < minClockBase || tc.Base > maxClockBase || tc.Inc > maxClockInc {
		return refuse()
	}
	return tc, nil
}

// ClockOption reads the optional clock option name of req: given, or
// else the server's default clock when the per-move time option moveTime
// is not given either (ok false: no clock, per-move deadlines). It refuses
// a clock given with moveTime.
func (a *App) ClockOption(req *Request, name, moveTime string) (tc TimeControl, ok bool, err error) {
	text := req.Str(name)
	if text == "" {
		if req.Str(moveTime) != "" {
			return TimeControl{}, false, nil
		}
		gs, err := a.guildSettings(req)
		if err != nil || gs.Clock == nil {
			return TimeControl{}, false, err
		}
		return *gs.Clock, true, nil
	}
	if req.Str(moveTime) != "" {
		return TimeControl{}, false, Errorf("Give either %s (a Fischer clock for the whole game) or %s (a time for each move), not both.", name, moveTime)
	}
	tc, err = ParseTimeControl(text)
	return tc, err == nil, err
}

// String is the option's form, "10+5".
func (tc TimeControl) String() string {
	return fmt.Sprintf("%d+%d", int(tc.Base/time.Minute), int(tc.Inc/time.Second))
}

// PGN is the PGN TimeControl tag's value, in seconds: "600+5".
func (tc TimeControl) PGN() string {
	return fmt.Sprintf("%d+%d", int(tc.Base/time.Second), int(tc.Inc/time.Second))
}

// Describe says the time control for people.
func (tc TimeControl) Describe() string {
	return fmt.Sprintf("%s Fischer clock (%s each, %s added after each move)", tc.String(),
		Plural(int(tc.Base/time.Minute), "minute", "minutes"), Plural(int(tc.Inc/time.Second), "second", "seconds"))
}

// ClockText is a frozen clock as players read it: m:ss, or h:mm:ss from an
// hour (rounded down to the second; never negative).
func ClockText(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// PGNClock is a clock as a PGN %clk comment says it: h:mm:ss.
func PGNClock(d time.Duration) string {
	d = max(d, 0).Truncate(time.Second)
	return fmt.Sprintf("%d:%02d:%02d", int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second))
}
