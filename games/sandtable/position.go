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
// The zero Position is not usable; obtain one from NewGame or
// ParsePosition. Methods that change a Position either succeed completely
// or change nothing.
type Position struct {
	Phase  Phase
	ToMove Side // side to move (NoSide during Deployment)
	// Turn counts turns (one player's PreTurn–Main–PostTurn) from 1; 0
	// during Deployment.
	Turn int
	// First is the side the coin chose to move first (NoSide before).
	First Side
	// HazardUses is the number of hazard uses left in PostTurn.
	HazardUses int
	// DeadTurns counts consecutive turns in which the mover could take no
	// Main action and no hazard use (ruling 9).
	DeadTurns int
	// Seed drives the coin flip after both deployments are confirmed (0 in
	// redacted views).
	Seed uint64
	// NextHazard[side][0] and [1] are the numbers the next Mine and Anti-Air
	// placed by side will get in their IDs.
	NextHazard [3][2]int32
	Result     Result
	// Drafts holds each side's deployment during Deployment (nil in views
	// that may not see it); Confirmed says who has confirmed.
	Drafts    [3]*Deployment
	Confirmed [3]bool
	Drones    []Drone
	Craters   []Crater
	// Viewer is NoSide for a full position; in a redacted view it is the
	// side the view is for, and Redacted is set.
	Viewer   Side
	Redacted bool

	pieces []Piece           // sorted by ID
	board  [NumSquares]int16 // index into pieces of the piece on the ground there, -1 if none
}

// NewGame returns a game in Deployment with empty drafts for both sides.
// The seed decides the coin flip once both sides have confirmed.
func NewGame(seed uint64) *Position {
	p := &Position{Phase: PhaseDeployment, Seed: seed}
	p.Drafts[South] = NewDeployment(South)
	p.Drafts[North] = NewDeployment(North)
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
	for _, c := range p.Craters {
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
	q.Drones = slices.Clone(p.Drones)
	q.Craters = slices.Clone(p.Craters)
	for s := range q.Drafts {
		if p.Drafts[s] != nil {
			d := *p.Drafts[s]
			q.Drafts[s] = &d
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
	for _, d := range p.Drones {
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
	for _, c := range p.Craters {
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
