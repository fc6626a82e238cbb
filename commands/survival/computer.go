package survival

import (
	"context"
	"fmt"
	"time"

	"sandtable/commands"
	"sandtable/games/chess"
	"sandtable/games/engine"
	"sandtable/storage"
)

// The computer opponent (issue 16): games/engine's search at a named
// level plays the bot's seat; the framework decides when it must move and
// runs what think returns through playMove, the path of a human's /move.

// defaultLevel is the level of a challenge of the bot that names none: the
// middle of the engine's levels.
var defaultLevel = engine.LevelNames()[len(engine.LevelNames())/2]

// computer is Survival's computer player.
func computer() *commands.Computer[*State] {
	return &commands.Computer[*State]{Levels: engine.LevelNames(), Default: defaultLevel, Aliases: engine.LevelAliases, Think: think}
}

// think returns the computer's move in s (chooseMove) as an action: the
// path of a human's /move. Its First is think under a cancelled context:
// the engine's best-ordered legal move, without a search.
func think(ctx context.Context, s *State, seat storage.ComputerSeat, seed uint64, budget time.Duration) (commands.Action[*State], error) {
	if s.Clock != nil {
		budget = clockBudget(s.Clock.left(s.turn()), s.Clock.Inc, budget)
	}
	uci, err := chooseMove(ctx, s, seat.Level, seed, budget)
	if err != nil {
		return nil, err
	}
	return func(t *turn) (*response, error) { return playMove(t, uci) }, nil
}

// chooseMove searches s's position (with the hashes of the positions
// before it, for repetitions) at level, seeded, within budget, and
// returns the move in UCI: when ctx is cancelled, the best found so far.
func chooseMove(ctx context.Context, s *State, level string, seed uint64, budget time.Duration) (string, error) {
	p, err := engine.NewPlayer(level, seed)
	if err != nil {
		return "", err
	}
	hist, err := positionHashes(s)
	if err != nil {
		return "", err
	}
	res := engine.ChooseContext(ctx, p, *s.game.Position(), hist, budget)
	if res.Move == chess.NullMove {
		return "", fmt.Errorf("the engine found no move in %s", s.game.Position().FEN())
	}
	return res.Move.UCI(), nil
}

// positionHashes is the hashes of the positions before s's current one, oldest
// first (a replay of its moves).
func positionHashes(s *State) ([]uint64, error) {
	g, err := chess.NewGameFromFEN(chess.Survival, s.StartFEN)
	if err != nil {
		return nil, err
	}
	hist := make([]uint64, 0, len(s.Moves))
	for _, m := range s.Moves {
		hist = append(hist, g.Position().Hash())
		if _, _, err := g.PlayText(m); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
	}
	return hist, nil
}

// clockBudget is the think of a computer seat on a Fischer clock: a
// fortieth of its remaining time left plus most of the increment, capped by
// limit (game.computer_budget), and never more than a tenth of what is left.
func clockBudget(left, inc, limit time.Duration) time.Duration {
	b := min(left/40+inc*3/4, left/10)
	if limit > 0 {
		b = min(b, limit)
	}
	return max(b, 0)
}
