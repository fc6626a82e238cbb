package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image/gif"
	"io"
	"os"
	"strings"
	"time"

	"sandtable/games/chess"
	"sandtable/games/sandtable"
	"sandtable/games/teamchess"
	"sandtable/render"
	"sandtable/render/sandboard"
)

// maxReplayInput bounds a PGN or record file: a long game's record is
// about 100 KB, so 16 MiB is generous and keeps a wrong file from eating
// memory.
const maxReplayInput = 16 << 20

// replayMain implements
//
//	sandtable replay -game survival|teamchess|chess -pgn FILE [-flip] [-size PX] [-delay MS] [-last-delay MS] -out FILE
//	sandtable replay -game sandtable -record FILE [-frames turn|action] [-size PX] [-delay MS] [-last-delay MS] -out FILE
//
// It writes an animated GIF replay of a game (render.ChessReplay,
// render.SandTableReplay): every board from the start to the end, the
// last move highlighted, each shown -delay milliseconds (default 1000),
// the last -last-delay (default 4000), looping. 8x8 games come from the
// first game of a PGN file, played from its FEN tag (else the variant's
// start position) with the moves read by our SAN parser (Team Chess:
// sacrifices in player notation and "--" passes, as the bot exports
// them); a Variant tag must name -game's variant. SandTable games come
// from a game record (docs/sandtable-record.md), drawn as its public
// record: both deployments and every Drone order that resolved from the
// turn it was given, never the order of a Drone that did not (ruling
// D6); one board per turn, or per action with -frames action. The file keeps
// within Discord's 10 MiB (smaller boards, then fewer, when a game is
// very long). FILE "-" reads standard input. Exit codes: 0 written; 1 a
// move of the PGN that is not legal; 2 bad arguments, an unreadable or
// invalid file, or one that cannot be written. Nothing is written on an
// error.
func replayMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "the game: survival, teamchess, chess or sandtable")
	pgnFile := fs.String("pgn", "", "8x8 only: the PGN file of the game (its first game is replayed; - for standard input)")
	recFile := fs.String("record", "", "sandtable only: the game record, JSON (docs/sandtable-record.md; - for standard input)")
	frames := fs.String("frames", "turn", "sandtable only: a board per turn or per action")
	flip := fs.Bool("flip", false, "8x8 only: put Black at the bottom")
	size := fs.Int("size", 0, "edge of the square image in pixels (default 640 for 8x8, 1000 for sandtable)")
	delay := fs.Int("delay", 1000, "milliseconds each board shows")
	lastDelay := fs.Int("last-delay", 4000, "milliseconds the last board shows")
	out := fs.String("out", "", "the GIF file to write")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: sandtable replay -game survival|teamchess|chess -pgn FILE [-flip] [-size PX] -out FILE")
		fmt.Fprintln(w, "       sandtable replay -game sandtable -record FILE [-frames turn|action] [-size PX] -out FILE")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := failer(stderr, "sandtable replay: ", args)
	if fs.NArg() > 0 {
		return fail(2, "unexpected argument %s (every input is a flag)", quoteArg(fs.Arg(0)))
	}
	if *out == "" {
		return fail(2, "-out FILE is required")
	}
	if *delay <= 0 || *lastDelay <= 0 || *delay > 655350 || *lastDelay > 655350 {
		return fail(2, "-delay and -last-delay are milliseconds from 1 to 655350")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	opt := render.ReplayOptions{Size: *size, FrameDelay: ms(*delay), LastDelay: ms(*lastDelay)}
	r := render.New()
	var buf bytes.Buffer
	var boards int
	switch g := strings.ToLower(*game); g {
	case "":
		return fail(2, "-game is required (survival, teamchess, chess or sandtable)")
	case "sandtable":
		for _, name := range []string{"pgn", "flip"} {
			if set[name] {
				return fail(2, "-%s is for 8x8 games; a SandTable game comes from -record FILE", name)
			}
		}
		if *recFile == "" {
			return fail(2, "-record FILE is required for -game sandtable")
		}
		each, ok := map[string]sandboard.Frames{"turn": sandboard.EveryTurn, "action": sandboard.EveryAction}[strings.ToLower(*frames)]
		if !ok {
			return fail(2, "-frames %s: want turn or action", quoteArg(*frames))
		}
		data, err := readReplayInput(*recFile)
		if err != nil {
			return fail(2, "cannot read the record: %v", err)
		}
		rec, err := sandtable.ParseRecord(data)
		if err != nil {
			return fail(2, "%s: %v", echoArg(*recFile), err)
		}
		bs, err := sandboard.ReplayBoards(rec, each)
		if err != nil {
			return fail(2, "%s: %v", echoArg(*recFile), err)
		}
		boards = len(bs)
		if err := r.SandTableReplay(&buf, bs, opt); err != nil {
			return fail(2, "%v", errors.New(strings.TrimPrefix(err.Error(), "render: ")))
		}
	default:
		variant, err := chess.ParseVariant(g)
		if err != nil {
			return fail(2, "-game %s: want survival, teamchess, chess or sandtable", quoteArg(*game))
		}
		for _, name := range []string{"record", "frames"} {
			if set[name] {
				return fail(2, "-%s is for -game sandtable; an 8x8 game comes from -pgn FILE", name)
			}
		}
		if *pgnFile == "" {
			return fail(2, "-pgn FILE is required for -game %s", variant)
		}
		data, err := readReplayInput(*pgnFile)
		if err != nil {
			return fail(2, "cannot read the PGN: %v", err)
		}
		pg, err := chess.ReadPGN(string(data))
		if err != nil {
			return fail(2, "%s: %v", echoArg(*pgnFile), err)
		}
		bs, code, err := pgnBoards(variant, pg)
		if err != nil {
			return fail(code, "%s: %v", echoArg(*pgnFile), err)
		}
		if pg.More {
			fmt.Fprintf(stderr, "sandtable replay: note: %s holds more than one game: only the first is drawn\n", echoArg(*pgnFile))
		}
		for i := range bs {
			bs[i].Flipped = *flip
		}
		boards = len(bs)
		if err := r.ChessReplay(&buf, bs, opt); err != nil {
			return fail(2, "%v", errors.New(strings.TrimPrefix(err.Error(), "render: ")))
		}
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fail(2, "cannot write the replay: %v", err)
	}
	px := 0
	if c, err := gif.DecodeConfig(bytes.NewReader(buf.Bytes())); err == nil {
		px = c.Width
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes, %d boards, %d px)\n", *out, buf.Len(), boards, px)
	return 0
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// readReplayInput reads a PGN or record file ("-": standard input) of at
// most maxReplayInput bytes, without a leading UTF-8 byte-order mark.
func readReplayInput(name string) ([]byte, error) {
	return readInputFile(name, maxReplayInput, "16 MiB")
}

// pgnBoards plays a game read from PGN in variant and returns its
// boards: the start, then one after each move, the move's squares
// highlighted (a Team Chess Assassin's victim too). The exit code of an
// error is 1 for a move that is not legal, 2 for anything else.
func pgnBoards(variant chess.Variant, g *chess.PGNGame) ([]render.ChessBoard, int, error) {
	if err := checkVariantTag(g, variant); err != nil {
		return nil, 2, err
	}
	fen := variant.StartFEN()
	if tag, ok := g.Tag("FEN"); ok {
		fen = tag
	}
	pos, err := chess.ParseFEN(variant, fen)
	if err != nil {
		return nil, 2, fmt.Errorf("FEN tag: %v", err)
	}
	// game keeps the positions' history (Survival and chess): the automatic
	// endings that depend on it (fivefold repetition) end the game as they
	// end a played one.
	game, err := chess.NewGameFromFEN(variant, fen)
	if err != nil {
		return nil, 2, fmt.Errorf("FEN tag: %v", err)
	}
	boards := []render.ChessBoard{chessBoard(&pos)}
	for i, tok := range g.Moves {
		number := fmt.Sprintf("%d.", pos.FullmoveNumber())
		if pos.Turn() == chess.Black {
			number += ".."
		}
		var last []render.Square
		if tok == "--" {
			if variant != chess.TeamChess {
				return nil, 2, fmt.Errorf("move %s -- (ply %d): a pass is a Team Chess move only", number, i+1)
			}
			next, err := pos.PassTurn()
			if err != nil {
				return nil, 1, fmt.Errorf("move %s -- (ply %d): %v", number, i+1, err)
			}
			pos = next
		} else {
			var m chess.Move
			if variant == chess.TeamChess {
				tm, err := teamchess.ParseMove(&pos, tok)
				if err != nil {
					return nil, 1, fmt.Errorf("move %s %s (ply %d): %v", number, quoteArg(tok), i+1, err)
				}
				m = tm.Board
				if sq, ok := tm.Target(); ok {
					last = append(last, render.Square(sq))
				}
			} else if m, err = pos.ParseMove(tok); err != nil {
				return nil, 1, fmt.Errorf("move %s %s (ply %d): %v", number, quoteArg(tok), i+1, err)
			}
			next, err := pos.Play(m)
			if err == nil && variant != chess.TeamChess {
				if err = game.Play(m); err == nil {
					next = *game.Position()
				}
			}
			if err != nil {
				return nil, 1, fmt.Errorf("move %s %s (ply %d): %v", number, quoteArg(tok), i+1, err)
			}
			pos = next
			last = append([]render.Square{render.Square(m.From()), render.Square(m.To())}, last...)
		}
		b := chessBoard(&pos)
		b.LastMove = last
		boards = append(boards, b)
	}
	return boards, 0, nil
}

// checkVariantTag refuses a PGN game whose Variant tag names another game
// than variant (a game without the tag is taken as variant).
func checkVariantTag(g *chess.PGNGame, variant chess.Variant) error {
	tag, ok := g.Tag("Variant")
	if !ok {
		return nil
	}
	if strings.EqualFold(tag, "From Position") {
		tag = chess.Chess.String() // lichess's name for chess from a set-up position (the FEN tag)
	}
	v, err := chess.ParseVariant(tag)
	for _, w := range chess.Variants {
		if strings.EqualFold(tag, w.Title()) {
			v, err = w, nil
		}
	}
	if err != nil {
		return fmt.Errorf("its Variant tag %s names no game this program knows (survival, teamchess, chess)", quoteArg(tag))
	}
	if v != variant {
		return fmt.Errorf("its Variant tag names %s, not %s: give -game %s", v.Title(), variant.Title(), v)
	}
	return nil
}
