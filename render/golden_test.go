package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata/")

// goldenCase renders one image for a golden test.
type goldenCase struct {
	name   string
	render func(t *testing.T, r *Renderer) image.Image
}

func chessCase(name, fen string, size int, edit func(t *testing.T, b *ChessBoard)) goldenCase {
	return goldenCase{name, func(t *testing.T, r *Renderer) image.Image {
		b := placement(t, fen)
		if edit != nil {
			edit(t, &b)
		}
		img, err := r.ChessImage(&b, size)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}}
}

func sandCase(name string, v View, size int, board func(t testing.TB) SandTableBoard) goldenCase {
	return goldenCase{name, func(t *testing.T, r *Renderer) image.Image {
		b := board(t)
		img, err := r.SandTableImage(&b, v, size)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}}
}

// midgame is a SandTable position under way: full armies with crews, an
// Airplane that flew e4-k10, two Infantry steps, a Crater and pending
// Drones of both sides (secret).
func midgame(t testing.TB) SandTableBoard {
	b := fullBoard(true)
	for i, p := range b.Pieces {
		if p.Square == sq(t, "e4", 20) {
			b.Pieces[i].Square = sq(t, "k10", 20)
		}
		if p.Square == sq(t, "c15", 20) { // North Infantry c15-d16
			b.Pieces[i].Square = sq(t, "d16", 20)
		}
	}
	b.VehiclePath = []Square{sq(t, "e4", 20), sq(t, "f5", 20), sq(t, "g6", 20), sq(t, "h7", 20), sq(t, "i8", 20), sq(t, "j9", 20), sq(t, "k10", 20)}
	b.InfantrySteps = []Step{{sq(t, "c15", 20), sq(t, "d16", 20)}}
	b.Craters = []Square{sq(t, "m11", 20), sq(t, "c12", 20)}
	b.Drones = []DroneOrder{
		{South, sq(t, "e8", 20), sq(t, "e10", 20)},
		{South, sq(t, "i8", 20), sq(t, "h10", 20)},
		{North, sq(t, "q13", 20), sq(t, "q11", 20)},
	}
	return b
}

// drafting is Deployment under way: nothing public yet, South has drafted
// its whole army, North half of its.
func drafting(t testing.TB) SandTableBoard {
	var b SandTableBoard
	b.Drafts[South] = deployment(South, false)
	b.Drafts[North] = deployment(North, false)[:34]
	return b
}

// secretsOf is b as a viewer's view gives it: only side's own Drafts and
// Drones (none for Neutral, the public).
func secretsOf(b SandTableBoard, side Side) SandTableBoard {
	var drones []DroneOrder
	for _, d := range b.Drones {
		if d.Owner == side && side != Neutral {
			drones = append(drones, d)
		}
	}
	b.Drones = drones
	var drafts [3][]SandPiece
	if side != Neutral {
		drafts[side] = b.Drafts[side]
	}
	b.Drafts = drafts
	return b
}

func goldenCases() []goldenCase {
	return []goldenCase{
		chessCase("chess_start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", 480, nil),
		chessCase("teamchess_check_flipped", "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR", 400, func(t *testing.T, b *ChessBoard) {
			b.Flipped = true
			b.LastMove = []Square{sq(t, "h5", 8), sq(t, "f7", 8)}
			b.Check = []Square{sq(t, "e8", 8)}
		}),
		chessCase("survival_capture_marks", "8/PpPp1pPp/pP1PpPpP/PpPpPp1p/pPpPpPpP/P1Pp1pPp/pPpPpPpP/8", 320, func(t *testing.T, b *ChessBoard) {
			b.LastMove = []Square{sq(t, "e7", 8), sq(t, "f6", 8)}
			b.CaptureMarks = []Square{sq(t, "e6", 8), sq(t, "g6", 8), sq(t, "e5", 8)}
		}),
		sandCase("sandtable_public", ViewPublic, 640, func(t testing.TB) SandTableBoard { return secretsOf(midgame(t), Neutral) }),
		sandCase("sandtable_south_private", ViewSouth, 640, func(t testing.TB) SandTableBoard { return secretsOf(midgame(t), South) }),
		sandCase("sandtable_north_flipped", ViewNorth, 640, func(t testing.TB) SandTableBoard {
			b := secretsOf(midgame(t), North)
			b.Flipped = true
			return b
		}),
		sandCase("sandtable_deployment_south", ViewSouth, 480, func(t testing.TB) SandTableBoard { return secretsOf(drafting(t), South) }),
		{"legend", func(t *testing.T, r *Renderer) image.Image {
			var buf bytes.Buffer
			if err := LegendPNG(&buf); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&buf)
			if err != nil {
				t.Fatal(err)
			}
			return img
		}},
	}
}

// TestGolden compares rendered images with testdata/*.png pixel by pixel.
// Anti-aliasing may differ in the last bits between CPU architectures
// (fused multiply-add), so a pixel counts as different only when a channel
// differs by more than 24, and at most 0.1% of pixels may differ.
// Run with -update to rewrite the files after an intended change, then
// look at them.
func TestGolden(t *testing.T) {
	t.Parallel()
	r := New()
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			got := c.render(t, r)
			path := filepath.Join("testdata", c.name+".png")
			if *update {
				var buf bytes.Buffer
				if err := png.Encode(&buf, got); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatalf("%v (run go test ./render -update to create it)", err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if n, total := differingPixels(got, want, 24); n*1000 > total {
				out := filepath.Join(t.TempDir(), c.name+".png")
				var buf bytes.Buffer
				png.Encode(&buf, got)
				os.WriteFile(out, buf.Bytes(), 0o644)
				t.Errorf("%d of %d pixels differ from %s; got image written to %s", n, total, path, out)
			}
		})
	}
}

// differingPixels counts pixels whose colours differ by more than tol in
// some channel (8-bit); images of different sizes differ everywhere.
func differingPixels(a, b image.Image, tol int) (n, total int) {
	ra, rb := a.Bounds(), b.Bounds()
	total = max(ra.Dx()*ra.Dy(), 1)
	if ra.Size() != rb.Size() {
		return total, total
	}
	for y := 0; y < ra.Dy(); y++ {
		for x := 0; x < ra.Dx(); x++ {
			ca := color.NRGBAModel.Convert(a.At(ra.Min.X+x, ra.Min.Y+y)).(color.NRGBA)
			cb := color.NRGBAModel.Convert(b.At(rb.Min.X+x, rb.Min.Y+y)).(color.NRGBA)
			if absDiff(ca.R, cb.R) > tol || absDiff(ca.G, cb.G) > tol || absDiff(ca.B, cb.B) > tol || absDiff(ca.A, cb.A) > tol {
				n++
			}
		}
	}
	return n, total
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// TestGoldenDetectsChange guards the comparison itself: moving one pawn
// must count as a difference.
func TestGoldenDetectsChange(t *testing.T) {
	t.Parallel()
	r := New()
	a := placement(t, "8/8/8/8/4P3/8/8/8")
	b := placement(t, "8/8/8/8/8/4P3/8/8")
	ia, _ := r.ChessImage(&a, 320)
	ib, _ := r.ChessImage(&b, 320)
	if n, total := differingPixels(ia, ib, 24); n*1000 <= total {
		t.Fatalf("moving a pawn changed only %d of %d pixels", n, total)
	}
}

// TestDocImages rewrites the SandTable examples in docs/images with -update
// (the 8x8 examples there are made with the render command; see the
// README).
func TestDocImages(t *testing.T) {
	t.Parallel()
	if !*update {
		t.Skip("run with -update to rewrite docs/images")
	}
	r := New()
	write := func(name string, b SandTableBoard, v View) {
		var buf bytes.Buffer
		if err := r.SandTablePNG(&buf, &b, v, DefaultSandTableSize); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "images", name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sandtable_public.png", midgame(t), ViewPublic)
	write("sandtable_south_private.png", midgame(t), ViewSouth)
	write("sandtable_deployment_south.png", drafting(t), ViewSouth)
	var buf bytes.Buffer
	if err := LegendPNG(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "docs", "images", "sandtable_legend.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
