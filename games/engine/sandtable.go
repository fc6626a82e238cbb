package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sandtable/games/sandtable"
)

// SandTableLevel is a SandTable level's budget: how many actions it tries
// and how deep.
type SandTableLevel struct {
	Name string
	// Nodes caps the positions tried (actions applied to a copy and
	// evaluated) per Choose.
	Nodes int
	// Replies is how many of the best Main actions and hazard uses (by
	// one-turn lookahead) are searched over whole turns, budget allowing:
	// the rest of the own PostTurn played by the one-turn planner, then
	// every candidate Main action of the opponent, scored by its worst
	// for us. 0: one-turn lookahead only; -1: every candidate the budget
	// allows.
	Replies int
	// Hazards caps the Mine and Anti-Air placements tried in PostTurn (0:
	// all); Vehicles caps the Vehicle moves tried in Main (0: all).
	Hazards, Vehicles int
	// Noise is the most points a seeded random term adds to a candidate's
	// score (0: always the best found).
	Noise int
	// Threat weighs, in percent, the opponent's best next Main action
	// against the material it would win (the static evaluation's threat
	// term).
	Threat int
}

// SandTableLevels are the SandTable levels, weakest first, with the same
// names as Levels.
var SandTableLevels = []SandTableLevel{
	{Name: "beginner", Nodes: 300, Hazards: 30, Vehicles: 40, Noise: 250, Threat: 30},
	{Name: "easy", Nodes: 1_500, Hazards: 80, Vehicles: 120, Noise: 80, Threat: 60},
	{Name: "intermediate", Nodes: 5_000, Noise: 10, Threat: 80},
	{Name: "advanced", Nodes: 40_000, Replies: 4, Threat: 80},
	{Name: "strongest", Nodes: 150_000, Replies: -1, Threat: 80},
}

// SandTablePlayer is the computer player of SandTable Chess: a level,
// "random" (a uniformly random legal action) or "greedy" (the action that
// wins the most material at once, looking no further).
//
// It plays from its side's view only: Choose takes pos.View(side), the
// redacted copy without the other side's draft, Drone orders and the
// coin's seed, and refuses a full Position, so its choices cannot depend
// on anything its side may not see. Callers must never hand it more.
// With the same view, spec and seed it returns the same action on any
// machine; the time cap only stops a search early.
type SandTablePlayer struct {
	spec  string
	level SandTableLevel
	seed  uint64
	// Stats of the calls so far; Deepened counts the Main candidates
	// searched over whole turns (each pass).
	Calls, Nodes, Capped, Deepened int
}

// NewSandTablePlayer returns the player spec names: a level name (see
// SandTableLevels; an alias of LevelAliases names its level), "random"
// or "greedy", with its seed.
func NewSandTablePlayer(spec string, seed uint64) (*SandTablePlayer, error) {
	s := strings.ToLower(spec)
	if s == "random" || s == "greedy" {
		return &SandTablePlayer{spec: s, seed: seed}, nil
	}
	for _, l := range SandTableLevels {
		if l.Name == CanonicalLevel(s) {
			return &SandTablePlayer{spec: s, level: l, seed: seed}, nil
		}
	}
	return nil, fmt.Errorf("unknown player %q (expected random, greedy or a level: %s)", spec, strings.Join(LevelNames(), ", "))
}

// Name returns the player's specification ("strongest", "greedy").
func (p *SandTablePlayer) Name() string { return p.spec }

// Deploy returns the player's deployment for side: SandTableDeployment at
// its level (random and greedy deploy as "beginner") with its seed. A
// caller sets it as the side's draft (Position.SetDraft) and then plays
// the confirmation Choose returns.
func (p *SandTablePlayer) Deploy(side sandtable.Side) *sandtable.Deployment {
	l, err := LevelByName(p.spec)
	if err != nil {
		l = Levels[0]
	}
	return SandTableDeployment(side, l, p.seed)
}

// Choose returns the next single action for the side to move, given that
// side's view (pos.View(side)), within a time cap (0: none): in Main one
// Vehicle move or one set of Infantry steps, in PostTurn one hazard use
// (a Mine, an Anti-Air or a Drone). In Deployment it returns the side's
// confirmation once its draft is valid (set it from Deploy first). The
// action is legal in the full position the view was made from. It
// returns an error for a full position or a public view, a view of the
// side not to move, and a finished game.
func (p *SandTablePlayer) Choose(view *sandtable.Position, timeCap time.Duration) (sandtable.Action, error) {
	ctx := context.Background()
	if timeCap > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeCap)
		defer cancel()
	}
	return p.ChooseContext(ctx, view)
}

// ChooseContext is Choose with a context: its deadline is the time cap,
// and its cancellation ends the search early with the best action found
// so far (legal, as Choose's; the first candidate when none was tried).
func (p *SandTablePlayer) ChooseContext(ctx context.Context, view *sandtable.Position) (sandtable.Action, error) {
	if view == nil || !view.Redacted() {
		return sandtable.Action{}, errors.New("the SandTable player takes its side's view (Position.View), never a full position")
	}
	side := view.Viewer()
	if side != sandtable.South && side != sandtable.North {
		return sandtable.Action{}, errors.New("the SandTable player takes a player's view, not the public one")
	}
	switch view.Phase() {
	case sandtable.PhaseDeployment:
		if view.Confirmed(side) {
			return sandtable.Action{}, fmt.Errorf("%s has confirmed its deployment: nothing to do", side)
		}
		if d := view.Draft(side); d == nil || d.Validate() != nil {
			return sandtable.Action{}, fmt.Errorf("%s's draft is not a valid deployment: set it from Deploy first", side)
		}
		return sandtable.Action{Kind: sandtable.ActDeployConfirm, Side: side}, nil
	case sandtable.PhaseFinished:
		return sandtable.Action{}, errors.New("the game is over")
	}
	if view.ToMove() != side {
		return sandtable.Action{}, fmt.Errorf("it is %s's turn, not %s's", view.ToMove(), side)
	}
	pos, err := view.Playable()
	if err != nil {
		return sandtable.Action{}, err
	}
	s := &stSearch{p: p, me: side, opDrones: view.PendingDrones(side.Opp()), rng: newRNG(p.seed ^ uint64(view.Turn())*0x9e3779b97f4a7c15 ^ uint64(view.HazardUses())<<56 ^ uint64(view.Phase())<<60)}
	s.deadline, _ = ctx.Deadline()
	s.done = ctx.Done()
	var a sandtable.Action
	switch {
	case p.spec == "random":
		a, err = s.random(pos)
	case p.spec == "greedy":
		a, err = s.greedy(pos)
	case pos.Phase() == sandtable.PhaseMain:
		a, _, err = s.main(pos, p.level.Replies)
	case p.level.Replies != 0:
		a, _, err = s.hazardDeep(pos, p.level.Replies)
	default:
		a, _, err = s.hazard(pos, p.level.Hazards)
	}
	p.Calls++
	p.Nodes += s.nodes
	p.Deepened += s.deepened
	if s.capped {
		p.Capped++
	}
	return a, err
}

// stSearch is one Choose call's state.
type stSearch struct {
	p  *SandTablePlayer
	me sandtable.Side
	// opDrones is the opponent's public count of pending Drones, which the
	// playable copy no longer holds; they resolve at its next PreTurn.
	opDrones int
	rng      *rng
	deadline time.Time
	done     <-chan struct{} // the context's
	nodes    int
	capped   bool
	// deepened counts the candidates searched over whole turns.
	deepened int
	// nextCheck is the node count at which out next reads the clock.
	nextCheck int
}

// out reports whether the budget or the time cap is used up.
func (s *stSearch) out() bool {
	if s.p.level.Nodes > 0 && s.nodes >= s.p.level.Nodes {
		return true
	}
	if s.nodes >= s.nextCheck {
		s.nextCheck = s.nodes + 16
		if !s.deadline.IsZero() && time.Now().After(s.deadline) {
			s.capped = true
			return true
		}
		select {
		case <-s.done:
			s.capped = true
			return true
		default:
		}
	}
	return s.capped
}

// try applies a to a copy of pos; nil when it is refused.
func (s *stSearch) try(pos *sandtable.Position, a sandtable.Action) *sandtable.Position {
	s.nodes++
	q := pos.Clone()
	if err := q.PlayForSearch(a); err != nil {
		return nil
	}
	return q
}

func (s *stSearch) noise() int {
	if n := s.p.level.Noise; n > 0 {
		return s.rng.intn(n + 1)
	}
	return 0
}

// random plays a uniformly random legal action: in Main a Vehicle move or
// a random set of Infantry steps (each a third of the time, else one more
// step), in PostTurn a hazard use.
func (s *stSearch) random(pos *sandtable.Position) (sandtable.Action, error) {
	if pos.Phase() == sandtable.PhasePostTurn {
		h, err := pos.LegalHazardUses()
		if err != nil || len(h) == 0 {
			return sandtable.Action{}, fmt.Errorf("no hazard use: %v", err)
		}
		return h[s.rng.intn(len(h))], nil
	}
	vm, err := pos.LegalVehicleMoves()
	if err != nil {
		return sandtable.Action{}, err
	}
	if len(vm) > 0 && s.rng.intn(3) == 0 {
		return vm[s.rng.intn(len(vm))], nil
	}
	var steps []sandtable.Step
	for {
		next, err := pos.LegalNextSteps(steps)
		if err != nil || len(next) == 0 {
			break
		}
		steps = append(steps, next[s.rng.intn(len(next))])
		if s.rng.intn(3) == 0 {
			break
		}
	}
	if len(steps) == 0 {
		if len(vm) == 0 {
			return sandtable.Action{}, errors.New("no legal Main action")
		}
		return vm[s.rng.intn(len(vm))], nil
	}
	return sandtable.Action{Kind: sandtable.ActInfantry, Steps: steps}, nil
}

// stMaterial is the material balance for me (what greedy counts).
func stMaterial(p *sandtable.Position, me sandtable.Side) int {
	if p.Phase() == sandtable.PhaseFinished {
		return stEval(p, me, 0, 0)
	}
	score := 0
	for _, pc := range p.Pieces() {
		v := 0
		switch pc.ID.Kind {
		case sandtable.Infantry:
			v = stInfantry
		case sandtable.Tank, sandtable.Airplane:
			v = vehicleValue(pc.ID.Kind)
		case sandtable.Mine, sandtable.AntiAir:
			v = stHazard
		case sandtable.Base:
			v = stBaseOne
		}
		switch pc.Owner {
		case me:
			score += v
		case me.Opp():
			score -= v
		}
	}
	return score
}

// greedy plays the action with the largest immediate material gain (ties
// broken at random): in Main among the Vehicle moves, the single Infantry
// steps and the set of every capturing step; in PostTurn a Drone on the
// most valuable opponent piece in reach, else a random placement.
func (s *stSearch) greedy(pos *sandtable.Position) (sandtable.Action, error) {
	if pos.Phase() == sandtable.PhasePostTurn {
		h, err := pos.LegalHazardUses()
		if err != nil || len(h) == 0 {
			return sandtable.Action{}, fmt.Errorf("no hazard use: %v", err)
		}
		best, ties := 0, []sandtable.Action(nil)
		var place []sandtable.Action
		for _, a := range h {
			if a.Kind != sandtable.ActDrone {
				place = append(place, a)
				continue
			}
			t, ok := pos.At(a.To)
			if !ok || t.Owner != s.me.Opp() || t.ID.Kind == sandtable.Base {
				continue
			}
			v := stInfantry
			switch {
			case t.ID.Kind.IsVehicle():
				v = vehicleValue(t.ID.Kind) + stInfantry*len(t.Crew)
			case t.ID.Kind.IsHazard():
				v = stHazard
			}
			switch {
			case v > best:
				best, ties = v, []sandtable.Action{a}
			case v == best:
				ties = append(ties, a)
			}
		}
		if len(ties) == 0 {
			ties = place
		}
		if len(ties) == 0 {
			ties = h
		}
		return ties[s.rng.intn(len(ties))], nil
	}
	cands, err := s.mainCandidates(pos, s.me, false)
	if err != nil {
		return sandtable.Action{}, err
	}
	base := stMaterial(pos, s.me)
	best := -stWin * 2
	var ties []sandtable.Action
	for _, a := range cands {
		q := s.try(pos, a)
		if q == nil {
			continue
		}
		g := stMaterial(q, s.me) - base
		switch {
		case g > best:
			best, ties = g, append(ties[:0], a)
		case g == best:
			ties = append(ties, a)
		}
	}
	if len(ties) == 0 {
		return sandtable.Action{}, errors.New("no legal Main action")
	}
	return ties[s.rng.intn(len(ties))], nil
}

type scored struct {
	a     sandtable.Action
	score int
	after *sandtable.Position
}

// main chooses a Main action. Every candidate is applied to a copy and
// evaluated (one-turn lookahead); with replies != 0, candidates are then
// searched over whole turns, best first, as long as the budget lasts
// (at most replies of them; -1: all): our Main action, our PostTurn
// played by the one-turn planner, then every candidate Main action of the
// opponent, the candidate scored by the reply worst for us. A reply that
// refuted an earlier candidate is tried first, and a candidate is left as
// soon as one reply shows it no better than the best so far. Only
// candidates searched to the end compete; a search stopped by the budget
// or the time cap drops the candidate it was on.
func (s *stSearch) main(pos *sandtable.Position, replies int) (sandtable.Action, int, error) {
	cands, err := s.mainCandidates(pos, s.me, true)
	if err != nil {
		return sandtable.Action{}, 0, err
	}
	if len(cands) == 0 {
		return sandtable.Action{}, 0, errors.New("no legal Main action")
	}
	var list []scored
	for i, a := range cands {
		if i > 0 && s.out() {
			break
		}
		q := s.try(pos, a)
		if q == nil {
			continue
		}
		list = append(list, scored{a, stEval(q, s.me, s.p.level.Threat, s.opDrones) + s.noise(), q})
	}
	if len(list) == 0 {
		return sandtable.Action{}, 0, errors.New("no candidate Main action was legal")
	}
	slices.SortStableFunc(list, func(x, y scored) int { return y.score - x.score })
	if replies == 0 || list[0].score >= stWin/2 {
		return list[0].a, list[0].score, nil
	}
	n := len(list)
	if replies > 0 {
		n = min(replies, n)
	}
	best, bestScore := -1, 0
	var killer string
	for i := range n {
		if s.out() {
			break
		}
		sc, st := s.deepen(list[i].after, best >= 0, bestScore, &killer)
		if st == stStopped {
			break
		}
		s.deepened++
		if st == stExact && (best < 0 || sc > bestScore) {
			best, bestScore = i, sc
		}
	}
	if best < 0 {
		return list[0].a, list[0].score, nil
	}
	return list[best].a, bestScore, nil
}

// How a whole-turn search of one candidate ended.
const (
	stExact   = iota // every reply tried: the score is the candidate's
	stCut            // a reply showed it no better than alpha
	stStopped        // the budget or the time cap stopped it
)

// deepen scores q (after one of our Main actions) over whole turns: our
// PostTurn played by the one-turn planner, then the opponent's Main
// action worst for us (see main). With hasAlpha it stops (stCut) as soon
// as the score cannot exceed alpha. *killer is the notation of the reply
// that refuted the last candidate: tried first, and updated.
func (s *stSearch) deepen(q *sandtable.Position, hasAlpha bool, alpha int, killer *string) (int, int) {
	// The opponent's pending Drones resolve at its PreTurn, which the
	// playable copy plays without them: count their risk here.
	risk := 0
	if s.opDrones > 0 {
		b := newSTBoard(q)
		risk = b.droneRisk(s.me.Opp(), s.me, q.Count(s.me, sandtable.Base), s.opDrones) * 6 / 10
	}
	sc, st := s.deepenAfter(q, hasAlpha, alpha+risk, killer)
	return sc - risk, st
}

// deepenAfter is deepen without the Drone risk.
func (s *stSearch) deepenAfter(q *sandtable.Position, hasAlpha bool, alpha int, killer *string) (int, int) {
	for q.Phase() == sandtable.PhasePostTurn && q.ToMove() == s.me {
		a, _, err := s.hazard(q, 60)
		if err != nil {
			break
		}
		r := s.try(q, a)
		if r == nil {
			break
		}
		q = r
	}
	if s.capped {
		return 0, stStopped
	}
	if q.Phase() != sandtable.PhaseMain || q.ToMove() != s.me.Opp() {
		return stEval(q, s.me, s.p.level.Threat, 0), stExact
	}
	cands, err := s.mainCandidates(q, s.me.Opp(), true)
	if err != nil || len(cands) == 0 {
		return stEval(q, s.me, s.p.level.Threat, 0), stExact
	}
	if *killer != "" {
		for i, a := range cands {
			if a.String() == *killer {
				copy(cands[1:i+1], cands[:i])
				cands[0] = a
				break
			}
		}
	}
	worst, worstA := stWin*2, sandtable.Action{}
	for _, a := range cands {
		if s.out() {
			return 0, stStopped
		}
		r := s.try(q, a)
		if r == nil {
			continue
		}
		// After the opponent's Main, its PostTurn: our threats count less
		// (it may still block them), its threats are ours to answer.
		if sc := stEval(r, s.me, s.p.level.Threat/2, 0); sc < worst {
			worst, worstA = sc, a
			if hasAlpha && worst <= alpha {
				*killer = a.String()
				return worst, stCut
			}
		}
	}
	if worst == stWin*2 {
		return stEval(q, s.me, s.p.level.Threat, 0), stExact
	}
	*killer = worstA.String()
	return worst, stExact
}

// hazard chooses a PostTurn hazard use: each Mine and Anti-Air placement
// (up to limit, sampled; 0: all) is applied and evaluated, each Drone is
// scored by what stands on its target now (static pieces surely hit,
// Units perhaps, own pieces never wanted).
func (s *stSearch) hazard(pos *sandtable.Position, limit int) (sandtable.Action, int, error) {
	return s.hazardFor(pos, s.me, limit, s.opDrones)
}

// hazardFor is hazard for side (the side to move of pos), whose opponent
// has opDrones pending Drones.
func (s *stSearch) hazardFor(pos *sandtable.Position, me sandtable.Side, limit, opDrones int) (sandtable.Action, int, error) {
	list, err := s.hazardList(pos, me, limit, opDrones)
	if err != nil {
		return sandtable.Action{}, 0, err
	}
	best := 0
	for i, h := range list {
		if h.score > list[best].score {
			best = i
		}
	}
	return list[best].a, list[best].score, nil
}

// hazCand is a scored hazard use: after is the position after a
// placement (nil for a Drone), drone a Drone's static worth (what it
// may destroy at our next PreTurn).
type hazCand struct {
	a            sandtable.Action
	score, drone int
	after        *sandtable.Position
}

// hazardList scores side me's hazard uses in pos (see hazard), Mine and
// Anti-Air placements first (up to limit, sampled; 0: all; those the
// budget left untried are left out), then every Drone.
func (s *stSearch) hazardList(pos *sandtable.Position, me sandtable.Side, limit, opDrones int) ([]hazCand, error) {
	uses, err := pos.LegalHazardUses()
	if err != nil || len(uses) == 0 {
		return nil, fmt.Errorf("no hazard use: %v", err)
	}
	var place, drones []sandtable.Action
	for _, a := range uses {
		if a.Kind == sandtable.ActDrone {
			drones = append(drones, a)
		} else {
			place = append(place, a)
		}
	}
	if limit > 0 && len(place) > limit {
		for i := range limit { // seeded partial shuffle
			j := i + s.rng.intn(len(place)-i)
			place[i], place[j] = place[j], place[i]
		}
		place = place[:limit]
	}
	var list []hazCand
	for i, a := range place {
		if i > 0 && s.out() {
			break
		}
		q := s.try(pos, a)
		if q == nil {
			continue
		}
		list = append(list, hazCand{a: a, score: stEval(q, me, s.p.level.Threat, opDrones) + s.noise(), after: q})
	}
	now := stEval(pos, me, s.p.level.Threat, opDrones)
	b := newSTBoard(pos)
	op := me.Opp()
	for _, a := range drones {
		v := 0
		if t := b.piece(a.To); t != nil {
			switch {
			case t.Owner == me:
				v = -2 * (stInfantry + 50)
			case t.Owner == op && t.ID.Kind.IsHazard():
				v = stHazard * 9 / 10
			case t.Owner == op && t.ID.Kind.IsVehicle():
				v = (vehicleValue(t.ID.Kind) + stInfantry*len(t.Crew)) * 4 / 10
			case t.Owner == op && t.ID.Kind == sandtable.Infantry:
				v = stInfantry * 3 / 10
			case t.Owner == sandtable.NoSide && t.ID.Kind.IsVehicle():
				// deny a neutral Vehicle the opponent reaches first
				if b.nearestInfantry(a.To, op) < b.nearestInfantry(a.To, me) {
					v = vehicleValue(t.ID.Kind) / 2
				} else {
					v = -vehicleValue(t.ID.Kind)
				}
			}
		}
		// A Drone on an empty square of its own spotter's far side harms
		// nobody: the fallback when nothing better exists (-1: a
		// placement of the same score comes first).
		list = append(list, hazCand{a: a, score: now + v - 1 + s.noise(), drone: v})
	}
	if len(list) == 0 {
		list = append(list, hazCand{a: uses[0], score: now})
	}
	return list, nil
}

// hazardDeep chooses our hazard use over whole turns: the uses scored by
// hazard, best first, are followed by the rest of our PostTurn and every
// candidate Main action of the opponent (see main), as many as the budget
// allows (at most replies of them; -1: all); a Drone keeps its static
// worth on top (it strikes at our next PreTurn, after the opponent's
// turn). Drones that would hit nothing are not searched. Only uses
// searched to the end compete; none: hazard's choice.
func (s *stSearch) hazardDeep(pos *sandtable.Position, replies int) (sandtable.Action, int, error) {
	list, err := s.hazardList(pos, s.me, s.p.level.Hazards, s.opDrones)
	if err != nil {
		return sandtable.Action{}, 0, err
	}
	slices.SortStableFunc(list, func(x, y hazCand) int { return y.score - x.score })
	if list[0].score >= stWin/2 {
		return list[0].a, list[0].score, nil
	}
	best, bestScore, n := -1, 0, 0
	var killer string
	for i := range list {
		if replies >= 0 && n >= replies || s.out() {
			break
		}
		h := &list[i]
		if h.after == nil {
			if h.a.Kind != sandtable.ActDrone || h.drone <= 0 {
				continue
			}
			if h.after = s.try(pos, h.a); h.after == nil {
				continue
			}
		}
		n++
		sc, st := s.deepen(h.after, best >= 0, bestScore-h.drone, &killer)
		if st == stStopped {
			break
		}
		s.deepened++
		if sc += h.drone; st == stExact && (best < 0 || sc > bestScore) {
			best, bestScore = i, sc
		}
	}
	if best < 0 {
		return list[0].a, list[0].score, nil
	}
	return list[best].a, bestScore, nil
}

// mainCandidates lists Main actions for side (the side to move of pos)
// worth trying: Vehicle moves (with a dismount only onto an occupied
// square, that is a capture or a boarding), single Infantry steps that
// capture or board, and sets of Infantry steps built greedily (captures
// and boardings; then also up to 3 or 10 advancing steps). With full,
// the level's Vehicles cap applies; otherwise every Vehicle move.
func (s *stSearch) mainCandidates(pos *sandtable.Position, side sandtable.Side, full bool) ([]sandtable.Action, error) {
	b := newSTBoard(pos)
	var out []sandtable.Action
	vm, err := pos.LegalVehicleMoves()
	if err != nil {
		return nil, err
	}
	for _, a := range vm {
		if a.Dismount != nil && b.piece(a.Dismount.To) == nil {
			continue
		}
		out = append(out, a)
	}
	if limit := s.p.level.Vehicles; full && limit > 0 && len(out) > limit {
		for i := range limit {
			j := i + s.rng.intn(len(out)-i)
			out[i], out[j] = out[j], out[i]
		}
		out = out[:limit]
	}
	steps, err := pos.LegalNextSteps(nil)
	if err != nil {
		return nil, err
	}
	forward := 0
	for _, st := range steps {
		sc := stepScore(b, side, st, nil)
		switch {
		case sc >= 30:
			out = append(out, sandtable.Action{Kind: sandtable.ActInfantry, Steps: []sandtable.Step{st}})
		case sc > 0 && forward < 4 && s.rng.intn(4) == 0:
			forward++
			out = append(out, sandtable.Action{Kind: sandtable.ActInfantry, Steps: []sandtable.Step{st}})
		}
	}
	seen := map[string]bool{}
	for _, c := range []struct{ threshold, adv int }{{30, 0}, {5, 0}, {1, 3}, {1, 10}} {
		st := composite(pos, b, side, steps, c.threshold, c.adv)
		if len(st) < 2 {
			continue
		}
		a := sandtable.Action{Kind: sandtable.ActInfantry, Steps: st}
		if k := a.String(); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	if len(out) == 0 && len(steps) > 0 {
		out = append(out, sandtable.Action{Kind: sandtable.ActInfantry, Steps: steps[:1]})
	}
	if len(out) == 0 {
		out = vm
	}
	return out, nil
}

// composite builds a set of Infantry steps for side from the legal
// single steps next (pos.LegalNextSteps(nil)): the best-scoring steps
// first, each Infantry once, each target square once, only steps scoring
// at least threshold, of which at most adv are plain advances (score
// below 30). The set is checked once on a copy; when the rules refuse it
// (a case the local bookkeeping does not model), the step-by-step build
// (compositeExact) is used instead.
func composite(pos *sandtable.Position, b *stBoard, side sandtable.Side, next []sandtable.Step, threshold, adv int) []sandtable.Step {
	type cand struct {
		st sandtable.Step
		sc int
	}
	var cs []cand
	for _, st := range next {
		if sc := stepScore(b, side, st, nil); sc >= threshold {
			cs = append(cs, cand{st, sc})
		}
	}
	slices.SortStableFunc(cs, func(x, y cand) int { return y.sc - x.sc })
	usedFrom := map[sandtable.Square]int{}
	usedTo := map[sandtable.Square]bool{}
	var steps []sandtable.Step
	for _, c := range cs {
		if len(steps) >= 40 {
			break
		}
		limit := 1
		if p := b.piece(c.st.From); p != nil && p.ID.Kind.IsVehicle() {
			limit = len(p.Crew) // crew leaving one by one
		}
		if usedFrom[c.st.From] >= limit || usedTo[c.st.To] || usedFrom[c.st.To] > 0 {
			continue
		}
		if c.sc < 30 {
			if adv == 0 {
				continue
			}
			adv--
		}
		usedFrom[c.st.From]++
		usedTo[c.st.To] = true
		steps = append(steps, c.st)
	}
	if len(steps) < 2 {
		return steps
	}
	q := pos.Clone()
	if q.PlayForSearch(sandtable.Action{Kind: sandtable.ActInfantry, Steps: steps}) != nil {
		return compositeExact(pos, b, side, threshold, adv)
	}
	return steps
}

// compositeExact builds the set step by step: repeatedly the best legal
// next step scoring at least threshold, of which at most adv are plain
// advances (score below 30).
func compositeExact(pos *sandtable.Position, b *stBoard, side sandtable.Side, threshold, adv int) []sandtable.Step {
	var prefix []sandtable.Step
	vacated := map[sandtable.Square]bool{}
	for len(prefix) < 40 {
		next, err := pos.LegalNextSteps(prefix)
		if err != nil || len(next) == 0 {
			break
		}
		bi, bs := -1, threshold-1
		for i, st := range next {
			if sc := stepScore(b, side, st, vacated); sc > bs {
				bi, bs = i, sc
			}
		}
		if bi < 0 {
			break
		}
		if bs < 30 {
			if adv == 0 {
				break
			}
			adv--
		}
		st := next[bi]
		if p := b.piece(st.From); p != nil && p.ID.Kind == sandtable.Infantry {
			vacated[st.From] = true
		}
		prefix = append(prefix, st)
	}
	return prefix
}

// stepScore scores one legal Infantry step for side on the position b
// shows (squares in vacated emptied by earlier steps): captures by the
// value taken, boarding a neutral Vehicle by its value, filling a thin
// crew, and plain steps by their advance; a crew member leaving its
// Vehicle for an empty square is discouraged.
func stepScore(b *stBoard, side sandtable.Side, st sandtable.Step, vacated map[sandtable.Square]bool) int {
	from := b.piece(st.From)
	crewExit := from != nil && from.ID.Kind.IsVehicle()
	var t *sandtable.Piece
	if !vacated[st.To] {
		t = b.piece(st.To)
	}
	op := side.Opp()
	if t == nil {
		if crewExit {
			return -20
		}
		dr := st.To.Rank() - st.From.Rank()
		if side == sandtable.North {
			dr = -dr
		}
		return 6 * dr
	}
	switch {
	case t.Owner == op:
		bases := 0
		for i := range b.pcs {
			if b.pcs[i].ID.Kind == sandtable.Base && b.pcs[i].Owner == op {
				bases++
			}
		}
		return b.gainOn(t, op, bases, true)
	case t.ID.Kind.IsVehicle() && t.Owner == sandtable.NoSide:
		return vehicleValue(t.ID.Kind)
	case t.ID.Kind.IsVehicle() && t.Owner == side && !crewExit:
		if len(t.Crew) < 2 {
			return 30
		}
		return 5
	}
	return 0
}
