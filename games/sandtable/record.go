package sandtable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// RecordFormat and RecordVersion name the game record's JSON format
// (docs/sandtable-record.md).
const (
	RecordFormat  = "sandtable-record"
	RecordVersion = 1
)

// Record is a whole SandTable game in a machine-readable form, made once
// the game is over (ruling D19): the position after Deployment, both
// deployments revealed, and every action after it in order, each with its
// turn, side and phase, a Drone's order (spotter and target) beside the
// action that gave it. The order of a Drone that never resolved stays
// secret (ruling D6): Public gives the record a viewer may see, with such
// orders hidden (RecordDrone.Hidden). Replaying the actions on the start
// rebuilds every position of the game (Walk).
//
// Its JSON form (Marshal, ParseRecord; docs/sandtable-record.md):
//
//	{"format":"sandtable-record","version":1,
//	 "start":"sandtable-position 1\nphase main\nturn 1\n...",
//	 "actions":[{"turn":1,"side":"south","phase":"main","action":"e6-e7"},
//	            {"turn":1,"side":"south","phase":"postturn","action":"De6-e8",
//	             "drone":{"spotter":"SI5","from":"e6","target":"e8"}}, ...],
//	 "result":{"winner":"south","reason":"no-bases"}}
type Record struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Start is the position the actions apply to, in the position
	// format (Format): normally right after the reveal (turn 1), or a
	// position an operator loaded. It holds every piece and pending Drone;
	// the coin's seed, which served only the coin flip already made, is
	// written as 0 (ruling G23).
	Start string `json:"start"`
	// Actions are the actions after Start, in order.
	Actions []RecordAction `json:"actions"`
	// Result is how the game ended; nil while it goes on (a record of an
	// unfinished game) or when the caller knows no end. Reason is a
	// Reason's name ("no-bases", "resignation", ...) or an end the game's
	// flow decided outside the rules engine ("timeout", "abort").
	Result *RecordResult `json:"result,omitempty"`
}

// RecordAction is one action of a Record.
type RecordAction struct {
	Turn  int   `json:"turn"`
	Side  Side  `json:"side"` // who acted ("none" for an agreed draw)
	Phase Phase `json:"phase"`
	// Action is the action in the notation of docs/rules/sandtable.md.
	Action string `json:"action"`
	// Drone is the order of a Drone action (secret during the game): the
	// spotting Infantry, where it stood and the target square.
	Drone *RecordDrone `json:"drone,omitempty"`
}

// RecordDrone is a Drone order. A Drone that never resolved has its
// order Hidden in a public record (ruling D6; EndLog): its target is "-",
// and so are its spotter and from when it was still pending at the end.
type RecordDrone struct {
	Spotter ID     `json:"spotter"`
	From    Square `json:"from"`
	Target  Square `json:"target"`
	Hidden  bool   `json:"hidden,omitempty"`
}

// RecordResult is a game's end: the winner (NoSide, "none", for a draw
// or an abort) and why.
type RecordResult struct {
	Winner Side   `json:"winner"`
	Reason string `json:"reason"`
}

// NewRecord makes the record of the game that went from start through
// log (the turn log after start, secret entries included, as Replay
// takes it: its EntryAction notations are applied in order, Deployment
// entries skipped). start must be a full position after Deployment. The
// result is the position's when the log ends the game, else nil (set it
// for an end decided outside the engine). An action that does not apply
// is an error: the log does not follow from start.
func NewRecord(start *Position, log []Entry) (*Record, error) {
	if start.redacted {
		return nil, fmt.Errorf("sandtable: a record starts from a full position, not a view")
	}
	if start.phase == PhaseDeployment {
		return nil, fmt.Errorf("sandtable: a record starts after Deployment; this position is still in Deployment")
	}
	s := start.Clone()
	s.seed = 0
	r := &Record{Format: RecordFormat, Version: RecordVersion, Start: s.Format(), Actions: []RecordAction{}}
	p := s.Clone()
	p.Advance() // a no-op on a position Apply left; Walk does the same
	for i, e := range log {
		if e.Kind != EntryAction || e.Phase == PhaseDeployment {
			continue
		}
		a := RecordAction{Turn: p.turn, Side: e.Side, Phase: p.phase, Action: e.Notation}
		entries, err := p.applyNotation(e.Notation)
		if err != nil {
			return nil, fmt.Errorf("sandtable: log entry %d, turn %d action %s does not apply: %w", i+1, e.Turn, quote(e.Notation), err)
		}
		a.Drone = droneOrder(entries)
		r.Actions = append(r.Actions, a)
	}
	if p.phase == PhaseFinished {
		r.Result = &RecordResult{Winner: p.result.Winner, Reason: reasonNames[p.result.Reason]}
	}
	return r, nil
}

// Public is the record as viewer may see it once the game is over
// (NoSide: the public; EndLog decides): the orders of the Drones of
// another side that never resolved are hidden (ruling D6). The public
// record of a game is r.Public(NoSide); a player's full record is
// r.Public of their side. r must replay (Walk).
func (r *Record) Public(viewer Side) (*Record, error) {
	start, err := r.StartPosition()
	if err != nil {
		return nil, err
	}
	var log []Entry
	if err := r.Walk(func(_ *Position, entries []Entry) error {
		log = append(log, entries...)
		return nil
	}); err != nil {
		return nil, err
	}
	q, err := ParsePosition(r.Start) // NewRecord writes it again
	if err != nil {
		return nil, err
	}
	out, err := NewRecord(q, EndLog(start, log, viewer))
	if err != nil {
		return nil, err
	}
	if out.Result == nil && r.Result != nil {
		res := *r.Result
		out.Result = &res
	}
	return out, nil
}

// droneOrder is the order of the Drone an action's entries declare.
func droneOrder(entries []Entry) *RecordDrone {
	for _, e := range entries {
		if e.Kind == EntryDroneOrder {
			return &RecordDrone{Spotter: e.Piece, From: e.From, Target: e.To, Hidden: e.To == NoSquare}
		}
	}
	return nil
}

// Marshal returns the record as indented JSON with a final newline (the
// position's & and < > kept as they are, not escaped for HTML).
func (r *Record) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Ends a record's result may name besides the engine's reasons: ends the
// bot decides outside the rules (docs/sandtable-record.md).
const (
	ReasonTimeout = "timeout" // a loss on time: the side to move lost
	ReasonAbort   = "abort"   // an abort: no winner
	// ReasonAdjudicated: a server manager declared the result (a winner,
	// or none for a draw).
	ReasonAdjudicated = "adjudicated"
)

// ParseRecord reads a record file in its JSON form (the one a player
// downloads and gives to `sandtable replay -record`) and checks it whole:
// the format and version, the start position (a full position after
// Deployment, its seed written as 0, ruling G23), and every action, which
// must apply in turn with the turn, side, phase and Drone order it names.
// The result is checked as strictly: a game the actions end must carry
// that end as its result; a result with a reason of the rules engine
// (no-bases, resignation, ...) must be one the actions reach; "timeout"
// needs a winner and "abort" none; any other reason is refused. The error
// names the first thing wrong, with the field or ruling. Games the bot
// stores are not read through it: their records are made from the stored
// log (NewRecord) and replayed with Walk, which checks only the actions.
func ParseRecord(data []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("sandtable: not a game record: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("sandtable: a game record is one JSON object; more follows it")
	}
	if r.Format != RecordFormat {
		return nil, fmt.Errorf("sandtable: format %s, want %q", quote(r.Format), RecordFormat)
	}
	if r.Version != RecordVersion {
		return nil, fmt.Errorf("sandtable: record version %d, this program reads version %d", r.Version, RecordVersion)
	}
	if r.Result != nil {
		if err := checkReason(r.Result); err != nil {
			return nil, err
		}
	}
	var end *Position
	if err := r.Walk(func(p *Position, _ []Entry) error {
		if end == nil && p.seed != 0 {
			return fmt.Errorf("sandtable: start: seed %d; a record writes the coin's seed as 0 (ruling G23): its coin was flipped before the start", p.seed)
		}
		end = p
		return nil
	}); err != nil {
		return nil, err
	}
	switch {
	case end.phase == PhaseFinished && r.Result == nil:
		return nil, fmt.Errorf("sandtable: result missing: the actions end the game (%s); a finished game's record carries its result", end.ResultText())
	case end.phase != PhaseFinished && r.Result != nil && r.Result.Reason != ReasonTimeout && r.Result.Reason != ReasonAbort && r.Result.Reason != ReasonAdjudicated:
		return nil, fmt.Errorf("sandtable: result.reason %s: the actions do not end the game (after them it is turn %d %s, %s to move); an end by the rules is the last action's",
			quote(r.Result.Reason), end.turn, end.phase.Title(), end.toMove)
	}
	return &r, nil
}

// checkReason refuses a result whose reason is not one a record may carry
// (the engine's reasons, ReasonTimeout, ReasonAbort), a timeout without a
// winner and an abort with one.
func checkReason(res *RecordResult) error {
	switch res.Reason {
	case ReasonTimeout:
		if res.Winner == NoSide {
			return fmt.Errorf("sandtable: result: a timeout has a winner (south or north), not none")
		}
		return nil
	case ReasonAbort:
		if res.Winner != NoSide {
			return fmt.Errorf("sandtable: result: an abort has no winner (none), not %s", res.Winner)
		}
		return nil
	case ReasonAdjudicated:
		return nil
	}
	for _, n := range reasonNames[1:] {
		if res.Reason == n {
			return nil
		}
	}
	return fmt.Errorf("sandtable: result.reason %s is not a reason of docs/sandtable-record.md (want one of %s, %s, %s or %s)",
		quote(res.Reason), strings.Join(reasonNames[1:], ", "), ReasonTimeout, ReasonAbort, ReasonAdjudicated)
}

// StartPosition returns the record's start position.
func (r *Record) StartPosition() (*Position, error) {
	p, err := ParsePosition(r.Start)
	if err != nil {
		return nil, fmt.Errorf("sandtable: the record's start position: %w", err)
	}
	if p.redacted {
		return nil, fmt.Errorf("sandtable: the record's start position is a redacted view; a record holds the full position")
	}
	if p.phase == PhaseDeployment {
		return nil, fmt.Errorf("sandtable: the record's start position is in Deployment; a record starts after the reveal")
	}
	p.Advance()
	return p, nil
}

// Walk replays the record: it calls fn with the start position and no
// entries, then after each action with the position it left and the log
// entries it made (secret ones included). fn must not keep p, which the
// next action changes (Clone it). An action that does not apply, or whose
// turn, side, phase or Drone order is not what the record says, stops
// the walk with an error naming it; so does an error from fn.
func (r *Record) Walk(fn func(p *Position, entries []Entry) error) error {
	p, err := r.StartPosition()
	if err != nil {
		return err
	}
	if err := fn(p, nil); err != nil {
		return err
	}
	for i, a := range r.Actions {
		where := fmt.Sprintf("action %d (%s)", i+1, quote(a.Action))
		if p.phase == PhaseFinished {
			return fmt.Errorf("sandtable: %s: the game was already over (%s)", where, p.ResultText())
		}
		if a.Turn != p.turn || a.Phase != p.phase {
			return fmt.Errorf("sandtable: %s is recorded in turn %d %s, but the game is in turn %d %s", where, a.Turn, a.Phase.Title(), p.turn, p.phase.Title())
		}
		entries, err := p.applyNotation(a.Action)
		if err != nil {
			return fmt.Errorf("sandtable: %s does not apply: %w", where, err)
		}
		for _, e := range entries {
			if e.Kind == EntryAction && e.Side != a.Side {
				return fmt.Errorf("sandtable: %s is recorded for %s, but %s played it", where, sideText(a.Side), sideText(e.Side))
			}
		}
		got := droneOrder(entries)
		if (got == nil) != (a.Drone == nil) || got != nil && *got != *a.Drone {
			return fmt.Errorf("sandtable: %s: the recorded Drone order %s is not the one the action gives, %s", where, droneText(a.Drone), droneText(got))
		}
		if err := fn(p, entries); err != nil {
			return err
		}
	}
	if r.Result != nil && p.phase == PhaseFinished {
		want := RecordResult{Winner: p.result.Winner, Reason: reasonNames[p.result.Reason]}
		if *r.Result != want {
			return fmt.Errorf("sandtable: the recorded result (%s, %s) is not how the actions end the game (%s, %s)", r.Result.Winner, quote(r.Result.Reason), want.Winner, want.Reason)
		}
	}
	return nil
}

func droneText(d *RecordDrone) string {
	if d == nil {
		return "(none)"
	}
	return fmt.Sprintf("(spotter %s on %s, target %s)", d.Spotter, d.From, d.Target)
}

// sideText names a side, "no one" for NoSide (an agreed draw).
func sideText(s Side) string {
	if s == NoSide {
		return "no one"
	}
	return s.String()
}
