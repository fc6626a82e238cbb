package commands

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestQuoteInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"e4", "`e4`"},
		{"  d4-d5\n e4-e5\t", "`d4-d5 e4-e5`"},
		{"a`b", "`aˋb`"},
		{"<@123> @everyone", "`<@\u200b123> @\u200beveryone`"},
		{"x\x00\u202ey\U000E0001", "`xy`"},
		{"\x00\n", "(nothing)"},
		{strings.Repeat("é", 150), "`" + strings.Repeat("é", 99) + "…`"},
	} {
		require.Equal(t, c.want, QuoteInput(c.in), "%q", c.in)
	}
}

func TestEscapeText(t *testing.T) {
	t.Parallel()
	require.Equal(t, `\*\*b\*\* \_i\_ \~\~s\~\~ \|\|x\|\| \`+"`c\\`"+` \# h \> q \[l\](u) \<@`+"\u200b"+`1\> @`+"\u200b"+`here a\\b`,
		EscapeText("**b** _i_ ~~s~~ ||x|| `c` # h > q [l](u) <@1> @here a\\b", 0))
	require.Equal(t, "one two", EscapeText("one\ntwo\x00", 0))
	require.Equal(t, "abc…", EscapeText("abcdef", 4))
	require.Equal(t, "bob\\_the\\_builder", EscapeText("bob_the_builder", 0), "names too")
}

func TestEngineText(t *testing.T) {
	t.Parallel()
	require.Equal(t, "`<@\u200b1>` is not a move: write it in SAN (e4)", EngineText(`"<@1>" is not a move: write it in SAN (e4)`))
	long := EngineText(`"` + strings.Repeat("z", 190) + `\x00" is too long to be a move`)
	require.Equal(t, 99, strings.Count(long, "z"))
	require.Equal(t, "the piece \\*x\\* on e4", EngineText("the piece *x* on e4"))
}

// TestClip: text is cut by characters (code points) to at most max, ending
// with "…", never into invalid UTF-8 and never inside a symbol made of
// several code points (emoji sequences, flags, combining accents).
func TestClip(t *testing.T) {
	t.Parallel()
	family := "👨\u200d👩\u200d👧" // one symbol, five code points
	for _, c := range []struct {
		name, in string
		max      int
		want     string
	}{
		{"short", "abc", 5, "abc"},
		{"no limit", strings.Repeat("x", 5000), 0, strings.Repeat("x", 5000)},
		{"ascii", "abcdef", 4, "abc…"},
		{"emoji at the limit", strings.Repeat("🐉", 100), 100, strings.Repeat("🐉", 100)},
		{"emoji over the limit", strings.Repeat("🐉", 101), 100, strings.Repeat("🐉", 99) + "…"},
		{"CJK over the limit", strings.Repeat("象", 101), 100, strings.Repeat("象", 99) + "…"},
		{"mixed widths", "a" + strings.Repeat("é象🐉", 40), 100, "a" + strings.Repeat("é象🐉", 32) + "é象…"},
		{"a joined emoji is not split", strings.Repeat("x", 95) + family + "yy", 100, strings.Repeat("x", 95) + "…"},
		{"nor after a joiner", strings.Repeat("x", 97) + family, 100, strings.Repeat("x", 97) + "…"},
		{"a combining accent stays", strings.Repeat("x", 98) + "e\u0301z", 100, strings.Repeat("x", 98) + "…"},
		{"a skin tone stays", strings.Repeat("x", 98) + "👍\U0001F3FDz", 100, strings.Repeat("x", 98) + "…"},
		{"a flag is not halved", strings.Repeat("x", 98) + "🇫🇷🇩🇪", 100, strings.Repeat("x", 98) + "…"},
		{"whole flags are kept", strings.Repeat("x", 97) + "🇫🇷🇩🇪", 100, strings.Repeat("x", 97) + "🇫🇷…"},
		{"one long symbol", "e" + strings.Repeat("\u0301", 10), 4, "e\u0301\u0301…"},
	} {
		got := Clip(c.in, c.max)
		require.Equal(t, c.want, got, c.name)
		require.True(t, utf8.ValidString(got), c.name)
		if c.max > 0 {
			require.LessOrEqual(t, utf8.RuneCountInString(got), c.max, c.name)
		}
	}
}

// TestTextCutsByCharacters: the helpers that shorten text for Discord
// (select labels, board logs, echoes) count characters and keep UTF-8
// valid.
func TestTextCutsByCharacters(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("象", 60)
	require.Equal(t, strings.Repeat("象", 40)+"…", Clip(name, 41))
	require.Equal(t, "short", Clip("short", 41))

	lines := []string{strings.Repeat("🐉", 50), strings.Repeat("é", 30)}
	require.Equal(t, strings.Repeat("🐉", 50)+"\n"+strings.Repeat("é", 30), ClipLines(lines, 81), "fits in characters")
	got := ClipLines([]string{strings.Repeat("🐉", 90)}, 50)
	require.True(t, utf8.ValidString(got))
	require.Equal(t, 50, utf8.RuneCountInString(got))
	require.Equal(t, "…\n"+strings.Repeat("é", 30), ClipLines(lines, 40), "the oldest line goes first")
}
