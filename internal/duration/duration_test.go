package duration

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseAndFormat(t *testing.T) {
	t.Parallel()
	good := map[string]time.Duration{
		"24h": 24 * time.Hour, "3d": 72 * time.Hour, "1d12h": 36 * time.Hour,
		" 90m ": 90 * time.Minute, "2D": 48 * time.Hour, "45s": 45 * time.Second,
	}
	for in, want := range good {
		got, err := Parse(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
		back, err := Parse(Format(got))
		require.NoError(t, err)
		require.Equal(t, got, back, "Format round-trips %q", in)
	}
	for _, in := range []string{"", "soon", "-5m", "d", "999d", "3x", "1d-2h"} {
		_, err := Parse(in)
		require.Error(t, err, in)
	}
	require.Equal(t, "1h30m", Format(90*time.Minute))
	require.Equal(t, "3d", Format(72*time.Hour))
}
