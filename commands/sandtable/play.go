package sandtable

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"strconv"
	"strings"

	"sandtable/commands"
	"sandtable/commands/ui"
	engine "sandtable/games/sandtable"
	"sandtable/render/sandboard"
)

// Turns (issue 7 point 3, ruling D10): /move takes Main actions and Mine
// or Anti-Air placements in the engine's notation, with autocomplete from
// the engine's legal generators; /step builds an Infantry turn as a
// private draft with a Commit button; Drone orders are given in a private
// form and confirmed privately with an image of spotter and target (D5).

const droneSecretMsg = "Drone orders are secret, so they are never typed in the thread: press **Order a Drone (private)** on the board message during your PostTurn."

// isDroneText reports whether /move's text is a Drone order (notes in
// parentheses ignored, as the notation reader ignores them): secret, so
// answered privately from the first byte and never played from /move.
func isDroneText(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(engine.StripNotes(text)), "D")
}

func move(t *turn) (*response, error) {
	text := t.Req.Str("move")
	if isDroneText(text) {
		return nil, commands.Errorf("%s", droneSecretMsg)
	}
	side, err := player(t, true)
	if err != nil {
		return nil, err
	}
	act, err := moveAction(text)
	if err != nil {
		return nil, err
	}
	s := t.State.clone()
	before := markOf(s.pos)
	if _, err := s.apply(act); err != nil {
		return nil, ruleError(commands.QuoteInput(text), err)
	}
	save(t, s)
	if err := show(t, s, before, s.playedNote(t, side, act)); err != nil {
		return nil, err
	}
	notices(t, s)
	return &response{Ephemeral: true, Message: commands.Message{
		Content: strings.TrimSpace(fmt.Sprintf("You played **%s**. %s", act.String(), s.nextPrompt(side)))}}, nil
}

// moveAction reads /move's text: one Main action or a Mine or Anti-Air
// placement in the notation; notes in parentheses (those of the
// autocomplete's choice names) are ignored. Anything else is refused with
// what to do instead.
func moveAction(text string) (engine.Action, error) {
	if strings.TrimSpace(engine.StripNotes(text)) == "" {
		return engine.Action{}, commands.Errorf("Write your action in the move option, e.g. `d4-d5 e4-e5` (Infantry), `Tc3-c8` (Tank), `Pa1-h8/d9` (Airplane, crew steps out to d9), `Mf5` or `Af5` (PostTurn).")
	}
	act, err := engine.ParseAction(engine.StripNotes(text))
	if err != nil {
		return engine.Action{}, ruleError(commands.QuoteInput(text), err)
	}
	switch act.Kind {
	case engine.ActInfantry, engine.ActVehicle, engine.ActMine, engine.ActAntiAir:
		return act, nil
	case engine.ActResign:
		return engine.Action{}, commands.Errorf("To resign, use /resign.")
	case engine.ActDraw:
		return engine.Action{}, commands.Errorf("A draw is agreed with /draw offer and /draw accept.")
	case engine.ActDrone:
		return engine.Action{}, commands.Errorf("%s", droneSecretMsg)
	}
	return engine.Action{}, commands.Errorf("%s is a deployment change: deployment is done in your private panel.", commands.QuoteInput(text))
}

// stepAction reads /step's text: Infantry steps to add to the draft,
// notes in parentheses ignored.
func stepAction(text string) (engine.Action, error) {
	act, err := engine.ParseAction(engine.StripNotes(text))
	if err != nil {
		return engine.Action{}, ruleError(commands.QuoteInput(text), err)
	}
	if act.Kind != engine.ActInfantry {
		return engine.Action{}, commands.Errorf("A draft holds Infantry steps only (like `d4-d5`); a Vehicle move or a hazard is one /move.")
	}
	return act, nil
}

// playedNote is the board's note after t's user, playing side, played
// act: what was played and what comes next.
func (s *State) playedNote(t *turn, side engine.Side, act engine.Action) string {
	return fmt.Sprintf("%s played **%s**. %s", t.Req.User.Mention(), act.String(), s.nextPrompt(side))
}

// nextPrompt says what happens next after side acted.
func (s *State) nextPrompt(side engine.Side) string {
	pos := s.pos
	switch {
	case s.over():
		return s.resultLine()
	case pos.ToMove() == side && pos.Phase() == engine.PhasePostTurn:
		return fmt.Sprintf("PostTurn: %s left.", commands.Plural(pos.HazardUses(), "hazard use", "hazard uses"))
	case pos.ToMove() != side:
		return fmt.Sprintf("%s, your turn.", s.player(pos.ToMove()).Mention())
	}
	return ""
}

// notices tells each player, by direct message (effects), the secret news
// of the entries of the action s made that only they may know: their
// Drones cancelled by the loss of a spotter (ruling D6: the public learns
// which spotter was lost, never the target).
func notices(t *turn, s *State) {
	for _, side := range sides {
		var lines []string
		for _, e := range engine.FilterLog(s.notes, side) {
			if e.Secret != engine.NoSide && e.Kind == engine.EntryDroneCancelled {
				lines = append(lines, "• "+e.Text)
			}
		}
		if len(lines) == 0 {
			continue
		}
		m := commands.Message{Content: fmt.Sprintf("In <#%s> (private):\n%s", t.Game.ThreadID, strings.Join(lines, "\n"))}
		t.Effect(commands.Effect{Op: commands.OpDM, User: s.player(side).ID, Body: &m})
	}
}

// ---- /step: a private Infantry draft ----

func (s *State) draftSteps(side engine.Side) []engine.Step {
	if len(s.Steps[side]) == 0 {
		return nil
	}
	act, err := engine.ParseAction(strings.Join(s.Steps[side], " "))
	if err != nil {
		return nil
	}
	return act.Steps
}

// step adds Infantry steps to the player's private draft.
func step(t *turn) (*response, error) {
	side, err := player(t, true)
	if err != nil {
		return nil, err
	}
	pos := t.State.pos
	if pos.Phase() != engine.PhaseMain {
		return nil, commands.Errorf("A draft is for the Infantry of your Main phase; it is your %s now.", pos.Phase().Title())
	}
	text := t.Req.Str("step")
	act, err := stepAction(text)
	if err != nil {
		return nil, err
	}
	all := append(t.State.draftSteps(side), act.Steps...)
	if _, err := pos.LegalNextSteps(all); err != nil {
		return nil, ruleError("Adding "+commands.QuoteInput(text), err)
	}
	s := t.State.clone()
	s.Steps[side] = nil
	for _, st := range all {
		s.Steps[side] = append(s.Steps[side], st.String())
	}
	save(t, s)
	return draftAnswer(t, s, side, fmt.Sprintf("Added %s.", act.String()), false)
}

// draftAnswer shows side's draft privately: the steps, a preview image of
// the board after them, and Commit, Undo and Discard.
func draftAnswer(t *turn, s *State, side engine.Side, note string, update bool) (*response, error) {
	steps := s.Steps[side]
	if len(steps) == 0 {
		return &response{Update: update, Ephemeral: !update, Message: commands.Message{
			Content: note + " Your draft is empty. Add Infantry steps with /step, or play a whole action with /move.", Rows: []ui.Row{}}}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n**Your Infantry draft for turn %d** (private, not played yet):\n", note, s.pos.Turn())
	for i, st := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, st)
	}
	b.WriteString("Add steps with /step. **Commit** plays them all as your Main action; the image shows the board after them.")
	c, entries, err := s.pos.Preview(side, engine.Action{Kind: engine.ActInfantry, Steps: s.draftSteps(side)})
	if err != nil {
		return nil, ruleError("Your draft", err)
	}
	file, err := viewFile(t, c, entries, side, "draft.png")
	if err != nil {
		return nil, err
	}
	g := t.Game
	return &response{Update: update, Ephemeral: !update, Message: commands.Message{
		Cards: []*ui.Card{{Description: b.String(), Image: "draft.png",
			Footer: "Game " + g.ID + " · private draft"}},
		Files: []*ui.File{file},
		Rows: []ui.Row{{
			commands.GameArgButton(g, "step-commit", s.draftStamp(side), "Commit", ui.Success),
			commands.GameArgButton(g, "step-undo", s.draftStamp(side), "Undo last step", ui.Secondary),
			commands.GameArgButton(g, "step-discard", s.draftStamp(side), "Discard", ui.Danger),
		}},
	}}, nil
}

// draftStamp identifies side's draft as a draft message shows it: its turn
// and its steps (the buttons' arg).
func (s *State) draftStamp(side engine.Side) string {
	return commands.Stamp(strconv.Itoa(s.pos.Turn()), side.String(), strings.Join(s.Steps[side], " "))
}

// drafting checks a button of a draft message, which acts only on the
// draft that message shows. A message whose draft is gone (played,
// discarded, lapsed) loses its buttons; one whose draft has changed since
// is brought up to date. Either way nothing changes, and the answer
// (resp) says so.
func drafting(t *turn) (side engine.Side, resp *response, err error) {
	side, err = player(t, true)
	if err != nil {
		return 0, nil, err
	}
	s := t.State
	if s.pos.Phase() != engine.PhaseMain || len(s.Steps[side]) == 0 {
		return 0, &response{Update: true, Message: commands.Message{
			Content: "You have no Infantry draft for this Main phase (a draft lapses when your Main action is played): this draft was played, discarded or lapsed. Nothing changed.",
			Cards:   []*ui.Card{}, Rows: []ui.Row{}}}, nil
	}
	if id, _ := commands.ParseCustomID(t.Req.CustomID); id.Arg != s.draftStamp(side) {
		resp, err := draftAnswer(t, s, side, "Nothing changed: this message showed an older draft. Here is your draft now.", true)
		return 0, resp, err
	}
	return side, nil, nil
}

// stepCommit plays the draft as the Main action: the public board goes to
// the thread, and the draft message says what was played, without its
// buttons.
func stepCommit(t *turn) (*response, error) {
	side, resp, err := drafting(t)
	if resp != nil || err != nil {
		return resp, err
	}
	s := t.State.clone()
	act := engine.Action{Kind: engine.ActInfantry, Steps: s.draftSteps(side)}
	n := s.pos.Turn()
	s.markDone(t.Req, side, fmt.Sprintf("you committed this draft: **%s** was played in turn %d", act.String(), n))
	before := markOf(s.pos)
	if _, err := s.apply(act); err != nil {
		return nil, ruleError("Your draft", err)
	}
	save(t, s)
	if err := show(t, s, before, s.playedNote(t, side, act)); err != nil {
		return nil, err
	}
	notices(t, s)
	return &response{Update: true, Message: commands.Message{
		Content: fmt.Sprintf("**Committed** ✅: you played **%s** as your Main action of turn %d. The board is in <#%s>.", act.String(), n, t.Game.ThreadID),
		Cards:   []*ui.Card{},
		Rows:    []ui.Row{},
	}}, nil
}

func stepUndo(t *turn) (*response, error) {
	side, resp, err := drafting(t)
	if resp != nil || err != nil {
		return resp, err
	}
	s := t.State.clone()
	last := s.Steps[side][len(s.Steps[side])-1]
	s.Steps[side] = s.Steps[side][:len(s.Steps[side])-1]
	s.markDone(t.Req, side, fmt.Sprintf("you took back %s from this draft", last))
	save(t, s)
	return draftAnswer(t, s, side, fmt.Sprintf("Took back %s.", last), true)
}

func stepDiscard(t *turn) (*response, error) {
	side, resp, err := drafting(t)
	if resp != nil || err != nil {
		return resp, err
	}
	s := t.State.clone()
	s.Steps[side] = nil
	s.markDone(t.Req, side, "you discarded this draft")
	save(t, s)
	return draftAnswer(t, s, side, "Draft discarded.", true)
}

// ---- Drones ----

// postTurn checks that t's user may order a Drone: their PostTurn.
func postTurn(t *turn) (engine.Side, error) {
	side, err := player(t, true)
	if err != nil {
		return 0, err
	}
	if p := t.State.pos.Phase(); p != engine.PhasePostTurn {
		return 0, commands.Errorf("Drones are ordered in your PostTurn, after your Main action; it is your %s now.", p.Title())
	}
	return side, nil
}

// droneTurn checks the Drone button of a board, or its form, which carry
// the board's turn: a board of an earlier turn does not order Drones in a
// later one (messages from before boards carried their turn, without one,
// act in the current turn).
func droneTurn(t *turn) (engine.Side, error) {
	side, err := postTurn(t)
	if err != nil {
		return 0, err
	}
	if id, _ := commands.ParseCustomID(t.Req.CustomID); id.Arg != "" && id.Arg != turnArg(t.State.pos) {
		return 0, commands.Errorf("This board is from turn %s; it is turn %d now. Use **Order a Drone (private)** on the newest board. Nothing changed.", id.Arg, t.State.pos.Turn())
	}
	return side, nil
}

// droneButton opens the private Drone order form, with what the player
// typed in a form refused a moment ago (droneRefused), if any.
func droneButton(t *turn) (*response, error) {
	if _, err := droneTurn(t); err != nil {
		return nil, err
	}
	typed := t.Draft(droneForm)
	return &response{Modal: &commands.Modal{
		CustomID: commands.CustomID{Scope: "g", ID: t.Game.ID, Action: "drone-order", Arg: turnArg(t.State.pos)}.String(),
		Title:    "Order a Drone (secret)",
		Inputs: []commands.ModalInput{
			{CustomID: "spotter", Label: "Spotter: your Infantry's square or ID", Placeholder: "d4 or SI12", Required: true, MaxLength: 8, Value: typed["spotter"]},
			{CustomID: "target", Label: "Target square (within 2 of the spotter)", Placeholder: "f6", Required: true, MaxLength: 4, Value: typed["target"]},
		},
	}}, nil
}

// droneForm names the Drone order form's drafts (Turn.KeepDraft).
const droneForm = "drone"

// droneRefused answers a Drone order form the game refused (err, a
// user error): privately, with a button that opens the form again with
// what was typed, kept in memory (never in the button's custom ID, which
// is logged). Nothing changes.
func droneRefused(t *turn, err error) (*response, error) {
	var ue *commands.UserError
	if !errors.As(err, &ue) {
		return nil, err
	}
	t.KeepDraft(droneForm, map[string]string{"spotter": t.Req.Field("spotter"), "target": t.Req.Field("target")})
	r := commands.Private("%s\n**Fix the Drone order** opens the form again with what you typed.", ue.Msg)
	r.Rows = []ui.Row{{commands.GameArgButton(t.Game, "drone", turnArg(t.State.pos), "Fix the Drone order", ui.Primary)}}
	return r, nil
}

// droneNotation reads the form's spotter (a square or an ID, any case)
// and target into the notation "Dd4-f6" / "DSI12-f6".
func droneNotation(spotter, target string) string {
	sp := strings.TrimSpace(spotter)
	if _, err := engine.ParseID(strings.ToUpper(sp)); err == nil {
		sp = strings.ToUpper(sp)
	} else {
		sp = strings.ToLower(sp)
	}
	return "D" + sp + "-" + strings.ToLower(strings.TrimSpace(target))
}

// droneOrder checks a Drone order from the form and asks its owner to
// confirm it privately, with an image of spotter and target.
func droneOrder(t *turn) (*response, error) {
	side, err := droneTurn(t)
	if err != nil {
		return nil, err
	}
	text := droneNotation(t.Req.Field("spotter"), t.Req.Field("target"))
	act, err := engine.ParseAction(text)
	if err != nil || act.Kind != engine.ActDrone {
		return droneRefused(t, commands.Errorf("I cannot read this Drone order: the spotter is a square like d4 or an ID like SI12, the target a square like f6. Nothing changed."))
	}
	s := t.State.clone()
	pos := s.pos
	c, entries, err := pos.Preview(side, act)
	if err != nil {
		return droneRefused(t, ruleError("This Drone order", err))
	}
	t.DropDraft(droneForm)
	old, oldMsg := s.Drone[side], s.DroneMsg[side]
	s.DroneSeq++
	s.Drone[side], s.DroneID[side], s.DroneMsg[side] = act.String(), s.DroneSeq, ""
	seq := strconv.Itoa(s.DroneSeq)
	var order engine.Entry
	for _, e := range entries {
		if e.Kind == engine.EntryDroneOrder {
			order = e
		}
	}
	on := fmt.Sprintf("%s is empty now.", order.To)
	if p, ok := pos.At(order.To); ok {
		on = fmt.Sprintf("%s holds %s %s %s now.", order.To, ownerName(p.Owner), p.Kind(), p.ID)
	}
	desc := fmt.Sprintf("**Drone order, not given yet**: spotter %s on %s, target **%s**. %s\n"+
		"At the start of your next turn it destroys whatever stands on %s (not a Base), unless %s is destroyed first. "+
		"**Confirm** uses one of your %s; the thread learns only that you declared a Drone.",
		order.Piece, order.From, order.To, on, order.To, order.Piece, commands.Plural(pos.HazardUses(), "hazard use", "hazard uses"))
	file, err := viewFile(t, c, nil, side, "drone.png")
	if err != nil {
		return nil, err
	}
	msg := commands.Message{
		Cards: []*ui.Card{{Title: "Your Drone order (secret)", Description: desc, Color: sideColor(side),
			Image:  "drone.png",
			Footer: fmt.Sprintf("Game %s · turn %d · private", t.Game.ID, pos.Turn())}},
		Files: []*ui.File{file},
		Rows: []ui.Row{{
			commands.GameArgButton(t.Game, "drone-confirm", seq, "Confirm Drone", ui.Success),
			commands.GameArgButton(t.Game, "drone-cancel", seq, "Cancel", ui.Danger),
		}},
	}
	resp, dmID, err := t.SendPrivately(msg, "I sent your Drone order to you by direct message: confirm it there. Nothing of it is shown here.")
	if err != nil {
		return nil, err
	}
	s.DroneMsg[side] = dmID
	save(t, s)
	if oldMsg != "" {
		// The older order's message loses its buttons (its buttons are
		// refused anyway).
		why := "it lapsed when its turn passed"
		if old != "" {
			why = "a newer order replaced it"
		}
		m := commands.Message{Cards: []*ui.Card{{Title: "Your Drone order (secret)", Color: commands.ColorClosed,
			Description: fmt.Sprintf("~~%s~~: not given, %s. Nothing of it was used or shown.", old, why),
			Footer:      fmt.Sprintf("Game %s · private", t.Game.ID)}},
			Rows: []ui.Row{}}
		if old == "" {
			m.Cards[0].Description = fmt.Sprintf("This Drone order was not given: %s. Nothing of it was used or shown.", why)
		}
		t.Effect(commands.Effect{Op: commands.OpEditDM, User: t.Req.User.ID, Message: oldMsg, Body: &m})
	}
	return resp, nil
}

// droneShown checks a button of a Drone order's message: current reports
// that the order that message shows is still the side's waiting order
// (its number is the button's argument; none on messages from before
// orders were numbered, which matches an unnumbered order).
func droneShown(t *turn, needPostTurn bool) (side engine.Side, current bool, err error) {
	if needPostTurn {
		side, err = postTurn(t)
	} else {
		side, err = player(t, false)
	}
	if err != nil {
		return 0, false, err
	}
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	n, _ := strconv.Atoi(id.Arg)
	return side, t.State.Drone[side] != "" && n == t.State.DroneID[side], nil
}

func ownerName(s engine.Side) string {
	if s == engine.NoSide {
		return "a neutral"
	}
	return s.String() + "'s"
}

// droneConfirm gives the confirmed order: the thread learns that a Drone
// was declared; the owner's message shows the order.
func droneConfirm(t *turn) (*response, error) {
	side, current, err := droneShown(t, true)
	if err != nil {
		return nil, err
	}
	switch {
	case t.State.Drone[side] == "":
		return nil, commands.Errorf("No Drone order is waiting for your confirmation (an order lapses when the turn passes). Press **Order a Drone (private)** to give one.")
	case !current:
		return nil, commands.Errorf("%s", droneReplacedMsg)
	}
	s := t.State.clone()
	act, err := engine.ParseAction(s.Drone[side])
	if err != nil {
		return nil, err
	}
	s.Drone[side], s.DroneMsg[side] = "", ""
	s.markDone(t.Req, side, "you confirmed this Drone order: it strikes at the start of your next turn, unless its spotter is destroyed first")
	before := markOf(s.pos)
	entries, err := s.apply(act)
	if err != nil {
		return nil, ruleError("This Drone order", err)
	}
	save(t, s)
	n := 0
	var order engine.Entry
	for _, e := range entries {
		switch e.Kind {
		case engine.EntryDroneDeclared:
			n = e.Count
		case engine.EntryDroneOrder:
			order = e
		}
	}
	// The announcement is a message of its own (ruling D21), then the
	// board: updated, or the next turn's.
	declared := fmt.Sprintf("%s declared a Drone (%d pending).", t.Req.User.Mention(), n)
	t.Post(commands.Message{Content: declared})
	if err := show(t, s, before, declared+" "+s.nextPrompt(side)); err != nil {
		return nil, err
	}
	notices(t, s)
	file, err := viewFile(t, s.pos, nil, side, "drone.png")
	if err != nil {
		return nil, err
	}
	return &response{Update: true, Message: commands.Message{
		Cards: []*ui.Card{{Title: "Your Drone order (secret)", Color: sideColor(side),
			Description: fmt.Sprintf("**Drone ordered** ✅: spotter %s on %s, target **%s**. It strikes at the start of your next turn, unless %s is destroyed first. The thread was told only that you declared a Drone.",
				order.Piece, order.From, order.To, order.Piece),
			Image:  "drone.png",
			Footer: fmt.Sprintf("Game %s · turn %d · private", t.Game.ID, order.Turn)}},
		Files: []*ui.File{file},
		Rows:  []ui.Row{},
	}}, nil
}

// droneCancel discards the order its message shows; the message of an
// order that is no longer waiting just loses its buttons.
func droneCancel(t *turn) (*response, error) {
	side, current, err := droneShown(t, false)
	if err != nil {
		return nil, err
	}
	text := "Drone order discarded: nothing was used and nothing was shown."
	if current {
		s := t.State.clone()
		s.Drone[side], s.DroneMsg[side] = "", ""
		s.markDone(t.Req, side, "you discarded this Drone order: nothing of it was used or shown")
		save(t, s)
	} else {
		text = "This Drone order was no longer waiting (a newer one replaced it, or its turn passed): nothing changed, nothing was used and nothing was shown."
	}
	return &response{Update: true, Message: commands.Message{Content: text, Cards: []*ui.Card{}, Rows: []ui.Row{}}}, nil
}

const droneReplacedMsg = "This Drone order was replaced by a newer one; use the latest message. Nothing changed."

// flip shows the clicker, privately, the public board from North's side
// (the public board is always drawn from South's). It shows the position
// now, saying so when the board clicked is of an earlier turn (ruling D15).
func flip(t *turn) (*response, error) {
	s, pos := t.State, t.State.pos
	if pos.Phase() == engine.PhaseDeployment {
		return nil, commands.Errorf("There is no board to flip during Deployment.")
	}
	log := append(append([]engine.Entry{}, s.Prev...), s.Cur...)
	file, err := drawViewFrom(t.Renderer(), pos, log, engine.NoSide, true, "board.png")
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("The public board (turn %d) from North's side:", pos.Turn())
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	if id.Arg != "" && id.Arg != strconv.Itoa(pos.Turn()) {
		note = fmt.Sprintf("That board is of an earlier turn; the public board now (turn %d) from North's side:", pos.Turn())
	}
	return &response{Ephemeral: true, Message: commands.Message{Content: note, Files: []*ui.File{file}}}, nil
}

// zoomQuarters are the quarters of the board Zoom shows, by button
// argument: which half of the files (a–j west, k–t east) and of the ranks
// (1–10 south, 11–20 north).
var zoomQuarters = []struct{ arg, label string }{
	{"nw", "North-west (a–j, 11–20)"}, {"ne", "North-east (k–t, 11–20)"},
	{"sw", "South-west (a–j, 1–10)"}, {"se", "South-east (k–t, 1–10)"},
}

// zoom answers the board's Zoom button privately: without a quarter, the
// four to choose from; with one, that quarter of the board at twice the
// board's scale (icons about 48 px where Discord shows the whole board
// 480 px wide), as the clicker may see it: a player's own secrets
// (pending Drones) included, only privately; others see the public board.
func zoom(t *turn) (*response, error) {
	s, pos := t.State, t.State.pos
	if pos.Phase() == engine.PhaseDeployment {
		return nil, commands.Errorf("There is no board to zoom into during Deployment: your deployment panel shows yours.")
	}
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	if id.Arg == "" {
		var row ui.Row
		for _, q := range zoomQuarters {
			row = append(row, commands.GameArgButton(t.Game, "zoom", q.arg, q.label, ui.Secondary))
		}
		r := commands.Private("Which quarter of the board (turn %d) do you want to see at twice the size? South is at the bottom.", pos.Turn())
		r.Rows = []ui.Row{row}
		return r, nil
	}
	var west, south, found bool
	var label string
	for _, q := range zoomQuarters {
		if q.arg == id.Arg {
			west, south, found, label = q.arg[1] == 'w', q.arg[0] == 's', true, q.label
		}
	}
	if !found {
		return nil, commands.Errorf("I do not know that quarter of the board: choose north-west, north-east, south-west or south-east. Nothing changed.")
	}
	viewer := engine.NoSide
	if side, ok := s.sideOf(t.Req.User.ID); ok && !s.over() {
		viewer = side
	}
	log := append(append([]engine.Entry{}, s.Prev...), s.Cur...)
	b, v, err := sandboard.Board(pos, log, viewer)
	if err != nil {
		return nil, err
	}
	img, err := t.Renderer().SandTableImage(&b, v, 2*imageSize)
	if err != nil {
		return nil, fmt.Errorf("rendering the SandTable board: %w", err)
	}
	x0, y0 := imageSize, imageSize
	if west {
		x0 = 0
	}
	if !south {
		y0 = 0
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img.SubImage(image.Rect(x0, y0, x0+imageSize, y0+imageSize))); err != nil {
		return nil, err
	}
	r := commands.Private("%s of the board, turn %d, at twice the size (only you see this).", label, pos.Turn())
	r.Files = []*ui.File{{Name: "zoom.png", ContentType: "image/png", Data: buf.Bytes()}}
	return r, nil
}

// privateView sends the clicker their private view: the board with their
// pending Drones (spotters and targets), their unconfirmed order and
// draft, and the secret lines of the recent log. In Deployment it is their
// deployment panel.
func privateView(t *turn) (*response, error) {
	side, err := player(t, false)
	if err != nil {
		return nil, err
	}
	s, pos := t.State, t.State.pos
	if pos.Phase() == engine.PhaseDeployment {
		return deployOpen(t)
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
	if s.Drone[side] != "" {
		fmt.Fprintf(&b, "Unconfirmed Drone order: %s.\n", s.Drone[side])
	}
	if len(s.Steps[side]) > 0 {
		fmt.Fprintf(&b, "Infantry draft: %s.\n", strings.Join(s.Steps[side], " "))
	}
	log := append(append([]engine.Entry{}, s.Prev...), s.Cur...)
	var secret []string
	for _, e := range engine.FilterLog(log, side) {
		if e.Secret != engine.NoSide {
			secret = append(secret, "• "+e.Text)
		}
	}
	if len(secret) > 0 {
		b.WriteString("\n**Your secret log, last turns**\n" + commands.ClipLines(secret, 1500))
	}
	file, err := viewFile(t, pos, log, side, "private.png")
	if err != nil {
		return nil, err
	}
	msg := commands.Message{Cards: []*ui.Card{{Title: fmt.Sprintf("Your private view: %s, turn %d", side, pos.Turn()), Description: b.String(),
		Color: sideColor(side), Image: "private.png",
		Footer: fmt.Sprintf("Game %s · %s at the bottom · private", t.Game.ID, side)}},
		Files: []*ui.File{file}}
	resp, _, err := t.SendPrivately(msg, "I sent your private view to you by direct message.")
	return resp, err
}
