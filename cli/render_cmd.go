package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"sandtable/games/chess"
	"sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
)

// renderMain implements
//
//	sandtable render -game survival|teamchess|chess -fen FEN [-last SQSQ] [-flip] [-size PX] -out FILE
//	sandtable render -game sandtable -position FILE [-view public|south|north] [-flip] [-size PX] -out FILE
//
// It draws the board as a PNG of -size x -size pixels, margins and
// coordinates included (default 640 for 8x8 boards, 1000 for SandTable),
// and writes it to FILE (any name). White, or South, is at the bottom
// unless -flip. 8x8 boards highlight -last (from and to squares, e.g.
// e2e4), a king in check (chess, teamchess) and, in Survival Chess, the
// pieces of the side to move that can capture (capture is mandatory there).
// SandTable positions are read in the engine's text format (FILE "-" is
// standard input) and drawn in the chosen view: public shows no secrets;
// south or north adds that player's deployment draft and pending Drones,
// when the file holds them. Exit codes: 0 written; 2 bad arguments, an
// invalid FEN or position, or a file that cannot be read or written (the
// message on standard error says which, clipping the input it echoes).
func renderMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "", "the game: survival, teamchess, chess or sandtable")
	fen := fs.String("fen", "", "the position as a FEN (survival, teamchess, chess); Survival FENs need no kings")
	last := fs.String("last", "", "8x8 only: the last move's from and to squares to highlight, e.g. e2e4")
	posFile := fs.String("position", "", "sandtable only: the position file in the SandTable text format (- for standard input)")
	viewName := fs.String("view", "public", "sandtable only: public, south or north (a private view adds that player's secrets)")
	flip := fs.Bool("flip", false, "put Black (8x8) or North (SandTable) at the bottom")
	size := fs.Int("size", 0, "edge of the square image in pixels, margins and coordinates included (default 640 for 8x8, 1000 for sandtable)")
	out := fs.String("out", "", "the PNG file to write")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintln(w, "usage: sandtable render -game survival|teamchess|chess -fen FEN [-last SQSQ] [-flip] [-size PX] -out FILE")
		fmt.Fprintln(w, "       sandtable render -game sandtable -position FILE [-view public|south|north] [-flip] [-size PX] -out FILE")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	// fail prints a message and returns 2; errors from other packages are
	// clipped there, input echoed here is clipped by quoteArg or echoArg
	fail2 := failer(stderr, "sandtable render: ", args)
	fail := func(format string, a ...any) int { return fail2(2, format, a...) }
	if fs.NArg() > 0 {
		return fail("unexpected argument %s (every input is a flag; quote the FEN)", quoteArg(fs.Arg(0)))
	}
	if *out == "" {
		return fail("-out FILE is required")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })

	var png bytes.Buffer
	r := render.New()
	switch g := strings.ToLower(*game); g {
	case "":
		return fail("-game is required (survival, teamchess, chess or sandtable)")
	case "sandtable":
		for _, name := range []string{"fen", "last"} {
			if set[name] {
				return fail("-%s is for 8x8 games; SandTable positions come from -position FILE", name)
			}
		}
		if *posFile == "" {
			return fail("-position FILE is required for -game sandtable")
		}
		v, ok := map[string]render.View{"public": render.ViewPublic, "south": render.ViewSouth, "north": render.ViewNorth}[strings.ToLower(*viewName)]
		if !ok {
			return fail("-view %s: want public, south or north", quoteArg(*viewName))
		}
		data, err := readPositionFile(*posFile)
		if err != nil {
			return fail("cannot read the position: %v", err)
		}
		p, err := sandtable.ParsePosition(string(data))
		if err != nil {
			return fail("%s: %v", echoArg(*posFile), err)
		}
		// The engine's view decides what the image may show.
		b, err := sandboard.FromView(p.View(map[render.View]sandtable.Side{render.ViewPublic: sandtable.NoSide, render.ViewSouth: sandtable.South, render.ViewNorth: sandtable.North}[v]))
		if err != nil {
			return fail("%s: %v", echoArg(*posFile), err)
		}
		b.Flipped = *flip
		if !set["size"] {
			*size = render.DefaultSandTableSize
		}
		if err := r.SandTablePNG(&png, &b, v, *size); err != nil {
			return fail("%v", errors.New(strings.TrimPrefix(err.Error(), "render: ")))
		}
	default:
		variant, err := chess.ParseVariant(g)
		if err != nil {
			return fail("-game %s: want survival, teamchess, chess or sandtable", quoteArg(*game))
		}
		for _, name := range []string{"position", "view"} {
			if set[name] {
				return fail("-%s is for -game sandtable; 8x8 positions come from -fen FEN", name)
			}
		}
		if *fen == "" {
			return fail("-fen FEN is required for -game %s", variant)
		}
		pos, err := chess.ParseFEN(variant, strings.TrimPrefix(*fen, utf8BOM))
		if err != nil {
			return fail("%v", err)
		}
		b := chessBoard(&pos)
		b.Flipped = *flip
		if *last != "" {
			from, err1 := chess.ParseSquare(strings.ToLower((*last)[:min(2, len(*last))]))
			to, err2 := chess.ParseSquare(strings.ToLower((*last)[min(2, len(*last)):]))
			if err1 != nil || err2 != nil {
				return fail("-last %s: want two squares such as e2e4", quoteArg(*last))
			}
			b.LastMove = []render.Square{render.Square(from), render.Square(to)}
		}
		if !set["size"] {
			*size = render.DefaultChessSize
		}
		if err := r.ChessPNG(&png, &b, *size); err != nil {
			return fail("%v", errors.New(strings.TrimPrefix(err.Error(), "render: ")))
		}
	}
	if err := os.WriteFile(*out, png.Bytes(), 0o644); err != nil {
		return fail("cannot write the image: %v", err)
	}
	fmt.Fprintf(stdout, "wrote %s (%d bytes)\n", *out, png.Len())
	return 0
}

// chessBoard converts an engine position into the renderer's input: the
// pieces, the king of the side to move when it is in check (variants with
// check), and in Survival Chess the side to move's pieces that can capture.
func chessBoard(p *chess.Position) render.ChessBoard {
	var b render.ChessBoard
	for sq := chess.Square(0); sq < 64; sq++ {
		pc := p.PieceAt(sq)
		if pc == chess.NoPiece {
			continue
		}
		col := render.White
		if pc.Color() == chess.Black {
			col = render.Black
		}
		b.Squares[sq] = render.ChessPiece{Kind: chessKinds[pc.Role()], Colour: col}
	}
	if p.Variant().HasCheck() && p.InCheck() {
		if k, ok := p.KingSquare(p.Turn()); ok {
			b.Check = []render.Square{render.Square(k)}
		}
	}
	if p.Variant() == chess.Survival {
		for _, sq := range p.Capturers().Squares() {
			b.CaptureMarks = append(b.CaptureMarks, render.Square(sq))
		}
	}
	return b
}

var chessKinds = map[chess.Role]render.ChessPieceKind{
	chess.Pawn: render.Pawn, chess.Knight: render.Knight, chess.Bishop: render.Bishop,
	chess.Rook: render.Rook, chess.Queen: render.Queen, chess.King: render.King,
}
