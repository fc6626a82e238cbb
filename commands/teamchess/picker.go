package teamchess

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/ui"
	"sandtable/games/chess"
	tc "sandtable/games/teamchess"
)

// The move picker (commands/picker.go). Every board's Pick a move button
// (in the public thread and in both team threads) opens, for the active
// commander of the side to move only, a private select of the pieces
// that can move, then of the chosen piece's moves in the game's notation;
// a pawn move to the last rank is an 8th-rank sacrifice (rule 3), whose
// role comes next (the impossible roles said with their reasons), then an
// Assassin's target or the move a Saboteur forces: the opponent's piece,
// its move, and so on down a chain of Saboteurs. When a Saboteur forced
// the move, the picker offers that move alone. The move chosen is played
// by playMove, as /move plays a typed one, from the channel the picker
// was opened in.
//
// A picker's path is a prefix of the move's UCI-style text ("e7",
// "e7e8", "e7e8a", "e7e8s:g8"), so the move chosen is a text /move
// reads. Its custom IDs carry the game's action count (the clock key:
// every move, tag-out, pass or siege decision changes it): a picker shown
// before the game moved on is refused.

// pickButton is the board's Pick a move button for st.
func pickButton(t *turn, st *State) ui.Button {
	return commands.PickButton(t.Game, "pick", pickStamp(st))
}

// pickStamp is the position stamp a picker carries: the action count.
func pickStamp(st *State) string { return strconv.Itoa(st.game.ActionCount()) }

// pick handles the board's Pick a move button and every control of a
// picker.
func pick(t *turn) (*response, error) {
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	p, err := commands.ParsePick(id.Arg)
	if err != nil {
		return nil, err
	}
	st := t.State
	// A picker is its opener's alone: once stale, it says so first. A
	// board's button first says who may move.
	stale := p.Stamp != pickStamp(st)
	if stale && !p.Open && !st.over() {
		return nil, commands.PickStale(p)
	}
	if err := mayMove(t); err != nil {
		return nil, err
	}
	if stale {
		return nil, commands.PickStale(p)
	}
	path, err := p.Chosen(t.Req)
	if err != nil {
		return nil, err
	}
	step, uci, err := pickStep(st, path)
	if err != nil {
		return nil, err
	}
	if uci != "" {
		resp, err := playMove(t, uci)
		return commands.PickPlayed(resp), err
	}
	if p.Select {
		p.Page = 0 // a new step starts on its first page
	}
	p.Path = path
	return commands.PickAnswer(p, commands.PickerMessage(t.Game, "pick", p, step)), nil
}

// notOffered refuses a path no picker offered (a forged choice).
var notOffered = commands.Errorf("That choice is not one this picker offered: nothing was played.")

// pickStep is the picker's step after path, or the whole move path names
// (uci) once it names one.
func pickStep(st *State, path string) (step commands.PickStep, uci string, err error) {
	g := st.game
	pos := g.Position()
	turn := g.Turn()
	head := fmt.Sprintf("**Pick a move** · you command %s, move %d", turn.Title(), pos.FullmoveNumber())
	if l := st.lastMoveText(); l != "" {
		head += " (last move " + l + ")"
	}
	head += "."
	if f, ok := g.Forced(); ok {
		if path == f.UCI() {
			return step, path, nil
		}
		if path != "" {
			return step, "", notOffered
		}
		san := tc.SAN(&pos, f)
		return commands.PickStep{
			Text:        head + fmt.Sprintf("\nA Saboteur forced your move (rule 3.3): **%s** is the only move.", san),
			Placeholder: "Play the forced move",
			Options:     []commands.PickOption{{Label: san, Value: f.UCI(), Description: "the move the Saboteur forced"}},
		}, "", nil
	}
	if g.InCheck() {
		head += " You are in check."
	}
	return pickLevel(&pos, head, "", path)
}

// pickLevel is the step after path in pos, the position one move of the
// chain is made in (the game's, or after a Saboteur head whose forced
// reply is being picked): prefix is what the outer levels chose ("" or
// "e7e8s:"), text what the step says above its own line.
func pickLevel(pos *chess.Position, text, prefix, path string) (commands.PickStep, string, error) {
	var none commands.PickStep
	turn := pos.Turn()
	back, hasBack := pickBack(prefix + path)
	step := commands.PickStep{Text: text, Back: back, HasBack: hasBack}
	switch {
	case path == "":
		step.Text += "\nPick the piece to move."
		step.Placeholder = "Pick the piece to move"
		if prefix != "" {
			step.Text = text + fmt.Sprintf("\nPick the piece %s must move.", turn.Title())
			step.Placeholder = fmt.Sprintf("Pick the piece %s must move", turn.Title())
		}
		moves := map[chess.Square][]string{}
		var froms []chess.Square
		for _, d := range destinations(pos) {
			from := d.board.From()
			if _, seen := moves[from]; !seen {
				froms = append(froms, from)
			}
			moves[from] = append(moves[from], d.label)
		}
		sort.SliceStable(froms, func(i, j int) bool {
			ri, rj := chessui.PieceOrder(pos.PieceAt(froms[i]).Role()), chessui.PieceOrder(pos.PieceAt(froms[j]).Role())
			if ri != rj {
				return ri < rj
			}
			return froms[i].String() < froms[j].String()
		})
		for _, sq := range froms {
			step.Options = append(step.Options, commands.PickOption{
				Label:       chessui.PieceLabel(pos.PieceAt(sq).Role(), sq),
				Value:       prefix + sq.String(),
				Description: commands.Plural(len(moves[sq]), "move", "moves") + ": " + strings.Join(moves[sq], ", "),
			})
		}
		return step, "", nil
	case len(path) == 2:
		from, err := chess.ParseSquare(path)
		if err != nil {
			return none, "", notOffered
		}
		sacrifice := false
		for _, d := range destinations(pos) {
			if d.board.From() != from {
				continue
			}
			desc := "to " + d.board.To().String()
			if victim := pos.PieceAt(d.board.To()); victim != chess.NoPiece {
				desc = fmt.Sprintf("captures the %s on %s", victim.Role(), d.board.To())
			}
			if d.sacrifice {
				sacrifice = true
				desc += "; 8th-rank sacrifice: pick the pawn's role next"
			}
			step.Options = append(step.Options, commands.PickOption{Label: d.label, Value: prefix + d.uci, Description: desc})
		}
		if len(step.Options) == 0 {
			return none, "", commands.Errorf("No piece on %s can move now: nothing was played.", from)
		}
		piece := chessui.PieceLabel(pos.PieceAt(from).Role(), from)
		step.Text += fmt.Sprintf("\n**%s**: pick its move.", piece)
		if sacrifice {
			step.Text += " A pawn reaching the last rank is consumed in an 8th-rank sacrifice (rule 3): its role comes next."
		}
		step.Placeholder = "Pick the move of " + piece
		return step, "", nil
	}
	if len(path) < 4 {
		return none, "", notOffered
	}
	from, err1 := chess.ParseSquare(path[:2])
	to, err2 := chess.ParseSquare(path[2:4])
	if err1 != nil || err2 != nil {
		return none, "", notOffered
	}
	bare, isSacrifice := sacrificeOf(pos, from, to)
	if !isSacrifice {
		if len(path) == 4 {
			for _, d := range destinations(pos) {
				if d.uci == path && !d.sacrifice {
					return none, prefix + path, nil
				}
			}
		}
		return none, "", notOffered
	}
	head := sacrificeHead(pos, bare)
	if len(path) == 4 {
		step.Text += fmt.Sprintf("\n**%s**: the pawn is consumed (rule 3). Pick its role.", head)
		step.Placeholder = "Pick the pawn's role"
		var impossible []string
		for _, o := range tc.RoleOptions(pos, bare) {
			if !o.Legal {
				impossible = append(impossible, fmt.Sprintf("%s: %s", o.Role, o.Reason))
				continue
			}
			step.Options = append(step.Options, roleOption(pos, bare, head, o, prefix+path))
		}
		if len(impossible) > 0 {
			step.Text += "\nNot possible here: " + strings.Join(impossible, "; ") + "."
		}
		if len(step.Options) == 0 {
			return none, "", notOffered
		}
		return step, "", nil
	}
	role, ok := roleOf(path[4])
	if !ok || !roleLegal(pos, bare, role) {
		return none, "", notOffered
	}
	rest := path[5:]
	switch role {
	case tc.RoyalGuard, tc.PoliticalAgent:
		if rest != "" {
			return none, "", notOffered
		}
		return none, prefix + path, nil
	case tc.Assassin:
		targets := assassinTargets(pos, bare)
		if rest == "" {
			step.Text += fmt.Sprintf("\n**%s=Assassin**: pick the piece the Assassin removes (never the King; rule 3.2).", head)
			step.Placeholder = "Pick the piece to remove"
			for _, sq := range targets {
				m := tc.Move{Board: assassin(bare, sq)}
				step.Options = append(step.Options, commands.PickOption{
					Label:       tc.SAN(pos, m),
					Value:       prefix + path + ":" + sq.String(),
					Description: fmt.Sprintf("removes %s's %s on %s", turn.Other().Title(), pos.PieceAt(sq).Role(), sq),
				})
			}
			return step, "", nil
		}
		for _, sq := range targets {
			if rest == ":"+sq.String() {
				return none, prefix + path, nil
			}
		}
		return none, "", notOffered
	}
	// A Saboteur: the opponent's forced reply is picked in the position
	// after the sacrifice, as a move of its own (a Saboteur in it forces
	// the next reply, and so on).
	if rest != "" && rest[0] != ':' {
		return none, "", notOffered
	}
	after, err := pos.Play(bare.WithTag(uint8(tc.Saboteur)))
	if err != nil {
		return none, "", notOffered
	}
	text += fmt.Sprintf("\n**%s=Saboteur** forces %s's next move (rule 3.3): it must be a legal move.", head, after.Turn().Title())
	return pickLevel(&after, text, prefix+path[:5]+":", strings.TrimPrefix(rest, ":"))
}

// pickBack is where a picker's Back leads from path: the path without its
// last choice (a square, a role letter, or a colon and a square).
func pickBack(path string) (string, bool) {
	if path == "" {
		return "", false
	}
	i := strings.LastIndexByte(path, ':')
	last := path[i+1:]
	switch {
	case len(last) == 2 && i >= 0:
		return path[:i], true
	case len(last) == 2:
		return "", true
	case len(last) == 4:
		return path[:len(path)-2], true
	}
	return path[:len(path)-1], true
}

// destination is one move of a piece as the picker offers it: an
// ordinary legal move, or a bare 8th-rank sacrifice with at least one
// legal role.
type destination struct {
	board     chess.Move
	uci       string // the path once chosen: the whole move, or the sacrifice's squares
	label     string
	sacrifice bool
}

// destinations lists the moves the picker offers in pos: every ordinary
// legal move (in the game's notation) and every pawn move to the last rank
// that some role makes legal.
func destinations(pos *chess.Position) []destination {
	var out []destination
	for _, m := range pos.LegalMoves() {
		if m.IsSacrifice() {
			continue
		}
		out = append(out, destination{board: m, uci: m.UCI(), label: tc.SAN(pos, tc.Move{Board: m})})
	}
	var cb [32]chess.Move
	for _, c := range pos.SacrificeCandidates(cb[:0]) {
		legal := false
		for _, o := range tc.RoleOptions(pos, c) {
			legal = legal || o.Legal
		}
		if legal {
			out = append(out, destination{board: c, uci: c.From().String() + c.To().String(), label: sacrificeHead(pos, c) + "=…", sacrifice: true})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].label < out[j].label })
	return out
}

// sacrificeOf is the bare sacrifice from→to in pos, if it is one.
func sacrificeOf(pos *chess.Position, from, to chess.Square) (chess.Move, bool) {
	var cb [32]chess.Move
	for _, c := range pos.SacrificeCandidates(cb[:0]) {
		if c.From() == from && c.To() == to {
			return c, true
		}
	}
	return 0, false
}

// sacrificeHead is the sacrifice's notation before its role: "e8" or
// "exd8".
func sacrificeHead(pos *chess.Position, bare chess.Move) string {
	if pos.PieceAt(bare.To()) != chess.NoPiece {
		return string(rune('a'+bare.From().File())) + "x" + bare.To().String()
	}
	return bare.To().String()
}

// roleOption is the option of the legal role o of bare; path is the
// sacrifice's squares as chosen.
func roleOption(pos *chess.Position, bare chess.Move, head string, o tc.RoleOption, path string) commands.PickOption {
	value := path + string(o.Role.Letter())
	switch o.Role {
	case tc.RoyalGuard:
		return commands.PickOption{Label: tc.SAN(pos, tc.Move{Board: bare.WithTag(uint8(tc.RoyalGuard)).WithPlaced(chess.Queen)}), Value: value,
			Description: "your captured Queen returns on " + bare.To().String() + " (rule 3.1)"}
	case tc.Assassin:
		return commands.PickOption{Label: head + "=Assassin:…", Value: value,
			Description: fmt.Sprintf("removes an opposing piece: %s; pick it next (rule 3.2)", commands.Plural(o.Choices, "choice", "choices"))}
	case tc.Saboteur:
		return commands.PickOption{Label: head + "=Saboteur:…", Value: value,
			Description: fmt.Sprintf("forces the opponent's next move: %s; pick it next (rule 3.3)", commands.Plural(o.Choices, "choice", "choices"))}
	}
	return commands.PickOption{Label: tc.SAN(pos, tc.Move{Board: bare.WithTag(uint8(tc.PoliticalAgent))}), Value: value,
		Description: "the opposing active commander suffers a personal loss (rule 3.4)"}
}

// roleOf reads a role letter of the UCI-style form.
func roleOf(b byte) (tc.Role, bool) {
	for _, r := range tc.Roles {
		if r.Letter() == b {
			return r, true
		}
	}
	return tc.NoRole, false
}

// roleLegal reports whether role is a legal role of bare in pos.
func roleLegal(pos *chess.Position, bare chess.Move, role tc.Role) bool {
	for _, o := range tc.RoleOptions(pos, bare) {
		if o.Role == role {
			return o.Legal
		}
	}
	return false
}

// assassin is bare with the Assassin's role removing the piece on sq.
func assassin(bare chess.Move, sq chess.Square) chess.Move {
	return bare.WithTag(uint8(tc.Assassin)).WithRemoved(sq)
}

// assassinTargets lists the squares an Assassin may legally remove after
// bare: opposing pieces other than the King and the piece the pawn
// captures, whose removal leaves the mover's king safe (rule 3.2).
func assassinTargets(pos *chess.Position, bare chess.Move) []chess.Square {
	them := pos.Turn().Other()
	var out []chess.Square
	for _, sq := range (pos.Occupied(them) &^ pos.Pieces(them, chess.King)).Squares() {
		if sq != bare.To() && pos.IsLegal(assassin(bare, sq)) {
			out = append(out, sq)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
