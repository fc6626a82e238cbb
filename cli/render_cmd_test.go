package cli

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
)

func runRender(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(append([]string{"render"}, args...), &o, &e)
	return code, o.String(), e.String()
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// TestRenderChessCLI renders FENs through the command and compares the
// PNG with the renderer's image of the board the FEN describes, written
// out by hand: pieces, orientation, the checked king (chess, teamchess),
// Survival's capture marks and -last.
func TestRenderChessCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	type pc = render.ChessPiece
	for _, c := range []struct {
		name string
		args []string
		size int
		want render.ChessBoard
	}{
		{"survival without kings, capture marked", []string{"-game", "survival", "-fen", "8/8/8/3p4/4P3/8/8/8 w - - 0 1", "-size", "320"}, 320,
			func() (b render.ChessBoard) {
				b.Squares[35] = pc{Kind: render.Pawn, Colour: render.Black} // d5
				b.Squares[28] = pc{Kind: render.Pawn, Colour: render.White} // e4
				b.CaptureMarks = []render.Square{28}
				return
			}()},
		{"teamchess check, flipped, last move", []string{"-game", "teamchess", "-fen", "4k3/8/8/8/8/8/4R3/4K3 b - - 1 1", "-flip", "-last", "e3e2", "-size", "400"}, 400,
			func() (b render.ChessBoard) {
				b.Squares[60] = pc{Kind: render.King, Colour: render.Black} // e8
				b.Squares[12] = pc{Kind: render.Rook, Colour: render.White} // e2
				b.Squares[4] = pc{Kind: render.King, Colour: render.White}  // e1
				b.Check = []render.Square{60}
				b.LastMove = []render.Square{20, 12}
				b.Flipped = true
				return
			}()},
		{"chess default size, FEN with a byte-order mark", []string{"-game", "chess", "-fen", "\uFEFF4k3/8/8/8/8/8/8/4K2N w - - 0 1"}, render.DefaultChessSize,
			func() (b render.ChessBoard) {
				b.Squares[60] = pc{Kind: render.King, Colour: render.Black}
				b.Squares[4] = pc{Kind: render.King, Colour: render.White}
				b.Squares[7] = pc{Kind: render.Knight, Colour: render.White} // h1
				return
			}()},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".whatever")
			code, stdout, stderr := runRender(t, append(c.args, "-out", out)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
			if !strings.Contains(stdout, out) {
				t.Errorf("stdout %q does not name the file", stdout)
			}
			got := decodePNG(t, out)
			if got.Bounds().Dx() != c.size || got.Bounds().Dy() != c.size {
				t.Fatalf("image is %v, want %dx%d", got.Bounds().Size(), c.size, c.size)
			}
			want, err := render.New().ChessImage(&c.want, c.size)
			if err != nil {
				t.Fatal(err)
			}
			if !samePixels(got, want) {
				t.Error("the command's image differs from the board the FEN describes")
			}
		})
	}
}

// TestRenderCLIErrors: every bad input exits 2 with a clear message on
// standard error and writes no file.
func TestRenderCLIErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("not a position\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"bad FEN", []string{"-game", "chess", "-fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "-out", out}, "invalid FEN"},
		{"chess FEN without kings", []string{"-game", "chess", "-fen", "8/8/8/3p4/4P3/8/8/8 w - - 0 1", "-out", out}, "invalid FEN"},
		{"unwritable path", []string{"-game", "chess", "-fen", start, "-out", filepath.Join(dir, "no", "such", "dir", "x.png")}, "cannot write the image"},
		{"missing out", []string{"-game", "chess", "-fen", start}, "-out FILE is required"},
		{"missing game", []string{"-fen", start, "-out", out}, "-game is required"},
		{"unknown game", []string{"-game", "go", "-fen", start, "-out", out}, `-game "go"`},
		{"missing FEN", []string{"-game", "survival", "-out", out}, "-fen FEN is required"},
		{"size too small", []string{"-game", "chess", "-fen", start, "-size", "10", "-out", out}, "outside 160..2048"},
		{"bad last move", []string{"-game", "chess", "-fen", start, "-last", "e2", "-out", out}, `-last "e2"`},
		{"position for chess", []string{"-game", "chess", "-fen", start, "-position", bad, "-out", out}, "-position is for -game sandtable"},
		{"FEN for sandtable", []string{"-game", "sandtable", "-fen", start, "-out", out}, "-fen is for 8x8 games"},
		{"missing position", []string{"-game", "sandtable", "-out", out}, "-position FILE is required"},
		{"unreadable position", []string{"-game", "sandtable", "-position", filepath.Join(dir, "missing.txt"), "-out", out}, "cannot read the position"},
		{"bad position", []string{"-game", "sandtable", "-position", bad, "-out", out}, "bad.txt"},
		{"bad view", []string{"-game", "sandtable", "-position", bad, "-view", "east", "-out", out}, `-view "east"`},
		{"stray argument", []string{"-game", "chess", "-fen", "8/8/8/8/8/8/8/8", "w", "-out", out}, `unexpected argument "w"`},
		{"unknown flag", []string{"-colour", "red"}, "flag provided but not defined"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, stdout, stderr := runRender(t, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not contain %q", stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Error("a file was written")
				os.Remove(out)
			}
		})
	}
}

func TestRenderCLIHelp(t *testing.T) {
	t.Parallel()
	code, _, stderr := runRender(t, "-h")
	if code != 0 || !strings.Contains(stderr, "usage: sandtable render") {
		t.Errorf("exit %d, output %q", code, stderr)
	}
}

// sandGame returns a SandTable game after both presets were confirmed,
// the first mover's first legal Main action and a Drone declared in its
// PostTurn: a position with a secret pending Drone.
func sandGame(t *testing.T) *sandtable.Position {
	t.Helper()
	p := sandtable.NewGame(7)
	names := sandtable.PresetNames()
	for _, a := range []string{"S preset " + names[0], "N preset " + names[len(names)-1], "S confirm", "N confirm"} {
		if _, err := p.ApplyString(a); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if _, err := p.Apply(p.LegalActions()[0]); err != nil {
		t.Fatal(err)
	}
	for _, a := range p.LegalActions() {
		if a.Kind == sandtable.ActDrone {
			if _, err := p.Apply(a); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatal("no Drone could be declared")
	return nil
}

func renderSand(t *testing.T, dir, name, text string, args ...string) []byte {
	t.Helper()
	in := filepath.Join(dir, name+".txt")
	out := filepath.Join(dir, name+".png")
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runRender(t, append([]string{"-game", "sandtable", "-position", in, "-size", "500", "-out", out}, args...)...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", name, code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withoutDrones removes the Drone lines of a position text.
func withoutDrones(text string) string {
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "drone ") {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// TestRenderSandTableCLI: the public image of a position with a pending
// Drone is byte-identical to the one without it; the Drone's owner sees
// it; the other player's redacted view shows nothing of it.
func TestRenderSandTableCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := sandGame(t)
	if len(p.Drones()) != 1 {
		t.Fatalf("want one pending Drone, have %d", len(p.Drones()))
	}
	owner, other := "south", "north"
	if p.Drones()[0].Side == sandtable.North {
		owner, other = other, owner
	}
	full := p.Format()
	bare := withoutDrones(full)
	if bare == full {
		t.Fatal("the position text has no drone line")
	}
	if _, err := sandtable.ParsePosition(bare); err != nil {
		t.Fatalf("position without its Drone does not parse: %v", err)
	}
	if !bytes.Equal(renderSand(t, dir, "pub", full), renderSand(t, dir, "pub-bare", bare)) {
		t.Error("public image depends on the pending Drone")
	}
	if bytes.Equal(renderSand(t, dir, "own", full, "-view", owner), renderSand(t, dir, "own-bare", bare, "-view", owner)) {
		t.Errorf("%s's view does not show its own Drone", owner)
	}
	if !bytes.Equal(renderSand(t, dir, "other", full, "-view", other), renderSand(t, dir, "other-bare", bare, "-view", other)) {
		t.Errorf("%s's view shows the opponent's Drone", other)
	}
	side := sandtable.South
	if other == "north" {
		side = sandtable.North
	}
	redacted := p.View(side).Format()
	if !bytes.Equal(renderSand(t, dir, "redacted", redacted, "-view", other), renderSand(t, dir, "other-bare2", bare, "-view", other)) {
		t.Errorf("%s's redacted view renders differently from the position without the Drone", other)
	}
	if bytes.Equal(renderSand(t, dir, "flip", full, "-flip"), renderSand(t, dir, "noflip", full)) {
		t.Error("-flip changes nothing")
	}
}

// TestSandTableBoardConversion checks the conversion of an engine view
// into the renderer's input against the position's own counts.
func TestSandTableBoardConversion(t *testing.T) {
	t.Parallel()
	p := sandGame(t)
	if _, err := sandboard.FromView(p); err == nil {
		t.Error("a full position was converted")
	}
	b, err := sandboard.FromView(p.View(p.Drones()[0].Side))
	if err != nil {
		t.Fatal(err)
	}
	ground, crews := 0, 0
	for _, pc := range p.Pieces() {
		if pc.Carrier.IsZero() {
			ground++
		}
	}
	for _, pc := range b.Pieces {
		crews += pc.Crew
		if pc.Kind.IsVehicle() != (pc.Kind == render.Tank || pc.Kind == render.Airplane) {
			t.Errorf("%v: kind mapping", pc)
		}
	}
	if len(b.Pieces) != ground || ground+crews != len(p.Pieces()) {
		t.Errorf("converted %d pieces carrying %d crew; the position has %d pieces, %d on the ground", len(b.Pieces), crews, len(p.Pieces()), ground)
	}
	if len(b.Drones) != 1 {
		t.Errorf("converted %d Drones, want 1", len(b.Drones))
	}
	spotter, _ := p.Piece(p.Drones()[0].Spotter)
	if d := b.Drones[0]; d.Spotter != render.Square(spotter.Square) || d.Target != render.Square(p.Drones()[0].Target) {
		t.Errorf("Drone converted to %+v", d)
	}

	// Deployment: each side's draft becomes that player's secret Drafts,
	// Vehicles neutral.
	q := sandtable.NewGame(1)
	if _, err := q.ApplyString("S preset " + sandtable.PresetNames()[0]); err != nil {
		t.Fatal(err)
	}
	b, err = sandboard.FromView(q.View(sandtable.South))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Pieces) != 0 || len(b.Drafts[render.South]) != sandtable.RequiredTotal || len(b.Drafts[render.North]) != 0 {
		t.Fatalf("deployment converted to %d pieces, drafts %d/%d", len(b.Pieces), len(b.Drafts[render.South]), len(b.Drafts[render.North]))
	}
	for _, pc := range b.Drafts[render.South] {
		if want := render.South; pc.Kind.IsVehicle() && pc.Owner != render.Neutral || !pc.Kind.IsVehicle() && pc.Owner != want {
			t.Errorf("drafted %v has owner %v", pc.Kind, pc.Owner)
		}
	}
	if _, err := render.New().SandTableImage(&b, render.ViewSouth, 500); err != nil {
		t.Errorf("converted deployment does not render: %v", err)
	}
}
