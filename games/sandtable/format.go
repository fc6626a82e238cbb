package sandtable

import (
	"fmt"
	"strconv"
	"strings"

	"sandtable/internal/playertext"
)

// FormatHeader is the first line of the position text format.
const FormatHeader = "sandtable-position 1"

// String returns the position in the text format (see Format).
func (p *Position) String() string { return p.Format() }

// MarshalText implements encoding.TextMarshaler with Format.
func (p *Position) MarshalText() ([]byte, error) { return []byte(p.Format()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParsePosition.
func (p *Position) UnmarshalText(b []byte) error {
	q, err := ParsePosition(string(b))
	if err != nil {
		return err
	}
	*p = *q
	return nil
}

func sideWord(s Side) string {
	switch s {
	case South:
		return "south"
	case North:
		return "north"
	}
	return "none"
}

// Format returns the position in the canonical text format, documented in
// docs/rules/sandtable.md: a header line, one "key value" line per
// setting, then "piece", "drone", "crater" and "draft" lines; lines
// starting with '#' are comments (Format writes a board diagram as
// comments). ParsePosition(p.Format()) equals p, and formatting that again
// gives the same text.
func (p *Position) Format() string {
	var b strings.Builder
	b.WriteString(FormatHeader + "\n")
	if p.redacted {
		fmt.Fprintf(&b, "view %s\n", sideWord(p.viewer))
	}
	fmt.Fprintf(&b, "phase %s\n", p.phase)
	fmt.Fprintf(&b, "turn %d\n", p.turn)
	fmt.Fprintf(&b, "to-move %s\n", sideWord(p.toMove))
	fmt.Fprintf(&b, "first %s\n", sideWord(p.first))
	fmt.Fprintf(&b, "hazard-uses %d\n", p.hazardUses)
	fmt.Fprintf(&b, "dead-turns %d\n", p.deadTurns)
	fmt.Fprintf(&b, "seed %d\n", p.seed)
	if p.phase != PhaseDeployment {
		fmt.Fprintf(&b, "next-hazard %s %s %s %s\n",
			ID{South, Mine, p.nextHazard[South][0]}, ID{South, AntiAir, p.nextHazard[South][1]},
			ID{North, Mine, p.nextHazard[North][0]}, ID{North, AntiAir, p.nextHazard[North][1]})
	}
	if p.phase == PhaseFinished {
		fmt.Fprintf(&b, "result %s %s\n", map[bool]string{true: "draw", false: sideWord(p.result.Winner)}[p.result.Winner == NoSide], p.result.Reason)
	} else {
		b.WriteString("result none\n")
	}
	if p.phase == PhaseDeployment {
		for _, s := range []Side{South, North} {
			fmt.Fprintf(&b, "draft %s", sideWord(s))
			if p.drafts[s] == nil {
				b.WriteString(" hidden")
			}
			if p.confirmed[s] {
				b.WriteString(" confirmed")
			}
			b.WriteByte('\n')
			if d := p.drafts[s]; d != nil {
				b.WriteString(d.Layout())
			}
		}
		return b.String()
	}
	p.writeDiagram(&b)
	for i := range p.pieces {
		pc := &p.pieces[i]
		if !pc.Carrier.IsZero() {
			continue
		}
		fmt.Fprintf(&b, "piece %s %s", pc.ID, pc.Square)
		for _, c := range pc.Crew {
			b.WriteString(" " + c.String())
		}
		b.WriteByte('\n')
	}
	for _, d := range p.drones {
		if d.Hidden {
			fmt.Fprintf(&b, "drone %s hidden\n", sideWord(d.Side))
			continue
		}
		fmt.Fprintf(&b, "drone %s %s", d.Spotter, d.Target)
		if d.Cancelled {
			b.WriteString(" cancelled")
		}
		b.WriteByte('\n')
	}
	for _, c := range p.craters {
		fmt.Fprintf(&b, "crater %s %s\n", c.Square, sideWord(c.Side))
	}
	return b.String()
}

// Diagram returns the board as text, rank 20 at the top: upper case South,
// lower case North, & and ^ a neutral Tank and Airplane, * a Crater, '.'
// empty.
func (p *Position) Diagram() string {
	var b strings.Builder
	b.WriteString("    a b c d e f g h i j k l m n o p q r s t\n")
	for r := Ranks - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%2d ", r+1)
		for f := range Files {
			sq := Sq(f, r)
			c := byte('.')
			if pc := p.ground(sq); pc != nil {
				c = pc.ID.Kind.Letter()
				switch {
				case pc.Owner == North:
					c += 'a' - 'A'
				case pc.Owner == NoSide && pc.ID.Kind == Tank:
					c = '&'
				case pc.Owner == NoSide:
					c = '^'
				}
			} else if p.hasCrater(sq) {
				c = '*'
			}
			b.WriteByte(' ')
			b.WriteByte(c)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (p *Position) writeDiagram(b *strings.Builder) {
	b.WriteString("# upper case South, lower case North: B Base, T Tank, P Airplane, I Infantry,\n")
	b.WriteString("# M Mine, A Anti-Air; & neutral Tank, ^ neutral Airplane, * Crater\n")
	for _, line := range strings.Split(strings.TrimSuffix(p.Diagram(), "\n"), "\n") {
		b.WriteString("# " + line + "\n")
	}
}

// maxCounter bounds turn, hazard-uses and dead-turns in the format. A game
// places at most two hazards per turn, so hazard IDs (MaxIDNumber) cannot
// run out before the turn number does.
const maxCounter = 999_999_999

type posParser struct {
	p     *Position
	line  int
	seen  map[string]bool
	draft *Deployment
	crew  map[ID]ID
	hasNH bool
	rows  map[Side]map[int]bool
}

func (pp *posParser) errf(format string, args ...any) error {
	return &SyntaxError{What: "position", Line: pp.line, Msg: fmt.Sprintf(format, args...)}
}

// ParsePosition reads a position in the text format (see Format). Keys may
// come in any order; turn, first, hazard-uses, dead-turns, seed,
// next-hazard and result may be left out (defaults: 1 outside Deployment
// or 0, none, one per Base of the side to move in PostTurn or 0, 0, 0, one
// above the highest hazard number in use, none).
// Errors are *SyntaxError with the line number, for unreadable lines and
// for positions the rules cannot produce (two pieces on a square, a crew
// of five, a Drone whose spotter is missing, ...).
func ParsePosition(text string) (*Position, error) {
	if len(text) > 1<<20 {
		return nil, &SyntaxError{What: "position", Msg: "text longer than 1 MiB"}
	}
	text, err := playertext.File(text)
	if err != nil {
		return nil, &SyntaxError{What: "position", Msg: err.Error()}
	}
	pp := &posParser{p: &Position{turn: -1}, seen: map[string]bool{}, crew: map[ID]ID{}, rows: map[Side]map[int]bool{}}
	p := pp.p
	p.rebuild()
	header := false
	for i, raw := range strings.Split(text, "\n") {
		pp.line = i + 1
		line := strings.TrimSpace(strings.TrimSuffix(raw, "\r"))
		if line == "" || line[0] == '#' {
			continue
		}
		if !header {
			if line != FormatHeader {
				return nil, pp.errf("the first line must be %q", FormatHeader)
			}
			header = true
			continue
		}
		if err := pp.parseLine(line); err != nil {
			return nil, err
		}
	}
	pp.line = 0
	if !header {
		return nil, pp.errf("empty position: the first line must be %q", FormatHeader)
	}
	if err := pp.finish(); err != nil {
		return nil, err
	}
	return p, nil
}

func (pp *posParser) once(key string) error {
	if pp.seen[key] {
		return pp.errf("%s is given twice", quote(key))
	}
	pp.seen[key] = true
	return nil
}

func (pp *posParser) parseLine(line string) error {
	p := pp.p
	if line[0] >= '0' && line[0] <= '9' {
		if pp.draft == nil {
			return pp.errf("a layout row must follow a draft line")
		}
		if err := pp.draft.parseRow(line, pp.rows[pp.draft.Side]); err != nil {
			return pp.errf("%v", err)
		}
		return nil
	}
	f := strings.Fields(line)
	key, args := f[0], f[1:]
	if key != "draft" {
		pp.draft = nil
	}
	nargs := func(n int) error {
		if len(args) != n {
			return pp.errf("%s takes %d value(s), got %d", quote(key), n, len(args))
		}
		return nil
	}
	side := func(s string, allowNone bool) (Side, error) {
		if allowNone && s == "none" {
			return NoSide, nil
		}
		sd, err := ParseSide(s)
		if err != nil || lower(s) != s || len(s) == 1 {
			return NoSide, pp.errf("want south or north%s, got %s", map[bool]string{true: " or none", false: ""}[allowNone], quote(s))
		}
		return sd, nil
	}
	num := func(s string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > maxCounter || strconv.Itoa(n) != s {
			return 0, pp.errf("%s wants a whole number 0–%d, got %s", key, maxCounter, quote(s))
		}
		return n, nil
	}
	var err error
	switch key {
	case "phase", "turn", "to-move", "first", "hazard-uses", "dead-turns", "seed", "next-hazard", "result", "view":
		if err := pp.once(key); err != nil {
			return err
		}
	}
	switch key {
	case "view":
		if err := nargs(1); err != nil {
			return err
		}
		p.redacted = true
		p.viewer, err = side(args[0], true)
	case "phase":
		if err := nargs(1); err != nil {
			return err
		}
		var ph Phase
		ph, err = parsePhase(args[0])
		if err != nil || args[0] != ph.String() {
			return pp.errf("unknown phase %s (want deployment, preturn, main, postturn or finished)", quote(args[0]))
		}
		p.phase = ph
	case "turn", "hazard-uses", "dead-turns":
		pp.seen[key] = true
		if err := nargs(1); err != nil {
			return err
		}
		n, err := num(args[0])
		if err != nil {
			return err
		}
		switch key {
		case "turn":
			p.turn = n
		case "hazard-uses":
			p.hazardUses = n
		default:
			p.deadTurns = n
		}
	case "to-move", "first":
		if err := nargs(1); err != nil {
			return err
		}
		var s Side
		s, err = side(args[0], true)
		if key == "to-move" {
			p.toMove = s
		} else {
			p.first = s
		}
	case "seed":
		if err := nargs(1); err != nil {
			return err
		}
		n, err := strconv.ParseUint(args[0], 10, 64)
		if err != nil || strconv.FormatUint(n, 10) != args[0] {
			return pp.errf("seed wants a whole number 0–18446744073709551615, got %s", quote(args[0]))
		}
		p.seed = n
	case "next-hazard":
		if err := nargs(4); err != nil {
			return err
		}
		want := []ID{{South, Mine, 0}, {South, AntiAir, 0}, {North, Mine, 0}, {North, AntiAir, 0}}
		for i, a := range args {
			id, err := ParseID(a)
			if err != nil || id.Side != want[i].Side || id.Kind != want[i].Kind {
				return pp.errf("next-hazard wants four IDs: South Mine, South Anti-Air, North Mine, North Anti-Air (like SM16 SA16 NM16 NA16), got %s", quote(a))
			}
			p.nextHazard[id.Side][i%2] = id.N
		}
		pp.hasNH = true
	case "result":
		if len(args) == 1 && args[0] == "none" {
			return nil
		}
		if err := nargs(2); err != nil {
			return pp.errf("result wants none, or the winner (south, north or draw) and a reason")
		}
		w := NoSide
		if args[0] != "draw" {
			if w, err = side(args[0], false); err != nil {
				return pp.errf("result winner must be south, north or draw, got %s", quote(args[0]))
			}
		}
		r := NoReason
		for i, n := range reasonNames {
			if n == args[1] && i > 0 {
				r = Reason(i)
			}
		}
		draw := r == Agreement || r == Simultaneous || r == Deadlock
		if r == NoReason || draw != (w == NoSide) {
			return pp.errf("result %s %s: a win has reason resignation, no-bases, no-infantry, all-tanks or all-airplanes; a draw agreement, simultaneous or deadlock", quote(args[0]), quote(args[1]))
		}
		p.result = Result{w, r}
	case "piece":
		return pp.parsePiece(args)
	case "drone":
		return pp.parseDrone(args)
	case "crater":
		if err := nargs(2); err != nil {
			return err
		}
		sq, err := ParseSquare(args[0])
		if err != nil {
			return pp.errf("%v", err)
		}
		s, err := side(args[1], false)
		if err != nil {
			return err
		}
		if p.hasCrater(sq) {
			return pp.errf("two Craters on %s", sq)
		}
		p.craters = append(p.craters, Crater{sq, s})
	case "draft":
		if len(args) < 1 || len(args) > 3 {
			return pp.errf("draft wants a side and optionally hidden and confirmed")
		}
		s, err := side(args[0], false)
		if err != nil {
			return err
		}
		if pp.rows[s] != nil {
			return pp.errf("two drafts for %s", s)
		}
		pp.rows[s] = map[int]bool{}
		hidden := false
		for i, a := range args[1:] {
			switch {
			case a == "hidden" && i == 0:
				hidden = true
			case a == "confirmed" && !p.confirmed[s]:
				p.confirmed[s] = true
			default:
				return pp.errf("draft wants a side and optionally hidden and confirmed, got %s", quote(a))
			}
		}
		pp.draft = nil
		if !hidden {
			pp.draft = NewDeployment(s)
			p.drafts[s] = pp.draft
		}
	default:
		return pp.errf("unknown line %s (want phase, turn, to-move, first, hazard-uses, dead-turns, seed, next-hazard, result, view, piece, drone, crater or draft)", quote(key))
	}
	return err
}

func (pp *posParser) parsePiece(args []string) error {
	p := pp.p
	if len(args) < 2 {
		return pp.errf("piece wants an ID, a square and, for a Vehicle, its crew (like piece ST1 c3 SI4 SI5)")
	}
	id, err := ParseID(args[0])
	if err != nil {
		return pp.errf("%v", err)
	}
	sq, err := ParseSquare(args[1])
	if err != nil {
		return pp.errf("%v", err)
	}
	if p.index(id) >= 0 || !pp.crew[id].IsZero() {
		return pp.errf("piece %s is given twice", id)
	}
	if o := p.ground(sq); o != nil {
		return pp.errf("%s and %s are both on %s: one piece per square (crew go on their Vehicle's line)", o.ID, id, sq)
	}
	pc := Piece{ID: id, Owner: id.Side, Square: sq}
	if id.Kind.IsVehicle() {
		pc.Owner = NoSide
	}
	if len(args) > 2 {
		if !id.Kind.IsVehicle() {
			return pp.errf("%s is %s and cannot have crew", id, aKind(id.Kind))
		}
		if len(args)-2 > MaxCrew {
			return pp.errf("%s has %d crew; at most 4", id, len(args)-2)
		}
		for _, a := range args[2:] {
			c, err := ParseID(a)
			if err != nil {
				return pp.errf("crew of %s: %v", id, err)
			}
			if c.Kind != Infantry {
				return pp.errf("crew of %s: %s is not an Infantry", id, c)
			}
			if p.index(c) >= 0 || !pp.crew[c].IsZero() {
				return pp.errf("piece %s is given twice", c)
			}
			if pc.Owner != NoSide && c.Side != pc.Owner {
				return pp.errf("crew of %s mixes South and North Infantry", id)
			}
			pc.Owner = c.Side
			pp.crew[c] = id
			pc.Crew = append(pc.Crew, c)
		}
	}
	p.add(pc)
	for _, c := range pc.Crew {
		p.add(Piece{ID: c, Owner: c.Side, Square: sq, Carrier: id})
	}
	return nil
}

func (pp *posParser) parseDrone(args []string) error {
	p := pp.p
	if len(args) == 2 && args[1] == "hidden" {
		s, err := ParseSide(args[0])
		if err != nil || lower(args[0]) != args[0] || len(args[0]) == 1 {
			return pp.errf("want south or north, got %s", quote(args[0]))
		}
		p.drones = append(p.drones, Drone{Side: s, Target: NoSquare, Hidden: true})
		return nil
	}
	if len(args) < 2 || len(args) > 3 || (len(args) == 3 && args[2] != "cancelled") {
		return pp.errf("drone wants the spotter's ID, the target square and optionally cancelled (like drone SI12 f6)")
	}
	id, err := ParseID(args[0])
	if err != nil || id.Kind != Infantry {
		return pp.errf("a Drone's spotter must be an Infantry ID, got %s", quote(args[0]))
	}
	sq, err := ParseSquare(args[1])
	if err != nil {
		return pp.errf("%v", err)
	}
	p.drones = append(p.drones, Drone{Side: id.Side, Spotter: id, Target: sq, Cancelled: len(args) == 3})
	return nil
}

// finish checks what single lines cannot.
func (pp *posParser) finish() error {
	p := pp.p
	if !pp.seen["phase"] {
		return pp.errf("the phase line is missing")
	}
	if p.turn < 0 {
		p.turn = 1
		if p.phase == PhaseDeployment {
			p.turn = 0
		}
	}
	// Counters the engine never takes past these bounds, checked in every
	// phase: a Deployment position keeps them into the game.
	if p.phase != PhasePostTurn && p.hazardUses != 0 {
		return pp.errf("hazard-uses is 0 outside PostTurn")
	}
	if (p.phase == PhaseFinished) != (p.result.Reason != NoReason) {
		return pp.errf("a finished position has a result, and only a finished one")
	}
	switch {
	case p.phase == PhaseDeployment && p.deadTurns != 0:
		return pp.errf("dead-turns is 0 in Deployment: no turn has been played")
	case p.phase != PhaseFinished && p.deadTurns >= DeadlockTurns:
		// the deadlocked turn that reaches DeadlockTurns draws the game
		return pp.errf("dead-turns %d: a game still playing has at most %d deadlocked turns (the %dth draws it, ruling 9)", p.deadTurns, DeadlockTurns-1, DeadlockTurns)
	case p.deadTurns > DeadlockTurns:
		return pp.errf("dead-turns %d: the game ends after %d deadlocked turns (ruling 9)", p.deadTurns, DeadlockTurns)
	}
	switch p.phase {
	case PhaseDeployment:
		if len(p.pieces) > 0 || len(p.drones) > 0 || len(p.craters) > 0 {
			return pp.errf("a position in Deployment has no pieces, Drones or Craters yet, only draft lines")
		}
		for _, s := range []Side{South, North} {
			if pp.rows[s] == nil {
				if p.redacted {
					return pp.errf("the draft line for %s is missing", s)
				}
				p.drafts[s] = NewDeployment(s)
			}
			if p.drafts[s] == nil && !p.redacted {
				return pp.errf("only a redacted view (view line) may hide a draft")
			}
		}
		if p.toMove != NoSide || p.turn != 0 {
			return pp.errf("in Deployment, to-move is none and turn is 0")
		}
		if p.confirmed[South] && p.confirmed[North] {
			return pp.errf("both drafts are confirmed, so the game has begun: a position cannot rest in Deployment with both confirmed")
		}
		for _, s := range []Side{South, North} {
			// only a valid draft can be confirmed (ruling 2), and the other
			// side's confirmation would reveal it as it stands
			if d := p.drafts[s]; d != nil && p.confirmed[s] {
				if probs := d.Problems(); len(probs) > 0 {
					msgs := make([]string, len(probs))
					for i, pr := range probs {
						msgs[i] = pr.Msg
					}
					return pp.errf("%s's draft is confirmed but is not a valid deployment: %s (ruling 2)", s, strings.Join(msgs, "; "))
				}
			}
		}
		return nil
	default:
		if len(pp.rows) > 0 {
			return pp.errf("draft lines belong to a position in Deployment only")
		}
		if p.toMove == NoSide && p.phase != PhaseFinished {
			return pp.errf("to-move (south or north) is missing")
		}
		if p.turn < 1 && p.phase != PhaseFinished {
			return pp.errf("turn must be 1 or more after Deployment")
		}
	}
	if p.phase == PhasePostTurn && !pp.seen["hazard-uses"] {
		p.hazardUses = p.Count(p.toMove, Base) // PostTurn just begun: one use per Base
	}
	// G6: one use per Base controlled when PostTurn began, and no hazard
	// use destroys a Base (a hand-written position may have more than 2)
	if bases := p.Count(p.toMove, Base); p.phase == PhasePostTurn && p.hazardUses > bases {
		return pp.errf("hazard-uses %d: %s has %d %s, and PostTurn gives one hazard use per Base (G6)", p.hazardUses, p.toMove, bases, plural(bases, "Base", "Bases"))
	}
	for _, c := range p.craters {
		if pc := p.ground(c.Square); pc != nil {
			return pp.errf("the Crater on %s holds %s: Craters are empty squares", c.Square, pc.ID)
		}
	}
	// A side's pending Drones were all declared in its last PostTurn, one
	// per hazard use, so one per Base at most, and Bases stand on distinct
	// squares. The bound also keeps every printed position, and its views
	// (drone south hidden), well under the 1 MiB the parser reads.
	for _, s := range []Side{South, North} {
		if n := p.PendingDrones(s); n > NumSquares {
			return pp.errf("%s has %d pending Drones; at most %d (all are declared in one PostTurn, one per Base)", s, n, NumSquares)
		}
	}
	for _, d := range p.drones {
		if d.Hidden {
			if !p.redacted || d.Side == p.viewer {
				return pp.errf("a hidden Drone appears only in a view of the other side")
			}
			continue
		}
		if p.redacted && p.viewer != d.Side {
			return pp.errf("a view for %s cannot show %s's Drone orders", sideWord(p.viewer), d.Side)
		}
		if p.baseSquare(d.Target) {
			// Bases never move, so the Drone was declared on the Base
			return pp.errf("the Drone of %s targets the Base on %s: a Drone never targets a Base (ruling 7)", d.Spotter, d.Target)
		}
		if !d.Cancelled {
			sp := p.get(d.Spotter)
			if sp == nil {
				return pp.errf("the spotter %s of a Drone is not on the board (mark the Drone cancelled)", d.Spotter)
			}
		}
	}
	for s := South; s <= North; s++ {
		for i, k := range []Kind{Mine, AntiAir} {
			next := p.nextFreeNumber(s, k)
			switch {
			case pp.hasNH && int64(p.nextHazard[s][i]) < next:
				return pp.errf("next-hazard %s is already in use", ID{s, k, p.nextHazard[s][i]})
			case next > MaxIDNumber:
				// G12: next-hazard must name a number after every one in use
				return pp.errf("%s has the highest number an ID holds (%d), so no number is left for the next %s (next-hazard)",
					ID{s, k, MaxIDNumber}, MaxIDNumber, k)
			case !pp.hasNH:
				p.nextHazard[s][i] = int32(next)
			}
		}
	}
	return nil
}
