package sandtable

// TEMPORARY ADAPTER (issue 16): a stand-in for games/engine's SandTable
// engine, which a parallel helper is writing with these signatures:
//
//	engine.SandTableDeployment(side sandtable.Side, level engine.Level, seed uint64) *sandtable.Deployment
//	engine.NewSandTablePlayer(spec string, seed uint64) (*engine.SandTablePlayer, error)
//	(*engine.SandTablePlayer).Choose(view *sandtable.Position, timeCap time.Duration) (sandtable.Action, error)
//
// At merge, delete this file and replace in computer.go: sandTableDeployment
// by engine.SandTableDeployment (with engine.LevelByName(level)),
// newSandTablePlayer by engine.NewSandTablePlayer, and pass
// s.pos.View(side) to Choose instead of the position itself.
//
// This stand-in plays a seeded random legal action: a random deployment, a
// Vehicle move or a one-step Infantry action in Main, a Mine or an
// Anti-Air (a Drone only when nothing else is legal) in PostTurn. It takes
// the whole position because a view refuses the legal-action generators;
// what it reads of it, the mover's legal actions, depends on nothing
// secret (pending Drone targets never restrict a move).

import (
	"fmt"
	"math/rand/v2"
	"time"

	engine "sandtable/games/sandtable"
)

// sandTableDeployment is a seeded random deployment of side.
func sandTableDeployment(side engine.Side, level string, seed uint64) *engine.Deployment {
	return engine.RandomDeployment(side, rand.New(rand.NewPCG(seed, 0x5eed)))
}

// sandTablePlayer picks a seeded random legal action.
type sandTablePlayer struct{ r *rand.Rand }

func newSandTablePlayer(spec string, seed uint64) (*sandTablePlayer, error) {
	return &sandTablePlayer{r: rand.New(rand.NewPCG(seed, 0xac7))}, nil
}

// Choose returns a legal action of the side to move in pos.
func (p *sandTablePlayer) Choose(pos *engine.Position, _ time.Duration) (engine.Action, error) {
	var acts []engine.Action
	switch pos.Phase() {
	case engine.PhaseMain:
		acts = pos.LegalActions()
	case engine.PhasePostTurn:
		uses, err := pos.LegalHazardUses()
		if err != nil {
			return engine.Action{}, err
		}
		var drones []engine.Action
		for _, a := range uses {
			if a.Kind == engine.ActDrone {
				drones = append(drones, a)
			} else {
				acts = append(acts, a)
			}
		}
		if len(acts) == 0 {
			acts = drones
		}
	}
	if len(acts) == 0 {
		return engine.Action{}, fmt.Errorf("no legal action in %s", pos.Phase().Title())
	}
	return acts[p.r.IntN(len(acts))], nil
}
