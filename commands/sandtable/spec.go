package sandtable

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strings"

	"sandtable/commands"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/internal/duration"
	"sandtable/render"
)

// The results of effects that the game records (Spec.Delivered).
const (
	resultStatus = "status" // the deployment status message
	resultPanel  = "panel"  // "panel:<side>": a deployment panel sent by DM
)

var noDMs = false

// Spec names SandTable's commands and routes.
func (Game) Spec() commands.Spec[*State] {
	presets := []*ui.Choice{}
	for _, n := range engine.PresetNames() {
		presets = append(presets, &ui.Choice{Name: n, Value: n})
	}
	gameOpt := &ui.CommandOption{Type: ui.String, Name: "game",
		Description: "The game ID (in the thread's footer); needed in direct messages when you deploy in several games", MaxLength: 20}
	dmOK := true
	return commands.Spec[*State]{
		Name:  Kind,
		Title: Title,
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
						commands.LevelOption(levels, levels[len(levels)/2]),
						commands.CasualOption(),
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
			DMPermission: &noDMs,
			Options: []*ui.CommandOption{{
				Type: ui.String, Name: "step", Description: "One or more Infantry steps, e.g. d4-d5 (added after your draft's steps)",
				Required: true, Autocomplete: true, MaxLength: 200,
			}},
		}},
		TopLevel: map[string]commands.Handler{"sandtable": commands.Subcommands("sandtable", map[string]commands.Handler{
			"challenge": challenge,
			"rules":     rules,
			"deploy":    deployCommand,
		})},
		Thread: map[string]commands.Action[*State]{
			"move":   move,
			"step":   step,
			"resign": resign,
			"draw":   func(t *turn) (*response, error) { return drawAction(t, t.Req.Sub) },
			"board":  board,
			// the viewer (history.go), as /history
			commands.HistoryAction: historyView,
		},
		Autocomplete: map[string]commands.Action[*State]{"move": moveAutocomplete, "step": stepAutocomplete},
		WhoseTurn:    whoseTurn,
		MayComplete:  mayComplete,
		Components: map[string]commands.Action[*State]{
			"dep-open":      deployOpen,
			"dep-preset":    panelControl(deployButton),
			"dep-random":    panelControl(deployButton),
			"dep-clear":     panelControl(deployButton),
			"dep-confirm":   once(panelControl(deployButton)),
			"dep-unconfirm": once(panelControl(deployButton)),
			"dep-paste":     panelControl(deployPaste),
			"dep-edit":      once(panelControl(deployEditForm)),
			"dep-text":      panelControl(deployText),
			"drone":         droneButton,
			"drone-confirm": once(droneConfirm),
			"drone-cancel":  once(droneCancel),
			"step-commit":   once(stepCommit),
			"step-undo":     once(stepUndo),
			"step-discard":  once(stepDiscard),
			"private":       privateView,
			"flip":          flip,
			"zoom":          zoom,
			"draw-accept":   drawButton,
			"resign":        resign, // the confirmed /resign (commands.Turn.Ask)
			"rematch":       rematch,
			"fullrecord":    fullRecord,
			"draw-decline":  drawButton,
			// the History button and the viewer's controls (history.go)
			commands.HistoryAction: historyView,
		},
		Modals: map[string]commands.Action[*State]{
			"dep-layout":  panelControl(deployLayout),
			"dep-edits":   once(panelControl(deployEdits)),
			"drone-order": droneOrder,
		},
		Start:     start,
		Computer:  computer(),
		Delivered: delivered,
		Replay:    replay,
		// The final board carries the public game log (gameRecord).
		RecordName: "game log",
		Abort:      func(t *turn, why string) error { return abort(t, t.State.clone(), why) },
		Results:    results,
		Adjudicate: adjudicate,
		Versus: func(s *State, userID string) string {
			side, ok := s.sideOf(userID)
			if !ok {
				return ""
			}
			return fmt.Sprintf("vs %s as %s", s.player(side.Opp()).Mention(), side)
		},
		Private: private,
	}
}

// private: answers that may carry a secret, or a private draft, are
// private from the first byte (see commands.Spec.Private).
func private(req *commands.Request) bool {
	switch req.Type {
	case commands.CommandRequest:
		switch req.Command {
		case "sandtable":
			return req.Sub == "deploy" || req.Sub == "rules"
		case "step":
			return true
		case "move", "resign", "board":
			// A move's news is the board it shows in the thread; a Drone
			// order is secret.
			return true
		case "draw":
			return req.Sub == "accept"
		}
	case commands.ModalRequest:
		id, err := commands.ParseCustomID(req.CustomID)
		return err == nil && (strings.HasPrefix(id.Action, "dep-") || strings.HasPrefix(id.Action, "drone-"))
	}
	return false
}

func challenge(a *commands.App, req *commands.Request) (*response, error) {
	turnTime, err := a.MoveTimeOption(req, "turn_time")
	if err != nil {
		return nil, err
	}
	opp := req.UserOpt("opponent")
	if opp == nil {
		return nil, commands.Errorf("Name the player you challenge in the opponent option.")
	}
	desc := []string{
		fmt.Sprintf("%s plays South, %s North; a coin decides who moves first once both have deployed in secret.", req.User.Mention(), opp.Mention()),
		fmt.Sprintf("Time for the deployment and for each turn: %s.", duration.Format(turnTime)),
	}
	return a.OpenChallenge(req, Kind, opp, map[string]string{"turn_time": turnTime.String()}, desc)
}

func randomUint64() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on Linux
	}
	return binary.LittleEndian.Uint64(b[:])
}

// start makes the game of an accepted challenge (ruling D1): the
// challenger plays South, the opponent North. Its first effects post the
// public deployment status and send each player their private deployment
// panel by direct message (a player whose DMs are closed is told so in
// the thread when the DM is refused; see delivered).
func start(t *turn, ch *commands.Challenge) (string, error) {
	turnTime, err := ch.Duration("turn_time")
	if err != nil {
		return "", err
	}
	s := &State{South: ch.Challenger, North: ch.Opponent, TurnTime: turnTime, Started: t.Now, pos: engine.NewGame(randomUint64())}
	if ch.Options["side"] == "north" { // a rematch with sides swapped (ruling D18)
		s.South, s.North = ch.Opponent, ch.Challenger
	}
	for _, side := range sides {
		s.PanelSeq[side], s.PanelKey[side] = 1, newPanelKey(1)
	}
	save(t, s)
	status := statusMessage(t, s, fmt.Sprintf("%s (South) vs %s (North): deploy your pieces in secret.", s.South.Mention(), s.North.Mention()))
	t.Effect(commands.Effect{Op: commands.OpPost, Channel: commands.ChannelOfGame, Body: &status, Result: resultStatus})
	for _, side := range sides {
		panel, err := deployPanel(t, s, side, "The game has begun: deploy your pieces here, in secret.")
		if err != nil {
			return "", err
		}
		if isComputer(t.Game, s.player(side).ID) {
			continue // the computer deploys without a panel
		}
		t.Effect(commands.Effect{Op: commands.OpDM, User: s.player(side).ID, Body: &panel, Result: panelResult(side, s.PanelKey[side])})
	}
	return fmt.Sprintf("SandTable · %s vs %s", s.South.Name, s.North.Name), nil
}

// delivered records what an effect yielded: the status message's ID, a
// deployment panel's direct message (the live panel, to point to a newer
// one or to close when the game ends; a panel that is no longer live when
// it arrives is edited at once into a pointer to the live one, or closed),
// or a panel refused because its player's DMs are closed, which the thread
// is told (that is no secret; ruling D3).
func delivered(t *turn, result, id string) error {
	what, arg, _ := strings.Cut(result, ":")
	s := t.State.clone()
	switch what {
	case resultStatus:
		s.StatusMsg = id
	case resultPanel:
		sideText, key, _ := strings.Cut(arg, ":") // no key: delivered by a run from before panels had keys
		side, err := engine.ParseSide(sideText)
		if err != nil {
			return err
		}
		switch {
		case id == commands.DMClosed:
			s.DMClosed[side] = true
			t.Post(commands.Message{Content: fmt.Sprintf("%s, I cannot send you direct messages (they are closed to me), so your deployment runs here, in private: press **Deploy (private)** on the message above. Only you will see it.", s.player(side).Mention())})
		case s.over() || s.pos.Phase() != engine.PhaseDeployment:
			if m, err := deployPanel(t, s, side, ""); err == nil {
				t.Effect(commands.Effect{Op: commands.OpEditDM, User: s.player(side).ID, Message: id, Body: &m})
			}
		case key != s.PanelKey[side]:
			movePanels(t, s, side, []string{id})
		default:
			s.DMClosed[side] = false
			s.addPanel(side, id)
		}
	default:
		return fmt.Errorf("game %s: unknown effect result %q", t.Game.ID, result)
	}
	t.Save(s)
	return nil
}

// maxPanels is how many deployment panels per player the bot remembers.
const maxPanels = 5

// addPanel remembers the direct message id holding side's panel.
func (s *State) addPanel(side engine.Side, id string) {
	s.Panels[side] = append(s.Panels[side], id)
	if n := len(s.Panels[side]); n > maxPanels {
		s.Panels[side] = s.Panels[side][n-maxPanels:]
	}
}

// statusEdit brings the thread's deployment status message up to date
// (when its post was delivered).
func statusEdit(t *turn, s *State) {
	if s.StatusMsg == "" {
		return
	}
	m := statusMessage(t, s, "")
	// Result: when Discord refuses further edits (30046), the outbox posts
	// the status anew, and the new message becomes the one to edit.
	t.Effect(commands.Effect{Op: commands.OpEdit, Channel: commands.ChannelOfGame, Message: s.StatusMsg, Body: &m, Result: resultStatus})
}

// closeDeployment, once the game has ended during Deployment, closes the
// status message and both players' deployment panels in their direct
// messages: no controls, and the result (a panel shown ephemerally cannot
// be edited, and its controls are refused).
func closeDeployment(t *turn, s *State) {
	statusEdit(t, s)
	for _, side := range sides {
		closePanels(t, s, side)
	}
}

// closePanels, once Deployment is over (the reveal, or the game's end),
// edits side's panels in their direct messages into the closed panel: no
// image, no controls, and what happened.
func closePanels(t *turn, s *State, side engine.Side) {
	m, err := deployPanel(t, s, side, "")
	if err != nil {
		return // a closed panel has no image: never an error
	}
	for _, id := range s.Panels[side] {
		m := m
		t.Effect(commands.Effect{Op: commands.OpEditDM, User: s.player(side).ID, Message: id, Body: &m})
	}
}

// board shows the public board to its asker, privately: the thread's
// live board stays the one at the bottom.
func board(t *turn) (*response, error) {
	msg, err := message(t, t.State, "")
	if err != nil {
		return nil, err
	}
	return &response{Ephemeral: true, Message: msg}, nil
}

func resign(t *turn) (*response, error) {
	side, err := player(t, false)
	if err != nil {
		return nil, err
	}
	if r := t.Ask("resign", "", "Resign this game? You lose it."); r != nil {
		return r, nil
	}
	return end(t, t.State.clone(), engine.Action{Kind: engine.ActResign, Side: side}, "Resigning", t.Req.User.Mention()+" resigned.")
}

// end ends the game with act (a resignation, an agreed draw): it saves it
// and posts the final board, whose note is what happened followed by the
// result, closes the deployment status and panels when the game ended in
// Deployment, and answers its user privately. label names act in a
// refusal.
func end(t *turn, s *State, act engine.Action, label, what string) (*response, error) {
	wasDeploying := s.pos.Phase() == engine.PhaseDeployment
	before := markOf(s.pos)
	if _, err := s.apply(act); err != nil {
		return nil, ruleError(label, err)
	}
	save(t, s)
	if err := show(t, s, before, what+" "+s.resultLine()); err != nil {
		return nil, err
	}
	if wasDeploying {
		closeDeployment(t, s)
	}
	return &response{Ephemeral: true, Update: t.Confirmed(), Message: commands.Message{Content: what + " " + s.resultLine()}}, nil
}

func drawButton(t *turn) (*response, error) {
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	return drawAction(t, strings.TrimPrefix(id.Action, "draw-"))
}

// drawAction: a draw is agreed (offer, then accept or decline); the offer
// lapses when the turn passes (ruling D9). SandTable has no draw claims.
func drawAction(t *turn, action string) (*response, error) {
	if action == "claim" {
		return nil, commands.Errorf("SandTable Chess has no draw claims: a game is drawn only by agreement (/draw offer), when one action makes both players meet a victory condition, or after %d turns in a row in which nobody could act (ruling 9).", engine.DeadlockTurns)
	}
	if r := t.State.Repeat(t.Req); r != nil {
		return r, nil
	}
	side, err := player(t, false)
	if err != nil {
		return nil, err
	}
	if action == "accept" {
		if err := t.State.Draw.Check(t.Req, t.State.player(side.Opp()), action, "(offers lapse when the turn passes)"); err != nil {
			return nil, err
		}
		if r := t.Ask("draw-accept", t.State.Draw.Arg(), "Accept the draw offer? The game ends in a draw."); r != nil {
			return r, nil
		}
	}
	s := t.State.clone()
	resp, accepted, err := s.Draw.Act(t.Req, t.Game.ID, s.player(side.Opp()), action,
		"(The offer lapses when the turn passes.)", "(offers lapse when the turn passes)")
	if err != nil {
		return nil, err
	}
	if !accepted {
		save(t, s)
		return resp, nil
	}
	return end(t, s, engine.Action{Kind: engine.ActDraw}, "A draw", t.Req.User.Mention()+" accepted the draw offer.")
}

// rulesText is /sandtable rules: the rules in short, the notation and
// where the rulings are (docs/rules/texts/sandtable.txt and
// docs/rules/sandtable.md).
const rulesText = `**SandTable Chess**: a 20x20 war game for two (South, ranks 1–10, against North, ranks 11–20).
**Deployment**: each side places 2 Bases, 4 Tanks, 2 Airplanes, 30 Infantry, 15 Mines and 15 Anti-Air in secret on its ranks (South 1–9, North 12–20), every Mine and Anti-Air next to one of its Infantry. Vehicles start without crew (neutral). Both deployments are revealed together; a coin decides who moves first.
**A turn**: PreTurn (your pending Drones strike), **Main** (one Vehicle, or any number of Infantry one step each; no passing), **PostTurn** (one hazard use per Base you have: a Mine or an Anti-Air next to your Infantry on the ground, or a secret Drone).
**Infantry** step in 8 directions; entering an enemy piece destroys it, entering a Vehicle crews it (up to 4), entering an enemy Vehicle captures it. **Vehicles** need crew: Tanks move straight orthogonally, Airplanes straight in any direction; after a move one crew member may step out.
**Hazards**: a Mine destroys a Tank entering it, an Anti-Air an Airplane. A **Drone** (spotter: your Infantry; target: within 2 squares, not a Base) destroys whatever stands there at the start of your next turn, unless its spotter is destroyed first; it leaves a Crater for that turn.
**You win** when the enemy has no Base or no Infantry left, or you control every Tank or every Airplane on the board. Draws by agreement only (/draw offer). The side to move loses when its turn's time runs out.
**Notation** (/move): ` + "`d4-d5 e4-e5`" + ` Infantry steps · ` + "`Tc3-c8`" + ` Tank · ` + "`Pa1-h8/d9`" + ` Airplane, a crew member steps out to d9 · ` + "`Mf5` `Af5`" + ` Mine, Anti-Air. /step builds an Infantry turn privately. Drones: **Order a Drone (private)** on the board.
**Rulings**: every gap in the rule text is decided in docs/rules/sandtable.md of the bot's source (rulings 1–9, G1–G23 and the Discord rulings D1–D27).`

func rules(a *commands.App, req *commands.Request) (*response, error) {
	var buf bytes.Buffer
	if err := render.LegendPNG(&buf); err != nil {
		return nil, err
	}
	return &response{Ephemeral: true, Message: commands.Message{
		Cards: []*ui.Card{
			{Title: "SandTable Chess: the rules in short", Description: rulesText, Color: commands.ColorChallenge},
			{Title: "What the board shows", Description: render.LegendText, Color: commands.ColorChallenge, Image: "legend.png"},
		},
		Files: []*ui.File{{Name: "legend.png", ContentType: "image/png", Data: buf.Bytes()}},
	}}, nil
}

// rematch opens, from a finished game's Rematch button, a challenge from
// the clicker to their opponent with sides swapped and the same turn time
// (ruling D18), answered like any challenge.
func rematch(t *turn) (*response, error) {
	s := t.State
	if !s.over() {
		return nil, commands.Errorf("This game is still on: a rematch is offered once it has ended.")
	}
	side := engine.NoSide
	for _, sd := range sides {
		if s.player(sd).ID == t.Req.User.ID {
			side = sd
		}
	}
	if side == engine.NoSide {
		return nil, commands.Errorf("Only %s and %s, who played this game, can ask for a rematch.", s.South.Mention(), s.North.Mention())
	}
	mine := "north"
	if side == engine.North {
		mine = "south"
	}
	opp := s.player(side.Opp())
	r, id, err := t.Rematch(s.Rematch, Kind, &opp, map[string]string{"turn_time": s.TurnTime.String(), "side": mine}, []string{
		fmt.Sprintf("A rematch of game %s, sides swapped: %s plays %s.", t.Game.ID, t.Req.User.Mention(), strings.ToUpper(mine[:1])+mine[1:]),
	})
	if err == nil && id != s.Rematch {
		next := s.clone()
		next.Rematch = id
		t.Save(next)
	}
	return r, err
}
