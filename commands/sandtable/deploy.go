package sandtable

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sandtable/commands"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/storage"
)

// Secret deployment (issue 7 point 2, ruling D4). Each player edits a
// private panel (sent by direct message, or ephemeral when the player's
// direct messages are closed): presets, random, a pasted or uploaded
// layout, piece-by-piece edits, each followed by a private preview image;
// Confirm is refused with the engine's error while the draft is invalid.
// The thread shows only who has confirmed; the second confirmation reveals
// both deployments and the coin flip publicly (D2), an effect saved with
// the state that makes it.

// maxLayoutBytes is the largest layout file /sandtable deploy accepts (a
// full layout with comments is under 1 KB).
const maxLayoutBytes = 16 << 10

// maxEcho is the most characters of a file name repeated in an answer.
const maxEcho = 100

func zoneText(side engine.Side) string {
	if side == engine.North {
		return "ranks 12–20 (rank 11, facing the enemy, stays empty)"
	}
	return "ranks 1–9 (rank 10, facing the enemy, stays empty)"
}

// deployPanel is side's private deployment panel: the draft as a private
// image, what is placed and what is missing, and the controls.
func deployPanel(t *turn, s *State, side engine.Side, note string) (commands.Message, error) {
	g, pos := t.Game, s.pos
	d := pos.View(side).Draft(side)
	if pos.Phase() != engine.PhaseDeployment || d == nil || s.over() {
		switch {
		case note != "":
		case s.over():
			note = fmt.Sprintf("Game %s in <#%s> is over, ended during Deployment: %s This panel is closed; nothing of your deployment was revealed.", g.ID, g.ThreadID, s.resultLine())
		default:
			note = fmt.Sprintf("Deployment is over in game %s: the game is on in <#%s>.", g.ID, g.ThreadID)
		}
		return commands.Message{Content: note, Cards: []*ui.Card{}, Rows: []ui.Row{}}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "You play **%s** against %s in <#%s>. Only you can see this panel.\n", side, s.player(side.Opp()).Mention(), g.ThreadID)
	fmt.Fprintf(&b, "Your zone: %s.\n\n", zoneText(side))
	var counts []string
	for _, k := range engine.AllKinds {
		mark := ""
		if d.Count(k) == engine.Required[k] {
			mark = " ✓"
		}
		counts = append(counts, fmt.Sprintf("%s %d/%d%s", kindPlural(k), d.Count(k), engine.Required[k], mark))
	}
	fmt.Fprintf(&b, "**Placed %d of %d**: %s\n", d.Len(), engine.RequiredTotal, strings.Join(counts, " · "))
	problems := d.Problems()
	switch {
	case pos.Confirmed(side):
		fmt.Fprintf(&b, "**Confirmed** ✅. Waiting for %s; until they confirm you may still **Unconfirm** and change it.\n", s.player(side.Opp()).Mention())
	case len(problems) == 0:
		b.WriteString("**Valid** ✅: press **Confirm** when you are happy with it.\n")
	default:
		b.WriteString("**Not valid yet**:\n")
		for i, p := range problems {
			if i == 6 {
				fmt.Fprintf(&b, "- …and %d more\n", len(problems)-i)
				break
			}
			fmt.Fprintf(&b, "- %s\n", p.Msg)
		}
	}
	if !pos.Confirmed(side) {
		b.WriteString("\n**How**: choose a **preset** or **Random**, then adjust; **Paste layout** (one row per rank, `.` empty, `B T P I M A`), " +
			"or upload a layout file with `/sandtable deploy file:`; **Edit pieces** with lines like `place T c3`, `place I a5 b5 c5`, `move c3-d3`, `remove d3`. " +
			"Every Mine and Anti-Air must stand next to one of your Infantry. **Layout as text** gives your current layout to copy.")
	}
	file, err := viewFile(t, pos, nil, side, "deployment.png")
	if err != nil {
		return commands.Message{}, err
	}
	e := &ui.Card{
		Title:       fmt.Sprintf("Your secret deployment: %s", side),
		Description: b.String(),
		Color:       sideColor(side),
		Image:       "deployment.png",
		Footer:      fmt.Sprintf("Game %s · %s at the bottom · private%s", g.ID, side, panelNumber(s, side)),
	}
	var rows []ui.Row
	stamped, plain := panelArg(s, side, true), panelArg(s, side, false)
	if pos.Confirmed(side) {
		rows = []ui.Row{{
			commands.GameArgButton(g, "dep-unconfirm", stamped, "Unconfirm", ui.Danger),
			commands.GameArgButton(g, "dep-text", plain, "Layout as text", ui.Secondary),
		}}
	} else {
		var opts []ui.SelectOption
		for _, n := range engine.PresetNames() {
			opts = append(opts, ui.SelectOption{Label: n, Value: n, Description: presetBlurb[n]})
		}
		rows = []ui.Row{
			{ui.Select{
				Route: commands.CustomID{Scope: "g", ID: g.ID, Action: "dep-preset", Arg: plain}.String(), Placeholder: "Choose a preset…", Options: opts,
			}},
			{
				commands.GameArgButton(g, "dep-random", plain, "Random", ui.Secondary),
				commands.GameArgButton(g, "dep-paste", plain, "Paste layout", ui.Secondary),
				commands.GameArgButton(g, "dep-edit", stamped, "Edit pieces", ui.Secondary),
				commands.GameArgButton(g, "dep-clear", plain, "Clear", ui.Danger),
			},
			{
				commands.GameArgButton(g, "dep-confirm", stamped, "Confirm", ui.Success),
				commands.GameArgButton(g, "dep-text", plain, "Layout as text", ui.Secondary),
			},
		}
	}
	return commands.Message{Content: note, Cards: []*ui.Card{e}, Files: []*ui.File{file}, Rows: rows}, nil
}

// panelNumber is " · panel N" for the footer of side's live panel (""
// in games stored before panels were numbered). It also tells two panels
// apart when the outbox looks for one it may have sent already.
func panelNumber(s *State, side engine.Side) string {
	if s.PanelSeq[side] == 0 {
		return ""
	}
	return fmt.Sprintf(" · panel %d", s.PanelSeq[side])
}

// deployStamp identifies side's deployment as a panel shows it: the
// draft's layout and whether it is confirmed.
func deployStamp(pos *engine.Position, side engine.Side) string {
	d := pos.View(side).Draft(side)
	if d == nil {
		return commands.Stamp("none")
	}
	return commands.Stamp(d.Layout(), strconv.FormatBool(pos.Confirmed(side)))
}

// panelArg is the arg of a control of side's live panel: the panel's key
// after a ".", and, when stamped, the deployment's stamp before it. The
// controls whose effect depends on what the panel shows (Confirm,
// Unconfirm, Edit pieces and its form) are stamped; the others replace the
// whole draft, or only read it. Without a key (a game stored before panels
// had keys) the arg is the stamp alone, as it was then.
func panelArg(s *State, side engine.Side, stamped bool) string {
	arg := ""
	if stamped {
		arg = deployStamp(s.pos, side)
	}
	if k := s.PanelKey[side]; k != "" {
		arg += "." + k
	}
	return arg
}

// panelKeyOf is the panel key a control's arg carries ("" for none).
func panelKeyOf(arg string) string {
	_, key, _ := strings.Cut(arg, ".")
	return key
}

// newPanelKey is the key of a side's panel number seq: the number and a
// random part, so that a panel sent by a run that was never saved (a
// crash between a direct message and the commit) carries a key no panel
// will have.
func newPanelKey(seq int) string {
	return fmt.Sprintf("%d-%04x", seq, uint16(randomUint64()))
}

// panelStale answers a control of the live panel that no longer shows
// side's deployment as it is (nil when it does): the panel brought up to
// date, with nothing changed. (Clicked before Discord showed the previous
// click's answer.)
func panelStale(t *turn, side engine.Side) (*response, error) {
	if id, _ := commands.ParseCustomID(t.Req.CustomID); id.Arg == panelArg(t.State, side, true) {
		return nil, nil
	}
	return deployAnswer(t, t.State, side, "Nothing changed: this panel showed an older version of your deployment (it changed since). Here it is now.", true)
}

// panelControl wraps the action of a control of a deployment panel (a
// button, the preset menu, a form submitted from the panel), ruling D20.
// A control of a panel that is no longer its player's live one changes
// nothing: its message becomes a pointer to the live panel (or, once
// Deployment is over, the closed panel). A refusal is shown in the panel
// itself, which shows the deployment as it is, unchanged: the next
// success, which updates the same message, replaces it, so no error is
// left below the panel as the newest message.
func panelControl(act commands.Action[*State]) commands.Action[*State] {
	return func(t *turn) (*response, error) {
		side, ok := t.State.sideOf(t.Req.User.ID)
		if !ok {
			return act(t)
		}
		id, _ := commands.ParseCustomID(t.Req.CustomID)
		if panelKeyOf(id.Arg) != t.State.PanelKey[side] {
			return movedAnswer(t, side)
		}
		resp, err := act(t)
		var ue *commands.UserError
		if _, saved := t.Saved(); err == nil || saved || !errors.As(err, &ue) {
			return resp, err
		}
		return deployAnswer(t, t.State, side, "⚠️ "+ue.Msg, true)
	}
}

// movedAnswer answers a control of a panel that is no longer side's live
// one: its message becomes a pointer to the live panel, with nothing
// changed; once Deployment is over, the closed panel.
func movedAnswer(t *turn, side engine.Side) (*response, error) {
	s := t.State
	if s.over() || s.pos.Phase() != engine.PhaseDeployment {
		return deployAnswer(t, s, side, "", true)
	}
	if t.Req.GuildID != "" { // an ephemeral panel in the thread (DMs closed)
		return &response{Update: true, Message: commands.Message{
			Content: fmt.Sprintf("This deployment panel was replaced by a newer one: use the newest panel I showed you, or press **Deploy (private)** in <#%s> to see it again. Nothing changed.", t.Game.ThreadID),
			Cards:   []*ui.Card{}, Rows: []ui.Row{},
		}}, nil
	}
	m := movedMessage(t.Game)
	m.Content += " Nothing changed."
	return &response{Update: true, Message: m}, nil
}

// movedMessage is what an older panel in a player's direct messages
// becomes when a newer one is given: a pointer to it, without image or
// controls.
func movedMessage(g *storage.Game) commands.Message {
	return commands.Message{
		Content: fmt.Sprintf("⤵️ This deployment panel moved: your live panel for game %s (<#%s>) is the newest one, further down in our direct messages.", g.ID, g.ThreadID),
		Cards:   []*ui.Card{}, Rows: []ui.Row{},
	}
}

// movePanels edits side's panels ids in their direct messages into
// pointers to the live panel.
func movePanels(t *turn, s *State, side engine.Side, ids []string) {
	for _, id := range ids {
		m := movedMessage(t.Game)
		t.Effect(commands.Effect{Op: commands.OpEditDM, User: s.player(side).ID, Message: id, Body: &m})
	}
}

// panelResult names the delivery of side's panel with key (Spec.Delivered).
func panelResult(side engine.Side, key string) string {
	return resultPanel + ":" + side.String() + ":" + key
}

// reopen gives side their deployment panel anew (ruling D20), showing s
// with note; the caller has changed s or not, and reopen saves it. The
// panel gets a new key, so that every older panel's controls change
// nothing. It goes by direct message, as an effect saved with the state
// (a retry never sends it twice), and every older panel in the direct
// messages becomes a pointer to it; the answer, where the user is, says
// so briefly (after ack, what changed, when set). When side's direct
// messages are known to be closed, the panel is tried by direct message at
// once and shown in the answer, ephemerally, when they still are.
func reopen(t *turn, s *State, side engine.Side, note, ack string) (*response, error) {
	s.PanelSeq[side]++
	s.PanelKey[side] = newPanelKey(s.PanelSeq[side])
	panel, err := deployPanel(t, s, side, note)
	if err != nil {
		return nil, err
	}
	if ack != "" {
		ack += " "
	}
	sent := ack + "I sent your deployment panel to you by direct message: it is the newest message there, and any older panel now points to it."
	if t.Req.GuildID == "" { // typed in the direct messages
		sent = ack + "I sent your deployment panel anew, here in our direct messages: it is the newest panel, and any older one now points to it."
	}
	old := s.Panels[side]
	if s.DMClosed[side] {
		resp, dmID, err := t.SendPrivately(panel, sent)
		if err != nil {
			return nil, err
		}
		if dmID != "" { // open again
			s.DMClosed[side] = false
			s.Panels[side] = []string{dmID}
			movePanels(t, s, side, old)
		}
		save(t, s)
		return resp, nil
	}
	s.Panels[side] = nil
	t.Effect(commands.Effect{Op: commands.OpDM, User: s.player(side).ID, Body: &panel, Result: panelResult(side, s.PanelKey[side])})
	movePanels(t, s, side, old)
	save(t, s)
	return commands.Private("%s", sent), nil
}

var presetBlurb = map[string]string{
	"fortress": "A hazard screen before a wall of Infantry, Vehicles close behind",
	"phalanx":  "A double line of Infantry in front, hazards behind each line",
	"skirmish": "Three open Infantry lines screened by Mines and Anti-Air",
}

func kindPlural(k engine.Kind) string {
	if k == engine.Infantry || k == engine.AntiAir {
		return k.String()
	}
	return k.String() + "s"
}

// deployer checks that t's user may act on their deployment: a player, in
// Deployment. It returns their side.
func deployer(t *turn) (engine.Side, error) {
	side, err := player(t, false)
	if err != nil {
		return 0, err
	}
	if t.State.pos.Phase() != engine.PhaseDeployment {
		return 0, commands.Errorf("Deployment is over: both deployments were revealed and the game is on in <#%s>.", t.Game.ThreadID)
	}
	return side, nil
}

// drafter is deployer for a change of the draft, refused once the
// deployment is confirmed.
func drafter(t *turn) (engine.Side, error) {
	side, err := deployer(t)
	if err != nil {
		return 0, err
	}
	if t.State.pos.Confirmed(side) {
		return 0, commands.Errorf("You have confirmed your deployment: press **Unconfirm** first to change it.")
	}
	return side, nil
}

// deployOpen: the thread's "Deploy (private)" button gives the clicker
// their panel anew (reopen): by direct message, or ephemerally when the
// clicker's direct messages are closed.
func deployOpen(t *turn) (*response, error) {
	side, err := deployer(t)
	if err != nil {
		return nil, err
	}
	return reopen(t, t.State.clone(), side, "", "")
}

// deployButton handles the panel's preset menu and its Random, Clear,
// Confirm and Unconfirm buttons; the panel is updated in place.
func deployButton(t *turn) (*response, error) {
	side, err := deployer(t)
	if err != nil {
		return nil, err
	}
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	if id.Action == "dep-confirm" || id.Action == "dep-unconfirm" {
		if resp, err := panelStale(t, side); resp != nil || err != nil {
			return resp, err
		}
	}
	s := t.State.clone()
	act := engine.Action{Side: side}
	var note string
	switch id.Action {
	case "dep-preset":
		if len(t.Req.Values) != 1 {
			return nil, commands.Errorf("Choose one preset.")
		}
		act.Kind, act.Name = engine.ActDeployPreset, t.Req.Values[0]
		note = fmt.Sprintf("Preset **%s** loaded.", t.Req.Values[0])
	case "dep-random":
		act.Kind, act.Seed = engine.ActDeployRandom, randomUint64()
		note = "A random valid deployment."
	case "dep-clear":
		act.Kind = engine.ActDeployClear
		note = "Cleared: your zone is empty."
	case "dep-confirm":
		act.Kind = engine.ActDeployConfirm
		s.markDone(t.Req, side, "you confirmed this deployment")
	case "dep-unconfirm":
		act.Kind = engine.ActDeployUnconfirm
		note = "Confirmation withdrawn: you can change your deployment again."
		s.markDone(t.Req, side, "you withdrew the confirmation of this deployment")
	}
	return deployApply(t, s, side, []deployEdit{{act: act}}, note, true)
}

// deployApply applies deployment actions to s (all or nothing), saves,
// makes the public announcements (a confirmation, the reveal) and answers
// with the updated panel: in place when update (a control of the panel),
// else (a command) by giving the panel anew (reopen), where note is also
// the short answer.
func deployApply(t *turn, s *State, side engine.Side, acts []deployEdit, note string, update bool) (*response, error) {
	for _, e := range acts {
		if _, err := s.apply(e.act); err != nil {
			what := "This change"
			switch {
			case e.act.Kind == engine.ActDeployConfirm:
				var re *engine.RuleError
				if errors.As(err, &re) {
					return nil, commands.Errorf("You cannot confirm yet: %s. Nothing changed.", re.Msg)
				}
			case e.label != "":
				what = e.label
			}
			return nil, ruleError(what, err)
		}
	}
	if !update { // a command's change: no confirmation comes this way
		return reopen(t, s, side, note, note)
	}
	save(t, s)
	last := acts[len(acts)-1].act.Kind
	switch {
	case s.pos.Phase() != engine.PhaseDeployment:
		if err := revealed(t, s, side); err != nil {
			return nil, err
		}
		return deployAnswer(t, s, side, fmt.Sprintf("Your deployment is confirmed, and so is %s's: both are revealed and the game is on in <#%s>.", s.player(side.Opp()).Mention(), t.Game.ThreadID), true)
	case last == engine.ActDeployConfirm:
		note = fmt.Sprintf("Confirmed. Your deployment stays secret until %s confirms too.", s.player(side.Opp()).Mention())
		t.Post(commands.Message{Content: fmt.Sprintf("%s has confirmed their deployment.", s.describe(side))})
		statusEdit(t, s)
	case last == engine.ActDeployUnconfirm:
		t.Post(commands.Message{Content: fmt.Sprintf("%s withdrew their confirmation and is deploying again.", s.describe(side))})
		statusEdit(t, s)
	}
	return deployAnswer(t, s, side, note, true)
}

// deployAnswer answers with side's panel showing s with note: in place
// when update, else as a new private message.
func deployAnswer(t *turn, s *State, side engine.Side, note string, update bool) (*response, error) {
	panel, err := deployPanel(t, s, side, note)
	if err != nil {
		return nil, err
	}
	return &response{Message: panel, Update: update, Ephemeral: !update}, nil
}

// revealed announces the reveal (ruling D2), as effects saved with the
// state that makes it: the public board with both deployments and the
// coin flip, the status message closed, and a note to the player who
// confirmed first.
func revealed(t *turn, s *State, last engine.Side) error {
	note := fmt.Sprintf("%s confirmed too: both deployments are revealed. 🪙 The coin is flipped: **%s**. %s moves first.",
		s.describe(last), s.pos.First(), s.describe(s.pos.First()))
	msg, err := boardMessage(t, s, note)
	if err != nil {
		return fmt.Errorf("drawing the revealed board: %w", err)
	}
	t.Board(commands.ChannelOfGame, msg, commands.Message{Content: turnLine(s, s.Cur)})
	statusEdit(t, s)
	closePanels(t, s, last.Opp())
	other := s.player(last.Opp())
	if isComputer(t.Game, other.ID) {
		return nil // no direct message to the computer
	}
	t.Effect(commands.Effect{Op: commands.OpDM, User: other.ID, Body: &commands.Message{
		Content: fmt.Sprintf("Both deployments are revealed in <#%s>; the coin chose %s to move first.", t.Game.ThreadID, s.pos.First())}})
	return nil
}

// deployPaste opens a form with the current layout to edit or replace.
func deployPaste(t *turn) (*response, error) {
	side, err := drafter(t)
	if err != nil {
		return nil, err
	}
	return &response{Modal: &commands.Modal{
		CustomID: commands.CustomID{Scope: "g", ID: t.Game.ID, Action: "dep-layout", Arg: panelArg(t.State, side, false)}.String(),
		Title:    fmt.Sprintf("Your layout (%s)", side),
		Inputs: []commands.ModalInput{{CustomID: "layout", Label: "Rank, then 20 cells: . B T P I M A",
			Paragraph: true, Required: true, MaxLength: 4000, Value: t.State.pos.View(side).Draft(side).Layout()}},
	}}, nil
}

// deployLayout replaces the draft with a pasted layout.
func deployLayout(t *turn) (*response, error) {
	return deployLayoutText(t, t.Req.Fields["layout"], true)
}

func deployLayoutText(t *turn, text string, update bool) (*response, error) {
	side, err := deployer(t)
	if err != nil {
		return nil, err
	}
	d, err := engine.ParseLayout(side, text)
	if err != nil {
		return nil, ruleError("Your layout", err)
	}
	if d.Len() == 0 {
		// An empty file or form would wipe the draft: Clear does that, asked.
		return nil, commands.Errorf("This layout places no piece (an empty file or form?): your deployment is unchanged. To start over, use **Clear** on your panel.")
	}
	s := t.State.clone()
	if err := s.pos.SetDraft(side, d); err != nil {
		return nil, ruleError("Your layout", err)
	}
	note := fmt.Sprintf("Layout loaded: %d pieces.", d.Len())
	if !update {
		return reopen(t, s, side, note, note)
	}
	save(t, s)
	return deployAnswer(t, s, side, note, true)
}

// deployEditForm opens the piece-by-piece form, whose edits apply to the
// deployment the panel shows.
func deployEditForm(t *turn) (*response, error) {
	side, err := deployer(t)
	if err != nil {
		return nil, err
	}
	if resp, err := panelStale(t, side); resp != nil || err != nil {
		return resp, err
	}
	if _, err := drafter(t); err != nil {
		return nil, err
	}
	return &response{Modal: &commands.Modal{
		CustomID: commands.CustomID{Scope: "g", ID: t.Game.ID, Action: "dep-edits", Arg: panelArg(t.State, side, true)}.String(),
		Title:    "Edit pieces",
		Inputs: []commands.ModalInput{{CustomID: "edits", Label: "Changes, one per line", Paragraph: true, Required: true, MaxLength: 2000,
			Placeholder: "place T c3\nplace I a5 b5 c5\nmove c3-d3\nremove d3"}},
	}}, nil
}

// deployEdits applies the form's changes, all or nothing.
func deployEdits(t *turn) (*response, error) {
	side, err := deployer(t)
	if err != nil {
		return nil, err
	}
	if resp, err := panelStale(t, side); resp != nil || err != nil {
		return resp, err
	}
	acts, err := parseDeployEdits(side, t.Req.Field("edits"))
	if err != nil {
		return nil, err
	}
	s := t.State.clone()
	s.markDone(t.Req, side, "you applied this form's changes to your deployment")
	return deployApply(t, s, side, acts, fmt.Sprintf("%s applied.", commands.Plural(len(acts), "change", "changes")), true)
}

// deployEdit is one deployment action and, for typed edits, the line it
// came from, to name in an error.
type deployEdit struct {
	act   engine.Action
	label string
}

// parseDeployEdits reads typed deployment edits with the engine
// (engine.ParseDeployEdits); an error names the line, quoted.
func parseDeployEdits(side engine.Side, text string) ([]deployEdit, error) {
	edits, err := engine.ParseDeployEdits(side, text)
	var ee *engine.EditError
	switch {
	case errors.As(err, &ee) && ee.Line > 0:
		return nil, commands.Errorf("%s: %s. Nothing changed.", editLabel(ee.Line, ee.Text), commands.EngineText(ee.Msg))
	case errors.As(err, &ee):
		return nil, commands.Errorf("%s.", commands.EngineText(strings.ToUpper(ee.Msg[:1])+ee.Msg[1:]))
	case err != nil:
		return nil, err
	}
	out := make([]deployEdit, len(edits))
	for i, e := range edits {
		out[i] = deployEdit{act: e.Action, label: editLabel(e.Line, e.Text)}
	}
	return out, nil
}

// editLabel names a line of typed edits: "Line 2 (`place T c12`)".
func editLabel(line int, text string) string {
	return fmt.Sprintf("Line %d (%s)", line, commands.QuoteInput(text))
}

// deployText shows the draft in the layout format, to copy, in the panel
// itself (so that nothing piles up below it).
func deployText(t *turn) (*response, error) {
	side, err := deployer(t)
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("Your current layout (%s). Copy it, change it and paste it back with **Paste layout**, or save it as a file for `/sandtable deploy file:`.\n```\n%s```", side, t.State.pos.View(side).Draft(side).Layout())
	return deployAnswer(t, t.State, side, note, true)
}

// deployCommand is /sandtable deploy: in the game thread or in direct
// messages, it shows the caller's panel, or applies one change (a layout
// file, a preset, random, or edits) and shows the result, privately.
func deployCommand(a *commands.App, req *commands.Request) (*response, error) {
	gameID, err := deployGame(a, req)
	if err != nil {
		return nil, err
	}
	return commands.Run(a, req, gameID, func(t *turn) (*response, error) {
		side, err := deployer(t)
		if err != nil {
			return nil, err
		}
		file := req.Options["file"]
		given := 0
		for _, name := range []string{"file", "preset", "random", "edit"} {
			if _, ok := req.Options[name]; ok {
				given++
			}
		}
		if given > 1 {
			return nil, commands.Errorf("Give one of file, preset, random or edit at a time.")
		}
		if given > 0 && t.State.pos.Confirmed(side) {
			return nil, commands.Errorf("You have confirmed your deployment: press **Unconfirm** in your panel first to change it.")
		}
		switch {
		case file.AttachmentURL != "":
			data, err := a.Platform.Download(req.Context(), file.AttachmentURL, maxLayoutBytes)
			if errors.Is(err, commands.ErrTooLarge) {
				return nil, commands.Errorf("%s is too large for a layout (at most %d KB).", commands.EscapeText(file.AttachmentName, maxEcho), maxLayoutBytes>>10)
			}
			if err != nil {
				return nil, commands.Errorf("I could not read %s: %s. Nothing changed.", commands.EscapeText(file.AttachmentName, maxEcho), commands.EscapeText(err.Error(), 200))
			}
			return deployLayoutText(t, string(data), false)
		case req.Str("preset") != "":
			return deployApply(t, t.State.clone(), side, []deployEdit{{act: engine.Action{Kind: engine.ActDeployPreset, Side: side, Name: req.Str("preset")}}},
				fmt.Sprintf("Preset **%s** loaded.", req.Str("preset")), false)
		case req.Options["random"].Bool:
			return deployApply(t, t.State.clone(), side, []deployEdit{{act: engine.Action{Kind: engine.ActDeployRandom, Side: side, Seed: randomUint64()}}},
				"A random valid deployment.", false)
		case req.Str("edit") != "":
			acts, err := parseDeployEdits(side, req.Str("edit"))
			if err != nil {
				return nil, err
			}
			return deployApply(t, t.State.clone(), side, acts, fmt.Sprintf("%s applied.", commands.Plural(len(acts), "change", "changes")), false)
		}
		return reopen(t, t.State.clone(), side, "", "")
	})
}

// deployGame finds the game /sandtable deploy is about: the thread's
// game, or in direct messages the caller's one SandTable game in
// Deployment (or the one the game option names).
func deployGame(a *commands.App, req *commands.Request) (string, error) {
	want := strings.ToLower(req.Str("game"))
	view := func(fn func(tx storage.Tx) error) error { return a.Store.View(context.Background(), fn) }
	if req.GuildID != "" && want == "" {
		var g *storage.Game
		err := view(func(tx storage.Tx) error {
			var err error
			g, err = tx.Games().ByChannel(req.ChannelID)
			return err
		})
		if err != nil {
			return "", commands.Errorf("Use /sandtable deploy in your game's thread or in a direct message to me.")
		}
		if g.Kind != Kind {
			return "", commands.Errorf("This thread's game is not SandTable Chess.")
		}
		return g.ID, nil
	}
	var games []*storage.Game
	if err := view(func(tx storage.Tx) error {
		var err error
		games, err = tx.Games().Active(req.User.ID)
		return err
	}); err != nil {
		return "", err
	}
	var found []*storage.Game
	for _, g := range games {
		if g.Kind != Kind || !g.Active {
			continue
		}
		if want != "" {
			if g.ID == want {
				return g.ID, nil
			}
			continue
		}
		if pos, _, err := Load(g); err == nil && pos.Phase() == engine.PhaseDeployment {
			found = append(found, g)
		}
	}
	switch {
	case want != "":
		return "", commands.Errorf("You have no active SandTable game %s (the game ID is in the footer of its messages).", commands.QuoteInput(want))
	case len(found) == 0:
		return "", commands.Errorf("You have no SandTable game in Deployment.")
	case len(found) > 1:
		ids := make([]string, len(found))
		for i, g := range found {
			ids[i] = fmt.Sprintf("`%s` (<#%s>)", g.ID, g.ThreadID)
		}
		return "", commands.Errorf("You are deploying in several games: %s. Say which with the game option.", strings.Join(ids, ", "))
	}
	return found[0].ID, nil
}
