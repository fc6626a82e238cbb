package sandtable

import "slices"

// This file holds the Main-phase rules: Infantry steps (ruling 4), Vehicle
// moves and dismounts (ruling 5), and destruction with its side effects
// (crews, Drone spotters).

// turnState tracks one Infantry turn: which Infantry have moved.
type turnState struct {
	moved map[ID]bool
}

// resolveStepper finds the Infantry a step moves: by ID, or the Infantry
// on From, or the first crew member of the mover's Vehicle on From that
// has not moved this turn.
func (p *Position) resolveStepper(st Step, moved map[ID]bool) (*Piece, error) {
	side := p.toMove
	if !st.Who.IsZero() {
		pc := p.get(st.Who)
		if pc == nil {
			return nil, illegal(RulePiece, "there is no piece %s on the board", st.Who)
		}
		if pc.ID.Kind != Infantry {
			return nil, illegal(RulePiece, "%s is %s, not an Infantry", st.Who, aKind(pc.ID.Kind))
		}
		if pc.Owner != side {
			return nil, illegal(RulePiece, "%s belongs to %s", st.Who, pc.Owner)
		}
		if st.From.Valid() && pc.Square != st.From {
			return nil, illegal(RulePiece, "%s is on %s, not on %s", st.Who, pc.Square, st.From)
		}
		return pc, nil
	}
	g := p.ground(st.From)
	if g == nil {
		return nil, illegal(RulePiece, "there is no piece on %s", st.From)
	}
	switch {
	case g.ID.Kind == Infantry:
		if g.Owner != side {
			return nil, illegal(RulePiece, "the Infantry on %s is %s's", st.From, g.Owner)
		}
		return g, nil
	case g.ID.Kind.IsVehicle():
		if g.Owner == NoSide {
			return nil, illegal(RuleVehicleCrew, "the neutral %s on %s has no crew to step out", g.ID.Kind, st.From)
		}
		if g.Owner != side {
			return nil, illegal(RulePiece, "the %s on %s is %s's", g.ID.Kind, st.From, g.Owner)
		}
		for _, c := range g.Crew {
			if !moved[c] {
				return p.get(c), nil
			}
		}
		return nil, illegal(RuleInfantryOnce, "every crew member of the %s on %s has already moved this turn", g.ID.Kind, st.From)
	case g.ID.Kind == Base:
		return nil, illegal(RuleBaseNeverMoves, "the Base on %s never moves", st.From)
	default:
		return nil, illegal(RulePiece, "the %s on %s is a hazard and never moves", g.ID.Kind, st.From)
	}
}

// checkInfantryEnter says whether an Infantry of side may step onto to
// (ruling 4); it changes nothing.
func (p *Position) checkInfantryEnter(side Side, inf ID, to Square) error {
	if p.mayInfantryEnter(side, to) {
		return nil
	}
	if p.hasCrater(to) {
		return illegal(RuleCrater, "Infantry %s cannot enter the Crater on %s", inf, to)
	}
	t := p.ground(to)
	if t == nil {
		return nil
	}
	k := t.ID.Kind
	switch {
	case k == Infantry || k.IsHazard():
		if t.Owner == side {
			return illegal(RuleInfantryOwn, "Infantry %s cannot move onto the friendly %s on %s", inf, k, to)
		}
	case k == Base:
		if t.Owner == side {
			return illegal(RuleOwnBase, "Infantry %s cannot move onto its own Base on %s", inf, to)
		}
	case k.IsVehicle():
		if t.Owner != side.Opp() && len(t.Crew) >= MaxCrew {
			return illegal(RuleCrewMax, "Infantry %s cannot board the %s on %s: it already has 4 crew", inf, k, to)
		}
	}
	return nil
}

// mayInfantryEnter reports whether side's Infantry may step onto to
// (checkInfantryEnter without its error, for move generation).
func (p *Position) mayInfantryEnter(side Side, to Square) bool {
	if p.hasCrater(to) {
		return false
	}
	t := p.ground(to)
	if t == nil {
		return true
	}
	k := t.ID.Kind
	switch {
	case k == Infantry || k.IsHazard(), k == Base:
		return t.Owner != side
	case k.IsVehicle():
		return t.Owner == side.Opp() || len(t.Crew) < MaxCrew
	}
	return true
}

// infantryEnter moves Infantry inf (on the ground or crewing) onto to with
// all effects of ruling 4. The caller has checked adjacency; legality of
// the target square is checked here before anything changes.
func (p *Position) infantryEnter(l *logger, inf ID, to Square) error {
	side := p.toMove
	if err := p.checkInfantryEnter(side, inf, to); err != nil {
		return err
	}
	pc := p.get(inf)
	from := pc.Square
	if !pc.Carrier.IsZero() {
		v := p.get(pc.Carrier)
		v.Crew = slices.DeleteFunc(v.Crew, func(c ID) bool { return c == inf })
		pc.Carrier = ID{}
		l.addf(Entry{Kind: EntryLeave, Side: side, Piece: inf, Other: v.ID, From: from, To: to},
			"%s left %s on %s for %s.", describe(side, inf), describe(side, v.ID), from, to)
		if len(v.Crew) == 0 {
			v.Owner = NoSide
			l.addf(Entry{Kind: EntryNeutral, Side: NoSide, Piece: v.ID, To: from},
				"%s %s on %s has no crew left and is neutral.", v.ID.Kind, v.ID, from)
		}
	} else {
		p.board[from] = -1
		l.addf(Entry{Kind: EntryMove, Side: side, Piece: inf, From: from, To: to},
			"%s moved %s-%s.", describe(side, inf), from, to)
	}
	pc = p.get(inf)
	pc.Square = NoSquare // in transit: on no square until it lands
	t := p.ground(to)
	if t != nil {
		switch {
		case t.ID.Kind.IsVehicle() && t.Owner == side.Opp():
			vid, oldOwner := t.ID, t.Owner
			for _, c := range slices.Clone(t.Crew) {
				p.destroy(l, c, CauseCrew, vid)
			}
			v := p.get(vid)
			v.Owner = side
			v.Crew = []ID{inf}
			pc = p.get(inf)
			pc.Carrier, pc.Square = vid, to
			l.addf(Entry{Kind: EntryCapture, Side: side, Piece: vid, Other: inf, To: to},
				"%s captured %s's %s %s on %s.", describe(side, inf), oldOwner, vid.Kind, vid, to)
			return nil
		case t.ID.Kind.IsVehicle():
			wasNeutral := t.Owner == NoSide
			t.Owner = side
			t.Crew = append(t.Crew, inf)
			vid, n := t.ID, len(t.Crew)
			pc = p.get(inf)
			pc.Carrier, pc.Square = vid, to
			extra := ""
			if wasNeutral {
				extra = "; the Vehicle is now " + side.String() + "'s"
			}
			l.addf(Entry{Kind: EntryBoard, Side: side, Piece: inf, Other: vid, To: to, Count: n},
				"%s boarded %s %s on %s (%d crew)%s.", describe(side, inf), vid.Kind, vid, to, n, extra)
			return nil
		default:
			p.destroy(l, t.ID, CauseInfantry, inf)
		}
	}
	p.setSquare(inf, to)
	return nil
}

// destroy removes a piece (a Vehicle with its crew), logging why, and
// cancels the Drones it was spotting (ruling 7).
func (p *Position) destroy(l *logger, id ID, cause Cause, by ID) {
	pc := p.get(id)
	if pc == nil {
		return
	}
	if pc.ID.Kind.IsVehicle() {
		for _, c := range slices.Clone(pc.Crew) {
			p.destroy(l, c, CauseCrew, id)
		}
		pc = p.get(id)
	}
	owner, sq := pc.Owner, pc.Square
	if !pc.Carrier.IsZero() {
		if v := p.get(pc.Carrier); v != nil {
			v.Crew = slices.DeleteFunc(v.Crew, func(c ID) bool { return c == id })
		}
	}
	p.remove(id)
	text := describe(owner, id) + " "
	if sq.Valid() {
		text += "on " + sq.String() + " "
	}
	text += "was destroyed"
	switch {
	case cause == CauseCrew:
		text += " with " + by.Kind.String() + " " + by.String()
	case cause == CauseDrone:
		text += " by a Drone"
	case !by.IsZero():
		text += " by " + by.Kind.String() + " " + by.String()
	}
	l.addf(Entry{Kind: EntryDestroy, Side: owner, Piece: id, Other: by, To: sq, Cause: cause}, "%s.", text)
	if id.Kind == Infantry {
		n := 0
		var lost []Drone
		for i := range p.drones {
			d := &p.drones[i]
			if d.Spotter == id && !d.Cancelled {
				d.Cancelled = true
				n++
				lost = append(lost, *d)
			}
		}
		if n > 0 {
			l.addf(Entry{Kind: EntrySpotterLost, Side: owner, Piece: id, Count: n},
				"%s was a Drone spotter: %d of %s's Drones %s cancelled.", describe(owner, id), n, owner, plural(n, "is", "are"))
			for _, d := range lost {
				l.addf(Entry{Kind: EntryDroneCancelled, Side: owner, Secret: owner, Piece: id, To: d.Target},
					"Your Drone on %s (spotter %s) is cancelled: its spotter was destroyed.", d.Target, id)
			}
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// infantryTurn applies the steps of an Infantry Main action in order.
func (p *Position) infantryTurn(l *logger, steps []Step) error {
	moved := map[ID]bool{}
	for i, st := range steps {
		if err := p.infantryStep(l, st, moved); err != nil {
			if len(steps) > 1 {
				return wrapStep(i, st, err)
			}
			return err
		}
	}
	return nil
}

func wrapStep(i int, st Step, err error) error {
	if re, ok := err.(*RuleError); ok {
		return &RuleError{Rule: re.Rule, Msg: "step " + itoa(i+1) + " (" + st.String() + "): " + re.Msg}
	}
	return err
}

func (p *Position) infantryStep(l *logger, st Step, moved map[ID]bool) error {
	pc, err := p.resolveStepper(st, moved)
	if err != nil {
		return err
	}
	if moved[pc.ID] {
		return illegal(RuleInfantryOnce, "Infantry %s has already moved this turn", pc.ID)
	}
	if !st.To.Valid() {
		return illegal(RuleBoard, "the destination is off the board")
	}
	if !Adjacent(pc.Square, st.To) {
		return illegal(RuleInfantryStep, "Infantry %s on %s cannot reach %s in one step", pc.ID, pc.Square, st.To)
	}
	id := pc.ID
	if err := p.infantryEnter(l, id, st.To); err != nil {
		return err
	}
	moved[id] = true
	return nil
}

// direction returns the unit step from a to b if they lie on one line the
// kind may use, and the number of squares.
func direction(k Kind, a, b Square) (df, dr, n int, ok bool) {
	fa, ra, fb, rb := a.File(), a.Rank(), b.File(), b.Rank()
	df, dr = sign(fb-fa), sign(rb-ra)
	adf, adr := abs(fb-fa), abs(rb-ra)
	n = max(adf, adr)
	if n == 0 {
		return 0, 0, 0, false
	}
	if adf != 0 && adr != 0 {
		if k == Tank || adf != adr {
			return 0, 0, 0, false
		}
	}
	return df, dr, n, true
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// vehiclePath checks a declared Vehicle move on its whole path (ruling 5)
// without changing anything, and returns the path squares.
func (p *Position) vehiclePath(a Action) (*Piece, []Square, error) {
	side := p.toMove
	v := p.ground(a.From)
	if v == nil {
		return nil, nil, illegal(RulePiece, "there is no piece on %s", a.From)
	}
	if v.ID.Kind != a.Vehicle {
		return nil, nil, illegal(RulePiece, "the piece on %s is %s, not %s", a.From, aKind(v.ID.Kind), aKind(a.Vehicle))
	}
	if v.Owner == NoSide {
		return nil, nil, illegal(RuleVehicleCrew, "the neutral %s on %s has no crew and cannot move", v.ID.Kind, a.From)
	}
	if v.Owner != side {
		return nil, nil, illegal(RulePiece, "the %s on %s is %s's", v.ID.Kind, a.From, v.Owner)
	}
	if !a.To.Valid() {
		return nil, nil, illegal(RuleBoard, "the destination is off the board")
	}
	df, dr, n, ok := direction(v.ID.Kind, a.From, a.To)
	if !ok {
		return nil, nil, illegal(RuleVehicleLine, "%s %s on %s cannot reach %s in one straight %s line", v.ID.Kind, v.ID, a.From, a.To,
			map[bool]string{true: "orthogonal", false: "orthogonal or diagonal"}[v.ID.Kind == Tank])
	}
	path := make([]Square, n)
	crew := len(v.Crew)
	kind := v.ID.Kind
	for i := range n {
		s := Sq(a.From.File()+df*(i+1), a.From.Rank()+dr*(i+1))
		path[i] = s
		last := i == n-1
		verb := "pass through"
		if last {
			verb = "land on"
		}
		if p.hasCrater(s) {
			return nil, nil, illegal(RuleCrater, "%s %s cannot %s the Crater on %s", kind, v.ID, verb, s)
		}
		t := p.ground(s)
		if t == nil {
			continue
		}
		tk := t.ID.Kind
		own := t.Owner == side
		switch {
		case tk == Infantry && own:
			if crew < MaxCrew {
				crew++
			} else if last {
				return nil, nil, illegal(RuleVehicleOwnInf, "%s %s cannot land on its own Infantry %s on %s: its crew is full", kind, v.ID, t.ID, s)
			}
		case tk.IsVehicle():
			if kind == Tank && !last {
				return nil, nil, illegal(RuleTankVehicle, "Tank %s on %s cannot pass through the %s on %s", v.ID, a.From, tk, s)
			}
			if last && t.Owner != side.Opp() {
				r := RuleAirplaneLand
				if kind == Tank {
					r = RuleTankVehicle
				}
				return nil, nil, illegal(r, "%s %s cannot land on the %s %s on %s", kind, v.ID, map[bool]string{true: "friendly", false: "neutral"}[own], tk, s)
			}
		case tk.IsHazard() && own && last:
			return nil, nil, illegal(RuleVehicleHazard, "%s %s cannot land on its own %s on %s", kind, v.ID, tk, s)
		case tk == Base && own && last:
			return nil, nil, illegal(RuleOwnBase, "%s %s cannot land on its own Base on %s", kind, v.ID, s)
		}
	}
	return v, path, nil
}

// vehicleMove applies a Vehicle move and its optional dismount (ruling 5).
func (p *Position) vehicleMove(l *logger, a Action) error {
	v, path, err := p.vehiclePath(a)
	if err != nil {
		return err
	}
	side := p.toMove
	vid, kind := v.ID, v.ID.Kind
	p.board[a.From] = -1
	p.get(vid).Square = NoSquare // in transit
	start := len(l.entries)
	end := a.From
	survived := true
	var killer Square = NoSquare
	for i, s := range path {
		last := i == len(path)-1
		end = s
		t := p.ground(s)
		if t == nil {
			continue
		}
		tid, tk := t.ID, t.ID.Kind
		own := t.Owner == side
		switch {
		case tk == Infantry && own:
			v := p.get(vid)
			if len(v.Crew) < MaxCrew {
				p.board[s] = -1
				v.Crew = append(v.Crew, tid)
				inf := p.get(tid)
				inf.Carrier = vid
				l.addf(Entry{Kind: EntryBoard, Side: side, Piece: tid, Other: vid, To: s, Count: len(v.Crew)},
					"%s on %s was picked up by %s %s (%d crew).", describe(side, tid), s, kind, vid, len(v.Crew))
			}
		case own || t.Owner == NoSide:
			// friendly hazards and Bases, neutral Vehicles: passed (landing was checked)
		case tk == Mine && kind == Tank:
			p.destroy(l, tid, CauseTank, vid)
			p.placeAt(vid, s)
			p.destroy(l, vid, CauseMine, tid)
			survived, killer = false, s
		case tk == AntiAir && kind == Airplane:
			p.destroy(l, tid, CauseAirplane, vid)
			p.placeAt(vid, s)
			p.destroy(l, vid, CauseAntiAir, tid)
			survived, killer = false, s
		case tk == Mine || tk == AntiAir:
			// Airplane over an enemy Mine, Tank through an enemy Anti-Air
			p.destroy(l, tid, map[Kind]Cause{Tank: CauseTank, Airplane: CauseAirplane}[kind], vid)
		case kind == Tank && tk == Infantry:
			p.destroy(l, tid, CauseTank, vid)
		case last:
			p.destroy(l, tid, map[Kind]Cause{Tank: CauseTank, Airplane: CauseAirplane}[kind], vid)
		}
		if !survived {
			break
		}
	}
	moveText := describe(side, vid) + " moved " + a.From.String() + "-" + end.String()
	if !survived {
		if end != a.To {
			moveText += " (declared " + a.From.String() + "-" + a.To.String() + ")"
		}
		moveText += " and was destroyed there"
	}
	mv := Entry{Kind: EntryMove, Turn: p.turn, Phase: p.phase, Mover: side, Side: side, Piece: vid, From: a.From, To: end, Text: moveText + "."}
	l.entries = slices.Insert(l.entries, start, mv)
	if survived {
		p.setSquare(vid, a.To)
	}
	if a.Dismount == nil {
		return nil
	}
	if !survived {
		return illegal(RuleDismount, "%s %s is destroyed on %s, so no crew can dismount", kind, vid, killer)
	}
	ds := *a.Dismount
	v = p.get(vid)
	who := ds.Who
	if who.IsZero() {
		who = v.Crew[0]
	} else if !slices.Contains(v.Crew, who) {
		return illegal(RuleDismount, "%s is not in the crew of %s %s", who, kind, vid)
	}
	if !ds.To.Valid() || !Adjacent(a.To, ds.To) {
		return illegal(RuleDismount, "the dismount square %s is not adjacent to %s", ds.To, a.To)
	}
	return p.infantryEnter(l, who, ds.To)
}
