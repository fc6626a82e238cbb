package sandtable

import (
	"context"
	"fmt"
	"time"

	"sandtable/commands"
	ai "sandtable/games/engine"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// The computer opponent (issue 16): a challenge naming the bot starts a
// game whose North is the computer. It deploys at once (its deployment
// is secret like a person's: nothing of it is shown before the reveal)
// and confirms; in its turns it makes its Main action and its hazard
// uses one action at a time, each through the path of a person's /move
// (a Drone through the path of a confirmed order: the thread learns only
// that a Drone was declared). It gets no deployment panel nor any
// direct message.

// levels are the computer's levels, weakest first (games/engine's).
var levels = ai.LevelNames()

func computer() *commands.Computer[*State] {
	return &commands.Computer[*State]{Levels: levels, Default: levels[len(levels)/2], Aliases: ai.LevelAliases, Think: think}
}

// isComputer reports whether id is a computer seat of t's game.
func isComputer(g *storage.Game, id string) bool {
	_, ok := g.Computer(id)
	return ok
}

// think chooses the computer seat's next action in s: when ctx is
// cancelled, the best found so far (the first candidate when none was
// tried). Its First is think under a cancelled context.
func think(ctx context.Context, s *State, seat storage.ComputerSeat, seed uint64, budget time.Duration) (commands.Action[*State], error) {
	side, ok := s.sideOf(seat.User)
	if !ok {
		return nil, fmt.Errorf("the computer %s plays no side", seat.User)
	}
	if s.pos.Phase() == engine.PhaseDeployment {
		level, err := ai.LevelByName(seat.Level)
		if err != nil {
			return nil, err
		}
		d := ai.SandTableDeployment(side, level, seed)
		return func(t *turn) (*response, error) { return computerDeploy(t, side, d) }, nil
	}
	p, err := ai.NewSandTablePlayer(seat.Level, seed)
	if err != nil {
		return nil, err
	}
	// The engine is handed only the computer's own view (ruling D26): the
	// other side's Drone orders never reach it.
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	act, err := p.ChooseContext(ctx, s.pos.View(side))
	if err != nil {
		return nil, err
	}
	if act.Kind == engine.ActDrone {
		return func(t *turn) (*response, error) { return computerDrone(t, side, act) }, nil
	}
	text := act.String()
	return func(t *turn) (*response, error) {
		t.Req.Options["move"] = commands.Option{String: text}
		return move(t)
	}, nil
}

// computerDeploy sets the computer's deployment and confirms it, as a
// person's Confirm in the panel does (the reveal when it confirms last).
func computerDeploy(t *turn, side engine.Side, d *engine.Deployment) (*response, error) {
	if _, err := deployer(t); err != nil {
		return nil, err
	}
	s := t.State.clone()
	if err := s.pos.SetDraft(side, d); err != nil {
		return nil, err
	}
	return deployApply(t, s, side, []deployEdit{{act: engine.Action{Kind: engine.ActDeployConfirm, Side: side}}}, "", true)
}

// computerDrone gives the computer's Drone order: the thread learns only
// that a Drone was declared, as after a person's Confirm Drone.
func computerDrone(t *turn, side engine.Side, act engine.Action) (*response, error) {
	if _, err := postTurn(t); err != nil {
		return nil, err
	}
	s := t.State.clone()
	before := markOf(s.pos)
	entries, err := s.apply(act)
	if err != nil {
		return nil, ruleError("This Drone order", err)
	}
	save(t, s)
	n := 0
	for _, e := range entries {
		if e.Kind == engine.EntryDroneDeclared {
			n = e.Count
		}
	}
	declared := fmt.Sprintf("%s declared a Drone (%d pending).", t.Req.User.Mention(), n)
	t.Post(commands.Message{Content: declared})
	if err := show(t, s, before, declared+" "+s.nextPrompt(side)); err != nil {
		return nil, err
	}
	notices(t, s)
	return &response{Ephemeral: true, Message: commands.Message{Content: "Drone declared."}}, nil
}
