package render

import (
	"image"
	"image/color"
	"testing"
)

// changedBox returns the bounding box of the pixels that differ between a
// and b (two images of one size and palette).
func changedBox(a, b *image.Paletted) image.Rectangle {
	var box image.Rectangle
	first := true
	for y := 0; y < a.Rect.Dy(); y++ {
		ra, rb := a.Pix[y*a.Stride:][:a.Rect.Dx()], b.Pix[y*b.Stride:][:b.Rect.Dx()]
		if string(ra) == string(rb) {
			continue
		}
		for x := range ra {
			if ra[x] == rb[x] {
				continue
			}
			p := image.Rect(x, y, x+1, y+1)
			if first {
				box, first = p, false
			} else {
				box = box.Union(p)
			}
		}
	}
	return box
}

// boardSpan finds the board's left and right edges on row y by scanning
// for the first and last pixel of one of the given colours: a measurement
// of the image that does not use the layout code under test.
func boardSpan(t *testing.T, img *image.Paletted, y int, colours ...color.RGBA) (lo, hi int) {
	t.Helper()
	lo, hi = -1, -1
	for x := 0; x < img.Rect.Dx(); x++ {
		c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)
		for _, want := range colours {
			if c == want {
				if lo < 0 {
					lo = x
				}
				hi = x
			}
		}
	}
	if lo < 0 {
		t.Fatalf("no board colour found on row %d", y)
	}
	return lo, hi + 1
}

func hasColour(img *image.Paletted, box image.Rectangle, want color.RGBA) bool {
	idx := map[uint8]bool{}
	for i, c := range img.Palette {
		if color.RGBAModel.Convert(c).(color.RGBA) == want {
			idx[uint8(i)] = true
		}
	}
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			if idx[img.Pix[img.PixOffset(x, y)]] {
				return true
			}
		}
	}
	return false
}

// TestChessPieceOnItsSquare draws one piece at a time on an empty board and
// checks that every changed pixel lies inside the expected square, for
// both orientations: with White at the bottom a1 is bottom-left; flipped,
// a1 is top-right.
func TestChessPieceOnItsSquare(t *testing.T) {
	t.Parallel()
	r := New()
	const size = 400
	empty := ChessBoard{}
	for _, flipped := range []bool{false, true} {
		empty.Flipped = flipped
		base, err := r.ChessImage(&empty, size)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := boardSpan(t, base, size/2, chessLight, chessDark)
		edge := float64(hi-lo) / 8
		for _, c := range []struct {
			square string
			piece  ChessPiece
			col    color.RGBA // a colour the piece must show
		}{
			{"a1", ChessPiece{Rook, White}, chessWhitePieces.fill},
			{"e4", ChessPiece{Knight, Black}, chessBlackPieces.fill},
			{"h8", ChessPiece{King, Black}, chessBlackPieces.fill},
			{"c7", ChessPiece{Pawn, White}, chessWhitePieces.fill},
		} {
			s := sq(t, c.square, 8)
			b := ChessBoard{Flipped: flipped}
			b.Squares[s] = c.piece
			img, err := r.ChessImage(&b, size)
			if err != nil {
				t.Fatal(err)
			}
			file, rank := int(s)%8, int(s)/8
			col, row := file, 7-rank
			if flipped {
				col, row = 7-file, rank
			}
			// The board is square and its top edge is as far from the
			// image's top as its left edge is from the image's left.
			want := image.Rect(lo+int(float64(col)*edge), lo+int(float64(row)*edge),
				lo+int(float64(col+1)*edge)+1, lo+int(float64(row+1)*edge)+1)
			got := changedBox(base, img)
			if got.Empty() || !got.In(want) {
				t.Errorf("flipped=%v %v on %s: drawn in %v, want inside %v", flipped, c.piece, c.square, got, want)
			}
			if got.Dx() < int(edge/2) || got.Dy() < int(edge/2) {
				t.Errorf("flipped=%v %s: piece only %v, want at least half a square", flipped, c.square, got.Size())
			}
			if !hasColour(img, got, c.col) {
				t.Errorf("flipped=%v %s: piece does not show its side's colour %v", flipped, c.square, c.col)
			}
		}
	}
}

// TestSandPieceOnItsSquare does the same on the SandTable board: South at
// the bottom (a1 bottom-left) or, flipped, North at the bottom (a1
// top-right); it also checks each side's colour and the crew badge.
func TestSandPieceOnItsSquare(t *testing.T) {
	t.Parallel()
	r := New()
	const size = 700
	for _, flipped := range []bool{false, true} {
		empty := SandTableBoard{Flipped: flipped}
		base, err := r.SandTableImage(&empty, ViewPublic, size)
		if err != nil {
			t.Fatal(err)
		}
		// rank 5 and rank 16 rows are plain zone squares; scan the grid
		// colour along a row inside the board to find its edges
		lo, hi := boardSpan(t, base, size/4, sandGrid)
		pitch := float64(hi-lo) / 20
		for _, c := range []struct {
			square string
			piece  SandPiece
			col    color.RGBA
		}{
			{"a1", SandPiece{Kind: Base, Owner: South}, southFill},
			{"c17", SandPiece{Kind: Infantry, Owner: North}, northFill},
			{"t20", SandPiece{Kind: Tank, Owner: South, Crew: 3}, southFill},
			{"k10", SandPiece{Kind: Airplane, Owner: Neutral}, neutralFill},
			{"h12", SandPiece{Kind: Mine, Owner: North}, northFill},
		} {
			p := c.piece
			p.Square = sq(t, c.square, 20)
			b := SandTableBoard{Flipped: flipped, Pieces: []SandPiece{p}}
			img, err := r.SandTableImage(&b, ViewPublic, size)
			if err != nil {
				t.Fatal(err)
			}
			got := changedBox(base, img)
			if got.Empty() {
				t.Fatalf("flipped=%v %s: nothing drawn", flipped, c.square)
			}
			file, rank := int(p.Square)%20, int(p.Square)/20
			col := int((float64((got.Min.X+got.Max.X)/2 - lo)) / pitch)
			wantCol := file
			if flipped {
				wantCol = 19 - file
			}
			if col != wantCol {
				t.Errorf("flipped=%v %s: drawn in column %d, want %d", flipped, c.square, col, wantCol)
			}
			// the midline makes rows slightly uneven; measure from the top
			// of the board (its top edge sits as far down as lo is across)
			top := lo
			row := int(float64((got.Min.Y+got.Max.Y)/2-top) / pitch)
			wantRow := 19 - rank
			if flipped {
				wantRow = rank
			}
			if row != wantRow {
				t.Errorf("flipped=%v %s: drawn in row %d, want %d", flipped, c.square, row, wantRow)
			}
			if got.Dx() > int(pitch)+1 || got.Dy() > int(pitch)+1 {
				t.Errorf("flipped=%v %s: drawing %v spills out of its square (pitch %.1f)", flipped, c.square, got.Size(), pitch)
			}
			if !hasColour(img, got, c.col) {
				t.Errorf("flipped=%v %s: %s %s not drawn in its colour", flipped, c.square, p.Owner, p.Kind)
			}
			if p.Kind.IsVehicle() && !hasColour(img, got, badgeFill) {
				t.Errorf("flipped=%v %s: Vehicle without its crew badge", flipped, c.square)
			}
		}
	}
}

// TestCrewCountShown checks that each crew count draws a different badge.
func TestCrewCountShown(t *testing.T) {
	t.Parallel()
	r := New()
	seen := map[string]int{}
	for crew := 0; crew <= 4; crew++ {
		owner := South
		if crew == 0 {
			owner = Neutral
		}
		b := SandTableBoard{Pieces: []SandPiece{{Square: 0, Kind: Tank, Owner: owner, Crew: crew}}}
		img, err := r.SandTableImage(&b, ViewPublic, 500)
		if err != nil {
			t.Fatal(err)
		}
		l := newSandLayout(500)
		x, y := l.cell(0, false)
		tile := img.SubImage(image.Rect(x, y, x+l.sq, y+l.sq)).(*image.Paletted)
		key := string(tile.Pix[:0])
		for yy := 0; yy < l.sq; yy++ {
			key += string(tile.Pix[yy*tile.Stride : yy*tile.Stride+l.sq])
		}
		if prev, ok := seen[key]; ok {
			t.Errorf("crew %d draws the same tile as crew %d", crew, prev)
		}
		seen[key] = crew
	}
}
