package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestCLIErrorsClipEchoedInput: no subcommand echoes a huge argument, flag
// value, file name or line of a file whole (a 900 KB token was echoed
// whole): the message clips it by characters, never splitting a UTF-8
// sequence, with an ellipsis and the length.
func TestCLIErrorsClipEchoedInput(t *testing.T) {
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

func TestQuoteArgAndClipMessage(t *testing.T) {
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
	if got := clipMessage("a  short\tmessage: \"with\" words"); got != "a  short\tmessage: \"with\" words" {
		t.Errorf("short message changed: %q", got)
	}
	if got, want := clipMessage("bad "+e+"é!"+" end"), "bad "+e+"… (202 characters) end"; got != want {
		t.Errorf("clipMessage = %q, want %q", got, want)
	}
	if got := clipMessage(strings.Repeat("ab ", 5000)); utf8.RuneCountInString(got) > maxMessage+60 || !strings.HasSuffix(got, "(message of 15000 characters clipped)") {
		t.Errorf("long message: %d characters, ends %q", utf8.RuneCountInString(got), got[len(got)-60:])
	}
}
