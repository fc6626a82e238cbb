package main

import (
	"bytes"
	"flag"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Messages on standard error echo what the user gave (arguments, flag
// values, file names, lines of a file) so that they can find the mistake,
// but never a whole 900 KB token: echoed input is clipped by characters
// (runes, never splitting a UTF-8 sequence), with an ellipsis and the
// length of what was clipped.
const (
	// maxEcho is the most characters of one argument, or one word of a
	// message, that a message echoes.
	maxEcho = 200
	// maxMessage is the most characters of one message line.
	maxMessage = 4000
)

// clipRunes returns the first max characters of s and whether s was longer.
func clipRunes(s string, max int) (string, bool) {
	i := 0
	for end := range s {
		if i == max {
			return s[:end], true
		}
		i++
	}
	return s, false
}

// quoteArg quotes an argument for a message as %q does, clipped to maxEcho
// characters: "abc…" (900000 characters).
func quoteArg(s string) string {
	head, clipped := clipRunes(s, maxEcho)
	if !clipped {
		return strconv.Quote(s)
	}
	return strconv.Quote(head+"…") + " (" + strconv.Itoa(utf8.RuneCountInString(s)) + " characters)"
}

// clipMessage clips a message that may echo input it did not clip itself
// (errors of the flag package, of FEN parsing, of the file system): each
// word longer than maxEcho characters, then the whole line to maxMessage.
func clipMessage(msg string) string {
	var b strings.Builder
	for len(msg) > 0 {
		// copy the spaces, then clip the word that follows them
		sp := strings.IndexFunc(msg, func(r rune) bool { return !unicode.IsSpace(r) })
		if sp < 0 {
			b.WriteString(msg)
			break
		}
		b.WriteString(msg[:sp])
		msg = msg[sp:]
		end := strings.IndexFunc(msg, unicode.IsSpace)
		if end < 0 {
			end = len(msg)
		}
		word := msg[:end]
		msg = msg[end:]
		if head, clipped := clipRunes(word, maxEcho); clipped {
			word = head + "… (" + strconv.Itoa(utf8.RuneCountInString(word)) + " characters)"
		}
		b.WriteString(word)
	}
	out := b.String()
	if head, clipped := clipRunes(out, maxMessage); clipped {
		out = head + "… (message of " + strconv.Itoa(utf8.RuneCountInString(out)) + " characters clipped)"
	}
	return out
}

// writeClipped writes text to w with every line passed through clipMessage.
func writeClipped(w io.Writer, text string) {
	lines := strings.SplitAfter(text, "\n")
	for _, l := range lines {
		nl := strings.HasSuffix(l, "\n")
		l = clipMessage(strings.TrimSuffix(l, "\n"))
		if nl {
			l += "\n"
		}
		io.WriteString(w, l)
	}
}

// parseFlags parses args with fs, whose output is w; what the flag package
// writes (an error naming the bad flag or value, the usage) is clipped.
func parseFlags(fs *flag.FlagSet, args []string, w io.Writer) error {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(w)
	writeClipped(w, buf.String())
	return err
}
