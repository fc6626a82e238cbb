package sandtable

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Apply performs one action (see ActionKind) and returns the turn log of
// everything it caused, including the automatic phases that follow it:
// after a Main action comes PostTurn; after the last hazard use the turn
// passes, and the next player's PreTurn Drones resolve; a Main or PostTurn
// in which the mover can do nothing is skipped and announced. So after
// Apply the position always waits for an action or is Finished.
//
// An illegal action returns a *RuleError naming the rule that forbids it
// and leaves p unchanged.
func (p *Position) Apply(a Action) ([]Entry, error) {
	if p.redacted {
		return nil, fmt.Errorf("cannot apply an action to a redacted view")
	}
	q := p.Clone()
	l := &logger{p: q}
	if err := q.apply(l, a); err != nil {
		return nil, err
	}
	if err := q.checkLimits(); err != nil {
		return nil, err
	}
	if err := hiddenResolved(l.entries); err != nil {
		return nil, err
	}
	*p = *q
	return l.entries, nil
}

// PlayForSearch applies a to p in place, as Apply does, but writes no log
// text and returns only the error: the look-ahead of a computer player on
// its own copy (a Clone of a playable view). On error p is left half
// changed and must be discarded.
func (p *Position) PlayForSearch(a Action) error {
	if p.redacted {
		return fmt.Errorf("cannot apply an action to a redacted view")
	}
	l := &logger{p: p, quiet: true}
	if err := p.apply(l, a); err != nil {
		return err
	}
	if err := p.checkLimits(); err != nil {
		return err
	}
	return hiddenResolved(l.entries)
}

// checkLimits refuses a result the position format cannot hold (G21): a
// turn number past maxCounter. Every other counter is bounded by the
// rules (dead-turns, hazard-uses) or checked where it grows (hazard IDs).
func (p *Position) checkLimits() error {
	if p.turn > maxCounter {
		return illegal(RuleTurnLimit, "this would end turn %d, the last turn a position can hold: from here the game can only end, by a victory in Main, a resignation or an agreed draw", maxCounter)
	}
	return nil
}

// ApplyString parses one action in the notation and applies it.
func (p *Position) ApplyString(s string) ([]Entry, error) {
	a, err := ParseAction(s)
	if err != nil {
		return nil, err
	}
	return p.Apply(a)
}

// Advance completes automatic phases of a position that was set up by hand
// (for example a file in PreTurn, or a Main phase without legal action),
// so that it waits for an action or is finished. It is a no-op on a
// position produced by Apply. Victory is not checked on loading (ruling 9
// checks it after actions and phases): PreTurn resolution checks it, else
// the next action does. When the automatic phases would end the last turn
// a position can hold (G21), Advance changes nothing; TryAdvance says so.
func (p *Position) Advance() []Entry {
	entries, _ := p.TryAdvance()
	return entries
}

// TryAdvance is Advance that reports, as a *RuleError, automatic phases
// that would end the last turn a position can hold (G21); the position
// is then unchanged.
func (p *Position) TryAdvance() ([]Entry, error) {
	if p.redacted {
		return nil, nil
	}
	q := p.Clone()
	entries := q.advance()
	if err := q.checkLimits(); err != nil {
		return nil, err
	}
	*p = *q
	return entries, nil
}

func (p *Position) advance() []Entry {
	l := &logger{p: p}
	switch p.phase {
	case PhasePreTurn:
		p.preTurn(l)
	case PhaseMain:
		p.enterMain(l)
	case PhasePostTurn:
		switch {
		case p.GroundInfantry(p.toMove) == 0:
			p.startPostTurn(l, false) // announces the skip and ends the turn
		case p.hazardUses <= 0:
			p.endTurn(l, false)
		}
	}
	return l.entries
}

func (p *Position) apply(l *logger, a Action) error {
	if p.phase == PhaseFinished {
		return illegal(RuleGameOver, "the game is over (%s)", p.ResultText())
	}
	switch a.Kind {
	case ActResign:
		side := a.Side
		if side == NoSide {
			side = p.toMove
		}
		if side == NoSide {
			return illegal(RuleTurn, "say which side resigns during Deployment (S resign or N resign)")
		}
		l.addf(Entry{Kind: EntryAction, Side: side, Notation: a.String()}, "%s resigned.", side)
		p.finish(l, Result{side.Opp(), Resignation})
		return nil
	case ActDraw:
		l.addf(Entry{Kind: EntryAction, Side: NoSide, Notation: a.String()}, "Both players agreed to a draw.")
		p.finish(l, Result{NoSide, Agreement})
		return nil
	}
	if a.Kind >= ActDeployPlace {
		if p.phase != PhaseDeployment {
			return illegal(RulePhase, "deployment is over; %s is a Deployment action", quote(a.String()))
		}
		return p.deployAction(l, a)
	}
	if p.phase == PhaseDeployment {
		return illegal(RulePhase, "the game is still in Deployment; %s can only be played later", quote(a.String()))
	}
	switch a.Kind {
	case ActInfantry, ActVehicle:
		if p.phase != PhaseMain {
			return illegal(RulePhase, "it is %s's %s phase; a Main action (%s) is not possible now", p.toMove, p.phase.Title(), a.String())
		}
		var err error
		if a.Kind == ActInfantry {
			if len(a.Steps) == 0 {
				return illegal(RuleOneKind, "an Infantry action needs at least one step")
			}
			err = p.infantryTurn(l, a.Steps)
		} else {
			err = p.vehicleMove(l, a)
		}
		if err != nil {
			return err
		}
		l.entries = slices.Insert(l.entries, 0, Entry{Kind: EntryAction, Turn: p.turn, Phase: PhaseMain, Mover: p.toMove, Side: p.toMove,
			Notation: a.String(), Text: p.toMove.String() + " played " + a.String() + "."})
		if p.checkVictory(l) {
			return nil
		}
		p.startPostTurn(l, false)
		return nil
	case ActMine, ActAntiAir, ActDrone:
		if p.phase != PhasePostTurn {
			return illegal(RulePhase, "it is %s's %s phase; a hazard use (%s) is only possible in PostTurn", p.toMove, p.phase.Title(), a.String())
		}
		if err := p.hazardUse(l, a); err != nil {
			return err
		}
		p.hazardUses--
		// Ruling 9 checks after every action. In play nothing a hazard use
		// does can meet a condition (it was checked after Main), but a
		// hand-written PostTurn position may already meet one.
		if p.checkVictory(l) {
			return nil
		}
		if p.hazardUses <= 0 {
			p.endTurn(l, false)
		}
		return nil
	}
	return fmt.Errorf("unknown action kind %d", a.Kind)
}

// hazardUse performs one PostTurn hazard use (rulings 6 and 7).
func (p *Position) hazardUse(l *logger, a Action) error {
	side := p.toMove
	if a.Kind == ActDrone && a.hidden {
		return p.hiddenDrone(l, a)
	}
	if a.Kind == ActDrone {
		var sp *Piece
		if !a.Who.IsZero() {
			sp = p.get(a.Who)
			if sp == nil || sp.ID.Kind != Infantry || sp.Owner != side {
				return illegal(RuleDroneSpotter, "%s is not one of %s's Infantry", a.Who, side)
			}
			if !sp.Carrier.IsZero() {
				return illegal(RuleDroneSpotter, "Infantry %s crews a Vehicle and is not on the ground", a.Who)
			}
		} else {
			sp = p.ground(a.From)
			if sp == nil || sp.ID.Kind != Infantry || sp.Owner != side {
				return illegal(RuleDroneSpotter, "there is no %s Infantry on the ground on %s", side, a.From)
			}
		}
		if !a.To.Valid() || Dist(sp.Square, a.To) > 2 {
			return illegal(RuleDroneTarget, "target %s is more than two squares from spotter %s on %s", a.To, sp.ID, sp.Square)
		}
		if p.baseSquare(a.To) {
			return illegal(RuleDroneTarget, "a Drone may not target the Base on %s", a.To)
		}
		if n := p.PendingDrones(side); n >= NumSquares {
			// only a hand-written position gets here: in play a side's
			// pending Drones are the few of its last PostTurn
			return illegal(RuleHazardUse, "%s already has %d pending Drones, the most a position holds; place a Mine or an Anti-Air", side, n)
		}
		p.drones = append(p.drones, Drone{Side: side, Spotter: sp.ID, Target: a.To})
		n := p.PendingDrones(side)
		l.addf(Entry{Kind: EntryAction, Side: side, Secret: side, Notation: a.String()}, "%s played %s.", side, a.String())
		l.addf(Entry{Kind: EntryDroneDeclared, Side: side, Count: n, Notation: "D"},
			"%s declared a Drone (%d pending).", side, n)
		l.addf(Entry{Kind: EntryDroneOrder, Side: side, Secret: side, Piece: sp.ID, From: sp.Square, To: a.To},
			"Your Drone: spotter %s on %s, target %s; it resolves at the start of your next turn.", sp.ID, sp.Square, a.To)
		return nil
	}
	kind := Mine
	if a.Kind == ActAntiAir {
		kind = AntiAir
	}
	if p.Hazards(side) >= HazardCap {
		return illegal(RuleHazardCap, "%s already has %d Mines and Anti-Air on the board; only a Drone can be used", side, p.Hazards(side))
	}
	if !a.To.Valid() {
		return illegal(RuleBoard, "the square is off the board")
	}
	if p.hasCrater(a.To) {
		return illegal(RuleCrater, "no hazard may be placed on the Crater on %s", a.To)
	}
	if t := p.ground(a.To); t != nil {
		return illegal(RuleHazardPlace, "%s is not empty: %s stands there", a.To, describe(t.Owner, t.ID))
	}
	ok := false
	for _, n := range neighbors(a.To) {
		if t := p.ground(n); t != nil && t.ID.Kind == Infantry && t.Owner == side {
			ok = true
			break
		}
	}
	if !ok {
		return illegal(RuleHazardPlace, "%s is not adjacent to any %s Infantry on the ground", a.To, side)
	}
	ki := 0
	if kind == AntiAir {
		ki = 1
	}
	n := int64(p.nextHazard[side][ki])
	if n < 1 {
		n = p.nextFreeNumber(side, kind)
	}
	if n >= MaxIDNumber {
		// the ID itself would fit, but the one after it, which next-hazard
		// must hold, would not
		return illegal(RuleHazardNumbers, "%s's %s numbers are used up: the next would be %d, which leaves no number for the one after it (IDs end at %d); use another hazard",
			side, kind, n, MaxIDNumber)
	}
	id := ID{side, kind, int32(n)}
	p.nextHazard[side][ki] = int32(n + 1)
	p.add(Piece{ID: id, Owner: side, Square: a.To})
	l.addf(Entry{Kind: EntryAction, Side: side, Notation: a.String()}, "%s played %s.", side, a.String())
	l.addf(Entry{Kind: EntryPlace, Side: side, Piece: id, To: a.To}, "%s placed %s %s on %s.", side, kind, id, a.To)
	return nil
}

// nextFreeNumber is one more than the highest number side's pieces of
// kind use; it may be MaxIDNumber+1, which no ID holds.
func (p *Position) nextFreeNumber(side Side, kind Kind) int64 {
	var n int32
	for i := range p.pieces {
		if id := p.pieces[i].ID; id.Side == side && id.Kind == kind && id.N > n {
			n = id.N
		}
	}
	return int64(n) + 1
}

// startPostTurn enters PostTurn with one hazard use per Base (ruling 6), or
// skips it when the mover has no Infantry on the ground.
func (p *Position) startPostTurn(l *logger, mainSkipped bool) {
	p.phase = PhasePostTurn
	side := p.toMove
	uses := p.Count(side, Base)
	if uses == 0 || p.GroundInfantry(side) == 0 {
		p.hazardUses = 0
		l.addf(Entry{Kind: EntryPostTurnSkipped, Side: side},
			"%s has no Infantry on the ground, so no hazard can be used: PostTurn is skipped.", side)
		p.endTurn(l, mainSkipped)
		return
	}
	p.hazardUses = uses
	l.addf(Entry{Kind: EntryHazardUses, Side: side, Count: uses},
		"%s's PostTurn: %d hazard %s (one per Base).", side, uses, plural(uses, "use", "uses"))
}

// endTurn removes the mover's Craters, counts deadlocked turns and starts
// the opponent's turn.
func (p *Position) endTurn(l *logger, dead bool) {
	side := p.toMove
	p.craters = slices.DeleteFunc(p.craters, func(c Crater) bool {
		if c.Side == side {
			l.addf(Entry{Kind: EntryCraterGone, Side: side, To: c.Square}, "The Crater on %s is gone.", c.Square)
			return true
		}
		return false
	})
	p.hazardUses = 0
	if dead {
		p.deadTurns++
	} else {
		p.deadTurns = 0
	}
	if p.deadTurns >= DeadlockTurns {
		l.addf(Entry{Kind: EntryNone, Side: NoSide}, "%d consecutive turns passed without any possible Main action or hazard use.", p.deadTurns)
		p.finish(l, Result{NoSide, Deadlock})
		return
	}
	p.toMove = side.Opp()
	p.turn++
	p.phase = PhasePreTurn
	p.preTurn(l)
}

// preTurn begins the mover's turn: its pending Drones resolve together
// (ruling 7), then victory is checked and Main begins.
func (p *Position) preTurn(l *logger) {
	side := p.toMove
	p.phase = PhasePreTurn
	l.addf(Entry{Kind: EntryTurn, Side: side}, "Turn %d: %s to move.", p.turn, side)
	var mine []Drone
	p.drones = slices.DeleteFunc(p.drones, func(d Drone) bool {
		if d.Side == side {
			mine = append(mine, d)
			return true
		}
		return false
	})
	done := map[Square]bool{}
	for _, d := range mine {
		if d.Target == NoSquare && !d.Cancelled {
			// A Drone whose order a record hides (hiddenDrone) reaching
			// its PreTurn: Apply refuses the action that led here.
			l.addf(Entry{Kind: EntryDroneResolved, Side: side, Piece: d.Spotter, To: NoSquare},
				"%s's Drone, its order hidden, would resolve now.", side)
			continue
		}
		if d.Cancelled {
			l.addf(Entry{Kind: EntryDroneCancelled, Side: side, Piece: d.Spotter},
				"%s's Drone spotted by %s has no effect: its spotter was destroyed.", side, d.Spotter)
			continue
		}
		if done[d.Target] {
			l.addf(Entry{Kind: EntryDroneResolved, Side: side, Piece: d.Spotter, To: d.Target},
				"%s's Drone spotted by %s also hit %s.", side, d.Spotter, d.Target)
			continue
		}
		done[d.Target] = true
		t := p.ground(d.Target)
		what := "nothing"
		if t != nil {
			what = describe(t.Owner, t.ID)
		}
		l.addf(Entry{Kind: EntryDroneResolved, Side: side, Piece: d.Spotter, To: d.Target},
			"%s's Drone spotted by %s hit %s: %s.", side, d.Spotter, d.Target, what)
		if t != nil {
			p.destroy(l, t.ID, CauseDrone, ID{})
		}
		if c, ok := p.craterAt(d.Target); ok {
			// Only a hand-written position can hold a Crater here now, and
			// it lasts at least as long as a new one would: the square
			// stays one Crater (G22).
			l.addf(Entry{Kind: EntryCrater, Side: c.Side, To: d.Target}, "%s stays a Crater until the end of %s's turn.", d.Target, c.Side)
			continue
		}
		p.craters = append(p.craters, Crater{Square: d.Target, Side: side})
		l.addf(Entry{Kind: EntryCrater, Side: side, To: d.Target}, "A Crater marks %s until the end of %s's turn.", d.Target, side)
	}
	if p.checkVictory(l) {
		return
	}
	p.enterMain(l)
}

// enterMain starts Main, skipping it when the mover has no legal Main
// action (ruling 3).
func (p *Position) enterMain(l *logger) {
	p.phase = PhaseMain
	if !p.HasLegalMain() {
		l.addf(Entry{Kind: EntryMainSkipped, Side: p.toMove}, "%s has no legal Main action: Main is skipped.", p.toMove)
		p.startPostTurn(l, true)
	}
}

// checkVictory applies ruling 9 and finishes the game when a side has won
// or both meet a condition at once.
func (p *Position) checkVictory(l *logger) bool {
	var reasons [3]Reason
	tanks, planes := 0, 0
	var tankOwner, planeOwner [3]int
	for i := range p.pieces {
		pc := &p.pieces[i]
		switch pc.ID.Kind {
		case Tank:
			tanks++
			tankOwner[pc.Owner]++
		case Airplane:
			planes++
			planeOwner[pc.Owner]++
		}
	}
	for _, s := range []Side{South, North} {
		o := s.Opp()
		switch {
		case p.Count(o, Base) == 0:
			reasons[s] = NoBases
		case p.Count(o, Infantry) == 0:
			reasons[s] = NoInfantry
		case tanks > 0 && tankOwner[s] == tanks:
			reasons[s] = AllTanks
		case planes > 0 && planeOwner[s] == planes:
			reasons[s] = AllAirplanes
		}
	}
	switch {
	case reasons[South] != NoReason && reasons[North] != NoReason:
		p.finish(l, Result{NoSide, Simultaneous})
	case reasons[South] != NoReason:
		p.finish(l, Result{South, reasons[South]})
	case reasons[North] != NoReason:
		p.finish(l, Result{North, reasons[North]})
	default:
		return false
	}
	return true
}

func (p *Position) finish(l *logger, r Result) {
	p.phase = PhaseFinished
	p.result = r
	p.drafts, p.confirmed = [3]*Deployment{}, [3]bool{} // a game ended in Deployment reveals nothing
	p.hazardUses = 0
	for _, s := range []Side{South, North} {
		for i := range p.nextHazard[s] {
			if p.nextHazard[s][i] < 1 {
				p.nextHazard[s][i] = 1 // ended in Deployment: no hazard numbered yet (G12), and IDs start at 1
			}
		}
	}
	l.addf(Entry{Kind: EntryGameOver, Side: r.Winner, Reason: r.Reason}, "Game over: %s.", p.ResultText())
}

// ResultText describes the result in plain English ("" while playing).
func (p *Position) ResultText() string {
	r := p.result
	if p.phase != PhaseFinished {
		return ""
	}
	w, o := r.Winner, r.Winner.Opp()
	switch r.Reason {
	case Resignation:
		return fmt.Sprintf("%s wins, %s resigned", w, o)
	case NoBases:
		return fmt.Sprintf("%s wins, %s has no Base left", w, o)
	case NoInfantry:
		return fmt.Sprintf("%s wins, %s has no Infantry left", w, o)
	case AllTanks:
		return fmt.Sprintf("%s wins, controlling every Tank on the board", w)
	case AllAirplanes:
		return fmt.Sprintf("%s wins, controlling every Airplane on the board", w)
	case Agreement:
		return "draw by agreement"
	case Simultaneous:
		return "draw, both players met a victory condition at once"
	case Deadlock:
		return "draw by deadlock, " + strconv.Itoa(DeadlockTurns) + " turns without any possible action"
	}
	return "finished"
}

// coin decides who moves first from the seed (ruling 2: a fair coin).
func coin(seed uint64) Side {
	r := rand.New(rand.NewPCG(seed, 0x5a4d7ab1e))
	if r.IntN(2) == 0 {
		return South
	}
	return North
}

func itoa(n int) string { return strconv.Itoa(n) }
