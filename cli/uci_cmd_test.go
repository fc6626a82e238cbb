package cli

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/games/chess"
	"sandtable/games/engine"
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
	out := &syncBuffer{}
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

// syncBuffer is a bytes.Buffer safe for the session's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestUCIHandshake(t *testing.T) {
	lines := uciScript(t, "uci\nisready\nquit\n")
	require.Equal(t, []string{
		"id name SandTable engine",
		"id author the SandTable Bot project",
		"option name UCI_Variant type combo default chess var chess var survival var teamchess",
		"option name Level type combo default strongest var beginner var casual var intermediate var advanced var strongest",
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
	// Both searches are from the position after e2e4 e7e5 (the bad FEN
	// left it unchanged): White to move.
	p, err := chess.ParseFEN(chess.Chess, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
	require.NoError(t, err)
	for _, s := range moves {
		m, err := p.ParseUCI(s)
		require.NoError(t, err, s)
		require.True(t, p.IsLegal(m), s)
	}
}

func TestUCIArguments(t *testing.T) {
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
