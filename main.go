// Command sandtable is the SandTable Bot: a Discord bot for SandTable Chess,
// Survival Chess: Tartan Grid and Team Chess, plus offline tools.
//
// Usage:
//
//	sandtable [run] [-config FILE] [-playground [-http-interactions]]
//	                                    connect to Discord (default subcommand);
//	                                    without a token, start the local playground
//	sandtable perft  -variant V -fen FEN -depth N [-divide]
//	sandtable render -game G (-fen FEN | -position FILE [-view V]) [-flip] [-size PX] -out FILE
//	sandtable apply  -game sandtable -position FILE ACTION...
//	sandtable replay -game G (-pgn FILE | -record FILE) [-size PX] -out FILE
//	                                    an animated GIF replay of a whole game
//	sandtable migrate -from bbolt:PATH[,PATH...] -to etcd:URL[,URL...] [-prefix P]
//	sandtable migrate -from etcd:URL[,URL...] -to bbolt:PATH [-prefix P]
//	                                    copy the bot's data between stores (stop the bots first)
//	sandtable uci                       the Survival and chess engine over UCI (standard input/output)
//	sandtable match -game G -a SPEC -b SPEC [-games N] [-movetime MS] [-seed S] [-openings PLIES]
//	                                    play engines against each other and score them
//
// perft, render, apply, replay, uci and match never read the configuration or open the database,
// so they can run beside a running bot.
package main

import (
	"fmt"
	"io"
	"os"
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
}

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

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
