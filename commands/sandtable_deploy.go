package commands

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"sandtable/commands/ui"
	"sandtable/games/sandtable"
	"sandtable/storage"
)

// Secret deployment (issue 7 point 2). Each player edits a private panel
// (sent by direct message, or ephemeral when the player's direct messages
// are closed): presets, random, a pasted or uploaded layout, piece-by-piece
// edits, each followed by a private preview image; Confirm is refused with
// the engine's error while the draft is invalid. The thread shows only who
// has confirmed; the second confirmation reveals both deployments and the
// coin flip publicly.

// maxLayoutBytes is the largest layout file /sandtable deploy accepts (a
// full layout with comments is under 1 KB).
const maxLayoutBytes = 16 << 10

func zoneText(side sandtable.Side) string {
	if side == sandtable.North {
		return "ranks 12–20 (rank 11, facing the enemy, stays empty)"
	}
	return "ranks 1–9 (rank 10, facing the enemy, stays empty)"
}

// deployPanel is side's private deployment panel: the draft as a private
// image, what is placed and what is missing, and the controls.
func (a *App) deployPanel(g *storage.Game, st *sandState, pos *sandtable.Position, side sandtable.Side, note string) (Message, error) {
	d := pos.View(side).Draft(side)
	if pos.Phase() != sandtable.PhaseDeployment || d == nil || st.over(pos) {
		switch {
		case note != "":
		case st.over(pos):
			note = fmt.Sprintf("Game %s in <#%s> is over, ended during Deployment: %s This panel is closed; nothing of your deployment was revealed.", g.ID, g.ThreadID, st.resultLine(pos))
		default:
			note = fmt.Sprintf("Deployment is over in game %s: the game is on in <#%s>.", g.ID, g.ThreadID)
		}
		return Message{Content: note, Cards: []*ui.Card{}, Rows: []ui.Row{}}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "You play **%s** against %s in <#%s>. Only you can see this panel.\n", side, st.player(side.Opp()).Mention(), g.ThreadID)
	fmt.Fprintf(&b, "Your zone: %s.\n\n", zoneText(side))
	var counts []string
	for _, k := range sandtable.AllKinds {
		mark := ""
		if d.Count(k) == sandtable.Required[k] {
			mark = " ✓"
		}
		counts = append(counts, fmt.Sprintf("%s %d/%d%s", kindPlural(k), d.Count(k), sandtable.Required[k], mark))
	}
	fmt.Fprintf(&b, "**Placed %d of %d**: %s\n", d.Len(), sandtable.RequiredTotal, strings.Join(counts, " · "))
	problems := d.Problems()
	switch {
	case pos.Confirmed(side):
		fmt.Fprintf(&b, "**Confirmed** ✅. Waiting for %s; until they confirm you may still **Unconfirm** and change it.\n", st.player(side.Opp()).Mention())
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
	file, err := a.sandPrivateFile(pos, nil, side, "deployment.png")
	if err != nil {
		return Message{}, err
	}
	e := &ui.Card{
		Title:       fmt.Sprintf("Your secret deployment: %s", side),
		Description: b.String(),
		Color:       sideColor(side),
		Image:       "deployment.png",
		Footer:      fmt.Sprintf("Game %s · %s at the bottom · private", g.ID, side),
	}
	var rows []ui.Row
	if pos.Confirmed(side) {
		rows = []ui.Row{{
			GameArgButton(g, "dep-unconfirm", panelStamp(pos, side), "Unconfirm", ui.Danger),
			GameButton(g, "dep-text", "Layout as text", ui.Secondary),
		}}
	} else {
		var opts []ui.SelectOption
		for _, n := range sandtable.PresetNames() {
			opts = append(opts, ui.SelectOption{Label: n, Value: n, Description: presetBlurb[n]})
		}
		rows = []ui.Row{
			ui.Row{ui.Select{
				Route: CustomID{Scope: "g", ID: g.ID, Action: "dep-preset"}.String(), Placeholder: "Choose a preset…", Options: opts,
			}},
			ui.Row{
				GameButton(g, "dep-random", "Random", ui.Secondary),
				GameButton(g, "dep-paste", "Paste layout", ui.Secondary),
				GameArgButton(g, "dep-edit", panelStamp(pos, side), "Edit pieces", ui.Secondary),
				GameButton(g, "dep-clear", "Clear", ui.Danger),
			},
			ui.Row{
				GameArgButton(g, "dep-confirm", panelStamp(pos, side), "Confirm", ui.Success),
				GameButton(g, "dep-text", "Layout as text", ui.Secondary),
			},
		}
	}
	return Message{Content: note, Cards: []*ui.Card{e}, Files: []*ui.File{file}, Rows: rows}, nil
}

// panelStamp identifies side's deployment as a panel shows it: the draft's
// layout and whether it is confirmed. The panel's controls whose effect
// depends on what the panel shows (Confirm, Unconfirm, Edit pieces and its
// form) carry it; the others replace the whole draft and show the result.
func panelStamp(pos *sandtable.Position, side sandtable.Side) string {
	d := pos.View(side).Draft(side)
	if d == nil {
		return stamp("none")
	}
	return stamp(d.Layout(), strconv.FormatBool(pos.Confirmed(side)))
}

// sandPanelStale answers a control of a panel that no longer shows side's
// deployment as it is (nil when it does): the panel brought up to date,
// with nothing changed.
func (a *App) sandPanelStale(req *Request, g *storage.Game, st *sandState, pos *sandtable.Position, side sandtable.Side) (*Response, error) {
	if id, _ := ParseCustomID(req.CustomID); id.Arg == panelStamp(pos, side) {
		return nil, nil
	}
	return a.deployAnswer(g, st, pos, side, "Nothing changed: this panel showed an older version of your deployment (it was changed since, in another panel or with /sandtable deploy). Here it is now.", true)
}

var presetBlurb = map[string]string{
	"fortress": "A hazard screen before a wall of Infantry, Vehicles close behind",
	"phalanx":  "A double line of Infantry in front, hazards behind each line",
	"skirmish": "Three open Infantry lines screened by Mines and Anti-Air",
}

func kindPlural(k sandtable.Kind) string {
	if k == sandtable.Infantry || k == sandtable.AntiAir {
		return k.String()
	}
	return k.String() + "s"
}

// sandDeployLoad loads the game for a deployment action of req's user.
func sandDeployLoad(g *storage.Game, req *Request) (*sandState, *sandtable.Position, sandtable.Side, error) {
	st, pos, side, err := sandLoadPlayer(g, req, false)
	if err != nil {
		return nil, nil, 0, err
	}
	if pos.Phase() != sandtable.PhaseDeployment {
		return nil, nil, 0, Errorf("Deployment is over: both deployments were revealed and the game is on in <#%s>.", g.ThreadID)
	}
	return st, pos, side, nil
}

// sandDraftLoad loads the game for a change of req's user's deployment
// draft, refused once the deployment is confirmed.
func sandDraftLoad(g *storage.Game, req *Request) (*sandtable.Position, sandtable.Side, error) {
	_, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, 0, err
	}
	if pos.Confirmed(side) {
		return nil, 0, Errorf("You have confirmed your deployment: press **Unconfirm** first to change it.")
	}
	return pos, side, nil
}

// sandDeployOpen: the thread's "Deploy (private)" button sends the
// clicker's panel by direct message, or shows it ephemerally when the
// clicker's direct messages are closed.
func sandDeployOpen(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, err
	}
	panel, err := a.deployPanel(g, st, pos, side, "")
	if err != nil {
		return nil, err
	}
	resp, dmID, err := a.sendPrivately(req, panel, "I sent your deployment panel to you by direct message. Only you can see it there.")
	if err == nil && dmID != "" {
		st.addPanel(side, dmID)
		err = a.sandSave(g, st, pos, req.Now, "")
	}
	return resp, err
}

// sandDeployButton handles the panel's preset menu and its Random, Clear,
// Confirm and Unconfirm buttons; the panel is updated in place.
func sandDeployButton(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, err
	}
	id, _ := ParseCustomID(req.CustomID)
	if id.Action == "dep-confirm" || id.Action == "dep-unconfirm" {
		if resp, err := a.sandPanelStale(req, g, st, pos, side); resp != nil || err != nil {
			return resp, err
		}
	}
	act := sandtable.Action{Side: side}
	var note string
	switch id.Action {
	case "dep-preset":
		if len(req.Values) != 1 {
			return nil, Errorf("Choose one preset.")
		}
		act.Kind, act.Name = sandtable.ActDeployPreset, req.Values[0]
		note = fmt.Sprintf("Preset **%s** loaded.", req.Values[0])
	case "dep-random":
		act.Kind, act.Seed = sandtable.ActDeployRandom, randomUint64()
		note = "A random valid deployment."
	case "dep-clear":
		act.Kind = sandtable.ActDeployClear
		note = "Cleared: your zone is empty."
	case "dep-confirm":
		act.Kind = sandtable.ActDeployConfirm
		st.markDone(req, side, "you confirmed this deployment")
	case "dep-unconfirm":
		act.Kind = sandtable.ActDeployUnconfirm
		note = "Confirmation withdrawn: you can change your deployment again."
		st.markDone(req, side, "you withdrew the confirmation of this deployment")
	}
	return a.sandDeployApply(req, g, st, pos, side, []deployEdit{{act: act}}, note, true)
}

// sandDeployApply applies deployment actions (all or nothing), saves, makes
// the public announcements (a confirmation, the reveal) and answers with
// the updated panel: in place when update, else as a new private message.
func (a *App) sandDeployApply(req *Request, g *storage.Game, st *sandState, pos *sandtable.Position, side sandtable.Side, acts []deployEdit, note string, update bool) (*Response, error) {
	work := pos.Clone()
	wst := *st
	for _, e := range acts {
		if _, err := a.sandApply(g, &wst, work, e.act, req.Now); err != nil {
			what := "This change"
			switch {
			case e.act.Kind == sandtable.ActDeployConfirm:
				var re *sandtable.RuleError
				if errors.As(err, &re) {
					return nil, Errorf("You cannot confirm yet: %s. Nothing changed.", re.Msg)
				}
			case e.label != "":
				what = e.label
			}
			return nil, sandRuleError(what, err)
		}
	}
	*st, *pos = wst, *work
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	last := acts[len(acts)-1].act.Kind
	switch {
	case pos.Phase() != sandtable.PhaseDeployment:
		a.sandRevealed(g, st, pos, side)
		return a.deployAnswer(g, st, pos, side, fmt.Sprintf("Your deployment is confirmed, and so is %s's: both are revealed and the game is on in <#%s>.", st.player(side.Opp()).Mention(), g.ThreadID), update)
	case last == sandtable.ActDeployConfirm:
		note = fmt.Sprintf("Confirmed. Your deployment stays secret until %s confirms too.", st.player(side.Opp()).Mention())
		a.sandPublic(g, Message{Content: fmt.Sprintf("%s has confirmed their deployment.", st.describe(side))})
		a.sandStatusEdit(g, st, pos)
	case last == sandtable.ActDeployUnconfirm:
		a.sandPublic(g, Message{Content: fmt.Sprintf("%s withdrew their confirmation and is deploying again.", st.describe(side))})
		a.sandStatusEdit(g, st, pos)
	}
	return a.deployAnswer(g, st, pos, side, note, update)
}

func (a *App) deployAnswer(g *storage.Game, st *sandState, pos *sandtable.Position, side sandtable.Side, note string, update bool) (*Response, error) {
	panel, err := a.deployPanel(g, st, pos, side, note)
	if err != nil {
		return nil, err
	}
	return &Response{Message: panel, Update: update, Ephemeral: !update}, nil
}

// sandPublic posts m in the game thread (best effort: the action it
// announces is saved already).
func (a *App) sandPublic(g *storage.Game, m Message) {
	if _, err := a.Platform.Send(g.ThreadID, m); err != nil {
		a.Log.Error("posting in the game thread failed", "game", g.ID, "err", err)
	}
}

// sandRevealed announces the reveal: the public board with both
// deployments and the coin flip, the status message closed, and a note to
// the player who confirmed first.
func (a *App) sandRevealed(g *storage.Game, st *sandState, pos *sandtable.Position, last sandtable.Side) {
	note := fmt.Sprintf("%s confirmed too: both deployments are revealed. 🪙 The coin is flipped: **%s**. %s moves first.",
		st.describe(last), pos.First(), st.describe(pos.First()))
	msg, err := a.sandBoardMessage(g, st, pos, note)
	if err != nil {
		a.Log.Error("drawing the revealed board failed", "game", g.ID, "err", err)
		return
	}
	a.sandPublic(g, msg)
	a.sandStatusEdit(g, st, pos)
	other := st.player(last.Opp())
	if _, err := a.Platform.DM(other.ID, Message{Content: fmt.Sprintf("Both deployments are revealed in <#%s>; the coin chose %s to move first.", g.ThreadID, pos.First())}); err != nil && !errors.Is(err, ErrDMClosed) {
		a.Log.Warn("reveal notice failed", "game", g.ID, "err", err)
	}
}

// sandDeployPaste opens a form with the current layout to edit or replace.
func sandDeployPaste(a *App, req *Request, g *storage.Game) (*Response, error) {
	pos, side, err := sandDraftLoad(g, req)
	if err != nil {
		return nil, err
	}
	return &Response{Modal: &Modal{
		CustomID: CustomID{Scope: "g", ID: g.ID, Action: "dep-layout"}.String(),
		Title:    fmt.Sprintf("Your layout (%s)", side),
		Inputs: []ModalInput{{CustomID: "layout", Label: "Rank, then 20 cells: . B T P I M A",
			Paragraph: true, Required: true, MaxLength: 4000, Value: pos.View(side).Draft(side).Layout()}},
	}}, nil
}

// sandDeployLayout replaces the draft with a pasted layout.
func sandDeployLayout(a *App, req *Request, g *storage.Game) (*Response, error) {
	return a.sandDeployLayoutText(req, g, req.Fields["layout"], true)
}

func (a *App) sandDeployLayoutText(req *Request, g *storage.Game, text string, update bool) (*Response, error) {
	st, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, err
	}
	d, err := sandtable.ParseLayout(side, text)
	if err != nil {
		return nil, sandRuleError("Your layout", err)
	}
	if err := pos.SetDraft(side, d); err != nil {
		return nil, sandRuleError("Your layout", err)
	}
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	return a.deployAnswer(g, st, pos, side, fmt.Sprintf("Layout loaded: %d pieces.", d.Len()), update)
}

// sandDeployEdit opens the piece-by-piece form, whose edits apply to the
// deployment the panel shows.
func sandDeployEdit(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, err
	}
	if resp, err := a.sandPanelStale(req, g, st, pos, side); resp != nil || err != nil {
		return resp, err
	}
	if _, _, err := sandDraftLoad(g, req); err != nil {
		return nil, err
	}
	return &Response{Modal: &Modal{
		CustomID: CustomID{Scope: "g", ID: g.ID, Action: "dep-edits", Arg: panelStamp(pos, side)}.String(),
		Title:    "Edit pieces",
		Inputs: []ModalInput{{CustomID: "edits", Label: "Changes, one per line", Paragraph: true, Required: true, MaxLength: 2000,
			Placeholder: "place T c3\nplace I a5 b5 c5\nmove c3-d3\nremove d3"}},
	}}, nil
}

// sandDeployEdits applies the form's changes, all or nothing.
func sandDeployEdits(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, err
	}
	if resp, err := a.sandPanelStale(req, g, st, pos, side); resp != nil || err != nil {
		return resp, err
	}
	acts, err := parseDeployEdits(side, req.Field("edits"))
	if err != nil {
		return nil, err
	}
	st.markDone(req, side, "you applied this form's changes to your deployment")
	return a.sandDeployApply(req, g, st, pos, side, acts, fmt.Sprintf("%s applied.", Plural(len(acts), "change", "changes")), true)
}

// deployEdit is one deployment action and, for typed edits, the line it
// came from, to name in an error.
type deployEdit struct {
	act   sandtable.Action
	label string
}

// parseDeployEdits reads typed deployment edits with the engine
// (sandtable.ParseDeployEdits); an error names the line, quoted.
func parseDeployEdits(side sandtable.Side, text string) ([]deployEdit, error) {
	edits, err := sandtable.ParseDeployEdits(side, text)
	var ee *sandtable.EditError
	switch {
	case errors.As(err, &ee) && ee.Line > 0:
		return nil, Errorf("%s: %s. Nothing changed.", editLabel(ee.Line, ee.Text), EngineText(ee.Msg))
	case errors.As(err, &ee):
		return nil, Errorf("%s.", EngineText(strings.ToUpper(ee.Msg[:1])+ee.Msg[1:]))
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
	return fmt.Sprintf("Line %d (%s)", line, QuoteInput(text))
}

// sandDeployText answers with the draft in the layout format, to copy.
func sandDeployText(a *App, req *Request, g *storage.Game) (*Response, error) {
	_, pos, side, err := sandDeployLoad(g, req)
	if err != nil {
		return nil, err
	}
	return Private("Your current layout (%s). Copy it, change it and paste it back with **Paste layout**, or save it as a file for `/sandtable deploy file:`.\n```\n%s```", side, pos.View(side).Draft(side).Layout()), nil
}

// sandDeployCommand is /sandtable deploy: in the game thread or in direct
// messages, it shows the caller's panel, or applies one change (a layout
// file, a preset, random, or edits) and shows the result, privately.
func sandDeployCommand(a *App, req *Request) (*Response, error) {
	g, err := a.sandDeployGame(req)
	if err != nil {
		return nil, err
	}
	return a.withGame(g.ID, req, func(a *App, req *Request, g *storage.Game) (*Response, error) {
		st, pos, side, err := sandDeployLoad(g, req)
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
			return nil, Errorf("Give one of file, preset, random or edit at a time.")
		}
		if given > 0 && pos.Confirmed(side) {
			return nil, Errorf("You have confirmed your deployment: press **Unconfirm** in your panel first to change it.")
		}
		switch {
		case file.AttachmentURL != "":
			data, err := a.Platform.Download(file.AttachmentURL, maxLayoutBytes)
			if errors.Is(err, ErrTooLarge) {
				return nil, Errorf("%s is too large for a layout (at most %d KB).", EscapeText(file.AttachmentName, maxEcho), maxLayoutBytes>>10)
			}
			if err != nil {
				return nil, Errorf("I could not read %s: %s. Nothing changed.", EscapeText(file.AttachmentName, maxEcho), EscapeText(err.Error(), 200))
			}
			return a.sandDeployLayoutText(req, g, string(data), false)
		case req.Str("preset") != "":
			return a.sandDeployApply(req, g, st, pos, side, []deployEdit{{act: sandtable.Action{Kind: sandtable.ActDeployPreset, Side: side, Name: req.Str("preset")}}},
				fmt.Sprintf("Preset **%s** loaded.", req.Str("preset")), false)
		case req.Options["random"].Bool:
			return a.sandDeployApply(req, g, st, pos, side, []deployEdit{{act: sandtable.Action{Kind: sandtable.ActDeployRandom, Side: side, Seed: randomUint64()}}},
				"A random valid deployment.", false)
		case req.Str("edit") != "":
			acts, err := parseDeployEdits(side, req.Str("edit"))
			if err != nil {
				return nil, err
			}
			return a.sandDeployApply(req, g, st, pos, side, acts, fmt.Sprintf("%s applied.", Plural(len(acts), "change", "changes")), false)
		}
		return a.deployAnswer(g, st, pos, side, "", false)
	})
}

// sandDeployGame finds the game /sandtable deploy is about: the thread's
// game, or in direct messages the caller's one SandTable game in
// Deployment (or the one the game option names).
func (a *App) sandDeployGame(req *Request) (*storage.Game, error) {
	want := strings.ToLower(req.Str("game"))
	if req.GuildID != "" && want == "" {
		g, err := a.gameInChannel(req.ChannelID)
		if err != nil {
			return nil, Errorf("Use /sandtable deploy in your game's thread or in a direct message to me.")
		}
		if g.Kind != kindSandTable {
			return nil, Errorf("This thread's game is not SandTable Chess.")
		}
		return g, nil
	}
	games, err := a.gamesOf(req.User.ID)
	if err != nil {
		return nil, err
	}
	var found []*storage.Game
	for _, g := range games {
		if g.Kind != kindSandTable || !g.Active {
			continue
		}
		if want != "" {
			if g.ID == want {
				return g, nil
			}
			continue
		}
		if _, pos, err := loadSand(g); err == nil && pos.Phase() == sandtable.PhaseDeployment {
			found = append(found, g)
		}
	}
	switch {
	case want != "":
		return nil, Errorf("You have no active SandTable game %s (the game ID is in the footer of its messages).", QuoteInput(want))
	case len(found) == 0:
		return nil, Errorf("You have no SandTable game in Deployment.")
	case len(found) > 1:
		ids := make([]string, len(found))
		for i, g := range found {
			ids[i] = fmt.Sprintf("`%s` (<#%s>)", g.ID, g.ThreadID)
		}
		return nil, Errorf("You are deploying in several games: %s. Say which with the game option.", strings.Join(ids, ", "))
	}
	return found[0], nil
}
