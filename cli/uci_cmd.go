package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
)

const uciUsage = `usage: sandtable uci

Speaks the UCI protocol on standard input and output (issue 16 item 3), so
chess GUIs, match runners and other programs can play the Survival Chess
and standard chess engine (games/engine). Commands: uci, isready,
setoption name UCI_Variant value chess|survival|teamchess, setoption name Level value
beginner|casual|intermediate|advanced|strongest, setoption name Seed value
N, ucinewgame, position startpos|fen FEN [moves M...], go [depth N]
[nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N]
[infinite], stop, quit. In survival, "startpos" is the Tartan Grid and a
promotion to a king is written with "k" (a7a8k).

In teamchess, UCI carries only the board: one commander per side and fresh
stagnation counters at the given position are assumed. An 8th-rank
sacrifice is written as the pawn's from and to squares and the role
letter: g Royal Guard (e7e8g), p Political Agent (e7e8p), a Assassin with
":" and the removed piece's square (e7d8a:d4), s Saboteur with ":" and the
opponent's forced reply in this same form (e7e8s:g8f6, e7e8s:d2d1s:g1f3);
the forced reply is then played as the next move of the list. A besieged
side's pass is 0000: after it the attacker continued the siege. Asked to
move for a besieged side, the engine answers bestmove 0000 with an info
string saying whether the attacker should take the Siege Win or continue.
With one commander a side, a Political Agent's revolution wins at once.

A level's node and depth budgets apply unless go names its own depth or
nodes; movetime and the clock only cap the time.
`

// uciMain implements "sandtable uci": a UCI session on standard input
// and output until "quit" or the end of input. Exit code 0, or 2 for
// arguments.
func uciMain(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
			fmt.Fprint(stdout, uciUsage)
			return 0
		}
		fmt.Fprintf(stderr, "sandtable uci: unexpected argument %s (it takes none; commands come on standard input)\n", quoteArg(args[0]))
		return 2
	}
	runUCI(os.Stdin, stdout)
	return 0
}

// uciVariants are the values of the UCI_Variant option.
var uciVariants = []chess.Variant{chess.Chess, chess.Survival, chess.TeamChess}

// uciSession is one UCI conversation: options, the current position and
// at most one search running in its own goroutine.
type uciSession struct {
	mu  sync.Mutex // guards out
	out *bufio.Writer

	variant chess.Variant
	level   engine.Level
	seed    uint64
	pos     chess.Position
	history []uint64 // hashes of the positions before pos

	tc       *teamchess.Game         // the Team Chess game at pos (UCI_Variant teamchess)
	tcPlayer *engine.TeamChessPlayer // its player while a search runs
	searcher *engine.Searcher
	tableFor int           // the TableBits searcher was made with
	done     chan struct{} // closed when the running search has printed bestmove; nil when idle
	release  chan struct{} // closed by stop: an infinite search may print bestmove
}

// runUCI runs a session reading commands from in and writing to out.
func runUCI(in io.Reader, out io.Writer) {
	strongest, _ := engine.LevelByName("strongest")
	s := &uciSession{out: bufio.NewWriter(out), variant: chess.Chess, level: strongest}
	s.pos = chess.StartPosition(s.variant)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		if !s.command(strings.Fields(sc.Text())) {
			break
		}
	}
	s.stop()
}

// send writes one line and flushes it.
func (s *uciSession) send(format string, a ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.out, format+"\n", a...)
	s.out.Flush()
}

// command runs one command line; false means quit.
func (s *uciSession) command(f []string) bool {
	if len(f) == 0 {
		return true
	}
	switch f[0] {
	case "uci":
		s.send("id name SandTable engine")
		s.send("id author the SandTable Bot project")
		vs := make([]string, len(uciVariants))
		for i, v := range uciVariants {
			vs[i] = "var " + v.String()
		}
		s.send("option name UCI_Variant type combo default %s %s", s.variant, strings.Join(vs, " "))
		s.send("option name Level type combo default %s var %s", s.level.Name, strings.Join(engine.LevelNames(), " var "))
		s.send("option name Seed type spin default 0 min 0 max 2147483647")
		s.send("uciok")
	case "isready":
		s.send("readyok")
	case "setoption":
		s.stop()
		s.setOption(f[1:])
	case "ucinewgame":
		s.stop()
		s.pos = chess.StartPosition(s.variant)
		s.history = nil
	case "position":
		s.stop()
		s.position(f[1:])
	case "go":
		s.stop()
		s.goSearch(f[1:])
	case "stop":
		s.stop()
	case "ponderhit":
		// Pondering is not offered (no Ponder option): nothing to do.
	case "quit":
		return false
	case "debug", "register":
		// Accepted and ignored.
	default:
		s.send("info string unknown command %s", clipUCI(f[0]))
	}
	return true
}

// clipUCI shortens an echoed token of the input.
func clipUCI(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// setOption handles "name N... value V...".
func (s *uciSession) setOption(f []string) {
	var name, value []string
	cur := &name
	for i, w := range f {
		switch {
		case i == 0 && w == "name":
		case w == "value" && cur == &name:
			cur = &value
		default:
			*cur = append(*cur, w)
		}
	}
	n, v := strings.Join(name, " "), strings.Join(value, " ")
	switch strings.ToLower(n) {
	case "uci_variant":
		for _, uv := range uciVariants {
			if strings.EqualFold(v, uv.String()) {
				s.variant = uv
				s.pos = chess.StartPosition(uv)
				s.history = nil
				return
			}
		}
		s.send("info string unknown UCI_Variant %s (expected chess, survival or teamchess)", clipUCI(v))
	case "level":
		l, err := engine.LevelByName(v)
		if err != nil {
			s.send("info string %v", err)
			return
		}
		s.level = l
	case "seed":
		n, err := strconv.ParseUint(v, 10, 31)
		if err != nil {
			s.send("info string Seed must be a whole number from 0 to 2147483647")
			return
		}
		s.seed = n
	default:
		s.send("info string unknown option %s", clipUCI(n))
	}
}

// position handles "startpos|fen FEN [moves ...]". Moves are applied up
// to the first illegal one, which is reported.
func (s *uciSession) position(f []string) {
	if s.variant == chess.TeamChess {
		s.positionTeamChess(f)
		return
	}
	var pos chess.Position
	rest := f
	switch {
	case len(f) > 0 && f[0] == "startpos":
		pos = chess.StartPosition(s.variant)
		rest = f[1:]
	case len(f) > 0 && f[0] == "fen":
		i := 1
		for i < len(f) && f[i] != "moves" {
			i++
		}
		p, err := chess.ParseFEN(s.variant, strings.Join(f[1:i], " "))
		if err != nil {
			s.send("info string bad FEN: %v", err)
			return
		}
		pos, rest = p, f[i:]
	default:
		s.send("info string position needs startpos or fen")
		return
	}
	var hist []uint64
	if len(rest) > 0 && rest[0] == "moves" {
		for _, t := range rest[1:] {
			m, err := pos.ParseUCI(t)
			if err == nil && !pos.IsLegal(m) {
				err = fmt.Errorf("illegal")
			}
			if err != nil {
				s.send("info string illegal move %s in %s: the moves after it are ignored", clipUCI(t), pos.FEN())
				break
			}
			hist = append(hist, pos.Hash())
			pos = pos.PlayUnchecked(m)
		}
	}
	s.pos, s.history = pos, hist
}

// goSearch starts a search in its own goroutine with the go command's
// limits.
func (s *uciSession) goSearch(f []string) {
	if s.variant == chess.TeamChess && s.tc == nil {
		s.positionTeamChess([]string{"startpos"})
	}
	lim := s.level.Limits(s.seed, 0)
	var wtime, btime, winc, binc, movestogo, movetime int64 = -1, -1, 0, 0, 0, -1
	infinite, nodesSet := false, false
	for i := 0; i < len(f); i++ {
		num := func() int64 {
			if i+1 < len(f) {
				i++
				n, err := strconv.ParseInt(f[i], 10, 64)
				if err == nil {
					return n
				}
				s.send("info string %s needs a number, not %s", f[i-1], clipUCI(f[i]))
			}
			return -1
		}
		switch f[i] {
		case "depth":
			if n := num(); n > 0 {
				lim.Depth = int(min(n, engine.MaxDepth))
			}
		case "nodes":
			if n := num(); n > 0 {
				lim.Nodes, nodesSet = uint64(n), true
			}
		case "movetime":
			movetime = num()
		case "wtime":
			wtime = num()
		case "btime":
			btime = num()
		case "winc":
			winc = num()
		case "binc":
			binc = num()
		case "movestogo":
			movestogo = num()
		case "infinite":
			infinite = true
		case "ponder", "mate", "searchmoves":
			// Not supported: ignored.
		}
	}
	left, inc := wtime, winc
	if s.pos.Turn() == chess.Black {
		left, inc = btime, binc
	}
	switch {
	case infinite:
		lim.Depth, lim.Nodes, lim.Time = engine.MaxDepth, 0, 0
	case movetime > 0:
		lim.Time = time.Duration(movetime) * time.Millisecond
	case left >= 0:
		lim.Time = allotTime(left, inc, movestogo)
	}
	if s.variant == chess.TeamChess {
		s.goTeamChess(lim, infinite, nodesSet)
		return
	}
	if s.searcher == nil || s.tableFor != s.level.TableBits {
		s.searcher = engine.NewSearcher(s.level.TableBits)
		s.tableFor = s.level.TableBits
	}
	sr := s.searcher
	sr.OnInfo = func(in engine.Info) { s.send("%s", infoLine(in)) }
	pos, hist := s.pos, append([]uint64(nil), s.history...)
	done := make(chan struct{})
	release := make(chan struct{})
	s.done, s.release = done, release
	go func() {
		defer close(done)
		r := sr.Search(pos, hist, lim)
		if r.Depth == 0 {
			// No iteration completed (a tiny budget or an early stop):
			// still say what was searched.
			s.send("info depth 0 nodes %d time %d", r.Nodes, r.Time.Milliseconds())
		} else {
			// The final choice (the level's seeded pick among near-equal
			// moves may differ from the last iteration's best).
			s.send("%s", infoLine(r.Info))
		}
		if infinite {
			<-release // UCI: after go infinite, bestmove only after stop
		}
		s.send("bestmove %s", r.Move.UCI())
	}()
}

// allotTime gives a move its share of the clock: the time left over the
// moves to go (30 when unknown), plus most of the increment, keeping a
// safety margin.
func allotTime(left, inc, movestogo int64) time.Duration {
	if movestogo <= 0 {
		movestogo = 30
	}
	ms := left/movestogo + inc*3/4
	ms = min(ms, left/2, left-50)
	return time.Duration(max(ms, 10)) * time.Millisecond
}

// stop ends the running search, if any, and waits for its bestmove.
func (s *uciSession) stop() {
	if s.done == nil {
		return
	}
	if s.tcPlayer != nil {
		s.tcPlayer.Stop()
	} else {
		s.searcher.Stop()
	}
	close(s.release)
	<-s.done
	s.done, s.release, s.tcPlayer = nil, nil, nil
}

// infoLine writes an iteration's report as a UCI info line.
func infoLine(in engine.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d score ", in.Depth)
	if n, ok := in.MateIn(); ok {
		fmt.Fprintf(&b, "mate %d", n)
	} else {
		fmt.Fprintf(&b, "cp %d", in.Score)
	}
	ms := in.Time.Milliseconds()
	nps := uint64(float64(in.Nodes) / max(in.Time.Seconds(), 1e-3))
	fmt.Fprintf(&b, " nodes %d nps %d time %d", in.Nodes, nps, ms)
	if len(in.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range in.PV {
			b.WriteString(" " + m.UCI())
		}
	}
	return b.String()
}

// positionTeamChess handles "position" in teamchess: it builds a
// teamchess.Game with one commander a side and applies the moves in the
// notation of the usage text (0000: the besieged side's pass, after which
// the attacker continues the siege).
func (s *uciSession) positionTeamChess(f []string) {
	fen, rest := "", f
	switch {
	case len(f) > 0 && f[0] == "startpos":
		rest = f[1:]
	case len(f) > 0 && f[0] == "fen":
		i := 1
		for i < len(f) && f[i] != "moves" {
			i++
		}
		fen, rest = strings.Join(f[1:i], " "), f[i:]
	default:
		s.send("info string position needs startpos or fen")
		return
	}
	g, err := teamchess.NewGame(teamchess.Setup{FEN: fen,
		White: []teamchess.Member{{ID: "white"}}, Black: []teamchess.Member{{ID: "black"}}})
	if err != nil {
		s.send("info string bad FEN: %v", err)
		return
	}
	if len(rest) > 0 && rest[0] == "moves" {
		for _, t := range rest[1:] {
			if t == "0000" && g.Phase() == teamchess.SiegeDecision {
				_, err = g.SiegeContinue("")
			} else {
				_, err = g.Play("", t)
			}
			if err != nil {
				s.send("info string illegal move %s: %s; the moves after it are ignored", clipUCI(t), clipUCI(err.Error()))
				break
			}
		}
	}
	s.tc, s.pos = g, g.Position()
}

// goTeamChess runs a Team Chess search in its own goroutine. Depth and
// nodes from go (nodesSet) override the level's (go nodes N searches N
// games); without them the level searches as in process (its node budget
// divided by TeamChessNodeDivisor), and infinite has no node budget; the
// time only caps.
func (s *uciSession) goTeamChess(lim engine.Limits, infinite, nodesSet bool) {
	p, _ := engine.NewTeamChessPlayer(s.level.Name, s.seed)
	p.Level.Depth = lim.Depth
	switch {
	case nodesSet:
		p.Level.Nodes = lim.Nodes * engine.TeamChessNodeDivisor
	case infinite:
		p.Level.Nodes = 0
	}
	g := s.tc.Clone()
	done := make(chan struct{})
	release := make(chan struct{})
	s.done, s.release, s.tcPlayer = done, release, p
	go func() {
		defer close(done)
		start := time.Now()
		var best string
		switch {
		case g.Phase() == teamchess.Finished:
			s.send("info string the game is over: %s", g.Result())
			best = "0000"
		case g.Phase() == teamchess.SiegeDecision:
			// The board's side to move is besieged: it passes. Say what the
			// attacker should choose.
			r := p.Choose(g, lim.Time)
			choice := "continue the siege"
			if r.Action.Kind == teamchess.ActSiegeWin {
				choice = "take the Siege Win"
			}
			s.send("info string %s is besieged and passes; %s should %s", g.Turn().Other(), g.Turn(), choice)
			best = "0000"
		default:
			r := p.Choose(g, lim.Time)
			el := time.Since(start)
			s.send("%s", infoLine(engine.Info{Depth: r.Depth, Score: r.Score, Nodes: r.Nodes, Time: el}))
			best = r.Action.Move
		}
		if infinite {
			<-release
		}
		s.send("bestmove %s", best)
	}()
}
