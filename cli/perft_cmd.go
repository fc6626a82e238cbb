package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
)

const perftUsage = `usage: sandtable perft -variant chess|survival|teamchess [-fen FEN] -depth N [-divide]

Counts the leaf nodes of the legal move tree (perft) of the given depth.
With -divide, prints one line "<uci> <count>" per root move, sorted by UCI.
The last line of standard output is always the total node count alone;
timings go to standard error. Without -fen the variant's start position is
used (the Tartan Grid for survival). Survival FENs need no kings and their
castling field is ignored.

Team Chess counts each 8th-rank sacrifice once per distinct choice (issue
6): Royal Guard 1, Assassin one per removable piece, Political Agent 1,
Saboteur one per legal forced reply, after which the opponent has exactly
that one move. In -divide a sacrifice is written in UCI style: the pawn's
squares, the role letter (g Royal Guard, a Assassin, s Saboteur,
p Political Agent), then ":" and the Assassin's target square or the
Saboteur's forced reply in the same form: e7e8g, e7d8a:d4, e7e8p,
e7e8s:g8f6, e7e8s:d2d1s:g1f3 (docs/rules/teamchess.md).

flags:
`

// perftMain implements "sandtable perft" (issue 3; Team Chess counting,
// issue 6). Exit codes: 0 success,
// 2 bad arguments or a malformed FEN (message on standard error, clipping
// the input it echoes).
func perftMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	variant := fs.String("variant", "chess", "rule set: chess, survival or teamchess")
	fen := fs.String("fen", "", "start position as FEN (default: the variant's start position)")
	depth := fs.Int("depth", -1, "depth in plies, 0 to 20 (required)")
	divide := fs.Bool("divide", false, "print the count below each root move")
	printUsage := func(w io.Writer) {
		fmt.Fprint(w, perftUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	// fail prints a message and the usage hint and returns 2; errors from
	// other packages are clipped there, input echoed here by quoteArg
	failLine := failer(stderr, "sandtable perft: ", args)
	fail := func(format string, a ...any) int {
		failLine(2, format, a...)
		fmt.Fprintln(stderr, "run 'sandtable perft -h' for usage")
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(stdout)
			return 0
		}
		return fail("%v", err)
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %s (quote the FEN: -fen \"...\")", quoteArg(fs.Arg(0)))
	}
	v, err := chess.ParseVariant(*variant)
	if err != nil {
		return fail("%v", err)
	}
	depthSet := false
	fs.Visit(func(f *flag.Flag) { depthSet = depthSet || f.Name == "depth" })
	if !depthSet {
		return fail("-depth is required (a number of plies from 0 to 20)")
	}
	if *depth < 0 {
		return fail("-depth %d is negative: the depth must be at least 0 (a number of plies from 0 to 20)", *depth)
	}
	if *depth > 20 {
		return fail("-depth %d is too deep (at most 20)", *depth)
	}
	start := strings.TrimPrefix(*fen, utf8BOM)
	if start == "" {
		start = v.StartFEN()
	}
	pos, err := chess.ParseFEN(v, start)
	if err != nil {
		return fail("%v", err)
	}
	t0 := time.Now()
	var total uint64
	switch {
	case v == chess.TeamChess && *divide && *depth > 0:
		for _, e := range teamchess.PerftDivide(&pos, *depth) {
			fmt.Fprintf(stdout, "%s %d\n", e.UCI, e.Nodes)
			total += e.Nodes
		}
	case v == chess.TeamChess:
		total = teamchess.Perft(&pos, *depth)
	case *divide && *depth > 0:
		for _, e := range chess.PerftDivide(&pos, *depth) {
			fmt.Fprintf(stdout, "%s %d\n", e.Move.UCI(), e.Nodes)
			total += e.Nodes
		}
	default:
		total = chess.PerftBulk(&pos, *depth)
	}
	el := time.Since(t0)
	fmt.Fprintf(stderr, "perft %s depth %d: %d nodes in %v (%.0f nodes/s)\n",
		v, *depth, total, el.Round(time.Microsecond), float64(total)/max(el.Seconds(), 1e-9))
	fmt.Fprintln(stdout, strconv.FormatUint(total, 10))
	return 0
}
