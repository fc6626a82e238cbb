package commands

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/playertext"
)

// TestEchoIsWhatIsRead: the echo of a move shows exactly the characters
// the readers read (playertext.Clean), for every invisible character.
func TestEchoIsWhatIsRead(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"Nf3\u200b", "\u200bNf3", "N\x00f3", "Ma11\u200b", "e4\u202e", "\ufeffd5\u2066", "a\u200db"} {
		require.Equal(t, "`"+strings.TrimSpace(playertext.Clean(in))+"`", QuoteInput(in), "%q", in)
	}
}

// TestEscapeTextKeepsEmojiSequences: comments and names keep joined
// emoji (ZWJ sequences, tag flags, variation selectors) but lose lone
// zero-width spaces, bidi controls and joiners between letters.
func TestEscapeTextKeepsEmojiSequences(t *testing.T) {
	t.Parallel()
	seq := "👩\u200d💻 🏳\ufe0f\u200d🌈 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F 👨\u200d👩\u200d👧\u200d👦"
	require.Equal(t, seq, EscapeText(seq, 0))
	require.Equal(t, "admin", EscapeText("ad\u200bmin", 0))
	require.Equal(t, "bobgnp.exe", EscapeText("bob\u202egnp.exe", 0))
	require.Equal(t, "alice", EscapeText("\u2066al\u200dice\u2069", 0))
	require.Equal(t, "👩💻", EscapeText("👩\u200b💻", 0), "a zero-width space is not a joiner")
}

// TestRequestReadersClean: the option and field getters readers use return
// the text without invisible characters; free text keeps emoji sequences.
func TestRequestReadersClean(t *testing.T) {
	t.Parallel()
	req := &Request{
		Options: map[string]Option{"move": {String: " Nf3\u200b "}, "comment": {String: "👩\u200d💻 ad\u200bmin"}},
		Fields:  map[string]string{"spotter": "SI1\u200b", "target": "d\u20604"},
	}
	require.Equal(t, "Nf3", req.Str("move"))
	require.Equal(t, " Nf3 ", req.Typed("move"))
	require.Equal(t, "👩\u200d💻 admin", req.Text("comment"))
	require.Equal(t, "SI1", req.Field("spotter"))
}
