package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"sandtable/games/chess"
)

// Player chooses moves for one side. Implementations are deterministic:
// the same position, history and seed give the same move, unless the
// time cap cuts a search short.
type Player interface {
	// Name is the player's specification ("strongest", "greedy").
	Name() string
	// Choose returns the move to play in pos (one of its legal moves),
	// given the hashes of the game's earlier positions (oldest first) and
	// a time cap (0: none). It returns chess.NullMove only when pos has no
	// legal move.
	Choose(pos chess.Position, history []uint64, timeCap time.Duration) Result
}

// ContextPlayer is a Player that can also be stopped: ChooseContext is
// Choose with a context whose cancellation ends the search at once with
// the best move found so far (a legal move whenever pos has one), and
// whose deadline caps the time like timeCap. Every Player NewPlayer
// returns is one; see ChooseContext for any Player.
type ContextPlayer interface {
	Player
	ChooseContext(ctx context.Context, pos chess.Position, history []uint64, timeCap time.Duration) Result
}

// ChooseContext asks p for a move under ctx: through its ChooseContext
// when it is a ContextPlayer, else through Choose (which then cannot be
// stopped).
func ChooseContext(ctx context.Context, p Player, pos chess.Position, history []uint64, timeCap time.Duration) Result {
	if cp, ok := p.(ContextPlayer); ok {
		return cp.ChooseContext(ctx, pos, history, timeCap)
	}
	return p.Choose(pos, history, timeCap)
}

// Level is a named strength: the search's budgets and how far from the
// best move its seeded choice may stray. The levels below the top are
// depth- and noise-limited (their node budgets only cap a rare huge tree)
// and complete at least MinDepth; the top level has no node budget and
// uses the time it is given.
type Level struct {
	Name string
	// Depth and Nodes are the search budgets (see Limits); Nodes 0: none
	// when a time cap is given, else untimedNodes.
	Depth int
	Nodes uint64
	// MinDepth is the depth completed whatever the node budget (see
	// Limits.MinDepth).
	MinDepth int
	// Margin is Limits.Margin: the centipawns a chosen move may lose
	// against the best one found.
	Margin int
	// TableBits sizes the transposition table (2^TableBits entries).
	TableBits int
	// KeepTable keeps the table from one move to the next (Limits).
	KeepTable bool
}

// untimedNodes bounds a search of a level without a node budget when no
// time cap is given either.
const untimedNodes = 1_000_000

// Levels are the named levels, weakest first.
var Levels = []Level{
	{Name: "beginner", Depth: 2, Nodes: 3_000, MinDepth: 2, Margin: 150, TableBits: 12},
	{Name: "easy", Depth: 3, Nodes: 15_000, MinDepth: 2, Margin: 60, TableBits: 14},
	{Name: "intermediate", Depth: 4, Nodes: 60_000, MinDepth: 2, Margin: 25, TableBits: 16},
	{Name: "advanced", Depth: 7, Nodes: 300_000, MinDepth: 2, Margin: 8, TableBits: 18},
	{Name: "strongest", Depth: MaxDepth, Nodes: 0, MinDepth: 2, Margin: 0, TableBits: 20, KeepTable: true},
}

// LevelNames returns the level names, weakest first.
func LevelNames() []string {
	out := make([]string, len(Levels))
	for i, l := range Levels {
		out[i] = l.Name
	}
	return out
}

// LevelAliases are former level names still accepted (a stored game, a
// script or a command may name one), each with the level it names now:
// "casual" became "easy" so as not to clash with the casual (unrated)
// option of a challenge.
var LevelAliases = map[string]string{"casual": "easy"}

// CanonicalLevel returns name in lower case, or the level an alias
// (LevelAliases) names now. It does not check that the level exists.
func CanonicalLevel(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	if c, ok := LevelAliases[n]; ok {
		return c
	}
	return n
}

// LevelByName returns the named level (case-insensitive; an alias of
// LevelAliases names its level).
func LevelByName(name string) (Level, error) {
	name = CanonicalLevel(name)
	for _, l := range Levels {
		if name == l.Name {
			return l, nil
		}
	}
	return Level{}, fmt.Errorf("unknown level %q (expected %s)", name, strings.Join(LevelNames(), ", "))
}

// Limits returns the level's search limits with seed and a time cap
// (the hard cap; 0: none, and then a level without a node budget stops
// at untimedNodes).
func (l Level) Limits(seed uint64, timeCap time.Duration) Limits {
	nodes := l.Nodes
	if nodes == 0 && timeCap <= 0 {
		nodes = untimedNodes
	}
	return Limits{Depth: l.Depth, Nodes: nodes, MinDepth: l.MinDepth, Margin: l.Margin, Seed: seed,
		Time: max(timeCap, 0), KeepTable: l.KeepTable}
}

// NewPlayer returns the player a specification names: a level name,
// "random" or "greedy", with its seed.
func NewPlayer(spec string, seed uint64) (Player, error) {
	switch strings.ToLower(spec) {
	case "random":
		return &Random{Seed: seed}, nil
	case "greedy":
		return &Greedy{Seed: seed}, nil
	}
	l, err := LevelByName(spec)
	if err != nil {
		return nil, fmt.Errorf("unknown player %q (expected random, greedy or a level: %s)", spec, strings.Join(LevelNames(), ", "))
	}
	return &SearchPlayer{Level: l, Seed: seed}, nil
}

// SearchPlayer plays a Level with a Searcher.
type SearchPlayer struct {
	Level Level
	Seed  uint64
	s     *Searcher
}

// Name returns the level's name.
func (p *SearchPlayer) Name() string { return p.Level.Name }

// Choose searches pos within the level's budgets.
func (p *SearchPlayer) Choose(pos chess.Position, history []uint64, timeCap time.Duration) Result {
	if p.s == nil {
		p.s = NewSearcher(p.Level.TableBits)
	}
	return p.s.Search(pos, history, p.Level.Limits(p.Seed, timeCap))
}

// ChooseContext is Choose stopped by ctx (Searcher.SearchContext).
func (p *SearchPlayer) ChooseContext(ctx context.Context, pos chess.Position, history []uint64, timeCap time.Duration) Result {
	if p.s == nil {
		p.s = NewSearcher(p.Level.TableBits)
	}
	return p.s.SearchContext(ctx, pos, history, p.Level.Limits(p.Seed, timeCap))
}

// Random plays a uniformly random legal move (seeded by Seed and the
// position).
type Random struct{ Seed uint64 }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Choose picks a legal move at random.
func (r *Random) Choose(pos chess.Position, _ []uint64, _ time.Duration) Result {
	moves := pos.LegalMoves()
	if len(moves) == 0 || pos.Status().Over() {
		return Result{}
	}
	return Result{Move: moves[newRNG(r.Seed^pos.Hash()).intn(len(moves))]}
}

// ChooseContext is Choose: it is instant.
func (r *Random) ChooseContext(_ context.Context, pos chess.Position, history []uint64, timeCap time.Duration) Result {
	return r.Choose(pos, history, timeCap)
}

// Greedy plays the move that wins the most material at once (the value
// of the piece captured plus what a promotion adds, by the variant's
// values), choosing at random (seeded) among equal ones. It looks no
// further than its own move.
type Greedy struct{ Seed uint64 }

// Name returns "greedy".
func (*Greedy) Name() string { return "greedy" }

// Choose picks the move with the largest immediate material gain.
func (g *Greedy) Choose(pos chess.Position, _ []uint64, _ time.Duration) Result {
	moves := pos.LegalMoves()
	if len(moves) == 0 || pos.Status().Over() {
		return Result{}
	}
	values := &chessValue
	if pos.Variant() == chess.Survival {
		values = &survivalValue
	}
	best := -Infinity
	var ties []chess.Move
	for _, m := range moves {
		gain := 0
		if m.Kind() == chess.EnPassant {
			gain = values[chess.Pawn]
		} else if pos.IsCapture(m) {
			gain = values[pos.PieceAt(m.To()).Role()]
		}
		if m.IsPromotion() {
			gain += values[m.Promoted()] - values[chess.Pawn]
		}
		switch {
		case gain > best:
			best, ties = gain, append(ties[:0], m)
		case gain == best:
			ties = append(ties, m)
		}
	}
	return Result{Move: ties[newRNG(g.Seed^pos.Hash()).intn(len(ties))], Info: Info{Score: best}}
}

// ChooseContext is Choose: it looks one move ahead only.
func (g *Greedy) ChooseContext(_ context.Context, pos chess.Position, history []uint64, timeCap time.Duration) Result {
	return g.Choose(pos, history, timeCap)
}
