package playground

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserSurvivalPicker plays the first Survival move with the move
// picker on the playground's page: the board's Pick a move button opens a
// private picker, its select lists the pieces, then the chosen pawn's
// promotions, and the move chosen posts the next board.
func TestBrowserSurvivalPicker(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	b := newBrowser(t, tp)
	b.typeCommand("survival challenge")
	b.fillOption("opponent", "b", tp.userID("bob"))
	b.fillOption("color", "wh", "white")
	b.send()
	b.waitJS(`[...document.querySelectorAll("#messages .btn")].some(x => x.textContent === "Accept")`, "the challenge")
	b.switchTo("bob")
	b.do(chromedp.Click(chromedp.Search(`//button[text()="Accept"]`)))
	b.waitJS(`document.querySelector(".channel-item.thread")`, "the game thread")
	b.switchTo("alice")
	b.openChannel(js[string](b, `document.querySelector(".channel-item.thread").dataset.name`))
	b.waitJS(`document.querySelector("#messages .embed-img")`, "the first board")
	boards := b.count("#messages .embed-img")

	b.do(chromedp.Click(chromedp.Search(`//button[text()="Pick a move"]`)))
	b.waitJS(`document.querySelector("#messages .message.ephemeral .select")`, "the private picker")
	require.Contains(t, b.lastText(), "Only you can see this")
	require.Contains(t, b.lastText(), "Pick a move")
	b.do(chromedp.Click(chromedp.CSS(`#messages .message.ephemeral .select-box`)))
	b.waitJS(`document.querySelector('.select-option[data-value="e7"]')`, "the pawns in the list")
	b.shot("picker-pieces")
	b.do(chromedp.Click(chromedp.CSS(`.select-option[data-value="e7"]`)))
	b.waitJS(`[...document.querySelectorAll("#messages .message.ephemeral")].pop().innerText.includes("Pawn e7")`, "the pawn's moves")
	b.do(chromedp.Click(chromedp.CSS(`#messages .message.ephemeral .select-box`)))
	b.waitJS(`document.querySelector('.select-option[data-value="e7e8q"]')`, "the promotions in the list")
	require.Equal(t, 5, b.count(".select-option"), "e8=Q, e8=R, e8=B, e8=N, e8=K")
	b.shot("picker-moves")
	b.do(chromedp.Click(chromedp.CSS(`.select-option[data-value="e7e8q"]`)))
	// The live board: the new board at the bottom, the one before it
	// compacted into a line (so the thread keeps one board image).
	b.waitJS(`[...document.querySelectorAll("#messages .message")].some(m => m.innerText.includes("played e8=Q") && m.querySelector(".embed-img")) && document.querySelectorAll("#messages .embed-img").length === `+strconv.Itoa(boards), "the new board after the move, the earlier one without its image")
}
