package cli

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
	"sandtable/internal/testkit"
)

// uciScript runs a whole scripted session and returns the output lines.
func uciScript(t *testing.T, script string) []string {
	t.Helper()
	var out bytes.Buffer
	runUCI(strings.NewReader(script), &out)
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

// uciScriptUntilBest is uciScript for a script with one go that must
// finish: as a GUI does, its quit is sent only once the bestmove came
// (quit stops a search, and on a slow machine the search may not have
// finished an iteration), waiting with a generous deadline.
func uciScriptUntilBest(t *testing.T, script string) []string {
	t.Helper()
	out := &testkit.SyncBuffer{}
	r, w := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runUCI(r, out)
	}()
	for _, line := range strings.SplitAfter(script, "\n") {
		if line == "" {
			// A pipe write of nothing still waits for a reader, and after
			// quit there is none.
			continue
		}
		if strings.TrimSpace(line) == "quit" {
			deadline := time.Now().Add(2 * time.Minute)
			for !strings.Contains(out.String(), "bestmove ") && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond) // polling the engine's output
			}
		}
		if _, err := io.WriteString(w, line); err != nil {
			break
		}
	}
	w.Close()
	<-done
	return strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
}

func TestUCIHandshake(t *testing.T) {
	t.Parallel()
	lines := uciScript(t, "uci\nisready\nquit\n")
	require.Equal(t, []string{
		"id name SandTable engine",
		"id author the SandTable Bot project",
		"option name UCI_Variant type combo default chess var chess var survival var teamchess",
		"option name Level type combo default strongest var beginner var easy var intermediate var advanced var strongest",
		"option name Seed type spin default 0 min 0 max 2147483647",
		"uciok",
		"readyok",
	}, lines)
}

// bestmove returns the move of the last bestmove line, failing when the
// lines have none.
func bestmove(t *testing.T, lines []string) string {
	t.Helper()
	for i := len(lines) - 1; i >= 0; i-- {
		if m, ok := strings.CutPrefix(lines[i], "bestmove "); ok {
			return m
		}
	}
	t.Fatalf("no bestmove in %q", lines)
	return ""
}

// TestUCIGoDepth: a Survival position after moves, searched to depth 2
// at a level with a seed, answers with info lines for depths 1 and 2 and
// the move the engine package chooses for the same position and limits.
func TestUCIGoDepth(t *testing.T) {
	t.Parallel()
	lines := uciScriptUntilBest(t, "setoption name UCI_Variant value survival\nsetoption name Level value casual\nsetoption name Seed value 9\n"+
		"position startpos moves a7a8q\ngo depth 2\nisready\nquit\n")
	var depths []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info depth ") {
			f := strings.Fields(l)
			require.Contains(t, l, " score cp ", l)
			require.Contains(t, l, " nodes ", l)
			require.Contains(t, l, " nps ", l)
			require.Contains(t, l, " pv ", l)
			depths = append(depths, f[2])
		}
	}
	require.Equal(t, []string{"1", "2", "2"}, depths, "an info line per iteration, then the final choice: %q", lines)
	g, err := chess.ReplayGame(chess.Survival, chess.TartanFEN, []string{"a7a8q"})
	require.NoError(t, err)
	l, _ := engine.LevelByName("casual")
	lim := l.Limits(9, 0)
	lim.Depth = 2
	start := chess.StartPosition(chess.Survival)
	want := engine.NewSearcher(l.TableBits).Search(*g.Position(), []uint64{start.Hash()}, lim)
	require.Equal(t, want.Move.UCI(), bestmove(t, lines))
	require.Contains(t, lines, "readyok")
}

// TestUCIStopEndsInfinite: "go infinite" searches until "stop", and
// only then says bestmove; quit ends the session.
func TestUCIStopEndsInfinite(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ended := make(chan struct{})
	go func() {
		runUCI(inR, outW)
		outW.Close()
		close(ended)
	}()
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l, ok := <-lines:
			require.True(t, ok, "the session ended")
			return l
		case <-time.After(60 * time.Second):
			t.Fatal("no output within 60 s")
		}
		return ""
	}
	_, err := io.WriteString(inW, "position startpos moves e2e4\ngo infinite\n")
	require.NoError(t, err)
	// Wait for two iterations: the search is running and has not answered.
	for seen := 0; seen < 2; {
		l := next()
		require.False(t, strings.HasPrefix(l, "bestmove"), "bestmove before stop: %s", l)
		if strings.HasPrefix(l, "info depth") {
			seen++
		}
	}
	_, err = io.WriteString(inW, "stop\n")
	require.NoError(t, err)
	var l string
	for l = next(); !strings.HasPrefix(l, "bestmove"); l = next() {
	}
	p, err := chess.ParseFEN(chess.Chess, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	require.NoError(t, err)
	m, err := p.ParseUCI(strings.TrimPrefix(l, "bestmove "))
	require.NoError(t, err, "a legal reply to e4: %s", l)
	require.True(t, p.IsLegal(m))
	_, err = io.WriteString(inW, "quit\n")
	require.NoError(t, err)
	select {
	case <-ended:
	case <-time.After(60 * time.Second):
		t.Fatal("quit did not end the session")
	}
}

// TestUCIBadInput: an illegal move keeps the moves before it; unknown
// options, variants, levels and commands are reported as info strings;
// the clock form of go answers.
func TestUCIBadInput(t *testing.T) {
	t.Parallel()
	lines := uciScript(t, strings.Join([]string{
		"setoption name UCI_Variant value bughouse",
		"setoption name Level value grandmaster",
		"setoption name Hash value 64",
		"xyzzy",
		"position startpos moves e2e4 e7e5 e4e5 d2d4",
		"go depth 1",
		"position fen not-a-fen",
		"go wtime 1000 btime 1000 winc 10 binc 10",
		"quit",
	}, "\n"))
	joined := strings.Join(lines, "\n")
	require.Contains(t, joined, "info string unknown UCI_Variant bughouse (expected chess, survival or teamchess)")
	require.Contains(t, joined, `info string unknown level "grandmaster"`)
	require.Contains(t, joined, "info string unknown option Hash")
	require.Contains(t, joined, "info string unknown command xyzzy")
	require.Contains(t, joined, "info string illegal move e4e5 in rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2: the moves after it are ignored")
	require.Contains(t, joined, "info string bad FEN")
	var moves []string
	for _, l := range lines {
		if m, ok := strings.CutPrefix(l, "bestmove "); ok {
			moves = append(moves, m)
		}
	}
	require.Len(t, moves, 2, joined)
	// The first search is from the position after e2e4 e7e5: White to
	// move. The bad FEN left no position: the second answers 0000.
	p, err := chess.ParseFEN(chess.Chess, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	require.NoError(t, err)
	m, err := p.ParseUCI(moves[0])
	require.NoError(t, err, moves[0])
	require.True(t, p.IsLegal(m), moves[0])
	require.Equal(t, "0000", moves[1])
	require.Contains(t, joined, "info string no position to search: the FEN was refused")
}

func TestUCIArguments(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	require.Equal(t, 2, dispatch([]string{"uci", "extra"}, &out, &errOut))
	require.Contains(t, errOut.String(), "sandtable uci: unexpected argument")
	out.Reset()
	require.Equal(t, 0, dispatch([]string{"uci", "-h"}, &out, &errOut))
	require.Contains(t, out.String(), "usage: sandtable uci")
}

// TestUCITeamChess: the sacrifice notation is accepted in position moves
// (a bad one is reported), a besieged side answers 0000 with the siege
// advice, and after 0000 (the siege continued) the engine mates.
func TestUCITeamChess(t *testing.T) {
	t.Parallel()
	set := "setoption name UCI_Variant value teamchess\nsetoption name Level value casual\n"
	lines := uciScript(t, set+"position fen 7k/5K2/8/6Q1/8/8/8/8 w - - 0 1 moves g5g6\ngo depth 3\nisready\nquit\n")
	require.Equal(t, "0000", bestmove(t, lines))
	require.Contains(t, lines, "info string black is besieged and passes; white should continue the siege")
	lines = uciScript(t, set+"position fen 7k/5K2/8/6Q1/8/8/8/8 w - - 0 1 moves g5g6 0000\ngo depth 1\nquit\n")
	require.Contains(t, []string{"g6g8", "g6h6", "g6g7", "g6h7"}, bestmove(t, lines))
	require.Contains(t, strings.Join(lines, "\n"), "score mate 1")
	// An Assassin removing the Queen, then Black's reply: no error line.
	lines = uciScript(t, set+"position fen 4k3/1P6/2n5/7q/8/8/8/Q3K3 w - - 0 1 moves b7b8a:h5 c6b8\ngo depth 1\nquit\n")
	require.NotContains(t, strings.Join(lines, "\n"), "illegal")
	require.NotEqual(t, "0000", bestmove(t, lines))
	lines = uciScript(t, set+"position fen 4k3/1P6/2n5/7q/8/8/8/Q3K3 w - - 0 1 moves b7b8a:e8\nquit\n")
	require.Contains(t, strings.Join(lines, "\n"), "info string illegal move b7b8a:e8")
}

// uciPipe is a session fed through a pipe, as a GUI feeds the engine:
// the test writes whole scripts at once and waits for lines with a
// deadline.
type uciPipe struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	ended chan struct{}
	seen  []string
}

func startUCIPipe(t *testing.T) *uciPipe {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	u := &uciPipe{t: t, in: inW, lines: make(chan string, 100000), ended: make(chan struct{})}
	go func() {
		runUCI(inR, outW)
		outW.Close()
		inR.Close()
		close(u.ended)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			u.lines <- sc.Text()
		}
		close(u.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-u.ended:
		case <-time.After(time.Minute):
		}
	})
	return u
}

// send writes script in one write.
func (u *uciPipe) send(script string) {
	u.t.Helper()
	_, err := io.WriteString(u.in, script)
	require.NoError(u.t, err)
}

// until returns the lines up to and including the first one starting
// with prefix, failing when none came within a minute (a hang).
func (u *uciPipe) until(prefix string) []string {
	u.t.Helper()
	var got []string
	deadline := time.After(time.Minute)
	for {
		select {
		case l, ok := <-u.lines:
			if !ok {
				u.t.Fatalf("the session ended before %q; lines %q", prefix, got)
			}
			got = append(got, l)
			u.seen = append(u.seen, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-deadline:
			u.t.Fatalf("no %q within a minute (a hang); lines %q", prefix, got)
		}
	}
}

// end waits for the session to end and returns the remaining lines.
func (u *uciPipe) end() []string {
	u.t.Helper()
	select {
	case <-u.ended:
	case <-time.After(time.Minute):
		u.t.Fatal("the session did not end within a minute (a hang)")
	}
	var rest []string
	for l := range u.lines {
		rest = append(rest, l)
	}
	return rest
}

// uciLegal fails unless move is legal in variant's start position (or
// fen) for UCI.
func uciLegal(t *testing.T, v chess.Variant, fen, move string) {
	t.Helper()
	if v == chess.TeamChess {
		g, err := teamchess.NewGame(teamchess.Setup{FEN: fen,
			White: []teamchess.Member{{ID: "white"}}, Black: []teamchess.Member{{ID: "black"}}})
		require.NoError(t, err)
		_, err = g.Play("", move)
		require.NoError(t, err, "bestmove %s", move)
		return
	}
	p := chess.StartPosition(v)
	if fen != "" {
		var err error
		p, err = chess.ParseFEN(v, fen)
		require.NoError(t, err)
	}
	m, err := p.ParseUCI(move)
	require.NoError(t, err, "bestmove %s", move)
	require.True(t, p.IsLegal(m), "bestmove %s", move)
}

// TestUCIStopAtOnce: stop sent in the same write as go (as python-chess
// does when an analysis is opened and closed at once), or just before,
// answers bestmove with a legal move, then readyok, and quit ends the
// session, for every variant and go form. Before, the search cleared the
// stop when it started and the session hung for good (30 of 30 tries).
func TestUCIStopAtOnce(t *testing.T) {
	t.Parallel()
	gos := []string{"go infinite", "go", "go depth 64", "go movetime 100000", "go wtime 600000 btime 600000", "go nodes 100000000"}
	for _, v := range uciVariants {
		for _, g := range gos {
			for _, pre := range []string{"", "stop\n"} {
				u := startUCIPipe(t)
				u.send("setoption name UCI_Variant value " + v.String() + "\nposition startpos\n" + pre + g + "\nstop\nisready\nquit\n")
				lines := u.until("bestmove ")
				uciLegal(t, v, "", bestmove(t, lines))
				rest := append(u.until("readyok"), u.end()...)
				require.NotContains(t, strings.Join(rest, "\n"), "bestmove", "%s %s: a second bestmove", v, g)
			}
		}
	}
}

// TestUCIIsReadyDuringSearch: isready is answered while go infinite
// searches (no bestmove before stop), and stop then answers.
func TestUCIIsReadyDuringSearch(t *testing.T) {
	t.Parallel()
	for _, v := range uciVariants {
		u := startUCIPipe(t)
		u.send("setoption name UCI_Variant value " + v.String() + "\nposition startpos\ngo infinite\nisready\n")
		lines := u.until("readyok")
		require.NotContains(t, strings.Join(lines, "\n"), "bestmove", v.String())
		u.send("stop\nisready\n")
		uciLegal(t, v, "", bestmove(t, u.until("bestmove ")))
		u.until("readyok")
		u.send("quit\n")
		u.end()
	}
}

// TestUCIHugeTeamChessPosition: the Team Chess position with 507,247
// legal moves gets a legal bestmove under go movetime 500 and after stop
// (before: no answer in 120 s, also after stop). The deadline is a hang
// check, not a timing one.
func TestUCIHugeTeamChessPosition(t *testing.T) {
	t.Parallel()
	const fen = "rn1qk1nr/PP4PP/8/8/8/8/pp4pp/RN1QK1NR w KQkq - 0 1"
	u := startUCIPipe(t)
	u.send("setoption name UCI_Variant value teamchess\nposition fen " + fen + "\ngo movetime 500\n")
	uciLegal(t, chess.TeamChess, fen, bestmove(t, u.until("bestmove ")))
	u.send("go infinite\nstop\nisready\n")
	uciLegal(t, chess.TeamChess, fen, bestmove(t, u.until("bestmove ")))
	u.until("readyok")
	u.send("go infinite\nisready\n")
	u.until("readyok")
	u.send("stop\nquit\n")
	uciLegal(t, chess.TeamChess, fen, bestmove(t, u.until("bestmove ")))
	u.end()
}

// TestUCIRefusedPositionLeavesNone: after a refused position the next go
// answers an info string saying why and bestmove 0000 (before, it
// answered a move for the previous position); after go infinite, only
// once stop came. A good position then searches again.
func TestUCIRefusedPositionLeavesNone(t *testing.T) {
	t.Parallel()
	for _, v := range uciVariants {
		for _, bad := range []string{"position fen not-a-fen", "position fen", "position", "position sideways"} {
			u := startUCIPipe(t)
			u.send("setoption name UCI_Variant value " + v.String() + "\nposition startpos\n" + bad + "\ngo depth 1\n")
			lines := u.until("bestmove ")
			require.Equal(t, "0000", bestmove(t, lines), "%s %q: %q", v, bad, lines)
			require.Contains(t, strings.Join(lines, "\n"), "info string no position to search: ", "%s %q", v, bad)
			u.send("go infinite\nisready\n")
			require.NotContains(t, strings.Join(u.until("readyok"), "\n"), "bestmove")
			u.send("stop\n")
			require.Equal(t, "0000", bestmove(t, u.until("bestmove ")))
			u.send("position startpos\ngo depth 1\n")
			uciLegal(t, v, "", bestmove(t, u.until("bestmove ")))
			u.send("quit\n")
			u.end()
		}
	}
}

// TestUCIBadGoArguments: bad go arguments are reported in an info string
// and ignored; the search still answers a legal move.
func TestUCIBadGoArguments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ goLine, want string }{
		{"go depth 0 nodes 2000", "info string depth must be at least 1, not 0"},
		{"go movetime -5 depth 1", "info string movetime must be at least 1, not -5"},
		{"go depth x nodes 2000", "info string depth needs a number, not x"},
		{"go depth 1 nodes", "info string nodes needs a number"},
		{"go nodes -3 depth 1", "info string nodes must be at least 1, not -3"},
		{"go depth 1 wibble", "info string unknown go argument wibble"},
		{"go wtime -100 btime 5000 winc -1", "info string wtime is negative"},
	} {
		u := startUCIPipe(t)
		u.send("position startpos\n" + c.goLine + "\n")
		lines := u.until("bestmove ")
		require.Contains(t, strings.Join(lines, "\n"), c.want, c.goLine)
		uciLegal(t, chess.Chess, "", bestmove(t, lines))
		u.send("quit\n")
		u.end()
	}
}

// TestUCILongLines: a 2 MB position line is read (before, the session
// ended silently on it); a line over the limit is refused with an info
// string (a position one leaves no position) and the session goes on.
func TestUCILongLines(t *testing.T) {
	t.Parallel()
	u := startUCIPipe(t)
	u.send("position startpos moves " + strings.Repeat("e2e4 ", 400_000) + "\ngo depth 1\n")
	lines := u.until("bestmove ")
	require.Contains(t, strings.Join(lines, "\n"), "info string illegal move e2e4")
	uciLegal(t, chess.Chess, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", bestmove(t, lines))
	u.send("position startpos moves " + strings.Repeat("e2e4 ", maxUCILine/5+1) + "\ngo depth 1\n")
	lines = u.until("bestmove ")
	require.Contains(t, strings.Join(lines, "\n"), "info string a command line of ")
	require.Equal(t, "0000", bestmove(t, lines))
	u.send(strings.Repeat("x", maxUCILine+100) + "\nisready\nposition startpos\ngo depth 1\n")
	lines = u.until("bestmove ")
	require.Contains(t, lines, "readyok")
	uciLegal(t, chess.Chess, "", bestmove(t, lines))
	u.send("quit\n")
	u.end()
}

// TestUCIStopAnswersForAStuckSearch: the last resort. A search that
// ignores its cancellation does not hang the session: stop answers for it
// with the fallback move after uciStopGrace, and its own late output is
// dropped.
func TestUCIStopAnswersForAStuckSearch(t *testing.T) {
	t.Parallel()
	defer func(g time.Duration) { uciStopGrace = g }(uciStopGrace)
	uciStopGrace = 10 * time.Millisecond
	out := &testkit.SyncBuffer{}
	s := &uciSession{out: bufio.NewWriter(out)}
	release := make(chan struct{})
	s.launch(false, func() string { return "e2e4" }, func(_ context.Context, say func(string, ...any)) string {
		<-release // deaf to the cancellation
		say("info string too late")
		return "d2d4"
	})
	searchDone := s.done
	stopped := make(chan struct{})
	go func() {
		s.stop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(time.Minute):
		t.Fatal("stop hung on a stuck search")
	}
	close(release)
	<-searchDone // the left-behind search has tried to print its bestmove
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Equal(t, "e2e4", bestmove(t, lines))
	require.Contains(t, lines[0], "info string the search did not stop")
	require.NotContains(t, out.String(), "too late")
	require.NotContains(t, out.String(), "d2d4")
}
