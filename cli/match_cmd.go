package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"sandtable/games/chess"
	"sandtable/games/engine"
)

const matchUsage = `usage: sandtable match -game survival|chess|teamchess|sandtable -a SPEC -b SPEC [-games N] [-movetime MS] [-seed S] [-openings PLIES]
                       [-maxplies N] [-a-setup CMDS] [-b-setup CMDS] [-pgn FILE]

Plays N games between two players and scores A (issue 16 item 4). In
teamchess the games have one commander a side and the whole Team Chess
rules; a mutual loss or the ply limit is a draw and a siege decision
counts as a ply; a uci: player is told UCI_Variant teamchess and sent the
moves in the Team Chess UCI notation of "sandtable uci -h" (0000 for a
continued siege), and at a siege decision continues only when an info
string of its answer says "continue the siege". In sandtable only
in-process players play; South takes White's place in the game lines
(1-0 is a South win), a ply is one action (a Main action or a hazard use),
and each pair's opening is a seeded pair of deployments (planned as the
computer plans its own) and a seeded coin, then PLIES random actions. A SPEC is
a level (beginner, easy, intermediate, advanced, strongest; casual, the
former name of easy, is still accepted), random,
greedy, or uci:COMMAND, an external engine speaking UCI started with
COMMAND (split at spaces; for example "uci:sandtable uci"); it is told
UCI_Variant survival for Survival Chess (or, with -a-setup or -b-setup,
the given commands instead, for example for Fairy-Stockfish:
-b-setup "setoption name VariantPath value variants.ini;setoption name
UCI_Variant value survival-tartan"), then "position startpos moves ..."
and "go movetime MS" for each move.

Games come in pairs: both games of a pair start from the same random
opening of PLIES plies (seeded by -seed; default 4 plies), A playing White
in the first and Black in the second. A game ends by the variant's rules
(elimination, checkmate, stalemate, dead position, insufficient material,
fivefold repetition, 75-move rule); threefold repetition and the 50-move
rule are taken as claimed at once (a draw), and a game still going after
-maxplies plies (default 400) is adjudicated a draw. A player that plays an
illegal move, answers nothing within the move time plus 10 seconds, or
whose process dies, loses that game.

One line per game, then for each searching level its mean depth and nodes
per move and how many of its searches the time cap stopped, then, as the
last line:
  A: W wins, D draws, L losses of N; score P% ± CI%
where P is A's mean score (win 1, draw 1/2, loss 0) and CI the half-width
of its 95% confidence interval by the normal approximation: 1.96 times the
sample standard deviation of the per-game scores over the square root of
N (0 when N is 1).

The levels below strongest keep their node and depth budgets: -movetime
only caps their time (default 1000 ms), so with a seed their games are
reproducible as long as the cap is not reached. The strongest level has no
node budget: it uses the whole -movetime for every move.

flags:
`

// matchMain implements "sandtable match". Exit codes: 0 the match was
// played, 2 bad arguments or an engine that would not start.
func matchMain(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	game := fs.String("game", "survival", "survival, chess, teamchess or sandtable")
	specA := fs.String("a", "", "player A (required): a level, random, greedy or uci:COMMAND")
	specB := fs.String("b", "", "player B (required)")
	games := fs.Int("games", 2, "number of games (1 to 100000)")
	movetime := fs.Int("movetime", 1000, "time cap per move in milliseconds (1 to 3600000)")
	seed := fs.Uint64("seed", 1, "seed of the openings and the players' choices")
	openings := fs.Int("openings", 4, "plies of each pair's random opening (0 to 40)")
	maxPlies := fs.Int("maxplies", 400, "plies after which a game is adjudicated a draw (10 to 100000)")
	setupA := fs.String("a-setup", "", "for a uci: player A, the UCI commands (separated by ';') that set it up instead of setoption name UCI_Variant")
	setupB := fs.String("b-setup", "", "the same for player B")
	pgnPath := fs.String("pgn", "", "write every game to this file in PGN")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "sandtable match: "+format+"\n", a...)
		fmt.Fprintln(stderr, "run 'sandtable match -h' for usage")
		return 2
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, matchUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		return fail("%s", clipForeign(err.Error(), flagInputs(args)...))
	}
	if fs.NArg() > 0 {
		return fail("unexpected argument %s", quoteArg(fs.Arg(0)))
	}
	var v chess.Variant
	isTC, isST := false, false
	switch strings.ToLower(*game) {
	case "sandtable":
		isST = true
	case "teamchess":
		v, isTC = chess.TeamChess, true
	case "survival":
		v = chess.Survival
	case "chess":
		v = chess.Chess
	default:
		return fail("-game %s is not supported (expected survival, chess, teamchess or sandtable)", quoteArg(*game))
	}
	switch {
	case *specA == "" || *specB == "":
		return fail("-a and -b are required")
	case *games < 1 || *games > 100000:
		return fail("-games %d is out of range (1 to 100000)", *games)
	case *movetime < 1 || *movetime > 3600000:
		return fail("-movetime %d is out of range (1 to 3600000 ms)", *movetime)
	case *openings < 0 || *openings > 40:
		return fail("-openings %d is out of range (0 to 40 plies)", *openings)
	case *maxPlies < 10 || *maxPlies > 100000:
		return fail("-maxplies %d is out of range (10 to 100000)", *maxPlies)
	}
	if isST {
		if *pgnPath != "" {
			return fail("-pgn writes 8x8 games in PGN: SandTable games have no PGN (their records are JSON)")
		}
		return matchSandTable(*specA, *specB, *games, time.Duration(*movetime)*time.Millisecond, *seed, *openings, *maxPlies, stdout, fail)
	}
	if isTC {
		return matchTeamChess(tcMatchArgs{specA: *specA, specB: *specB, setupA: *setupA, setupB: *setupB, games: *games,
			movetime: time.Duration(*movetime) * time.Millisecond, seed: *seed, openings: *openings, maxPlies: *maxPlies,
			pgnPath: *pgnPath}, stdout, fail)
	}
	m := &match{variant: v, movetime: time.Duration(*movetime) * time.Millisecond, maxPlies: *maxPlies, out: stdout}
	a, err := newMatchPlayer(*specA, *setupA, v, *seed)
	if err != nil {
		return fail("-a: %v", err)
	}
	defer a.close()
	b, err := newMatchPlayer(*specB, *setupB, v, *seed+1)
	if err != nil {
		return fail("-b: %v", err)
	}
	defer b.close()
	var pgn *os.File
	if *pgnPath != "" {
		f, err := os.Create(*pgnPath)
		if err != nil {
			return fail("-pgn: %v", err)
		}
		defer f.Close()
		pgn = f
	}
	fmt.Fprintf(stdout, "match: %s, A = %s, B = %s, %d games, movetime %d ms, seed %d, openings of %d plies\n",
		v, quoteArg(*specA), quoteArg(*specB), *games, *movetime, *seed, *openings)
	var scores []float64
	var wins, draws, losses int
	var opening []chess.Move
	for i := range *games {
		if i%2 == 0 {
			opening = randomOpening(v, *seed, i/2, *openings)
		}
		aWhite := i%2 == 0
		white, black := a, b
		if !aWhite {
			white, black = b, a
		}
		res := m.play(white, black, opening)
		sa := 0.5
		switch {
		case res.winner == nil:
			draws++
		case (*res.winner == chess.White) == aWhite:
			sa = 1
			wins++
		default:
			sa = 0
			losses++
		}
		scores = append(scores, sa)
		if pgn != nil {
			ws, bs := *specA, *specB
			if !aWhite {
				ws, bs = bs, ws
			}
			tags := []chess.Tag{{Name: "Event", Value: "sandtable match"}, {Name: "Round", Value: strconv.Itoa(i + 1)},
				{Name: "White", Value: ws}, {Name: "Black", Value: bs}, {Name: "Termination", Value: res.reason}}
			if _, err := io.WriteString(pgn, res.game.PGN(tags, res.result)+"\n"); err != nil {
				return fail("-pgn: %v", err)
			}
		}
		aSide := "white"
		if !aWhite {
			aSide = "black"
		}
		fmt.Fprintf(stdout, "game %d: A %s, %s, %s after %d plies; opening %s\n",
			i+1, aSide, res.result, res.reason, res.plies, openingText(opening))
	}
	for _, pl := range []struct {
		name string
		p    matchPlayer
	}{{"A", a}, {"B", b}} {
		if st := pl.p.stats(); st != "" {
			fmt.Fprintf(stdout, "%s (%s): %s\n", pl.name, quoteArg(map[string]string{"A": *specA, "B": *specB}[pl.name]), st)
		}
	}
	p, ci := meanCI(scores)
	fmt.Fprintf(stdout, "A: %d wins, %d draws, %d losses of %d; score %.1f%% ± %.1f%%\n",
		wins, draws, losses, len(scores), 100*p, 100*ci)
	return 0
}

// meanCI returns the mean of the scores and the half-width of its 95%
// confidence interval by the normal approximation (1.96 sample standard
// deviations over the square root of the count; 0 for one score).
func meanCI(scores []float64) (mean, ci float64) {
	n := float64(len(scores))
	for _, s := range scores {
		mean += s
	}
	mean /= n
	if len(scores) < 2 {
		return mean, 0
	}
	var ss float64
	for _, s := range scores {
		ss += (s - mean) * (s - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/(n-1)) / math.Sqrt(n)
}

func openingText(ms []chess.Move) string {
	if len(ms) == 0 {
		return "(none)"
	}
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.UCI()
	}
	return strings.Join(s, " ")
}

// randomOpening returns the opening of pair number pair: plies random
// legal moves from the start, drawn with a generator seeded by seed and
// pair, redrawn (up to 100 times) while the game would be over by then.
func randomOpening(v chess.Variant, seed uint64, pair, plies int) []chess.Move {
	for try := range 100 {
		r := engine.Random{Seed: seed*1_000_003 + uint64(pair)*7919 + uint64(try)}
		g := chess.NewGame(v)
		var ms []chess.Move
		for range plies {
			if g.Status().Over() {
				break
			}
			pos := g.Position()
			// Random draws per position; mix in the ply so a repeated
			// position does not repeat the choice.
			r.Seed += 0x9e3779b97f4a7c15
			m := r.Choose(*pos, nil, 0).Move
			if err := g.Play(m); err != nil {
				break
			}
			ms = append(ms, m)
		}
		if len(ms) == plies && !g.Status().Over() {
			return ms
		}
	}
	return nil
}

// matchPlayer is one side of a match.
type matchPlayer interface {
	// newGame is called before each game.
	newGame() error
	// move returns the move for the game's current position.
	move(g *chess.Game, hist []uint64, movetime time.Duration) (chess.Move, error)
	// stats summarises the player's searches ("" when it does not search).
	stats() string
	close()
}

// newMatchPlayer makes the player a SPEC names; setup is the UCI set-up
// of a uci: player.
func newMatchPlayer(spec, setup string, v chess.Variant, seed uint64) (matchPlayer, error) {
	if cmd, ok := strings.CutPrefix(spec, "uci:"); ok {
		return startUCIPlayer(cmd, setup, v)
	}
	if setup != "" {
		return nil, fmt.Errorf("a set-up is only for uci: players")
	}
	p, err := engine.NewPlayer(spec, seed)
	if err != nil {
		return nil, err
	}
	return &enginePlayer{p: p}, nil
}

// enginePlayer is a player of games/engine, in process.
type enginePlayer struct {
	p                     engine.Player
	moves, depths, capped int
	nodes                 uint64
}

func (e *enginePlayer) newGame() error { return nil }
func (e *enginePlayer) close()         {}
func (e *enginePlayer) move(g *chess.Game, hist []uint64, movetime time.Duration) (chess.Move, error) {
	r := e.p.Choose(*g.Position(), hist, movetime)
	e.moves++
	e.depths += r.Depth
	e.nodes += r.Nodes
	if r.Time >= movetime {
		e.capped++
	}
	return r.Move, nil
}

// stats: the searching levels' mean depth and nodes per move, and how
// many searches the time cap cut short (the only ones a seed does not
// reproduce).
func (e *enginePlayer) stats() string {
	if _, ok := e.p.(*engine.SearchPlayer); !ok || e.moves == 0 {
		return ""
	}
	return fmt.Sprintf("%d moves, mean depth %.1f, mean %d nodes per move, %d stopped by the time cap",
		e.moves, float64(e.depths)/float64(e.moves), e.nodes/uint64(e.moves), e.capped)
}

// uciPlayer is an external engine process speaking UCI.
type uciPlayer struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // the engine's output lines; closed at its end
	dead  bool
}

// uciReplyWait is how long an engine may take to answer a command beyond
// the move time it was given.
const uciReplyWait = 10 * time.Second

func startUCIPlayer(command, setup string, v chess.Variant) (*uciPlayer, error) {
	f := strings.Fields(command)
	if len(f) == 0 {
		return nil, fmt.Errorf("uci: needs a command (uci:COMMAND)")
	}
	cmd := exec.Command(f[0], f[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", quoteArg(command), err)
	}
	u := &uciPlayer{cmd: cmd, in: in, lines: make(chan string, 256)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			u.lines <- sc.Text()
		}
		close(u.lines)
	}()
	u.send("uci")
	if _, err := u.await("uciok", uciReplyWait); err != nil {
		u.close()
		return nil, fmt.Errorf("%s: %w", quoteArg(command), err)
	}
	switch {
	case setup != "":
		for _, l := range strings.Split(setup, ";") {
			if l = strings.TrimSpace(l); l != "" {
				u.send(l)
			}
		}
	case v != chess.Chess:
		u.send("setoption name UCI_Variant value " + v.String())
	}
	if err := u.newGame(); err != nil {
		u.close()
		return nil, fmt.Errorf("%s: %w", quoteArg(command), err)
	}
	return u, nil
}

func (u *uciPlayer) send(line string) {
	if _, err := io.WriteString(u.in, line+"\n"); err != nil {
		u.dead = true
	}
}

// await reads lines until one starts with prefix, and returns it.
func (u *uciPlayer) await(prefix string, d time.Duration) (string, error) {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for {
		select {
		case l, ok := <-u.lines:
			if !ok {
				u.dead = true
				return "", errors.New("the engine exited")
			}
			if l == prefix || strings.HasPrefix(l, prefix+" ") {
				return l, nil
			}
		case <-deadline.C:
			return "", fmt.Errorf("no %q within %v", prefix, d)
		}
	}
}

func (u *uciPlayer) newGame() error {
	if u.dead {
		return errors.New("the engine exited")
	}
	u.send("ucinewgame")
	u.send("isready")
	_, err := u.await("readyok", uciReplyWait)
	return err
}

func (u *uciPlayer) move(g *chess.Game, _ []uint64, movetime time.Duration) (chess.Move, error) {
	if u.dead {
		return chess.NullMove, errors.New("the engine exited")
	}
	pos := "position fen " + g.StartFEN()
	if g.StartFEN() == g.Variant().StartFEN() {
		pos = "position startpos"
	}
	if ms := g.UCIs(); len(ms) > 0 {
		pos += " moves " + strings.Join(ms, " ")
	}
	u.send(pos)
	u.send(fmt.Sprintf("go movetime %d", movetime.Milliseconds()))
	l, err := u.await("bestmove", movetime+uciReplyWait)
	if err != nil {
		return chess.NullMove, err
	}
	f := strings.Fields(l)
	if len(f) < 2 {
		return chess.NullMove, errors.New("bestmove without a move")
	}
	p := g.Position()
	m, err := p.ParseUCI(f[1])
	if err != nil {
		return chess.NullMove, fmt.Errorf("bestmove %s: %w", clipUCI(f[1]), err)
	}
	return m, nil
}

func (u *uciPlayer) stats() string { return "" }

func (u *uciPlayer) close() {
	u.send("quit")
	_ = u.in.Close()
	done := make(chan struct{})
	go func() { _ = u.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		_ = u.cmd.Process.Kill()
		<-done
	}
}

// match holds a match's fixed settings.
type match struct {
	variant  chess.Variant
	movetime time.Duration
	maxPlies int
	out      io.Writer
}

// gameResult is how one game ended.
type gameResult struct {
	winner *chess.Color // nil for a draw
	result string       // "1-0", "0-1", "1/2-1/2"
	reason string
	plies  int
	game   *chess.Game
}

// play plays one game from the opening.
func (m *match) play(white, black matchPlayer, opening []chess.Move) gameResult {
	g := chess.NewGame(m.variant)
	var hist []uint64
	for _, mv := range opening {
		hist = append(hist, g.Position().Hash())
		_ = g.Play(mv) // randomOpening played it legally already
	}
	win := func(c chess.Color, reason string) gameResult {
		r := "1-0"
		if c == chess.Black {
			r = "0-1"
		}
		return gameResult{winner: &c, result: r, reason: reason, plies: g.Ply(), game: g}
	}
	draw := func(reason string) gameResult {
		return gameResult{result: "1/2-1/2", reason: reason, plies: g.Ply(), game: g}
	}
	for _, p := range []matchPlayer{white, black} {
		if err := p.newGame(); err != nil {
			c := chess.White
			if p == white {
				c = chess.Black
			}
			return win(c, "the other engine failed to start a game: "+err.Error())
		}
	}
	for {
		st := g.Status()
		if st.Over() {
			if c, ok := st.Winner(); ok {
				return win(c, st.Reason.String())
			}
			return draw(st.Reason.String())
		}
		if cl := g.Claims(); len(cl) > 0 {
			return draw(cl[0].String() + " (claimed)")
		}
		if g.Ply() >= m.maxPlies {
			return draw(fmt.Sprintf("ply cap of %d (adjudicated)", m.maxPlies))
		}
		pos := g.Position()
		us := pos.Turn()
		pl := white
		if us == chess.Black {
			pl = black
		}
		mv, err := pl.move(g, hist, m.movetime)
		if err == nil && !pos.IsLegal(mv) {
			err = fmt.Errorf("illegal move %s", mv.UCI())
		}
		if err != nil {
			return win(us.Other(), fmt.Sprintf("%s forfeits: %v", us.Title(), err))
		}
		hist = append(hist, pos.Hash())
		_ = g.Play(mv)
	}
}
