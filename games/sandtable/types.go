package sandtable

import (
	"fmt"
	"strconv"

	"sandtable/internal/playertext"
)

// Board geometry (ruling 1): 20 files a–t, 20 ranks 1–20.
const (
	Files      = 20
	Ranks      = 20
	NumSquares = Files * Ranks
	// MaxCrew is the most Infantry a Vehicle may carry (rule text, Vehicles).
	MaxCrew = 4
	// HazardCap is the most Mines plus Anti-Air one player may have on the
	// board (rule text, Hazard Cap).
	HazardCap = 40
	// DeadlockTurns consecutive turns without any possible Main action or
	// hazard use draw the game (ruling 9).
	DeadlockTurns = 4
)

// Side is a player: South (ranks 1–10) or North (ranks 11–20). NoSide marks a
// neutral (uncrewed) Vehicle, the public viewer, and a drawn result.
type Side int8

// The sides.
const (
	NoSide Side = iota
	South
	North
)

// Opp returns the other side (NoSide for NoSide).
func (s Side) Opp() Side {
	switch s {
	case South:
		return North
	case North:
		return South
	}
	return NoSide
}

// String returns "South", "North" or "neutral".
func (s Side) String() string {
	switch s {
	case South:
		return "South"
	case North:
		return "North"
	}
	return "neutral"
}

// Letter returns 'S', 'N' or '-'.
func (s Side) Letter() byte {
	switch s {
	case South:
		return 'S'
	case North:
		return 'N'
	}
	return '-'
}

// ParseSide reads "S", "N", "south", "north" (any case).
func ParseSide(s string) (Side, error) {
	switch lower(s) {
	case "s", "south":
		return South, nil
	case "n", "north":
		return North, nil
	}
	return NoSide, fmt.Errorf("unknown side %s (want south or north)", quote(s))
}

// Kind is the kind of a Piece.
type Kind int8

// The piece kinds. Their letters (Base B, Tank T, Airplane P, Infantry I,
// Mine M, Anti-Air A) are used in IDs, layouts and the notation.
const (
	NoKind Kind = iota
	Base
	Tank
	Airplane
	Infantry
	Mine
	AntiAir
	numKinds
)

// AllKinds lists the piece kinds in their canonical order.
var AllKinds = []Kind{Base, Tank, Airplane, Infantry, Mine, AntiAir}

var kindLetters = [numKinds]byte{'.', 'B', 'T', 'P', 'I', 'M', 'A'}
var kindNames = [numKinds]string{"none", "Base", "Tank", "Airplane", "Infantry", "Mine", "Anti-Air"}

// Letter returns the kind's letter ('.' for NoKind).
func (k Kind) Letter() byte {
	if k < 0 || k >= numKinds {
		return '?'
	}
	return kindLetters[k]
}

// String returns the rule text's name of the kind ("Anti-Air", "Tank", ...).
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return "Kind(" + strconv.Itoa(int(k)) + ")"
	}
	return kindNames[k]
}

// IsVehicle reports whether k is a Tank or an Airplane.
func (k Kind) IsVehicle() bool { return k == Tank || k == Airplane }

// IsHazard reports whether k is a Mine or an Anti-Air.
func (k Kind) IsHazard() bool { return k == Mine || k == AntiAir }

// KindFromLetter reads a kind letter (B T P I M A, any case).
func KindFromLetter(c byte) (Kind, bool) {
	if c >= 'a' && c <= 'z' {
		c -= 'a' - 'A'
	}
	for k := Base; k < numKinds; k++ {
		if kindLetters[k] == c {
			return k, true
		}
	}
	return NoKind, false
}

// Square is a board square, 0..399: file + 20*rank with file 0 = a and
// rank 0 = rank 1. NoSquare is -1.
type Square int16

// NoSquare marks the absence of a square.
const NoSquare Square = -1

// Sq returns the square at 0-based file and rank (NoSquare when off board).
func Sq(file, rank int) Square {
	if file < 0 || file >= Files || rank < 0 || rank >= Ranks {
		return NoSquare
	}
	return Square(rank*Files + file)
}

// File returns the 0-based file (0 = a).
func (s Square) File() int { return int(s) % Files }

// Rank returns the 0-based rank (0 = rank 1).
func (s Square) Rank() int { return int(s) / Files }

// Valid reports whether s is on the board.
func (s Square) Valid() bool { return s >= 0 && s < NumSquares }

// String returns algebraic form such as "a1" or "t20" ("-" for NoSquare).
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string(rune('a'+s.File())) + strconv.Itoa(s.Rank()+1)
}

// ParseSquare reads "a1".."t20" (file letter a–t, rank 1–20 without
// leading zeros).
func ParseSquare(s string) (Square, error) {
	s = playertext.Clean(s)
	if len(s) < 2 || len(s) > 3 {
		return NoSquare, fmt.Errorf("bad square %s (want a file a–t and a rank 1–20, like e4 or t20)", quote(s))
	}
	f := int(s[0]) - 'a'
	if f < 0 || f >= Files {
		return NoSquare, fmt.Errorf("bad square %s: file must be a–t", quote(s))
	}
	if s[1] == '0' {
		return NoSquare, fmt.Errorf("bad square %s: rank must be 1–20", quote(s))
	}
	r := 0
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return NoSquare, fmt.Errorf("bad square %s: rank must be 1–20", quote(s))
		}
		r = r*10 + int(s[i]-'0')
	}
	if r < 1 || r > Ranks {
		return NoSquare, fmt.Errorf("bad square %s: rank must be 1–20", quote(s))
	}
	return Sq(f, r-1), nil
}

// Dist returns the Chebyshev (king-move) distance between two squares.
func Dist(a, b Square) int {
	df := abs(a.File() - b.File())
	dr := abs(a.Rank() - b.Rank())
	if df > dr {
		return df
	}
	return dr
}

// Adjacent reports whether a and b are distinct and touch in one of the 8
// directions.
func Adjacent(a, b Square) bool { return Dist(a, b) == 1 }

// neighbors returns the on-board squares adjacent to s (8 directions), in
// square order.
func neighbors(s Square) []Square {
	out := make([]Square, 0, 8)
	for dr := -1; dr <= 1; dr++ {
		for df := -1; df <= 1; df++ {
			if df == 0 && dr == 0 {
				continue
			}
			if n := Sq(s.File()+df, s.Rank()+dr); n != NoSquare {
				out = append(out, n)
			}
		}
	}
	return out
}

// InZone reports whether s is in side's deployment zone (ruling 1: South
// ranks 1–9, North ranks 12–20).
func InZone(side Side, s Square) bool {
	r := s.Rank() + 1
	switch side {
	case South:
		return r >= 1 && r <= 9
	case North:
		return r >= 12 && r <= 20
	}
	return false
}

// ID is a piece's stable identity: the side that deployed it, its kind and
// a number, written like "SI12" (South's Infantry 12) or "NT3". An ID never
// changes, also when a Vehicle is captured or an Infantry boards a Vehicle.
// The zero ID means "no piece".
type ID struct {
	Side Side
	Kind Kind
	N    int32 // 1..MaxIDNumber
}

// MaxIDNumber is the highest number an ID may have. Hazards placed in
// PostTurn take ever higher numbers (G12), at most two per turn, so IDs
// must outlast any turn number the position format holds (maxCounter).
const MaxIDNumber = 1<<31 - 1

// IsZero reports whether id is the zero ID.
func (id ID) IsZero() bool { return id == ID{} }

// String returns the ID's text form, e.g. "SI12" ("-" for the zero ID).
func (id ID) String() string {
	if id.IsZero() {
		return "-"
	}
	return string([]byte{id.Side.Letter(), id.Kind.Letter()}) + strconv.Itoa(int(id.N))
}

// less orders IDs: South before North, then kind order, then number.
func (id ID) less(o ID) bool {
	if id.Side != o.Side {
		return id.Side < o.Side
	}
	if id.Kind != o.Kind {
		return id.Kind < o.Kind
	}
	return id.N < o.N
}

// ParseID reads an ID such as "SI12" or "NA3".
func ParseID(s string) (ID, error) {
	if len(s) < 3 || len(s) > 12 {
		return ID{}, fmt.Errorf("bad piece ID %s (want side S/N, kind letter, number, like SI12)", quote(s))
	}
	var side Side
	switch s[0] {
	case 'S':
		side = South
	case 'N':
		side = North
	default:
		return ID{}, fmt.Errorf("bad piece ID %s: must start with S or N", quote(s))
	}
	k, ok := KindFromLetter(s[1])
	if !ok || s[1] < 'A' || s[1] > 'Z' {
		return ID{}, fmt.Errorf("bad piece ID %s: second letter must be one of B T P I M A", quote(s))
	}
	if s[2] == '0' {
		return ID{}, fmt.Errorf("bad piece ID %s: number must be 1 or more, without leading zeros", quote(s))
	}
	n, err := strconv.Atoi(s[2:])
	if err != nil || n < 1 || n > MaxIDNumber || strconv.Itoa(n) != s[2:] {
		return ID{}, fmt.Errorf("bad piece ID %s: number must be 1–%d", quote(s), MaxIDNumber)
	}
	return ID{side, k, int32(n)}, nil
}

// Phase is a stage of the game (rule text, The Turn Structure).
type Phase int8

// The phases. A position at rest is in Deployment, Main, PostTurn or
// Finished; PreTurn is resolved automatically and is only seen in the log
// (a position file may say preturn, and is advanced on loading).
const (
	PhaseDeployment Phase = iota
	PhasePreTurn
	PhaseMain
	PhasePostTurn
	PhaseFinished
)

var phaseNames = []string{"deployment", "preturn", "main", "postturn", "finished"}

// String returns the phase's lower-case name as used in the position format.
func (p Phase) String() string {
	if p < 0 || int(p) >= len(phaseNames) {
		return "phase(" + strconv.Itoa(int(p)) + ")"
	}
	return phaseNames[p]
}

// Title returns the rule text's name: "Deployment", "PreTurn", "Main",
// "PostTurn" or "Finished".
func (p Phase) Title() string {
	return [...]string{"Deployment", "PreTurn", "Main", "PostTurn", "Finished"}[p]
}

func parsePhase(s string) (Phase, error) {
	for i, n := range phaseNames {
		if lower(s) == n {
			return Phase(i), nil
		}
	}
	return 0, fmt.Errorf("unknown phase %s (want deployment, preturn, main, postturn or finished)", quote(s))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// aKind returns the kind with its indefinite article: "a Tank", "an Infantry".
func aKind(k Kind) string {
	switch k {
	case Infantry, Airplane, AntiAir:
		return "an " + k.String()
	}
	return "a " + k.String()
}
