package commands

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestQuoteInput(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"e4", "`e4`"},
		{"  d4-d5\n e4-e5\t", "`d4-d5 e4-e5`"},
		{"a`b", "`aˋb`"},
		{"<@123> @everyone", "`<@\u200b123> @\u200beveryone`"},
		{"x\x00\u202ey\U000E0001", "`xy`"},
		{"\x00\n", "(nothing)"},
		{strings.Repeat("é", 150), "`" + strings.Repeat("é", 99) + "…`"},
	} {
		require.Equal(t, c.want, quoteInput(c.in), "%q", c.in)
	}
}

func TestEscapeText(t *testing.T) {
	require.Equal(t, `\*\*b\*\* \_i\_ \~\~s\~\~ \|\|x\|\| \`+"`c\\`"+` \# h \> q \[l\](u) \<@`+"\u200b"+`1\> @`+"\u200b"+`here a\\b`,
		escapeText("**b** _i_ ~~s~~ ||x|| `c` # h > q [l](u) <@1> @here a\\b", 0))
	require.Equal(t, "one two", escapeText("one\ntwo\x00", 0))
	require.Equal(t, "abc…", escapeText("abcdef", 4))
	require.Equal(t, "bob\\_the\\_builder", escapeText("bob_the_builder", 0), "names too")
}

func TestEngineText(t *testing.T) {
	require.Equal(t, "`<@\u200b1>` is not a move: write it in SAN (e4)", engineText(`"<@1>" is not a move: write it in SAN (e4)`))
	long := engineText(`"` + strings.Repeat("z", 190) + `\x00" is too long to be a move`)
	require.Equal(t, 99, strings.Count(long, "z"))
	require.Equal(t, "the piece \\*x\\* on e4", engineText("the piece *x* on e4"))
}
