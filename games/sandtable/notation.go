package sandtable

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"sandtable/internal/playertext"
)

// ActionKind says what an Action does.
type ActionKind int8

// The action kinds. Main: ActInfantry, ActVehicle. PostTurn: ActMine,
// ActAntiAir, ActDrone. Any time: ActResign, ActDraw. Deployment: the
// ActDeploy kinds.
const (
	ActNone ActionKind = iota
	ActInfantry
	ActVehicle
	ActMine
	ActAntiAir
	ActDrone
	ActResign
	ActDraw
	ActDeployPlace
	ActDeployMove
	ActDeployRemove
	ActDeployClear
	ActDeployPreset
	ActDeployRandom
	ActDeployConfirm
	ActDeployUnconfirm
)

// Step is one Infantry step: the Infantry on From (or, when From holds the
// mover's Vehicle, a crew member stepping out), or the Infantry named by
// Who wherever it is, moving to the adjacent square To.
type Step struct {
	Who  ID
	From Square
	To   Square
}

// String returns the step in the notation: "d4-d5" or "SI12-d5".
func (s Step) String() string {
	if !s.Who.IsZero() {
		return s.Who.String() + "-" + s.To.String()
	}
	return s.From.String() + "-" + s.To.String()
}

// Action is one action in SandTable notation (see docs/rules/sandtable.md):
//
//	d4-d5 e4-e5        Infantry steps, in order (ActInfantry, Steps)
//	SI12-c4            a step naming the Infantry (e.g. one crew member)
//	Tc3-c8  Pa1-h8     a Tank or Airplane move (ActVehicle: Vehicle, From, To)
//	Tc3-c8/d9          ... with a dismount of the first crew member to d9
//	Tc3-c8/SI12-d9     ... with a dismount of crew member SI12
//	Mf5  Af5           place a Mine / an Anti-Air on f5 (To)
//	Dd4-f6  DSI12-f6   a Drone: spotter on d4 (From) or by ID (Who), target f6 (To)
//	resign  S resign   the side to move / the named side resigns (Side)
//	draw               a draw agreed by both players
//	S place Ia5  S move a5-b5  S remove a5  S clear
//	S preset NAME  S random SEED  S confirm  S unconfirm
type Action struct {
	Kind     ActionKind
	Side     Side
	Steps    []Step
	Vehicle  Kind
	Who      ID
	From     Square
	To       Square
	Dismount *Step
	Piece    Kind
	Name     string
	Seed     uint64
	// hidden marks a Drone action whose order a finished game's public
	// record hides (secret.go): ParseAction never sets it.
	hidden bool
}

// String returns the action in canonical notation; ParseAction reads it
// back to an equal Action.
func (a Action) String() string {
	switch a.Kind {
	case ActInfantry:
		parts := make([]string, len(a.Steps))
		for i, s := range a.Steps {
			parts[i] = s.String()
		}
		return strings.Join(parts, " ")
	case ActVehicle:
		s := string(a.Vehicle.Letter()) + a.From.String() + "-" + a.To.String()
		if a.Dismount != nil {
			if a.Dismount.Who.IsZero() {
				s += "/" + a.Dismount.To.String()
			} else {
				s += "/" + a.Dismount.Who.String() + "-" + a.Dismount.To.String()
			}
		}
		return s
	case ActMine:
		return "M" + a.To.String()
	case ActAntiAir:
		return "A" + a.To.String()
	case ActDrone:
		if a.hidden {
			return hiddenNotation(a)
		}
		if !a.Who.IsZero() {
			return "D" + a.Who.String() + "-" + a.To.String()
		}
		return "D" + a.From.String() + "-" + a.To.String()
	case ActResign:
		if a.Side == NoSide {
			return "resign"
		}
		return string(a.Side.Letter()) + " resign"
	case ActDraw:
		return "draw"
	}
	side := string(a.Side.Letter()) + " "
	switch a.Kind {
	case ActDeployPlace:
		return side + "place " + string(a.Piece.Letter()) + a.To.String()
	case ActDeployMove:
		return side + "move " + a.From.String() + "-" + a.To.String()
	case ActDeployRemove:
		return side + "remove " + a.To.String()
	case ActDeployClear:
		return side + "clear"
	case ActDeployPreset:
		return side + "preset " + a.Name
	case ActDeployRandom:
		return side + "random " + strconv.FormatUint(a.Seed, 10)
	case ActDeployConfirm:
		return side + "confirm"
	case ActDeployUnconfirm:
		return side + "unconfirm"
	}
	return "?"
}

func actionErr(format string, args ...any) error {
	return &SyntaxError{What: "action", Msg: fmt.Sprintf(format, args...)}
}

// ParseAction reads one action in the notation (see Action). Steps of an
// Infantry action are separated by spaces or commas; "x" may stand for
// "-" (d4xd5). Keywords are case-insensitive; piece letters (T P M A D and
// the kind letters of IDs) are upper case and squares lower case. Errors
// are *SyntaxError.
func ParseAction(s string) (Action, error) {
	s = playertext.Clean(s) // invisible characters, as the echo removes them
	if len(s) > 2000 {
		return Action{}, actionErr("too long")
	}
	toks := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(toks) == 0 {
		return Action{}, actionErr("empty action")
	}
	first := lower(toks[0])
	switch first {
	case "resign":
		if len(toks) != 1 {
			return Action{}, actionErr("resign takes no arguments here (write S resign or N resign to name the side)")
		}
		return Action{Kind: ActResign}, nil
	case "draw":
		if len(toks) != 1 {
			return Action{}, actionErr("draw takes no arguments")
		}
		return Action{Kind: ActDraw}, nil
	case "s", "n", "south", "north":
		if len(toks) >= 2 {
			side, _ := ParseSide(first)
			return parseSideAction(side, toks[1:])
		}
	}
	// "T c3-c8" and "M f5": a lone piece letter joins the next token.
	if len(toks) == 2 && len(toks[0]) == 1 && strings.Contains("TPMAD", toks[0]) {
		toks = []string{toks[0] + toks[1]}
	}
	t := toks[0]
	if len(toks) == 1 && len(t) >= 2 && strings.IndexByte("TPMAD", t[0]) >= 0 && (t[1] < 'A' || t[1] > 'Z' || t[0] == 'D') {
		return parsePieceAction(t)
	}
	a := Action{Kind: ActInfantry}
	for _, tok := range toks {
		if strings.IndexByte("TPMAD", tok[0]) >= 0 {
			return Action{}, actionErr("%s cannot be combined with other steps: one action is either Infantry steps, or one Vehicle move, or one hazard use (ruling 3)", quote(tok))
		}
		st, err := parseStep(tok)
		if err != nil {
			return Action{}, err
		}
		a.Steps = append(a.Steps, st)
	}
	return a, nil
}

// splitMove splits "a-b" or "axb" into a and b.
func splitMove(tok string) (string, string, bool) {
	for i := 1; i < len(tok)-1; i++ {
		if tok[i] == '-' || tok[i] == 'x' {
			return tok[:i], tok[i+1:], true
		}
	}
	return "", "", false
}

func parseStep(tok string) (Step, error) {
	a, b, ok := splitMove(tok)
	if !ok {
		return Step{}, actionErr("cannot read %s: an Infantry step is FROM-TO like d4-d5 (or ID-TO like SI12-d5); a Vehicle move starts with T or P (Tc3-c8), a hazard with M, A or D", quote(tok))
	}
	to, err := ParseSquare(b)
	if err != nil {
		return Step{}, actionErr("in %s: %v", quote(tok), err)
	}
	if len(a) > 0 && (a[0] == 'S' || a[0] == 'N') {
		id, err := ParseID(a)
		if err != nil {
			return Step{}, actionErr("in %s: %v", quote(tok), err)
		}
		return Step{Who: id, From: NoSquare, To: to}, nil
	}
	from, err := ParseSquare(a)
	if err != nil {
		return Step{}, actionErr("in %s: %v", quote(tok), err)
	}
	return Step{From: from, To: to}, nil
}

func parsePieceAction(t string) (Action, error) {
	letter, rest := t[0], t[1:]
	switch letter {
	case 'M', 'A':
		sq, err := ParseSquare(rest)
		if err != nil {
			return Action{}, actionErr("in %s: %v", quote(t), err)
		}
		k := ActMine
		if letter == 'A' {
			k = ActAntiAir
		}
		return Action{Kind: k, From: NoSquare, To: sq}, nil
	case 'D':
		st, err := parseStep(rest)
		if err != nil {
			return Action{}, actionErr("cannot read Drone %s: write D, the spotter's square or ID, '-', the target (Dd4-f6)", quote(t))
		}
		return Action{Kind: ActDrone, Who: st.Who, From: st.From, To: st.To}, nil
	}
	kind := Tank
	if letter == 'P' {
		kind = Airplane
	}
	move, dis, hasDis := strings.Cut(rest, "/")
	a, b, ok := splitMove(move)
	if !ok {
		return Action{}, actionErr("cannot read %s move %s: write %cFROM-TO like %cc3-c8", kind, quote(t), letter, letter)
	}
	from, err := ParseSquare(a)
	if err != nil {
		return Action{}, actionErr("in %s: %v", quote(t), err)
	}
	to, err := ParseSquare(b)
	if err != nil {
		return Action{}, actionErr("in %s: %v", quote(t), err)
	}
	act := Action{Kind: ActVehicle, Vehicle: kind, From: from, To: to}
	if hasDis {
		ds := Step{From: NoSquare}
		if x, y, ok := splitMove(dis); ok {
			id, err := ParseID(x)
			if err != nil {
				return Action{}, actionErr("in dismount %s: %v", quote(dis), err)
			}
			ds.Who = id
			dis = y
		}
		sq, err := ParseSquare(dis)
		if err != nil {
			return Action{}, actionErr("in dismount of %s: %v", quote(t), err)
		}
		ds.To = sq
		act.Dismount = &ds
	}
	return act, nil
}

func parseSideAction(side Side, toks []string) (Action, error) {
	a := Action{Side: side, From: NoSquare, To: NoSquare}
	cmd := lower(toks[0])
	args := toks[1:]
	need := func(n int) error {
		if len(args) != n {
			return actionErr("%s takes %d argument(s), got %d", quote(cmd), n, len(args))
		}
		return nil
	}
	switch cmd {
	case "resign":
		a.Kind = ActResign
		return a, need(0)
	case "place":
		if err := need(1); err != nil {
			return Action{}, err
		}
		t := args[0]
		if len(t) < 3 {
			return Action{}, actionErr("place wants a kind letter and a square, like Ia5")
		}
		k, ok := KindFromLetter(t[0])
		if !ok || t[0] < 'A' || t[0] > 'Z' {
			return Action{}, actionErr("unknown piece letter %q (B Base, T Tank, P Airplane, I Infantry, M Mine, A Anti-Air)", t[:1])
		}
		sq, err := ParseSquare(t[1:])
		if err != nil {
			return Action{}, actionErr("%v", err)
		}
		a.Kind, a.Piece, a.To = ActDeployPlace, k, sq
	case "move":
		if err := need(1); err != nil {
			return Action{}, err
		}
		x, y, ok := splitMove(args[0])
		if !ok {
			return Action{}, actionErr("move wants FROM-TO, like a5-b5")
		}
		f, err := ParseSquare(x)
		if err != nil {
			return Action{}, actionErr("%v", err)
		}
		t, err := ParseSquare(y)
		if err != nil {
			return Action{}, actionErr("%v", err)
		}
		a.Kind, a.From, a.To = ActDeployMove, f, t
	case "remove":
		if err := need(1); err != nil {
			return Action{}, err
		}
		sq, err := ParseSquare(args[0])
		if err != nil {
			return Action{}, actionErr("%v", err)
		}
		a.Kind, a.To = ActDeployRemove, sq
	case "clear", "confirm", "unconfirm":
		if err := need(0); err != nil {
			return Action{}, err
		}
		a.Kind = map[string]ActionKind{"clear": ActDeployClear, "confirm": ActDeployConfirm, "unconfirm": ActDeployUnconfirm}[cmd]
	case "preset":
		if err := need(1); err != nil {
			return Action{}, err
		}
		a.Kind, a.Name = ActDeployPreset, lower(args[0])
	case "random":
		if err := need(1); err != nil {
			return Action{}, err
		}
		n, err := strconv.ParseUint(args[0], 10, 64)
		if err != nil {
			return Action{}, actionErr("random wants a seed, a whole number from 0 to 18446744073709551615")
		}
		a.Kind, a.Seed = ActDeployRandom, n
	default:
		return Action{}, actionErr("unknown command %s after the side (want place, move, remove, clear, preset, random, confirm, unconfirm or resign)", quote(toks[0]))
	}
	return a, nil
}
