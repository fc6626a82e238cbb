package bot_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestLongMultiByteNamesFitDiscordLimits: a Team Chess game between
// players whose names are 32 characters (Discord's most) of emoji, CJK and
// accented letters names its threads with more than 100 characters. The
// bot cuts each thread name by characters to Discord's 100, never inside a
// character (the fake refuses invalid UTF-8 and the U+FFFD that
// encoding/json sends for it), and the lobby's menus, which repeat the
// names, fit too. Thread names used to be cut at 100 bytes.
func TestLongMultiByteNamesFitDiscordLimits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	names := []string{
		"龍の騎士" + strings.Repeat("🐉", 28),
		"Zoë " + strings.Repeat("象", 28),
		strings.Repeat("👩\u200d🚀", 10) + "🇫🇷",
		"Ελένη " + strings.Repeat("é", 26),
		"Σ" + strings.Repeat("한", 31),
		"Ω" + strings.Repeat("ñ", 31),
	}
	var us []*discordsim.User
	for _, n := range names {
		require.Equal(t, 32, utf8.RuneCountInString(n))
		us = append(us, h.srv.User(n))
	}
	white, black := []*discordsim.User{us[0], us[1], us[4]}, []*discordsim.User{us[2], us[3], us[5]}
	tb := h.tcStart("", white, black)

	full := map[string]string{
		tb.pub.ID:           "Team Chess · " + names[0] + ", " + names[1] + ", " + names[4] + " vs " + names[2] + ", " + names[3] + ", " + names[5],
		tb.team[tcWhite].ID: "Team Chess · White team: " + names[0] + " commands (" + names[0] + ", " + names[1] + ", " + names[4] + ")",
		tb.team[tcBlack].ID: "Team Chess · Black team: " + names[2] + " commands (" + names[2] + ", " + names[3] + ", " + names[5] + ")",
	}
	for id, want := range full {
		require.Greater(t, utf8.RuneCountInString(want), 100, "the test needs a name over Discord's limit")
		got := h.srv.ChannelByID(id).Name
		require.True(t, utf8.ValidString(got), "thread name %q", got)
		require.NotContains(t, got, "\ufffd")
		n := utf8.RuneCountInString(got)
		require.LessOrEqual(t, n, 100, "thread name %q", got)
		require.GreaterOrEqual(t, n, 90, "cut by characters, not bytes: %q", got)
		require.True(t, strings.HasSuffix(got, "…"), got)
		require.True(t, strings.HasPrefix(want, strings.TrimSuffix(got, "…")), "%q is the start of %q", got, want)
	}
	for _, c := range h.srv.Calls() {
		require.NotEqual(t, 400, c.Status, "Discord refused a request: %v", c)
	}
}
