package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/testkit"
)

// runMatch runs sandtable match and returns its exit code and output lines.
func runMatch(t *testing.T, args ...string) (int, []string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := dispatch(append([]string{"match"}, args...), &out, &errOut)
	return code, strings.Split(strings.TrimRight(out.String(), "\n"), "\n"), errOut.String()
}

var (
	lastLineRE = regexp.MustCompile(`^A: (\d+) wins, (\d+) draws, (\d+) losses of (\d+); score (\d+\.\d)% ± (\d+\.\d)%$`)
	gameLineRE = regexp.MustCompile(`^game (\d+): A (white|black), (1-0|0-1|1/2-1/2), (.+) after (\d+) plies; opening (.+)$`)
)

// checkMatch checks a match's output: one line per game with A's colour
// alternating and each pair sharing its opening, and a last line whose
// tally and score agree with the game lines. It returns the game lines'
// results.
func checkMatch(t *testing.T, lines []string, games int) []string {
	t.Helper()
	require.GreaterOrEqual(t, len(lines), games+2, "header, %d games, tally: %q", games, lines)
	require.True(t, strings.HasPrefix(lines[0], "match: "), lines[0])
	var w, d, l int
	var results []string
	var opening string
	for i := range games {
		m := gameLineRE.FindStringSubmatch(lines[1+i])
		require.NotNil(t, m, "game line %q", lines[1+i])
		require.Equal(t, strconv.Itoa(i+1), m[1])
		wantColour := "white"
		if i%2 == 1 {
			wantColour = "black"
			require.Equal(t, opening, m[6], "game %d replays game %d's opening", i+1, i)
		}
		opening = m[6]
		require.Equal(t, wantColour, m[2], "game %d: A's colour alternates", i+1)
		switch {
		case m[3] == "1/2-1/2":
			d++
		case (m[3] == "1-0") == (m[2] == "white"):
			w++
		default:
			l++
		}
		results = append(results, m[3]+" "+m[4])
	}
	m := lastLineRE.FindStringSubmatch(lines[len(lines)-1])
	require.NotNil(t, m, "last line %q", lines[len(lines)-1])
	require.Equal(t, []string{strconv.Itoa(w), strconv.Itoa(d), strconv.Itoa(l), strconv.Itoa(games)}, m[1:5])
	score := 100 * (float64(w) + float64(d)/2) / float64(games)
	require.Equal(t, fmt.Sprintf("%.1f", score), m[5])
	return results
}

// TestMatchOutput: random against greedy in Survival Chess: the format,
// the colours, the shared openings, the tally; then the same match again
// gives the same output and another seed other openings.
func TestMatchOutput(t *testing.T) {
	t.Parallel()
	args := []string{"-game", "survival", "-a", "random", "-b", "greedy", "-games", "4", "-seed", "3", "-openings", "2", "-movetime", "5000"}
	code, lines, errOut := runMatch(t, args...)
	require.Equal(t, 0, code, errOut)
	checkMatch(t, lines, 4)
	require.Contains(t, lines[0], `A = "random", B = "greedy", 4 games`)
	pgnFile := filepath.Join(t.TempDir(), "games.pgn")
	_, again, _ := runMatch(t, append(args, "-pgn", pgnFile)...)
	require.Equal(t, lines, again, "a seeded match is reproducible")
	pgn, err := os.ReadFile(pgnFile)
	require.NoError(t, err)
	require.Equal(t, 4, strings.Count(string(pgn), `[Event "sandtable match"]`))
	require.Contains(t, string(pgn), "[Round \"2\"]\n[White \"greedy\"]\n[Black \"random\"]")
	require.Contains(t, string(pgn), `[Variant "Survival Chess: Tartan Grid"]`)
	args[9] = "4"
	_, other, _ := runMatch(t, args...)
	require.NotEqual(t, lines[1:], other[1:], "another seed plays other games")
}

// TestMatchLevelsDeterministic: two levels play the same chess games
// twice with one seed (their node budgets, not the time cap, end their
// searches), each completing at least depth 2 (issue 24: every level does).
func TestMatchLevelsDeterministic(t *testing.T) {
	t.Parallel()
	testkit.SkipUnlessLong(t, "plays two whole matches of searching levels")
	args := []string{"-game", "chess", "-a", "casual", "-b", "beginner", "-games", "2", "-seed", "5", "-movetime", "60000", "-maxplies", "60"}
	code, lines, errOut := runMatch(t, args...)
	require.Equal(t, 0, code, errOut)
	checkMatch(t, lines, 2)
	require.Regexp(t, `^A \("casual"\): \d+ moves, mean depth [2-9]\.\d, mean \d+ nodes per move, 0 stopped by the time cap$`, lines[3])
	require.Regexp(t, `^B \("beginner"\): \d+ moves, mean depth [2-9]\.\d, mean \d+ nodes per move, 0 stopped by the time cap$`, lines[4])
	_, again, _ := runMatch(t, args...)
	require.Equal(t, lines, again)
}

func TestMeanCI(t *testing.T) {
	t.Parallel()
	m, ci := meanCI([]float64{1, 0})
	require.InDelta(t, 0.5, m, 1e-12)
	require.InDelta(t, 0.98, ci, 1e-12) // 1.96 * sqrt(0.5) / sqrt(2)
	m, ci = meanCI([]float64{1, 1, 1})
	require.Equal(t, 1.0, m)
	require.Equal(t, 0.0, ci)
	m, ci = meanCI([]float64{0.5})
	require.Equal(t, 0.5, m)
	require.Equal(t, 0.0, ci)
}

// TestMatchUCIEngine: our own `sandtable uci`, as an external process
// (this test binary re-executed as sandtable), plays a short match
// against random through the UCI protocol without forfeiting.
func TestMatchUCIEngine(t *testing.T) {
	t.Parallel()
	if strings.ContainsAny(os.Args[0], " \t") {
		t.Skip("the test binary's path has spaces; uci:COMMAND splits at spaces")
	}
	cmd := "uci:env SANDTABLE_MAIN_ARGS=uci " + os.Args[0] + " -test.run=^$"
	code, lines, errOut := runMatch(t, "-game", "survival", "-a", cmd, "-b", "random", "-games", "2", "-movetime", "20", "-seed", "2")
	require.Equal(t, 0, code, errOut)
	for _, r := range checkMatch(t, lines, 2) {
		require.NotContains(t, r, "forfeits")
	}
}

// TestMatchForfeits: an engine (which gets the -a-setup commands instead
// of the UCI_Variant option) that answers every go with an illegal
// move loses every game by forfeit; one that never starts is refused.
func TestMatchForfeits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := filepath.Join(dir, "bad-engine")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/sh
while read line; do
  case "$line" in
    uci) echo "id name bad"; echo uciok ;;
    "setoption name Custom value 1") echo "info string custom set-up" > "$0.log" ;;
    isready) echo readyok ;;
    go*) echo "bestmove a1a2" ;;
    quit) exit 0 ;;
  esac
done
`), 0o755))
	code, lines, errOut := runMatch(t, "-game", "chess", "-a", "uci:"+script, "-b", "greedy", "-games", "2", "-openings", "0",
		"-a-setup", "setoption name Custom value 1; ")
	require.Equal(t, 0, code, errOut)
	log, err := os.ReadFile(script + ".log")
	require.NoError(t, err, "the engine received the set-up")
	require.Equal(t, "info string custom set-up\n", string(log))
	results := checkMatch(t, lines, 2)
	require.Equal(t, []string{
		"0-1 White forfeits: bestmove a1a2: the rook on a1 cannot move to a2",
		"1-0 Black forfeits: bestmove a1a2: the rook on a1 is White's; it is Black's move",
	}, results)
	require.Equal(t, "A: 0 wins, 0 draws, 2 losses of 2; score 0.0% ± 0.0%", lines[len(lines)-1])

	code, _, errOut = runMatch(t, "-a", "uci:"+filepath.Join(dir, "missing"), "-b", "greedy")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "sandtable match: -a: starting")
}

func TestMatchArguments(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-game", "bughouse", "-a", "random", "-b", "greedy"}, "-game \"bughouse\" is not supported (expected survival, chess, teamchess or sandtable)"},
		{[]string{"-a", "random"}, "-a and -b are required"},
		{[]string{"-a", "random", "-b", "grandmaster"}, `-b: unknown player "grandmaster"`},
		{[]string{"-a", "random", "-b", "greedy", "-games", "0"}, "-games 0 is out of range"},
		{[]string{"-a", "random", "-b", "greedy", "-openings", "41"}, "-openings 41 is out of range"},
		{[]string{"-a", "random", "-b", "greedy", "extra"}, `unexpected argument "extra"`},
		{[]string{"-a", "random", "-b", "greedy", "-b-setup", "setoption name X value 1"}, "-b: a set-up is only for uci: players"},
	} {
		code, _, errOut := runMatch(t, c.args...)
		require.Equal(t, 2, code, c.args)
		require.Contains(t, errOut, c.want, c.args)
	}
	code, lines, _ := runMatch(t, "-h")
	require.Equal(t, 0, code)
	require.Contains(t, strings.Join(lines, "\n"), "A: W wins, D draws, L losses of N; score P% ± CI%")
}

// TestMatchTeamChess: a level against random in Team Chess: the format,
// colours, shared openings and tally; reproducible with a seed.
func TestMatchTeamChess(t *testing.T) {
	t.Parallel()
	pgn := filepath.Join(t.TempDir(), "games.pgn")
	args := []string{"-game", "teamchess", "-a", "easy", "-b", "random", "-games", "4", "-seed", "3", "-movetime", "60000", "-maxplies", "200", "-pgn", pgn}
	code, lines, errOut := runMatch(t, args...)
	require.Equal(t, 0, code, errOut)
	results := checkMatch(t, lines, 4)
	written, err := os.ReadFile(pgn)
	require.NoError(t, err)
	require.Equal(t, 4, strings.Count(string(written), `[Variant "Team Chess"]`), "-pgn writes every game")
	require.Contains(t, string(written), `[Result "`+strings.Fields(results[0])[0]+`"]`)
	require.Contains(t, lines[0], "match: teamchess")
	_, again, _ := runMatch(t, args...)
	require.Equal(t, lines, again, "a seeded match is reproducible")
	code, _, errOut = runMatch(t, "-game", "teamchess", "-a", "uci:"+filepath.Join(t.TempDir(), "missing"), "-b", "random")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "sandtable match: -a: starting")
}

// TestMatchTeamChessUCI: our own `sandtable uci` (this test binary
// re-executed), told the level and seed of an in-process player, plays
// exactly that player's games through the UCI protocol: the Team Chess
// notation (sacrifices with roles, targets and forced replies) crosses
// both ways, and a level's budget is the same over UCI as in process.
func TestMatchTeamChessUCI(t *testing.T) {
	t.Parallel()
	if strings.ContainsAny(os.Args[0], " \t") {
		t.Skip("the test binary's path has spaces; uci:COMMAND splits at spaces")
	}
	cmd := "uci:env SANDTABLE_MAIN_ARGS=uci " + os.Args[0] + " -test.run=^$"
	common := []string{"-game", "teamchess", "-b", "random", "-games", "4", "-seed", "5", "-movetime", "120000", "-maxplies", "160"}
	// "casual", the former name of easy, is still accepted by match and uci.
	code, inProc, errOut := runMatch(t, append([]string{"-a", "casual"}, common...)...)
	require.Equal(t, 0, code, errOut)
	code, overUCI, errOut := runMatch(t, append([]string{"-a", cmd, "-a-setup",
		"setoption name UCI_Variant value teamchess;setoption name Level value casual;setoption name Seed value 5"}, common...)...)
	require.Equal(t, 0, code, errOut)
	want, got := checkMatch(t, inProc, 4), checkMatch(t, overUCI, 4)
	require.Equal(t, want, got, "the UCI engine plays the in-process level's games")
	require.Equal(t, inProc[1:5], overUCI[1:5], "the same games, ply for ply")
	for _, r := range got {
		require.NotContains(t, r, "forfeits")
	}
}

// TestMatchTeamChessUCIForfeits: a Team Chess engine whose move is refused
// loses the game by forfeit, and the match goes on.
func TestMatchTeamChessUCIForfeits(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "bad-engine")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/sh
while read line; do
  case "$line" in
    uci) echo "id name bad"; echo uciok ;;
    isready) echo readyok ;;
    go*) echo "bestmove e7e8s:g8f6" ;;
    quit) exit 0 ;;
  esac
done
`), 0o755))
	code, lines, errOut := runMatch(t, "-game", "teamchess", "-a", "uci:"+script, "-b", "random", "-games", "2", "-openings", "0")
	require.Equal(t, 0, code, errOut)
	results := checkMatch(t, lines, 2)
	require.Contains(t, results[0], "0-1 White forfeits:")
	require.Contains(t, results[1], "1-0 Black forfeits:")
	require.Equal(t, "A: 0 wins, 0 draws, 2 losses of 2; score 0.0% ± 0.0%", lines[len(lines)-1])
}

// TestMatchSandTable: a level against random in SandTable Chess: the
// format, colours, shared openings (deployments, coin and random actions)
// and tally; reproducible with a seed, other openings with another seed;
// uci: players are refused for SandTable.
func TestMatchSandTable(t *testing.T) {
	t.Parallel()
	args := []string{"-game", "sandtable", "-a", "easy", "-b", "random", "-games", "4", "-seed", "5", "-openings", "3", "-movetime", "60000", "-maxplies", "300"}
	code, lines, errOut := runMatch(t, args...)
	require.Equal(t, 0, code, errOut)
	checkMatch(t, lines, 4)
	require.Contains(t, lines[0], "match: sandtable")
	require.Contains(t, lines[1], "; opening deployments ")
	_, again, _ := runMatch(t, args...)
	require.Equal(t, lines, again, "a seeded match is reproducible")
	args[9] = "6"
	_, other, _ := runMatch(t, args...)
	require.NotEqual(t, lines[1], other[1], "another seed, another opening")
	code, _, errOut = runMatch(t, "-game", "sandtable", "-a", "uci:foo", "-b", "random")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "only in-process players")
	code, _, errOut = runMatch(t, "-game", "sandtable", "-a", "random", "-b", "grandmaster")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `-b: unknown player "grandmaster"`)
	// -pgn has nothing to write for SandTable: refused, not silently ignored.
	pgn := filepath.Join(t.TempDir(), "st.pgn")
	code, _, errOut = runMatch(t, "-game", "sandtable", "-a", "random", "-b", "random", "-games", "1", "-pgn", pgn)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "SandTable games have no PGN")
	require.NoFileExists(t, pgn)
}
