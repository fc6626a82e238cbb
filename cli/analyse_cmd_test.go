package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/games/teamchess"
)

func runAnalyse(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = dispatch(append([]string{"analyse"}, args...), &o, &e)
	return code, o.String(), e.String()
}

// fast keeps the searches short: a depth cap, the time a generous bound.
var fast = []string{"-depth", "3", "-movetime", "20000"}

const scholarsMate = `[Event "casual"]
[White "Ann"]
[Black "Bob"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0
`

// TestAnalyseCLI: the blunder of the Scholar's mate gets ?? and an
// evaluation comment, the summary is in the tags and on standard output,
// and the output re-reads with the project's PGN reader.
func TestAnalyseCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "game.pgn"), filepath.Join(dir, "analysed.pgn")
	require.NoError(t, os.WriteFile(in, []byte(scholarsMate), 0o644))
	code, stdout, stderr := runAnalyse(t, append([]string{"-game", "chess", "-pgn", in, "-out", out}, fast...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "White (Ann): accuracy ")
	require.Contains(t, stdout, "Black (Bob): accuracy ")
	require.Contains(t, stdout, "1 blunder")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(data)), " ")
	require.Contains(t, text, "3... Nf6?? { [%eval #1] Blunder.")
	require.Contains(t, text, `[BlackBlunders "1"]`)
	require.Contains(t, text, `[White "Ann"]`)
	g, err := chess.ReadPGN(string(data))
	require.NoError(t, err)
	require.Equal(t, "1-0", g.Result)
	replayed, err := chess.ReplayGame(chess.Chess, chess.StandardFEN, g.Moves)
	require.NoError(t, err)
	require.Equal(t, strings.Fields("e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"), replayed.SANs())
	entries, _ := os.ReadDir(dir)
	require.Len(t, entries, 2, "no temporary file is left")

	// A name carrying a terminal escape is printed quoted, never raw.
	require.NoError(t, os.WriteFile(in, []byte(strings.Replace(scholarsMate, "Ann", "\x1b[31mAnn", 1)), 0o644))
	code, stdout, stderr = runAnalyse(t, append([]string{"-game", "chess", "-pgn", in, "-out", out}, fast...)...)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stdout, "\x1b")
	require.Contains(t, stdout, `White ("\x1b[31mAnn"): accuracy `)

	// A file of two games: the first is analysed, and the user is told
	// that the second was not.
	require.NoError(t, os.WriteFile(in, []byte(scholarsMate+"\n[Event \"second\"]\n\n1. d4 d5 *\n"), 0o644))
	code, stdout, stderr = runAnalyse(t, append([]string{"-game", "chess", "-pgn", in, "-out", out}, fast...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "more than one game")
	require.Contains(t, stdout, "(7 plies")
	require.NoError(t, os.WriteFile(in, []byte(scholarsMate), 0o644))
	_, _, stderr = runAnalyse(t, append([]string{"-game", "chess", "-pgn", in, "-out", out}, fast...)...)
	require.NotContains(t, stderr, "more than one game", "one game, no note")
}

// TestAnalyseCLIExports: the PGNs the bot exports (Survival, Team Chess
// with its comments, a siege's pass and its tags) are analysed whole.
func TestAnalyseCLIExports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()

	sg := randomChessGame(t, chess.Survival, 12, 8)
	sIn := filepath.Join(dir, "survival.pgn")
	require.NoError(t, os.WriteFile(sIn, []byte(sg.PGN(nil, "")), 0o644))

	tg, err := teamchess.NewGame(teamchess.Setup{FEN: "7k/8/8/6Q1/8/8/8/K7 w - - 0 1",
		White: []teamchess.Member{{ID: "1", Name: "Ann"}}, Black: []teamchess.Member{{ID: "2", Name: "Bob"}}})
	require.NoError(t, err)
	_, err = tg.Play("1", "Qg6")
	require.NoError(t, err)
	_, err = tg.SiegeContinue("1")
	require.NoError(t, err)
	_, err = tg.Play("1", "Kb2")
	require.NoError(t, err)
	tIn := filepath.Join(dir, "teamchess.pgn")
	require.NoError(t, os.WriteFile(tIn, []byte(tg.PGN(nil)), 0o644))

	for _, c := range []struct{ game, in string }{{"survival", sIn}, {"teamchess", tIn}} {
		out := filepath.Join(dir, c.game+"-analysed.pgn")
		code, _, stderr := runAnalyse(t, append([]string{"-game", c.game, "-pgn", c.in, "-out", out}, fast...)...)
		require.Equal(t, 0, code, "%s: %s", c.game, stderr)
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		g, err := chess.ReadPGN(string(data))
		require.NoError(t, err)
		src, err := os.ReadFile(c.in)
		require.NoError(t, err)
		orig, err := chess.ReadPGN(string(src))
		require.NoError(t, err)
		require.Len(t, g.Moves, len(orig.Moves), c.game)
		require.Equal(t, len(orig.Moves), strings.Count(string(data), "[%eval "), "%s: a comment per move", c.game)
	}
	data, err := os.ReadFile(filepath.Join(dir, "teamchess-analysed.pgn"))
	require.NoError(t, err)
	require.Contains(t, string(data), `[Variant "Team Chess"]`)
	require.Contains(t, string(data), "1... -- { [%eval #")
}

// TestAnalyseCLIRefuses: bad arguments and bad input get a specific error
// and exit code (1 for a move that is not legal, naming its ply; 2 for the
// rest), never a panic, and write nothing: an existing output file is
// left as it was.
func TestAnalyseCLIRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	good := write("good.pgn", scholarsMate)
	illegal := write("illegal.pgn", "1. e4 e5 2. Ke3 *\n")
	binary := write("board.png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	unclosed := write("unclosed.pgn", "1. e4 { a comment\n")
	survival := write("survival.pgn", "[Variant \"Survival Chess: Tartan Grid\"]\n\n1. e4 *\n")
	// The start position a fifth time after ply 16: drawn by fivefold
	// repetition (FIDE 9.6.1), so the 17th ply is refused.
	fivefold := write("fivefold.pgn", strings.Repeat("Nf3 Nf6 Ng1 Ng8 ", 4)+"Nc3 *\n")
	out := write("out.pgn", "before")
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no game", []string{"-pgn", good, "-out", out}, 2, "-game is required"},
		{"sandtable", []string{"-game", "sandtable", "-pgn", good, "-out", out}, 2, "SandTable"},
		{"unknown game", []string{"-game", "go", "-pgn", good, "-out", out}, 2, "want survival, chess or teamchess"},
		{"no pgn", []string{"-game", "chess", "-out", out}, 2, "-pgn FILE is required"},
		{"no out", []string{"-game", "chess", "-pgn", good}, 2, "-out FILE is required"},
		{"movetime 0", []string{"-game", "chess", "-pgn", good, "-out", out, "-movetime", "0"}, 2, "-movetime 0"},
		{"movetime not a number", []string{"-game", "chess", "-pgn", good, "-out", out, "-movetime", "soon"}, 2, "movetime"},
		{"depth", []string{"-game", "chess", "-pgn", good, "-out", out, "-depth", "-1"}, 2, "-depth -1"},
		{"stray argument", []string{"-game", "chess", "-pgn", good, "-out", out, "extra"}, 2, "unexpected argument"},
		{"missing file", []string{"-game", "chess", "-pgn", filepath.Join(dir, "none.pgn"), "-out", out}, 2, "cannot read the PGN"},
		{"unreadable PGN", []string{"-game", "chess", "-pgn", unclosed, "-out", out}, 2, "PGN line 1"},
		{"wrong variant", []string{"-game", "chess", "-pgn", survival, "-out", out}, 2, "give -game survival"},
		{"illegal move", []string{"-game", "chess", "-pgn", illegal, "-out", out}, 1, "(ply 3)"},
		{"binary file", []string{"-game", "chess", "-pgn", binary, "-out", out}, 2, "not a PGN text"},
		{"after fivefold repetition", []string{"-game", "chess", "-pgn", fivefold, "-out", out}, 1, "(ply 17): the game is already over: draw by fivefold repetition"},
		{"output is the input", []string{"-game", "chess", "-pgn", out, "-out", out}, 2, "is the input PGN"},
		{"output is a folder", []string{"-game", "chess", "-pgn", good, "-out", dir}, 2, "is a folder"},
		{"output to standard output", []string{"-game", "chess", "-pgn", good, "-out", "-"}, 2, "not to standard output"},
	} {
		code, stdout, stderr := runAnalyse(t, append(append([]string(nil), fast...), c.args...)...)
		require.Equal(t, c.code, code, "%s: %s", c.name, stderr)
		require.Contains(t, stderr, c.want, c.name)
		require.NotContains(t, stderr, "panic", c.name)
		require.Empty(t, stdout, c.name)
		data, err := os.ReadFile(out)
		require.NoError(t, err)
		require.Equal(t, "before", string(data), "%s: the output is untouched", c.name)
	}
	// A missing folder is refused before any search (a long analysis was
	// lost at the end).
	code, _, stderr := runAnalyse(t, "-game", "chess", "-pgn", good, "-out", filepath.Join(dir, "no", "such", "dir.pgn"), "-movetime", "60000")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "does not exist")
	entries, _ := os.ReadDir(dir)
	require.Len(t, entries, 7, "no temporary file is left")
}
