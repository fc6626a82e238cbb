// Package survival is the flow of Survival Chess: Tartan Grid in Discord
// (the rules: docs/rules/texts/survival.txt; rulings: docs/rules/survival.md).
// It implements the framework's game contract (commands.Game) over State:
// the rules are decided by games/chess, the game flow (locks, storage,
// clocks, delivery) by the framework; this package reads requests, calls
// the engine and presents positions.
//
// The engine decides every ending (moves, resignation, agreed and claimed
// draws, time) and the state stores its current position as a snapshot
// (chess.Snapshot), so a /move or an autocomplete keystroke resumes the
// position without replaying the game; the history (start FEN and UCI
// moves) is replayed only for viewers and records (a flipped older board,
// the final PGN).
//
// Invariants: a State is replayable (its start FEN and UCI moves are
// legal) and its snapshot is the position after its moves; once the game
// is over End is set and never changes; every message is built from
// public information only (Survival has no secrets).
package survival

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/games/chess"
	"sandtable/storage"
)

// Kind is the storage kind of Survival games.
const Kind = "survival"

// Title is the game's name as users see it.
const Title = "Survival Chess: Tartan Grid"

// State is one Survival game: the start position and every move, who
// plays, the draw offer and, once over, how it ended.
type State struct {
	StartFEN string        `json:"start_fen"`
	Moves    []string      `json:"moves"` // UCI
	White    commands.User `json:"white"`
	Black    commands.User `json:"black"`
	MoveTime time.Duration `json:"move_time"` // nanoseconds
	// Clock is the game's Fischer clock (nil: the per-move MoveTime, as
	// every game stored before clocks).
	Clock *Clocks `json:"clock,omitempty"`
	// Rematch is what the finished game's Rematch button opened (see
	// commands.Turn.Rematch), "" before any.
	Rematch string `json:"rematch,omitempty"`
	commands.Draw
	// Result is the PGN result once over ("1-0", "0-1", "1/2-1/2").
	Result string `json:"result,omitempty"`
	// End is how the game ended (version 1; version 0 states stored prose
	// in Reason, which Decode turns into End).
	End     *End      `json:"end,omitempty"`
	Started time.Time `json:"started"`
	// Position is the current position (version 2), written by Encode:
	// Decode resumes it instead of replaying Moves.
	Position *chess.Snapshot `json:"position,omitempty"`
	// LastMove is the last move as the board shows it ("12. Nf3",
	// "12... exd5"), "" before the first.
	LastMove string `json:"last_move,omitempty"`

	game *chess.Game // the current position, resumed (or replayed) by Decode
}

// End is how a game ended: the method and, for a board ending, the
// engine's reason as the rules name it.
type End struct {
	Method storage.Method `json:"method"`
	// Reason is the engine's ending (chess.Reason.String) for board
	// endings, or the claim ("threefold repetition") for claimed draws.
	Reason string `json:"reason,omitempty"`
}

// Clocks are a game's Fischer clocks: each side's remaining time as of the
// start of its current or next turn (the side to move's runs down to the
// game's deadline), and the remaining time after each move, for the PGN.
type Clocks struct {
	commands.TimeControl
	White time.Duration   `json:"white"`
	Black time.Duration   `json:"black"`
	After []time.Duration `json:"after,omitempty"` // by ply
}

// left is c's stored remaining time of the side col.
func (c *Clocks) left(col chess.Color) time.Duration {
	if col == chess.White {
		return c.White
	}
	return c.Black
}

func (c *Clocks) set(col chess.Color, d time.Duration) {
	if col == chess.White {
		c.White = d
	} else {
		c.Black = d
	}
}

// flagged reports whether the side to move's clock of t's game has run out
// at t.Now: the stored deadline (downtime credit and extensions included)
// has passed.
func flagged(t *turn) bool {
	return t.State.Clock != nil && !t.Game.Deadline.IsZero() && !t.Now.Before(t.Game.Deadline)
}

// punch stops the mover's clock of s (before the move is recorded) at
// t.Now and adds the increment: the remaining time is the game's deadline
// less now (downtime credit and extensions included).
func punch(t *turn, s *State, mover chess.Color) {
	if s.Clock == nil {
		return
	}
	c := *s.Clock
	c.After = append([]time.Duration(nil), c.After...)
	left := c.left(mover)
	if !t.Game.Deadline.IsZero() {
		left = t.Game.Deadline.Sub(t.Now)
	}
	left = max(left, 0) + c.Inc
	c.set(mover, left)
	c.After = append(c.After, left)
	s.Clock = &c
}

// Game implements commands.Game for Survival.
type Game struct{}

var _ commands.Game[*State] = Game{}

// Register plugs Survival into the app.
func Register(a *commands.App) { commands.Register[*State](a, Game{}) }

// Version is the state codec's version: 2 stores the current position
// (Position, LastMove); 1 stored End typed and was replayed; 0 (before the
// game core) stored the end reason as prose.
func (Game) Version() int { return 2 }

// Encode writes s as JSON, with the snapshot of its current position (a
// state built from its history alone is replayed first).
func (Game) Encode(s *State) ([]byte, error) {
	c := *s
	g := s.game
	if g == nil {
		var err error
		if g, err = chess.ReplayGame(chess.Survival, s.StartFEN, s.Moves); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		c.LastMove = chessui.MoveNumberText(g)
	}
	snap := g.Snapshot()
	c.Position = &snap
	return json.Marshal(&c)
}

// Decode reads a state: version 2 resumes its position; versions 0 and 1
// replay their moves (once: the next save writes version 2).
func (Game) Decode(version int, raw []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if s.Moves == nil {
		s.Moves = []string{}
	}
	switch version {
	case 2:
		if s.Position == nil {
			return nil, fmt.Errorf("version 2 state without a position")
		}
		if s.Position.Ply != len(s.Moves) {
			return nil, fmt.Errorf("position after %d plies, history of %d", s.Position.Ply, len(s.Moves))
		}
		g, err := chess.Resume(chess.Survival, *s.Position)
		if err != nil {
			return nil, err
		}
		s.game, s.Position = g, nil
		return &s, nil
	case 0:
		var old struct {
			Reason string `json:"reason"`
		}
		_ = json.Unmarshal(raw, &old)
		if s.Result != "" && s.End == nil {
			s.End = endFromProse(old.Reason)
		}
	case 1:
	default:
		return nil, fmt.Errorf("unknown Survival state version %d", version)
	}
	g, err := chess.ReplayGame(chess.Survival, s.StartFEN, s.Moves)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	s.LastMove = chessui.MoveNumberText(g)
	if s.End != nil {
		// The old flow decided its endings itself: record them in the
		// engine, which refuses play after them.
		if err := endGame(g, &s); err != nil {
			return nil, err
		}
	}
	s.game = g
	return &s, nil
}

// endGame records in g the ending s stored before the engine kept
// endings (versions 0 and 1): board endings g knows already.
func endGame(g *chess.Game, s *State) error {
	if _, over := g.Outcome(); over {
		return nil
	}
	loser := chess.White
	if s.Result == chess.WhiteWins.String() {
		loser = chess.Black
	}
	switch s.End.Method {
	case storage.Resignation:
		return g.Resign(loser)
	case storage.Time:
		return g.Timeout(loser)
	case storage.Repetition, storage.FiftyMoves:
		if _, err := g.ClaimDraw(); err == nil {
			return nil
		}
	}
	return g.AgreeDraw() // agreement, and what the engine cannot redo
}

// endOf is the End of the engine's outcome o in g.
func endOf(g *chess.Game, o chess.Outcome) End {
	switch o.Method {
	case chess.MethodResignation:
		return End{Method: storage.Resignation}
	case chess.MethodAgreement:
		return End{Method: storage.Agreement}
	case chess.MethodTime:
		return End{Method: storage.Time}
	case chess.MethodThreefoldRepetition:
		return End{Method: storage.Repetition, Reason: chess.ThreefoldRepetition.String()}
	case chess.MethodFiftyMoveRule:
		return End{Method: storage.FiftyMoves, Reason: chess.FiftyMoveRule.String()}
	}
	r := g.Status().Reason
	return End{Method: boardMethod(r), Reason: r.String()}
}

// endFromProse reads a version-0 end reason: the words the old flow wrote
// ("resignation", "agreement", "time (...)", "<claim> (claimed)", or the
// engine's reason).
func endFromProse(reason string) *End {
	switch {
	case reason == "resignation":
		return &End{Method: storage.Resignation}
	case reason == "agreement":
		return &End{Method: storage.Agreement}
	case strings.HasPrefix(reason, "time"):
		return &End{Method: storage.Time}
	case strings.HasSuffix(reason, " (claimed)"):
		c := strings.TrimSuffix(reason, " (claimed)")
		m := storage.FiftyMoves
		if c == chess.ThreefoldRepetition.String() {
			m = storage.Repetition
		}
		return &End{Method: m, Reason: c}
	}
	for r := chess.Checkmate; r <= chess.Besieged; r++ {
		if r.String() == reason {
			return &End{Method: boardMethod(r), Reason: reason}
		}
	}
	return &End{Method: storage.Aborted, Reason: reason}
}

// boardMethod is the method of an ending the engine decides.
func boardMethod(r chess.Reason) storage.Method {
	switch r {
	case chess.Checkmate:
		return storage.Checkmate
	case chess.Elimination:
		return storage.Elimination
	case chess.Stalemate:
		return storage.Stalemate
	case chess.InsufficientMaterial:
		return storage.InsufficientMaterial
	case chess.DeadPosition:
		return storage.DeadPosition
	case chess.FivefoldRepetition:
		return storage.FivefoldRepetition
	case chess.SeventyFiveMoveRule:
		return storage.SeventyFiveMoves
	}
	return storage.Aborted
}

// Clock: the side to move has MoveTime for each move, or with a Fischer
// clock its remaining time.
func (Game) Clock(s *State) commands.Clock {
	if s.Result != "" {
		return commands.Clock{Rule: commands.NoClock}
	}
	if s.Clock != nil {
		return commands.Clock{Rule: commands.Fischer, Actors: []string{s.player(s.turn()).ID},
			Key: fmt.Sprint(len(s.Moves)), Period: s.Clock.left(s.turn())}
	}
	return commands.Clock{Rule: commands.PerMove, Actors: []string{s.player(s.turn()).ID},
		Key: fmt.Sprint(len(s.Moves)), Period: s.MoveTime}
}

// Outcome is the typed result once the game is over.
func (Game) Outcome(s *State) (storage.Outcome, bool) {
	if s.Result == "" || s.End == nil {
		return storage.Outcome{}, false
	}
	o := storage.Outcome{Method: s.End.Method, Claimed: s.End.Method == storage.Repetition || s.End.Method == storage.FiftyMoves}
	switch s.Result {
	case chess.WhiteWins.String():
		o.Side, o.Winners, o.Losers = "white", []string{s.White.ID}, []string{s.Black.ID}
	case chess.BlackWins.String():
		o.Side, o.Winners, o.Losers = "black", []string{s.Black.ID}, []string{s.White.ID}
	}
	return o, true
}

// Timeout: the side to move ran out of time and loses (the rules follow
// FIDE, and no Survival position with pieces on both sides is one where
// the opponent cannot win, except dead positions, which end at once).
func (Game) Timeout(t *commands.Turn[*State]) error {
	s := t.State.clone()
	if len(s.Moves) == 0 {
		// The first move never came: aborted, not scored (ruling 28).
		return abort(t, s, "no first move", fmt.Sprintf("%s never made the first move.", s.describe(s.turn())))
	}
	_, err := flag(t, s)
	return err
}

// flag ends s, t's game, lost on time by the side to move (its clock at
// zero), and says so on the final board; it returns the note.
func flag(t *turn, s *State) (string, error) {
	loser := s.turn()
	if err := s.game.Timeout(loser); err != nil {
		return "", err
	}
	if s.Clock != nil {
		c := *s.Clock
		c.set(loser, 0)
		s.Clock = &c
	}
	s.ended()
	t.Save(s)
	note := fmt.Sprintf("%s ran out of time. %s", s.describe(loser), s.resultLine())
	msg, err := message(t, s, note)
	if err != nil {
		return "", err
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: note})
	return note, nil
}

// abort ends s, t's game, aborted (why, the reason kept with the end),
// saying note and the result on its final board: the one way a Survival
// game is aborted (the first move's timeout, a server manager's abort).
// Aborted is unrated: nobody's record changes.
func abort(t *commands.Turn[*State], s *State, why, note string) error {
	s.Result, s.End, s.Offer = "*", &End{Method: storage.Aborted, Reason: why}, ""
	t.Save(s)
	note = strings.TrimSpace(note + " " + s.resultLine())
	msg, err := message(t, s, note)
	if err != nil {
		return err
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: note})
	return nil
}

// Summary is the game's line in /games for userID.
func (Game) Summary(g *storage.Game, s *State, userID string) string {
	c, ok := s.colorOf(userID)
	if !ok {
		return ""
	}
	line := fmt.Sprintf("vs %s, you play %s", s.player(c.Other()).Mention(), c.Title())
	if s.turn() == c {
		line += ", **your move**"
		if !g.Deadline.IsZero() {
			line += fmt.Sprintf(" (time runs out <t:%d:R>)", g.Deadline.Unix())
		}
	}
	return line
}

// clone copies s for a transition (the replayed game too).
func (s *State) clone() *State {
	c := *s
	c.Moves = append([]string(nil), s.Moves...)
	c.game = s.game.Clone()
	if s.Clock != nil {
		k := *s.Clock
		k.After = append([]time.Duration(nil), s.Clock.After...)
		c.Clock = &k
	}
	if s.End != nil {
		e := *s.End
		c.End = &e
	}
	return &c
}

func (s *State) turn() chess.Color { return s.game.Position().Turn() }

func (s *State) player(c chess.Color) commands.User {
	if c == chess.White {
		return s.White
	}
	return s.Black
}

// colorOf returns the user's colour; ok is false for non-players.
func (s *State) colorOf(userID string) (chess.Color, bool) {
	switch userID {
	case s.White.ID:
		return chess.White, true
	case s.Black.ID:
		return chess.Black, true
	}
	return chess.White, false
}

func (s *State) describe(c chess.Color) string {
	return fmt.Sprintf("%s (%s)", s.player(c).Mention(), c.Title())
}

// ended records the engine's ending, if the game has ended.
func (s *State) ended() {
	o, over := s.game.Outcome()
	if !over {
		return
	}
	end := endOf(s.game, o)
	s.Result = o.Result.String()
	s.End = &end
	s.Offer = ""
}

// over reports whether the game has ended.
func (s *State) over() bool { return s.Result != "" }

// reasonText says how the game ended, in the words the result line uses.
func (s *State) reasonText() string {
	if s.End == nil {
		return ""
	}
	switch s.End.Method {
	case storage.Resignation:
		return "resignation"
	case storage.Agreement:
		return "agreement"
	case storage.Time:
		if s.Clock != nil {
			return "time (the clock ran out)"
		}
		return "time (the per-move limit ran out)"
	case storage.Repetition, storage.FiftyMoves:
		return s.End.Reason + " (claimed)"
	case storage.Adjudicated:
		return "adjudication (" + s.End.Reason + ")"
	}
	return s.End.Reason
}

// resultLine says how the game ended, for people.
func (s *State) resultLine() string {
	switch s.Result {
	case "1-0":
		return fmt.Sprintf("%s wins by %s.", s.describe(chess.White), s.reasonText())
	case "0-1":
		return fmt.Sprintf("%s wins by %s.", s.describe(chess.Black), s.reasonText())
	case "1/2-1/2":
		return fmt.Sprintf("Draw by %s.", s.reasonText())
	case "*":
		if s.End != nil && s.End.Reason != "" && s.End.Reason != "no first move" {
			return fmt.Sprintf("The game is aborted, not scored: %s. Nobody's record changes.", s.End.Reason)
		}
		return "The game is aborted: no move was played before the time ran out, so nothing is scored."
	}
	return ""
}
