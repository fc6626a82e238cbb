package cli

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCLIErrorsClipEchoedInput: no subcommand echoes a huge argument, flag
// value, file name or line of a file whole (a 900 KB token was echoed
// whole): the message clips it by characters, never splitting a UTF-8
// sequence, with an ellipsis and the length.
func TestCLIErrorsClipEchoedInput(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 900000)
	wide := strings.Repeat("é", 300000)
	spaced := strings.Repeat("a ", 450000)
	good := writePos(t, applyPos)
	badLine := writePos(t, "sandtable-position 1\nphase main\nto-move south\n"+long+" 1\n")
	badPiece := writePos(t, "sandtable-position 1\nphase main\nto-move south\npiece "+wide+" a1\n")
	out := filepath.Join(t.TempDir(), "out.png")
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	apply := []string{"apply", "-game", "sandtable", "-position"}
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"unknown subcommand", []string{long}, 2},
		{"run: unknown flag", []string{"-" + long}, 2},
		{"run: stray argument", []string{"run", long}, 2},
		{"run: config file name", []string{"run", "-config", filepath.Join(t.TempDir(), wide)}, 2},
		{"apply: unreadable action", append(apply, good, "d4-d5", long), 2},
		{"apply: multi-byte action", append(apply, good, wide), 2},
		{"apply: illegal action", append(apply, good, "S preset "+strings.Repeat("q", 1900)), 1},
		{"apply: game", []string{"apply", "-game", long, "-position", good, "d4-d5"}, 2},
		{"apply: position file name", append(apply, long, "d4-d5"), 2},
		{"apply: position line", append(apply, badLine, "d4-d5"), 2},
		{"apply: position piece", append(apply, badPiece, "d4-d5"), 2},
		{"apply: unknown flag", []string{"apply", "-" + long}, 2},
		{"render: game", []string{"render", "-game", long, "-fen", fen, "-out", out}, 2},
		{"render: FEN field", []string{"render", "-game", "chess", "-fen", "8/8/8/8/8/8/8/8 " + long + " - - 0 1", "-out", out}, 2},
		{"render: multi-byte FEN field", []string{"render", "-game", "chess", "-fen", "8/8/8/8/8/8/8/8 " + wide + " - - 0 1", "-out", out}, 2},
		{"render: last", []string{"render", "-game", "chess", "-fen", fen, "-last", long, "-out", out}, 2},
		{"render: view", []string{"render", "-game", "sandtable", "-position", good, "-view", wide, "-out", out}, 2},
		{"render: size", []string{"render", "-game", "chess", "-fen", fen, "-size", long, "-out", out}, 2},
		{"render: stray argument", []string{"render", "-game", "chess", "-fen", fen, "-out", out, long}, 2},
		{"render: out", []string{"render", "-game", "chess", "-fen", fen, "-out", filepath.Join(t.TempDir(), long)}, 2},
		{"render: position line", []string{"render", "-game", "sandtable", "-position", badLine, "-out", out}, 2},
		{"perft: variant", []string{"perft", "-variant", long, "-depth", "1"}, 2},
		{"perft: spaced variant", []string{"perft", "-variant", spaced, "-depth", "1"}, 2},
		{"perft: FEN", []string{"perft", "-fen", "8/8/8/8/8/8/8/8 w - - " + wide + " 1", "-depth", "1"}, 2},
		{"perft: depth", []string{"perft", "-depth", long}, 2},
		{"perft: stray argument", []string{"perft", "-depth", "1", long}, 2},
		{"perft: unknown flag", []string{"perft", "-" + wide}, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := dispatch(c.args, &stdout, &stderr)
			msg := stderr.String()
			if code != c.code {
				t.Errorf("exit %d, want %d: %.300s", code, c.code, msg)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout: %.300s", stdout.String())
			}
			// the usage after a flag error is about 1.5 KB
			if len(msg) > 6000 || msg == "" {
				t.Errorf("stderr is %d bytes: %.300s", len(msg), msg)
			}
			if !utf8.ValidString(msg) {
				t.Errorf("stderr splits a UTF-8 sequence")
			}
			if !strings.Contains(msg, "…") || !strings.Contains(msg, " characters") {
				t.Errorf("stderr does not show the clipping: %.600s", msg)
			}
		})
	}
}

func TestQuoteArgAndClipForeign(t *testing.T) {
	t.Parallel()
	if got := quoteArg("d4-d5"); got != `"d4-d5"` {
		t.Errorf("short argument: %s", got)
	}
	e := strings.Repeat("é", maxEcho)
	if got := quoteArg(e); got != `"`+e+`"` {
		t.Errorf("argument of exactly maxEcho characters clipped")
	}
	if got, want := quoteArg(e+"éé"), `"`+e+`…" (202 characters)`; got != want {
		t.Errorf("quoteArg = %s, want %s", got, want)
	}
	if got := echoArg("p.txt"); got != "p.txt" {
		t.Errorf("echoArg of a short name = %s", got)
	}
	if got := clipForeign("a  short\tmessage: \"with\" words"); got != "a  short\tmessage: \"with\" words" {
		t.Errorf("short message changed: %q", got)
	}
	// a long word from elsewhere: quoted and clipped, its punctuation kept
	if got, want := clipForeign("bad "+e+"é!"+": end"), "bad "+quoteArg(e+"é")+"!: end"; got != want {
		t.Errorf("clipForeign = %q, want %q", got, want)
	}
	// a long %q string from elsewhere, spaces inside: clipped once, whole
	spaced := strings.Repeat("a ", 300)
	if got, want := clipForeign(`unknown variant "`+spaced+`" (expected chess)`), "unknown variant "+quoteArg(spaced)+" (expected chess)"; got != want {
		t.Errorf("clipForeign = %q, want %q", got, want)
	}
	// a known input, bare or quoted, is replaced by its clipped quote
	name := strings.Repeat("n", 300)
	if got, want := clipForeign("open "+name+": file name too long", name), "open "+quoteArg(name)+": file name too long"; got != want {
		t.Errorf("clipForeign = %q, want %q", got, want)
	}
	// clipping what clipForeign wrote changes nothing: nothing is clipped twice
	for _, m := range []string{"bad " + quoteArg(e+"é") + "!: end", "open " + quoteArg(name) + ": x"} {
		if got := clipForeign(m, name); got != m {
			t.Errorf("clipForeign re-clipped %q to %q", m, got)
		}
	}
	if got := clipForeign(strings.Repeat("ab ", 5000)); utf8.RuneCountInString(got) > maxMessage+60 || !strings.HasSuffix(got, "(message of 15000 characters clipped)") {
		t.Errorf("long message: %d characters, ends %q", utf8.RuneCountInString(got), got[len(got)-60:])
	}
}

// TestEchoedInputClippedOnce: an echoed value is clipped once, where it
// enters the message: its quote closes, the length is its true length and
// the rest of the message is intact (a value within 200 characters is
// echoed whole). Each line of stderr was clipped again as a whole, so the
// closing quote and the colon were lost and lengths such as 202 or 203
// appeared.
func TestEchoedInputClippedOnce(t *testing.T) {
	t.Parallel()
	x := strings.Repeat("x", 300)
	s199 := strings.Repeat("S", 199)
	s300 := strings.Repeat("S", 300)
	nines := strings.Repeat("9", 130000)
	good := writePos(t, applyPos)
	out := filepath.Join(t.TempDir(), "out.png")
	longName := filepath.Join(t.TempDir(), x)
	apply := []string{"apply", "-game", "sandtable", "-position", good}
	lengths := regexp.MustCompile(`\((\d+) characters\)`)
	for _, c := range []struct {
		name string
		args []string
		want string // the echo, then what follows it
		n    int    // the true length of the echoed value
	}{
		{"apply: 199-character action", append(apply, s199), `action 1 "` + s199 + `": `, 199},
		{"apply: 300-character action", append(apply, s300), `action 1 ` + quoteArg(s300) + `: `, 300},
		{"apply: long position name", []string{"apply", "-game", "sandtable", "-position", longName, "d4-d5"}, quoteArg(longName) + ": ", utf8.RuneCountInString(longName)},
		{"render: game", []string{"render", "-game", x, "-fen", "8/8/8/8/8/8/8/8 w - - 0 1", "-out", out}, "-game " + quoteArg(x) + ": want", 300},
		{"render: long position name", []string{"render", "-game", "sandtable", "-position", longName, "-out", out}, quoteArg(longName) + ": ", utf8.RuneCountInString(longName)},
		{"perft: variant", []string{"perft", "-variant", x, "-depth", "1"}, "unknown variant " + quoteArg(x) + " (expected", 300},
		{"perft: depth", []string{"perft", "-depth", x}, "invalid value " + quoteArg(x) + " for flag -depth", 300},
		{"perft: depth=", []string{"perft", "-depth=" + x}, "invalid value " + quoteArg(x) + " for flag -depth", 300},
		{"perft: FEN field", []string{"perft", "-fen", "8/8/8/8/8/8/8/8 w - - 0 " + nines, "-depth", "1"}, quoteArg(nines), 130000},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := dispatch(c.args, &stdout, &stderr); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			msg := stderr.String()
			if !strings.Contains(msg, c.want) {
				t.Errorf("stderr does not hold %.80q…%.40q:\n%.700s", c.want, c.want[max(0, len(c.want)-40):], msg)
			}
			for _, m := range lengths.FindAllStringSubmatch(msg, -1) {
				if m[1] != strconv.Itoa(c.n) {
					t.Errorf("stderr gives a length of %s characters, want only %d: %.700s", m[1], c.n, msg)
				}
			}
		})
	}
}
