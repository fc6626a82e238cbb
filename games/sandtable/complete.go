package sandtable

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file completes typed actions for autocomplete (ruling D10 in
// docs/rules/sandtable.md). Every choice's value is a whole legal action
// (for CompleteSteps, legal steps to add to a draft), never the start of
// one, so that a client that sends a picked choice's value sends a
// playable action. Choices are computed without the other side's secrets
// (withoutSecretsOf): they are the same whatever those secrets are.

// Choice is one completion: Value is the text to play (an action in the
// notation, or steps to add to a draft); Note says in a few words what it
// does ("Infantry SI3 destroys North's Infantry NI2"), empty when there is
// nothing to say.
type Choice struct {
	Value string
	Note  string
}

// Limits bound a completion: at most Max choices (0: no limit), none
// whose value is longer than MaxLen characters (0: no limit).
type Limits struct {
	Max, MaxLen int
}

// StripNotes removes parenthesised notes, nested or left open at the end,
// from typed text: "e4-e5 (Infantry SI2) f4" reads "e4-e5  f4". A client
// that shows a choice as its value followed by its note in parentheses
// may send that name as typed text; reading it through StripNotes gives
// the value back.
func StripNotes(s string) string {
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

// choices collects distinct choices within limits.
type choices struct {
	lim  Limits
	out  []Choice
	seen map[string]bool
}

func (c *choices) full() bool { return c.lim.Max > 0 && len(c.out) >= c.lim.Max }

// add offers value with its note; it reports whether there is room for
// more.
func (c *choices) add(value, note string) bool {
	if c.full() {
		return false
	}
	if value == "" || c.lim.MaxLen > 0 && utf8.RuneCountInString(value) > c.lim.MaxLen || c.seen[value] {
		return true
	}
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	c.seen[value] = true
	c.out = append(c.out, Choice{Value: value, Note: note})
	return !c.full()
}

// CompleteMove lists the actions side may play completing typed (notes in
// parentheses ignored): in Main, Infantry steps and Vehicle moves
// (CompleteMain); in PostTurn, Mine and Anti-Air placements, never Drones,
// which are secret (CompleteHazard). It returns nothing when side is not
// to move or the position waits for no such action.
func (p *Position) CompleteMove(side Side, typed string, lim Limits) []Choice {
	if !p.completes(side) {
		return nil
	}
	switch p.phase {
	case PhaseMain:
		return p.completeMain(side, nil, typed, true, lim)
	case PhasePostTurn:
		return p.completeHazard(side, typed, lim)
	}
	return nil
}

// CompleteSteps lists, in side's Main, Infantry steps to add after the
// steps of draft (played first) completing typed: each value is the typed
// steps plus one more legal step, never the draft's. It returns nothing
// when side is not in its Main or draft is no longer legal.
func (p *Position) CompleteSteps(side Side, draft []Step, typed string, lim Limits) []Choice {
	if !p.completes(side) || p.phase != PhaseMain {
		return nil
	}
	return p.completeMain(side, draft, typed, false, lim)
}

func (p *Position) completes(side Side) bool {
	return !p.redacted && (side == South || side == North) && p.toMove == side
}

// completeMain lists Main actions of side completing typed: with
// withVehicles (for /move) whole actions, Vehicle moves included; without
// (for /step) Infantry steps to add after draft.
//
//   - Nothing typed: Vehicle moves (at most 10, at most 3 per Vehicle),
//     then single Infantry steps (one per piece first; captures and steps
//     towards the enemy first).
//   - "T" or "P" and more: the matching Vehicle moves (vehicleChoices).
//   - Squares and steps: the typed steps that are complete (followed by a
//     space), then one more legal step matching the last word typed. When
//     a typed step is not legal, the legal steps before it, the first
//     noted with the reason, and their continuations.
func (pos *Position) completeMain(side Side, draft []Step, typed string, withVehicles bool, lim Limits) []Choice {
	p := pos.withoutSecretsOf(side.Opp())
	t := strings.TrimLeft(strings.NewReplacer(",", " ", "x", "-", "\t", " ").Replace(StripNotes(typed)), " ")
	c := choices{lim: lim}
	switch {
	case t == "":
		if withVehicles {
			moves, _ := p.LegalVehicleMoves()
			room := lim.Max
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
	var prefix []Step
	if len(complete) > 0 {
		act, err := ParseAction(strings.Join(complete, " "))
		if err != nil || act.Kind != ActInfantry {
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
		if prefix[bad].From == NoSquare {
			from = ""
		}
		stepChoices(&c, p, side, draft, legal, from)
		if reason != "" && len(c.out) > 0 {
			c.out[0].Note = reason
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
		// the same piece, the first noted with the reason.
		from, _, _ := strings.Cut(partial, "-")
		stepChoices(&c, p, side, draft, prefix, from+"-")
		if len(c.out) > n {
			if act, err := ParseAction(partial); err == nil && act.Kind == ActInfantry && len(act.Steps) == 1 {
				_, err := p.LegalNextSteps(append(append(slices.Clone(draft), prefix...), act.Steps[0]))
				if err != nil {
					c.out[n].Note = partial + " is not legal: " + stepRuleText(err)
				}
			}
		}
	}
	if withVehicles && len(prefix) == 0 {
		// A square holding one of the mover's Vehicles: its moves too.
		if sq, err := ParseSquare(partial); err == nil {
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

func stepsText(steps []Step) string {
	return Action{Kind: ActInfantry, Steps: steps}.String()
}

// stepRuleText is the refusal of one step for a note: the rule error's
// message without its "step N (a-b): ", which the note says, and without
// parenthesised asides or a final full stop.
func stepRuleText(err error) string {
	s := err.Error()
	var re *RuleError
	if errors.As(err, &re) {
		s = re.Msg
	}
	if i := strings.Index(s, "): "); i >= 0 && strings.HasPrefix(s, "step ") {
		s = s[i+3:]
	}
	return strings.TrimSuffix(strings.TrimSpace(StripNotes(s)), ".")
}

// stepChoices adds the Infantry actions "prefix + one more legal step"
// whose new step starts with partial ("" for any), after draft: one step
// per piece first, in plan order. The values are the typed part only
// (prefix and the new step), never the draft.
func stepChoices(c *choices, p *Position, side Side, draft, prefix []Step, partial string) {
	before := append(slices.Clone(draft), prefix...)
	next, err := p.LegalNextSteps(before)
	if err != nil {
		return
	}
	var match []Step
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
		if _, err := after.Apply(Action{Kind: ActInfantry, Steps: before}); err != nil {
			after = nil
		}
	}
	then := ""
	if len(prefix) > 0 {
		then = "then "
	}
	for _, s := range roundRobin(stepPlan(p, side, match), c.lim.Max, 0) {
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
func forward(side Side, a, b Square) int {
	if side == North {
		return a.Rank() - b.Rank()
	}
	return b.Rank() - a.Rank()
}

// front is how far forward sq is for side (0 on its own back rank).
func front(side Side, sq Square) int {
	if side == North {
		return Ranks - 1 - sq.Rank()
	}
	return sq.Rank()
}

// planned is one candidate in a group (one acting piece), with its rank.
type planned[T any] struct {
	group Square
	item  T
	score int // lower first
}

// roundRobin orders a plan for a short list: the best item of each group
// (groups in the plan's order of their best items), then the second of
// each, and so on, at most limit items (limit <= 0: all) and, when
// perGroup > 0, at most perGroup of each group.
func roundRobin[T any](plan []planned[T], limit, perGroup int) []T {
	if limit <= 0 {
		limit = len(plan)
	}
	slices.SortStableFunc(plan, func(a, b planned[T]) int { return cmp.Compare(a.score, b.score) })
	var order []Square
	groups := map[Square][]T{}
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
func targetRank(k Kind) int {
	switch {
	case k == Base:
		return 0
	case k.IsVehicle():
		return 1
	case k == Infantry:
		return 2
	}
	return 3
}

// stepPlan ranks steps: onto an enemy piece first (see targetRank), then
// boarding a Vehicle, then the pieces furthest forward; for each piece
// straight forward, then diagonally forward, sideways and backward.
func stepPlan(p *Position, side Side, steps []Step) []planned[Step] {
	out := make([]planned[Step], len(steps))
	for i, s := range steps {
		score := 100*(3-forward(side, s.From, s.To)) + 10*abs(s.To.File()-s.From.File()) // 200 straight forward ... 410 diagonally backward
		if t := p.ground(s.To); t != nil {
			switch {
			case t.Owner == side.Opp():
				score = targetRank(t.ID.Kind)
			case t.ID.Kind.IsVehicle():
				score = 50
			}
		}
		score -= front(side, s.From) // pieces further forward first, within each band
		out[i] = planned[Step]{group: s.From, item: s, score: score}
	}
	return out
}

// vehiclePlan ranks Vehicle moves: landings on an enemy piece first, then
// the longest advances; dismounts only when withDismounts.
func vehiclePlan(p *Position, side Side, moves []Action, withDismounts bool) []planned[Action] {
	var out []planned[Action]
	for _, m := range moves {
		if m.Dismount != nil && !withDismounts {
			continue
		}
		score := 100 - forward(side, m.From, m.To)
		if t := p.ground(m.To); t != nil && t.Owner == side.Opp() {
			score = targetRank(t.ID.Kind)
		}
		if m.Dismount != nil {
			score += 200
		}
		out = append(out, planned[Action]{group: m.From, item: m, score: score})
	}
	return out
}

// ownerName is "North's", "South's" or "a neutral".
func ownerName(s Side) string {
	if s == NoSide {
		return "a neutral"
	}
	return s.String() + "'s"
}

// stepNote says what a step does on p: who steps, and what it enters.
func stepNote(p *Position, side Side, s Step) string {
	who := "Infantry"
	crew := false
	if pc := p.ground(s.From); pc != nil {
		if pc.ID.Kind.IsVehicle() {
			who = fmt.Sprintf("crew of %s %s steps out", pc.ID.Kind, pc.ID)
			crew = true
		} else {
			who = "Infantry " + pc.ID.String()
		}
	}
	t := p.ground(s.To)
	if t == nil {
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

func vehicleOwner(owner, side Side) string {
	switch owner {
	case NoSide:
		return "the neutral"
	case side:
		return "your"
	}
	return ownerName(owner)
}

// vehicleNote says what a Vehicle move does on p.
func vehicleNote(p *Position, m Action) string {
	v := p.ground(m.From)
	if v == nil {
		return ""
	}
	note := fmt.Sprintf("%s %s, crew %d", v.ID.Kind, v.ID, len(v.Crew))
	if t := p.ground(m.To); t != nil && t.Owner != v.Owner {
		note = fmt.Sprintf("%s %s lands on %s %s %s", v.ID.Kind, v.ID, ownerName(t.Owner), t.ID.Kind, t.ID)
	}
	if m.Dismount != nil {
		note += "; a crew member steps out to " + m.Dismount.To.String()
	}
	return note
}

// vehicleChoices adds side's legal Vehicle moves starting with t ("T",
// "Tc3", "Tc3-c", ...): one per Vehicle first; a move's dismount variants
// once its destination is typed ("Tc3-c8" offers Tc3-c8 and Tc3-c8/d9,
// ...).
func vehicleChoices(c *choices, p *Position, side Side, t string) {
	moves, err := p.LegalVehicleMoves()
	if err != nil {
		return
	}
	var match []Action
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
	for _, m := range roundRobin(vehiclePlan(p, side, match, true), c.lim.Max, 0) {
		if !c.add(m.String(), vehicleNote(p, m)) {
			return
		}
	}
}

// completeHazard lists side's legal Mine and Anti-Air placements (never
// Drones: those are secret) matching typed: "M", "Af5", or a square's
// start ("f5" offers Mf5 and Af5). Squares nearest the enemy come first,
// Mines and Anti-Air alternating.
func (pos *Position) completeHazard(side Side, typed string, lim Limits) []Choice {
	p := pos.withoutSecretsOf(side.Opp())
	t := strings.TrimSpace(StripNotes(typed))
	up := t
	if t != "" && (t[0] == 'm' || t[0] == 'a') {
		up = strings.ToUpper(t[:1]) + t[1:]
	}
	uses, err := p.LegalHazardUses()
	if err != nil {
		return nil
	}
	var mines, aa []Action
	for _, u := range uses {
		if !strings.HasPrefix(u.String(), up) && !strings.HasPrefix(u.To.String(), t) {
			continue
		}
		switch u.Kind {
		case ActMine:
			mines = append(mines, u)
		case ActAntiAir:
			aa = append(aa, u)
		}
	}
	byFront := func(a, b Action) int { return cmp.Compare(front(side, b.To), front(side, a.To)) }
	slices.SortStableFunc(mines, byFront)
	slices.SortStableFunc(aa, byFront)
	c := choices{lim: lim}
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
