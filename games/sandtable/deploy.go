package sandtable

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"sandtable/internal/playertext"
)

// Required is the number of pieces of each kind a side deploys (ruling 2,
// rule text Getting Started).
var Required = map[Kind]int{Base: 2, Tank: 4, Airplane: 2, Infantry: 30, Mine: 15, AntiAir: 15}

// RequiredTotal is the number of pieces one side deploys (68).
const RequiredTotal = 68

// Deployment is one side's editable deployment draft (ruling 2): a kind per
// square of the side's zone, without IDs (IDs are given when both
// deployments are revealed: per kind, numbered from 1 in square order a1,
// b1, ..., t1, a2, ...). A draft may be incomplete or invalid while it is
// edited; Validate says whether it can be confirmed.
type Deployment struct {
	Side  Side
	cells [NumSquares]Kind
}

// NewDeployment returns an empty draft for side.
func NewDeployment(side Side) *Deployment { return &Deployment{Side: side} }

// At returns the kind placed on sq (NoKind if none).
func (d *Deployment) At(sq Square) Kind {
	if !sq.Valid() {
		return NoKind
	}
	return d.cells[sq]
}

// Count returns how many pieces of kind k are placed.
func (d *Deployment) Count(k Kind) int {
	n := 0
	for _, c := range d.cells {
		if c == k {
			n++
		}
	}
	return n
}

// Len returns the number of pieces placed.
func (d *Deployment) Len() int {
	n := 0
	for _, c := range d.cells {
		if c != NoKind {
			n++
		}
	}
	return n
}

// Clone returns a copy of the draft.
func (d *Deployment) Clone() *Deployment { c := *d; return &c }

func (d *Deployment) zoneText() string {
	if d.Side == South {
		return "South's zone is ranks 1–9"
	}
	return "North's zone is ranks 12–20"
}

// Place puts a piece of kind k on sq. Errors (*RuleError): sq outside the
// zone, sq occupied, or all pieces of that kind already placed.
func (d *Deployment) Place(k Kind, sq Square) error {
	if k <= NoKind || k >= numKinds {
		return illegal(RuleDeployCounts, "unknown piece kind")
	}
	if !sq.Valid() || !InZone(d.Side, sq) {
		return illegal(RuleDeployZone, "%s is outside the deployment zone (%s)", sq, d.zoneText())
	}
	if d.cells[sq] != NoKind {
		return illegal(RuleDeployZone, "%s already holds %s", sq, aKind(d.cells[sq]))
	}
	if n := d.Count(k); n >= Required[k] {
		return illegal(RuleDeployCounts, "all %d %s are already placed", Required[k], pluralKind(k))
	}
	d.cells[sq] = k
	return nil
}

// Move moves the piece on from to the empty square to of the zone.
func (d *Deployment) Move(from, to Square) error {
	k := d.At(from)
	if k == NoKind {
		return illegal(RuleDeployZone, "there is no piece on %s", from)
	}
	if !to.Valid() || !InZone(d.Side, to) {
		return illegal(RuleDeployZone, "%s is outside the deployment zone (%s)", to, d.zoneText())
	}
	if d.cells[to] != NoKind {
		return illegal(RuleDeployZone, "%s already holds %s", to, aKind(d.cells[to]))
	}
	d.cells[from], d.cells[to] = NoKind, k
	return nil
}

// Remove takes the piece off sq.
func (d *Deployment) Remove(sq Square) error {
	if d.At(sq) == NoKind {
		return illegal(RuleDeployZone, "there is no piece on %s", sq)
	}
	d.cells[sq] = NoKind
	return nil
}

// Clear removes every piece.
func (d *Deployment) Clear() { d.cells = [NumSquares]Kind{} }

func pluralKind(k Kind) string {
	if k == Infantry || k == AntiAir {
		return k.String()
	}
	return k.String() + "s"
}

// Problems lists everything that keeps the draft from being confirmed, in
// a fixed order: wrong counts per kind (ruling 2), then each Mine or
// Anti-Air without an adjacent Infantry of its side. Empty means valid.
func (d *Deployment) Problems() []*RuleError {
	var out []*RuleError
	for _, k := range AllKinds {
		n, want := d.Count(k), Required[k]
		if n != want {
			out = append(out, &RuleError{RuleDeployCounts, fmt.Sprintf("%d of %d %s placed", n, want, pluralKind(k))})
		}
	}
	for sq := Square(0); sq < NumSquares; sq++ {
		k := d.cells[sq]
		if k == NoKind {
			continue
		}
		if !InZone(d.Side, sq) {
			out = append(out, &RuleError{RuleDeployZone, fmt.Sprintf("%s on %s is outside the deployment zone", k, sq)})
		}
		if k.IsHazard() {
			ok := false
			for _, n := range neighbors(sq) {
				if d.cells[n] == Infantry {
					ok = true
					break
				}
			}
			if !ok {
				out = append(out, &RuleError{RuleDeployHazard, fmt.Sprintf("%s on %s is not adjacent to any Infantry", k, sq)})
			}
		}
	}
	return out
}

// Validate returns nil when the draft can be confirmed, or a *RuleError
// listing every problem (see Problems).
func (d *Deployment) Validate() error {
	ps := d.Problems()
	if len(ps) == 0 {
		return nil
	}
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.Msg
	}
	return &RuleError{Rule: ps[0].Rule, Msg: "the deployment is not valid: " + strings.Join(msgs, "; ")}
}

// Layout returns the draft in the layout format: a comment header, then
// one row per rank of the zone from the highest rank down, "NN " and 20
// cells ('.' empty, else the kind letter: B T P I M A).
func (d *Deployment) Layout() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s deployment: %s\n", d.Side, d.zoneText())
	b.WriteString("#  abcdefghijklmnopqrst\n")
	lo, hi := 0, 8
	if d.Side == North {
		lo, hi = 11, 19
	}
	for r := hi; r >= lo; r-- {
		d.writeRow(&b, r)
	}
	return b.String()
}

func (d *Deployment) writeRow(b *strings.Builder, r int) {
	fmt.Fprintf(b, "%2d ", r+1)
	for f := range Files {
		b.WriteByte(d.cells[Sq(f, r)].Letter())
	}
	b.WriteByte('\n')
}

// ParseLayout reads a layout for side (the format of Layout): lines "NN
// cells" with the rank number and 20 cells ('.', '-' or '_' empty, or a
// kind letter B T P I M A in either case; spaces between cells are
// ignored); blank lines, lines starting with '#' and a header of file
// letters are ignored; ranks not given are empty. Pieces outside the zone
// are an error; counts and hazard adjacency are checked by Validate.
func ParseLayout(side Side, text string) (*Deployment, error) {
	if side != South && side != North {
		return nil, &SyntaxError{What: "layout", Msg: "side must be South or North"}
	}
	text, err := playertext.File(text)
	if err != nil {
		return nil, &SyntaxError{What: "layout", Msg: err.Error()}
	}
	d := NewDeployment(side)
	seen := map[int]bool{}
	for i, line := range strings.Split(text, "\n") {
		if err := d.parseRow(line, seen); err != nil {
			return nil, &SyntaxError{What: "layout", Line: i + 1, Msg: err.Error()}
		}
	}
	return d, nil
}

func (d *Deployment) parseRow(line string, seen map[int]bool) error {
	line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	if line == "" || line[0] == '#' {
		return nil
	}
	if strings.ReplaceAll(line, " ", "") == "abcdefghijklmnopqrst" {
		return nil
	}
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	if i == 0 || i > 2 {
		return fmt.Errorf("a row starts with its rank number (1–20), got %s", quote(line))
	}
	r := 0
	for _, c := range line[:i] {
		r = r*10 + int(c-'0')
	}
	if r < 1 || r > Ranks {
		return fmt.Errorf("rank %d is not on the board (1–20)", r)
	}
	if seen[r] {
		return fmt.Errorf("rank %d is given twice", r)
	}
	seen[r] = true
	cells := strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '|' {
			return -1
		}
		return c
	}, line[i:])
	if len(cells) != Files {
		return fmt.Errorf("rank %d has %d cells, want 20 (files a–t)", r, len(cells))
	}
	for f := range Files {
		c := cells[f]
		if c == '.' || c == '-' || c == '_' {
			continue
		}
		k, ok := KindFromLetter(c)
		if !ok {
			return fmt.Errorf("rank %d file %c: unknown piece %q (use . B T P I M A)", r, 'a'+f, c)
		}
		sq := Sq(f, r-1)
		if !InZone(d.Side, sq) {
			return fmt.Errorf("%s on %s is outside the deployment zone (%s)", k, sq, d.zoneText())
		}
		d.cells[sq] = k
	}
	return nil
}

// presets are South's layouts; North's are their mirror images (rank r
// becomes rank 21-r).
var presets = map[string][]string{
	// phalanx: a double line of Infantry in front, hazards behind each line,
	// Vehicles among the second line's hazards, Bases at the back.
	"phalanx": {
		"9 IIIIIIIIIIIIIIIIIIII",
		"8 MAMAMAMAMAMAMAMAMAMA",
		"7 .I.I.I.I.I.I.I.I.I.I",
		"6 TM.ATMPA.M.APMTA.MTA",
		"1 .....B........B.....",
	},
	// fortress: a hazard screen in front of a wall of Infantry, Vehicles
	// and Bases close behind it.
	"fortress": {
		"6 MAMAMAMAMAMAMAMAMAMA",
		"5 IIIIIIIIIIIIIIIIIIII",
		"4 TIMIAIPIMIIMIPIAIMIT",
		"3 .T.A.MB..A...BA...T.",
	},
	// skirmish: three open lines of Infantry, each screened by alternating
	// Mines and Anti-Air, Vehicles spread behind.
	"skirmish": {
		"9 I.I.I.I.I.I.I.I.I.I.",
		"8 .M.A.M.A.M.A.M.A.M.A",
		"7 I.I.I.I.I.I.I.I.I.I.",
		"6 .A.M.A.M.A.M.A.M.A.M",
		"5 I.I.I.I.I.I.I.I.I.I.",
		"4 .M.A.M.A.M.A.M.A.M.A",
		"3 .T...P...T..T...P..T",
		"1 ...B..........B.....",
	},
}

// PresetNames returns the names of the preset deployments, sorted.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Preset returns the named preset deployment for side (see PresetNames).
func Preset(side Side, name string) (*Deployment, error) {
	rows, ok := presets[lower(name)]
	if !ok {
		return nil, illegal(RuleDeployCounts, "no preset named %s (presets: %s)", quote(name), strings.Join(PresetNames(), ", "))
	}
	south, err := ParseLayout(South, strings.Join(rows, "\n"))
	if err != nil {
		return nil, err
	}
	if side == South {
		return south, nil
	}
	d := NewDeployment(side)
	for sq := Square(0); sq < NumSquares; sq++ {
		if k := south.cells[sq]; k != NoKind {
			d.cells[Sq(sq.File(), Ranks-1-sq.Rank())] = k
		}
	}
	return d, nil
}

// RandomDeployment returns a valid deployment for side chosen with r:
// Infantry first, then every Mine and Anti-Air next to one of them, then
// Bases and Vehicles on the remaining squares.
func RandomDeployment(side Side, r *rand.Rand) *Deployment {
	var zone []Square
	for sq := Square(0); sq < NumSquares; sq++ {
		if InZone(side, sq) {
			zone = append(zone, sq)
		}
	}
	for {
		d := NewDeployment(side)
		r.Shuffle(len(zone), func(i, j int) { zone[i], zone[j] = zone[j], zone[i] })
		for _, sq := range zone[:Required[Infantry]] {
			d.cells[sq] = Infantry
		}
		var cand []Square
		for _, sq := range zone {
			if d.cells[sq] != NoKind {
				continue
			}
			for _, n := range neighbors(sq) {
				if d.cells[n] == Infantry {
					cand = append(cand, sq)
					break
				}
			}
		}
		nh := Required[Mine] + Required[AntiAir]
		if len(cand) < nh {
			continue
		}
		r.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
		for i, sq := range cand[:nh] {
			if i < Required[Mine] {
				d.cells[sq] = Mine
			} else {
				d.cells[sq] = AntiAir
			}
		}
		rest := []Kind{Base, Base, Tank, Tank, Tank, Tank, Airplane, Airplane}
		for _, sq := range zone {
			if len(rest) == 0 {
				break
			}
			if d.cells[sq] == NoKind {
				d.cells[sq] = rest[0]
				rest = rest[1:]
			}
		}
		return d
	}
}

// Draft returns a copy of side's deployment draft (nil outside Deployment
// or in a view that may not see it).
func (p *Position) Draft(side Side) *Deployment {
	if side != South && side != North || p.drafts[side] == nil {
		return nil
	}
	return p.drafts[side].Clone()
}

// SetDraft replaces side's draft (for example with a pasted layout), unless
// side has already confirmed.
func (p *Position) SetDraft(side Side, d *Deployment) error {
	if p.phase != PhaseDeployment {
		return illegal(RulePhase, "deployment is over")
	}
	if side != South && side != North || d == nil || d.Side != side {
		return fmt.Errorf("draft is not for %s", side)
	}
	if p.confirmed[side] {
		return illegal(RuleDeploySecret, "%s has confirmed its deployment; unconfirm it first", side)
	}
	p.drafts[side] = d.Clone()
	return nil
}

func (p *Position) deployAction(l *logger, a Action) error {
	side := a.Side
	if side != South && side != North {
		return illegal(RuleTurn, "a deployment action names its side (S or N)")
	}
	if p.confirmed[side] && a.Kind != ActDeployUnconfirm {
		return illegal(RuleDeploySecret, "%s has confirmed its deployment; unconfirm it first", side)
	}
	if p.drafts[side] == nil {
		p.drafts[side] = NewDeployment(side)
	}
	d := p.drafts[side]
	var err error
	secret := func(format string, args ...any) {
		l.addf(Entry{Kind: EntryDraft, Side: side, Secret: side, Notation: a.String()}, format, args...)
	}
	switch a.Kind {
	case ActDeployPlace:
		if err = d.Place(a.Piece, a.To); err == nil {
			secret("You placed %s on %s.", aKind(a.Piece), a.To)
		}
	case ActDeployMove:
		if err = d.Move(a.From, a.To); err == nil {
			secret("You moved the %s from %s to %s.", d.At(a.To), a.From, a.To)
		}
	case ActDeployRemove:
		k := d.At(a.To)
		if err = d.Remove(a.To); err == nil {
			secret("You removed the %s from %s.", k, a.To)
		}
	case ActDeployClear:
		d.Clear()
		secret("You cleared your deployment.")
	case ActDeployPreset:
		var pd *Deployment
		if pd, err = Preset(side, a.Name); err == nil {
			p.drafts[side] = pd
			secret("You chose the %s preset.", a.Name)
		}
	case ActDeployRandom:
		p.drafts[side] = RandomDeployment(side, rand.New(rand.NewPCG(a.Seed, 0xd3b1)))
		secret("You chose a random deployment (seed %d).", a.Seed)
	case ActDeployConfirm:
		if err = d.Validate(); err != nil {
			return err
		}
		p.confirmed[side] = true
		l.addf(Entry{Kind: EntryConfirmed, Side: side}, "%s confirmed its deployment.", side)
		if p.confirmed[side.Opp()] {
			p.reveal(l)
		}
	case ActDeployUnconfirm:
		if !p.confirmed[side] {
			return illegal(RuleDeploySecret, "%s has not confirmed its deployment", side)
		}
		p.confirmed[side] = false
		l.addf(Entry{Kind: EntryUnconfirmed, Side: side}, "%s withdrew its confirmation.", side)
	default:
		return fmt.Errorf("not a deployment action")
	}
	return err
}

// reveal turns both confirmed drafts into pieces, flips the coin and
// starts turn 1 (ruling 2).
func (p *Position) reveal(l *logger) {
	p.pieces = p.pieces[:0]
	for _, side := range []Side{South, North} {
		var n [numKinds]int32
		d := p.drafts[side]
		for sq := Square(0); sq < NumSquares; sq++ {
			k := d.cells[sq]
			if k == NoKind {
				continue
			}
			n[k]++
			owner := side
			if k.IsVehicle() {
				owner = NoSide
			}
			p.pieces = append(p.pieces, Piece{ID: ID{side, k, n[k]}, Owner: owner, Square: sq})
		}
		p.nextHazard[side] = [2]int32{n[Mine] + 1, n[AntiAir] + 1}
	}
	slices.SortFunc(p.pieces, func(a, b Piece) int {
		if a.ID.less(b.ID) {
			return -1
		}
		if b.ID.less(a.ID) {
			return 1
		}
		return 0
	})
	p.rebuild()
	p.drafts = [3]*Deployment{}
	l.addf(Entry{Kind: EntryRevealed}, "Both deployments are revealed.")
	p.first = coin(p.seed)
	l.addf(Entry{Kind: EntryCoin, Side: p.first}, "The coin chose %s to move first.", p.first)
	p.toMove = p.first
	p.turn = 1
	p.preTurn(l)
}
