package cli

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/games/teamchess"
)

// tcMatchArgs are the settings of "sandtable match -game teamchess".
type tcMatchArgs struct {
	specA, specB   string
	setupA, setupB string // UCI set-ups of uci: players
	games          int
	movetime       time.Duration
	seed           uint64
	openings       int
	maxPlies       int
	pgnPath        string
}

// matchTeamChess plays "sandtable match -game teamchess": one commander a
// side, whole teamchess.Game rules (sacrifices, siege decisions, fatigue).
// A player is a level, random, greedy (in process) or uci:COMMAND, an
// external engine speaking the Team Chess UCI notation (tcUCIPlayer). A
// mutual loss or a game still going after maxPlies actions counts as a
// draw; a player whose action is refused, who answers nothing in time or
// whose process dies loses that game. The output has the same lines as the
// other games' (a siege decision counts as a ply).
func matchTeamChess(m tcMatchArgs, stdout io.Writer, fail func(string, ...any) int) int {
	a, err := newTCMatchPlayer(m.specA, m.setupA, m.seed)
	if err != nil {
		return fail("-a: %v", err)
	}
	defer a.close()
	b, err := newTCMatchPlayer(m.specB, m.setupB, m.seed+1)
	if err != nil {
		return fail("-b: %v", err)
	}
	defer b.close()
	var pgn *os.File
	if m.pgnPath != "" {
		f, err := os.Create(m.pgnPath)
		if err != nil {
			return fail("-pgn: %v", err)
		}
		defer f.Close()
		pgn = f
	}
	fmt.Fprintf(stdout, "match: teamchess, A = %s, B = %s, %d games, movetime %d ms, seed %d, openings of %d plies\n",
		quoteArg(m.specA), quoteArg(m.specB), m.games, m.movetime.Milliseconds(), m.seed, m.openings)
	var scores []float64
	var wins, draws, losses int
	var opening []teamchess.Action
	for i := range m.games {
		if i%2 == 0 {
			opening = tcOpening(m.seed, i/2, m.openings)
		}
		aWhite := i%2 == 0
		white, black := a, b
		if !aWhite {
			white, black = b, a
		}
		g, res, reason := playTC(white, black, opening, m.movetime, m.maxPlies)
		sa := 0.5
		switch {
		case res == "1/2-1/2":
			draws++
		case (res == "1-0") == aWhite:
			sa = 1
			wins++
		default:
			sa = 0
			losses++
		}
		scores = append(scores, sa)
		if pgn != nil {
			ws, bs := m.specA, m.specB
			if !aWhite {
				ws, bs = bs, ws
			}
			tags := []chess.Tag{{Name: "Event", Value: "sandtable match"}, {Name: "Round", Value: strconv.Itoa(i + 1)},
				{Name: "White", Value: ws}, {Name: "Black", Value: bs}, {Name: "Termination", Value: reason}}
			if _, err := io.WriteString(pgn, g.PGN(tags)+"\n"); err != nil {
				return fail("-pgn: %v", err)
			}
		}
		aSide := "white"
		if !aWhite {
			aSide = "black"
		}
		ops := make([]string, len(opening))
		for j, o := range opening {
			ops[j] = o.Move
		}
		op := strings.Join(ops, " ")
		if op == "" {
			op = "(none)"
		}
		fmt.Fprintf(stdout, "game %d: A %s, %s, %s after %d plies; opening %s\n",
			i+1, aSide, res, reason, g.ActionCount(), op)
	}
	for _, pl := range []struct {
		name, spec string
		p          tcMatchPlayer
	}{{"A", m.specA, a}, {"B", m.specB, b}} {
		if st := pl.p.stats(); st != "" {
			fmt.Fprintf(stdout, "%s (%s): %s\n", pl.name, quoteArg(pl.spec), st)
		}
	}
	p, ci := meanCI(scores)
	fmt.Fprintf(stdout, "A: %d wins, %d draws, %d losses of %d; score %.1f%% ± %.1f%%\n",
		wins, draws, losses, len(scores), 100*p, 100*ci)
	return 0
}

// playTC plays one game from the opening and returns it, its result
// ("1-0", "0-1", "1/2-1/2") and how it ended.
func playTC(white, black tcMatchPlayer, opening []teamchess.Action, movetime time.Duration, maxPlies int) (*teamchess.Game, string, string) {
	g := newTCMatchGame()
	for _, act := range opening {
		g.Apply(act) // replayed: legal by construction
	}
	win := func(c chess.Color) string { return map[chess.Color]string{chess.White: "1-0", chess.Black: "0-1"}[c] }
	for _, p := range []tcMatchPlayer{white, black} {
		if err := p.newGame(); err != nil {
			c := chess.White
			if p == white {
				c = chess.Black
			}
			return g, win(c), "the other engine failed to start a game: " + err.Error()
		}
	}
	for n := 0; n < maxPlies && g.Phase() != teamchess.Finished; n++ {
		us := g.Turn()
		p := white
		if us == chess.Black {
			p = black
		}
		act, err := p.act(g, movetime)
		if err == nil {
			act.Side, act.By = us.String(), ""
			_, err = g.Apply(act)
		}
		if err != nil {
			return g, win(us.Other()), fmt.Sprintf("%s forfeits: %s", us.Title(), clipUCI(err.Error()))
		}
	}
	r := g.Result()
	switch {
	case !r.Over():
		return g, "1/2-1/2", "adjudicated a draw after the ply limit"
	case r.HasWinner():
		return g, win(r.Winner), r.String()
	}
	return g, "1/2-1/2", r.String()
}

// tcMatchPlayer is one side of a Team Chess match.
type tcMatchPlayer interface {
	newGame() error
	// act returns the action of the side to act in g (a move, or at a
	// siege decision the Siege Win or continuing).
	act(g *teamchess.Game, movetime time.Duration) (teamchess.Action, error)
	// stats summarises the player's searches ("" when it does not search).
	stats() string
	close()
}

func newTCMatchPlayer(spec, setup string, seed uint64) (tcMatchPlayer, error) {
	if cmd, ok := strings.CutPrefix(spec, "uci:"); ok {
		u, err := startUCIPlayer(cmd, setup, chess.TeamChess)
		if err != nil {
			return nil, err
		}
		return &tcUCIPlayer{u}, nil
	}
	if setup != "" {
		return nil, fmt.Errorf("a set-up is only for uci: players")
	}
	p, err := engine.NewTeamChessPlayer(strings.ToLower(spec), seed)
	if err != nil {
		return nil, err
	}
	return &tcEnginePlayer{p: p, searches: spec != "random" && spec != "greedy"}, nil
}

// tcEnginePlayer is an in-process engine.TeamChessPlayer.
type tcEnginePlayer struct {
	p                     *engine.TeamChessPlayer
	searches              bool // a level (not random or greedy)
	moves, depths, capped int
	nodes                 uint64
}

func (e *tcEnginePlayer) newGame() error { return nil }
func (e *tcEnginePlayer) close()         {}
func (e *tcEnginePlayer) act(g *teamchess.Game, movetime time.Duration) (teamchess.Action, error) {
	start := time.Now()
	r := e.p.Choose(g, movetime)
	if time.Since(start) >= movetime {
		e.capped++
	}
	e.moves++
	e.depths += r.Depth
	e.nodes += r.Nodes
	if r.Action.Kind == "" {
		return r.Action, errors.New("no action in an unfinished game")
	}
	return r.Action, nil
}

// stats: as the other games' (enginePlayer.stats); nodes are the games
// searched.
func (e *tcEnginePlayer) stats() string {
	if !e.searches || e.moves == 0 {
		return ""
	}
	return fmt.Sprintf("%d moves, mean depth %.1f, mean %d nodes per move, %d stopped by the time cap",
		e.moves, float64(e.depths)/float64(e.moves), e.nodes/uint64(e.moves), e.capped)
}

// tcUCIPlayer is an external engine speaking the Team Chess UCI notation
// of "sandtable uci" (one commander a side, fresh counters: the match's
// own games). It is sent "position startpos moves ..." with every move of
// the game in the UCI-style role notation (teamchess.Move.UCI: e7e8g,
// e7d8a:d4, e7e8s:g8f6, the forced reply then as the next move) and 0000
// where the attacker continued a siege, then "go movetime MS". Its
// bestmove is its move. At a siege decision (the board's side to move is
// besieged, so the engine answers bestmove 0000), it continues the siege
// only when an "info string" line of its answer says "continue the siege"
// (as sandtable uci's "… should continue the siege"), and otherwise takes
// the Siege Win: a certain win is what an engine that does not say
// otherwise is taken to want.
type tcUCIPlayer struct{ *uciPlayer }

func (u tcUCIPlayer) stats() string { return "" }

// tcUCIMoves returns g's moves from its start as the UCI session replays
// them: each move in the UCI-style role notation, 0000 for a continued
// siege (the besieged side's pass itself is implicit).
func tcUCIMoves(g *teamchess.Game) []string {
	var out []string
	for _, e := range g.Events() {
		switch e.Kind {
		case teamchess.MoveEvent:
			out = append(out, e.UCI)
		case teamchess.SiegeContinueEvent:
			out = append(out, "0000")
		}
	}
	return out
}

func (u tcUCIPlayer) act(g *teamchess.Game, movetime time.Duration) (teamchess.Action, error) {
	if u.dead {
		return teamchess.Action{}, errors.New("the engine exited")
	}
	pos := "position startpos"
	if ms := tcUCIMoves(g); len(ms) > 0 {
		pos += " moves " + strings.Join(ms, " ")
	}
	u.send(pos)
	u.send(fmt.Sprintf("go movetime %d", movetime.Milliseconds()))
	cont := false
	deadline := time.NewTimer(movetime + uciReplyWait)
	defer deadline.Stop()
	for {
		select {
		case l, ok := <-u.lines:
			if !ok {
				u.dead = true
				return teamchess.Action{}, errors.New("the engine exited")
			}
			if strings.HasPrefix(l, "info string ") && strings.Contains(l, "continue the siege") {
				cont = true
			}
			f := strings.Fields(l)
			if len(f) == 0 || f[0] != "bestmove" {
				continue
			}
			if g.Phase() == teamchess.SiegeDecision {
				if cont {
					return teamchess.Action{Kind: teamchess.ActSiegeContinue}, nil
				}
				return teamchess.Action{Kind: teamchess.ActSiegeWin}, nil
			}
			if len(f) < 2 {
				return teamchess.Action{}, errors.New("bestmove without a move")
			}
			return teamchess.Action{Kind: teamchess.ActMove, Move: f[1]}, nil
		case <-deadline.C:
			return teamchess.Action{}, fmt.Errorf("no bestmove within %v", movetime+uciReplyWait)
		}
	}
}

func newTCMatchGame() *teamchess.Game {
	g, err := teamchess.NewGame(teamchess.Setup{White: []teamchess.Member{{ID: "white"}}, Black: []teamchess.Member{{ID: "black"}}})
	if err != nil {
		panic(err)
	}
	return g
}

// tcOpening returns pair's opening: plies random legal moves from the
// start, redrawn (up to 100 times) while the game would be over by then.
func tcOpening(seed uint64, pair, plies int) []teamchess.Action {
	var out []teamchess.Action
	for try := 0; try < 100; try++ {
		r := rand.New(rand.NewPCG(seed, uint64(pair)<<8|uint64(try)))
		g := newTCMatchGame()
		out = out[:0]
		for len(out) < plies && g.Phase() == teamchess.Playing {
			ms := g.LegalMoves()
			if len(ms) == 0 {
				break
			}
			act := teamchess.Action{Kind: teamchess.ActMove, Side: g.Turn().String(), Move: ms[r.IntN(len(ms))].UCI()}
			if _, err := g.Apply(act); err != nil {
				break
			}
			out = append(out, act)
		}
		if g.Phase() == teamchess.Playing && len(out) == plies {
			return out
		}
	}
	return nil
}
