package commands

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMoveTimeNamesTheRange: every refused move_time names the allowed
// range, also one too large to be read as a duration at all.
func TestMoveTimeNamesTheRange(t *testing.T) {
	a, _ := testApp(t)
	for _, in := range []string{"99999d", "soon", "10s", "31d", "-5m"} {
		_, err := a.MoveTimeOption(cmd(alice, "survival", "challenge", map[string]string{"move_time": in}), "move_time")
		msg := userMsg(t, err)
		require.Contains(t, msg, "between 1m and 30d", in)
		require.Contains(t, msg, "`"+in+"`", in)
	}
	d, err := a.MoveTimeOption(cmd(alice, "survival", "challenge", map[string]string{"move_time": "30d"}), "move_time")
	require.NoError(t, err)
	require.Equal(t, "720h0m0s", d.String())
}
