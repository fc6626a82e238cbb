package playertext

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Nf3":                           "Nf3",
		"Nf3\u200b":                     "Nf3",
		"\u200bNf3":                     "Nf3",
		"N\x00f3":                       "Nf3",
		"N\u200c\u200d\u2060f3":         "Nf3",
		"\ufeffe4":                      "e4",
		"\u202ee4\u202c \u2066d5\u2069": "e4 d5",
		"a\x7f\u0085b":                  "a\u0085b",  // DEL removed; NEL is a line break, kept as white space
		"Nf3\u00a0":                     "Nf3\u00a0", // a no-break space stays white space
		"place T c3\n\tmove a-b":        "place T c3\n\tmove a-b",
		"x\xffy\ufffd":                  "xy",
		"Ma11\U000E0041":                "Ma11",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTextKeepsEmojiSequences: joiners and tag characters inside emoji
// sequences stay, so that 👩‍💻 is not posted as 👩💻.
func TestTextKeepsEmojiSequences(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"👩\u200d💻",       // woman technologist
		"🏳\ufe0f\u200d🌈", // rainbow flag
		"🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F", // flag of Scotland
		"👨\u200d👩\u200d👧\u200d👦",                                        // family
		"👍🏽 ❤\ufe0f 1\ufe0f\u20e3 🇫🇷",                                   // skin tone, variation selector, keycap, flag
		"🧑🏽\u200d🚀 go",                                                  // skin tone before a joiner
		"gg 👩\u200d💻 🏳\ufe0f\u200d🌈 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F!",
	} {
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %q, want it unchanged", s, got)
		}
	}
}

// TestTextRemovesSpoofing: outside emoji sequences the invisible
// characters go, as Clean removes them.
func TestTextRemovesSpoofing(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"adm\u200bin":           "admin",      // zero-width space between letters
		"bob\u202eslx.exe":      "bobslx.exe", // bidi override in a name
		"\u2066alice\u2069":     "alice",
		"a\u200db":              "ab", // a joiner between letters
		"👩\u200db":              "👩b", // a joiner before a letter
		"a\u200d💻":              "a💻", // a joiner after a letter
		"👩\u200d":               "👩",  // a trailing joiner
		"x\U000E0067\U000E007F": "x",  // tags after a letter
		"🏴\U000E0067":           "🏴",  // a tag not followed by a tag or cancel tag
		"\U000E007F":            "",   // a lone cancel tag
		"💻\u200b\u200d💻":        "💻💻", // ZWSP is never part of a sequence
		"a\x00b\ufeffc":         "abc",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFile(t *testing.T) {
	t.Parallel()
	got, err := File("\ufeff# layout\r\n6 T...\u200b\n")
	if err != nil || got != "# layout\r\n6 T...\n" {
		t.Errorf("a UTF-8 BOM is dropped: got %q, %v", got, err)
	}
	for _, bad := range []string{"\xff\xfe\x00\x019 II", "# ok\n6 T\xe9\n"} {
		_, err := File(bad)
		if err == nil || !strings.Contains(err.Error(), "not UTF-8") {
			t.Errorf("File(%q): want a not-UTF-8 error, got %v", bad, err)
		}
	}
	if _, err := File("# ok\n6 T\xe9\n"); err == nil || !strings.Contains(err.Error(), "0xe9 on line 2") {
		t.Errorf("the error names the byte and its line: %v", err)
	}
}

func TestQuote(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		max  int
		want string
	}{
		{"abc", 3, `"abc"`},
		{"abc", 2, `"ab…" (3 characters)`},
		{"é€😀x", 2, `"é€…" (4 characters)`}, // cut by characters, never inside one
		{"a\nb", 10, `"a\nb"`},
	} {
		if got := Quote(c.in, c.max); got != c.want {
			t.Errorf("Quote(%q, %d) = %s, want %s", c.in, c.max, got, c.want)
		}
	}
}
