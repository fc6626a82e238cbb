package render

import "fmt"

// SandTable board geometry (SandTable rule text, "Getting Started": a 20 by
// 20 board; engine ruling 1: files a–t, ranks 1–20, South holds ranks 1–10
// and deploys on 1–9, North holds 11–20 and deploys on 12–20).
const (
	SandTableFiles = 20
	SandTableRanks = 20
)

// Side is a SandTable player, or Neutral for a Vehicle without crew.
type Side uint8

// The sides; Neutral is the zero value.
const (
	Neutral Side = iota
	South
	North
)

// String returns "South", "North" or "neutral".
func (s Side) String() string {
	switch s {
	case South:
		return "South"
	case North:
		return "North"
	case Neutral:
		return "neutral"
	}
	return fmt.Sprintf("Side(%d)", uint8(s))
}

// SandPieceKind is a SandTable piece kind (rule text: Units are Infantry
// and the Vehicles Tank and Airplane; Hazard pieces are Mine and Anti-Air;
// Base).
type SandPieceKind uint8

// The piece kinds (the zero value is not a kind).
const (
	Infantry SandPieceKind = iota + 1
	Tank
	Airplane
	Mine
	AntiAir
	Base
)

// String returns the rule text's name of the kind ("Anti-Air").
func (k SandPieceKind) String() string {
	switch k {
	case Infantry:
		return "Infantry"
	case Tank:
		return "Tank"
	case Airplane:
		return "Airplane"
	case Mine:
		return "Mine"
	case AntiAir:
		return "Anti-Air"
	case Base:
		return "Base"
	}
	return fmt.Sprintf("SandPieceKind(%d)", uint8(k))
}

// IsVehicle reports whether k is a Tank or an Airplane.
func (k SandPieceKind) IsVehicle() bool { return k == Tank || k == Airplane }

// SandPiece is one piece on the SandTable board. Crew is the number of
// Infantry inside a Vehicle (0–4; the crew are not listed as separate
// pieces); a Vehicle has Owner Neutral exactly when Crew is 0. Every other
// kind has an Owner (South or North) and Crew 0.
type SandPiece struct {
	Square Square
	Kind   SandPieceKind
	Owner  Side
	Crew   int
}

// Step is one square-to-square movement of the last turn.
type Step struct {
	From, To Square
}

// DroneOrder is a pending Drone (rule text, "Drones"; engine ruling 7): its
// Owner, the spotting Infantry's square and the target square. Secret: only
// its owner's private view shows it.
type DroneOrder struct {
	Owner   Side
	Spotter Square
	Target  Square
}

// View selects the frame of a SandTable image: the public one, or a
// player's private one in that player's colour, so that a private image
// cannot be mistaken for the public board. It decides nothing about what
// is drawn: the board is drawn as given.
type View uint8

const (
	// ViewPublic frames what both players and spectators may see.
	ViewPublic View = iota
	// ViewSouth frames South's private view (its deployment draft and
	// pending Drone orders on top of the public board).
	ViewSouth
	// ViewNorth frames North's private view.
	ViewNorth
)

// String returns "public", "south" or "north" (the -view names).
func (v View) String() string {
	switch v {
	case ViewPublic:
		return "public"
	case ViewSouth:
		return "south"
	case ViewNorth:
		return "north"
	}
	return fmt.Sprintf("View(%d)", uint8(v))
}

// SandTableBoard is everything a SandTable image shows, the viewer's
// secrets included: every field is drawn. Fill it from what one viewer may
// see (render/sandboard converts the engine's view for that viewer), never
// from a full position.
// Squares are numbered a1=0 … t1=19, a2=20, … t20=399.
type SandTableBoard struct {
	// Pieces on the board (public): at most one per square.
	Pieces []SandPiece
	// Craters (public) left by resolved Drones; a Crater square holds no piece.
	Craters []Square
	// VehiclePath is the last turn's Vehicle move (public): its start
	// square, then its final square (where it stopped, or was destroyed);
	// every square in between is drawn as passed. Squares passed may be
	// listed too, but all must lie on one straight line in one direction
	// (rule text, Vehicles: "can only move in one direction per turn").
	// Empty if the last Main action was not a Vehicle move.
	VehiclePath []Square
	// InfantrySteps are the last turn's Infantry steps (public), including a
	// crew member's step out of a Vehicle after its move.
	InfantrySteps []Step
	// Drafts are the unconfirmed deployment placements (secret), by player:
	// Drafts[South] and Drafts[North] (Drafts[Neutral] must be empty), in a
	// private view the viewer's own only. Vehicles are deployed without
	// crew (engine ruling 2), so a drafted Vehicle is Neutral with crew 0;
	// every other drafted piece is owned by the draft's player.
	Drafts [3][]SandPiece
	// Drones are pending Drone orders (secret), in a private view the
	// viewer's own only; each owner's are numbered from 1 in list order.
	Drones []DroneOrder
	// Flipped puts North at the bottom (rank 20 nearest the viewer, files
	// t…a from left to right). South is at the bottom otherwise.
	Flipped bool
}

// SandSquareName names a SandTable square ("a1" … "t20").
func SandSquareName(s Square) string {
	if s < 0 || s >= SandTableFiles*SandTableRanks {
		return fmt.Sprintf("#%d", int(s))
	}
	return fmt.Sprintf("%c%d", 'a'+rune(s%SandTableFiles), s/SandTableFiles+1)
}

func onSandBoard(s Square) bool { return s >= 0 && s < SandTableFiles*SandTableRanks }

func validPiece(p SandPiece) error {
	if onSandBoard(p.Square) && p.Kind >= Infantry && p.Kind <= Base && p.Owner <= North &&
		((p.Kind.IsVehicle() && p.Crew >= 0 && p.Crew <= 4 && (p.Crew == 0) == (p.Owner == Neutral)) ||
			(!p.Kind.IsVehicle() && p.Owner != Neutral && p.Crew == 0)) {
		return nil
	}
	name := SandSquareName(p.Square)
	if !onSandBoard(p.Square) {
		return fmt.Errorf("render: %s on square %d is off the 20x20 board (0..399)", p.Kind, p.Square)
	}
	if p.Kind < Infantry || p.Kind > Base {
		return fmt.Errorf("render: %s: unknown piece kind %d", name, uint8(p.Kind))
	}
	if p.Owner > North {
		return fmt.Errorf("render: %s: unknown side %d", name, uint8(p.Owner))
	}
	if p.Kind.IsVehicle() {
		if p.Crew < 0 || p.Crew > 4 {
			return fmt.Errorf("render: %s on %s has crew %d, want 0..4", p.Kind, name, p.Crew)
		}
		if (p.Crew == 0) != (p.Owner == Neutral) {
			return fmt.Errorf("render: %s on %s: crew %d with owner %s (a Vehicle is neutral exactly when it has no crew)", p.Kind, name, p.Crew, p.Owner)
		}
		return nil
	}
	if p.Owner == Neutral {
		return fmt.Errorf("render: %s on %s has no owner (only Vehicles can be neutral)", p.Kind, name)
	}
	if p.Crew != 0 {
		return fmt.Errorf("render: %s on %s has crew %d (only Vehicles carry crew)", p.Kind, name, p.Crew)
	}
	return nil
}

// validate checks the whole board, secrets included, so that an invalid
// secret is reported the same way whatever the view.
func (b *SandTableBoard) validate() error {
	// used[s] is 0 when free, i+1 for Pieces[i], -1 for a Crater.
	var used [SandTableFiles * SandTableRanks]int16
	what := func(s Square) string {
		if i := used[s]; i > 0 {
			p := b.Pieces[i-1]
			return "a " + p.Owner.String() + " " + p.Kind.String()
		}
		return "a Crater"
	}
	if len(b.Pieces) > SandTableFiles*SandTableRanks {
		return fmt.Errorf("render: %d pieces do not fit on 400 squares", len(b.Pieces))
	}
	for i, p := range b.Pieces {
		if err := validPiece(p); err != nil {
			return err
		}
		if used[p.Square] != 0 {
			return fmt.Errorf("render: square %s holds both %s and a %s %s", SandSquareName(p.Square), what(p.Square), p.Owner, p.Kind)
		}
		used[p.Square] = int16(i + 1)
	}
	for _, c := range b.Craters {
		if !onSandBoard(c) {
			return fmt.Errorf("render: Crater square %d is off the 20x20 board (0..399)", c)
		}
		if used[c] != 0 {
			return fmt.Errorf("render: square %s holds both %s and a Crater", SandSquareName(c), what(c))
		}
		used[c] = -1
	}
	if len(b.Drafts[Neutral]) > 0 {
		return fmt.Errorf("render: deployment drafts must belong to South or North")
	}
	for _, side := range []Side{South, North} {
		var placed [SandTableFiles * SandTableRanks]bool
		for _, p := range b.Drafts[side] {
			if err := validPiece(p); err != nil {
				return fmt.Errorf("%w (%s's deployment draft)", err, side)
			}
			if p.Kind.IsVehicle() && p.Owner != Neutral || !p.Kind.IsVehicle() && p.Owner != side {
				return fmt.Errorf("render: %s's deployment draft has a %s %s on %s", side, p.Owner, p.Kind, SandSquareName(p.Square))
			}
			if used[p.Square] != 0 {
				return fmt.Errorf("render: %s's deployment draft places a %s on %s, which holds %s", side, p.Kind, SandSquareName(p.Square), what(p.Square))
			}
			if placed[p.Square] {
				return fmt.Errorf("render: %s's deployment draft places two pieces on %s", side, SandSquareName(p.Square))
			}
			placed[p.Square] = true
		}
	}
	first := -1
	for i, s := range b.VehiclePath {
		if !onSandBoard(s) {
			return fmt.Errorf("render: Vehicle path square %d is off the board", s)
		}
		if i > 0 {
			a := b.VehiclePath[i-1]
			d, _, ok := line(a, s)
			if first < 0 {
				first = d
			}
			if !ok || d != first {
				return fmt.Errorf("render: Vehicle path %s to %s does not go on in one straight line (orthogonal or diagonal, one direction)", SandSquareName(a), SandSquareName(s))
			}
		}
	}
	if len(b.VehiclePath) == 1 {
		return fmt.Errorf("render: Vehicle path has only its start square %s", SandSquareName(b.VehiclePath[0]))
	}
	for _, st := range b.InfantrySteps {
		if !onSandBoard(st.From) || !onSandBoard(st.To) {
			return fmt.Errorf("render: Infantry step %d to %d is off the board", st.From, st.To)
		}
		if _, ok := direction(st.From, st.To); !ok {
			return fmt.Errorf("render: Infantry step %s to %s is not one step to an adjacent square", SandSquareName(st.From), SandSquareName(st.To))
		}
	}
	for _, d := range b.Drones {
		if d.Owner != South && d.Owner != North {
			return fmt.Errorf("render: Drone order with owner %s (want South or North)", d.Owner)
		}
		if !onSandBoard(d.Spotter) || !onSandBoard(d.Target) {
			return fmt.Errorf("render: Drone order spotter %d target %d is off the board", d.Spotter, d.Target)
		}
	}
	return nil
}

// direction returns the compass direction (0 N, 1 NE, 2 E, … 7 NW, towards
// rank 20 as north) of a one-square step from a to b.
func direction(a, b Square) (int, bool) {
	d, n, ok := line(a, b)
	return d, ok && n == 1
}

// line returns the compass direction and length (in steps) of a straight
// orthogonal or diagonal line from a to b.
func line(a, b Square) (dir, n int, ok bool) {
	df := int(b%SandTableFiles) - int(a%SandTableFiles)
	dr := int(b/SandTableFiles) - int(a/SandTableFiles)
	n = max(abs(df), abs(dr))
	if n == 0 || (df != 0 && dr != 0 && abs(df) != abs(dr)) {
		return 0, 0, false
	}
	for d, v := range compass {
		if v == [2]int{df / n, dr / n} {
			return d, n, true
		}
	}
	return 0, 0, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var compass = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}
