package teamchess

import (
	"fmt"
	"reflect"
	"strings"

	"sandtable/games/chess"
)

// Snapshot is what a game's hot path needs to go on without replaying its
// actions: the board, both teams' queues with their records, active
// commanders, stagnation counters and sacrifices, the round, a pending
// Saboteur forced move, the siege state, the last move, the record from
// the latest move on, the number of actions and the result. Game.Snapshot
// writes it and Resume reads it back with the game's stored State.
//
// Team Chess has no draws (ruling 6): no repetition key or earlier
// position is needed, so the board is its FEN alone. The version-1 honour
// inputs (the latest move of each team was a sacrifice, the mate's
// version-1 category) are not kept: they matter only to Restore of a
// version 1 State, and a resumed game is always stored as version 2.
type Snapshot struct {
	// FEN is the current board. Its en passant field names the square
	// whenever a pawn could capture there, even when the capture is
	// illegal (a pinned pawn), as chess.Snapshot does, so that Resume
	// restores the position exactly.
	FEN string `json:"fen"`
	// Phase is "playing", "siege_decision" or "finished".
	Phase string `json:"phase"`
	// White and Black are the teams.
	White SnapshotTeam `json:"white"`
	Black SnapshotTeam `json:"black"`
	// RoundFirst is the side that began the round ("white" or "black";
	// fatigue is applied when the other side's turn ends, ruling 5).
	RoundFirst string `json:"round_first"`
	// Forced is the move a Saboteur forced on the side to move, in the
	// UCI-style form (Move.UCI).
	Forced string `json:"forced,omitempty"`
	// SiegeContinuing: the attacker declined the Siege Win and must move.
	SiegeContinuing bool `json:"siege_continuing,omitempty"`
	// LastMove is the latest move played (nil before the first).
	LastMove *SnapshotMove `json:"last_move,omitempty"`
	// Actions is the number of stored actions (State.Actions).
	Actions int `json:"actions"`
	// Events is the number of entries in the whole record, and Recent the
	// record's entries from the latest move on (all of them before the
	// first move): the last move's and the result's entries, which a board
	// shows.
	Events int             `json:"events"`
	Recent []SnapshotEvent `json:"recent,omitempty"`
	// Result is the result once the game is over.
	Result *StoredResult `json:"result,omitempty"`
}

// SnapshotTeam is one team in a Snapshot: its commands in queue order
// (each with its record), the index of the active one (the queue's length
// once every commander has lost), its stagnation counter and whether it
// has made an 8th-rank sacrifice.
type SnapshotTeam struct {
	Commands   []SnapshotCommand `json:"commands"`
	Active     int               `json:"active"`
	Stagnation int               `json:"stagnation"`
	Sacrificed bool              `json:"sacrificed,omitempty"`
}

// SnapshotCommand is one command's record: the member's ID (as in the
// State's queue at the same place), the personal loss that ended it and
// the personal wins earned during it.
type SnapshotCommand struct {
	ID   string `json:"id"`
	Lost bool   `json:"lost,omitempty"`
	Wins int    `json:"wins,omitempty"`
}

// SnapshotMove is a move without its position: the UCI-style form
// (Move.UCI, forced replies included) and the board kind of the move and
// of each forced reply in order, which the text alone does not say (an en
// passant capture, a castling).
type SnapshotMove struct {
	UCI   string           `json:"uci"`
	Kinds []chess.MoveKind `json:"kinds"`
}

// SnapshotCounters are both stagnation counters.
type SnapshotCounters struct {
	White int `json:"white"`
	Black int `json:"black"`
}

// SnapshotEvent is an Event as a Snapshot stores it, with string enums:
// Kind "move", "pass", "tag_out", "siege_continue" or "game_over"; Side
// "white" or "black"; Role a Role's Notation; Reason "voluntary",
// "fatigue", "revolution", "siege_failure" or "timeout".
type SnapshotEvent struct {
	Seq        int              `json:"seq"`
	Kind       string           `json:"kind"`
	Side       string           `json:"side"`
	MoveNumber int              `json:"move_number"`
	Commander  *Member          `json:"commander,omitempty"`
	SAN        string           `json:"san,omitempty"`
	UCI        string           `json:"uci,omitempty"`
	Role       string           `json:"role,omitempty"`
	Forced     bool             `json:"forced,omitempty"`
	Reason     string           `json:"reason,omitempty"`
	Incoming   *Member          `json:"incoming,omitempty"`
	Exhausted  bool             `json:"exhausted,omitempty"`
	Credited   *Member          `json:"credited,omitempty"`
	Debited    []Member         `json:"debited,omitempty"`
	Stagnation SnapshotCounters `json:"stagnation"`
	Result     *StoredResult    `json:"result,omitempty"`
}

var (
	phaseKeys  = map[Phase]string{Playing: "playing", SiegeDecision: "siege_decision", Finished: "finished"}
	eventKeys  = map[EventKind]string{MoveEvent: "move", PassEvent: "pass", TagOutEvent: "tag_out", SiegeContinueEvent: "siege_continue", GameOverEvent: "game_over"}
	reasonKeys = map[TagOutReason]string{Voluntary: "voluntary", Fatigue: "fatigue", Revolution: "revolution", SiegeFailure: "siege_failure", Timeout: "timeout"}
)

func keyOf[K comparable](m map[K]string, key string) (K, bool) {
	for k, v := range m {
		if v == key {
			return k, true
		}
	}
	var zero K
	return zero, false
}

// Snapshot returns what Resume needs to go on with the game without
// replaying it. It does not change the game.
func (g *Game) Snapshot() Snapshot {
	s := Snapshot{
		FEN:             exactFEN(&g.pos),
		Phase:           phaseKeys[g.phase],
		RoundFirst:      sideName(g.roundFirst),
		SiegeContinuing: g.continuing,
		Actions:         len(g.actions),
		Events:          g.eventBase + len(g.events),
	}
	for c, t := range []*SnapshotTeam{&s.White, &s.Black} {
		tm := &g.teams[c]
		t.Active, t.Stagnation, t.Sacrificed = tm.active, g.stag[c], g.sacrificed[c]
		for _, cm := range tm.queue {
			t.Commands = append(t.Commands, SnapshotCommand{ID: cm.Member.ID, Lost: cm.Lost, Wins: cm.Wins})
		}
	}
	if g.forced != nil {
		s.Forced = g.forced.UCI()
	}
	if g.last != nil {
		s.LastMove = &SnapshotMove{UCI: g.last.UCI()}
		for _, m := range g.last.chain() {
			s.LastMove.Kinds = append(s.LastMove.Kinds, m.Kind())
		}
	}
	from := 0
	for i := len(g.events) - 1; i >= 0; i-- {
		if g.events[i].Kind == MoveEvent {
			from = i
			break
		}
	}
	for _, e := range g.events[from:] {
		s.Recent = append(s.Recent, snapshotEvent(e))
	}
	if g.result.Over() {
		r := storedResult(g.result)
		s.Result = &r
	}
	return s
}

// exactFEN is p's FEN with its en passant square whenever p has one (see
// Snapshot.FEN).
func exactFEN(p *chess.Position) string {
	f := strings.Fields(p.FEN())
	f[3] = p.EnPassantSquare().String()
	return strings.Join(f, " ")
}

func storedResult(r Result) StoredResult {
	s := StoredResult{Category: r.Category.Key()}
	if r.HasWinner() {
		s.Winner = sideName(r.Winner)
	}
	return s
}

// parseStoredResult reads a StoredResult.
func parseStoredResult(r StoredResult) (Result, error) {
	c, ok := parseCategory(r.Category)
	if !ok {
		return Result{}, fmt.Errorf("unknown category %q", r.Category)
	}
	res := Result{Category: c}
	if c == MutualLoss {
		if r.Winner != "" {
			return Result{}, fmt.Errorf("a mutual loss has no winner (got %q)", r.Winner)
		}
		return res, nil
	}
	w, err := parseSide(r.Winner)
	if err != nil {
		return Result{}, err
	}
	res.Winner = w
	return res, nil
}

func memberRef(m Member) *Member {
	if m == (Member{}) {
		return nil
	}
	return &m
}

func memberOf(m *Member) Member {
	if m == nil {
		return Member{}
	}
	return *m
}

func snapshotEvent(e Event) SnapshotEvent {
	s := SnapshotEvent{
		Seq: e.Seq, Kind: eventKeys[e.Kind], Side: sideName(e.Side), MoveNumber: e.MoveNumber,
		Commander: memberRef(e.Commander), SAN: e.SAN, UCI: e.UCI, Forced: e.Forced,
		Reason: reasonKeys[e.Reason], Incoming: memberRef(e.Incoming), Exhausted: e.Exhausted,
		Credited: memberRef(e.Credited), Debited: append([]Member(nil), e.Debited...),
		Stagnation: SnapshotCounters{White: e.Stagnation[chess.White], Black: e.Stagnation[chess.Black]},
	}
	if e.Role != NoRole {
		s.Role = e.Role.Notation()
	}
	if e.Kind == GameOverEvent {
		r := storedResult(e.Result)
		s.Result = &r
	}
	return s
}

func (s SnapshotEvent) event() (Event, error) {
	kind, ok := keyOf(eventKeys, s.Kind)
	if !ok {
		return Event{}, fmt.Errorf("unknown kind %q", s.Kind)
	}
	side, err := parseSide(s.Side)
	if err != nil {
		return Event{}, err
	}
	e := Event{Seq: s.Seq, Kind: kind, Side: side, MoveNumber: s.MoveNumber, Commander: memberOf(s.Commander),
		SAN: s.SAN, UCI: s.UCI, Forced: s.Forced, Incoming: memberOf(s.Incoming), Exhausted: s.Exhausted,
		Credited: memberOf(s.Credited), Debited: append([]Member(nil), s.Debited...),
		Stagnation: [2]int{s.Stagnation.White, s.Stagnation.Black}}
	if s.Role != "" {
		r, ok := keyOf(map[Role]string{RoyalGuard: RoyalGuard.Notation(), Assassin: Assassin.Notation(),
			Saboteur: Saboteur.Notation(), PoliticalAgent: PoliticalAgent.Notation()}, s.Role)
		if !ok || kind != MoveEvent {
			return Event{}, fmt.Errorf("role %q on a %s entry", s.Role, s.Kind)
		}
		e.Role = r
	}
	if s.Reason != "" {
		r, ok := keyOf(reasonKeys, s.Reason)
		if !ok || kind != TagOutEvent {
			return Event{}, fmt.Errorf("tag-out reason %q on a %s entry", s.Reason, s.Kind)
		}
		e.Reason = r
	}
	if (kind == GameOverEvent) != (s.Result != nil) {
		return Event{}, fmt.Errorf("a result belongs to the game_over entry only")
	}
	if s.Result != nil {
		if e.Result, err = parseStoredResult(*s.Result); err != nil {
			return Event{}, fmt.Errorf("result: %w", err)
		}
	}
	return e, nil
}

// moveFromSnapshot rebuilds the move m written as SnapshotMove, without
// its position: the inverse of Move.UCI once the kinds are known.
func moveFromSnapshot(text string, kinds []chess.MoveKind) (Move, error) {
	m, rest, err := moveFromText(text, kinds)
	if err == nil && (rest != "" || m.UCI() != text) {
		err = fmt.Errorf("%q is not a move written as Move.UCI writes it", text)
	}
	return m, err
}

func moveFromText(s string, kinds []chess.MoveKind) (Move, string, error) {
	bad := fmt.Errorf("%q is not a Team Chess move of kinds %v", s, kinds)
	if len(s) < 4 || len(kinds) == 0 {
		return Move{}, "", bad
	}
	from, err1 := chess.ParseSquare(s[:2])
	to, err2 := chess.ParseSquare(s[2:4])
	if err1 != nil || err2 != nil {
		return Move{}, "", bad
	}
	s = s[4:]
	switch kinds[0] {
	case chess.Normal, chess.DoublePush, chess.EnPassant, chess.CastleShort, chess.CastleLong:
		return Move{Board: chess.NewMove(from, to, kinds[0], chess.NoRole)}, s, nil
	case chess.Sacrifice:
	default:
		return Move{}, "", bad // Team Chess has no promotion
	}
	if s == "" {
		return Move{}, "", bad
	}
	var role Role
	for _, r := range Roles {
		if r.Letter() == s[0] {
			role = r
		}
	}
	s = s[1:]
	target := chess.NoSquare
	switch role {
	case NoRole:
		return Move{}, "", bad
	case Assassin:
		if len(s) < 3 || s[0] != ':' {
			return Move{}, "", bad
		}
		sq, err := chess.ParseSquare(s[1:3])
		if err != nil {
			return Move{}, "", bad
		}
		target, s = sq, s[3:]
	}
	m := Move{Board: sacrifice(chess.NewSacrifice(from, to), role, target)}
	if role == Saboteur {
		if len(s) < 1 || s[0] != ':' {
			return Move{}, "", bad
		}
		f, rest, err := moveFromText(s[1:], kinds[1:])
		if err != nil {
			return Move{}, "", err
		}
		m.Forced, s = &f, rest
	}
	return m, s, nil
}

// Resume rebuilds the game whose stored state is h at the snapshot s
// taken of it (Game.Snapshot), without replaying h's actions: they are
// kept as the game's actions, so State and MarshalJSON write the whole game
// again. The resumed game behaves exactly as the replayed one for every
// method except the record's history: Events, RecordLines and PGN begin at
// the latest move before the snapshot (they hold that move's entry and,
// once over, the result's). Replay gives the game with its whole record.
//
// Resume refuses, with a *chess.SnapshotError naming the field, a snapshot
// that is corrupt or does not fit h: an unreadable FEN, phase, side, event
// or last move; queues other than h's; records that break the queue's
// order; counters out of range; a forced move that is not legal; a side to
// move without a legal move while playing; a phase that contradicts the
// result or h's; a number of actions other than h's; a record that does
// not end at the result or begin at the last move. It reads h's setup only
// (the start FEN and the queues), never its actions.
func Resume(h State, s Snapshot) (*Game, error) {
	if h.Version != StateVersion && h.Version != 1 {
		return nil, fmt.Errorf("unsupported Team Chess state version %d (this code reads 1 to %d)", h.Version, StateVersion)
	}
	fen := strings.TrimSpace(h.StartFEN)
	if fen == "" {
		fen = chess.StandardFEN
	}
	start, err := chess.ParseFEN(chess.TeamChess, fen)
	if err != nil {
		return nil, fmt.Errorf("stored state: start FEN: %w", err)
	}
	teams, err := newTeams(h.White, h.Black)
	if err != nil {
		return nil, fmt.Errorf("stored state: %w", err)
	}
	pos, err := chess.ParseFEN(chess.TeamChess, s.FEN)
	if err != nil {
		return nil, &chess.SnapshotError{Field: "fen", Msg: err.Error(), Err: err}
	}
	g := &Game{
		setup:   Setup{FEN: start.FEN(), White: append([]Member(nil), h.White...), Black: append([]Member(nil), h.Black...)},
		start:   start,
		pos:     pos,
		teams:   teams,
		actions: append([]Action(nil), h.Actions...),
		resumed: true,
	}
	if err := g.resume(h, s); err != nil {
		return nil, err
	}
	return g, nil
}

func snapErr(field, format string, args ...any) error {
	return &chess.SnapshotError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// resume fills g from s after Resume read the setup and the board.
func (g *Game) resume(h State, s Snapshot) error {
	var ok bool
	if g.phase, ok = keyOf(phaseKeys, s.Phase); !ok {
		return snapErr("phase", "unknown phase %q", s.Phase)
	}
	rf, err := parseSide(s.RoundFirst)
	if err != nil {
		return snapErr("round_first", "%v", err)
	}
	g.roundFirst = rf
	if s.Actions != len(h.Actions) {
		return snapErr("actions", "%d actions, but the stored state has %d", s.Actions, len(h.Actions))
	}
	if (s.Result == nil) != (g.phase != Finished) {
		return snapErr("result", "phase %s with result %v", s.Phase, s.Result)
	}
	if s.Result != nil {
		if g.result, err = parseStoredResult(*s.Result); err != nil {
			return snapErr("result", "%v", err)
		}
	}
	if h.Version == StateVersion && !reflect.DeepEqual(h.Result, s.Result) {
		return snapErr("result", "%v, but the stored state has %v", s.Result, h.Result)
	}
	for c, t := range [2]SnapshotTeam{s.White, s.Black} {
		if err := g.resumeTeam(chess.Color(c), t); err != nil {
			return err
		}
	}
	if s.Forced != "" {
		if g.phase != Playing {
			return snapErr("forced", "a forced move in phase %s", s.Phase)
		}
		f, err := ParseMove(&g.pos, s.Forced)
		if err != nil || f.UCI() != s.Forced || !isLegal(&g.pos, f) {
			return snapErr("forced", "%q is not a legal move here", s.Forced)
		}
		g.forced = &f
	}
	if s.SiegeContinuing && (g.phase != Playing || g.forced != nil) {
		return snapErr("siege_continuing", "a siege continuation in phase %s or with a forced move", s.Phase)
	}
	g.continuing = s.SiegeContinuing
	switch {
	case g.phase == Playing && g.forced == nil && !HasLegalMove(&g.pos):
		return snapErr("phase", "playing, but %s has no legal move", g.pos.Turn())
	case g.phase == SiegeDecision && g.pos.InCheck():
		return snapErr("phase", "a siege decision with %s in check", g.pos.Turn())
	}
	if s.LastMove != nil {
		m, err := moveFromSnapshot(s.LastMove.UCI, s.LastMove.Kinds)
		if err != nil {
			return snapErr("last_move", "%v", err)
		}
		if err := g.checkLastMove(m); err != nil {
			return snapErr("last_move", "%s: %v", m.UCI(), err)
		}
		g.last = &m
	}
	return g.resumeRecord(s)
}

// resumeTeam fills side's records, counters and sacrifice flag from t.
func (g *Game) resumeTeam(side chess.Color, t SnapshotTeam) error {
	field := sideName(side)
	tm := &g.teams[side]
	if len(t.Commands) != len(tm.queue) {
		return snapErr(field+".commands", "%d commands, but the stored queue has %d", len(t.Commands), len(tm.queue))
	}
	if t.Active < 0 || t.Active > len(tm.queue) || t.Active == len(tm.queue) && g.phase != Finished {
		return snapErr(field+".active", "%d is not a command of a queue of %d in phase %s", t.Active, len(tm.queue), g.phase)
	}
	tm.active = t.Active
	for i, c := range t.Commands {
		f := fmt.Sprintf("%s.commands[%d]", field, i)
		switch {
		case c.ID != tm.queue[i].Member.ID:
			return snapErr(f, "member %q, but the stored queue has %q", c.ID, tm.queue[i].Member.ID)
		case c.Wins < 0:
			return snapErr(f, "%d wins", c.Wins)
		case i < t.Active && !c.Lost:
			return snapErr(f, "a command before the active one without a personal loss")
		case i > t.Active && (c.Lost || c.Wins > 0):
			return snapErr(f, "a command after the active one with a record")
		case i == t.Active && c.Lost && g.phase != Finished:
			return snapErr(f, "the active command has lost while the game goes on")
		}
		tm.queue[i].Lost, tm.queue[i].Wins = c.Lost, c.Wins
	}
	if t.Stagnation < 0 || t.Stagnation > 4 {
		return snapErr(field+".stagnation", "%d is not from 0 to 4", t.Stagnation)
	}
	g.stag[side], g.sacrificed[side] = t.Stagnation, t.Sacrificed
	return nil
}

// checkLastMove checks that the board shows m as the latest move (only
// passes, tag-outs and decisions may have followed it): its origin is
// empty, and its destination holds a piece unless m was a sacrifice that
// places none.
func (g *Game) checkLastMove(m Move) error {
	p := &g.pos
	if p.PieceAt(m.Board.From()) != chess.NoPiece {
		return fmt.Errorf("its origin is not empty")
	}
	placed := !m.IsSacrifice() || m.Role() == RoyalGuard
	if occupied := p.PieceAt(m.Board.To()) != chess.NoPiece; occupied != placed {
		return fmt.Errorf("its destination does not show it")
	}
	return nil
}

// resumeRecord reads the record's recent entries and checks them against
// the snapshot.
func (g *Game) resumeRecord(s Snapshot) error {
	n := len(s.Recent)
	if s.Events < n || n == 0 && s.Events > 0 {
		return snapErr("events", "%d entries, %d of them recent", s.Events, n)
	}
	g.eventBase = s.Events - n
	for i, se := range s.Recent {
		f := fmt.Sprintf("recent[%d]", i)
		e, err := se.event()
		if err != nil {
			return snapErr(f, "%v", err)
		}
		switch {
		case e.Seq != g.eventBase+i+1:
			return snapErr(f, "entry %d where %d belongs", e.Seq, g.eventBase+i+1)
		case e.Kind == MoveEvent && i > 0:
			return snapErr(f, "a move after the latest move")
		case i == 0 && e.Kind != MoveEvent && e.Seq != 1:
			return snapErr(f, "the recent entries begin with a %s, not the latest move", se.Kind)
		case e.Kind == GameOverEvent && (i != n-1 || e.Result != g.result):
			return snapErr(f, "a result (%s) that is not the game's last entry or its result (%s)", e.Result, g.result)
		}
		g.events = append(g.events, e)
	}
	moved := n > 0 && g.events[0].Kind == MoveEvent
	switch {
	case moved != (g.last != nil):
		return snapErr("last_move", "%v, but the record's latest move is %v", s.LastMove, moved)
	case moved && g.events[0].UCI != g.last.UCI():
		return snapErr("last_move", "%s, but the record's latest move is %s", g.last.UCI(), g.events[0].UCI)
	case g.phase == Finished && (n == 0 || g.events[n-1].Kind != GameOverEvent):
		return snapErr("recent", "the game is over but the record does not end with its result")
	}
	return nil
}

// ActionCount returns the number of stored actions (len(State().Actions),
// without copying them).
func (g *Game) ActionCount() int { return len(g.actions) }

// LastAction returns the latest stored action; ok is false before the
// first.
func (g *Game) LastAction() (a Action, ok bool) {
	if len(g.actions) == 0 {
		return Action{}, false
	}
	return g.actions[len(g.actions)-1], true
}

// Replay returns the game with its whole record: g itself unless it was
// resumed from a Snapshot; a resumed game is rebuilt by Restore from
// State(), which must come back as g (the same Snapshot), or the stored
// actions and the snapshot disagree and Replay says so.
func (g *Game) Replay() (*Game, error) {
	if !g.resumed {
		return g, nil
	}
	full, err := Restore(g.State())
	if err != nil {
		return nil, err
	}
	if !reflect.DeepEqual(full.Snapshot(), g.Snapshot()) {
		return nil, fmt.Errorf("the stored actions replay to another game than the snapshot's")
	}
	return full, nil
}
