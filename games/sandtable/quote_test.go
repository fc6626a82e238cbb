package sandtable

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestErrorsClipEchoedInput: an error quotes at most MaxQuoted characters
// of the input it names, clipped at a character boundary, with an
// ellipsis and the input's length; a 900 KB token used to be echoed whole.
func TestErrorsClipEchoedInput(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 900000)
	wide := strings.Repeat("é", 100000) // two bytes each
	head := "sandtable-position 1\nphase main\nto-move south\n"
	parse := func(text string) error {
		_, err := ParsePosition(text)
		return err
	}
	inMain := mustParse(t, head+limitsBase)
	apply := func(action string) error {
		_, err := inMain.Clone().ApplyString(action)
		return err
	}
	for _, c := range []struct {
		name string
		err  error
		n    int
	}{
		{"unknown line", parse(head + long + " 1\n"), 900000},
		{"multi-byte unknown line", parse(head + wide + "\n"), 100000},
		{"piece ID", parse(head + "piece " + long + " a1\n"), 900000},
		{"square", parse(head + "piece SI1 " + wide + "\n"), 100000},
		{"side", parse("sandtable-position 1\nphase main\nto-move " + long + "\n"), 900000},
		{"turn", parse(head + "turn " + long + "\n"), 900000},
		{"layout row", parse("sandtable-position 1\nphase deployment\ndraft south\n123" + long + "\n"), 900003},
		{"deployment command", apply("S " + strings.Repeat("é", 900)), 900},
		{"preset named in Main", apply("S preset " + strings.Repeat("q", 1900)), 1909},
		{"step", apply(strings.Repeat("é", 900)), 900},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("no error")
			}
			msg := c.err.Error()
			if len(msg) > 600 {
				t.Errorf("error is %d bytes long: %.200s...", len(msg), msg)
			}
			if !utf8.ValidString(msg) {
				t.Errorf("error splits a UTF-8 sequence: %q", msg)
			}
			if want := "…\" (" + itoa(c.n) + " characters)"; !strings.Contains(msg, want) {
				t.Errorf("error %q lacks %q", msg, want)
			}
		})
	}
	// short input is quoted whole, as before
	if err := parse(head + "bogus 1\n"); err == nil || !strings.Contains(err.Error(), `unknown line "bogus"`) {
		t.Errorf("short input: %v", err)
	}
	if q := quote(strings.Repeat("é", MaxQuoted)); q != `"`+strings.Repeat("é", MaxQuoted)+`"` {
		t.Errorf("quote of exactly MaxQuoted characters: %s", q)
	}
	if q := quote(strings.Repeat("é", MaxQuoted+1)); q != `"`+strings.Repeat("é", MaxQuoted)+`…" (61 characters)` {
		t.Errorf("quote of MaxQuoted+1 characters: %s", q)
	}
}
