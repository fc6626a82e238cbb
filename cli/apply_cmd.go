package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"sandtable/games/sandtable"
)

// applyMain implements `sandtable apply -game sandtable -position FILE
// ACTION...`: it reads a SandTable position (FILE "-" is standard input),
// applies the actions in order (one argument per action, in the notation
// of docs/rules/sandtable.md; automatic phases advance by themselves) and
// prints the resulting position in the same format on standard output and
// the turn log on standard error. Exit codes: 0 done; 1 an illegal action
// (the error names the rule; nothing is printed on standard output, as no
// action takes effect); 2 bad arguments, an action that cannot be read, an
// unreadable position, or one whose automatic phases would pass the last
// turn a position holds. Messages clip the input they echo (clip.go).
func applyMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("apply", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "the game: sandtable (the only game with positions files)")
	posFile := fs.String("position", "", "the position file in the SandTable text format (- for standard input)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: sandtable apply -game sandtable -position FILE ACTION...")
		fmt.Fprintln(fs.Output(), "applies the actions in order; prints the resulting position on standard output and the turn log on standard error")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	// fail prints a message and returns code; errors from other packages
	// are clipped there, input echoed here is clipped by quoteArg or echoArg
	fail := failer(stderr, "sandtable apply: ", args)
	if *game != "sandtable" {
		if *game == "" {
			return fail(2, "-game is required (only sandtable is supported)")
		}
		return fail(2, "-game %s is not supported (only sandtable)", quoteArg(*game))
	}
	if *posFile == "" {
		return fail(2, "-position FILE is required")
	}
	if fs.NArg() == 0 {
		return fail(2, "give at least one ACTION")
	}
	data, err := readPositionFile(*posFile)
	if err != nil {
		return fail(2, "cannot read the position: %v", err)
	}
	p, err := sandtable.ParsePosition(string(data))
	if err != nil {
		return fail(2, "%s: %v", echoArg(*posFile), err)
	}
	if p.Redacted() {
		return fail(2, "%s is a redacted view (it has a view line and hides secrets); actions apply only to a full position", echoArg(*posFile))
	}
	actions := make([]sandtable.Action, fs.NArg())
	for i, s := range fs.Args() {
		if actions[i], err = sandtable.ParseAction(s); err != nil {
			return fail(2, "action %d %s: %v", i+1, quoteArg(s), err)
		}
	}
	// a position whose automatic phases would pass the last turn the
	// format holds (G21) cannot go on: bad input
	log, err := p.TryAdvance()
	if err != nil {
		return fail(2, "%s cannot be advanced: %v", echoArg(*posFile), err)
	}
	for i, a := range actions {
		entries, err := p.Apply(a)
		if err != nil {
			return fail(1, "action %d %s is illegal: %v", i+1, quoteArg(fs.Arg(i)), err)
		}
		log = append(log, entries...)
	}
	for _, e := range log {
		fmt.Fprintln(stderr, e.String())
	}
	fmt.Fprint(stdout, p.Format())
	return 0
}
