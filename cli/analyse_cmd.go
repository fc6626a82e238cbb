package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	"sandtable/games/analysis"
	"sandtable/games/chess"
)

// maxAnalyseMoveTime bounds -movetime: a minute a position is already a
// long night for a long game.
const maxAnalyseMoveTime = 60_000

// analyseMain implements
//
//	sandtable analyse -game survival|chess|teamchess -pgn FILE [-movetime MS] [-depth N] -out FILE
//
// It analyses the first game of a PGN file (games/analysis): every
// position searched by the variant's engine for -movetime milliseconds
// (default 100; -depth also caps each search's depth), every move judged as
// lichess judges it, and writes the game to -out annotated in lichess's
// form: an evaluation comment per move ({ [%eval 0.35] }, { [%eval #3] },
// White's point of view), the glyphs ?!, ? and ?? of inaccuracies, mistakes
// and blunders with the engine's better move, and the summary as tags
// (WhiteAccuracy, BlackAccuracy, each side's counts: docs/analysis.md).
// The summary lines also go to standard output. The game is read as replay
// reads it (its FEN tag, else the variant's start; a Variant tag must name
// -game's variant; Team Chess passes "--", and the queues' lengths from the
// WhiteCommanders and BlackCommanders tags). FILE "-" reads standard
// input. Exit codes: 0 written; 1 a move of the PGN that is not legal
// (the error names its ply); 2 bad arguments, an unreadable or invalid
// file, or one that cannot be written. The output file is written whole
// (a temporary file renamed) and only on success.
func analyseMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("analyse", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "the game: survival, chess or teamchess")
	pgnFile := fs.String("pgn", "", "the PGN file of the game (its first game is analysed; - for standard input)")
	moveTime := fs.Int("movetime", 100, "milliseconds of search for each position")
	depth := fs.Int("depth", 0, "also cap each search at this depth (0: no cap)")
	out := fs.String("out", "", "the annotated PGN file to write")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: sandtable analyse -game survival|chess|teamchess -pgn FILE [-movetime MS] [-depth N] -out FILE")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := failer(stderr, "sandtable analyse: ", args)
	if fs.NArg() > 0 {
		return fail(2, "unexpected argument %s (every input is a flag)", quoteArg(fs.Arg(0)))
	}
	var variant chess.Variant
	switch g := strings.ToLower(*game); g {
	case "":
		return fail(2, "-game is required (survival, chess or teamchess)")
	case "sandtable":
		return fail(2, "-game sandtable: a SandTable game has no analysis (survival, chess or teamchess)")
	default:
		v, err := chess.ParseVariant(g)
		if err != nil {
			return fail(2, "-game %s: want survival, chess or teamchess", quoteArg(*game))
		}
		variant = v
	}
	if *pgnFile == "" {
		return fail(2, "-pgn FILE is required")
	}
	if *out == "" {
		return fail(2, "-out FILE is required")
	}
	if *moveTime < 1 || *moveTime > maxAnalyseMoveTime {
		return fail(2, "-movetime %d: want milliseconds from 1 to %d", *moveTime, maxAnalyseMoveTime)
	}
	if *depth < 0 || *depth > 64 {
		return fail(2, "-depth %d: want 0 (no cap) to 64", *depth)
	}
	if err := checkOutput(*out, *pgnFile); err != nil {
		return fail(2, "-out %s: %v", echoArg(*out), err)
	}
	data, err := readReplayInput(*pgnFile)
	if err != nil {
		return fail(2, "cannot read the PGN: %v", err)
	}
	pg, err := chess.ReadPGN(string(data))
	if err != nil {
		return fail(2, "%s: %v", echoArg(*pgnFile), err)
	}
	if err := checkVariantTag(pg, variant); err != nil {
		return fail(2, "%s: %v", echoArg(*pgnFile), err)
	}
	if pg.More {
		fmt.Fprintf(stderr, "sandtable analyse: note: %s holds more than one game: only the first is analysed\n", echoArg(*pgnFile))
	}
	g := analysis.Game{Variant: variant, Moves: pg.Moves}
	if fen, ok := pg.Tag("FEN"); ok {
		g.FEN = fen
	}
	for c, name := range []string{"WhiteCommanders", "BlackCommanders"} {
		if v, ok := pg.Tag(name); ok && variant == chess.TeamChess {
			g.Commanders[c] = analysis.CommandersFromTag(v)
		}
	}
	start := time.Now()
	rep, err := analysis.Analyse(context.Background(), g, analysis.Options{MoveTime: ms(*moveTime), Depth: *depth})
	if err != nil {
		var pe *analysis.PlyError
		if errors.As(err, &pe) {
			return fail(1, "%s: %v", echoArg(*pgnFile), err)
		}
		return fail(2, "%s: %v", echoArg(*pgnFile), err)
	}
	took := time.Since(start)
	if err := writeFileAtomic(*out, []byte(rep.PGN(pg.Tags, pg.Result))); err != nil {
		return fail(2, "cannot write the analysis: %v", err)
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		line := rep.SummaryLine(c)
		if name, ok := pg.Tag(c.Title()); ok && name != "" && name != "?" {
			if strings.ContainsFunc(name, unicode.IsControl) {
				name = strconv.Quote(name) // no terminal escape from a PGN reaches the terminal
			}
			// "White (Ann): accuracy ..."
			line = c.Title() + " (" + clipForeign(name) + ")" + strings.TrimPrefix(line, c.Title())
		}
		fmt.Fprintln(stdout, line)
	}
	fmt.Fprintf(stdout, "wrote %s (%d plies, %d positions searched %d ms each, %.1f s)\n",
		*out, len(rep.Moves), len(rep.Moves)+1, rep.MoveTime.Milliseconds(), took.Seconds())
	return 0
}

// writeFileAtomic writes data to name through a temporary file in the same
// directory renamed over it, so that name is either untouched or whole.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// checkOutput refuses, before any search, an output path that cannot be
// written as a file (its folder missing, a folder itself) or that is the
// input (the analysis would replace the game it read, its own comments
// lost). in "-" is standard input.
func checkOutput(out, in string) error {
	if out == "-" {
		return fmt.Errorf("the analysis is written to a file, not to standard output")
	}
	if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
		return fmt.Errorf("its folder %s does not exist", echoArg(filepath.Dir(out)))
	}
	st, err := os.Stat(out)
	if err != nil {
		return nil // a new file
	}
	if st.IsDir() {
		return fmt.Errorf("is a folder")
	}
	if in != "-" {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return fmt.Errorf("is the input PGN: write the analysis to another file")
		}
	}
	return nil
}
