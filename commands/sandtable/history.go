package sandtable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"sandtable/commands"
	"sandtable/commands/historyview"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/render"
	"sandtable/render/sandboard"
	"sandtable/storage"
)

// The history viewer (package commands/historyview), by turn. Frame 0 is the board
// right after the reveal (the deployments as they were revealed), frame k
// the board at the end of turn t0+k-1 (t0: the reveal's turn), the last
// frame the game's position now. Every board is rebuilt from the stored
// start and turn log (engine.Replay, ruling D13). Who sees what (ruling
// D19): while the game runs, a spectator sees the public view of every
// turn, a player their own view (the public view with their own Drone
// orders and secret log lines); once it is over, everyone sees everything,
// both sides' Drone orders included, but for the orders of the Drones that
// never resolved (ruling D6): a player sees their own side's only, a
// spectator none (engine.EndLog). A game stored before starts were
// kept has its turn log only: its viewer steps through the log by turn and
// draws the board of the last frame alone. Nothing of Deployment is shown
// before the reveal, nor after a game that ended in Deployment.

// past is what the viewer steps through: the start to replay from (nil
// for older games), the first frame's turn and the log by turn.
type past struct {
	start  *engine.Position
	first  int // the turn of frame 1 (with a start) or of frame 0 (without)
	byTurn map[int][]engine.Entry
	frames int
}

// loadPast reads s's history (the archived turns through view). Once the
// game is over, the log is the one viewer may see then (engine.EndLog:
// the order of a Drone of the other side that never resolved stays
// hidden, ruling D6; NoSide: the public).
func loadPast(view func(func(storage.Tx) error) error, gameID string, s *State, viewer engine.Side) (*past, error) {
	start, log, err := history(view, gameID, s)
	if err != nil {
		return nil, err
	}
	p := &past{start: start, byTurn: map[int][]engine.Entry{}}
	if start == nil {
		// An older game: its whole log, by turn (D13).
		if log, err = wholeLog(view, gameID, s); err != nil {
			return nil, err
		}
	}
	if s.over() {
		log = engine.EndLog(start, log, viewer)
	}
	for _, e := range log {
		p.byTurn[e.Turn] = append(p.byTurn[e.Turn], e)
	}
	if start != nil {
		p.first = start.Turn()
		p.frames = s.pos.Turn() - p.first + 2
	} else {
		p.first = s.pos.Turn()
		for t := range p.byTurn {
			if t > 0 && t < p.first {
				p.first = t
			}
		}
		p.frames = s.pos.Turn() - p.first + 1
	}
	p.frames = max(p.frames, 1)
	return p, nil
}

// wholeLog is every archived turn of the game and the log not archived.
func wholeLog(view func(func(storage.Tx) error) error, gameID string, s *State) ([]engine.Entry, error) {
	var log []engine.Entry
	err := view(func(tx storage.Tx) error {
		return tx.Logs().Each(gameID, func(seq int, raw []byte) error {
			var turn []engine.Entry
			if err := json.Unmarshal(raw, &turn); err != nil {
				return err
			}
			log = append(log, turn...)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return append(log, s.archiveTail()...), nil
}

// turnOf is the turn frame i shows (with a start, frame 0 is the reveal:
// its turn's beginning).
func (p *past) turnOf(i int) int {
	if p.start != nil {
		return p.first + i - 1
	}
	return p.first + i
}

// audience is who a viewer is for: everyone (all: the game is over), a
// player (their side) or a spectator (NoSide).
type audience struct {
	all  bool
	side engine.Side
}

func (a audience) sees(e engine.Entry) bool { return a.all || e.VisibleTo(a.side) }

// historyView answers the History button, the viewer's ⏮ ◀ ▶ ⏭ and
// /history: privately, frame i as the clicker may see it (D19).
func historyView(t *turn) (*response, error) {
	s := t.State
	who := audience{all: s.over()}
	who.side, _ = s.sideOf(t.Req.User.ID)
	if s.pos.Phase() == engine.PhaseDeployment || s.pos.Turn() == 0 {
		_, update, err := historyview.Frame(t.Req, 1)
		if err != nil {
			return nil, err
		}
		text := "The game is in Deployment: its history begins when both deployments are revealed."
		if s.over() {
			text = "This game ended during Deployment: it has no history, and no deployment is revealed (ruling D19)."
		}
		return historyview.Answer(commands.Message{Content: text}, update), nil
	}
	p, err := loadPast(t.View, t.Game.ID, s, who.side)
	if err != nil {
		return nil, err
	}
	i, update, err := historyview.Frame(t.Req, p.frames)
	if err != nil {
		return nil, err
	}
	msg, err := historyMessage(t, s, p, i, who)
	if err != nil {
		return nil, err
	}
	return historyview.Answer(msg, update), nil
}

// historyMessage is frame i of p as who may see it.
func historyMessage(t *turn, s *State, p *past, i int, who audience) (commands.Message, error) {
	latest := i == p.frames-1
	turnNo := p.turnOf(i)
	var entries []engine.Entry // the frame's turn log
	if p.start == nil || i > 0 {
		entries = p.byTurn[turnNo]
	}
	var pos *engine.Position
	switch {
	case latest && (!s.over() || p.start == nil):
		pos = s.pos
	case p.start != nil:
		var err error
		if pos, err = engine.Replay(p.start, p.logUpTo(turnNo), turnNo); err != nil {
			return commands.Message{}, fmt.Errorf("game %s: replaying to turn %d: %w", t.Game.ID, turnNo, err)
		}
	}
	var where string
	switch {
	case p.start != nil && i == 0 && p.first == 1:
		where = "Both deployments revealed; turn 1 begins."
	case p.start != nil && i == 0:
		where = fmt.Sprintf("The position this history starts from (set up by an operator); turn %d begins.", p.first)
	case latest && s.over():
		where = fmt.Sprintf("The final position (turn %d).", turnNo)
	case latest:
		where = fmt.Sprintf("Turn %d so far: the game's position now.", turnNo)
	default:
		where = fmt.Sprintf("The end of turn %d (the board as turn %d begins, its Drones resolved).", turnNo, turnNo+1)
	}
	e := &ui.Card{
		Title: Title + " · history",
		Color: commands.ColorChallenge,
		Fields: []*ui.Field{
			{Name: "Position", Value: where},
			{Name: "South · North", Value: s.South.Mention() + " · " + s.North.Mention()},
		},
	}
	var files []*ui.File
	if pos != nil {
		file, err := historyBoard(t.Renderer(), pos, entries, who, latest && p.start == nil)
		if err != nil {
			return commands.Message{}, err
		}
		files, e.Image = []*ui.File{file}, "board.png"
	} else {
		e.Fields = append(e.Fields, &ui.Field{Name: "No board", Value: "This game was stored before the boards of earlier turns could be rebuilt: its turn log is all there is of this turn (ruling D13)."})
	}
	var seen []engine.Entry
	for _, en := range entries {
		if !who.sees(en) {
			continue
		}
		if en.Kind == engine.EntryDroneOrder && who.all && en.To != engine.NoSquare {
			// Its text speaks to its owner ("Your Drone: ...").
			en.Text = fmt.Sprintf("%s's Drone: spotter %s on %s, target %s.", en.Side, en.Piece, en.From, en.To)
		}
		if en.Secret != engine.NoSide {
			en.Text = "🔒 " + en.Text // secret while the game runs
		}
		seen = append(seen, en)
	}
	lines := logLines(seen, s.describe)
	if len(lines) == 0 {
		lines = []string{"Nothing happened in this turn yet."}
		if p.start != nil && i == 0 && p.first == 1 {
			lines = []string{"Each player deployed in secret; both deployments were revealed together and a coin chose who moves first."}
		}
	}
	e.Description = commands.ClipLines(lines, 3000)
	if list := p.turnList(i, who); list != "" {
		e.Fields = append(e.Fields, &ui.Field{Name: "Turns", Value: list})
	}
	if latest && s.over() {
		e.Color = commands.ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: s.resultLine()})
	}
	switch {
	case who.all && who.side != engine.NoSide:
		e.Footer = fmt.Sprintf("Game %s · only you see this · the game is over: everything is shown but the targets of %s's Drones that never resolved, which stay secret (🔒: secret during the game)", t.Game.ID, who.side.Opp())
	case who.all:
		e.Footer = fmt.Sprintf("Game %s · only you see this · the game is over: everything is shown but the targets of Drones that never resolved, which stay secret (🔒: secret during the game)", t.Game.ID)
	case who.side != engine.NoSide:
		e.Footer = fmt.Sprintf("Game %s · only you see this · your own view as %s: the public board with your Drone orders (🔒: only you see it)", t.Game.ID, who.side)
	default:
		e.Footer = fmt.Sprintf("Game %s · only you see this · the public view, South at the bottom", t.Game.ID)
	}
	counter := fmt.Sprintf("Turn %d", turnNo)
	if p.start != nil && i == 0 {
		counter = "Start"
		if p.first == 1 {
			counter = "Reveal"
		}
	}
	return commands.Message{
		Cards: []*ui.Card{e},
		Files: files,
		Rows:  []ui.Row{historyview.Controls(t.Game, i, p.frames, counter)},
	}, nil
}

// logUpTo is the turn log from the start to the end of turn upTo.
func (p *past) logUpTo(upTo int) []engine.Entry {
	var out []engine.Entry
	for t := p.first; t <= upTo; t++ {
		out = append(out, p.byTurn[t]...)
	}
	return out
}

// turnList is one line per turn (who played, the actions who may see),
// the turn of frame i in bold, as many as fit around it.
func (p *past) turnList(i int, who audience) string {
	var lines []string
	cur := 0
	for k := 0; k < p.frames; k++ {
		if p.start != nil && k == 0 {
			continue
		}
		turnNo := p.turnOf(k)
		var acts []string
		mover := ""
		for _, e := range p.byTurn[turnNo] {
			if e.Kind == engine.EntryTurn {
				mover = " · " + e.Side.String()
			}
			if e.Kind == engine.EntryAction && e.Phase != engine.PhaseDeployment && who.sees(e) {
				acts = append(acts, commands.EscapeText(e.Notation, 40))
			}
		}
		line := fmt.Sprintf("%d%s: %s", turnNo, mover, strings.Join(acts, ", "))
		if len(acts) == 0 {
			line = fmt.Sprintf("%d%s", turnNo, mover)
		}
		if k == i {
			line = "**" + line + "**"
			cur = len(lines)
		}
		lines = append(lines, line)
	}
	return historyview.Window(lines, cur, 1000)
}

// historyBoard draws pos as who may see it: a view (the public one, or a
// player's own), or, once the game is over, the public view with both
// sides' Drone orders, each taken from its owner's view (pos is then
// replayed from the log who may see, engine.EndLog, in which the orders of
// the Drones that never resolved are hidden). stored is the final
// position of a game stored before starts were kept, which holds every
// order: the Drones pending in it never resolved, so who sees their own
// only.
func historyBoard(r *render.Renderer, pos *engine.Position, log []engine.Entry, who audience, stored bool) (*ui.File, error) {
	if !who.all || stored {
		return drawView(r, pos, log, who.side, "board.png")
	}
	b, v, err := revealedBoard(pos, log)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := r.SandTablePNG(&buf, &b, v, imageSize); err != nil {
		return nil, fmt.Errorf("rendering the SandTable board: %w", err)
	}
	return &ui.File{Name: "board.png", ContentType: "image/png", Data: buf.Bytes()}, nil
}

// revealedBoard is pos with everything shown (a finished game): the public
// view, the moves of log marked, and both sides' Drone orders, each taken
// from its owner's view.
func revealedBoard(pos *engine.Position, log []engine.Entry) (render.SandTableBoard, render.View, error) {
	b, v, err := sandboard.Board(pos, log, engine.NoSide)
	if err != nil {
		return b, v, err
	}
	for _, side := range sides {
		own, err := sandboard.FromView(pos.View(side))
		if err != nil {
			return b, v, err
		}
		b.Drones = append(b.Drones, own.Drones...) // a view shows its own Drones only
	}
	return b, v, nil
}

// replay is the finished game's replay (issue 17), the history viewer's
// frames as a spectator sees them once the game is over (ruling D19): the
// board right after the reveal, showing both deployments, then the board
// at the end of every turn with its moves marked and the Drone orders
// given in it that resolved (never one that did not, ruling D6), then the
// final position. None for a game that ended in Deployment (nothing is
// revealed) or stored before its start was kept (ruling D13: no earlier
// board can be rebuilt).
func replay(t *turn) (*commands.Replay, error) {
	s := t.State
	if s.pos.Phase() == engine.PhaseDeployment || s.pos.Turn() == 0 {
		return nil, nil
	}
	p, err := loadPast(t.View, t.Game.ID, s, engine.NoSide)
	if err != nil {
		return nil, err
	}
	if p.start == nil {
		return nil, nil
	}
	frames := make([]render.SandTableBoard, 0, p.frames)
	for i := 0; i < p.frames; i++ {
		turnNo := p.turnOf(i)
		var entries []engine.Entry
		if i > 0 {
			entries = p.byTurn[turnNo]
		}
		// Every frame, the last too, is replayed from the public log, in
		// which the orders of the Drones that never resolved are hidden.
		pos, err := engine.Replay(p.start, p.logUpTo(turnNo), turnNo)
		if err != nil {
			return nil, fmt.Errorf("game %s: replaying to turn %d: %w", t.Game.ID, turnNo, err)
		}
		b, _, err := revealedBoard(pos, entries)
		if err != nil {
			return nil, fmt.Errorf("game %s: replay frame %d: %w", t.Game.ID, i, err)
		}
		frames = append(frames, b)
	}
	return &commands.Replay{
		Name:      "sandtable-" + t.Game.ID + "-replay.gif",
		SandTable: frames,
		Caption: fmt.Sprintf("both deployments as revealed, then the end of each of %s, the Drone orders that struck shown in the turn they were given",
			commands.Plural(p.frames-1, "turn", "turns")),
	}, nil
}
