package render

import (
	"bytes"
	"image/png"
	"io"
	"testing"

	"github.com/fogleman/gg"
)

const benchFEN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR"

func benchChessBoard(b *testing.B) ChessBoard {
	cb := placement(b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
	cb.LastMove = []Square{sq(b, "e2", 8), sq(b, "e4", 8)}
	return cb
}

// naiveChessPNG is the baseline the issue asks us to beat: draw the whole
// image with gg for every request (margins, coordinates with a fresh font
// face, squares, highlights, every piece as vectors) and encode the RGBA
// result with the default PNG encoder.
func naiveChessPNG(w io.Writer, b *ChessBoard, size int) error {
	l := newChessLayout(size)
	dc := gg.NewContextForRGBA(drawChessFrame(l, b.Flipped))
	var hl [64]int
	var mark [64]bool
	for _, s := range b.LastMove {
		hl[s] = 1
	}
	for _, s := range b.Check {
		hl[s] = 2
	}
	for _, s := range b.CaptureMarks {
		mark[s] = true
	}
	for s := 0; s < 64; s++ {
		x, y := l.squareAt(Square(s), b.Flipped)
		fx, fy, fs := float64(x), float64(y), float64(l.sq)
		if hl[s] != 0 || mark[s] {
			drawChessSquare(dc, fx, fy, fs, (s%8+s/8)%2 == 0, hl[s], mark[s])
		}
		if p := b.Squares[s]; p.Kind != NoPiece {
			st := chessWhitePieces
			if p.Colour == Black {
				st = chessBlackPieces
			}
			drawChessPiece(dc, p.Kind, st, fx, fy, fs)
		}
	}
	return png.Encode(w, dc.Image())
}

func BenchmarkChess640(b *testing.B) {
	r := New()
	cb := benchChessBoard(b)
	var buf bytes.Buffer
	if err := r.ChessPNG(&buf, &cb, 640); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		buf.Reset()
		if err := r.ChessPNG(&buf, &cb, 640); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1000, "KB/image")
}

func BenchmarkChess640Naive(b *testing.B) {
	cb := benchChessBoard(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := naiveChessPNG(&buf, &cb, 640); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1000, "KB/image")
}

// benchSandBoard is a full deployment (136 pieces) with crews and a
// Vehicle route, as in a game under way.
func benchSandBoard(b *testing.B) SandTableBoard {
	sb := fullBoard(true)
	if n := len(sb.Pieces); n != 136 {
		b.Fatalf("full deployment has %d pieces, want 136", n)
	}
	sb.InfantrySteps = []Step{{sq(b, "c5", 20), sq(b, "c6", 20)}}
	return sb
}

// naiveSandPNG is the baseline: the whole image drawn with gg for every
// request, encoded as RGBA.
func naiveSandPNG(w io.Writer, b *SandTableBoard, size int) error {
	l := newSandLayout(size)
	dc := gg.NewContextForRGBA(drawSandFrame(l, b.Flipped, ViewPublic))
	occupied := map[Square]SandPiece{}
	for _, p := range b.Pieces {
		occupied[p.Square] = p
	}
	var in, out [400]int
	for _, st := range b.InfantrySteps {
		d, _ := direction(st.From, st.To)
		out[st.From], in[st.To] = d+1, d+1
	}
	for s := Square(0); s < 400; s++ {
		x, y := l.cell(s, b.Flipped)
		fx, fy, fs := float64(x), float64(y), float64(l.sq)
		dc.SetColor(areaColour(sandArea(s), sandShade(s)))
		if in[s] != 0 || out[s] != 0 {
			dc.SetColor(mix(areaColour(sandArea(s), sandShade(s)), moveTint, 0.5))
		}
		dc.DrawRectangle(fx, fy, fs, fs)
		dc.Fill()
		if in[s] != 0 || out[s] != 0 {
			drawRoute(dc, fx, fy, fs, in[s], out[s])
		}
		if p, ok := occupied[s]; ok {
			drawSandPiece(dc, p.Kind, p.Owner, p.Crew, fx, fy, fs, forwardAngle(p.Owner, b.Flipped))
		}
	}
	return png.Encode(w, dc.Image())
}

func BenchmarkSandTable1000(b *testing.B) {
	r := New()
	sb := benchSandBoard(b)
	var buf bytes.Buffer
	if err := r.SandTablePNG(&buf, &sb, ViewPublic, 1000); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		buf.Reset()
		if err := r.SandTablePNG(&buf, &sb, ViewPublic, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1000, "KB/image")
}

func BenchmarkSandTable1000Naive(b *testing.B) {
	sb := benchSandBoard(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := naiveSandPNG(&buf, &sb, 1000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1000, "KB/image")
}
