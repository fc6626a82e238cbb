package commands_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
)

// TestParseTimeControl: minutes+seconds from 3+0 to 180+180; anything
// else is refused naming the form.
func TestParseTimeControl(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]commands.TimeControl{
		"3+0":      {Base: 3 * time.Minute},
		"10+5":     {Base: 10 * time.Minute, Inc: 5 * time.Second},
		" 180+180": {Base: 180 * time.Minute, Inc: 180 * time.Second},
	} {
		tc, err := commands.ParseTimeControl(text)
		require.NoError(t, err, text)
		require.Equal(t, want, tc, text)
	}
	for _, bad := range []string{"", "5", "2+59", "181+0", "5+181", "5+3+1", "5.5+3", "five+3", "-5+3", "5+-3", "5m+3s", "99999999999999999999+1"} {
		_, err := commands.ParseTimeControl(bad)
		require.Error(t, err, bad)
		require.Contains(t, err.Error(), "minutes+seconds, e.g. 10+5, from 3+0 to 180+180", bad)
	}
	tc := commands.TimeControl{Base: 5 * time.Minute, Inc: 3 * time.Second}
	require.Equal(t, "5+3", tc.String())
	require.Equal(t, "300+3", tc.PGN())
	require.Equal(t, "0:09:58", commands.PGNClock(9*time.Minute+58*time.Second+900*time.Millisecond))
	require.Equal(t, "9:58", commands.ClockText(9*time.Minute+58*time.Second))
	require.Equal(t, "1:02:03", commands.ClockText(time.Hour+2*time.Minute+3*time.Second))
	require.Equal(t, "0:00", commands.ClockText(-time.Second))
}
