package commands

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// The history viewer (issue 15 item 3): every game shows any earlier
// position privately to whoever asks, with its move list. A game numbers
// its positions ("frames") 0 to n-1, the last being the latest; what a
// frame is (a ply, a move, a turn) is the game's. The viewer is an
// ephemeral message with ⏮ ◀ ▶ ⏭ controls whose custom IDs carry the
// frame they show ("g:<game>:history:<arg>"), so a click needs nothing
// stored and changes nothing: it updates the viewer it is on in place.
//
// The arg of a control: "" (the History button of a board, /history) opens
// a new viewer at the latest frame; "f" is the first frame, "l" the latest
// at the time of the click, "p<i>" and "n<i>" the frame i (◀ and ▶; two
// letters so that every custom ID of a message differs, as Discord
// requires), "c<i>" the disabled counter between them.

// HistoryAction is the custom ID action of the history viewer's controls
// and of the History button; games route it to their viewer.
const HistoryAction = "history"

// HistoryButton is the History button of game g's board messages: it
// opens the history viewer privately, at the latest position.
func HistoryButton(g *storage.Game) ui.Button {
	b := GameButton(g, HistoryAction, "History", ui.Secondary)
	b.Emoji = "📜"
	return b
}

// HistoryFrame reads which of n frames (n ≥ 1) a history request asks
// for: a click on a viewer's control (update: answer by updating that
// viewer), or the History button or the /history command (a new viewer,
// at the latest frame). A frame past the last (a history that shrank: a
// position loaded by an operator) is the last; a malformed arg is refused.
func HistoryFrame(req *Request, n int) (frame int, update bool, err error) {
	last := max(n-1, 0)
	if req.Type != ComponentRequest {
		return last, false, nil
	}
	id, _ := ParseCustomID(req.CustomID)
	switch {
	case id.Arg == "":
		return last, false, nil
	case id.Arg == "f":
		return 0, true, nil
	case id.Arg == "l":
		return last, true, nil
	case len(id.Arg) > 1 && strings.ContainsRune("pnc", rune(id.Arg[0])):
		i, err := strconv.Atoi(id.Arg[1:])
		if err != nil || i < 0 || id.Arg[1:] != strconv.Itoa(i) {
			break
		}
		return min(i, last), true, nil
	}
	return 0, false, Errorf("This button does not belong to this game's history viewer.")
}

// HistoryControls is the row of a viewer showing frame i of n: ⏮ ◀, a
// disabled button labelled counter (where the viewer is, e.g. "Ply 3/40"),
// ▶ ⏭; the controls that would not move are disabled.
func HistoryControls(g *storage.Game, i, n int, counter string) ui.Row {
	last := max(n-1, 0)
	b := func(arg, emoji string, disabled bool) ui.Button {
		btn := GameArgButton(g, HistoryAction, arg, "", ui.Secondary)
		btn.Emoji, btn.Disabled = emoji, disabled
		return btn
	}
	mid := GameArgButton(g, HistoryAction, "c"+strconv.Itoa(i), Clip(counter, 80), ui.Secondary)
	mid.Disabled = true
	return ui.Row{
		b("f", "⏮", i <= 0),
		b("p"+strconv.Itoa(max(i-1, 0)), "◀", i <= 0),
		mid,
		b("n"+strconv.Itoa(min(i+1, last)), "▶", i >= last),
		b("l", "⏭", i >= last),
	}
}

// HistoryAnswer is the answer showing the viewer m: the clicked viewer
// updated in place (update), or a new message only the user sees.
func HistoryAnswer(m Message, update bool) *Response {
	if update {
		// The viewer is ephemeral: updating it keeps it so.
		return &Response{Update: true, Message: m}
	}
	return &Response{Ephemeral: true, Message: m}
}

// HistoryWindow joins lines, the line cur among them, keeping as many
// lines around cur as fit in limit characters; "…" stands for the lines
// left out at either end.
func HistoryWindow(lines []string, cur, limit int) string {
	if len(lines) == 0 {
		return ""
	}
	cur = min(max(cur, 0), len(lines)-1)
	lo, hi := cur, cur+1
	size := utf8.RuneCountInString(lines[cur])
	for {
		grew := false
		if hi < len(lines) && size+1+utf8.RuneCountInString(lines[hi])+4 <= limit {
			size += 1 + utf8.RuneCountInString(lines[hi])
			hi++
			grew = true
		}
		if lo > 0 && size+1+utf8.RuneCountInString(lines[lo-1])+4 <= limit {
			lo--
			size += 1 + utf8.RuneCountInString(lines[lo])
			grew = true
		}
		if !grew {
			break
		}
	}
	out := strings.Join(lines[lo:hi], "\n")
	if lo > 0 {
		out = "…\n" + out
	}
	if hi < len(lines) {
		out += "\n…"
	}
	return Clip(out, limit)
}

// ChessMoveLines writes a chess move list (SANs from the start, the first
// made by white when whiteFirst, numbered from number) one full move a
// line, "12. Nf3 exd5", with the move of ply cur (1-based; 0: none) in
// bold. It returns the lines and the index of the line holding cur.
func ChessMoveLines(sans []string, whiteFirst bool, number, cur int) (lines []string, curLine int) {
	idx := 0 // half-moves from a White move at number
	if !whiteFirst {
		idx = 1
	}
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			lines = append(lines, b.String())
			b.Reset()
		}
	}
	for i, san := range sans {
		n := number + idx/2
		text := EscapeText(san, 0)
		if i+1 == cur {
			text = "**" + text + "**"
		}
		switch {
		case idx%2 == 0:
			flush()
			fmt.Fprintf(&b, "%d. %s", n, text)
		case b.Len() == 0:
			fmt.Fprintf(&b, "%d… %s", n, text)
		default:
			b.WriteString(" " + text)
		}
		if i+1 == cur {
			curLine = len(lines) // the line being written
		}
		idx++
	}
	flush()
	return lines, curLine
}
