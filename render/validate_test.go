package render

import (
	"io"
	"strings"
	"testing"
)

// TestChessBadInput: bad boards and sizes give a specific error and no image.
func TestChessBadInput(t *testing.T) {
	t.Parallel()
	r := New()
	for _, c := range []struct {
		name string
		edit func(b *ChessBoard)
		size int
		want string
	}{
		{"size too small", nil, 100, "outside 160..2048"},
		{"size too large", nil, 5000, "outside 160..2048"},
		{"unknown kind", func(b *ChessBoard) { b.Squares[12] = ChessPiece{Kind: 9} }, 400, "square e2: unknown piece kind 9"},
		{"unknown colour", func(b *ChessBoard) { b.Squares[0] = ChessPiece{Rook, 2} }, 400, "square a1: unknown colour 2"},
		{"last move off board", func(b *ChessBoard) { b.LastMove = []Square{12, 64} }, 400, "last move square 64 is off the 8x8 board"},
		{"check off board", func(b *ChessBoard) { b.Check = []Square{-1} }, 400, "check square -1"},
		{"mark off board", func(b *ChessBoard) { b.CaptureMarks = []Square{99} }, 400, "capture mark square 99"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b ChessBoard
			if c.edit != nil {
				c.edit(&b)
			}
			img, err := r.ChessImage(&b, c.size)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if img != nil {
				t.Error("an image came back with the error")
			}
			if err := r.ChessPNG(io.Discard, &b, c.size); err == nil {
				t.Error("ChessPNG accepted what ChessImage refused")
			}
		})
	}
}

// TestSandBadInput: invalid SandTable boards are refused with an error
// naming the square and the problem, whatever the view.
func TestSandBadInput(t *testing.T) {
	t.Parallel()
	r := New()
	pc := func(s Square, k SandPieceKind, o Side, crew int) SandPiece {
		return SandPiece{Square: s, Kind: k, Owner: o, Crew: crew}
	}
	for _, c := range []struct {
		name string
		b    SandTableBoard
		v    View
		size int
		want string
	}{
		{"size", SandTableBoard{}, ViewPublic, 300, "outside 400..3000"},
		{"view", SandTableBoard{}, View(7), 600, "unknown SandTable view 7"},
		{"off board", SandTableBoard{Pieces: []SandPiece{pc(400, Infantry, South, 0)}}, ViewPublic, 600, "off the 20x20 board"},
		{"two on a square", SandTableBoard{Pieces: []SandPiece{pc(5, Infantry, South, 0), pc(5, Mine, North, 0)}}, ViewPublic, 600, "square f1 holds both a South Infantry and a North Mine"},
		{"crew of five", SandTableBoard{Pieces: []SandPiece{pc(20, Tank, South, 5)}}, ViewPublic, 600, "Tank on a2 has crew 5, want 0..4"},
		{"crewed neutral", SandTableBoard{Pieces: []SandPiece{pc(20, Airplane, Neutral, 2)}}, ViewPublic, 600, "crew 2 with owner neutral"},
		{"owned without crew", SandTableBoard{Pieces: []SandPiece{pc(20, Tank, North, 0)}}, ViewPublic, 600, "crew 0 with owner North"},
		{"neutral infantry", SandTableBoard{Pieces: []SandPiece{pc(20, Infantry, Neutral, 0)}}, ViewPublic, 600, "Infantry on a2 has no owner"},
		{"crewed mine", SandTableBoard{Pieces: []SandPiece{pc(20, Mine, South, 1)}}, ViewPublic, 600, "only Vehicles carry crew"},
		{"unknown kind", SandTableBoard{Pieces: []SandPiece{pc(20, 0, South, 0)}}, ViewPublic, 600, "unknown piece kind 0"},
		{"crater on piece", SandTableBoard{Pieces: []SandPiece{pc(30, Base, South, 0)}, Craters: []Square{30}}, ViewPublic, 600, "k2 holds both a South Base and a Crater"},
		{"crooked path", SandTableBoard{VehiclePath: []Square{0, 1, 22}}, ViewPublic, 600, "b1 to c2 does not go on in one straight line"},
		{"knight-like path", SandTableBoard{VehiclePath: []Square{0, 21 + 20}}, ViewPublic, 600, "a1 to b3 does not go on in one straight line"},
		{"path turning back", SandTableBoard{VehiclePath: []Square{0, 5, 2}}, ViewPublic, 600, "f1 to c1 does not go on"},
		{"path standing still", SandTableBoard{VehiclePath: []Square{7, 7}}, ViewPublic, 600, "h1 to h1 does not go on"},
		{"one-square path", SandTableBoard{VehiclePath: []Square{0}}, ViewPublic, 600, "only its start square"},
		{"long step", SandTableBoard{InfantrySteps: []Step{{0, 40}}}, ViewPublic, 600, "a1 to a3 is not one step"},
		{"drone owner", SandTableBoard{Drones: []DroneOrder{{Neutral, 0, 1}}}, ViewPublic, 600, "Drone order with owner neutral"},
		{"drone off board", SandTableBoard{Drones: []DroneOrder{{South, 0, 1000}}}, ViewPublic, 600, "off the board"},
		{"draft on a piece", SandTableBoard{Pieces: []SandPiece{pc(3, Base, South, 0)}, Drafts: [3][]SandPiece{South: {pc(3, Mine, South, 0)}}}, ViewPublic, 600, "places a Mine on d1, which holds a South Base"},
		{"draft of the wrong side", SandTableBoard{Drafts: [3][]SandPiece{North: {pc(300, Mine, South, 0)}}}, ViewNorth, 600, "North's deployment draft has a South Mine"},
		{"crewed draft vehicle", SandTableBoard{Drafts: [3][]SandPiece{South: {pc(3, Tank, South, 1)}}}, ViewSouth, 600, "South's deployment draft has a South Tank"},
		{"neutral draft", SandTableBoard{Drafts: [3][]SandPiece{Neutral: {pc(3, Tank, Neutral, 0)}}}, ViewSouth, 600, "must belong to South or North"},
	} {
		t.Run(c.name, func(t *testing.T) {
			img, err := r.SandTableImage(&c.b, c.v, c.size)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if img != nil {
				t.Error("an image came back with the error")
			}
		})
	}
}

// TestVehiclePathEndpoints: a path given as start and end squares draws
// the same as the same path listing every square.
func TestVehiclePathEndpoints(t *testing.T) {
	t.Parallel()
	r := New()
	full := SandTableBoard{VehiclePath: []Square{sq(t, "e4", 20), sq(t, "f5", 20), sq(t, "g6", 20), sq(t, "h7", 20)}}
	ends := SandTableBoard{VehiclePath: []Square{sq(t, "e4", 20), sq(t, "h7", 20)}}
	a, err := r.SandTableImage(&full, ViewPublic, 500)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.SandTableImage(&ends, ViewPublic, 500)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := differingPixels(a, b, 0); n != 0 {
		t.Errorf("%d pixels differ", n)
	}
	var none SandTableBoard
	c, _ := r.SandTableImage(&none, ViewPublic, 500)
	if n, _ := differingPixels(a, c, 0); n == 0 {
		t.Error("the path is not drawn")
	}
}
