package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/games/chess"
	"sandtable/games/teamchess"
	"sandtable/storage"
)

// Team Chess in Discord (shared/seeds/003, copied to
// docs/rules/texts/teamchess.txt; issue 6 "What to build";
// rulings in docs/rules/teamchess.md, the Discord ones in its last
// section). The rules are decided by games/teamchess; these files run the
// game flow:
//
//   - teamchess_lobby.go: /teamchess new posts a lobby (Join White, Join
//     Black, Leave, Start, Cancel; the creator reorders the queues and
//     grants a second command); Start creates the public game thread and
//     one private thread per team;
//   - teamchess_play.go: the thread commands (/move, /tagout, /resign,
//     /siege, /board, /record, /suggest, /draw refused) and autocomplete;
//   - teamchess_board.go: the board message (embed and image) and the
//     notes that announce each transition;
//   - teamchess_records.go: per-guild records, /teamchess leaderboard and
//     /teamchess stats;
//   - this file: the kind, the stored state, the one-transaction commit of
//     a transition and the announcement in all three threads, the team
//     threads' membership (rule 1.4), the move timer (ruling B1).
//
// Every transition is one storage transaction (the game's actions, its
// deadline, the intended team-thread membership and, at the end, the
// players' records), which also marks the interaction applied. The board
// goes to the public thread and to both team threads; a team thread sees
// only public information plus its own membership notes.

const kindTeamChess = "teamchess"

// tcState is the stored state of one Team Chess game.
type tcState struct {
	// Game is the engine's State (start FEN, queues, every action).
	Game json.RawMessage `json:"game"`
	// TeamThreads are the private threads of White and Black.
	TeamThreads [2]string `json:"team_threads"`
	// InThread are the members the bot keeps in each team thread: the
	// engine's ThreadMembers after the last transition (rule 1.4).
	InThread [2][]string `json:"in_thread"`
	// MoveTime is the per-move time limit (ruling B1); 0: none.
	MoveTime time.Duration `json:"move_time"`
	Started  time.Time     `json:"started"`
	// Creator started the lobby.
	Creator User `json:"creator"`
}

// tcGame is a loaded game: the stored record, its state and the replayed
// engine game.
type tcGame struct {
	g    *storage.Game
	st   *tcState
	game *teamchess.Game
}

func (a *App) teamChessKind() *Kind {
	dmOK := false
	moveOpt := &ui.CommandOption{
		Type: ui.String, Name: "move",
		Description: "A move (e4, Nf3) or a sacrifice: e8=Assassin:xd4, e8=Saboteur:Nf6, e8=RoyalGuard, e8=PoliticalAgent",
		Required:    true, Autocomplete: true, MaxLength: 200,
	}
	return &Kind{
		Name:  kindTeamChess,
		Title: "Team Chess",
		Definitions: []*ui.Command{
			{
				Name:         "teamchess",
				Description:  "Team Chess: teams of commanders, tag-outs, 8th-rank sacrifices, fatigue and sieges",
				DMPermission: &dmOK,
				Options: []*ui.CommandOption{
					{
						Type: ui.Subcommand, Name: "new", Description: "Open a lobby for a new Team Chess game",
						Options: []*ui.CommandOption{{
							Type: ui.String, Name: "move_time",
							Description: "Time for each move, e.g. 30m, 24h, 3d; then the commander is tagged out (default: server's)",
							MaxLength:   20,
						}},
					},
					{Type: ui.Subcommand, Name: "leaderboard", Description: "This server's Team Chess ranking (team wins, then personal win/loss ratio)"},
					{
						Type: ui.Subcommand, Name: "stats", Description: "A player's Team Chess record in this server",
						Options: []*ui.CommandOption{{Type: ui.User, Name: "user", Description: "Whose record (default: yours)"}},
					},
					{Type: ui.Subcommand, Name: "rules", Description: "How to play Team Chess here: commands and sacrifice notation"},
				},
			},
			{Name: "tagout", Description: "Team Chess: tag out at the start of your turn (a personal loss; the next commander takes over)", DMPermission: &dmOK},
			{
				Name: "siege", Description: "Team Chess: decide a siege (the opponent has no legal move and passed)", DMPermission: &dmOK,
				Options: []*ui.CommandOption{
					{Type: ui.Subcommand, Name: "win", Description: "Take the Siege Win (a dishonourable win)"},
					{Type: ui.Subcommand, Name: "continue", Description: "Make one more move to try for checkmate (a failure is a personal fatigue loss)"},
				},
			},
			{Name: "record", Description: "Team Chess: the game record (moves, sacrifices, tag-outs, stagnation counters)", DMPermission: &dmOK},
			{
				Name: "suggest", Description: "Team Chess: suggest a move to your active commander, privately in your team thread", DMPermission: &dmOK,
				Options: []*ui.CommandOption{
					moveOpt,
					{Type: ui.String, Name: "comment", Description: "Why (shown with the suggestion)", MaxLength: 300},
				},
			},
		},
		TopLevel: map[string]Handler{"teamchess": Subcommands("teamchess", map[string]Handler{
			"new":         tcLobbyNew,
			"leaderboard": tcLeaderboard,
			"stats":       tcStats,
			"rules":       tcRules,
		})},
		Thread: map[string]GameHandler{
			"move":    tcMove,
			"tagout":  tcTagOut,
			"resign":  tcResign,
			"siege":   tcSiege,
			"board":   tcBoard,
			"record":  tcRecord,
			"suggest": tcSuggest,
			"draw":    tcDraw,
		},
		Autocomplete: map[string]GameHandler{"move": tcAutocomplete, "suggest": tcAutocomplete},
		Challenge: map[string]Handler{
			"join-white": tcLobbyJoin,
			"join-black": tcLobbyJoin,
			"leave":      tcLobbyLeave,
			"start":      tcLobbyStart,
			"cancel":     tcLobbyCancel,
			"move-up":    tcLobbyMoveUp,
			"double":     tcLobbyDouble,
		},
		Timeout: tcTimeout,
		Summary: tcSummary,
		Private: tcPrivate,
	}
}

// tcPrivate: a suggestion goes to the team thread only, so its command
// (and the move in it) must not show in the channel it is typed in; the
// record and the rules are long answers for the asker.
func tcPrivate(req *Request) bool {
	if req.Type != CommandRequest {
		return false
	}
	switch req.Command {
	case "suggest", "record":
		return true
	case "teamchess":
		return req.Sub == "rules"
	}
	return false
}

// loadTeamChess decodes a stored game and replays it.
func loadTeamChess(g *storage.Game) (*tcGame, error) {
	var st tcState
	if err := json.Unmarshal(g.State, &st); err != nil {
		return nil, fmt.Errorf("game %s: corrupt state: %w", g.ID, err)
	}
	game, err := teamchess.Load(st.Game)
	if err != nil {
		return nil, fmt.Errorf("game %s: replay: %w", g.ID, err)
	}
	return &tcGame{g: g, st: &st, game: game}, nil
}

// sides lists White and Black, for loops over both teams.
var sides = [2]chess.Color{chess.White, chess.Black}

// memberUser turns an engine member into a user (for mentions).
func memberUser(m teamchess.Member) User { return User{ID: m.ID, Name: m.Name} }

// threadMembers returns the IDs the engine allows in side's team thread.
func (t *tcGame) threadMembers(side chess.Color) []string {
	var ids []string
	for _, m := range t.game.ThreadMembers(side) {
		ids = append(ids, m.ID)
	}
	return ids
}

// memberName returns the display name of a member of the game.
func (t *tcGame) memberName(id string) string {
	for _, side := range sides {
		for _, m := range t.game.Members(side) {
			if m.ID == id {
				return label(m)
			}
		}
	}
	return id
}

// membership is one change of a team thread's members.
type membership struct {
	side   chess.Color
	userID string
	add    bool
}

// tcTransition describes one saved transition for its announcement.
type tcTransition struct {
	events  []teamchess.Event
	before  chess.Position // the board before the action
	changes []membership
	actor   string // who acted ("" for the bot's timer)
}

// commit saves a transition of t made at now (by interaction
// interactionID, if any) in one transaction: the engine state, the
// deadline, the intended team-thread membership, the game's end and the
// players' records. It returns the membership changes to apply.
func (a *App) tcCommit(t *tcGame, now time.Time, interactionID string) ([]membership, error) {
	raw, err := t.game.MarshalJSON()
	if err != nil {
		return nil, err
	}
	t.st.Game = raw
	var changes []membership
	if t.game.Phase() == teamchess.Finished {
		t.g.Active = false
		t.g.Deadline = time.Time{}
	} else {
		if t.st.MoveTime > 0 {
			t.g.Deadline = now.Add(t.st.MoveTime)
		}
		// Rule 1.4: the thread holds the active commander and those who may
		// advise. The game's end changes nothing: the threads stay for the
		// teams' post-mortems.
		for _, side := range sides {
			want := t.threadMembers(side)
			have := t.st.InThread[side]
			for _, id := range want {
				if !containsString(have, id) {
					changes = append(changes, membership{side: side, userID: id, add: true})
				}
			}
			for _, id := range have {
				if !containsString(want, id) {
					changes = append(changes, membership{side: side, userID: id})
				}
			}
			t.st.InThread[side] = want
		}
	}
	err = a.saveGame(t.g, t.st, now, interactionID, func(tx storage.Tx) error {
		if sum, over := t.game.Summary(); over {
			return tcTally(tx, t.g.GuildID, sum)
		}
		return nil
	})
	return changes, err
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// tcApply runs one engine action for req, commits it and announces it: the
// answer goes to the channel req came from (the public thread or a team
// thread), the same board to the other two.
func (a *App) tcApply(req *Request, t *tcGame, action func() ([]teamchess.Event, error)) (*Response, error) {
	tr := tcTransition{before: t.game.Position(), actor: req.User.ID}
	events, err := action()
	if err != nil {
		return nil, tcRefusal(err, "")
	}
	tr.events = events
	tr.changes, err = a.tcCommit(t, req.Now, req.InteractionID)
	if err != nil {
		return nil, err
	}
	return publicAnswer(a.tcAnnounce(t, &tr, req.ChannelID))
}

// tcAnnounce applies the membership changes and posts the transition's
// board in every thread of the game except answerIn, whose message it
// returns (answerIn "" posts everywhere and returns nothing useful).
func (a *App) tcAnnounce(t *tcGame, tr *tcTransition, answerIn string) (Message, error) {
	teamNotes := a.tcApplyMembership(t, tr.changes)
	note := a.tcNote(t, tr)
	var answer Message
	answered := false
	// Views: -1 the public thread, 0 White's thread, 1 Black's thread.
	for view := -1; view <= 1; view++ {
		channel := t.g.ThreadID
		content := note.public
		if view >= 0 {
			channel = t.st.TeamThreads[view]
			content = note.team
			if extra := teamNotes[view]; len(extra) > 0 {
				content += "\n" + strings.Join(extra, "\n")
			}
		}
		if channel == "" {
			continue
		}
		msg, err := a.tcMessage(t, view, content)
		if err != nil {
			return Message{}, err
		}
		if channel == answerIn && !answered {
			answer, answered = msg, true
			continue
		}
		if _, err := a.Platform.Send(channel, msg); err != nil {
			a.Log.Warn("posting the Team Chess board failed", "game", t.g.ID, "channel", channel, "err", err)
		}
	}
	if !answered && answerIn != "" {
		// Used elsewhere (cannot happen with the router's channel lookup):
		// answer with the public view.
		return a.tcMessage(t, -1, note.public)
	}
	return answer, nil
}

// tcApplyMembership adds and removes team-thread members on Discord and
// returns, per team, the lines that explain the changes in its thread.
func (a *App) tcApplyMembership(t *tcGame, changes []membership) [2][]string {
	var notes [2][]string
	for _, c := range changes {
		thread := t.st.TeamThreads[c.side]
		name := t.memberName(c.userID)
		if c.add {
			if err := a.Platform.AddThreadMember(thread, c.userID); err != nil {
				a.Log.Warn("adding a team thread member failed", "game", t.g.ID, "user", c.userID, "err", err)
			}
			notes[c.side] = append(notes[c.side], fmt.Sprintf("➡️ **%s** is back in this thread to command (their second command, rule 1.1); they may still not advise (rule 1.4).", name))
			continue
		}
		if err := a.Platform.RemoveThreadMember(thread, c.userID); err != nil {
			a.Log.Warn("removing a team thread member failed", "game", t.g.ID, "user", c.userID, "err", err)
		}
		notes[c.side] = append(notes[c.side], fmt.Sprintf("🚪 **%s** was removed from this thread: a commander with a personal loss may no longer advise (rule 1.4).", name))
	}
	return notes
}

// tcRefusal turns an engine error into the user's message: rule refusals
// and illegal moves are UserErrors; anything else stays internal.
func tcRefusal(err error, text string) error {
	var re *teamchess.RuleError
	if errors.As(err, &re) {
		return Errorf("%s (rule %s).", EngineText(capitalize(re.Reason)), re.Rule)
	}
	var me *chess.MoveError
	if errors.As(err, &me) {
		if text == "" {
			text = me.Input
		}
		return MoveRefused(text, me)
	}
	return err
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tcTimeout: the move timer ran out (ruling B1): the active commander of
// the side to act is tagged out with a personal loss and the next one
// continues the same turn; none left, the other team wins by Fatigue.
func tcTimeout(a *App, g *storage.Game, now time.Time) error {
	t, err := loadTeamChess(g)
	if err != nil {
		return err
	}
	tr := tcTransition{before: t.game.Position()}
	tr.events, err = t.game.Timeout()
	if err != nil {
		return err
	}
	tr.changes, err = a.tcCommit(t, now, "")
	if err != nil {
		return err
	}
	_, err = a.tcAnnounce(t, &tr, "")
	return err
}

// tcSummary is the /games line: the user's side and whose move it is.
func tcSummary(a *App, g *storage.Game, userID string) string {
	t, err := loadTeamChess(g)
	if err != nil {
		return ""
	}
	side, ok := t.game.SideOf(userID)
	if !ok {
		return ""
	}
	s := "you play for " + side.Title()
	turn := t.game.Turn()
	active, ok := t.game.Active(turn)
	if !ok {
		return s
	}
	switch {
	case active.ID == userID:
		s += ", **your move**"
		if t.game.Phase() == teamchess.SiegeDecision {
			s = "you play for " + side.Title() + ", **your siege decision**"
		}
		if !g.Deadline.IsZero() {
			s += fmt.Sprintf(" (time runs out <t:%d:R>)", g.Deadline.Unix())
		}
	case turn == side:
		s += fmt.Sprintf(", %s commands %s now", memberUser(active).Mention(), side.Title())
	default:
		s += fmt.Sprintf(", %s to move", turn.Title())
	}
	return s
}
