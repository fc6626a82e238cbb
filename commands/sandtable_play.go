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

// Turns (issue 7 point 3): /move takes Main actions and Mine or Anti-Air
// placements in the engine's notation, with autocomplete from the engine's
// legal generators; /step builds an Infantry turn as a private draft with a
// Commit button; Drone orders are given in a private form and confirmed
// privately with an image of spotter and target.

const droneSecretMsg = "Drone orders are secret, so they are never typed in the thread: press **Order a Drone (private)** on the board message during your PostTurn."

// isDroneText reports whether /move's text is a Drone order (notes in
// parentheses ignored, as the notation reader ignores them): secret, so
// answered privately from the first byte and never played from /move.
func isDroneText(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(sandtable.StripNotes(text)), "D")
}

func sandMove(a *App, req *Request, g *storage.Game) (*Response, error) {
	text := req.Str("move")
	if isDroneText(text) {
		return nil, Errorf("%s", droneSecretMsg)
	}
	st, pos, side, err := sandLoadPlayer(g, req, true)
	if err != nil {
		return nil, err
	}
	act, err := sandMoveAction(text)
	if err != nil {
		return nil, err
	}
	return a.sandPlay(req, g, st, pos, side, act, QuoteInput(text))
}

// sandMoveAction reads /move's text: one Main action or a Mine or
// Anti-Air placement in the notation; notes in parentheses (those of the
// autocomplete's choice names) are ignored. Anything else is refused with
// what to do instead.
func sandMoveAction(text string) (sandtable.Action, error) {
	if strings.TrimSpace(sandtable.StripNotes(text)) == "" {
		return sandtable.Action{}, Errorf("Write your action in the move option, e.g. `d4-d5 e4-e5` (Infantry), `Tc3-c8` (Tank), `Pa1-h8/d9` (Airplane, crew steps out to d9), `Mf5` or `Af5` (PostTurn).")
	}
	act, err := sandtable.ParseAction(sandtable.StripNotes(text))
	if err != nil {
		return sandtable.Action{}, sandRuleError(QuoteInput(text), err)
	}
	switch act.Kind {
	case sandtable.ActInfantry, sandtable.ActVehicle, sandtable.ActMine, sandtable.ActAntiAir:
		return act, nil
	case sandtable.ActResign:
		return sandtable.Action{}, Errorf("To resign, use /resign.")
	case sandtable.ActDraw:
		return sandtable.Action{}, Errorf("A draw is agreed with /draw offer and /draw accept.")
	case sandtable.ActDrone:
		return sandtable.Action{}, Errorf("%s", droneSecretMsg)
	}
	return sandtable.Action{}, Errorf("%s is a deployment change: deployment is done in your private panel.", QuoteInput(text))
}

// sandStepAction reads /step's text: Infantry steps to add to the draft,
// notes in parentheses ignored.
func sandStepAction(text string) (sandtable.Action, error) {
	act, err := sandtable.ParseAction(sandtable.StripNotes(text))
	if err != nil {
		return sandtable.Action{}, sandRuleError(QuoteInput(text), err)
	}
	if act.Kind != sandtable.ActInfantry {
		return sandtable.Action{}, Errorf("A draft holds Infantry steps only (like `d4-d5`); a Vehicle move or a hazard is one /move.")
	}
	return act, nil
}

// sandPlay plays side's action act (a Main action, a hazard), saves it and
// answers with the public board, then tells the players their secret news;
// what names the action in a refusal.
func (a *App) sandPlay(req *Request, g *storage.Game, st *sandState, pos *sandtable.Position, side sandtable.Side, act sandtable.Action, what string) (*Response, error) {
	entries, err := a.sandApply(g, st, pos, act, req.Now)
	if err != nil {
		return nil, sandRuleError(what, err)
	}
	resp, err := a.sandCommit(req, g, st, pos, st.playedNote(req, pos, side, act))
	if err != nil {
		return nil, err
	}
	a.sandNotices(g, st, entries)
	return resp, nil
}

// playedNote is the board's note after req's user, playing side, played
// act: what was played and what comes next.
func (st *sandState) playedNote(req *Request, pos *sandtable.Position, side sandtable.Side, act sandtable.Action) string {
	return fmt.Sprintf("%s played **%s**. %s", req.User.Mention(), act.String(), st.nextPrompt(pos, side))
}

// nextPrompt says what happens next after side acted.
func (st *sandState) nextPrompt(pos *sandtable.Position, side sandtable.Side) string {
	switch {
	case st.over(pos):
		return st.resultLine(pos)
	case pos.ToMove() == side && pos.Phase() == sandtable.PhasePostTurn:
		return fmt.Sprintf("PostTurn: %s left.", Plural(pos.HazardUses(), "hazard use", "hazard uses"))
	case pos.ToMove() != side:
		return fmt.Sprintf("%s, your turn.", st.player(pos.ToMove()).Mention())
	}
	return ""
}

// sandNotices tells each player, privately, the secret news of entries
// that only they may know: their Drones cancelled by the loss of a spotter
// (the public learns which spotter was lost, never the target). Best effort.
func (a *App) sandNotices(g *storage.Game, st *sandState, entries []sandtable.Entry) {
	for _, side := range []sandtable.Side{sandtable.South, sandtable.North} {
		var lines []string
		for _, e := range sandtable.FilterLog(entries, side) {
			if e.Secret != sandtable.NoSide && e.Kind == sandtable.EntryDroneCancelled {
				lines = append(lines, "• "+e.Text)
			}
		}
		if len(lines) == 0 {
			continue
		}
		m := Message{Content: fmt.Sprintf("In <#%s> (private):\n%s", g.ThreadID, strings.Join(lines, "\n"))}
		if _, err := a.Platform.DM(st.player(side).ID, m); err != nil && !errors.Is(err, ErrDMClosed) {
			a.Log.Warn("private notice failed", "game", g.ID, "err", err)
		}
	}
}

// ---- /step: a private Infantry draft ----

func (st *sandState) draftSteps(side sandtable.Side) []sandtable.Step {
	if len(st.Steps[side]) == 0 {
		return nil
	}
	act, err := sandtable.ParseAction(strings.Join(st.Steps[side], " "))
	if err != nil {
		return nil
	}
	return act.Steps
}

// sandStep adds Infantry steps to the player's private draft.
func sandStep(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandLoadPlayer(g, req, true)
	if err != nil {
		return nil, err
	}
	if pos.Phase() != sandtable.PhaseMain {
		return nil, Errorf("A draft is for the Infantry of your Main phase; it is your %s now.", pos.Phase().Title())
	}
	text := req.Str("step")
	act, err := sandStepAction(text)
	if err != nil {
		return nil, err
	}
	all := append(st.draftSteps(side), act.Steps...)
	if _, err := pos.LegalNextSteps(all); err != nil {
		return nil, sandRuleError("Adding "+QuoteInput(text), err)
	}
	st.Steps[side] = nil
	for _, s := range all {
		st.Steps[side] = append(st.Steps[side], s.String())
	}
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	return a.sandDraftAnswer(g, st, pos, side, fmt.Sprintf("Added %s.", act.String()), false)
}

// sandDraftAnswer shows side's draft privately: the steps, a preview image
// of the board after them, and Commit, Undo and Discard.
func (a *App) sandDraftAnswer(g *storage.Game, st *sandState, pos *sandtable.Position, side sandtable.Side, note string, update bool) (*Response, error) {
	steps := st.Steps[side]
	if len(steps) == 0 {
		return &Response{Update: update, Ephemeral: !update, Message: Message{
			Content: note + " Your draft is empty. Add Infantry steps with /step, or play a whole action with /move.", Rows: []ui.Row{}}}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n**Your Infantry draft for turn %d** (private, not played yet):\n", note, pos.Turn())
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	b.WriteString("Add steps with /step. **Commit** plays them all as your Main action; the image shows the board after them.")
	c, entries, err := pos.Preview(side, sandtable.Action{Kind: sandtable.ActInfantry, Steps: st.draftSteps(side)})
	if err != nil {
		return nil, sandRuleError("Your draft", err)
	}
	file, err := a.sandPrivateFile(c, entries, side, "draft.png")
	if err != nil {
		return nil, err
	}
	return &Response{Update: update, Ephemeral: !update, Message: Message{
		Cards: []*ui.Card{{Description: b.String(), Image: "draft.png",
			Footer: "Game " + g.ID + " · private draft"}},
		Files: []*ui.File{file},
		Rows: []ui.Row{{
			GameArgButton(g, "step-commit", st.draftStamp(pos, side), "Commit", ui.Success),
			GameArgButton(g, "step-undo", st.draftStamp(pos, side), "Undo last step", ui.Secondary),
			GameArgButton(g, "step-discard", st.draftStamp(pos, side), "Discard", ui.Danger),
		}},
	}}, nil
}

// draftStamp identifies side's draft as a draft message shows it: its turn
// and its steps (the buttons' arg).
func (st *sandState) draftStamp(pos *sandtable.Position, side sandtable.Side) string {
	return stamp(strconv.Itoa(pos.Turn()), side.String(), strings.Join(st.Steps[side], " "))
}

// sandStepLoad loads the game for a button of a draft message, which acts
// only on the draft that message shows. A message whose draft is gone
// (played, discarded, lapsed) loses its buttons; one whose draft has
// changed since is brought up to date. Either way nothing changes, and
// the answer (resp) says so.
func (a *App) sandStepLoad(g *storage.Game, req *Request) (st *sandState, pos *sandtable.Position, side sandtable.Side, resp *Response, err error) {
	st, pos, side, err = sandLoadPlayer(g, req, true)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	if pos.Phase() != sandtable.PhaseMain || len(st.Steps[side]) == 0 {
		return nil, nil, 0, &Response{Update: true, Message: Message{
			Content: "You have no Infantry draft for this Main phase (a draft lapses when your Main action is played): this draft was played, discarded or lapsed. Nothing changed.",
			Cards:   []*ui.Card{}, Rows: []ui.Row{}}}, nil
	}
	if id, _ := ParseCustomID(req.CustomID); id.Arg != st.draftStamp(pos, side) {
		resp, err := a.sandDraftAnswer(g, st, pos, side, "Nothing changed: this message showed an older draft. Here is your draft now.", true)
		return nil, nil, 0, resp, err
	}
	return st, pos, side, nil, nil
}

// sandStepCommit plays the draft as the Main action: the public board goes
// to the thread, and the draft message says what was played, without its
// buttons.
func sandStepCommit(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, resp, err := a.sandStepLoad(g, req)
	if resp != nil || err != nil {
		return resp, err
	}
	act := sandtable.Action{Kind: sandtable.ActInfantry, Steps: st.draftSteps(side)}
	turn := pos.Turn()
	st.markDone(req, side, fmt.Sprintf("you committed this draft: **%s** was played in turn %d", act.String(), turn))
	entries, err := a.sandApply(g, st, pos, act, req.Now)
	if err != nil {
		return nil, sandRuleError("Your draft", err)
	}
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	pub, err := a.sandMessage(g, st, pos, st.playedNote(req, pos, side, act))
	if err != nil {
		return nil, err
	}
	a.sandPublic(g, pub)
	a.sandNotices(g, st, entries)
	return &Response{Update: true, Message: Message{
		Content: fmt.Sprintf("**Committed** ✅: you played **%s** as your Main action of turn %d. The board is in <#%s>.", act.String(), turn, g.ThreadID),
		Cards:   []*ui.Card{},
		Rows:    []ui.Row{},
	}}, nil
}

func sandStepUndo(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, resp, err := a.sandStepLoad(g, req)
	if resp != nil || err != nil {
		return resp, err
	}
	last := st.Steps[side][len(st.Steps[side])-1]
	st.Steps[side] = st.Steps[side][:len(st.Steps[side])-1]
	st.markDone(req, side, fmt.Sprintf("you took back %s from this draft", last))
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	return a.sandDraftAnswer(g, st, pos, side, fmt.Sprintf("Took back %s.", last), true)
}

func sandStepDiscard(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, resp, err := a.sandStepLoad(g, req)
	if resp != nil || err != nil {
		return resp, err
	}
	st.Steps[side] = nil
	st.markDone(req, side, "you discarded this draft")
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	return a.sandDraftAnswer(g, st, pos, side, "Draft discarded.", true)
}

// ---- Drones ----

func sandPostTurnLoad(g *storage.Game, req *Request) (*sandState, *sandtable.Position, sandtable.Side, error) {
	st, pos, side, err := sandLoadPlayer(g, req, true)
	if err != nil {
		return nil, nil, 0, err
	}
	if pos.Phase() != sandtable.PhasePostTurn {
		return nil, nil, 0, Errorf("Drones are ordered in your PostTurn, after your Main action; it is your %s now.", pos.Phase().Title())
	}
	return st, pos, side, nil
}

// sandDroneTurn loads the game for the Drone button of a board, or its
// form, which carry the board's turn: a board of an earlier turn does not
// order Drones in a later one (messages from before boards carried their
// turn, without one, act in the current turn).
func sandDroneTurn(g *storage.Game, req *Request) (*sandState, *sandtable.Position, sandtable.Side, error) {
	st, pos, side, err := sandPostTurnLoad(g, req)
	if err != nil {
		return nil, nil, 0, err
	}
	if id, _ := ParseCustomID(req.CustomID); id.Arg != "" && id.Arg != strconv.Itoa(pos.Turn()) {
		return nil, nil, 0, Errorf("This board is from turn %s; it is turn %d now. Use **Order a Drone (private)** on the newest board. Nothing changed.", id.Arg, pos.Turn())
	}
	return st, pos, side, nil
}

// sandDroneButton opens the private Drone order form.
func sandDroneButton(a *App, req *Request, g *storage.Game) (*Response, error) {
	_, pos, _, err := sandDroneTurn(g, req)
	if err != nil {
		return nil, err
	}
	return &Response{Modal: &Modal{
		CustomID: CustomID{Scope: "g", ID: g.ID, Action: "drone-order", Arg: strconv.Itoa(pos.Turn())}.String(),
		Title:    "Order a Drone (secret)",
		Inputs: []ModalInput{
			{CustomID: "spotter", Label: "Spotter: your Infantry's square or ID", Placeholder: "d4 or SI12", Required: true, MaxLength: 8},
			{CustomID: "target", Label: "Target square (within 2 of the spotter)", Placeholder: "f6", Required: true, MaxLength: 4},
		},
	}}, nil
}

// droneNotation reads the form's spotter (a square or an ID, any case)
// and target into the notation "Dd4-f6" / "DSI12-f6".
func droneNotation(spotter, target string) string {
	sp := strings.TrimSpace(spotter)
	if _, err := sandtable.ParseID(strings.ToUpper(sp)); err == nil {
		sp = strings.ToUpper(sp)
	} else {
		sp = strings.ToLower(sp)
	}
	return "D" + sp + "-" + strings.ToLower(strings.TrimSpace(target))
}

// sandDroneOrder checks a Drone order from the form and asks its owner to
// confirm it privately, with an image of spotter and target.
func sandDroneOrder(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandDroneTurn(g, req)
	if err != nil {
		return nil, err
	}
	text := droneNotation(req.Field("spotter"), req.Field("target"))
	act, err := sandtable.ParseAction(text)
	if err != nil || act.Kind != sandtable.ActDrone {
		return nil, Errorf("I cannot read this Drone order: the spotter is a square like d4 or an ID like SI12, the target a square like f6. Nothing changed.")
	}
	c, entries, err := pos.Preview(side, act)
	if err != nil {
		return nil, sandRuleError("This Drone order", err)
	}
	old, oldMsg := st.Drone[side], st.DroneMsg[side]
	st.DroneSeq++
	st.Drone[side], st.DroneID[side], st.DroneMsg[side] = act.String(), st.DroneSeq, ""
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	seq := strconv.Itoa(st.DroneSeq)
	var order sandtable.Entry
	for _, e := range entries {
		if e.Kind == sandtable.EntryDroneOrder {
			order = e
		}
	}
	on := fmt.Sprintf("%s is empty now.", order.To)
	if t, ok := pos.At(order.To); ok {
		on = fmt.Sprintf("%s holds %s %s %s now.", order.To, ownerName(t.Owner), t.Kind(), t.ID)
	}
	desc := fmt.Sprintf("**Drone order, not given yet**: spotter %s on %s, target **%s**. %s\n"+
		"At the start of your next turn it destroys whatever stands on %s (not a Base), unless %s is destroyed first. "+
		"**Confirm** uses one of your %s; the thread learns only that you declared a Drone.",
		order.Piece, order.From, order.To, on, order.To, order.Piece, Plural(pos.HazardUses(), "hazard use", "hazard uses"))
	file, err := a.sandPrivateFile(c, nil, side, "drone.png")
	if err != nil {
		return nil, err
	}
	msg := Message{
		Cards: []*ui.Card{{Title: "Your Drone order (secret)", Description: desc, Color: sideColor(side),
			Image:  "drone.png",
			Footer: fmt.Sprintf("Game %s · turn %d · private", g.ID, pos.Turn())}},
		Files: []*ui.File{file},
		Rows: []ui.Row{{
			GameArgButton(g, "drone-confirm", seq, "Confirm Drone", ui.Success),
			GameArgButton(g, "drone-cancel", seq, "Cancel", ui.Danger),
		}},
	}
	resp, dmID, err := a.sendPrivately(req, msg, "I sent your Drone order to you by direct message: confirm it there. Nothing of it is shown here.")
	if err != nil {
		return nil, err
	}
	if oldMsg != "" {
		// The older order's message loses its buttons (best effort: its
		// buttons are refused anyway).
		why := "it lapsed when its turn passed"
		if old != "" {
			why = "a newer order replaced it"
		}
		m := Message{Cards: []*ui.Card{{Title: "Your Drone order (secret)", Color: ColorClosed,
			Description: fmt.Sprintf("~~%s~~: not given, %s. Nothing of it was used or shown.", old, why),
			Footer:      fmt.Sprintf("Game %s · private", g.ID)}},
			Rows: []ui.Row{}}
		if old == "" {
			m.Cards[0].Description = fmt.Sprintf("This Drone order was not given: %s. Nothing of it was used or shown.", why)
		}
		if err := a.Platform.EditDM(req.User.ID, oldMsg, m); err != nil {
			a.Log.Warn("closing the replaced Drone order failed", "game", g.ID, "err", err)
		}
	}
	if dmID != "" {
		st.DroneMsg[side] = dmID
		if err := a.sandSave(g, st, pos, req.Now, ""); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

// sandDroneShown loads the game for a button of a Drone order's message:
// the order that message shows must still be the side's waiting order
// (its number is the button's argument; none on messages from before
// orders were numbered, which matches an unnumbered order).
func sandDroneShown(g *storage.Game, req *Request, needPostTurn bool) (*sandState, *sandtable.Position, sandtable.Side, bool, error) {
	var st *sandState
	var pos *sandtable.Position
	var side sandtable.Side
	var err error
	if needPostTurn {
		st, pos, side, err = sandPostTurnLoad(g, req)
	} else {
		st, pos, side, err = sandLoadPlayer(g, req, false)
	}
	if err != nil {
		return nil, nil, 0, false, err
	}
	id, _ := ParseCustomID(req.CustomID)
	n, _ := strconv.Atoi(id.Arg)
	return st, pos, side, st.Drone[side] != "" && n == st.DroneID[side], nil
}

func ownerName(s sandtable.Side) string {
	if s == sandtable.NoSide {
		return "a neutral"
	}
	return s.String() + "'s"
}

func sideColor(side sandtable.Side) int {
	if side == sandtable.North {
		return colorNorth
	}
	return colorSouth
}

// sandDroneConfirm gives the confirmed order: the thread learns that a
// Drone was declared; the owner's message shows the order.
func sandDroneConfirm(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, current, err := sandDroneShown(g, req, true)
	if err != nil {
		return nil, err
	}
	switch {
	case st.Drone[side] == "":
		return nil, Errorf("No Drone order is waiting for your confirmation (an order lapses when the turn passes). Press **Order a Drone (private)** to give one.")
	case !current:
		return nil, Errorf("%s", droneReplacedMsg)
	}
	act, err := sandtable.ParseAction(st.Drone[side])
	if err != nil {
		return nil, err
	}
	st.Drone[side], st.DroneMsg[side] = "", ""
	st.markDone(req, side, "you confirmed this Drone order: it strikes at the start of your next turn, unless its spotter is destroyed first")
	entries, err := a.sandApply(g, st, pos, act, req.Now)
	if err != nil {
		return nil, sandRuleError("This Drone order", err)
	}
	if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
		return nil, err
	}
	n := 0
	var order sandtable.Entry
	for _, e := range entries {
		switch e.Kind {
		case sandtable.EntryDroneDeclared:
			n = e.Count
		case sandtable.EntryDroneOrder:
			order = e
		}
	}
	pub, err := a.sandBoardMessage(g, st, pos, fmt.Sprintf("%s declared a Drone (%d pending). %s", req.User.Mention(), n, st.nextPrompt(pos, side)))
	if err != nil {
		return nil, err
	}
	a.sandPublic(g, pub)
	a.sandNotices(g, st, entries)
	file, err := a.sandPrivateFile(pos, nil, side, "drone.png")
	if err != nil {
		return nil, err
	}
	return &Response{Update: true, Message: Message{
		Cards: []*ui.Card{{Title: "Your Drone order (secret)", Color: sideColor(side),
			Description: fmt.Sprintf("**Drone ordered** ✅: spotter %s on %s, target **%s**. It strikes at the start of your next turn, unless %s is destroyed first. The thread was told only that you declared a Drone.",
				order.Piece, order.From, order.To, order.Piece),
			Image:  "drone.png",
			Footer: fmt.Sprintf("Game %s · turn %d · private", g.ID, order.Turn)}},
		Files: []*ui.File{file},
		Rows:  []ui.Row{},
	}}, nil
}

// sandDroneCancel discards the order its message shows; the message of
// an order that is no longer waiting just loses its buttons.
func sandDroneCancel(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, current, err := sandDroneShown(g, req, false)
	if err != nil {
		return nil, err
	}
	text := "Drone order discarded: nothing was used and nothing was shown."
	if current {
		st.Drone[side], st.DroneMsg[side] = "", ""
		st.markDone(req, side, "you discarded this Drone order: nothing of it was used or shown")
		if err := a.sandSave(g, st, pos, req.Now, req.InteractionID); err != nil {
			return nil, err
		}
	} else {
		text = "This Drone order was no longer waiting (a newer one replaced it, or its turn passed): nothing changed, nothing was used and nothing was shown."
	}
	return &Response{Update: true, Message: Message{Content: text, Cards: []*ui.Card{}, Rows: []ui.Row{}}}, nil
}

const droneReplacedMsg = "This Drone order was replaced by a newer one; use the latest message. Nothing changed."

// sandPrivateView sends the clicker their private view: the board with
// their pending Drones (spotters and targets), their unconfirmed order and
// draft, and the secret lines of the recent log. In Deployment it is their
// deployment panel.
func sandPrivateView(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, side, err := sandLoadPlayer(g, req, false)
	if err != nil {
		return nil, err
	}
	if pos.Phase() == sandtable.PhaseDeployment {
		return sandDeployOpen(a, req, g)
	}
	var b strings.Builder
	n := 0
	mine := pos.View(side) // the secrets side may see: its own
	for _, d := range mine.Drones() {
		if d.Hidden {
			continue
		}
		if d.Cancelled {
			fmt.Fprintf(&b, "• Cancelled: the Drone on %s (spotter %s was destroyed).\n", d.Target, d.Spotter)
			continue
		}
		n++
		sq := "?"
		if p, ok := pos.Piece(d.Spotter); ok {
			sq = p.Square.String()
		}
		fmt.Fprintf(&b, "• Drone %d: spotter %s on %s, target **%s**.\n", n, d.Spotter, sq, d.Target)
	}
	if b.Len() == 0 {
		b.WriteString("You have no pending Drones.\n")
	} else {
		b.WriteString("They strike at the start of your next turn.\n")
	}
	if st.Drone[side] != "" {
		fmt.Fprintf(&b, "Unconfirmed Drone order: %s.\n", st.Drone[side])
	}
	if len(st.Steps[side]) > 0 {
		fmt.Fprintf(&b, "Infantry draft: %s.\n", strings.Join(st.Steps[side], " "))
	}
	var secret []string
	for _, e := range sandtable.FilterLog(append(append([]sandtable.Entry{}, st.Prev...), st.Cur...), side) {
		if e.Secret != sandtable.NoSide {
			secret = append(secret, "• "+e.Text)
		}
	}
	if len(secret) > 0 {
		b.WriteString("\n**Your secret log, last turns**\n" + clipLines(secret, 1500))
	}
	file, err := a.sandPrivateFile(pos, append(append([]sandtable.Entry{}, st.Prev...), st.Cur...), side, "private.png")
	if err != nil {
		return nil, err
	}
	msg := Message{Cards: []*ui.Card{{Title: fmt.Sprintf("Your private view: %s, turn %d", side, pos.Turn()), Description: b.String(),
		Color: sideColor(side), Image: "private.png",
		Footer: fmt.Sprintf("Game %s · %s at the bottom · private", g.ID, side)}},
		Files: []*ui.File{file}}
	return a.SendPrivately(req, msg, "I sent your private view to you by direct message.")
}
