// Package cli is the sandtable command's subcommands (run, perft, render,
// apply, replay, analyse, migrate, uci, match): each parses its own flags and writes
// its own output, and Main picks one by name. The subcommands, their flags
// and their output formats are a contract: extend, never rename or reshape.
// perft, render, apply, replay, analyse, uci and match never read the configuration
// or open the database, so they can run beside a running bot.
package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// subcommand runs one subcommand with its arguments (without the subcommand
// name) and returns the process exit code: 0 success, 1 a rules failure
// (for example an illegal action), 2 bad arguments or unreadable input.
type subcommand func(args []string, stdout, stderr io.Writer) int

var subcommands = map[string]subcommand{
	"run":     runMain,
	"perft":   perftMain,
	"render":  renderMain,
	"apply":   applyMain,
	"migrate": migrateMain,
	"uci":     uciMain,
	"match":   matchMain,
	"replay":  replayMain,
	"analyse": analyseMain,
}

// Main runs the subcommand args name (args without the program's name)
// and returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int { return dispatch(args, stdout, stderr) }

// dispatch picks the subcommand from args; with none (or when the first
// argument is a flag) it runs "run".
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			usage(stdout)
			return 0
		}
		return runMain(args, stdout, stderr)
	}
	if args[0] == "help" {
		usage(stdout)
		return 0
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "sandtable: unknown subcommand %s\n", quoteArg(args[0]))
		usage(stderr)
		return 2
	}
	return cmd(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "usage: sandtable [subcommand] [flags]\n\nsubcommands: %s (default: run)\n", strings.Join(names, ", "))
	fmt.Fprintln(w, "run 'sandtable SUBCOMMAND -h' for the flags of one subcommand")
}
