package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
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
beginner|easy|intermediate|advanced|strongest (casual, the former name
of easy, is still accepted), setoption name Seed value
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
nodes; movetime and the clock cap the time. The strongest level has no
node budget and uses that time: all of movetime, or by time management a
share of the clock (the time left over the moves to go, 30 when not
given, plus most of the increment), never past a hard cap.

stop answers bestmove at once whenever it comes, and isready is answered
during a search. A position that is refused (a bad FEN, neither startpos
nor fen) leaves no position: a go then answers an info string saying why
and bestmove 0000. Bad go arguments (depth or nodes below 1, a negative
time, a missing number) are reported in an info string and ignored. A
command line longer than 8 MiB is refused with an info string.
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
	// noPos, when set, says why there is no position: the last position
	// command was refused, and go answers bestmove 0000.
	noPos string

	tc       *teamchess.Game // the Team Chess game at pos (UCI_Variant teamchess); nil: the start
	searcher *engine.Searcher
	tableFor int                // the TableBits searcher was made with
	cancel   context.CancelFunc // stops the running search; nil when idle
	done     chan struct{}      // closed when the running search has printed bestmove
	run      *searchRun         // the running search's output state
	fallback func() string      // a legal move (or 0000) for the position searched
}

// searchRun is one search's output state, guarded by uciSession.mu.
type searchRun struct {
	answered  bool // its bestmove was printed
	abandoned bool // stop answered for it: its output is dropped
}

// uciStopGrace is how long stop waits for a cancelled search to answer
// before answering for it (a last resort: every engine loop that can be
// long watches the cancellation, so this never happens in practice).
var uciStopGrace = 3 * time.Second

// maxUCILine is the longest command line read; a longer one is refused
// (its text skipped up to the next newline) with an info string.
const maxUCILine = 8 << 20

// runUCI runs a session reading commands from in and writing to out.
func runUCI(in io.Reader, out io.Writer) {
	strongest, _ := engine.LevelByName("strongest")
	s := &uciSession{out: bufio.NewWriter(out), variant: chess.Chess, level: strongest}
	s.pos = chess.StartPosition(s.variant)
	r := bufio.NewReaderSize(in, 64*1024)
	for {
		line, long, err := readUCILine(r, maxUCILine)
		if long > 0 {
			s.refuseLong(line, long)
		} else if len(line) > 0 && !s.command(strings.Fields(string(line))) {
			break
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.send("info string reading the input failed: %v", err)
			}
			break
		}
	}
	s.stop()
}

// readUCILine reads one line (without its line end). A line longer than
// max is skipped up to its newline: long is then its length and line its
// first bytes. err is the reader's error (io.EOF at the end).
func readUCILine(r *bufio.Reader, max int) (line []byte, long int, err error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		switch {
		case long > 0:
			long += len(chunk)
		case len(buf)+len(chunk) > max+2: // +2: the line end
			long = len(buf) + len(chunk)
			buf = append(buf[:0:0], buf[:min(len(buf), 64)]...)
			if len(buf) < 64 {
				buf = append(buf, chunk[:min(len(chunk), 64-len(buf))]...)
			}
		default:
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if long == 0 {
			buf = bytes.TrimRight(buf, "\r\n")
		}
		return buf, long, err
	}
}

// refuseLong reports a command line longer than maxUCILine; a refused
// position leaves no position.
func (s *uciSession) refuseLong(head []byte, n int) {
	cmd := ""
	if f := strings.Fields(string(head)); len(f) > 0 {
		cmd = f[0]
	}
	s.send("info string a command line of %d bytes (%s…) is longer than the %d bytes read: refused", n, clipUCI(cmd), maxUCILine)
	if cmd == "position" {
		s.stop()
		s.refusePosition(fmt.Sprintf("the position command of %d bytes was too long", n))
	}
}

// refusePosition leaves no position, for the reason why.
func (s *uciSession) refusePosition(why string) {
	s.noPos = why
	s.pos, s.history, s.tc = chess.StartPosition(s.variant), nil, nil
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
		s.pos, s.history, s.tc, s.noPos = chess.StartPosition(s.variant), nil, nil, ""
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
				s.pos, s.history, s.tc, s.noPos = chess.StartPosition(uv), nil, nil, ""
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
			s.refusePosition(fmt.Sprintf("the FEN was refused (%v)", err))
			return
		}
		pos, rest = p, f[i:]
	default:
		s.send("info string position needs startpos or fen")
		s.refusePosition("the position command named neither startpos nor fen")
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
	s.pos, s.history, s.noPos = pos, hist, ""
}

// goKeywords are the words of a go command (searchmoves' list ends at
// the next one).
var goKeywords = map[string]bool{"searchmoves": true, "ponder": true, "wtime": true, "btime": true,
	"winc": true, "binc": true, "movestogo": true, "depth": true, "nodes": true, "mate": true,
	"movetime": true, "infinite": true}

// goSearch starts a search in its own goroutine with the go command's
// limits. Bad arguments are reported and ignored.
func (s *uciSession) goSearch(f []string) {
	depth, nodes := 0, uint64(0)
	var wtime, btime, winc, binc, movestogo, movetime int64 = -1, -1, 0, 0, 0, -1
	infinite, nodesSet := false, false
	for i := 0; i < len(f); i++ {
		// num reads the number after f[i]; ok false (reported) when
		// there is none.
		num := func() (int64, bool) {
			if i+1 >= len(f) || goKeywords[f[i+1]] {
				s.send("info string %s needs a number: ignored", f[i])
				return 0, false
			}
			i++
			n, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				s.send("info string %s needs a number, not %s: ignored", f[i-1], clipUCI(f[i]))
				return 0, false
			}
			return n, true
		}
		// atLeast reports a number below lo.
		atLeast := func(n, lo int64) bool {
			if n < lo {
				s.send("info string %s must be at least %d, not %d: ignored", f[i-1], lo, n)
				return false
			}
			return true
		}
		switch f[i] {
		case "depth":
			if n, ok := num(); ok && atLeast(n, 1) {
				depth = int(min(n, engine.MaxDepth))
			}
		case "nodes":
			if n, ok := num(); ok && atLeast(n, 1) {
				nodes, nodesSet = uint64(n), true
			}
		case "movetime":
			if n, ok := num(); ok && atLeast(n, 1) {
				movetime = n
			}
		case "wtime", "btime":
			if n, ok := num(); ok {
				if n < 0 {
					s.send("info string %s is negative (%d): taken as 0", f[i-1], n)
					n = 0
				}
				if f[i-1] == "wtime" {
					wtime = n
				} else {
					btime = n
				}
			}
		case "winc", "binc":
			if n, ok := num(); ok && atLeast(n, 0) {
				if f[i-1] == "winc" {
					winc = n
				} else {
					binc = n
				}
			}
		case "movestogo":
			if n, ok := num(); ok && atLeast(n, 1) {
				movestogo = n
			}
		case "infinite":
			infinite = true
		case "mate":
			num() // not supported: searched as usual
		case "searchmoves":
			// Not supported: the moves are skipped, all moves searched.
			for i+1 < len(f) && !goKeywords[f[i+1]] {
				i++
			}
		case "ponder":
			// Not offered (no Ponder option): searched as usual.
		default:
			s.send("info string unknown go argument %s: ignored", clipUCI(f[i]))
		}
	}
	left, inc := wtime, winc
	if s.pos.Turn() == chess.Black {
		left, inc = btime, binc
	}
	var timeCap, soft time.Duration
	switch {
	case infinite:
	case movetime > 0:
		timeCap = time.Duration(movetime) * time.Millisecond
	case left >= 0:
		soft, timeCap = engine.ClockLimits(time.Duration(left)*time.Millisecond, time.Duration(inc)*time.Millisecond, int(movestogo))
	}
	lim := s.level.Limits(s.seed, timeCap)
	lim.Soft = soft
	if depth > 0 {
		lim.Depth = depth
	}
	if nodesSet {
		lim.Nodes = nodes
	}
	if infinite {
		lim.Depth, lim.Nodes, lim.Time = engine.MaxDepth, 0, 0
	}
	switch {
	case s.noPos != "":
		why := s.noPos
		s.launch(infinite, func() string { return "0000" }, func(_ context.Context, say func(string, ...any)) string {
			say("info string no position to search: %s", why)
			return "0000"
		})
	case s.variant == chess.TeamChess:
		if s.tc == nil {
			s.positionTeamChess([]string{"startpos"})
		}
		s.goTeamChess(lim, infinite, nodesSet)
	default:
		s.goChess(lim, infinite)
	}
}

// launch runs search in its own goroutine: it returns the bestmove's
// move, which is printed (after go infinite only once stop came). The
// context search gets is cancelled by stop; search prints through say,
// which drops its lines once stop has answered for it. fallback gives a
// legal move (or 0000) should stop have to answer for it.
func (s *uciSession) launch(infinite bool, fallback func() string, search func(ctx context.Context, say func(string, ...any)) string) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	run := &searchRun{}
	say := func(format string, a ...any) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if run.abandoned {
			return
		}
		fmt.Fprintf(s.out, format+"\n", a...)
		s.out.Flush()
		if strings.HasPrefix(format, "bestmove ") {
			run.answered = true
		}
	}
	s.cancel, s.done, s.run, s.fallback = cancel, done, run, fallback
	go func() {
		defer close(done)
		best := search(ctx, say)
		if infinite {
			<-ctx.Done() // UCI: after go infinite, bestmove only after stop
		}
		say("bestmove %s", best)
	}()
}

// goChess runs a chess or Survival search.
func (s *uciSession) goChess(lim engine.Limits, infinite bool) {
	if s.searcher == nil || s.tableFor != s.level.TableBits {
		s.searcher = engine.NewSearcher(s.level.TableBits)
		s.tableFor = s.level.TableBits
	}
	sr := s.searcher
	pos, hist := s.pos, append([]uint64(nil), s.history...)
	fallback := func() string {
		if ms := pos.LegalMoves(); len(ms) > 0 && !pos.Status().Over() {
			return ms[0].UCI()
		}
		return "0000"
	}
	s.launch(infinite, fallback, func(ctx context.Context, say func(string, ...any)) string {
		sr.OnInfo = func(in engine.Info) { say("%s", infoLine(in)) }
		r := sr.SearchContext(ctx, pos, hist, lim)
		if r.Depth == 0 {
			// No iteration completed (a tiny budget or an early stop):
			// still say what was searched.
			say("info depth 0 nodes %d time %d", r.Nodes, r.Time.Milliseconds())
		} else {
			// The final choice (the level's seeded pick among near-equal
			// moves may differ from the last iteration's best).
			say("%s", infoLine(r.Info))
		}
		return r.Move.UCI()
	})
}

// stop ends the running search, if any, and waits for its bestmove,
// which comes at once: the search's context is cancelled, and every
// engine loop that can be long watches it. Should the search still not
// answer within uciStopGrace, stop answers for it with a legal move and
// leaves it behind (its output dropped, its searcher no longer used).
func (s *uciSession) stop() {
	if s.done == nil {
		return
	}
	s.cancel()
	select {
	case <-s.done:
	case <-time.After(uciStopGrace):
		move := s.fallback()
		s.mu.Lock()
		if !s.run.answered {
			s.run.abandoned = true
			fmt.Fprintf(s.out, "info string the search did not stop within %v: answering without it\n", uciStopGrace)
			fmt.Fprintf(s.out, "bestmove %s\n", move)
			s.out.Flush()
			s.searcher = nil // the search left behind still uses it
		}
		s.mu.Unlock()
	}
	s.cancel, s.done, s.run, s.fallback = nil, nil, nil, nil
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
		if fen == "" {
			s.send("info string bad FEN: empty")
			s.refusePosition("the FEN was refused (empty)")
			return
		}
	default:
		s.send("info string position needs startpos or fen")
		s.refusePosition("the position command named neither startpos nor fen")
		return
	}
	g, err := teamchess.NewGame(teamchess.Setup{FEN: fen,
		White: []teamchess.Member{{ID: "white"}}, Black: []teamchess.Member{{ID: "black"}}})
	if err != nil {
		s.send("info string bad FEN: %v", err)
		s.refusePosition(fmt.Sprintf("the FEN was refused (%v)", err))
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
	s.tc, s.pos, s.history, s.noPos = g, g.Position(), nil, ""
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
		p.Level.Nodes = math.MaxUint64 // no node budget (0 would stop a level at its untimed bound)
	}
	g := s.tc.Clone()
	fallback := func() string {
		if g.Phase() != teamchess.Playing {
			return "0000"
		}
		if f, ok := g.Forced(); ok {
			return f.UCI()
		}
		pos := g.Position()
		for m := range teamchess.AllLegalMoves(&pos) {
			return m.UCI()
		}
		return "0000"
	}
	s.launch(infinite, fallback, func(ctx context.Context, say func(string, ...any)) string {
		start := time.Now()
		if lim.Time > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, lim.Time)
			defer cancel()
		}
		switch {
		case g.Phase() == teamchess.Finished:
			say("info string the game is over: %s", g.Result())
			return "0000"
		case g.Phase() == teamchess.SiegeDecision:
			// The board's side to move is besieged: it passes. Say what the
			// attacker should choose.
			r := p.ChooseContext(ctx, g)
			choice := "continue the siege"
			if r.Action.Kind == teamchess.ActSiegeWin {
				choice = "take the Siege Win"
			}
			say("info string %s is besieged and passes; %s should %s", g.Turn().Other(), g.Turn(), choice)
			return "0000"
		default:
			r := p.ChooseContext(ctx, g)
			el := time.Since(start)
			say("%s", infoLine(engine.Info{Depth: r.Depth, Score: r.Score, Nodes: r.Nodes, Time: el}))
			return r.Action.Move
		}
	})
}
