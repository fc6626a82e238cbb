package sandtable

import (
	"strings"
	"testing"
)

// TestParseActionIgnoresInvisibleCharacters: actions are read without the
// invisible characters the echo removes (internal/playertext).
func TestParseActionIgnoresInvisibleCharacters(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Ma11\u200b":             "Ma11",
		"\u200bMf5":              "Mf5",
		"d4\u2060-d5,\x00 e4-e5": "d4-d5 e4-e5",
		"SI\u200d12-c4":          "SI12-c4",
		"d4-d5\u00a0e4-e5":       "d4-d5 e4-e5",
	} {
		a, err := ParseAction(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		if a.String() != want {
			t.Errorf("%q read as %q, want %q", in, a.String(), want)
		}
	}
	if sq, err := ParseSquare("a11\u200b"); err != nil || sq.String() != "a11" {
		t.Errorf("ParseSquare: %v %v", sq, err)
	}
}

// TestLayoutAndPositionFiles: a UTF-8 byte-order mark at the start of a
// layout or position file is ignored; other bytes that are not UTF-8 are
// reported as such, not as a misread row.
func TestLayoutAndPositionFiles(t *testing.T) {
	t.Parallel()
	d, _ := Preset(South, "skirmish")
	e, err := ParseLayout(South, "\ufeff"+d.Layout())
	if err != nil || e.Layout() != d.Layout() {
		t.Fatalf("layout with a BOM: %v", err)
	}
	e, err = ParseLayout(South, strings.ReplaceAll(d.Layout(), "\n", "\u200b\r\n"))
	if err != nil || e.Layout() != d.Layout() {
		t.Fatalf("layout with zero-width spaces and CRLF: %v", err)
	}
	for _, bad := range []string{"\xff\xfe\x00\x019 II", "\xff\xfe9\x00 \x00I\x00", "9 I\xe9"} {
		_, err := ParseLayout(South, bad)
		if err == nil || !strings.Contains(err.Error(), "not UTF-8") || strings.Contains(err.Error(), "rank number") {
			t.Errorf("%q: %v, want a not-UTF-8 error", bad, err)
		}
	}
	text := startRandomGame(t, 7).Format()
	if _, err := ParsePosition(text); err != nil {
		t.Fatal(err)
	}
	if _, err := ParsePosition("\ufeff" + text); err != nil {
		t.Errorf("position with a BOM: %v", err)
	}
	if _, err := ParsePosition("\xff\xfe" + text); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("position in UTF-16: %v", err)
	}
}
