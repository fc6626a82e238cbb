package commands

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTimeLeft: the reminder says the time left to the minute, in at most
// two units.
func TestTimeLeft(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		6 * time.Hour:                   "6 hours",
		6*time.Hour - 4*time.Second:     "6 hours", // a sweep a few seconds late
		24 * time.Hour:                  "1 day",
		30 * time.Hour:                  "1 day 6 hours",
		50*time.Hour + 20*time.Minute:   "2 days 2 hours",
		150 * time.Minute:               "2 hours 30 minutes",
		61 * time.Minute:                "1 hour 1 minute",
		22*time.Minute + 30*time.Second: "23 minutes",
		time.Minute:                     "1 minute",
		29 * time.Second:                "less than a minute",
		-time.Second:                    "less than a minute",
	} {
		require.Equal(t, want, timeLeft(d), "%s", d)
	}
	require.Equal(t, "", andList(nil))
	require.Equal(t, "a", andList([]string{"a"}))
	require.Equal(t, "a and b", andList([]string{"a", "b"}))
	require.Equal(t, "a, b and c", andList([]string{"a", "b", "c"}))
}

// TestNextRemind: the reminder falls at its share of a new run of the
// clock, stays (or stays sent) while the run goes on, and is off outside
// (0, 1) or without a clock.
func TestNextRemind(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	c := Clock{Rule: PerMove, Key: "1", Period: 24 * time.Hour}
	d := now.Add(24 * time.Hour)
	require.Equal(t, now.Add(18*time.Hour), nextRemind(0.75, nil, c, time.Time{}, d, time.Time{}))
	prev := Clock{Rule: PerMove, Key: "0", Period: 24 * time.Hour}
	require.Equal(t, now.Add(18*time.Hour), nextRemind(0.75, &prev, c, now, d, now.Add(-time.Hour)), "a new key: a new reminder")
	require.Equal(t, now.Add(12*time.Hour), nextRemind(0.5, &prev, c, now, d, time.Time{}))
	same := c
	require.True(t, nextRemind(0.75, &same, c, d, d, time.Time{}).IsZero(), "the same run, its reminder sent: not again")
	require.Equal(t, now.Add(time.Hour), nextRemind(0.75, &same, c, d, d, now.Add(time.Hour)), "the same run: kept")
	for _, share := range []float64{0, -1, 1, 1.5} {
		require.True(t, nextRemind(share, nil, c, time.Time{}, d, time.Time{}).IsZero(), "%v is off", share)
	}
	require.True(t, nextRemind(0.75, nil, c, time.Time{}, time.Time{}, time.Time{}).IsZero(), "no clock, no reminder")
}
