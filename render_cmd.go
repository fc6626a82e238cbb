package main

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
// message on standard error says which).
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
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "sandtable render: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %q (every input is a flag; quote the FEN)", fs.Arg(0))
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
			return fail("-view %q: want public, south or north", *viewName)
		}
		var data []byte
		var err error
		if *posFile == "-" {
			data, err = io.ReadAll(os.Stdin)
		} else {
			data, err = os.ReadFile(*posFile)
		}
		if err != nil {
			return fail("cannot read the position: %v", err)
		}
		p, err := sandtable.ParsePosition(string(data))
		if err != nil {
			return fail("%s: %v", *posFile, err)
		}
		b, err := sandTableBoard(p)
		if err != nil {
			return fail("%s: %v", *posFile, err)
		}
		b.Flipped = *flip
		if !set["size"] {
			*size = render.DefaultSandTableSize
		}
		if err := r.SandTablePNG(&png, &b, v, *size); err != nil {
			return fail("%v", err)
		}
	default:
		variant, err := chess.ParseVariant(g)
		if err != nil {
			return fail("-game %q: want survival, teamchess, chess or sandtable", *game)
		}
		for _, name := range []string{"position", "view"} {
			if set[name] {
				return fail("-%s is for -game sandtable; 8x8 positions come from -fen FEN", name)
			}
		}
		if *fen == "" {
			return fail("-fen FEN is required for -game %s", variant)
		}
		pos, err := chess.ParseFEN(variant, *fen)
		if err != nil {
			return fail("%v", err)
		}
		b := chessBoard(&pos)
		b.Flipped = *flip
		if *last != "" {
			from, err1 := chess.ParseSquare(strings.ToLower((*last)[:min(2, len(*last))]))
			to, err2 := chess.ParseSquare(strings.ToLower((*last)[min(2, len(*last)):]))
			if err1 != nil || err2 != nil {
				return fail("-last %q: want two squares such as e2e4", *last)
			}
			b.LastMove = []render.Square{render.Square(from), render.Square(to)}
		}
		if !set["size"] {
			*size = render.DefaultChessSize
		}
		if err := r.ChessPNG(&png, &b, *size); err != nil {
			return fail("%v", err)
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

var sandKinds = map[sandtable.Kind]render.SandPieceKind{
	sandtable.Infantry: render.Infantry, sandtable.Tank: render.Tank, sandtable.Airplane: render.Airplane,
	sandtable.Mine: render.Mine, sandtable.AntiAir: render.AntiAir, sandtable.Base: render.Base,
}

var sandSides = map[sandtable.Side]render.Side{
	sandtable.NoSide: render.Neutral, sandtable.South: render.South, sandtable.North: render.North,
}

// sandTableBoard converts an engine position (full, or a redacted view)
// into the renderer's input, secrets included: the renderer's View decides
// which of them are drawn. Pieces on the ground are listed with their
// crew counts (crew themselves stand inside their Vehicle); Drones that are
// hidden (another side's, in a redacted view) or cancelled are left out; a
// Drone's spotter square is where its Infantry stands (a Vehicle's square
// when it has boarded one). The position format has no record of the last
// turn's moves, so none are highlighted.
func sandTableBoard(p *sandtable.Position) (render.SandTableBoard, error) {
	var b render.SandTableBoard
	for _, pc := range p.Pieces() {
		if !pc.Carrier.IsZero() {
			continue
		}
		k, ok := sandKinds[pc.Kind()]
		if !ok {
			return b, fmt.Errorf("piece %s has unknown kind %s", pc.ID, pc.Kind())
		}
		b.Pieces = append(b.Pieces, render.SandPiece{Square: render.Square(pc.Square), Kind: k, Owner: sandSides[pc.Owner], Crew: len(pc.Crew)})
	}
	for _, c := range p.Craters {
		b.Craters = append(b.Craters, render.Square(c.Square))
	}
	for _, d := range p.Drones {
		if d.Hidden || d.Cancelled {
			continue
		}
		spotter, ok := p.Piece(d.Spotter)
		if !ok {
			continue // a destroyed spotter cancels its Drone (ruling 7)
		}
		b.Drones = append(b.Drones, render.DroneOrder{Owner: sandSides[d.Side], Spotter: render.Square(spotter.Square), Target: render.Square(d.Target)})
	}
	if p.Phase == sandtable.PhaseDeployment {
		for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
			d := p.Drafts[side]
			if d == nil {
				continue
			}
			for sq := sandtable.Square(0); sq < sandtable.NumSquares; sq++ {
				k := d.At(sq)
				if k == sandtable.NoKind {
					continue
				}
				owner := sandSides[side]
				if k.IsVehicle() {
					owner = render.Neutral // deployed without crew (ruling 2)
				}
				b.Drafts[sandSides[side]] = append(b.Drafts[sandSides[side]], render.SandPiece{Square: render.Square(sq), Kind: sandKinds[k], Owner: owner})
			}
		}
	}
	return b, nil
}
