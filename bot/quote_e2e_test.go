package bot_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// hostile is input meant to ping, format and smuggle control characters,
// and longer than an echo may be.
func hostile(target *discordsim.User) string {
	return "<@" + target.ID + "> @everyone **big** ||s|| `x` # [l](http://x)\x00\u202e" + strings.Repeat("z", 110)
}

// requireQuotedSafely asserts that text repeats none of hostile's effects:
// no mention of target, no @everyone, no control character, no markdown
// left active, and at most 100 of its characters.
func requireQuotedSafely(t *testing.T, text string, target *discordsim.User) {
	t.Helper()
	require.NotContains(t, text, "<@"+target.ID+">", "a mention is repeated as is")
	require.NotContains(t, text, "@everyone")
	require.NotContains(t, text, "\x00")
	require.NotContains(t, text, "\u202e")
	plain := regexp.MustCompile("`[^`]*`").ReplaceAllString(text, "") // code spans show as typed
	require.NotContains(t, plain, "**big**", "markdown is repeated as is")
	require.NotContains(t, plain, "||s||", "markdown is repeated as is")
	require.Less(t, strings.Count(text, "z"), 100, "the echo is clipped")
	require.Contains(t, text, "…")
}

// TestPlayerInputIsQuotedSafely: wherever the bot repeats what a player
// typed (a refused move in all three games, a refused deployment line, a
// suggestion's comment), mentions cannot ping, markdown does not render,
// control characters are gone and long input is clipped.
func TestPlayerInputIsQuotedSafely(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")

	t.Run("survival move", func(t *testing.T) {
		thread := h.survivalGame(alice, bob)
		m := h.reply(alice, thread.ID, "move", discordsim.Opt("move", hostile(bob)))
		text := mustBeEphemeral(t, m, alice)
		require.Contains(t, text, "is not a legal move")
		requireQuotedSafely(t, text, bob)
	})
	t.Run("sandtable move and deployment line", func(t *testing.T) {
		g := h.sandStart(alice, bob)
		m := h.reply(alice, g.thread.ID, "sandtable deploy", discordsim.Opt("edit", "place T c3; "+hostile(bob)))
		text := mustBeEphemeral(t, m, alice)
		require.Contains(t, text, "Line 2 (")
		requireQuotedSafely(t, text, bob)
		require.NoError(t, h.loadSandPosition(g.id, draftPosition))
		require.Equal(t, sandtable.PhaseMain, g.pos().Phase())
		text = g.refused(alice, "e4-e5 "+hostile(bob))
		require.Contains(t, text, "cannot be read")
		requireQuotedSafely(t, text, bob)
	})
	t.Run("team chess move and suggestion", func(t *testing.T) {
		tb := h.tcStart("", []*discordsim.User{alice, bob}, []*discordsim.User{carol})
		text := tb.refused(alice, tb.pub, "move", discordsim.Opt("move", hostile(carol)))
		require.Contains(t, text, "is not a legal move")
		requireQuotedSafely(t, text, carol)

		comment := "<@" + carol.ID + "> **look** @everyone ||spoiler|| # big\x00"
		m := tb.refused(bob, tb.pub, "suggest", discordsim.Opt("move", "e4"), discordsim.Opt("comment", comment))
		require.Contains(t, m, "posted in your team thread")
		s := h.lastPublic(tb.team[tcWhite].ID).Content
		require.True(t, strings.HasPrefix(s, "💡 **bob** suggests **e4** to "+alice.Mention()+".\n> "), s)
		comment = s[strings.Index(s, "\n> ")+3:]
		require.NotContains(t, comment, "<@"+carol.ID+">")
		require.NotContains(t, comment, "@everyone")
		require.NotContains(t, comment, "\x00")
		require.Contains(t, comment, `\*\*look\*\*`)
		require.Contains(t, comment, `\|\|spoiler\|\|`)
		require.Contains(t, comment, `\# big`)
	})
}
