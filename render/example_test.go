package render_test

import (
	"bytes"
	"fmt"
	"image/gif"
	"image/png"
	"time"

	"sandtable/render"
)

func ExampleRenderer_ChessPNG() {
	r := render.New() // keep one Renderer: it caches the sprites
	var b render.ChessBoard
	b.Squares[4] = render.ChessPiece{Kind: render.King, Colour: render.White}  // e1
	b.Squares[60] = render.ChessPiece{Kind: render.King, Colour: render.Black} // e8
	b.Squares[28] = render.ChessPiece{Kind: render.Pawn, Colour: render.White} // e4
	b.LastMove = []render.Square{12, 28}                                       // e2-e4
	var buf bytes.Buffer
	if err := r.ChessPNG(&buf, &b, render.DefaultChessSize); err != nil {
		fmt.Println(err)
		return
	}
	img, _ := png.Decode(&buf)
	fmt.Println(img.Bounds().Size())
	// Output: (640,640)
}

func ExampleRenderer_SandTablePNG() {
	r := render.New()
	b := render.SandTableBoard{
		Pieces: []render.SandPiece{
			{Square: 5, Kind: render.Base, Owner: render.South},           // f1
			{Square: 45, Kind: render.Tank, Owner: render.South, Crew: 2}, // f3
			{Square: 65, Kind: render.Infantry, Owner: render.South},      // f4
			{Square: 385, Kind: render.Airplane, Owner: render.Neutral},   // f20
		},
		InfantrySteps: []render.Step{{From: 64, To: 65}}, // e4-f4
		Drones:        []render.DroneOrder{{Owner: render.South, Spotter: 65, Target: 105}},
	}
	// b is South's view (its own Drone order included): drawn in South's
	// frame. The public board is the same without the Drone.
	var south, pub bytes.Buffer
	if err := r.SandTablePNG(&south, &b, render.ViewSouth, render.DefaultSandTableSize); err != nil {
		fmt.Println(err)
		return
	}
	b.Drones = nil
	_ = r.SandTablePNG(&pub, &b, render.ViewPublic, render.DefaultSandTableSize)
	img, _ := png.Decode(&south)
	fmt.Println(img.Bounds().Size(), pub.Len() > 0)
	// Output: (1000,1000) true
}

// A replay of a game's boards as an animated GIF: every later board is
// written as the rectangle of what changed.
func ExampleRenderer_ChessReplay() {
	r := render.New()
	var start render.ChessBoard
	start.Squares[4] = render.ChessPiece{Kind: render.King, Colour: render.White}  // e1
	start.Squares[12] = render.ChessPiece{Kind: render.Pawn, Colour: render.White} // e2
	start.Squares[60] = render.ChessPiece{Kind: render.King, Colour: render.Black} // e8
	after := start
	after.Squares[12], after.Squares[28] = render.ChessPiece{}, start.Squares[12] // e2-e4
	after.LastMove = []render.Square{12, 28}
	var buf bytes.Buffer
	opt := render.ReplayOptions{Size: 320, FrameDelay: 500 * time.Millisecond}
	if err := r.ChessReplay(&buf, []render.ChessBoard{start, after}, opt); err != nil {
		fmt.Println(err)
		return
	}
	g, err := gif.DecodeAll(&buf)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(g.Image), "frames, delays", g.Delay, "in 1/100 s; the second frame is", g.Image[1].Rect.Dx(), "px wide (one file of squares)")
	// Output: 2 frames, delays [50 400] in 1/100 s; the second frame is 36 px wide (one file of squares)
}
