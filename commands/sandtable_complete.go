package commands

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"sandtable/commands/ui"
	"sandtable/games/sandtable"
	"sandtable/storage"
)

// SandTable autocomplete for /move and /step (ruling D10 in
// docs/rules/sandtable.md). Discord sends a picked choice's value as the
// option, so every value is a whole legal action (for /step, a legal list
// of steps to add to the draft) that the command accepts as it is, never
// the start of one. A choice's name is its value followed by a note in
// parentheses; the commands ignore parenthesised notes (stripNotes), so a
// player who picks a choice and types on (the client then sends the name
// as typed text) still gets suggestions and a playable action.
//
// Choices are computed from the engine's legal generators on previewClone
// of the position: the other side's secrets (its Drone orders) are not in
// it, so the choices are the same whatever those secrets are.

// maxChoices and maxChoiceLen are Discord's limits: 25 choices, each name
// and value at most 100 characters.
const (
	maxChoices   = 25
	maxChoiceLen = 100
)

// stripNotes removes parenthesised notes, nested or left open at the end,
// from typed text: "e4-e5 (Infantry SI2) f4" reads "e4-e5  f4".
func stripNotes(s string) string {
	if !strings.Contains(s, "(") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// choices collects autocomplete choices: distinct values, at most
// maxChoices, none longer than Discord allows.
type choices struct {
	out  []*ui.Choice
	seen map[string]bool
}

func (c *choices) full() bool { return len(c.out) >= maxChoices }

// add offers value, named value plus note in parentheses (clipped to fit);
// it reports whether there is room for more.
func (c *choices) add(value, note string) bool {
	if c.full() {
		return false
	}
	if value == "" || utf8.RuneCountInString(value) > maxChoiceLen || c.seen[value] {
		return true
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[value] = true
	name := value
	if note != "" {
		// The note is cut to what fits; a note that would keep less than
		// two of its characters is left out.
		room := maxChoiceLen - utf8.RuneCountInString(value) - len(" ()")
		if room >= 3 || room >= utf8.RuneCountInString(note) {
			name = value + " (" + Clip(note, room) + ")"
		}
	}
	c.out = append(c.out, &ui.Choice{Name: name, Value: value})
	return !c.full()
}

// sandMoveAutocomplete offers the player to move (nobody else) legal
// actions completing what they typed: in Main, Infantry steps and Vehicle
// moves; in PostTurn, Mine and Anti-Air placements (never Drones, which
// are given in private).
func sandMoveAutocomplete(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, err := loadSand(g)
	if err != nil || !g.Active || st.over(pos) {
		return &Response{}, err
	}
	side, ok := st.sideOf(req.User.ID)
	if !ok || pos.ToMove != side {
		return &Response{}, nil
	}
	typed := req.Typed("move")
	switch pos.Phase {
	case sandtable.PhaseMain:
		return &Response{Choices: mainChoices(pos, nil, typed, true)}, nil
	case sandtable.PhasePostTurn:
		return &Response{Choices: hazardChoices(pos, typed)}, nil
	}
	return &Response{}, nil
}

// sandStepAutocomplete offers the player to move, in Main, legal steps to
// add to their draft.
func sandStepAutocomplete(a *App, req *Request, g *storage.Game) (*Response, error) {
	st, pos, err := loadSand(g)
	if err != nil || !g.Active || st.over(pos) {
		return &Response{}, err
	}
	side, ok := st.sideOf(req.User.ID)
	if !ok || pos.ToMove != side || pos.Phase != sandtable.PhaseMain {
		return &Response{}, nil
	}
	return &Response{Choices: mainChoices(pos, st.draftSteps(side), req.Typed("step"), false)}, nil
}

// mainChoices lists Main actions of the side to move completing typed:
// with withVehicles (for /move) whole actions, Vehicle moves included;
// without (for /step) Infantry steps to add after draft, which are played
// first.
//
//   - Nothing typed: Vehicle moves (at most 10, one per Vehicle first),
//     then single Infantry steps (one per piece first; captures and steps
//     towards the enemy first).
//   - "T" or "P" and more: the matching Vehicle moves (vehicleChoices).
//   - Squares and steps: the typed steps that are complete (followed by a
//     space), then one more legal step matching the last word typed. When
//     a typed step is not legal, the legal steps before it, named with
//     the reason, and their continuations.
func mainChoices(pos *sandtable.Position, draft []sandtable.Step, typed string, withVehicles bool) []*ui.Choice {
	side := pos.ToMove
	p := previewClone(pos, side)
	t := strings.TrimLeft(strings.NewReplacer(",", " ", "x", "-", "\t", " ").Replace(stripNotes(typed)), " ")
	var c choices
	switch {
	case t == "":
		if withVehicles {
			moves, _ := p.LegalVehicleMoves()
			room := maxChoices
			if next, _ := p.LegalNextSteps(draft); len(next) > 0 {
				room = 10
			}
			for _, m := range roundRobin(vehiclePlan(p, side, moves, false), room, 3) {
				c.add(m.String(), vehicleNote(p, m))
			}
		}
		stepChoices(&c, p, side, draft, nil, "")
		return c.out
	case t[0] == 'T' || t[0] == 'P':
		if withVehicles {
			vehicleChoices(&c, p, side, strings.TrimSpace(t))
		}
		return c.out
	case strings.IndexByte("DMA", t[0]) >= 0:
		return nil // hazards are for PostTurn; Drones are never typed here
	}
	toks := strings.Fields(t)
	complete, partial := toks, ""
	if !strings.HasSuffix(t, " ") {
		complete, partial = toks[:len(toks)-1], toks[len(toks)-1]
	}
	var prefix []sandtable.Step
	if len(complete) > 0 {
		act, err := sandtable.ParseAction(strings.Join(complete, " "))
		if err != nil || act.Kind != sandtable.ActInfantry {
			return nil
		}
		prefix = act.Steps
	}
	if _, err := p.LegalNextSteps(draft); err != nil {
		return nil // a draft that no longer fits (it lapses with the Main action)
	}
	// The longest legal start of the typed steps.
	bad, reason := len(prefix), ""
	for i := range prefix {
		if _, err := p.LegalNextSteps(append(slices.Clone(draft), prefix[:i+1]...)); err != nil {
			bad, reason = i, stepRuleText(err)
			break
		}
	}
	if bad < len(prefix) {
		// Offer what is legal of it, and steps of the refused step's piece.
		legal := prefix[:bad]
		reason = prefix[bad].String() + " is not legal: " + reason
		if len(legal) > 0 {
			c.add(stepsText(legal), "then "+reason)
			reason = ""
		}
		from := prefix[bad].From.String() + "-"
		if prefix[bad].From == sandtable.NoSquare {
			from = ""
		}
		stepChoices(&c, p, side, draft, legal, from)
		if reason != "" && len(c.out) > 0 {
			c.out[0].Name = clipName(c.out[0].Value, reason)
		}
		return c.out
	}
	if len(prefix) > 0 && partial == "" {
		what := "play these steps"
		if !withVehicles {
			what = "add these steps to your draft"
		}
		c.add(stepsText(prefix), what)
	}
	n := len(c.out)
	stepChoices(&c, p, side, draft, prefix, partial)
	if len(c.out) == n && strings.Contains(partial, "-") {
		// Nothing completes a step that is not legal: the legal steps of
		// the same piece, the first named with the reason.
		from, _, _ := strings.Cut(partial, "-")
		stepChoices(&c, p, side, draft, prefix, from+"-")
		if len(c.out) > n {
			if act, err := sandtable.ParseAction(partial); err == nil && act.Kind == sandtable.ActInfantry && len(act.Steps) == 1 {
				_, err := p.LegalNextSteps(append(append(slices.Clone(draft), prefix...), act.Steps[0]))
				if err != nil {
					c.out[n].Name = clipName(c.out[n].Value, partial+" is not legal: "+stepRuleText(err))
				}
			}
		}
	}
	if withVehicles && len(prefix) == 0 {
		// A square holding one of the mover's Vehicles: its moves too.
		if sq, err := sandtable.ParseSquare(partial); err == nil {
			if moves, err := p.VehicleMovesFrom(sq); err == nil {
				for _, m := range moves {
					if m.Dismount == nil {
						c.add(m.String(), vehicleNote(p, m))
					}
				}
			}
		}
	}
	return c.out
}

// clipName is a choice's name: value and a note, within Discord's limit.
func clipName(value, note string) string {
	var c choices
	c.add(value, note)
	return c.out[0].Name
}

func stepsText(steps []sandtable.Step) string {
	return sandtable.Action{Kind: sandtable.ActInfantry, Steps: steps}.String()
}

// stepRuleText is the engine's refusal of one step for a choice's note:
// without its "step N (a-b): ", which the note says, and without its rule
// reference in parentheses.
func stepRuleText(err error) string {
	s := err.Error()
	var re *sandtable.RuleError
	if errors.As(err, &re) {
		s = re.Msg
	}
	if i := strings.Index(s, "): "); i >= 0 && strings.HasPrefix(s, "step ") {
		s = s[i+3:]
	}
	return strings.TrimSuffix(strings.TrimSpace(stripNotes(EngineText(s))), ".")
}

// stepChoices adds the Infantry actions "prefix + one more legal step"
// whose new step starts with partial ("" for any), after draft: one step
// per piece first, in plan order. The values are the typed part only
// (prefix and the new step), never the draft.
func stepChoices(c *choices, p *sandtable.Position, side sandtable.Side, draft, prefix []sandtable.Step, partial string) {
	before := append(slices.Clone(draft), prefix...)
	next, err := p.LegalNextSteps(before)
	if err != nil {
		return
	}
	var match []sandtable.Step
	for _, s := range next {
		if strings.HasPrefix(s.String(), partial) {
			match = append(match, s)
		}
	}
	if len(match) == 0 {
		return
	}
	// Notes describe the new step on the board after the steps before it.
	after := p
	if len(before) > 0 {
		after = p.Clone()
		if _, err := after.Apply(sandtable.Action{Kind: sandtable.ActInfantry, Steps: before}); err != nil {
			after = nil
		}
	}
	then := ""
	if len(prefix) > 0 {
		then = "then "
	}
	for _, s := range roundRobin(stepPlan(p, side, match), maxChoices, 0) {
		note := ""
		if after != nil {
			note = then + stepNote(after, side, s)
		}
		if !c.add(stepsText(append(slices.Clone(prefix), s)), note) {
			return
		}
	}
}

// forward is how far from a to b goes towards side's enemy, in ranks.
func forward(side sandtable.Side, a, b sandtable.Square) int {
	if side == sandtable.North {
		return a.Rank() - b.Rank()
	}
	return b.Rank() - a.Rank()
}

// enemyOn returns the piece on sq when it belongs to side's enemy.
func enemyOn(p *sandtable.Position, side sandtable.Side, sq sandtable.Square) (sandtable.Piece, bool) {
	t, ok := p.At(sq)
	return t, ok && t.Owner == side.Opp()
}

// planned is one candidate in a group (one acting piece), with its rank.
type planned[T any] struct {
	group sandtable.Square
	item  T
	score int // lower first
}

// roundRobin orders a plan for a short list: the best item of each group
// (groups in the plan's order of their best items), then the second of
// each, and so on, at most limit items and, when perGroup > 0, at most
// perGroup of each group.
func roundRobin[T any](plan []planned[T], limit, perGroup int) []T {
	slices.SortStableFunc(plan, func(a, b planned[T]) int { return cmp.Compare(a.score, b.score) })
	var order []sandtable.Square
	groups := map[sandtable.Square][]T{}
	for _, pl := range plan {
		if _, ok := groups[pl.group]; !ok {
			order = append(order, pl.group)
		}
		groups[pl.group] = append(groups[pl.group], pl.item)
	}
	var out []T
	for i := 0; len(out) < limit && (perGroup <= 0 || i < perGroup); i++ {
		added := false
		for _, g := range order {
			if i < len(groups[g]) && len(out) < limit {
				out = append(out, groups[g][i])
				added = true
			}
		}
		if !added {
			break
		}
	}
	return out
}

// targetRank orders what an enemy piece is worth taking: a Base (the
// game may hang on it), a Vehicle, an Infantry, a hazard.
func targetRank(k sandtable.Kind) int {
	switch {
	case k == sandtable.Base:
		return 0
	case k.IsVehicle():
		return 1
	case k == sandtable.Infantry:
		return 2
	}
	return 3
}

// stepPlan ranks steps: onto an enemy piece first (see targetRank), then
// boarding a Vehicle, then the pieces furthest forward; for each piece
// straight forward, then diagonally forward, sideways and backward.
func stepPlan(p *sandtable.Position, side sandtable.Side, steps []sandtable.Step) []planned[sandtable.Step] {
	out := make([]planned[sandtable.Step], len(steps))
	for i, s := range steps {
		score := 100*(3-forward(side, s.From, s.To)) + 10*abs(s.To.File()-s.From.File()) // 200 straight forward ... 410 diagonally backward
		if t, ok := p.At(s.To); ok {
			switch {
			case t.Owner == side.Opp():
				score = targetRank(t.ID.Kind)
			case t.ID.Kind.IsVehicle():
				score = 50
			}
		}
		score -= front(side, s.From) // pieces further forward first, within each band
		out[i] = planned[sandtable.Step]{group: s.From, item: s, score: score}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// front is how far forward sq is for side (0 on its own back rank).
func front(side sandtable.Side, sq sandtable.Square) int {
	if side == sandtable.North {
		return sandtable.Ranks - 1 - sq.Rank()
	}
	return sq.Rank()
}

// vehiclePlan ranks Vehicle moves: landings on an enemy piece first, then
// the longest advances; dismounts only when withDismounts.
func vehiclePlan(p *sandtable.Position, side sandtable.Side, moves []sandtable.Action, withDismounts bool) []planned[sandtable.Action] {
	var out []planned[sandtable.Action]
	for _, m := range moves {
		if m.Dismount != nil && !withDismounts {
			continue
		}
		score := 100 - forward(side, m.From, m.To)
		if t, ok := enemyOn(p, side, m.To); ok {
			score = targetRank(t.ID.Kind)
		}
		if m.Dismount != nil {
			score += 200
		}
		out = append(out, planned[sandtable.Action]{group: m.From, item: m, score: score})
	}
	return out
}

// stepNote says what a step does on p: who steps, and what it enters.
func stepNote(p *sandtable.Position, side sandtable.Side, s sandtable.Step) string {
	who := "Infantry"
	crew := false
	if pc, ok := p.At(s.From); ok {
		if pc.ID.Kind.IsVehicle() {
			who = fmt.Sprintf("crew of %s %s steps out", pc.ID.Kind, pc.ID)
			crew = true
		} else {
			who = "Infantry " + pc.ID.String()
		}
	}
	t, ok := p.At(s.To)
	if !ok {
		return who
	}
	and := " "
	if crew {
		and = " and "
	}
	switch {
	case t.ID.Kind.IsVehicle() && t.Owner == side.Opp():
		return who + and + fmt.Sprintf("captures %s %s %s", ownerName(t.Owner), t.ID.Kind, t.ID)
	case t.ID.Kind.IsVehicle():
		return who + and + fmt.Sprintf("boards %s %s %s", vehicleOwner(t.Owner, side), t.ID.Kind, t.ID)
	}
	return who + and + fmt.Sprintf("destroys %s %s %s", ownerName(t.Owner), t.ID.Kind, t.ID)
}

func vehicleOwner(owner, side sandtable.Side) string {
	switch owner {
	case sandtable.NoSide:
		return "the neutral"
	case side:
		return "your"
	}
	return ownerName(owner)
}

// vehicleNote says what a Vehicle move does on p.
func vehicleNote(p *sandtable.Position, m sandtable.Action) string {
	v, ok := p.At(m.From)
	if !ok {
		return ""
	}
	note := fmt.Sprintf("%s %s, crew %d", v.ID.Kind, v.ID, len(v.Crew))
	if t, ok := p.At(m.To); ok && t.Owner != v.Owner {
		note = fmt.Sprintf("%s %s lands on %s %s %s", v.ID.Kind, v.ID, ownerName(t.Owner), t.ID.Kind, t.ID)
	}
	if m.Dismount != nil {
		note += "; a crew member steps out to " + m.Dismount.To.String()
	}
	return note
}

// vehicleChoices adds the mover's legal Vehicle moves starting with t
// ("T", "Tc3", "Tc3-c", ...): one per Vehicle first; a move's dismount
// variants once its destination is typed ("Tc3-c8" offers Tc3-c8 and
// Tc3-c8/d9, ...).
func vehicleChoices(c *choices, p *sandtable.Position, side sandtable.Side, t string) {
	moves, err := p.LegalVehicleMoves()
	if err != nil {
		return
	}
	var match []sandtable.Action
	for _, m := range moves {
		s := m.String()
		if !strings.HasPrefix(s, t) {
			continue
		}
		if base, _, _ := strings.Cut(s, "/"); m.Dismount != nil && !strings.HasPrefix(t, base) {
			continue
		}
		match = append(match, m)
	}
	for _, m := range roundRobin(vehiclePlan(p, side, match, true), maxChoices, 0) {
		if !c.add(m.String(), vehicleNote(p, m)) {
			return
		}
	}
}

// hazardChoices lists legal Mine and Anti-Air placements of the side to
// move (never Drones: those are secret) matching typed: "M", "Af5", or a
// square's start ("f5" offers Mf5 and Af5). Squares nearest the enemy
// come first, Mines and Anti-Air alternating.
func hazardChoices(pos *sandtable.Position, typed string) []*ui.Choice {
	side := pos.ToMove
	p := previewClone(pos, side)
	t := strings.TrimSpace(stripNotes(typed))
	up := t
	if t != "" && (t[0] == 'm' || t[0] == 'a') {
		up = strings.ToUpper(t[:1]) + t[1:]
	}
	uses, err := p.LegalHazardUses()
	if err != nil {
		return nil
	}
	var mines, aa []sandtable.Action
	for _, u := range uses {
		if !strings.HasPrefix(u.String(), up) && !strings.HasPrefix(u.To.String(), t) {
			continue
		}
		switch u.Kind {
		case sandtable.ActMine:
			mines = append(mines, u)
		case sandtable.ActAntiAir:
			aa = append(aa, u)
		}
	}
	byFront := func(a, b sandtable.Action) int { return cmp.Compare(front(side, b.To), front(side, a.To)) }
	slices.SortStableFunc(mines, byFront)
	slices.SortStableFunc(aa, byFront)
	var c choices
	for i := 0; !c.full() && (i < len(mines) || i < len(aa)); i++ {
		if i < len(mines) {
			c.add(mines[i].String(), "place a Mine on "+mines[i].To.String())
		}
		if i < len(aa) {
			c.add(aa[i].String(), "place an Anti-Air on "+aa[i].To.String())
		}
	}
	return c.out
}
