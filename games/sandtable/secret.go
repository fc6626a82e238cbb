package sandtable

import (
	"fmt"
	"strings"
)

// A finished game's secrets (ruling D6): a Drone's target is told only when
// it resolves, at its declarer's next PreTurn. A Drone that never resolves
// (cancelled because its spotter was destroyed, or still pending when the
// game ended) keeps its target secret for good, and one still pending at
// the end keeps its spotter too (the public never learnt it). EndLog is
// the one place that decides what of a finished game's log a viewer may
// see; records (Record.Public, NewRecord of an EndLog), replays and the
// history viewer are all made from it.
//
// In the log it returns, the action of such a Drone of another side than
// the viewer has a hidden notation: "DSI5-?" (a cancelled Drone: its
// spotter is public, its target is not) or "D?" (pending at the end:
// neither is public). Replay, NewRecord and Record.Walk apply it as a
// hazard use declaring a Drone of unknown target (and spotter), which
// resolves nothing and is drawn nowhere; should it reach its PreTurn
// (the log hid a Drone that did resolve), the action is refused.

// hiddenTarget is the target of a hidden notation.
const hiddenTarget = "?"

// hiddenNotation is a's hidden notation: "D?" without a spotter,
// "DSI5-?" (or "Dd4-?") with one.
func hiddenNotation(a Action) string {
	switch {
	case !a.Who.IsZero():
		return "D" + a.Who.String() + "-" + hiddenTarget
	case a.From != NoSquare:
		return "D" + a.From.String() + "-" + hiddenTarget
	}
	return "D" + hiddenTarget
}

// parseHidden reads a hidden notation; ok is false for any other text.
func parseHidden(s string) (a Action, ok bool) {
	if s == "D"+hiddenTarget {
		return Action{Kind: ActDrone, From: NoSquare, To: NoSquare, hidden: true}, true
	}
	spotter, found := strings.CutSuffix(s, "-"+hiddenTarget)
	if !found || !strings.HasPrefix(spotter, "D") {
		return Action{}, false
	}
	spotter = spotter[1:]
	if id, err := ParseID(spotter); err == nil {
		return Action{Kind: ActDrone, Who: id, From: NoSquare, To: NoSquare, hidden: true}, true
	}
	if sq, err := ParseSquare(spotter); err == nil {
		return Action{Kind: ActDrone, From: sq, To: NoSquare, hidden: true}, true
	}
	return Action{}, false
}

// applyNotation applies an action of a log or record: one in the notation,
// or a hidden Drone.
func (p *Position) applyNotation(s string) ([]Entry, error) {
	if a, ok := parseHidden(s); ok {
		return p.Apply(a)
	}
	return p.ApplyString(s)
}

// hiddenDrone is the hazard use of a hidden Drone: with a spotter, which
// must be the side's Infantry on the ground, as for any Drone (its loss
// cancels the Drone), or without one.
func (p *Position) hiddenDrone(l *logger, a Action) error {
	side := p.toMove
	d := Drone{Side: side, Target: NoSquare}
	if a.Who.IsZero() && a.From == NoSquare {
		d.Hidden = true
	} else {
		sp := p.ground(a.From)
		if !a.Who.IsZero() {
			sp = p.get(a.Who)
		}
		if sp == nil || sp.ID.Kind != Infantry || sp.Owner != side || !sp.Carrier.IsZero() {
			return illegal(RuleDroneSpotter, "the spotter of %s is not one of %s's Infantry on the ground", quote(a.String()), side)
		}
		d.Spotter = sp.ID
		a.Who, a.From = sp.ID, sp.Square
	}
	if n := p.PendingDrones(side); n >= NumSquares {
		return illegal(RuleHazardUse, "%s already has %d pending Drones, the most a position holds", side, n)
	}
	p.drones = append(p.drones, d)
	n := p.PendingDrones(side)
	l.addf(Entry{Kind: EntryAction, Side: side, Secret: side, Notation: hiddenNotation(Action{Kind: ActDrone, Who: d.Spotter, From: NoSquare})},
		"%s played a Drone whose order stays secret.", side)
	l.addf(Entry{Kind: EntryDroneDeclared, Side: side, Count: n, Notation: "D"},
		"%s declared a Drone (%d pending).", side, n)
	l.addf(Entry{Kind: EntryDroneOrder, Side: side, Secret: side, Piece: d.Spotter, From: a.From, To: NoSquare},
		"A Drone whose order stays secret: it never resolved.")
	return nil
}

// hiddenResolved refuses entries in which a hidden Drone resolved.
func hiddenResolved(entries []Entry) error {
	for _, e := range entries {
		if e.Kind == EntryDroneResolved && e.To == NoSquare {
			return illegal(RuleDroneTarget, "%s's Drone whose order is hidden resolves in turn %d: only a Drone that never resolved may have its target hidden", e.Side, e.Turn)
		}
	}
	return nil
}

// EndLog returns the turn log of a finished game (log, following start
// as Replay takes it, secret entries included) as viewer may see it once
// the game is over (rulings D6, D19): every entry, the secret ones too
// (their Secret still set: they were secret during the game), except that
// each Drone of a side other than viewer (NoSide: the public) that never
// resolved keeps its order: its action has a hidden notation, its order
// entry and the private notice of its cancellation are left out. The
// viewer's own Drones are all shown. The result replays like log (Replay,
// NewRecord). A Drone pending in start, which log does not declare, is
// left as start holds it; start may be nil.
func EndLog(start *Position, log []Entry, viewer Side) []Entry {
	type decl struct {
		at       int // the index of its action in log; -1: pending in start
		resolved bool
	}
	queue := map[Side][]*decl{}
	if start != nil { // nil: a game stored before its start was kept
		for _, d := range start.drones {
			queue[d.Side] = append(queue[d.Side], &decl{at: -1})
		}
	}
	byAction := map[int]*decl{}
	for i, e := range log {
		switch {
		case e.Kind == EntryAction && e.Phase != PhaseDeployment && strings.HasPrefix(e.Notation, "D") && e.Secret != NoSide:
			d := &decl{at: i}
			queue[e.Side] = append(queue[e.Side], d)
			byAction[i] = d
		case (e.Kind == EntryDroneResolved || e.Kind == EntryDroneCancelled) && e.Secret == NoSide:
			// at PreTurn, the side's pending Drones in declaration order
			if q := queue[e.Side]; len(q) > 0 {
				q[0].resolved = e.Kind == EntryDroneResolved && e.To != NoSquare
				queue[e.Side] = q[1:]
			}
		}
	}
	// The Drones still queued were pending at the end.
	var out []Entry
	for i := 0; i < len(log); i++ {
		e := log[i]
		if e.Kind == EntryDroneCancelled && e.Secret != NoSide && e.Secret != viewer {
			continue // names a cancelled Drone's target
		}
		d := byAction[i]
		if _, hidden := parseHidden(e.Notation); d == nil || d.resolved || e.Side == viewer || hidden {
			out = append(out, e)
			continue
		}
		h := Action{Kind: ActDrone, From: NoSquare, To: NoSquare, hidden: true}
		order := orderAfter(log, i)
		if order != nil && spotterLost(log, i, e.Side, order.Piece) {
			h.Who = order.Piece // cancelled: its spotter's loss was public
		}
		e.Notation = h.String()
		e.Text = fmt.Sprintf("%s played a Drone whose order stays secret.", e.Side)
		out = append(out, e)
		if order != nil {
			out = append(out, log[i+1:order.at]...) // the public "declared a Drone"
			i = order.at                            // the order itself is left out
		}
	}
	return out
}

// orderEntry is a Drone action's order entry and its index.
type orderEntry struct {
	Piece ID
	at    int
}

// orderAfter finds the order entry of the Drone action at log[i]: the
// EntryDroneOrder that follows it in the same action.
func orderAfter(log []Entry, i int) *orderEntry {
	for j := i + 1; j < len(log) && j <= i+3; j++ {
		if log[j].Kind == EntryDroneOrder && log[j].Side == log[i].Side {
			return &orderEntry{Piece: log[j].Piece, at: j}
		}
	}
	return nil
}

// spotterLost reports whether side's Infantry spotter was lost after
// log[i] (a public EntrySpotterLost), that is, the Drone declared there
// was cancelled before it could resolve.
func spotterLost(log []Entry, i int, side Side, spotter ID) bool {
	for _, e := range log[i+1:] {
		if e.Kind == EntrySpotterLost && e.Side == side && e.Piece == spotter {
			return true
		}
	}
	return false
}
