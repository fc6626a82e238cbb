package survival

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sandtable/commands"
	"sandtable/commands/chessui"
	"sandtable/commands/ui"
	"sandtable/games/chess"
)

// The move picker (commands/picker.go): the board's Pick a move button
// opens, for the player to move only, a private select of the pieces that
// can move (only those that can capture when a capture exists: capture is
// mandatory), then of the chosen piece's moves in SAN (each promotion a
// move of its own), and the move chosen is played by playMove, as /move
// plays a typed one. The picker's custom IDs carry the ply it was shown
// at: once a move is played, an older picker or board button is refused.

// pickButton is the board's Pick a move button for s.
func pickButton(t *turn, s *State) ui.Button {
	return commands.PickButton(t.Game, "pick", strconv.Itoa(len(s.Moves)))
}

// pick handles the board's Pick a move button and every control of a
// picker.
func pick(t *turn) (*response, error) {
	id, _ := commands.ParseCustomID(t.Req.CustomID)
	p, err := commands.ParsePick(id.Arg)
	if err != nil {
		return nil, err
	}
	s := t.State
	// A picker is its opener's alone: once stale, it says so first. A
	// board's button first says who may move.
	stale := p.Stamp != strconv.Itoa(len(s.Moves))
	if stale && !p.Open && !s.over() {
		return nil, commands.PickStale(p)
	}
	c, err := player(t, true)
	if err != nil {
		return nil, err
	}
	if stale {
		return nil, commands.PickStale(p)
	}
	path, err := p.Chosen(t.Req)
	if err != nil {
		return nil, err
	}
	step, uci, err := pickStep(s, c, path)
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

// pickStep is the picker's step after path (a prefix of a legal move's
// UCI text: "" or a from square), or the legal move path names (uci).
func pickStep(s *State, c chess.Color, path string) (step commands.PickStep, uci string, err error) {
	pos := s.game.Position()
	legal := pos.LegalMoves()
	for _, m := range legal {
		if m.UCI() == path {
			return step, path, nil
		}
	}
	mustCapture := len(legal) > 0 && pos.IsCapture(legal[0])
	head := fmt.Sprintf("**Pick a move** · you play %s, move %d", c.Title(), pos.FullmoveNumber())
	if s.LastMove != "" {
		head += " (last move " + s.LastMove + ")"
	}
	head += "."
	if path == "" {
		step = commands.PickStep{Text: head, Placeholder: "Pick the piece to move"}
		if mustCapture {
			step.Text += "\nCapture is mandatory: only the pieces that can capture are offered."
		}
		bySquare := map[chess.Square][]string{}
		var froms []chess.Square
		for _, m := range legal {
			if _, seen := bySquare[m.From()]; !seen {
				froms = append(froms, m.From())
			}
			bySquare[m.From()] = append(bySquare[m.From()], pos.SAN(m))
		}
		sort.SliceStable(froms, func(i, j int) bool {
			ri, rj := chessui.PieceOrder(pos.PieceAt(froms[i]).Role()), chessui.PieceOrder(pos.PieceAt(froms[j]).Role())
			if ri != rj {
				return ri < rj
			}
			return froms[i].String() < froms[j].String()
		})
		for _, sq := range froms {
			sans := bySquare[sq]
			step.Options = append(step.Options, commands.PickOption{
				Label:       chessui.PieceLabel(pos.PieceAt(sq).Role(), sq),
				Value:       sq.String(),
				Description: commands.Plural(len(sans), "move", "moves") + ": " + strings.Join(sans, ", "),
			})
		}
		return step, "", nil
	}
	from, err := chess.ParseSquare(path)
	if err != nil {
		return step, "", commands.Errorf("That choice is not one this picker offered: nothing was played.")
	}
	var moves []chess.Move
	for _, m := range legal {
		if m.From() == from {
			moves = append(moves, m)
		}
	}
	if len(moves) == 0 {
		return step, "", commands.Errorf("No piece on %s can move now: nothing was played.", from)
	}
	// By destination, each square's promotions in the rules' order.
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].To().String() < moves[j].To().String() })
	role := pos.PieceAt(from).Role()
	step = commands.PickStep{
		Text:        head + fmt.Sprintf("\n**%s**: pick its move.", chessui.PieceLabel(role, from)),
		Placeholder: "Pick the move of " + chessui.PieceLabel(role, from),
		HasBack:     true,
	}
	if moves[0].IsPromotion() {
		step.Text += " Reaching the last rank, the pawn promotes: each move names the piece it becomes."
	}
	for _, m := range moves {
		step.Options = append(step.Options, commands.PickOption{Label: pos.SAN(m), Value: m.UCI(), Description: moveDescription(pos, m)})
	}
	return step, "", nil
}

// moveDescription says in words what m does: what it captures, what a
// pawn promotes to.
func moveDescription(pos *chess.Position, m chess.Move) string {
	var parts []string
	if pos.IsCapture(m) {
		victim := m.To()
		if m.Kind() == chess.EnPassant {
			parts = append(parts, "captures the pawn en passant")
		} else {
			parts = append(parts, fmt.Sprintf("captures the %s on %s", pos.PieceAt(victim).Role(), victim))
		}
	} else {
		parts = append(parts, "to "+m.To().String())
	}
	if r := m.Promoted(); m.IsPromotion() && r != chess.NoRole {
		parts = append(parts, "promotes to a "+r.String())
	}
	return strings.Join(parts, ", ")
}
