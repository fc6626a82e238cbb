// Package sandtable is the flow of SandTable Chess in Discord (the rules:
// docs/rules/texts/sandtable.txt; rulings, the Discord ones in the last
// section: docs/rules/sandtable.md). It implements the framework's game
// contract (commands.Game) over State: the rules, and what is secret, are
// decided by games/sandtable; locks, storage, clocks and delivery by the
// framework; this package reads requests, calls the engine and presents
// what each viewer may see.
//
//   - The game thread shows only public information: the engine's public
//     view and its public log entries.
//   - Secrets (a deployment before both confirm, a Drone order before it
//     resolves) go to their owner only: by direct message, or, when the
//     owner's direct messages are closed, in ephemeral answers started from
//     a button in the thread (commands.SendPrivately).
//   - Every change is saved with t.Save (archived turn logs with t.Also),
//     and every post, edit or direct message it makes is an effect saved
//     with it, so a Discord failure or a crash delays an announcement (the
//     reveal, a board, a closed panel) and never loses it. Only a private
//     answer to the interaction itself (a Drone order, a private view, a
//     panel while its player's DMs were known closed) is sent at once,
//     since the answer depends on it.
//   - Each player has one live deployment panel (ruling D20): giving it
//     again sends it anew and turns the older ones into pointers; every
//     control carries the live panel's key, and a refusal is shown in the
//     panel, where the next success replaces it.
//   - The whole state (the full position with drafts and Drone orders,
//     private step drafts, pending Drone confirmations) is in the stored
//     game, so a restart loses nothing.
//
// Files: sandtable.go (state, codec, clock, outcome, timeout), spec.go
// (commands, challenge, shared commands, delivery results), deploy.go
// (secret deployment), play.go (/move, /step, Drones, private view),
// board.go (messages, images, log), complete.go (autocomplete), repeat.go
// (repeated clicks).
package sandtable

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// Kind is the storage kind of SandTable games.
const Kind = "sandtable"

// Title is the game's name as users see it.
const Title = "SandTable Chess"

// State is the stored state of one SandTable game.
type State struct {
	// Position is the full position in the engine's text format, secrets
	// included (deployment drafts, Drone orders, the coin's seed); Encode
	// writes it from the decoded position.
	Position string        `json:"position"`
	South    commands.User `json:"south"`
	North    commands.User `json:"north"`
	TurnTime time.Duration `json:"turn_time"`
	// Rematch is what the finished game's Rematch button opened (see
	// commands.Turn.Rematch), "" before any.
	Rematch string    `json:"rematch,omitempty"`
	Started time.Time `json:"started"`
	// Prev is the previous turn's log, Cur the current turn's so far (from
	// its "Turn N" entry); older turns are archived in the store's logs
	// (storage.Logs), one entry per turn, for the game record at the end.
	// All entries are kept, secret ones too; readers filter them.
	Prev   []engine.Entry `json:"prev,omitempty"`
	Cur    []engine.Entry `json:"cur,omitempty"`
	LogSeq int            `json:"log_seq,omitempty"` // turns archived so far
	// Start is the position the game's history is rebuilt from (the
	// engine's format, secrets included): the position right after the
	// reveal, or one an operator loaded (LoadPosition). StartSeq is LogSeq
	// then: the turn log that follows Start is the archived turns after
	// StartSeq, then the archive tail, and engine.Replay rebuilds any turn
	// from them. Empty in games stored before it was kept, which have
	// their log only (ruling D13).
	Start    string `json:"start,omitempty"`
	StartSeq int    `json:"start_seq,omitempty"`
	// Draw is the agreed draw's offer, its count and the latest answer.
	commands.Draw
	// Steps is each side's private Infantry draft for its current Main
	// (canonical steps, e.g. "d4-d5"), by side (index 1 South, 2 North).
	Steps [3][]string `json:"steps"`
	// Drone is each side's Drone order awaiting its owner's confirmation, in
	// the notation (e.g. "DSI3-f6").
	Drone [3]string `json:"drone"`
	// DroneSeq numbers the Drone orders given in the game. DroneID is the
	// number of each side's latest order, which the buttons of its message
	// carry, so that an older message cannot act on it; DroneMsg is the
	// direct message showing it, edited when a newer order replaces it (""
	// when it was shown ephemerally, or once confirmed or cancelled).
	DroneSeq int       `json:"drone_seq,omitempty"`
	DroneID  [3]int    `json:"drone_id"`
	DroneMsg [3]string `json:"drone_msg"`
	// Outcome is set when the bot, not the rules, ended the game (time).
	Outcome *BotEnd `json:"outcome,omitempty"`
	// StatusMsg is the deployment status message in the game thread (""
	// until its post is delivered).
	StatusMsg string `json:"status_msg,omitempty"`
	// DMClosed records that a direct message to the side was refused
	// because its direct messages are closed.
	DMClosed [3]bool `json:"dm_closed"`
	// Panels are the direct messages holding each side's live deployment
	// panel (one; games stored before one panel per player was kept may
	// hold up to maxPanels), edited into a pointer when a newer panel is
	// given and closed when the game ends during Deployment.
	Panels [3][]string `json:"panels,omitempty"`
	// PanelSeq counts the deployment panels given to each side (the live
	// one's number, in its footer); PanelKey is the live panel's key,
	// which every control of that panel carries: a control of an older
	// panel changes nothing (ruling D20). Both are zero in games stored
	// before, whose panels carry no key.
	PanelSeq [3]int    `json:"panel_seq"`
	PanelKey [3]string `json:"panel_key"`
	// Done is each side's latest click on a stamped control that took
	// effect, so that a repeat of it is told "Already done" (repeat.go).
	Done [3]Done `json:"done"`
	// Epoch counts the positions loaded by an operator: part of the
	// clock's key, so that a load restarts the clock.
	Epoch int `json:"epoch,omitempty"`

	pos     *engine.Position // Position, decoded
	archive [][]engine.Entry // turns to archive with the next save
	notes   []engine.Entry   // the entries of the last action, for the secret notices
}

// BotEnd is an end decided by the bot: Reason "time" (Winner won on time;
// Turn 0: in Deployment) or "cancelled" (nobody deployed in time, no
// winner).
type BotEnd struct {
	Winner engine.Side `json:"winner"`
	Reason string      `json:"reason"`
	Turn   int         `json:"turn"`
	// Why is a cancellation's reason when it is not the deployment's
	// timeout (a server manager's abort), a clause.
	Why string `json:"why,omitempty"`
}

// Game implements commands.Game for SandTable Chess.
type Game struct{}

var _ commands.Game[*State] = Game{}

// Register plugs SandTable Chess into the app.
func Register(a *commands.App) { commands.Register[*State](a, Game{}) }

// Version is the state codec's version: 1 is written by the game core,
// its log entries and sides in the engine's stable JSON form (names); 0,
// stored before, has the same fields, its entries possibly in the older
// form (Go field names, integer enums), which the engine still reads.
func (Game) Version() int { return 1 }

// Encode writes s as JSON, its position in the engine's format.
func (Game) Encode(s *State) ([]byte, error) {
	c := *s
	c.Position = s.pos.Format()
	return json.Marshal(&c)
}

// Decode reads a state of version 0 or 1 and parses its position.
func (Game) Decode(version int, raw []byte) (*State, error) {
	if version < 0 || version > 1 {
		return nil, fmt.Errorf("unknown SandTable state version %d", version)
	}
	var s State
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	pos, err := engine.ParsePosition(s.Position)
	if err != nil {
		return nil, fmt.Errorf("stored position: %w", err)
	}
	s.pos = pos
	return &s, nil
}

// Clock: during Deployment one period for both players, from the
// acceptance (ruling D8); then each turn has TurnTime, from its start,
// whatever its actions (D7). A loaded position starts its own clock.
func (Game) Clock(s *State) commands.Clock {
	if s.over() {
		return commands.Clock{Rule: commands.NoClock}
	}
	if s.pos.Phase() == engine.PhaseDeployment {
		var actors []string
		for _, side := range sides {
			if !s.pos.Confirmed(side) {
				actors = append(actors, s.player(side).ID)
			}
		}
		return commands.Clock{Rule: commands.Deployment, Actors: actors, Key: fmt.Sprintf("%d/deployment", s.Epoch), Period: s.TurnTime}
	}
	return commands.Clock{Rule: commands.PerTurn, Actors: []string{s.player(s.pos.ToMove()).ID},
		Key: fmt.Sprintf("%d/%d", s.Epoch, s.pos.Turn()), Period: s.TurnTime}
}

// Outcome is the typed result once the game is over.
func (Game) Outcome(s *State) (storage.Outcome, bool) {
	if !s.over() {
		return storage.Outcome{}, false
	}
	var o storage.Outcome
	winner := engine.NoSide
	if e := s.Outcome; e != nil {
		switch {
		case e.Reason == "cancelled":
			o.Method = storage.Aborted
		case e.Reason == "adjudicated":
			o.Method, winner = storage.Adjudicated, e.Winner
		case e.Turn == 0:
			o.Method, winner = storage.DeploymentTimeout, e.Winner
		default:
			o.Method, winner = storage.Time, e.Winner
		}
	} else {
		r := s.pos.Result()
		o.Method, winner = method(r.Reason), r.Winner
	}
	if winner == engine.South || winner == engine.North {
		o.Side = strings.ToLower(winner.String())
		o.Winners, o.Losers = []string{s.player(winner).ID}, []string{s.player(winner.Opp()).ID}
	}
	return o, true
}

// method is the storage method of an ending the engine decides.
func method(r engine.Reason) storage.Method {
	switch r {
	case engine.Resignation:
		return storage.Resignation
	case engine.NoBases:
		return storage.BaseCaptured
	case engine.NoInfantry:
		return storage.Elimination
	case engine.AllTanks, engine.AllAirplanes:
		return storage.VehicleControl
	case engine.Agreement:
		return storage.Agreement
	case engine.Simultaneous:
		return storage.Simultaneous
	case engine.Deadlock:
		return storage.Deadlock
	}
	return storage.Aborted
}

// Timeout ends a game whose time ran out (rulings D7, D8): in play the
// side to move loses on time, whatever its phase; in Deployment a player
// who has not confirmed loses to one who has, and if neither has the game
// is cancelled.
func (Game) Timeout(t *turn) error {
	s := t.State.clone()
	if s.over() {
		t.Save(s)
		return nil
	}
	pos := s.pos
	o := &BotEnd{Reason: "time", Turn: pos.Turn()}
	var note string
	if pos.Phase() == engine.PhaseDeployment {
		switch {
		case pos.Confirmed(engine.South) && !pos.Confirmed(engine.North):
			o.Winner = engine.South
		case pos.Confirmed(engine.North) && !pos.Confirmed(engine.South):
			o.Winner = engine.North
		default:
			o.Reason = "cancelled"
		}
		note = "The deployment time ran out."
	} else {
		o.Winner = pos.ToMove().Opp()
		note = fmt.Sprintf("%s ran out of time.", s.describe(pos.ToMove()))
	}
	return endBy(t, s, o, note)
}

// endBy ends s, t's game, as the bot decides (o: on time, or cancelled),
// saying note and the result: the timeouts' way, and an abort's.
func endBy(t *turn, s *State, o *BotEnd, note string) error {
	pos := s.pos
	s.Outcome = o
	s.Offer = ""
	s.Steps, s.Drone = [3][]string{}, [3]string{}
	save(t, s)
	if pos.Phase() == engine.PhaseDeployment {
		closeDeployment(t, s)
	}
	return show(t, s, markOf(t.State.pos), strings.TrimSpace(note+" "+s.resultLine()))
}

// results are what a server manager may declare (Spec.Results): a side
// wins, or a draw.
func results(s *State) []ui.Choice {
	return []ui.Choice{
		{Name: "South wins (" + s.South.Name + ")", Value: "south"},
		{Name: "North wins (" + s.North.Name + ")", Value: "north"},
		{Name: "Draw", Value: "draw"},
	}
}

// adjudicate ends t's game with result (one of results), as a server
// manager declared it, saying why.
func adjudicate(t *turn, result, why string) error {
	s := t.State.clone()
	o := &BotEnd{Reason: "adjudicated", Turn: s.pos.Turn(), Why: why}
	switch result {
	case "south":
		o.Winner = engine.South
	case "north":
		o.Winner = engine.North
	case "draw":
	default:
		return fmt.Errorf("sandtable: no result %q", result)
	}
	return endBy(t, s, o, "")
}

// abort ends s, t's game, cancelled without a result, saying why: the one
// way a SandTable game is aborted besides nobody deploying in time (a
// server manager's abort). Nobody's record changes.
func abort(t *turn, s *State, why string) error {
	return endBy(t, s, &BotEnd{Reason: "cancelled", Turn: s.pos.Turn(), Why: why}, "")
}

// Summary is the game's line in /games for userID.
func (Game) Summary(g *storage.Game, s *State, userID string) string {
	side, ok := s.sideOf(userID)
	if !ok {
		return ""
	}
	pos := s.pos
	line := fmt.Sprintf("vs %s, you play %s", s.player(side.Opp()).Mention(), side)
	switch {
	case pos.Phase() == engine.PhaseDeployment && !pos.Confirmed(side):
		line += ", **deploy and confirm**"
	case pos.Phase() == engine.PhaseDeployment:
		line += ", deployment confirmed, waiting for your opponent"
	case pos.ToMove() == side:
		line += fmt.Sprintf(", **your turn** (turn %d, %s)", pos.Turn(), pos.Phase().Title())
	default:
		return line
	}
	if !g.Deadline.IsZero() {
		line += fmt.Sprintf(", time runs out <t:%d:R>", g.Deadline.Unix())
	}
	return line
}

// Load decodes a stored SandTable game: its full position (secrets
// included) and the log of its previous and current turn, oldest first
// (secret entries included; filter with engine.FilterLog). For tests and
// tools; the game thread shows the public view of these.
func Load(g *storage.Game) (*engine.Position, []engine.Entry, error) {
	s, err := Game{}.Decode(g.StateVersion, g.State)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return s.pos, append(append([]engine.Entry{}, s.Prev...), s.Cur...), nil
}

// LoadPosition replaces the position of the active SandTable game gameID
// with text, a position in the engine's format (automatic phases are
// advanced as on loading; see docs/rules/sandtable.md), for tests and the
// playground. Players and thread stay; the turn's clock restarts; drafts,
// offers and the recent log are cleared (turns archived before stay in the
// game record); the new board is posted in the game thread.
func LoadPosition(a *commands.App, gameID, text string) error {
	var g *storage.Game
	if err := a.Store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().Get(gameID)
		return err
	}); err != nil {
		return err
	}
	if g.Kind != Kind || !g.Active {
		return fmt.Errorf("game %s is not an active SandTable game", gameID)
	}
	_, err := commands.Run(a, &commands.Request{Now: a.Now()}, gameID, func(t *turn) (*commands.Response, error) {
		if !t.Game.Active {
			return nil, fmt.Errorf("game %s is not an active SandTable game", gameID)
		}
		pos, err := engine.ParsePosition(text)
		if err != nil {
			return nil, err
		}
		s := t.State.clone()
		s.pos = pos
		s.Prev, s.Cur = nil, nil
		s.record(pos.Advance())
		s.Start, s.StartSeq = "", 0
		if pos.Phase() != engine.PhaseDeployment {
			s.Start, s.StartSeq = pos.Format(), s.LogSeq
		}
		s.Offer, s.Steps, s.Drone = "", [3][]string{}, [3]string{}
		s.Epoch++
		s.afterTransition(mark{turn: -1})
		save(t, s)
		msg, err := message(t, s, "The position was set up by an operator.")
		if err != nil {
			return nil, err
		}
		if len(msg.Files) == 0 {
			t.Post(msg)
		} else {
			t.Board(commands.ChannelOfGame, msg, commands.Message{Content: "The position was set up by an operator."})
		}
		return nil, nil
	})
	return err
}

type (
	turn     = commands.Turn[*State]
	response = commands.Response
)

// sides are the two players' sides.
var sides = []engine.Side{engine.South, engine.North}

// clone copies s for a transition (the position too).
func (s *State) clone() *State {
	c := *s
	c.pos = s.pos.Clone()
	for i := range c.Steps {
		c.Steps[i] = append([]string(nil), s.Steps[i]...)
		c.Panels[i] = append([]string(nil), s.Panels[i]...)
	}
	c.Prev = append([]engine.Entry(nil), s.Prev...)
	c.Cur = append([]engine.Entry(nil), s.Cur...)
	c.archive, c.notes = nil, nil
	return &c
}

// save makes s the game's new state, with the turns it archives written in
// the same transaction.
func save(t *turn, s *State) {
	t.Save(s)
	if len(s.archive) == 0 {
		return
	}
	gameID, first, turns := t.Game.ID, s.LogSeq-len(s.archive)+1, s.archive
	t.Also(func(tx storage.Tx) error {
		for i, entries := range turns {
			if err := tx.Logs().Put(gameID, first+i, entries); err != nil {
				return err
			}
		}
		return nil
	})
}

// record adds an action's log entries: a "Turn N" entry starts a new
// current turn, and the previous one is archived.
func (s *State) record(entries []engine.Entry) {
	for _, e := range entries {
		if e.Kind == engine.EntryDraft {
			continue
		}
		if e.Kind == engine.EntryTurn && len(s.Cur) > 0 {
			if len(s.Prev) > 0 {
				s.archive = append(s.archive, s.Prev)
				s.LogSeq++
			}
			s.Prev, s.Cur = s.Cur, nil
		}
		s.Cur = append(s.Cur, e)
	}
}

// mark is what a transition compares to see whether the turn passed.
type mark struct {
	turn  int
	phase engine.Phase
	side  engine.Side
}

func markOf(p *engine.Position) mark { return mark{p.Turn(), p.Phase(), p.ToMove()} }

// apply applies one action and records its log. After it: a new turn (or
// the reveal) drops draw offers, step drafts and unconfirmed Drone orders
// (the clock restarts by Clock's key).
func (s *State) apply(act engine.Action) ([]engine.Entry, error) {
	before := markOf(s.pos)
	entries, err := s.pos.Apply(act)
	if err != nil {
		return nil, err
	}
	s.record(entries)
	s.notes = append(s.notes, entries...)
	if before.phase == engine.PhaseDeployment && s.pos.Turn() > 0 {
		s.Start, s.StartSeq = s.pos.Format(), s.LogSeq // the reveal
	}
	s.afterTransition(before)
	return entries, nil
}

func (s *State) afterTransition(before mark) {
	if s.pos.Phase() == engine.PhaseFinished {
		s.Offer = ""
		s.Steps, s.Drone = [3][]string{}, [3]string{}
		return
	}
	after := markOf(s.pos)
	if after.turn != before.turn || after.side != before.side {
		s.Offer = ""
		s.Steps, s.Drone = [3][]string{}, [3]string{}
	}
	if before.phase == engine.PhaseMain && after.phase != engine.PhaseMain {
		s.Steps = [3][]string{}
	}
}

// history returns what the game's history is rebuilt from: the start
// position and the turn log that follows it (secret entries included;
// engine.Replay), reading the archived turns of the game gameID through
// view. start is nil for a game stored before starts were kept, or ended
// in Deployment.
func history(view func(func(storage.Tx) error) error, gameID string, s *State) (start *engine.Position, log []engine.Entry, err error) {
	if s.Start == "" {
		return nil, nil, nil
	}
	start, err = engine.ParsePosition(s.Start)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: stored start position: %w", gameID, err)
	}
	err = view(func(tx storage.Tx) error {
		return tx.Logs().Each(gameID, func(seq int, raw []byte) error {
			if seq <= s.StartSeq {
				return nil
			}
			var turn []engine.Entry
			if err := json.Unmarshal(raw, &turn); err != nil {
				return err
			}
			log = append(log, turn...)
			return nil
		})
	})
	if err != nil {
		return nil, nil, err
	}
	return start, append(log, s.archiveTail()...), nil
}

// archiveTail is the log not yet in the archive documents.
func (s *State) archiveTail() []engine.Entry {
	var out []engine.Entry
	for _, t := range s.archive {
		out = append(out, t...)
	}
	out = append(out, s.Prev...)
	return append(out, s.Cur...)
}

func (s *State) player(side engine.Side) commands.User {
	if side == engine.North {
		return s.North
	}
	return s.South
}

// sideOf returns the user's side; ok is false for non-players.
func (s *State) sideOf(userID string) (engine.Side, bool) {
	switch userID {
	case s.South.ID:
		return engine.South, true
	case s.North.ID:
		return engine.North, true
	}
	return engine.NoSide, false
}

// describe is "<@id> (South)".
func (s *State) describe(side engine.Side) string {
	if side != engine.South && side != engine.North {
		return "nobody"
	}
	return fmt.Sprintf("%s (%s)", s.player(side).Mention(), side)
}

// over reports whether the game has ended, by the rules or by the bot.
func (s *State) over() bool {
	return s.Outcome != nil || s.pos.Phase() == engine.PhaseFinished
}

// resultLine says how the game ended, for people.
func (s *State) resultLine() string {
	if o := s.Outcome; o != nil {
		switch {
		case o.Reason == "adjudicated" && o.Winner == engine.NoSide:
			return fmt.Sprintf("Drawn by adjudication: %s.", o.Why)
		case o.Reason == "adjudicated":
			return fmt.Sprintf("%s wins by adjudication: %s.", s.describe(o.Winner), o.Why)
		case o.Reason == "cancelled" && o.Why != "":
			return fmt.Sprintf("The game is aborted, without a result: %s. Nobody's record changes.", o.Why)
		case o.Reason == "cancelled":
			return "Neither player confirmed a deployment in time: the game is cancelled, without a result."
		case o.Turn == 0:
			return fmt.Sprintf("%s wins on time: %s did not confirm a deployment in time.", s.describe(o.Winner), s.describe(o.Winner.Opp()))
		default:
			return fmt.Sprintf("%s wins on time: %s did not finish turn %d in time.", s.describe(o.Winner), s.describe(o.Winner.Opp()), o.Turn)
		}
	}
	if s.pos.Phase() != engine.PhaseFinished {
		return ""
	}
	r := s.pos.Result()
	if r.Winner == engine.NoSide {
		t := s.pos.ResultText() // "draw by agreement", "draw, both players ...", "draw by deadlock, ..."
		return strings.ToUpper(t[:1]) + t[1:] + "."
	}
	return fmt.Sprintf("%s wins: %s.", s.describe(r.Winner), strings.TrimPrefix(s.pos.ResultText(), r.Winner.String()+" wins, "))
}

// player checks that t's user may act: the game is on, they play in it
// and, when needTurn, it is their turn in play. It returns their side.
func player(t *turn, needTurn bool) (engine.Side, error) {
	s := t.State
	if !t.Game.Active || s.over() {
		return 0, commands.Errorf("This game is over. %s", s.resultLine())
	}
	side, ok := s.sideOf(t.Req.User.ID)
	if !ok {
		return 0, commands.Errorf("You are not playing in this game; only %s and %s are.", s.South.Mention(), s.North.Mention())
	}
	if needTurn {
		if s.pos.Phase() == engine.PhaseDeployment {
			return 0, commands.Errorf("The game is still in Deployment: deploy in your private panel (press **Deploy (private)** in the game thread, or use /sandtable deploy).")
		}
		if s.pos.ToMove() != side {
			return 0, commands.Errorf("It is not your turn: %s is to move (%s).", s.describe(s.pos.ToMove()), s.pos.Phase().Title())
		}
	}
	return side, nil
}

// ruleError turns an engine error into the message for the player; what
// names the thing refused.
func ruleError(what string, err error) error {
	var re *engine.RuleError
	var se *engine.SyntaxError
	switch {
	case errors.As(err, &re):
		return commands.Errorf("%s is not allowed: %s. Nothing changed.", what, commands.EngineText(re.Error()))
	case errors.As(err, &se):
		return commands.Errorf("%s cannot be read: %s. Nothing changed.", what, commands.EngineText(se.Msg))
	}
	return err
}

// turnArg is a board's turn as its buttons carry it.
func turnArg(p *engine.Position) string { return strconv.Itoa(p.Turn()) }
