package cli

import (
	"bytes"
	"fmt"
	"image/gif"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sandtable/games/chess"
	"sandtable/games/sandtable"
	"sandtable/games/teamchess"
	"sandtable/render"
	"sandtable/render/sandboard"
)

func runReplay(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(append([]string{"replay"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// shownFrames decodes a GIF file and returns the palette indexes shown
// after each frame (frames drawn over the ones before, transparent pixels
// keeping what is under them).
func shownFrames(t *testing.T, path string) (*gif.GIF, [][]byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	w := g.Config.Width
	canvas := make([]byte, w*g.Config.Height)
	var out [][]byte
	for _, fr := range g.Image {
		tr := -1
		for i, c := range fr.Palette {
			if _, _, _, a := c.RGBA(); a == 0 {
				tr = i
			}
		}
		for y := fr.Rect.Min.Y; y < fr.Rect.Max.Y; y++ {
			for x := fr.Rect.Min.X; x < fr.Rect.Max.X; x++ {
				if v := fr.ColorIndexAt(x, y); int(v) != tr {
					canvas[y*w+x] = v
				}
			}
		}
		out = append(out, append([]byte(nil), canvas...))
	}
	return g, out
}

// randomChessGame plays up to plies random legal moves in variant and
// returns the game.
func randomChessGame(t *testing.T, v chess.Variant, plies int, seed uint64) *chess.Game {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 2))
	g := chess.NewGame(v)
	for range plies {
		ms := g.Position().LegalMoves()
		if len(ms) == 0 {
			break
		}
		if err := g.Play(ms[r.IntN(len(ms))]); err != nil {
			break
		}
	}
	return g
}

// TestReplayChessCLI: a PGN of each 8x8 variant (as the bot exports it)
// becomes a GIF with one board per position, the last one the final
// position with the last move highlighted, drawn as the renderer draws it.
func TestReplayChessCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, v := range []chess.Variant{chess.Chess, chess.Survival} {
		g := randomChessGame(t, v, 30, uint64(v)+5)
		pgn := filepath.Join(dir, v.String()+".pgn")
		if err := os.WriteFile(pgn, []byte(g.PGN([]chess.Tag{{Name: "Event", Value: "CLI test"}}, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, v.String()+".gif")
		code, stdout, stderr := runReplay(t, "-game", v.String(), "-pgn", pgn, "-size", "240", "-flip", "-out", out)
		if code != 0 || !strings.Contains(stdout, "wrote") {
			t.Fatalf("%s: exit %d, %s%s", v, code, stdout, stderr)
		}
		dec, frames := shownFrames(t, out)
		if len(frames) != len(g.SANs())+1 || dec.Config.Width != 240 {
			t.Fatalf("%s: %d frames of %d px for %d moves", v, len(frames), dec.Config.Width, len(g.SANs()))
		}
		b := chessBoard(g.Position())
		from, to, _ := g.LastMoveSquares()
		b.LastMove = []render.Square{render.Square(from), render.Square(to)}
		b.Flipped = true
		want, err := render.New().ChessImage(&b, 240)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(frames[len(frames)-1], want.Pix) {
			t.Errorf("%s: the last frame is not the final position", v)
		}
		if dec.Delay[0] != 100 || dec.Delay[len(dec.Delay)-1] != 400 {
			t.Errorf("%s: delays %d … %d, want 100 … 400", v, dec.Delay[0], dec.Delay[len(dec.Delay)-1])
		}
	}
	// Survival without a FEN tag starts from the Tartan Grid.
	pgn := filepath.Join(dir, "bare.pgn")
	os.WriteFile(pgn, []byte("1. g8=Q *\n"), 0o644)
	if code, _, stderr := runReplay(t, "-game", "survival", "-pgn", pgn, "-size", "200", "-out", filepath.Join(dir, "bare.gif")); code != 0 {
		t.Errorf("a Survival PGN without tags: exit %d, %s", code, stderr)
	} else if strings.Contains(stderr, "more than one game") {
		t.Errorf("one game, yet: %s", stderr)
	}
	// lichess's export of a chess game from a set-up position.
	lichess := filepath.Join(dir, "lichess.pgn")
	os.WriteFile(lichess, []byte("[Variant \"From Position\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n"), 0o644)
	if code, stdout, stderr := runReplay(t, "-game", "chess", "-pgn", lichess, "-size", "200", "-out", filepath.Join(dir, "lichess.gif")); code != 0 || !strings.Contains(stdout, "3 boards") {
		t.Errorf("[Variant \"From Position\"]: exit %d, %s%s", code, stdout, stderr)
	}
	if code, _, stderr := runReplay(t, "-game", "survival", "-pgn", lichess, "-size", "200", "-out", filepath.Join(dir, "lichess.gif")); code != 2 || !strings.Contains(stderr, "give -game chess") {
		t.Errorf("[Variant \"From Position\"] as Survival: exit %d, %s", code, stderr)
	}
	// Two games: the first is drawn, and the user is told so.
	os.WriteFile(pgn, []byte("1. g8=Q *\n\n[Event \"second\"]\n1. g8=N *\n"), 0o644)
	code, stdout, stderr := runReplay(t, "-game", "survival", "-pgn", pgn, "-size", "200", "-out", filepath.Join(dir, "bare.gif"))
	if code != 0 || !strings.Contains(stdout, "2 boards") || !strings.Contains(stderr, "only the first is drawn") {
		t.Errorf("two games: exit %d, %s%s", code, stdout, stderr)
	}
}

// TestReplayTeamChessCLI: Team Chess's own notation, sacrifices included,
// replays, the Assassin's victim highlighted with the move.
func TestReplayTeamChessCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g, err := teamchess.NewGame(teamchess.Setup{FEN: "r3k3/1P6/8/8/8/8/8/3QK2R w - - 0 1",
		White: []teamchess.Member{{ID: "1", Name: "Ann"}}, Black: []teamchess.Member{{ID: "2", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Play("", "b8=Assassin:xa8"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"Kf7", "Rh7+"} {
		if _, err := g.Play("", m); err != nil {
			t.Fatal(err)
		}
	}
	text := g.PGN(nil)
	if !strings.Contains(text, "Assassin") {
		t.Fatalf("no sacrifice in the PGN:\n%s", text)
	}
	pgn := filepath.Join(dir, "team.pgn")
	os.WriteFile(pgn, []byte(text), 0o644)
	out := filepath.Join(dir, "team.gif")
	if code, _, stderr := runReplay(t, "-game", "teamchess", "-pgn", pgn, "-size", "200", "-out", out); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, stderr, text)
	}
	_, frames := shownFrames(t, out)
	if len(frames) != 4 {
		t.Fatalf("%d frames, want 4", len(frames))
	}
	pos, _ := chess.ParseFEN(chess.TeamChess, "r3k3/1P6/8/8/8/8/8/3QK2R w - - 0 1")
	m, err := teamchess.ParseMove(&pos, "b8=Assassin:xa8")
	if err != nil {
		t.Fatal(err)
	}
	after, _ := pos.Play(m.Board)
	b := chessBoard(&after)
	b.LastMove = []render.Square{render.Square(m.Board.From()), render.Square(m.Board.To()), 56}
	want, _ := render.New().ChessImage(&b, 200)
	if !bytes.Equal(frames[1], want.Pix) {
		t.Error("the sacrifice's frame is not its board with b7, b8 and the victim's a8 highlighted")
	}
}

// sandRecordFile plays a random SandTable game and writes its record.
func sandRecordFile(t *testing.T, dir string, actions int) (string, *sandtable.Record) {
	t.Helper()
	r := rand.New(rand.NewPCG(9, 9))
	p := sandtable.NewGame(9)
	var log []sandtable.Entry
	for _, a := range []string{"S random 1", "N random 2", "S confirm", "N confirm"} {
		e, err := p.ApplyString(a)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	start := p.Clone()
	for i := 0; i < actions && p.Phase() != sandtable.PhaseFinished; i++ {
		acts := p.LegalActions()
		e, err := p.Apply(acts[r.IntN(len(acts))])
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	rec, err := sandtable.NewRecord(start, log)
	if err != nil {
		t.Fatal(err)
	}
	data, err := rec.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "game.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, rec
}

// TestReplaySandTableCLI: a record becomes a GIF with a board per turn or
// per action, the last the final board with everything shown.
func TestReplaySandTableCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path, rec := sandRecordFile(t, dir, 30)
	for _, each := range []string{"turn", "action"} {
		out := filepath.Join(dir, each+".gif")
		code, stdout, stderr := runReplay(t, "-game", "sandtable", "-record", path, "-frames", each, "-size", "400", "-out", out)
		if code != 0 {
			t.Fatalf("-frames %s: exit %d, %s%s", each, code, stdout, stderr)
		}
		want, err := sandboard.ReplayBoards(rec, map[string]sandboard.Frames{"turn": sandboard.EveryTurn, "action": sandboard.EveryAction}[each])
		if err != nil {
			t.Fatal(err)
		}
		_, frames := shownFrames(t, out)
		if len(frames) != len(want) {
			t.Fatalf("-frames %s: %d frames, want %d", each, len(frames), len(want))
		}
		last, err := render.New().SandTableImage(&want[len(want)-1], render.ViewPublic, 400)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(frames[len(frames)-1], last.Pix) {
			t.Errorf("-frames %s: the last frame is not the final board", each)
		}
	}
	if n := len(rec.Actions); n < 10 {
		t.Errorf("only %d actions played", n)
	}
}

// TestReplayCLIRefuses: bad arguments and bad files are refused with a
// message naming the problem, and no file is written.
func TestReplayCLIRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec, _ := sandRecordFile(t, dir, 6)
	good := filepath.Join(dir, "good.pgn")
	os.WriteFile(good, []byte("1. e4 e5 *\n"), 0o644)
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	illegal := file("illegal.pgn", "1. e4 e5 2. Ke3 *\n")
	variant := file("variant.pgn", "[Variant \"Survival Chess: Tartan Grid\"]\n\n1. g8=Q *\n")
	odd := file("odd.pgn", "[Variant \"Crazyhouse\"]\n\n1. e4 *\n")
	broken := file("broken.pgn", "1. e4 {oops\n")
	pass := file("pass.pgn", "1. e4 -- *\n")
	fivefold := file("fivefold.pgn", strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 4)+"Nc3 *\n")
	badRec := file("bad.json", strings.Replace(string(must(os.ReadFile(rec))), `"version": 1`, `"version": 7`, 1))
	// Issue 26: a record's result and seed are checked (the 6 actions do
	// not end the game).
	withResult := func(name, result string) string {
		text := string(must(os.ReadFile(rec)))
		i := strings.LastIndex(text, "}")
		return file(name, text[:i]+`, "result": `+result+"}\n")
	}
	unreached := withResult("unreached.json", `{"winner": "south", "reason": "no-bases"}`)
	unknown := withResult("unknown.json", `{"winner": "south", "reason": "forfeit"}`)
	seeded := file("seeded.json", strings.Replace(string(must(os.ReadFile(rec))), `\nseed 0\n`, `\nseed 9\n`, 1))
	out := filepath.Join(dir, "out.gif")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-pgn", good, "-out", out}, 2, "-game is required"},
		{[]string{"-game", "go", "-pgn", good, "-out", out}, 2, "want survival"},
		{[]string{"-game", "chess", "-pgn", good}, 2, "-out FILE is required"},
		{[]string{"-game", "chess", "-out", out}, 2, "-pgn FILE is required"},
		{[]string{"-game", "chess", "-pgn", good, "-record", rec, "-out", out}, 2, "-record is for -game sandtable"},
		{[]string{"-game", "sandtable", "-pgn", good, "-out", out}, 2, "-pgn is for 8x8"},
		{[]string{"-game", "chess", "-pgn", fivefold, "-out", out}, 1, "(ply 17): the game is over: draw by fivefold repetition"},
		{[]string{"-game", "sandtable", "-out", out}, 2, "-record FILE is required"},
		{[]string{"-game", "sandtable", "-record", rec, "-frames", "ply", "-out", out}, 2, "-frames"},
		{[]string{"-game", "chess", "-pgn", good, "-size", "50", "-out", out}, 2, "size"},
		{[]string{"-game", "chess", "-pgn", good, "-delay", "0", "-out", out}, 2, "-delay"},
		{[]string{"-game", "chess", "-pgn", filepath.Join(dir, "none.pgn"), "-out", out}, 2, "cannot read"},
		{[]string{"-game", "chess", "-pgn", illegal, "-out", out}, 1, "Ke3"},
		{[]string{"-game", "chess", "-pgn", variant, "-out", out}, 2, "-game survival"},
		{[]string{"-game", "chess", "-pgn", odd, "-out", out}, 2, "Variant tag"},
		{[]string{"-game", "chess", "-pgn", broken, "-out", out}, 2, "comment"},
		{[]string{"-game", "chess", "-pgn", pass, "-out", out}, 2, "Team Chess"},
		{[]string{"-game", "sandtable", "-record", badRec, "-out", out}, 2, "version 7"},
		{[]string{"-game", "sandtable", "-record", good, "-out", out}, 2, "not a game record"},
		{[]string{"-game", "sandtable", "-record", unreached, "-out", out}, 2, "result.reason \"no-bases\": the actions do not end the game"},
		{[]string{"-game", "sandtable", "-record", unknown, "-out", out}, 2, "result.reason \"forfeit\" is not a reason"},
		{[]string{"-game", "sandtable", "-record", seeded, "-out", out}, 2, "seed 9; a record writes the coin's seed as 0 (ruling G23)"},
		{[]string{"-game", "chess", "-pgn", good, "-out", out, "extra"}, 2, "unexpected argument"},
	}
	for _, c := range cases {
		code, _, stderr := runReplay(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want exit %d and a message with %q", c.args, code, stderr, c.code, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v: the output file was written", c.args)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestReplayCLIHidesUnresolvedDroneTargets (ruling D6): the replays of two
// records that differ only in the target of a Drone that never resolved
// (still pending when the game ended) are the same GIF.
func TestReplayCLIHidesUnresolvedDroneTargets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, rec := sandRecordFile(t, dir, 12)
	p, err := rec.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	var log []sandtable.Entry
	for _, a := range rec.Actions {
		e, err := p.ApplyString(a.Action)
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	start, err := rec.StartPosition()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	for p.Phase() != sandtable.PhasePostTurn {
		acts := p.LegalActions()
		e, err := p.Apply(acts[r.IntN(len(acts))])
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e...)
	}
	var drones []string
	for _, a := range p.LegalActions() {
		if a.Kind == sandtable.ActDrone && (len(drones) == 0 || strings.HasPrefix(a.String(), drones[0][:strings.Index(drones[0], "-")+1])) {
			drones = append(drones, a.String())
		}
	}
	if len(drones) < 2 {
		t.Fatalf("no two Drone orders of one spotter: %v", drones)
	}
	var gifs [][]byte
	for i, d := range drones[:2] {
		q := p.Clone()
		l := append([]sandtable.Entry(nil), log...)
		for _, a := range []string{d, "resign"} {
			e, err := q.ApplyString(a)
			if err != nil {
				t.Fatal(err)
			}
			l = append(l, e...)
		}
		rec, err := sandtable.NewRecord(start, l)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := rec.Marshal()
		path := filepath.Join(dir, fmt.Sprintf("game%d.json", i))
		os.WriteFile(path, data, 0o644)
		out := filepath.Join(dir, fmt.Sprintf("game%d.gif", i))
		if code, stdout, stderr := runReplay(t, "-game", "sandtable", "-record", path, "-frames", "action", "-size", "400", "-out", out); code != 0 {
			t.Fatalf("exit %d: %s%s", code, stdout, stderr)
		}
		g, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		gifs = append(gifs, g)
	}
	if !bytes.Equal(gifs[0], gifs[1]) {
		t.Errorf("the replays of %s and %s, pending when the game ended, differ", drones[0], drones[1])
	}
}
