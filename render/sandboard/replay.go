package sandboard

import (
	"sandtable/games/sandtable"
	"sandtable/render"
)

// Frames says which boards of a game a replay shows.
type Frames int

const (
	// EveryTurn shows the start (both deployments revealed), then the
	// board at the end of each turn, as the next turn begins (its PreTurn
	// resolved, as the history viewer shows turns), and the final board.
	EveryTurn Frames = iota
	// EveryAction shows the start, then the board after every action: each
	// Main action and each PostTurn hazard use.
	EveryAction
)

// ReplayBoards returns the boards of rec's replay (render.SandTableReplay
// draws them), South at the bottom, the last Main action highlighted as on
// the game's own boards. A replay is made once the game is over and is
// public: it is drawn from rec.Public(NoSide), so every board shows all
// pieces (both deployments from the first board on) and the pending Drone
// orders of both sides that resolved, from the action that gave them,
// never the order of a Drone that did not resolve (ruling D6). An error
// comes from a record that does not replay (see sandtable.Record.Walk).
func ReplayBoards(rec *sandtable.Record, each Frames) ([]render.SandTableBoard, error) {
	rec, err := rec.Public(sandtable.NoSide)
	if err != nil {
		return nil, err
	}
	var boards []render.SandTableBoard
	var log []sandtable.Entry
	turn := 0
	err = rec.Walk(func(p *sandtable.Position, entries []sandtable.Entry) error {
		log = append(log, entries...)
		ended := p.Turn() != turn || p.Phase() == sandtable.PhaseFinished
		turn = p.Turn()
		if entries != nil && each == EveryTurn && !ended {
			return nil
		}
		b, err := Revealed(p, log)
		if err != nil {
			return err
		}
		boards = append(boards, b)
		return nil
	})
	return boards, err
}

// Revealed is the board of p with nothing hidden, for a game that is over
// (ruling D19): the public board (Board for NoSide, with the last Main
// action of log) and both sides' pending Drone orders, each taken from its
// owner's view. A Drone whose order a public record hides (ruling D6) has
// no target in p and is not drawn (FromView).
func Revealed(p *sandtable.Position, log []sandtable.Entry) (render.SandTableBoard, error) {
	b, _, err := Board(p, log, sandtable.NoSide)
	if err != nil {
		return b, err
	}
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		own, err := FromView(p.View(side))
		if err != nil {
			return b, err
		}
		b.Drones = append(b.Drones, own.Drones...) // a view shows its own Drones only
	}
	return b, nil
}
