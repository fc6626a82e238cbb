package sandtable

import (
	"slices"
	"sort"
)

// Piece is one piece on the board.
type Piece struct {
	// ID is the piece's stable identity; ID.Kind is its kind and ID.Side the
	// side that deployed it.
	ID ID
	// Owner is the side controlling the piece. Only Vehicles change owner:
	// a Vehicle belongs to its crew's side and is neutral (NoSide) without
	// crew (rule text, Vehicles).
	Owner Side
	// Square is where the piece stands; for crew, the Vehicle's square.
	Square Square
	// Carrier is the Vehicle an Infantry crews (zero ID on the ground).
	Carrier ID
	// Crew lists a Vehicle's Infantry in boarding order (0–4).
	Crew []ID
}

// Kind returns the piece's kind.
func (p *Piece) Kind() Kind { return p.ID.Kind }

// Drone is a pending Drone order (ruling 7): declared in its side's
// PostTurn, resolved at that side's next PreTurn. Spotter and Target are
// secret to the declaring side; in a redacted view of the other side they
// are zero and Hidden is set.
type Drone struct {
	Side    Side
	Spotter ID
	Target  Square
	// Cancelled is set when the spotter was destroyed before resolution.
	Cancelled bool
	// Hidden marks a redacted Drone whose spotter and target are unknown to
	// the viewer.
	Hidden bool
}

// Crater marks a square where a Drone resolved; it blocks every Unit and
// hazard placement until the end of Side's turn (rule text, Crater).
type Crater struct {
	Square Square
	Side   Side
}

// Reason says why a game ended.
type Reason int8

// The reasons a game ends (ruling 9).
const (
	NoReason     Reason = iota
	Resignation         // the loser resigned
	NoBases             // the loser has no Base left
	NoInfantry          // the loser has no Infantry left, crews included
	AllTanks            // the winner controls every Tank on the board
	AllAirplanes        // the winner controls every Airplane on the board
	Agreement           // draw agreed by both players
	Simultaneous        // draw: one action made both players meet a condition
	Deadlock            // draw: DeadlockTurns turns without any Main action or hazard use
)

var reasonNames = []string{"none", "resignation", "no-bases", "no-infantry", "all-tanks", "all-airplanes", "agreement", "simultaneous", "deadlock"}

// String returns the reason's name as used in the position format.
func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonNames) {
		return "reason?"
	}
	return reasonNames[r]
}

// Result is the outcome of a finished game. Winner is NoSide for a draw.
type Result struct {
	Winner Side
	Reason Reason
}

// Position is a full-information SandTable Chess position: every piece with
// its stable ID, crews, phase, side to move, pending Drones (secrets
// included), Craters, deployment drafts, and the counters the rules need.
// Use View to obtain what one viewer may see.
//
// Its fields are private: only the engine changes a Position, through
// Apply (and the deployment edits it takes), SetDraft and Advance, so the
// invariants of the package documentation hold for every Position the
// package hands out. The accessors return copies.
//
// The zero Position is not usable; obtain one from NewGame or
// ParsePosition (tests write their positions in the position format).
// Methods that change a Position either succeed completely or
// change nothing.
type Position struct {
	phase  Phase
	toMove Side // side to move (NoSide during Deployment)
	// turn counts turns (one player's PreTurn–Main–PostTurn) from 1; 0
	// during Deployment.
	turn int
	// first is the side the coin chose to move first (NoSide before).
	first Side
	// hazardUses is the number of hazard uses left in PostTurn.
	hazardUses int
	// deadTurns counts consecutive turns in which the mover could take no
	// Main action and no hazard use (ruling 9).
	deadTurns int
	// seed drives the coin flip after both deployments are confirmed (0 in
	// redacted views).
	seed uint64
	// nextHazard[side][0] and [1] are the numbers the next Mine and Anti-Air
	// placed by side will get in their IDs.
	nextHazard [3][2]int32
	result     Result
	// drafts holds each side's deployment during Deployment (nil in views
	// that may not see it); confirmed says who has confirmed.
	drafts    [3]*Deployment
	confirmed [3]bool
	drones    []Drone
	craters   []Crater
	// viewer is NoSide for a full position; in a redacted view it is the
	// side the view is for, and redacted is set.
	viewer   Side
	redacted bool

	pieces []Piece           // sorted by ID
	board  [NumSquares]int16 // index into pieces of the piece on the ground there, -1 if none
}

// Phase returns the phase the position waits in (Deployment, Main,
// PostTurn or Finished; PreTurn only in a hand-written position not yet
// advanced).
func (p *Position) Phase() Phase { return p.phase }

// ToMove returns the side to move (NoSide during Deployment).
func (p *Position) ToMove() Side { return p.toMove }

// Turn returns the turn number, counted from 1 (0 during Deployment).
func (p *Position) Turn() int { return p.turn }

// First returns the side the coin chose to move first (NoSide before the
// reveal).
func (p *Position) First() Side { return p.first }

// HazardUses returns the hazard uses left in the current PostTurn.
func (p *Position) HazardUses() int { return p.hazardUses }

// DeadTurns returns how many turns in a row the mover could do nothing
// (ruling 9: DeadlockTurns of them draw).
func (p *Position) DeadTurns() int { return p.deadTurns }

// NextHazard returns the number the next Mine (kind Mine) or Anti-Air
// (kind AntiAir) that side places will have in its ID (G12).
func (p *Position) NextHazard(side Side, kind Kind) int32 {
	if side != South && side != North || !kind.IsHazard() {
		return 0
	}
	if kind == Mine {
		return p.nextHazard[side][0]
	}
	return p.nextHazard[side][1]
}

// Result returns the outcome of a finished game (the zero Result before).
func (p *Position) Result() Result { return p.result }

// Confirmed reports whether side has confirmed its deployment (public).
func (p *Position) Confirmed(side Side) bool {
	return (side == South || side == North) && p.confirmed[side]
}

// Drones returns a copy of the pending Drone orders, in declaration order.
// In a redacted view the other side's are Hidden.
func (p *Position) Drones() []Drone { return slices.Clone(p.drones) }

// Craters returns a copy of the Craters on the board.
func (p *Position) Craters() []Crater { return slices.Clone(p.craters) }

// Redacted reports whether the position is a view (see View); Viewer is
// the side it was made for (NoSide: the public).
func (p *Position) Redacted() bool { return p.redacted }

// Viewer returns the side a redacted view was made for (NoSide for the
// public view and for a full position).
func (p *Position) Viewer() Side { return p.viewer }

// NewGame returns a game in Deployment with empty drafts for both sides.
// The seed decides the coin flip once both sides have confirmed.
func NewGame(seed uint64) *Position {
	p := &Position{phase: PhaseDeployment, seed: seed}
	p.drafts[South] = NewDeployment(South)
	p.drafts[North] = NewDeployment(North)
	p.rebuild()
	return p
}

// Pieces returns copies of all pieces on the board (ground and crew),
// sorted by ID.
func (p *Position) Pieces() []Piece {
	out := make([]Piece, len(p.pieces))
	for i, pc := range p.pieces {
		out[i] = pc
		out[i].Crew = slices.Clone(pc.Crew)
	}
	return out
}

// Piece returns a copy of the piece with the given ID.
func (p *Position) Piece(id ID) (Piece, bool) {
	i := p.index(id)
	if i < 0 {
		return Piece{}, false
	}
	pc := p.pieces[i]
	pc.Crew = slices.Clone(pc.Crew)
	return pc, true
}

// At returns a copy of the piece standing on sq (for a Vehicle, the
// Vehicle; its crew are listed in Crew).
func (p *Position) At(sq Square) (Piece, bool) {
	if !sq.Valid() {
		return Piece{}, false
	}
	i := p.board[sq]
	if i < 0 {
		return Piece{}, false
	}
	pc := p.pieces[i]
	pc.Crew = slices.Clone(pc.Crew)
	return pc, true
}

// CraterAt reports whether sq holds a Crater.
func (p *Position) CraterAt(sq Square) bool {
	for _, c := range p.craters {
		if c.Square == sq {
			return true
		}
	}
	return false
}

// Clone returns a deep copy.
func (p *Position) Clone() *Position {
	q := *p
	q.pieces = make([]Piece, len(p.pieces))
	copy(q.pieces, p.pieces)
	for i := range q.pieces {
		if q.pieces[i].Crew != nil {
			q.pieces[i].Crew = slices.Clone(q.pieces[i].Crew)
		}
	}
	q.drones = slices.Clone(p.drones)
	q.craters = slices.Clone(p.craters)
	for s := range q.drafts {
		if p.drafts[s] != nil {
			d := *p.drafts[s]
			q.drafts[s] = &d
		}
	}
	return &q
}

// Count returns how many pieces of kind k side controls (crew included
// for Infantry).
func (p *Position) Count(side Side, k Kind) int {
	n := 0
	for i := range p.pieces {
		if p.pieces[i].ID.Kind == k && p.pieces[i].Owner == side {
			n++
		}
	}
	return n
}

// GroundInfantry returns how many of side's Infantry stand on the ground
// (not crewing a Vehicle).
func (p *Position) GroundInfantry(side Side) int {
	n := 0
	for i := range p.pieces {
		pc := &p.pieces[i]
		if pc.ID.Kind == Infantry && pc.Owner == side && pc.Carrier.IsZero() {
			n++
		}
	}
	return n
}

// PendingDrones returns how many Drones side has declared and not yet
// resolved (cancelled ones included); this number is public.
func (p *Position) PendingDrones(side Side) int {
	n := 0
	for _, d := range p.drones {
		if d.Side == side {
			n++
		}
	}
	return n
}

// Hazards returns side's Mines plus Anti-Air on the board (ruling 6 cap).
func (p *Position) Hazards(side Side) int {
	return p.Count(side, Mine) + p.Count(side, AntiAir)
}

// --- internal helpers ---

func (p *Position) index(id ID) int {
	i := sort.Search(len(p.pieces), func(i int) bool { return !p.pieces[i].ID.less(id) })
	if i < len(p.pieces) && p.pieces[i].ID == id {
		return i
	}
	return -1
}

func (p *Position) get(id ID) *Piece {
	i := p.index(id)
	if i < 0 {
		return nil
	}
	return &p.pieces[i]
}

// ground returns the piece on the ground at sq, or nil.
func (p *Position) ground(sq Square) *Piece {
	if !sq.Valid() || p.board[sq] < 0 {
		return nil
	}
	return &p.pieces[p.board[sq]]
}

func (p *Position) rebuild() {
	for i := range p.board {
		p.board[i] = -1
	}
	for i := range p.pieces {
		pc := &p.pieces[i]
		if pc.Carrier.IsZero() && pc.Square.Valid() {
			p.board[pc.Square] = int16(i)
		}
	}
}

// add inserts a piece keeping the ID order.
func (p *Position) add(pc Piece) {
	i := sort.Search(len(p.pieces), func(i int) bool { return !p.pieces[i].ID.less(pc.ID) })
	p.pieces = slices.Insert(p.pieces, i, pc)
	p.rebuild()
}

// remove deletes a piece (not its crew) and keeps the board index right.
func (p *Position) remove(id ID) {
	i := p.index(id)
	if i < 0 {
		return
	}
	p.pieces = slices.Delete(p.pieces, i, i+1)
	p.rebuild()
}

// setSquare moves a ground piece (and its crew) to sq.
func (p *Position) setSquare(id ID, sq Square) {
	pc := p.get(id)
	if pc.Carrier.IsZero() && pc.Square.Valid() && p.board[pc.Square] >= 0 && p.pieces[p.board[pc.Square]].ID == id {
		p.board[pc.Square] = -1
	}
	pc.Square = sq
	for _, c := range pc.Crew {
		p.get(c).Square = sq
	}
	p.board[sq] = int16(p.index(id))
}

func (p *Position) hasCrater(sq Square) bool { return p.CraterAt(sq) }

// craterAt returns the Crater on sq.
func (p *Position) craterAt(sq Square) (Crater, bool) {
	for _, c := range p.craters {
		if c.Square == sq {
			return c, true
		}
	}
	return Crater{}, false
}

func (p *Position) baseSquare(sq Square) bool {
	pc := p.ground(sq)
	return pc != nil && pc.ID.Kind == Base
}

// placeAt sets the square of a Vehicle in transit and its crew without
// touching the board index.
func (p *Position) placeAt(id ID, sq Square) {
	pc := p.get(id)
	pc.Square = sq
	for _, c := range pc.Crew {
		p.get(c).Square = sq
	}
}

// SideCounts summarises one side's material for status displays. For
// NoSide it counts the neutral Vehicles (the other fields are 0).
type SideCounts struct {
	GroundInfantry, CrewInfantry int
	Tanks, Airplanes             int // Vehicles the side controls
	Bases, Mines, AntiAir        int
	Hazards                      int // Mines + Anti-Air, against HazardCap
	PendingDrones                int // public count, cancelled ones included
}

// Counts returns side's SideCounts.
func (p *Position) Counts(side Side) SideCounts {
	var c SideCounts
	for i := range p.pieces {
		pc := &p.pieces[i]
		if pc.Owner != side {
			continue
		}
		switch pc.ID.Kind {
		case Infantry:
			if pc.Carrier.IsZero() {
				c.GroundInfantry++
			} else {
				c.CrewInfantry++
			}
		case Tank:
			c.Tanks++
		case Airplane:
			c.Airplanes++
		case Base:
			c.Bases++
		case Mine:
			c.Mines++
		case AntiAir:
			c.AntiAir++
		}
	}
	c.Hazards = c.Mines + c.AntiAir
	c.PendingDrones = p.PendingDrones(side)
	return c
}
