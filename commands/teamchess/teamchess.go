// Package teamchess is the flow of Team Chess in Discord (the rules:
// docs/rules/texts/teamchess.txt; rulings: docs/rules/teamchess.md, the
// Discord ones in its last section). It implements the framework's game
// contract (commands.Game) over *State: the rules are decided by
// games/teamchess, the game flow (locks, storage, clocks, delivery) by the
// framework; this package reads requests, calls the engine and presents
// positions.
//
//   - lobby.go: /teamchess new posts a lobby (Join White, Join Black,
//     Leave, Start, Cancel; the creator reorders the queues and grants a
//     second command); Start opens the public game thread and one private
//     thread per team, then creates the game (commands.Create); a
//     finished game's Rematch reopens its teams' lobby, sides swapped
//     (ruling D20);
//   - play.go: the thread commands (/move, /tagout, /resign, /siege,
//     /board, /record, /suggest, /draw refused) and autocomplete;
//   - view.go: the board message and the notes announcing each transition;
//   - picker.go: the move picker (Pick a move: pieces, moves, sacrifice
//     roles and targets, a Saboteur's forced reply), played as /move;
//   - records.go: per-guild records, /teamchess leaderboard and stats;
//   - this file: the state and its codec, the clock, the outcome, the
//     timeout, and the announcement of a transition in all three threads
//     with the team threads' membership (rule 1.4).
//
// The state stores the engine's snapshot (tc.Snapshot) beside its actions,
// so a /move, a button or an autocomplete keystroke resumes the game
// without replaying it; the actions are replayed only for the whole
// record: /record and the final PGN.
//
// Invariants: a State replays (its engine state is valid) to its
// snapshot; every transition is saved with t.Save, the players' records at
// the end with t.Also in the same transaction; everything on Discord is an
// effect.
// The board goes to the public thread and to both team threads; a team
// thread sees only public information plus its own membership notes. A
// minute after the end the framework archives and locks all three
// (Spec.OtherThreads, ruling D21).
package teamchess

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
	"sandtable/storage"
)

// Kind is the storage kind of Team Chess games.
const Kind = "teamchess"

// Title is the game's name as users see it.
const Title = "Team Chess"

type (
	turn     = commands.Turn[*State]
	response = commands.Response
	user     = commands.User
)

// State is one Team Chess game as stored: the engine's state and what the
// flow keeps beside it.
type State struct {
	// Game is the engine's State (start FEN, queues, every action, the
	// result once over), as of the last Decode or Encode.
	Game json.RawMessage `json:"game"`
	// TeamThreads are the private threads of White and Black.
	TeamThreads [2]string `json:"team_threads"`
	// ThreadNames are the names last asked for the team threads
	// (teamThreadName): a transition that hands the command on renames
	// them. "" in games stored before threads followed tag-outs.
	ThreadNames [2]string `json:"thread_names,omitzero"`
	// InThread are the members the bot keeps in each team thread: the
	// engine's ThreadMembers after the last transition (rule 1.4).
	InThread [2][]string `json:"in_thread"`
	// MoveTime is the per-move time limit (ruling B1); 0: none.
	MoveTime time.Duration `json:"move_time"` // nanoseconds
	Started  time.Time     `json:"started"`
	// Creator opened the lobby.
	Creator user `json:"creator"`
	// Position is the engine's snapshot of the game after Game's actions
	// (version 2), written by Encode: Decode resumes it instead of
	// replaying the actions.
	Position *tc.Snapshot `json:"position,omitempty"`
	// Aborted: the game is over without a result and nobody's record
	// changes (see abort): the move timer ran out before the first move
	// (ruling D18), or no person was left seated (D31).
	Aborted bool `json:"aborted,omitempty"`
	// AbortReason says why the game was aborted, for its messages; ""
	// in a game aborted before the reason was stored: no first move.
	AbortReason string `json:"abort_reason,omitempty"`
	// Adjudicated is the result a server manager declared ("white" or
	// "black": that team wins; "mutual": a mutual loss), "" when none;
	// AdjudicateReason says why, a clause.
	Adjudicated      string `json:"adjudicated,omitempty"`
	AdjudicateReason string `json:"adjudicate_reason,omitempty"`
	// Rematch is the lobby the final board's Rematch button opened (its ID,
	// which the rematch game takes when it starts), "" before any.
	Rematch string `json:"rematch,omitempty"`

	game *tc.Game // the engine game, resumed (or replayed) by Decode
}

// Game implements commands.Game for Team Chess.
type Game struct{}

var _ commands.Game[*State] = Game{}

// Register plugs Team Chess into the app.
func Register(a *commands.App) { commands.Register[*State](a, Game{}) }

// Version is the state codec's version. Version 2 stores the engine's
// snapshot (Position) beside its state; version 1 has the layout of
// version 0 (the states stored before the game core) and both are
// replayed. The engine state inside versions itself (tc.StateVersion).
func (Game) Version() int { return 2 }

// Encode writes s as JSON, with the engine's current state and its
// snapshot.
func (Game) Encode(s *State) ([]byte, error) {
	raw, err := s.game.MarshalJSON()
	if err != nil {
		return nil, err
	}
	snap := s.game.Snapshot()
	c := *s
	c.Game, c.Position = raw, &snap
	return json.Marshal(&c)
}

// Decode reads a state: version 2 resumes the engine game from its
// snapshot (its actions are decoded, not replayed); versions 0 and 1
// replay the actions (once: the next save writes version 2).
func (Game) Decode(version int, raw []byte) (*State, error) {
	if version < 0 || version > 2 {
		return nil, fmt.Errorf("unknown Team Chess state version %d", version)
	}
	var s State
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, err
	}
	if version < 2 {
		g, err := tc.Load(s.Game)
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		s.game, s.Position = g, nil
		return &s, nil
	}
	if s.Position == nil {
		return nil, fmt.Errorf("version 2 state without a position")
	}
	var h tc.State
	if err := json.Unmarshal(s.Game, &h); err != nil {
		return nil, fmt.Errorf("decoding Team Chess state: %w", err)
	}
	g, err := tc.Resume(h, *s.Position)
	if err != nil {
		return nil, err
	}
	s.game, s.Position = g, nil
	return &s, nil
}

// clone copies s for a transition (the engine game too, without a
// replay), so the state the action read stays as it was: the framework
// compares the clocks before and after.
func (st *State) clone() *State {
	c := *st
	c.game = st.game.Clone()
	c.InThread = [2][]string{append([]string(nil), st.InThread[0]...), append([]string(nil), st.InThread[1]...)}
	return &c
}

// Clock: the active commander of the side to act has MoveTime, restarted
// by every transition (ruling D9): the key is the number of actions, one
// per transition (a move, a tag-out, a timeout, a siege decision).
func (Game) Clock(s *State) commands.Clock {
	if s.over() {
		return commands.Clock{Rule: commands.NoClock}
	}
	c := commands.Clock{Rule: commands.PerMove, Key: strconv.Itoa(s.game.ActionCount()), Period: s.MoveTime}
	if active, ok := s.game.Active(s.game.Turn()); ok {
		c.Actors = []string{active.ID}
		// The commander is pinged in their team's thread.
		c.PingIn = s.TeamThreads[s.game.Turn()]
	}
	return c
}

// Outcome is the typed result once the game is over: the winning team's
// members win, the other team's lose (both teams in a mutual loss); the
// method is the engine's category, except that a game whose last commander
// ran out of time ends by Time (see docs/rules/teamchess.md, D16).
func (Game) Outcome(s *State) (storage.Outcome, bool) {
	if s.Aborted {
		return storage.Outcome{Method: storage.Aborted}, true
	}
	ids := func(side chess.Color) []string {
		var out []string
		for _, m := range s.game.Members(side) {
			out = append(out, m.ID)
		}
		return out
	}
	switch s.Adjudicated {
	case "mutual":
		return storage.Outcome{Method: storage.Adjudicated, Losers: append(ids(chess.White), ids(chess.Black)...)}, true
	case "white", "black":
		w := chess.White
		if s.Adjudicated == "black" {
			w = chess.Black
		}
		return storage.Outcome{Method: storage.Adjudicated, Side: w.String(), Winners: ids(w), Losers: ids(w.Other())}, true
	}
	r := s.game.Result()
	if !r.Over() {
		return storage.Outcome{}, false
	}
	o := storage.Outcome{Method: method(s.game)}
	if !r.HasWinner() {
		o.Losers = append(ids(chess.White), ids(chess.Black)...)
		return o, true
	}
	o.Side = r.Winner.String()
	o.Winners, o.Losers = ids(r.Winner), ids(r.Winner.Other())
	return o, true
}

// method is how a finished game ended, as a storage.Method.
func method(g *tc.Game) storage.Method {
	switch g.Result().Category {
	case tc.HonourableCheckmate, tc.DishonourableCheckmate:
		return storage.Checkmate
	case tc.SiegeWin:
		return storage.Siege
	case tc.Resignation:
		return storage.Resignation
	case tc.MutualLoss:
		return storage.MutualLoss
	case tc.FatigueVictory:
		if a, ok := g.LastAction(); ok && a.Kind == tc.ActTimeout {
			return storage.Time
		}
		return storage.Fatigue
	}
	return storage.Aborted
}

// Timeout: the move timer ran out (ruling B1): the active commander of the
// side to act is tagged out with a personal loss and the next one continues
// the same turn; none left, the other team wins by Fatigue.
func (Game) Timeout(t *turn) error {
	s := t.State.clone()
	if !s.moved() {
		turn := s.game.Turn()
		active, _ := s.game.Active(turn)
		_, err := abort(t, s, nil, fmt.Sprintf("**%s** (%s) made no first move in time (ruling D18)", s.memberName(active.ID), turn.Title()))
		return err
	}
	c := changeOf(s.game)
	events, err := s.game.Timeout()
	if err != nil {
		return err
	}
	c.events = events
	_, err = transition(t, s, c)
	return err
}

// Summary is the /games line: the user's side and whose move it is.
func (Game) Summary(g *storage.Game, s *State, userID string) string {
	side, ok := s.game.SideOf(userID)
	if !ok {
		return ""
	}
	line := "you play for " + side.Title()
	turn := s.game.Turn()
	active, ok := s.game.Active(turn)
	if !ok {
		return line
	}
	switch {
	case active.ID == userID:
		line += ", **your move**"
		if s.game.Phase() == tc.SiegeDecision {
			line = "you play for " + side.Title() + ", **your siege decision**"
		}
		if !g.Deadline.IsZero() {
			line += fmt.Sprintf(" (time runs out <t:%d:R>)", g.Deadline.Unix())
		}
	case turn == side:
		line += fmt.Sprintf(", %s commands %s now", memberUser(active).Mention(), side.Title())
	default:
		line += fmt.Sprintf(", %s to move", turn.Title())
	}
	return line
}

// sides lists White and Black, for loops over both teams.
var sides = [2]chess.Color{chess.White, chess.Black}

// memberUser turns an engine member into a user (for mentions).
func memberUser(m tc.Member) user { return user{ID: m.ID, Name: m.Name} }

// threadMembers returns the IDs the engine allows in side's team thread.
func (st *State) threadMembers(side chess.Color) []string {
	var ids []string
	for _, m := range st.game.ThreadMembers(side) {
		ids = append(ids, m.ID)
	}
	return humans(ids) // a computer commander is no Discord user
}

// memberName returns the display name of a member of the game.
func (st *State) memberName(id string) string {
	for _, side := range sides {
		for _, m := range st.game.Members(side) {
			if m.ID == id {
				return label(m)
			}
		}
	}
	return id
}

// change is one transition for its announcement.
type change struct {
	events     []tc.Event
	before     chess.Position // the board before the action
	sacrificed [2]bool        // each team had made an 8th-rank sacrifice before the action
}

// changeOf begins the change of an action on g: what g shows before it.
func changeOf(g *tc.Game) *change {
	return &change{before: g.Position(), sacrificed: [2]bool{g.Sacrificed(chess.White), g.Sacrificed(chess.Black)}}
}

// transition saves s, the state after a transition of t, and announces it:
// the team threads' membership brought in line (rule 1.4), the players'
// records at the end (in the same transaction), and the new live board in
// every thread of the game (Turn.Board: each thread's board before it
// becomes a line of its record). It returns the private answer to the
// user who acted: what happened. A transition that leaves no person
// seated, only computer commanders, aborts the game (ruling D31).
func transition(t *turn, s *State, c *change) (commands.Message, error) {
	if !s.over() && !s.personSeated() {
		return abort(t, s, c, "no person is left seated, only computer commanders, and the bot does not play a game against itself (ruling D31)")
	}
	return announce(t, s, c)
}

// abort ends s, the state t's action leads to (c: what the action did
// before, nil for nothing), without a result. It is the one way a Team
// Chess game is aborted, whatever the cause: the move timer before the
// first move (ruling D18), no person left seated (D31), or an admin's
// abort. The outcome is aborted: unrated, nothing tallied, no winner or
// loser; the abort adds no personal loss, and the tag-outs before it stay
// in the game's record. why, a clause, is shown in every thread's final
// board ("The game is aborted, not scored: <why>.").
func abort(t *turn, s *State, c *change, why string) (commands.Message, error) {
	s.Aborted, s.AbortReason = true, why
	if c == nil {
		c = changeOf(s.game)
	}
	return announce(t, s, c)
}

// personSeated reports whether a person still holds a seat: a command of
// either queue, not a computer's, that has not ended in a personal loss
// (the active commander or one waiting).
func (st *State) personSeated() bool {
	for _, side := range sides {
		for _, c := range st.game.Commanders(side) {
			if !c.Lost && !commands.IsComputer(c.Member.ID) {
				return true
			}
		}
	}
	return false
}

// announce saves and announces a transition (see transition).
func announce(t *turn, s *State, c *change) (commands.Message, error) {
	t.Save(s)
	var notes [2][]string
	if !s.over() {
		// The game's end changes no membership: ArchiveDelay later the
		// framework archives and locks the team threads with the public one
		// (Spec.OtherThreads, ruling D21).
		for _, side := range sides {
			want, have := s.threadMembers(side), s.InThread[side]
			thread := s.TeamThreads[side]
			for _, id := range want {
				if !contains(have, id) {
					t.AddMember(thread, id)
					notes[side] = append(notes[side], fmt.Sprintf("➡️ **%s** is back in this thread to command (their second command, rule 1.1); they may still not advise (rule 1.4).", s.memberName(id)))
				}
			}
			for _, id := range have {
				if !contains(want, id) {
					t.RemoveMember(thread, id)
					notes[side] = append(notes[side], fmt.Sprintf("🚪 **%s** was removed from this thread: a commander with a personal loss may no longer advise (rule 1.4).", s.memberName(id)))
				}
			}
			s.InThread[side] = want
			// The thread's name follows the command (a tag-out).
			if name := teamThreadName(s.game, side); thread != "" && name != s.ThreadNames[side] {
				t.Rename(thread, name)
				s.ThreadNames[side] = name
			}
		}
	}
	if sum, over := s.game.Summary(); over && len(t.Game.Computers) == 0 {
		// A game with computer commanders is unrated: no personal record
		// changes (ruling in docs/rules/teamchess.md).
		guild := t.Game.GuildID
		t.Also(func(tx storage.Tx) error { return tally(tx, guild, sum) })
	}
	note := noteOf(s, c)
	// Views: -1 the public thread, 0 White's thread, 1 Black's thread.
	for view := -1; view <= 1; view++ {
		channel, content := t.Game.ThreadID, note.public
		if view >= 0 {
			channel, content = s.TeamThreads[view], note.team
			if extra := notes[view]; len(extra) > 0 {
				content += "\n" + strings.Join(extra, "\n")
			}
		}
		if channel == "" {
			continue
		}
		msg, err := message(t, s, view, content)
		if err != nil {
			return commands.Message{}, err
		}
		compact := note.events
		if compact == "" {
			compact = content
		}
		t.Board(channel, msg, commands.Message{Content: compact})
	}
	return commands.Message{Content: note.team}, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// refusal turns an engine error into the user's message: rule refusals
// and illegal moves are UserErrors; anything else stays internal.
func refusal(err error, text string) error {
	var re *tc.RuleError
	if errors.As(err, &re) {
		return commands.Errorf("%s (rule %s).", commands.EngineText(capitalize(re.Reason)), re.Rule)
	}
	var me *chess.MoveError
	if errors.As(err, &me) {
		if text == "" {
			text = me.Input
		}
		return chessui.MoveRefused(text, me)
	}
	return err
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// over reports whether the game has ended, with a result or aborted.
func (st *State) over() bool {
	return st.Aborted || st.Adjudicated != "" || st.game.Phase() == tc.Finished
}

// results are what a server manager may declare (Spec.Results): a team
// wins, or a mutual loss (rule 4.3).
func results(s *State) []ui.Choice {
	return []ui.Choice{{Name: "White team wins", Value: "white"}, {Name: "Black team wins", Value: "black"},
		{Name: "Mutual loss (both teams lose)", Value: "mutual"}}
}

// adjudicate ends t's game with result (one of results), as a server
// manager declared it, saying why: no personal win or loss is tallied
// (rule 6.2 counts what the rules decide), the game is rated as its
// result says unless it is unrated.
func adjudicate(t *turn, result, why string) error {
	s := t.State.clone()
	switch result {
	case "white", "black", "mutual":
	default:
		return fmt.Errorf("teamchess: no result %q", result)
	}
	s.Adjudicated, s.AdjudicateReason = result, why
	_, err := announce(t, s, changeOf(s.game))
	return err
}

// adjudicatedText says the declared result, a sentence.
func (st *State) adjudicatedText() string {
	switch st.Adjudicated {
	case "mutual":
		return fmt.Sprintf("⚖️ Both teams lose (a mutual loss), by adjudication: %s.", st.AdjudicateReason)
	case "black":
		return fmt.Sprintf("⚖️ The **Black** team wins by adjudication: %s.", st.AdjudicateReason)
	}
	return fmt.Sprintf("⚖️ The **White** team wins by adjudication: %s.", st.AdjudicateReason)
}

// moved reports whether any move was played.
func (st *State) moved() bool {
	for _, a := range st.game.State().Actions {
		if a.Kind == tc.ActMove {
			return true
		}
	}
	return false
}
