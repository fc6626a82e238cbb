package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sandtable/internal/playertext"
)

// Messages on standard error echo what the user gave (arguments, flag
// values, file names, lines of a file) so that they can find the mistake,
// but never a whole 900 KB token: echoed input is clipped by characters
// (runes, never splitting a UTF-8 sequence), with an ellipsis and the
// length of what was clipped.
//
// Each echoed value is clipped exactly once, where it enters a message:
// quoteArg and echoArg for the values a subcommand echoes itself,
// clipForeign for the text of an error from another package (flag, os, a
// parser) that may embed raw input. A message line is never clipped again
// as a whole, so a clipped quote keeps its closing quote, its true length
// and the text after it.
const (
	// maxEcho is the most characters of one echoed value.
	maxEcho = 200
	// maxMessage is the most characters of one line of a foreign message.
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
func quoteArg(s string) string { return playertext.Quote(s, maxEcho) }

// echoArg echoes a name (a file name) as given when it has at most maxEcho
// characters, and as quoteArg clips it otherwise.
func echoArg(s string) string {
	if utf8.RuneCountInString(s) <= maxEcho {
		return s
	}
	return quoteArg(s)
}

// clipForeign clips the input that msg, the text of a message from another
// package, may embed, each value once: every occurrence of one of raws (the
// user's input) longer than maxEcho characters, bare or quoted as %q does,
// becomes its quoteArg; elsewhere a quoted string (%q) or a word longer
// than maxEcho becomes its quoteArg too (trailing punctuation kept after
// it). Finally a line still longer than maxMessage characters is cut.
func clipForeign(msg string, raws ...string) string {
	type pattern struct{ find, repl string }
	var pats []pattern
	for _, r := range raws {
		if utf8.RuneCountInString(r) > maxEcho {
			q := quoteArg(r)
			pats = append(pats, pattern{strconv.Quote(r), q}, pattern{r, q})
		}
	}
	var b strings.Builder
	for {
		at, best := -1, pattern{}
		for _, p := range pats {
			i := strings.Index(msg, p.find)
			if i >= 0 && (at < 0 || i < at || i == at && len(p.find) > len(best.find)) {
				at, best = i, p
			}
		}
		if at < 0 {
			break
		}
		clipWords(&b, msg[:at])
		b.WriteString(best.repl)
		msg = msg[at+len(best.find):]
	}
	clipWords(&b, msg)
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		if head, clipped := clipRunes(l, maxMessage); clipped {
			lines[i] = head + "… (message of " + strconv.Itoa(utf8.RuneCountInString(l)) + " characters clipped)"
		}
	}
	return strings.Join(lines, "\n")
}

// clipWords writes s to b with each quoted string or word longer than
// maxEcho characters replaced by its quoteArg.
func clipWords(b *strings.Builder, s string) {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		if unicode.IsSpace(r) {
			b.WriteString(s[:size])
			s = s[size:]
			continue
		}
		// a word starting with a quote may be a %q string (with spaces)
		if r == '"' {
			if q, err := strconv.QuotedPrefix(s); err == nil {
				if u, err := strconv.Unquote(q); err == nil && utf8.RuneCountInString(u) > maxEcho && !isClipped(u) {
					b.WriteString(quoteArg(u))
				} else {
					b.WriteString(q)
				}
				s = s[len(q):]
				continue
			}
		}
		end := strings.IndexFunc(s, unicode.IsSpace)
		if end < 0 {
			end = len(s)
		}
		word := s[:end]
		s = s[end:]
		if utf8.RuneCountInString(word) <= maxEcho {
			b.WriteString(word)
			continue
		}
		core := strings.TrimRight(word, ":;,.!?)]")
		b.WriteString(quoteArg(core))
		b.WriteString(word[len(core):])
	}
}

// flagInputs returns what a command line holds that a message may echo:
// each argument and, for -name=value, the value alone.
func flagInputs(args []string) []string {
	in := append([]string(nil), args...)
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			if _, v, ok := strings.Cut(a, "="); ok {
				in = append(in, v)
			}
		}
	}
	return in
}

// failer returns the function a subcommand reports an error with: it
// writes prefix and the formatted message as one line on w and returns
// code. Arguments that are errors are written through clipForeign with
// the command line's inputs (flagInputs(args)); the subcommand echoes any
// other input itself with quoteArg or echoArg.
func failer(w io.Writer, prefix string, args []string) func(code int, format string, a ...any) int {
	in := flagInputs(args)
	return func(code int, format string, a ...any) int {
		for i, v := range a {
			if err, ok := v.(error); ok {
				a[i] = clipForeign(err.Error(), in...)
			}
		}
		fmt.Fprintln(w, prefix+fmt.Sprintf(format, a...))
		return code
	}
}

// parseFlags parses args with fs, whose output is w; what the flag package
// writes (an error naming the bad flag or value, the usage) goes through
// clipForeign.
func parseFlags(fs *flag.FlagSet, args []string, w io.Writer) error {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(w)
	io.WriteString(w, clipForeign(buf.String(), flagInputs(args)...))
	return err
}

// isClipped reports whether u, a quoted string's content, is what quoteArg
// quotes for a long value (maxEcho characters and an ellipsis), so that it
// is left as it is.
func isClipped(u string) bool {
	return strings.HasSuffix(u, "…") && utf8.RuneCountInString(u) == maxEcho+1
}
