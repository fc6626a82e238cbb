package main

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
// action takes effect); 2 bad arguments, an action that cannot be read, or
// an unreadable position.
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
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *game != "sandtable" {
		if *game == "" {
			fmt.Fprintln(stderr, "sandtable apply: -game is required (only sandtable is supported)")
		} else {
			fmt.Fprintf(stderr, "sandtable apply: -game %q is not supported (only sandtable)\n", *game)
		}
		return 2
	}
	if *posFile == "" {
		fmt.Fprintln(stderr, "sandtable apply: -position FILE is required")
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "sandtable apply: give at least one ACTION")
		return 2
	}
	data, err := readPositionFile(*posFile)
	if err != nil {
		fmt.Fprintf(stderr, "sandtable apply: cannot read the position: %v\n", err)
		return 2
	}
	p, err := sandtable.ParsePosition(string(data))
	if err != nil {
		fmt.Fprintf(stderr, "sandtable apply: %s: %v\n", *posFile, err)
		return 2
	}
	if p.Redacted {
		fmt.Fprintf(stderr, "sandtable apply: %s is a redacted view (it has a view line and hides secrets); actions apply only to a full position\n", *posFile)
		return 2
	}
	actions := make([]sandtable.Action, fs.NArg())
	for i, s := range fs.Args() {
		if actions[i], err = sandtable.ParseAction(s); err != nil {
			fmt.Fprintf(stderr, "sandtable apply: action %d %q: %v\n", i+1, s, err)
			return 2
		}
	}
	log := p.Advance()
	for i, a := range actions {
		entries, err := p.Apply(a)
		if err != nil {
			fmt.Fprintf(stderr, "sandtable apply: action %d %q is illegal: %v\n", i+1, fs.Arg(i), err)
			return 1
		}
		log = append(log, entries...)
	}
	for _, e := range log {
		fmt.Fprintln(stderr, e.String())
	}
	fmt.Fprint(stdout, p.Format())
	return 0
}
