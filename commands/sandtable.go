package commands

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sandtable/commands/ui"
	"sandtable/games/sandtable"
	"sandtable/internal/duration"
	"sandtable/render"
	"sandtable/storage"
)

// SandTable Chess in Discord (shared/seeds/000, copied to
// docs/rules/texts/sandtable.txt; issue 7; rulings in
// docs/rules/sandtable.md, the Discord ones in its last section). The rules,
// and what is secret, are decided by games/sandtable; this file runs the
// game flow:
//
//   - the game thread shows only public information: the engine's public
//     view and its public log entries;
//   - secrets (a deployment before both confirm, a Drone order before it
//     resolves) go to their owner only: by direct message, or, when the
//     owner's direct messages are closed, in ephemeral answers started from
//     a button in the thread (SendPrivately);
//   - every transition is one storage transaction that also marks the
//     interaction applied; the whole state (the full position with drafts
//     and Drone orders, private step drafts, pending Drone confirmations)
//     is in the stored game, so a restart loses nothing.
//
// Files: sandtable.go (state, challenge, shared commands, timeout),
// sandtable_deploy.go (secret deployment), sandtable_play.go (/move,
// /step, autocomplete, Drones, private view), sandtable_board.go (images,
// log, counts).

const kindSandTable = "sandtable"

// sandState is the stored state of one SandTable game.
type sandState struct {
	// Position is the full position in the engine's text format, secrets
	// included (deployment drafts, Drone orders, the coin's seed).
	Position string        `json:"position"`
	South    User          `json:"south"`
	North    User          `json:"north"`
	TurnTime time.Duration `json:"turn_time"`
	Started  time.Time     `json:"started"`
	// Prev is the previous turn's log, Cur the current turn's so far (from
	// its "Turn N" entry); older turns are archived in the store's logs (storage.Logs), one
	// entry per turn, for the game record at the end. All
	// entries are kept, secret ones too; readers filter them.
	Prev   []sandtable.Entry `json:"prev,omitempty"`
	Cur    []sandtable.Entry `json:"cur,omitempty"`
	LogSeq int               `json:"log_seq,omitempty"` // turns archived so far
	// Start is the position the game's history is rebuilt from (the
	// engine's format, secrets included): the position right after the
	// reveal, or one an operator loaded (LoadSandTablePosition). StartSeq
	// is LogSeq then: the turn log that follows Start is the archived
	// turns after StartSeq, then the archive tail (sandHistory), and
	// sandtable.Replay rebuilds any turn from them. Empty in games stored
	// before it was kept, which have their log only (ruling D13).
	Start    string `json:"start,omitempty"`
	StartSeq int    `json:"start_seq,omitempty"`
	// DrawOffer is the user ID with a standing draw offer; DrawSeq counts
	// the offers made (drawOffer.seq).
	DrawOffer string `json:"draw_offer,omitempty"`
	DrawSeq   int    `json:"draw_seq,omitempty"`
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
	Outcome *sandOutcome `json:"outcome,omitempty"`
	// StatusMsg is the deployment status message in the game thread.
	StatusMsg string `json:"status_msg,omitempty"`
	// DMClosed records that a direct message to the side failed because
	// its direct messages are closed.
	DMClosed [3]bool `json:"dm_closed"`
	// Panels are the direct messages holding each side's deployment
	// panels (the latest maxPanels), closed when the game ends during
	// Deployment.
	Panels [3][]string `json:"panels,omitempty"`
	// Done is each side's latest click on a stamped control that took
	// effect, so that a repeat of it is told "Already done"
	// (sandtable_repeat.go).
	Done [3]sandDone `json:"done"`
	// DrawAnswer is the latest answer to a draw offer (drawOffer.answered).
	DrawAnswer string `json:"draw_answer,omitempty"`

	archive [][]sandtable.Entry // turns to archive with the next save
}

// sandOutcome is an end decided by the bot: Reason "time" (Winner won on
// time) or "cancelled" (nobody deployed in time, no winner).
type sandOutcome struct {
	Winner sandtable.Side `json:"winner"`
	Reason string         `json:"reason"`
	Turn   int            `json:"turn"`
}

func (a *App) sandTableKind() *Kind {
	presets := []*ui.Choice{}
	for _, n := range sandtable.PresetNames() {
		presets = append(presets, &ui.Choice{Name: n, Value: n})
	}
	gameOpt := &ui.CommandOption{Type: ui.String, Name: "game",
		Description: "The game ID (in the thread's footer); needed in direct messages when you deploy in several games", MaxLength: 20}
	dmOK := true
	return &Kind{
		Name:  kindSandTable,
		Title: "SandTable Chess",
		Definitions: []*ui.Command{{
			Name:         "sandtable",
			Description:  "SandTable Chess: a 20x20 war game with secret deployment and Drones",
			DMPermission: &dmOK,
			Options: []*ui.CommandOption{
				{
					Type: ui.Subcommand, Name: "challenge", Description: "Challenge someone to a game of SandTable Chess",
					Options: []*ui.CommandOption{
						{Type: ui.User, Name: "opponent", Description: "Who you want to play", Required: true},
						{Type: ui.String, Name: "turn_time", Description: "Time for each turn (and for deployment), e.g. 30m, 24h, 3d (default: the server's setting)", MaxLength: 20},
					},
				},
				{Type: ui.Subcommand, Name: "rules", Description: "A short summary of the rules, the board's icons and the notation"},
				{
					Type: ui.Subcommand, Name: "deploy", Description: "Your secret deployment (private): show it, or change it with one option",
					Options: []*ui.CommandOption{
						{Type: ui.Attachment, Name: "file", Description: "A layout file in the text format (see /sandtable rules)"},
						{Type: ui.String, Name: "preset", Description: "Start from a preset", Choices: presets},
						{Type: ui.Boolean, Name: "random", Description: "A random valid deployment"},
						{Type: ui.String, Name: "edit", Description: "Changes separated by ';', e.g. place T c3; move c3-d3; remove d3", MaxLength: 1000},
						gameOpt,
					},
				},
			},
		}, {
			Name:         "step",
			Description:  "SandTable: add Infantry steps to your private draft for this turn, then Commit",
			DMPermission: &dmPermission,
			Options: []*ui.CommandOption{{
				Type: ui.String, Name: "step", Description: "One or more Infantry steps, e.g. d4-d5 (added after your draft's steps)",
				Required: true, Autocomplete: true, MaxLength: 200,
			}},
		}},
		TopLevel: map[string]Handler{"sandtable": Subcommands("sandtable", map[string]Handler{
			"challenge": sandChallenge,
			"rules":     sandRules,
			"deploy":    sandDeployCommand,
		})},
		Thread: map[string]GameHandler{
			"move":   sandMove,
			"step":   sandStep,
			"resign": sandResign,
			"draw":   drawCommand(sandDrawAction),
			"board":  sandBoard,
		},
		Autocomplete: map[string]GameHandler{"move": sandMoveAutocomplete, "step": sandStepAutocomplete},
		Components: map[string]GameHandler{
			"dep-open":      sandDeployOpen,
			"dep-preset":    sandDeployButton,
			"dep-random":    sandDeployButton,
			"dep-clear":     sandDeployButton,
			"dep-confirm":   sandOnce(sandDeployButton),
			"dep-unconfirm": sandOnce(sandDeployButton),
			"dep-paste":     sandDeployPaste,
			"dep-edit":      sandOnce(sandDeployEdit),
			"dep-text":      sandDeployText,
			"drone":         sandDroneButton,
			"drone-confirm": sandOnce(sandDroneConfirm),
			"drone-cancel":  sandOnce(sandDroneCancel),
			"step-commit":   sandOnce(sandStepCommit),
			"step-undo":     sandOnce(sandStepUndo),
			"step-discard":  sandOnce(sandStepDiscard),
			"private":       sandPrivateView,
			"draw-accept":   drawButton(sandDrawAction),
			"draw-decline":  drawButton(sandDrawAction),
		},
		Modals: map[string]GameHandler{
			"dep-layout":  sandDeployLayout,
			"dep-edits":   sandOnce(sandDeployEdits),
			"drone-order": sandDroneOrder,
		},
		Challenge: challengeHandlers(startSandTable),
		Timeout:   sandTimeout,
		Summary:   sandSummary,
		Private:   sandPrivate,
	}
}

// sandPrivate: answers that may carry a secret, or a private draft, are
// private from the first byte (see Kind.Private).
func sandPrivate(req *Request) bool {
	switch req.Type {
	case CommandRequest:
		switch req.Command {
		case "sandtable":
			return req.Sub == "deploy" || req.Sub == "rules"
		case "step":
			return true
		case "move":
			return isDroneText(req.Str("move"))
		}
	case ModalRequest:
		id, err := ParseCustomID(req.CustomID)
		return err == nil && (strings.HasPrefix(id.Action, "dep-") || strings.HasPrefix(id.Action, "drone-"))
	}
	return false
}

func sandChallenge(a *App, req *Request) (*Response, error) {
	turnTime, err := a.MoveTimeOption(req, "turn_time")
	if err != nil {
		return nil, err
	}
	opp := req.UserOpt("opponent")
	if opp == nil {
		return nil, Errorf("Name the player you challenge in the opponent option.")
	}
	k := a.kinds[kindSandTable]
	desc := []string{
		fmt.Sprintf("%s plays South, %s North; a coin decides who moves first once both have deployed in secret.", req.User.Mention(), opp.Mention()),
		fmt.Sprintf("Time for the deployment and for each turn: %s.", duration.Format(turnTime)),
	}
	return a.openChallenge(req, k, opp, map[string]string{"turn_time": turnTime.String()}, desc)
}

func randomUint64() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	return binary.LittleEndian.Uint64(b[:])
}

// startSandTable starts an accepted challenge: the challenger plays South,
// the opponent North. It creates the thread, posts the public deployment
// status and sends each player the private deployment panel.
func startSandTable(a *App, req *Request, ch *Challenge) (string, error) {
	turnTime, err := ch.Duration("turn_time")
	if err != nil {
		return "", err
	}
	pos := sandtable.NewGame(randomUint64())
	st := &sandState{South: ch.Challenger, North: ch.Opponent, TurnTime: turnTime, Started: req.Now}
	g, err := a.newGameThread(req, ch, kindSandTable, "SandTable", st.South, st.North, turnTime)
	if err != nil {
		return "", err
	}
	unlock := a.lock(g.ID)
	defer unlock()
	if err := a.sandSave(g, st, pos, req.Now, ""); err != nil {
		return "", err
	}
	a.addPlayers(g.ThreadID, st.South, st.North)
	mid, err := a.Platform.Send(g.ThreadID, a.sandStatusMessage(g, st, pos, fmt.Sprintf("%s (South) vs %s (North): deploy your pieces in secret.", st.South.Mention(), st.North.Mention())))
	if err != nil {
		return "", fmt.Errorf("posting the deployment status: %w", err)
	}
	st.StatusMsg = mid
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		panel, err := a.deployPanel(g, st, pos, side, "The game has begun: deploy your pieces here, in secret.")
		if err != nil {
			return "", err
		}
		id, err := a.Platform.DM(st.player(side).ID, panel)
		if err == nil {
			st.addPanel(side, id)
		}
		if err != nil {
			if !errors.Is(err, ErrDMClosed) {
				a.Log.Warn("sending the deployment panel failed", "game", g.ID, "user", st.player(side).ID, "err", err)
			}
			st.DMClosed[side] = true
			if _, err := a.Platform.Send(g.ThreadID, Message{Content: fmt.Sprintf("%s, I cannot send you direct messages (they are closed to me), so your deployment runs here, in private: press **Deploy (private)** on the message above. Only you will see it.", st.player(side).Mention())}); err != nil {
				a.Log.Warn("posting the DM notice failed", "game", g.ID, "err", err)
			}
		}
	}
	if err := a.sandSave(g, st, pos, req.Now, ""); err != nil {
		return "", err
	}
	return g.ThreadID, nil
}

// loadSand decodes a stored SandTable game.
func loadSand(g *storage.Game) (*sandState, *sandtable.Position, error) {
	var st sandState
	if err := json.Unmarshal(g.State, &st); err != nil {
		return nil, nil, fmt.Errorf("game %s: corrupt state: %w", g.ID, err)
	}
	pos, err := sandtable.ParsePosition(st.Position)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: stored position: %w", g.ID, err)
	}
	return &st, pos, nil
}

// LoadSandTable decodes a stored SandTable game: its full position
// (secrets included) and the log of its previous and current turn, oldest
// first (secret entries included; filter with sandtable.FilterLog). For
// tests and tools; the game thread shows SandTablePublicBoard of these.
func LoadSandTable(g *storage.Game) (*sandtable.Position, []sandtable.Entry, error) {
	st, pos, err := loadSand(g)
	if err != nil {
		return nil, nil, err
	}
	return pos, append(append([]sandtable.Entry{}, st.Prev...), st.Cur...), nil
}

// sandSave writes the game, and the turns to archive, in one transaction;
// when interactionID is set, it also marks it applied and refuses a second
// application.
func (a *App) sandSave(g *storage.Game, st *sandState, pos *sandtable.Position, now time.Time, interactionID string) error {
	st.Position = pos.Format()
	err := a.saveGame(g, st, now, interactionID, func(tx storage.Tx) error {
		for i, turn := range st.archive {
			if err := tx.Logs().Put(g.ID, st.LogSeq-len(st.archive)+i+1, turn); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		st.archive = nil
	}
	return err
}

// record adds an action's log entries: a "Turn N" entry starts a new
// current turn, and the previous one is archived.
func (st *sandState) record(entries []sandtable.Entry) {
	for _, e := range entries {
		if e.Kind == sandtable.EntryDraft {
			continue
		}
		if e.Kind == sandtable.EntryTurn && len(st.Cur) > 0 {
			if len(st.Prev) > 0 {
				st.archive = append(st.archive, st.Prev)
				st.LogSeq++
			}
			st.Prev, st.Cur = st.Cur, nil
		}
		st.Cur = append(st.Cur, e)
	}
}

// sandMark is what a transition compares to see whether the turn passed.
type sandMark struct {
	turn  int
	phase sandtable.Phase
	side  sandtable.Side
}

func markOf(p *sandtable.Position) sandMark { return sandMark{p.Turn(), p.Phase(), p.ToMove()} }

// sandApply applies one action for the game and records its log. After it:
// a finished game is inactive; a new turn (or the reveal) restarts the
// clock, and drops draw offers, step drafts and unconfirmed Drone orders.
func (a *App) sandApply(g *storage.Game, st *sandState, pos *sandtable.Position, act sandtable.Action, now time.Time) ([]sandtable.Entry, error) {
	before := markOf(pos)
	entries, err := pos.Apply(act)
	if err != nil {
		return nil, err
	}
	st.record(entries)
	if before.phase == sandtable.PhaseDeployment && pos.Turn() > 0 {
		st.Start, st.StartSeq = pos.Format(), st.LogSeq // the reveal
	}
	st.afterTransition(g, pos, before, now)
	return entries, nil
}

// sandHistory returns what the game's history is rebuilt from: the start
// position and the turn log that follows it (secret entries included;
// sandtable.Replay). start is nil for a game stored before starts were
// kept, or ended in Deployment.
func (a *App) sandHistory(g *storage.Game, st *sandState) (start *sandtable.Position, log []sandtable.Entry, err error) {
	if st.Start == "" {
		return nil, nil, nil
	}
	start, err = sandtable.ParsePosition(st.Start)
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: stored start position: %w", g.ID, err)
	}
	err = a.view(func(tx storage.Tx) error {
		return tx.Logs().Each(g.ID, func(seq int, raw []byte) error {
			if seq <= st.StartSeq {
				return nil
			}
			var turn []sandtable.Entry
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
	return start, append(log, st.archiveTail()...), nil
}

func (st *sandState) afterTransition(g *storage.Game, pos *sandtable.Position, before sandMark, now time.Time) {
	if pos.Phase() == sandtable.PhaseFinished {
		st.DrawOffer = ""
		st.Steps, st.Drone = [3][]string{}, [3]string{}
		g.Active = false
		g.Deadline = time.Time{}
		return
	}
	after := markOf(pos)
	if after.turn != before.turn || after.side != before.side {
		g.Deadline = now.Add(st.TurnTime)
		st.DrawOffer = ""
		st.Steps, st.Drone = [3][]string{}, [3]string{}
	}
	if before.phase == sandtable.PhaseMain && after.phase != sandtable.PhaseMain {
		st.Steps = [3][]string{}
	}
}

func (st *sandState) player(side sandtable.Side) User {
	if side == sandtable.North {
		return st.North
	}
	return st.South
}

// sideOf returns the user's side; ok is false for non-players.
func (st *sandState) sideOf(userID string) (sandtable.Side, bool) {
	switch userID {
	case st.South.ID:
		return sandtable.South, true
	case st.North.ID:
		return sandtable.North, true
	}
	return sandtable.NoSide, false
}

// describe is "<@id> (South)".
func (st *sandState) describe(side sandtable.Side) string {
	if side != sandtable.South && side != sandtable.North {
		return "nobody"
	}
	return fmt.Sprintf("%s (%s)", st.player(side).Mention(), side)
}

// over reports whether the game has ended, by the rules or by the bot.
func (st *sandState) over(pos *sandtable.Position) bool {
	return st.Outcome != nil || pos.Phase() == sandtable.PhaseFinished
}

// resultLine says how the game ended, for people.
func (st *sandState) resultLine(pos *sandtable.Position) string {
	if o := st.Outcome; o != nil {
		switch {
		case o.Reason == "cancelled":
			return "Neither player confirmed a deployment in time: the game is cancelled, without a result."
		case o.Turn == 0:
			return fmt.Sprintf("%s wins on time: %s did not confirm a deployment in time.", st.describe(o.Winner), st.describe(o.Winner.Opp()))
		default:
			return fmt.Sprintf("%s wins on time: %s did not finish turn %d in time.", st.describe(o.Winner), st.describe(o.Winner.Opp()), o.Turn)
		}
	}
	if pos.Phase() != sandtable.PhaseFinished {
		return ""
	}
	r := pos.Result()
	if r.Winner == sandtable.NoSide {
		t := pos.ResultText() // "draw by agreement", "draw, both players ...", "draw by deadlock, ..."
		return strings.ToUpper(t[:1]) + t[1:] + "."
	}
	return fmt.Sprintf("%s wins: %s.", st.describe(r.Winner), strings.TrimPrefix(pos.ResultText(), r.Winner.String()+" wins, "))
}

// sandLoadPlayer loads the game for an action of req's user. It refuses
// non-players and finished games, and, when needTurn, the player not to
// move. It returns the player's side.
func sandLoadPlayer(g *storage.Game, req *Request, needTurn bool) (*sandState, *sandtable.Position, sandtable.Side, error) {
	st, pos, err := loadSand(g)
	if err != nil {
		return nil, nil, 0, err
	}
	if !g.Active || st.over(pos) {
		return nil, nil, 0, Errorf("This game is over. %s", st.resultLine(pos))
	}
	side, ok := st.sideOf(req.User.ID)
	if !ok {
		return nil, nil, 0, Errorf("You are not playing in this game; only %s and %s are.", st.South.Mention(), st.North.Mention())
	}
	if needTurn {
		if pos.Phase() == sandtable.PhaseDeployment {
			return nil, nil, 0, Errorf("The game is still in Deployment: deploy in your private panel (press **Deploy (private)** in the game thread, or use /sandtable deploy).")
		}
		if pos.ToMove() != side {
			return nil, nil, 0, Errorf("It is not your turn: %s is to move (%s).", st.describe(pos.ToMove()), pos.Phase().Title())
		}
	}
	return st, pos, side, nil
}

// sandRuleError turns an engine error into the message for the player.
func sandRuleError(what string, err error) error {
	var re *sandtable.RuleError
	var se *sandtable.SyntaxError
	switch {
	case errors.As(err, &re):
		return Errorf("%s is not allowed: %s. Nothing changed.", what, EngineText(re.Error()))
	case errors.As(err, &se):
		return Errorf("%s cannot be read: %s. Nothing changed.", what, EngineText(se.Msg))
	}
	return err
}

// sandCommit saves a transition made by req and answers with the public
// board carrying note.
func (a *App) sandCommit(req *Request, g *storage.Game, st *sandState, pos *sandtable.Position, note string) (*Response, error) {
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	return publicAnswer(a.sandMessage(g, st, pos, note))
}

// sandMessage is the public message of the game: the deployment status
// during Deployment, else the board.
func (a *App) sandMessage(g *storage.Game, st *sandState, pos *sandtable.Position, note string) (Message, error) {
	if pos.Phase() == sandtable.PhaseDeployment || pos.Turn() == 0 {
		return a.sandStatusMessage(g, st, pos, note), nil
	}
	return a.sandBoardMessage(g, st, pos, note)
}

const (
	colorSouth = 0x2F6FD6
	colorNorth = 0xE8892B
)

// sandStatusMessage is the public Deployment message: who has confirmed,
// the time left, and the button that opens a private deployment panel.
func (a *App) sandStatusMessage(g *storage.Game, st *sandState, pos *sandtable.Position, note string) Message {
	state := func(side sandtable.Side) string {
		switch {
		case pos.Turn() > 0 || pos.Confirmed(side):
			return st.player(side).Mention() + ": **confirmed** ✅"
		case st.over(pos):
			return st.player(side).Mention() + ": not confirmed"
		}
		return st.player(side).Mention() + ": deploying…"
	}
	e := &ui.Card{
		Title: "SandTable Chess: Deployment",
		Description: "Each player places 2 Bases, 4 Tanks, 2 Airplanes, 30 Infantry, 15 Mines and 15 Anti-Air in secret " +
			"(South on ranks 1–9, North on 12–20). Your deployment panel comes by direct message; **Deploy (private)** below opens it again. " +
			"Nothing of a deployment is shown here until both are confirmed; then both are revealed together and a coin decides who moves first.",
		Color: ColorChallenge,
		Fields: []*ui.Field{
			{Name: "South", Value: state(sandtable.South), Inline: true},
			{Name: "North", Value: state(sandtable.North), Inline: true},
		},
		Footer: "Game " + g.ID + " · /sandtable rules · /resign",
	}
	switch {
	case pos.Turn() > 0:
		e.Description = "Each player placed their pieces in secret; no deployment was shown here before both were confirmed."
	case st.over(pos):
		e.Description = "The game ended during Deployment: no deployment is revealed."
	}
	var comps []ui.Row
	switch {
	case st.over(pos):
		e.Color = ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: st.resultLine(pos)})
		e.Footer = "Game " + g.ID + " · /sandtable rules"
	case pos.Phase() == sandtable.PhaseDeployment:
		if !g.Deadline.IsZero() {
			e.Fields = append(e.Fields, &ui.Field{Name: "Time", Value: fmt.Sprintf(
				"Deployment time runs out <t:%d:R>. Then a player who has not confirmed loses on time (if neither has, the game is cancelled).", g.Deadline.Unix())})
		}
		comps = []ui.Row{{
			GameButton(g, "dep-open", "Deploy (private)", ui.Primary),
		}}
	default:
		e.Fields = append(e.Fields, &ui.Field{Name: "Deployment over", Value: "Both deployments were revealed: see the board below."})
	}
	return Message{Content: note, Cards: []*ui.Card{e}, Rows: comps}
}

// sandBoardMessage is the public board after Deployment: the image of the
// public view, whose turn and phase it is, each side's counts and the
// public log of the last turn (issue 7 point 3).
func (a *App) sandBoardMessage(g *storage.Game, st *sandState, pos *sandtable.Position, note string) (Message, error) {
	log := append(append([]sandtable.Entry{}, st.Prev...), st.Cur...)
	file, err := a.sandPublicFile(pos, log)
	if err != nil {
		return Message{}, err
	}
	name := func(s sandtable.Side) string { return st.describe(s) }
	lines := sandLogLines(sandtable.FilterLog(log, sandtable.NoSide), name)
	title := fmt.Sprintf("SandTable Chess · turn %d", pos.Turn())
	e := &ui.Card{
		Title:       title,
		Description: clipLines(lines, 3500),
		Image:       "board.png",
		Fields: []*ui.Field{
			{Name: "South: " + EscapeText(st.South.Name, 0), Value: sandCountsText(pos.Counts(sandtable.South)), Inline: true},
			{Name: "North: " + EscapeText(st.North.Name, 0), Value: sandCountsText(pos.Counts(sandtable.North)), Inline: true},
		},
	}
	if n := pos.Counts(sandtable.NoSide); n.Tanks+n.Airplanes > 0 {
		e.Fields = append(e.Fields, &ui.Field{Name: "Neutral Vehicles (no crew)", Value: Plural(n.Tanks, "Tank", "Tanks") + ", " + Plural(n.Airplanes, "Airplane", "Airplanes"), Inline: true})
	}
	bottom := "South"
	if pos.ToMove() == sandtable.North {
		bottom = "North"
	}
	e.Footer = fmt.Sprintf("Game %s · %s at the bottom · /move in this thread · /sandtable rules", g.ID, bottom)
	if st.over(pos) {
		e.Footer = fmt.Sprintf("Game %s · %s at the bottom · /sandtable rules", g.ID, bottom)
	}
	files := []*ui.File{file}
	var comps []ui.Row
	if !st.over(pos) {
		e.Color = colorSouth
		if pos.ToMove() == sandtable.North {
			e.Color = colorNorth
		}
		var toMove string
		switch {
		case pos.Phase() == sandtable.PhaseMain:
			toMove = fmt.Sprintf("%s · **Main**: move one Vehicle, or any number of Infantry one step each (/move, or /step to build a private draft).", st.describe(pos.ToMove()))
		case pos.Phase() == sandtable.PhasePostTurn && pos.Hazards(pos.ToMove()) >= sandtable.HazardCap:
			toMove = fmt.Sprintf("%s · **PostTurn**: %s left (one per Base). %s has %d Mines and Anti-Air, the cap: only a Drone can be used (**Order a Drone (private)**).",
				st.describe(pos.ToMove()), Plural(pos.HazardUses(), "hazard use", "hazard uses"), pos.ToMove(), pos.Hazards(pos.ToMove()))
		case pos.Phase() == sandtable.PhasePostTurn:
			toMove = fmt.Sprintf("%s · **PostTurn**: %s left (one per Base). Place a Mine or an Anti-Air next to one of your Infantry on the ground (/move Mf5, /move Af5), or order a Drone in secret with **Order a Drone (private)**.",
				st.describe(pos.ToMove()), Plural(pos.HazardUses(), "hazard use", "hazard uses"))
		}
		if !g.Deadline.IsZero() {
			toMove += fmt.Sprintf("\nTime for this turn runs out <t:%d:R>.", g.Deadline.Unix())
		}
		e.Fields = append(e.Fields, &ui.Field{Name: "To move", Value: toMove})
		if st.DrawOffer != "" {
			e.Fields = append(e.Fields, &ui.Field{Name: "Draw offer", Value: fmt.Sprintf("<@%s> offers a draw (/draw accept or /draw decline).", st.DrawOffer)})
		}
		row := ui.Row{}
		if pos.Phase() == sandtable.PhasePostTurn {
			row = append(row, GameArgButton(g, "drone", strconv.Itoa(pos.Turn()), "Order a Drone (private)", ui.Primary))
		}
		row = append(row, GameButton(g, "private", "My private view", ui.Secondary))
		comps = []ui.Row{row}
	} else {
		e.Color = ColorOver
		e.Fields = append(e.Fields, &ui.Field{Name: "Result", Value: st.resultLine(pos)})
		record, err := a.sandRecord(g, st, pos)
		if err != nil {
			return Message{}, err
		}
		files = append(files, &ui.File{Name: "sandtable-" + g.ID + ".txt", ContentType: "text/plain", Data: []byte(record)})
	}
	return Message{Content: note, Cards: []*ui.Card{e}, Files: files, Rows: comps}, nil
}

// sandRecord is the public record of a finished game: every public log
// entry, then the final position's public view in the engine's format.
func (a *App) sandRecord(g *storage.Game, st *sandState, pos *sandtable.Position) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# SandTable Chess, game %s\n# South: %s\n# North: %s\n# Started: %s\n# Result: %s\n\n",
		g.ID, st.South.Name, st.North.Name, st.Started.UTC().Format(time.RFC3339), stripMentions(st, st.resultLine(pos)))
	write := func(entries []sandtable.Entry) {
		for _, e := range sandtable.FilterLog(entries, sandtable.NoSide) {
			b.WriteString(e.String())
			b.WriteByte('\n')
		}
	}
	err := a.view(func(tx storage.Tx) error {
		return tx.Logs().Each(g.ID, func(_ int, raw []byte) error {
			var turn []sandtable.Entry
			if err := json.Unmarshal(raw, &turn); err != nil {
				return err
			}
			write(turn)
			return nil
		})
	})
	if err != nil {
		return "", err
	}
	write(st.archiveTail())
	b.WriteString("\n")
	b.WriteString(pos.View(sandtable.NoSide).Format())
	return b.String(), nil
}

// archiveTail is the log not yet in the archive documents.
func (st *sandState) archiveTail() []sandtable.Entry {
	var out []sandtable.Entry
	for _, t := range st.archive {
		out = append(out, t...)
	}
	out = append(out, st.Prev...)
	return append(out, st.Cur...)
}

// stripMentions replaces the players' mentions by their names, for text
// files.
func stripMentions(st *sandState, s string) string {
	return strings.NewReplacer(st.South.Mention(), st.South.Name, st.North.Mention(), st.North.Name).Replace(s)
}

func sandBoard(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, err := loadSand(g)
	if err != nil {
		return nil, err
	}
	return publicAnswer(a.sandMessage(g, st, pos, ""))
}

func sandResign(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandLoadPlayer(g, req, false)
	if err != nil {
		return nil, err
	}
	return a.sandEnd(req, g, st, pos, sandtable.Action{Kind: sandtable.ActResign, Side: side}, "Resigning", req.User.Mention()+" resigned.")
}

// sandEnd ends the game with act (a resignation, an agreed draw) for req:
// it saves it and answers with the public board, whose note is what
// happened followed by the result, and closes the deployment status when
// the game ended in Deployment. label names act in a refusal.
func (a *App) sandEnd(req *Request, g *storage.Game, st *sandState, pos *sandtable.Position, act sandtable.Action, label, what string) (*Response, error) {
	wasDeploying := pos.Phase() == sandtable.PhaseDeployment
	if _, err := a.sandApply(g, st, pos, act, req.Now); err != nil {
		return nil, sandRuleError(label, err)
	}
	resp, err := a.sandCommit(req, g, st, pos, what+" "+st.resultLine(pos))
	if err == nil && wasDeploying {
		a.sandStatusEdit(g, st, pos)
		a.sandClosePanels(g, st, pos)
	}
	return resp, err
}

// maxPanels is how many deployment panels per player the bot remembers.
const maxPanels = 5

// addPanel remembers the direct message id holding side's panel.
func (st *sandState) addPanel(side sandtable.Side, id string) {
	st.Panels[side] = append(st.Panels[side], id)
	if n := len(st.Panels[side]); n > maxPanels {
		st.Panels[side] = st.Panels[side][n-maxPanels:]
	}
}

// sandClosePanels edits both players' deployment panels once the game has
// ended during Deployment: no controls, and the result (best effort; a
// panel shown ephemerally cannot be edited, and its controls are refused).
func (a *App) sandClosePanels(g *storage.Game, st *sandState, pos *sandtable.Position) {
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		m, err := a.deployPanel(g, st, pos, side, "")
		if err != nil {
			a.Log.Warn("closing the deployment panels failed", "game", g.ID, "err", err)
			return
		}
		for _, id := range st.Panels[side] {
			if err := a.Platform.EditDM(st.player(side).ID, id, m); err != nil {
				a.Log.Warn("closing a deployment panel failed", "game", g.ID, "side", side, "err", err)
			}
		}
	}
}

// sandDrawAction: a draw is agreed (offer, then accept or decline); the
// offer lapses when the turn passes. SandTable has no draw claims.
func sandDrawAction(a *App, req *Request, g *storage.Game, action string) (*Response, error) {
	if action == "claim" {
		return nil, Errorf("SandTable Chess has no draw claims: a game is drawn only by agreement (/draw offer), when one action makes both players meet a victory condition, or after %d turns in a row in which nobody could act (ruling 9).", sandtable.DeadlockTurns)
	}
	if st, _, err := loadSand(g); err != nil {
		return nil, err
	} else if r := drawRepeat(req, st.DrawAnswer, st.DrawOffer); r != nil {
		return r, nil
	}
	st, pos, side, err := sandLoadPlayer(g, req, false)
	if err != nil {
		return nil, err
	}
	return drawOffer{
		offer: &st.DrawOffer, seq: &st.DrawSeq, opp: st.player(side.Opp()), answered: &st.DrawAnswer,
		offerNote: "(The offer lapses when the turn passes.)", noOfferNote: "(offers lapse when the turn passes)",
		save: func() error { return a.sandSave(g, st, pos, req.Now, req.InteractionID) },
		accept: func() (*Response, error) {
			return a.sandEnd(req, g, st, pos, sandtable.Action{Kind: sandtable.ActDraw}, "A draw", req.User.Mention()+" accepted the draw offer.")
		},
	}.answer(req, g, action)
}

// sandStatusEdit brings the thread's deployment status message up to date
// (best effort: the message may have been deleted).
func (a *App) sandStatusEdit(g *storage.Game, st *sandState, pos *sandtable.Position) {
	if st.StatusMsg == "" {
		return
	}
	if err := a.Platform.Edit(g.ThreadID, st.StatusMsg, a.sandStatusMessage(g, st, pos, "")); err != nil {
		a.Log.Warn("editing the deployment status failed", "game", g.ID, "err", err)
	}
}

// sandTimeout ends a game whose time ran out (rulings in
// docs/rules/sandtable.md, "In Discord"): in play the side to move loses on
// time, whatever its phase; in Deployment a player who has not confirmed
// loses to one who has, and if neither has the game is cancelled.
func sandTimeout(a *App, g *storage.Game, now time.Time) error {
	st, pos, err := loadSand(g)
	if err != nil {
		return err
	}
	if st.over(pos) {
		g.Active, g.Deadline = false, time.Time{}
		return a.sandSave(g, st, pos, now, "")
	}
	o := &sandOutcome{Reason: "time", Turn: pos.Turn()}
	var note string
	if pos.Phase() == sandtable.PhaseDeployment {
		switch {
		case pos.Confirmed(sandtable.South) && !pos.Confirmed(sandtable.North):
			o.Winner = sandtable.South
		case pos.Confirmed(sandtable.North) && !pos.Confirmed(sandtable.South):
			o.Winner = sandtable.North
		default:
			o.Reason = "cancelled"
		}
		note = "The deployment time ran out."
	} else {
		o.Winner = pos.ToMove().Opp()
		note = fmt.Sprintf("%s ran out of time.", st.describe(pos.ToMove()))
	}
	st.Outcome = o
	st.DrawOffer = ""
	st.Steps, st.Drone = [3][]string{}, [3]string{}
	g.Active, g.Deadline = false, time.Time{}
	if err := a.sandSave(g, st, pos, now, ""); err != nil {
		return err
	}
	if pos.Phase() == sandtable.PhaseDeployment {
		a.sandStatusEdit(g, st, pos)
		a.sandClosePanels(g, st, pos)
	}
	msg, err := a.sandMessage(g, st, pos, note+" "+st.resultLine(pos))
	if err != nil {
		return err
	}
	_, err = a.Platform.Send(g.ThreadID, msg)
	return err
}

func sandSummary(a *App, g *storage.Game, userID string) string {
	st, pos, err := loadSand(g)
	if err != nil {
		return ""
	}
	side, ok := st.sideOf(userID)
	if !ok {
		return ""
	}
	s := fmt.Sprintf("vs %s, you play %s", st.player(side.Opp()).Mention(), side)
	switch {
	case pos.Phase() == sandtable.PhaseDeployment && !pos.Confirmed(side):
		s += ", **deploy and confirm**"
	case pos.Phase() == sandtable.PhaseDeployment:
		s += ", deployment confirmed, waiting for your opponent"
	case pos.ToMove() == side:
		s += fmt.Sprintf(", **your turn** (turn %d, %s)", pos.Turn(), pos.Phase().Title())
	default:
		return s
	}
	if !g.Deadline.IsZero() {
		s += fmt.Sprintf(", time runs out <t:%d:R>", g.Deadline.Unix())
	}
	return s
}

// LoadSandTablePosition replaces the position of the active SandTable game
// gameID with text, a position in the engine's format (automatic phases are
// advanced as on loading; see docs/rules/sandtable.md), for tests and the
// playground. Players and thread stay; the turn's clock restarts; drafts,
// offers and the recent log are cleared (turns archived before stay in the
// game record); the new board is posted in the game thread.
func (a *App) LoadSandTablePosition(gameID, text string) error {
	unlock := a.lock(gameID)
	defer unlock()
	g, err := a.snapshot(gameID)
	if err != nil {
		return err
	}
	if g.Kind != kindSandTable || !g.Active {
		return fmt.Errorf("game %s is not an active SandTable game", gameID)
	}
	st, _, err := loadSand(g)
	if err != nil {
		return err
	}
	pos, err := sandtable.ParsePosition(text)
	if err != nil {
		return err
	}
	now := a.Now()
	st.Prev, st.Cur = nil, nil
	st.record(pos.Advance())
	st.Start, st.StartSeq = "", 0
	if pos.Phase() != sandtable.PhaseDeployment {
		st.Start, st.StartSeq = pos.Format(), st.LogSeq
	}
	st.DrawOffer, st.Steps, st.Drone = "", [3][]string{}, [3]string{}
	st.afterTransition(g, pos, sandMark{turn: -1}, now)
	if err := a.sandSave(g, st, pos, now, ""); err != nil {
		return err
	}
	msg, err := a.sandMessage(g, st, pos, "The position was set up by an operator.")
	if err != nil {
		return err
	}
	_, err = a.Platform.Send(g.ThreadID, msg)
	return err
}

// sandRulesText is /sandtable rules: the rules in short, the notation and
// where the rulings are (shared/seeds/000, also docs/rules/texts/sandtable.txt,
// and docs/rules/sandtable.md).
const sandRulesText = `**SandTable Chess**: a 20x20 war game for two (South, ranks 1–10, against North, ranks 11–20).
**Deployment**: each side places 2 Bases, 4 Tanks, 2 Airplanes, 30 Infantry, 15 Mines and 15 Anti-Air in secret on its ranks (South 1–9, North 12–20), every Mine and Anti-Air next to one of its Infantry. Vehicles start without crew (neutral). Both deployments are revealed together; a coin decides who moves first.
**A turn**: PreTurn (your pending Drones strike), **Main** (one Vehicle, or any number of Infantry one step each; no passing), **PostTurn** (one hazard use per Base you have: a Mine or an Anti-Air next to your Infantry on the ground, or a secret Drone).
**Infantry** step in 8 directions; entering an enemy piece destroys it, entering a Vehicle crews it (up to 4), entering an enemy Vehicle captures it. **Vehicles** need crew: Tanks move straight orthogonally, Airplanes straight in any direction; after a move one crew member may step out.
**Hazards**: a Mine destroys a Tank entering it, an Anti-Air an Airplane. A **Drone** (spotter: your Infantry; target: within 2 squares, not a Base) destroys whatever stands there at the start of your next turn, unless its spotter is destroyed first; it leaves a Crater for that turn.
**You win** when the enemy has no Base or no Infantry left, or you control every Tank or every Airplane on the board. Draws by agreement only (/draw offer). The side to move loses when its turn's time runs out.
**Notation** (/move): ` + "`d4-d5 e4-e5`" + ` Infantry steps · ` + "`Tc3-c8`" + ` Tank · ` + "`Pa1-h8/d9`" + ` Airplane, a crew member steps out to d9 · ` + "`Mf5` `Af5`" + ` Mine, Anti-Air. /step builds an Infantry turn privately. Drones: **Order a Drone (private)** on the board.
**Rulings**: every gap in the rule text is decided in docs/rules/sandtable.md of the bot's source (rulings 1–9, G1–G22 and the Discord rulings D1–D13).`

func sandRules(a *App, req *Request) (*Response, error) {
	var buf bytes.Buffer
	if err := render.LegendPNG(&buf); err != nil {
		return nil, err
	}
	return &Response{Ephemeral: true, Message: Message{
		Cards: []*ui.Card{
			{Title: "SandTable Chess: the rules in short", Description: sandRulesText, Color: ColorChallenge},
			{Title: "What the board shows", Description: render.LegendText, Color: ColorChallenge, Image: "legend.png"},
		},
		Files: []*ui.File{{Name: "legend.png", ContentType: "image/png", Data: buf.Bytes()}},
	}}, nil
}
