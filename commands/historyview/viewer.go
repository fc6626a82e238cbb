package historyview

import (
	"fmt"
	"sandtable/commands"
	"strconv"
	"strings"
	"unicode/utf8"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// Button is the History button of game g's board messages: it
// opens the history viewer privately, at the latest position.
func Button(g *storage.Game) ui.Button {
	b := commands.GameButton(g, commands.HistoryAction, "History", ui.Secondary)
	b.Emoji = "📜"
	return b
}

// Frame reads which of n frames (n ≥ 1) a history request asks
// for: a click on a viewer's control (update: answer by updating that
// viewer), or the History button or the /history command (a new viewer,
// at the latest frame). A frame past the last (a history that shrank: a
// position loaded by an operator) is the last; a malformed arg is refused.
func Frame(req *commands.Request, n int) (frame int, update bool, err error) {
	last := max(n-1, 0)
	if req.Type != commands.ComponentRequest {
		return last, false, nil
	}
	id, _ := commands.ParseCustomID(req.CustomID)
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
	return 0, false, commands.Errorf("This button does not belong to this game's history viewer.")
}

// Controls is the row of a viewer showing frame i of n: ⏮ ◀, a
// disabled button labelled counter (where the viewer is, e.g. "Ply 3/40"),
// ▶ ⏭; the controls that would not move are disabled.
func Controls(g *storage.Game, i, n int, counter string) ui.Row {
	last := max(n-1, 0)
	b := func(arg, emoji string, disabled bool) ui.Button {
		btn := commands.GameArgButton(g, commands.HistoryAction, arg, "", ui.Secondary)
		btn.Emoji, btn.Disabled = emoji, disabled
		return btn
	}
	mid := commands.GameArgButton(g, commands.HistoryAction, "c"+strconv.Itoa(i), commands.Clip(counter, 80), ui.Secondary)
	mid.Disabled = true
	return ui.Row{
		b("f", "⏮", i <= 0),
		b("p"+strconv.Itoa(max(i-1, 0)), "◀", i <= 0),
		mid,
		b("n"+strconv.Itoa(min(i+1, last)), "▶", i >= last),
		b("l", "⏭", i >= last),
	}
}

// Answer is the answer showing the viewer m: the clicked viewer
// updated in place (update), or a new message only the user sees.
func Answer(m commands.Message, update bool) *commands.Response {
	if update {
		// The viewer is ephemeral: updating it keeps it so.
		return &commands.Response{Update: true, Message: m}
	}
	return &commands.Response{Ephemeral: true, Message: m}
}

// Window joins lines, the line cur among them, keeping as many
// lines around cur as fit in limit characters; "…" stands for the lines
// left out at either end.
func Window(lines []string, cur, limit int) string {
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
	return commands.Clip(out, limit)
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
		text := commands.EscapeText(san, 0)
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
