package teamchess

import (
	"fmt"
	"strings"

	"sandtable/games/chess"
)

// Phase is what a game waits for.
type Phase uint8

// The phases.
const (
	// Playing: the side to move plays (a Saboteur may have forced the move,
	// see Game.Forced). During a siege continuation (Game.SiegeContinuing)
	// the attacker plays its one more move.
	Playing Phase = iota
	// SiegeDecision: the besieged side has passed (rule 2.1); the attacker,
	// now to move, chooses SiegeWin or SiegeContinue.
	SiegeDecision
	// Finished: the game is over (Game.Result).
	Finished
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case Playing:
		return "playing"
	case SiegeDecision:
		return "siege decision"
	case Finished:
		return "finished"
	}
	return "unknown"
}

// Setup describes a new game: the start position (empty: the standard
// start) and each side's ordered commander queue (ruling 1; the first is
// active; a member may appear twice to balance a smaller team).
type Setup struct {
	FEN   string
	White []Member
	Black []Member
}

// Game is a Team Chess game: the board, both teams' commander queues and
// personal records, the stagnation counters, a pending Saboteur forced
// move, the siege state and the record. It is rebuilt exactly from State()
// by Restore, or without a replay from State() and Snapshot() by Resume.
// A Game is not safe for concurrent use.
type Game struct {
	setup      Setup
	start      chess.Position
	pos        chess.Position
	teams      [2]team
	phase      Phase
	forced     *Move
	continuing bool // the attacker chose SiegeContinue and must move
	stag       [2]int
	roundFirst chess.Color
	sacrificed [2]bool  // the team has performed a sacrifice (honour, rule 5)
	lastSac    [2]bool  // the team's latest move was a sacrifice (version-1 honour)
	v1Mate     Category // the checkmate's category by the version-1 honour rule
	result     Result
	events     []Event
	eventBase  int  // record entries before events[0] (a resumed game keeps the recent ones only)
	resumed    bool // resumed from a Snapshot: the actions were not replayed
	actions    []Action
	last       *Move // the latest move played
	noRecord   bool  // a search copy (CopyForSearch): no record entries, no SAN
	restoring  bool  // Restore replays stored actions (see Apply's tag-out)
}

// NewGame starts a game. Errors: an invalid FEN (*chess.FENError, Team
// Chess rules: exactly one king each, no pawn on the first or last rank),
// a start position that is already checkmate, or invalid queues (ruling 1,
// docs/rules/teamchess.md A1): a side without commanders, an empty ID, a
// member on both sides, a member listed more than twice, more than one
// member of a team with a second command, or a second command that does not
// balance a smaller team. A start position in which the side to move is
// besieged begins with its pass (ruling 4).
func NewGame(s Setup) (*Game, error) {
	fen := strings.TrimSpace(s.FEN)
	if fen == "" {
		fen = chess.StandardFEN
	}
	pos, err := chess.ParseFEN(chess.TeamChess, fen)
	if err != nil {
		return nil, err
	}
	teams, err := newTeams(s.White, s.Black)
	if err != nil {
		return nil, err
	}
	has := HasLegalMove(&pos)
	if !has && pos.InCheck() {
		return nil, fmt.Errorf("the start position is already checkmate")
	}
	g := &Game{
		setup: Setup{FEN: pos.FEN(), White: append([]Member(nil), s.White...), Black: append([]Member(nil), s.Black...)},
		start: pos, pos: pos, teams: teams, roundFirst: pos.Turn(),
	}
	if !has {
		g.pass()
	}
	return g, nil
}

// Setup returns the game's setup (start FEN, queues), as copies.
func (g *Game) Setup() Setup {
	return Setup{FEN: g.setup.FEN, White: append([]Member(nil), g.setup.White...), Black: append([]Member(nil), g.setup.Black...)}
}

// LastMove returns the latest move played (for highlighting its squares:
// Board.From() and Board.To()); ok is false before the first move.
func (g *Game) LastMove() (m Move, ok bool) {
	if g.last == nil {
		return Move{}, false
	}
	return *g.last, true
}

// CountLegalMoves returns len(LegalMoves()) cheaply (see the package
// function CountLegalMoves).
func (g *Game) CountLegalMoves() int {
	switch {
	case g.phase != Playing:
		return 0
	case g.forced != nil:
		return 1
	}
	return int(CountLegalMoves(&g.pos))
}

// Position returns a copy of the current board.
func (g *Game) Position() chess.Position { return g.pos }

// StartPosition returns a copy of the start board.
func (g *Game) StartPosition() chess.Position { return g.start }

// Phase returns what the game waits for.
func (g *Game) Phase() Phase { return g.phase }

// Turn returns the side that must act now: the side to move, or during a
// SiegeDecision the attacker. Meaningless once Finished.
func (g *Game) Turn() chess.Color { return g.pos.Turn() }

// Result returns the result (the zero Result while the game goes on).
func (g *Game) Result() Result { return g.result }

// InCheck reports whether the side to move is in check.
func (g *Game) InCheck() bool { return g.phase != Finished && g.pos.InCheck() }

// Forced returns the move a Saboteur forced on the side to move (ruling 3).
func (g *Game) Forced() (Move, bool) {
	if g.forced == nil || g.phase != Playing {
		return Move{}, false
	}
	return *g.forced, true
}

// ForcedSAN returns the forced move in player notation, or "".
func (g *Game) ForcedSAN() string {
	if m, ok := g.Forced(); ok {
		return SAN(&g.pos, m)
	}
	return ""
}

// SiegeContinuing reports whether the attacker declined the Siege Win and
// must now make its one more move (ruling 4).
func (g *Game) SiegeContinuing() bool { return g.continuing && g.phase == Playing }

// Stagnation returns side's count of consecutive turns without a pawn move
// or capture within its current commander's command (0..4, ruling 5).
func (g *Game) Stagnation(side chess.Color) int { return g.stag[side&1] }

// Commanders returns a copy of side's queue with each command's record.
func (g *Game) Commanders(side chess.Color) []Commander {
	return append([]Commander(nil), g.teams[side&1].queue...)
}

// ActiveIndex returns the index in Commanders(side) of the active
// commander, or -1 when the team has none left.
func (g *Game) ActiveIndex(side chess.Color) int {
	t := &g.teams[side&1]
	if t.exhausted() {
		return -1
	}
	return t.active
}

// Active returns side's active commander; ok is false when none is left.
func (g *Game) Active(side chess.Color) (Member, bool) {
	c := g.teams[side&1].current()
	if c == nil {
		return Member{}, false
	}
	return c.Member, true
}

// SideOf returns the side of the member with this ID.
func (g *Game) SideOf(id string) (chess.Color, bool) {
	for c := range g.teams {
		for _, cm := range g.teams[c].queue {
			if cm.Member.ID == id {
				return chess.Color(c), true
			}
		}
	}
	return chess.White, false
}

// Members returns side's distinct members in queue order.
func (g *Game) Members(side chess.Color) []Member {
	var out []Member
	seen := map[string]bool{}
	for _, cm := range g.teams[side&1].queue {
		if !seen[cm.Member.ID] {
			seen[cm.Member.ID] = true
			out = append(out, cm.Member)
		}
	}
	return out
}

// PersonalRecord returns the member's personal wins and losses in this
// game, summed over both commands of a member with a second command
// (ruling 1: both losses go on that member's record).
func (g *Game) PersonalRecord(id string) (wins, losses int) {
	for c := range g.teams {
		for _, cm := range g.teams[c].queue {
			if cm.Member.ID == id {
				wins += cm.Wins
				if cm.Lost {
					losses++
				}
			}
		}
	}
	return wins, losses
}

// CanAdvise reports whether the member may advise the active commander
// (rule 1.4, ruling 2): a member of the game who is not the active commander
// of their side and has no personal loss in this game (after the first
// command of a member with two commands ends, that member may not advise).
// The reason explains a refusal.
func (g *Game) CanAdvise(id string) (ok bool, reason string) {
	side, found := g.SideOf(id)
	if !found {
		return false, "you are not playing in this game"
	}
	if a, ok := g.Active(side); ok && a.ID == id && g.phase != Finished {
		return false, "you are the active commander: you play, you do not advise"
	}
	if _, losses := g.PersonalRecord(id); losses > 0 {
		return false, "you have a personal loss in this game, so you may no longer advise (rule 1.4)"
	}
	return true, ""
}

// ThreadMembers returns side's members allowed in the team's private
// thread: the active commander and every member who may advise (rule 1.4).
func (g *Game) ThreadMembers(side chess.Color) []Member {
	var out []Member
	active, hasActive := g.Active(side)
	for _, m := range g.Members(side) {
		if ok, _ := g.CanAdvise(m.ID); ok || (hasActive && m.ID == active.ID) {
			out = append(out, m)
		}
	}
	return out
}

// LegalMoves returns the legal moves now: none unless Playing; only the
// forced move when a Saboteur forced one; else every legal move with its
// sacrifice roles (see the package function LegalMoves, which can be long;
// Complete is the cheap listing for autocomplete).
func (g *Game) LegalMoves() []Move {
	if g.phase != Playing {
		return nil
	}
	if g.forced != nil {
		return []Move{*g.forced}
	}
	return LegalMoves(&g.pos)
}

// MoveTexts returns the legal moves now with their texts, sorted by SAN.
func (g *Game) MoveTexts() []MoveText {
	if g.phase != Playing {
		return nil
	}
	if g.forced != nil {
		return []MoveText{{Move: *g.forced, SAN: SAN(&g.pos, *g.forced), UCI: g.forced.UCI()}}
	}
	return MoveTexts(&g.pos)
}

// Complete returns at most limit legal moves matching the typed prefix
// (see the package function Complete). When a Saboteur forced the move it
// returns that move whatever the prefix, since it is the only one.
func (g *Game) Complete(prefix string, limit int) []MoveText {
	if g.phase != Playing {
		return nil
	}
	if g.forced != nil {
		return g.MoveTexts()
	}
	return Complete(&g.pos, prefix, limit)
}

// ParseMove reads a move text for the side to move (see the package
// function ParseMove). When a Saboteur forced the move, the forced move is
// the only legal one: the full text, or any start of its SAN or UCI-style
// form of two characters or more ("d1", "d1=Sab"), selects it; anything
// else is refused naming it.
func (g *Game) ParseMove(text string) (Move, error) {
	if g.phase == Finished {
		return Move{}, moveErr(text, nil, "the game is over: %s", g.result)
	}
	if g.phase == SiegeDecision {
		return Move{}, moveErr(text, nil, "%s is besieged and has passed; %s chooses first: take the Siege Win or continue with one more move", g.pos.Turn().Other().Title(), g.pos.Turn().Title())
	}
	if g.forced != nil {
		f := *g.forced
		san := SAN(&g.pos, f)
		if m, err := ParseMove(&g.pos, text); err == nil && m.Equal(f) {
			return f, nil
		}
		n := normPrefix(text)
		if len(n) >= 2 && (strings.HasPrefix(normPrefix(san), n) || strings.HasPrefix(f.UCI(), n)) {
			return f, nil
		}
		return Move{}, moveErr(text, []string{san}, "a Saboteur forced your move: you must play %s", san)
	}
	return ParseMove(&g.pos, text)
}

// RuleError is a refused action: not your turn, wrong phase, not the
// active commander. Rule names the rule-text section or issue ruling.
type RuleError struct {
	Rule   string
	Reason string
}

func (e *RuleError) Error() string { return e.Reason }

func ruleErr(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}

// checkActor verifies that by (when non-empty) is side's active commander.
func (g *Game) checkActor(side chess.Color, by string) error {
	if by == "" {
		return nil
	}
	a, ok := g.Active(side)
	if ok && a.ID == by {
		return nil
	}
	if s, found := g.SideOf(by); !found {
		return ruleErr("1.1", "you are not playing in this game")
	} else if s != side {
		return ruleErr("1.1", "it is %s's turn; you play for %s", side.Title(), s.Title())
	}
	return ruleErr("1.1", "only %s's active commander, %s, may do that", side.Title(), a.Label())
}

func (g *Game) checkOngoing() error {
	if g.phase == Finished {
		return ruleErr("6", "the game is over: %s", g.result)
	}
	return nil
}

// Play parses text (see ParseMove) and plays it for the side to move; by is
// the acting member's ID ("" skips the check that it is the active
// commander). It returns the new record entries.
func (g *Game) Play(by, text string) ([]Event, error) {
	if err := g.checkOngoing(); err != nil {
		return nil, err
	}
	if err := g.checkActor(g.pos.Turn(), by); err != nil {
		return nil, err
	}
	m, err := g.ParseMove(text)
	if err != nil {
		return nil, err
	}
	return g.Apply(Action{Kind: ActMove, Side: sideName(g.pos.Turn()), By: by, Move: m.UCI()})
}

// PlayMove plays the legal move m for the side to move.
func (g *Game) PlayMove(by string, m Move) ([]Event, error) {
	return g.Apply(Action{Kind: ActMove, Side: sideName(g.pos.Turn()), By: by, Move: m.UCI()})
}

// TagOut tags out by, the active commander of the side to act,
// voluntarily, at the start of its turn (rule 1.2; also when a Saboteur
// forced the move, ruling 3; during a SiegeDecision by the attacker, or by
// the besieged side, whose turn was its pass (ruling A2); not during a
// siege continuation, which has begun). A team's last commander cannot tag
// out: there is nobody to hand over to; resigning ends the game (A3).
// With by empty it tags out the side to act's commander.
func (g *Game) TagOut(by string) ([]Event, error) {
	side := g.pos.Turn()
	if s, ok := g.SideOf(by); ok && g.phase == SiegeDecision {
		side = s
	}
	return g.Apply(Action{Kind: ActTagOut, Side: sideName(side), By: by})
}

// LastCommander reports whether side's active commander is the last of its
// queue: nobody is left to take over after it, so it cannot tag out (A3).
func (g *Game) LastCommander(side chess.Color) bool {
	t := &g.teams[side&1]
	return !t.exhausted() && t.active == len(t.queue)-1
}

// Resign ends the game for by's team; by must be that team's active
// commander (ruling 6). Either side may resign at any time.
func (g *Game) Resign(by string) ([]Event, error) {
	side, ok := g.SideOf(by)
	if !ok {
		return nil, ruleErr("6", "you are not playing in this game")
	}
	return g.Apply(Action{Kind: ActResign, Side: sideName(side), By: by})
}

// ResignSide resigns for side without an actor check (for the bot's own
// decisions, for example an abandoned game).
func (g *Game) ResignSide(side chess.Color) ([]Event, error) {
	return g.Apply(Action{Kind: ActResign, Side: sideName(side)})
}

// SiegeWin takes the Siege Win for the attacker (rule 2.1).
func (g *Game) SiegeWin(by string) ([]Event, error) {
	return g.Apply(Action{Kind: ActSiegeWin, Side: sideName(g.pos.Turn()), By: by})
}

// SiegeContinue declines the Siege Win: the attacker makes one more move
// (rule 2.1, ruling 4).
func (g *Game) SiegeContinue(by string) ([]Event, error) {
	return g.Apply(Action{Kind: ActSiegeContinue, Side: sideName(g.pos.Turn()), By: by})
}

// Timeout tags out the active commander of the side to act because the
// bot's move timer ran out (ruling B1); the next commander continues the
// same turn.
func (g *Game) Timeout() ([]Event, error) {
	return g.Apply(Action{Kind: ActTimeout, Side: sideName(g.pos.Turn())})
}

// Apply validates and applies one action, appends it to the stored
// actions and returns the new record entries. On error nothing changes.
func (g *Game) Apply(a Action) ([]Event, error) {
	if err := g.checkOngoing(); err != nil {
		return nil, err
	}
	side, err := parseSide(a.Side)
	if err != nil {
		return nil, err
	}
	if err := g.checkActor(side, a.By); err != nil {
		return nil, err
	}
	n := len(g.events)
	switch a.Kind {
	case ActMove:
		if err := g.checkTurn(side, "move"); err != nil {
			return nil, err
		}
		if g.phase != Playing {
			return nil, ruleErr("2.1", "%s is besieged and has passed; choose the Siege Win or continue first", side.Other().Title())
		}
		m, err := g.parseStored(a.Move)
		if err != nil {
			return nil, err
		}
		if g.forced != nil && !m.Equal(*g.forced) {
			return nil, moveErr(a.Move, nil, "a Saboteur forced your move: you must play %s", SAN(&g.pos, *g.forced))
		}
		if !isLegal(&g.pos, m) {
			return nil, moveErr(a.Move, nil, "%s is not legal here", a.Move)
		}
		g.move(side, m)
	case ActTagOut:
		// The besieged side's turn is its pass, made at once: its commander
		// may tag out until the attacker has decided (ruling A2).
		besieged := g.phase == SiegeDecision && side != g.pos.Turn()
		if !besieged {
			if err := g.checkTurn(side, "tag out"); err != nil {
				return nil, err
			}
		}
		if g.continuing {
			return nil, ruleErr("1.2", "you chose to continue the siege: your turn has begun, so make your move")
		}
		// A stored state of before issue 26 may end with the last
		// commander's tag-out, then a Fatigue loss (ruling A3): replayed
		// as it was played.
		if g.LastCommander(side) && !g.restoring {
			return nil, ruleErr("1.2", "you are %s's last commander: a tag-out hands command to the next commander of your team, and there is none; to give up the game, resign", side.Title())
		}
		if g.tagOut(side, Voluntary) {
			g.finish(Result{Category: FatigueVictory, Winner: side.Other()})
		}
	case ActTimeout:
		if err := g.checkTurn(side, "time out"); err != nil {
			return nil, err
		}
		if g.tagOut(side, Timeout) {
			g.finish(Result{Category: FatigueVictory, Winner: side.Other()})
		}
	case ActResign:
		g.finish(Result{Category: Resignation, Winner: side.Other()})
	case ActSiegeWin, ActSiegeContinue:
		if err := g.checkTurn(side, "decide the siege"); err != nil {
			return nil, err
		}
		if g.phase != SiegeDecision {
			return nil, ruleErr("2.1", "%s is not besieged: there is no Siege Win to take", side.Other().Title())
		}
		if a.Kind == ActSiegeWin {
			g.finish(Result{Category: SiegeWin, Winner: side})
			break
		}
		if !HasLegalMove(&g.pos) {
			return nil, ruleErr("2.1", "you have no legal move to continue with; take the Siege Win")
		}
		g.phase, g.continuing = Playing, true
		g.event(Event{Kind: SiegeContinueEvent, Side: side, Commander: g.activeMember(side)})
	default:
		return nil, fmt.Errorf("unknown action %q", a.Kind)
	}
	g.actions = append(g.actions, a)
	return append([]Event(nil), g.events[n:]...), nil
}

func (g *Game) checkTurn(side chess.Color, what string) error {
	if side != g.pos.Turn() {
		return ruleErr("4.1", "it is %s's turn: %s cannot %s now", g.pos.Turn().Title(), side.Title(), what)
	}
	return nil
}

// parseStored reads a move in UCI-style or player notation.
func (g *Game) parseStored(s string) (Move, error) {
	return ParseMove(&g.pos, s)
}

func (g *Game) activeMember(side chess.Color) Member {
	m, _ := g.Active(side)
	return m
}

func (g *Game) event(e Event) {
	if g.noRecord {
		return
	}
	e.Seq = g.eventBase + len(g.events) + 1
	if e.MoveNumber == 0 {
		e.MoveNumber = g.pos.FullmoveNumber()
	}
	e.Stagnation = g.stag
	g.events = append(g.events, e)
}

// move plays the legal move m for side and runs everything that follows
// it: Political Agent, Saboteur, stagnation, mate, siege, round end.
func (g *Game) move(side chess.Color, m Move) {
	them := side.Other()
	moveNo := g.pos.FullmoveNumber()
	pc := g.pos.PieceAt(m.Board.From())
	progress := pc.Role() == chess.Pawn || g.pos.IsCapture(m.Board) || m.Role() == Assassin
	wasForced := g.forced != nil
	v1Dishonour := m.IsSacrifice() || g.lastSac[side] || wasForced
	var san string
	if !g.noRecord {
		san = SAN(&g.pos, m)
	}
	g.pos, _ = g.pos.Play(m.Board)
	g.last = &m
	g.lastSac[side] = m.IsSacrifice()
	if m.IsSacrifice() {
		g.sacrificed[side] = true
	}
	g.forced = nil
	if m.Role() == Saboteur {
		f := *m.Forced
		g.forced = &f
	}
	if progress {
		g.stag[side] = 0
	} else {
		g.stag[side]++
	}
	if !g.noRecord {
		g.event(Event{Kind: MoveEvent, Side: side, MoveNumber: moveNo, Commander: g.activeMember(side),
			SAN: san, UCI: m.UCI(), Role: m.Role(), Forced: wasForced})
	}
	if m.Role() == PoliticalAgent && g.tagOut(them, Revolution) {
		g.finish(Result{Category: FatigueVictory, Winner: side})
		return
	}
	has := g.forced != nil || HasLegalMove(&g.pos)
	if !has && g.pos.InCheck() {
		g.v1Mate = mateCategory(v1Dishonour)
		// Rule 2.1 upgrades a siege continuation's mate to an honourable
		// win whatever the team sacrificed (ruling 4).
		g.finish(Result{Category: mateCategory(g.sacrificed[side] && !g.continuing), Winner: side})
		return
	}
	if g.continuing {
		g.continuing = false
		if !has {
			g.finish(Result{Category: SiegeWin, Winner: side})
			return
		}
		if g.tagOut(side, SiegeFailure) {
			g.finish(Result{Category: FatigueVictory, Winner: them})
			return
		}
	}
	if g.endTurn(side) {
		return
	}
	if !has {
		g.pass()
	}
}

// pass makes the besieged side to move pass (rule 2.1): a turn without
// progress; then the attacker decides.
func (g *Game) pass() {
	side := g.pos.Turn()
	g.stag[side]++
	g.event(Event{Kind: PassEvent, Side: side, Commander: g.activeMember(side)})
	g.pos = passed(g.pos)
	if g.endTurn(side) {
		return
	}
	g.phase = SiegeDecision
}

// passed returns p with the other side to move (the pass of a besieged
// side, ruling 4 and A10: the en passant right lapses, the clocks advance as
// after a move). The besieged side is not in check, so PassTurn cannot fail.
func passed(p chess.Position) chess.Position {
	q, _ := p.PassTurn()
	return q
}

// endTurn closes side's turn; at the end of a round it applies fatigue
// (ruling 5). It reports whether the game ended.
func (g *Game) endTurn(side chess.Color) bool {
	if side == g.roundFirst {
		return false
	}
	w, b := g.stag[chess.White] >= 4, g.stag[chess.Black] >= 4
	switch {
	case w && b:
		g.finish(Result{Category: MutualLoss})
		return true
	case w || b:
		tired := chess.White
		if b {
			tired = chess.Black
		}
		if g.tagOut(tired, Fatigue) {
			g.finish(Result{Category: FatigueVictory, Winner: tired.Other()})
			return true
		}
	}
	return false
}

// tagOut ends side's active command with a personal loss, credits the
// opposing active commander with a personal win (rule 1.3, ruling 2) and
// hands over to the next commander. It reports whether side has no
// commander left.
func (g *Game) tagOut(side chess.Color, why TagOutReason) (exhausted bool) {
	t := &g.teams[side]
	out := t.current()
	out.Lost = true
	e := Event{Kind: TagOutEvent, Side: side, Commander: out.Member, Reason: why}
	if w := g.teams[side.Other()].current(); w != nil {
		w.Wins++
		e.Credited = w.Member
	}
	t.active++
	g.stag[side] = 0
	if c := t.current(); c != nil {
		e.Incoming = c.Member
	} else {
		e.Exhausted = true
	}
	g.event(e)
	return t.exhausted()
}

// finish ends the game with r and applies the end-of-game personal win and
// loss (rule 6.2, ruling 6). A team that lost by exhaustion already took its
// last commander's loss at the tag-out, which also credited the winner.
func (g *Game) finish(r Result) {
	e := Event{Kind: GameOverEvent, Side: r.Winner, Result: r}
	switch r.Category {
	case MutualLoss:
		for c := range g.teams {
			if cm := g.teams[c].current(); cm != nil {
				cm.Lost = true
				e.Debited = append(e.Debited, cm.Member)
			}
		}
	case FatigueVictory:
	default:
		if cm := g.teams[r.Winner.Other()].current(); cm != nil {
			cm.Lost = true
			e.Debited = append(e.Debited, cm.Member)
		}
		if cm := g.teams[r.Winner].current(); cm != nil {
			cm.Wins++
			e.Credited = cm.Member
		}
	}
	g.result = r
	g.phase = Finished
	g.forced = nil
	g.continuing = false
	g.event(e)
}
