package playground

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserHistoryViewer: a spectator opens a Survival game's history
// from its board: the viewer shows only on their page, and ◀ steps it back
// in place (one viewer message, showing the earlier ply).
func TestBrowserHistoryViewer(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob := tp.userID("alice"), tp.userID("bob")
	thread := tp.survivalThread()
	for i, mv := range eliminationGame[:4] {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		tp.command(who, thread, "move", opt("move", mv))
	}

	b := newBrowser(t, tp)
	b.switchTo("carol")
	b.openChannel("Survival · alice vs bob")
	b.waitJS(`document.querySelector('#messages .btn[data-custom-id$=":history"]')`, "the History button")
	b.do(chromedp.Click(chromedp.JSPath(`[...document.querySelectorAll('#messages .btn[data-custom-id$=":history"]')].pop()`)))
	b.waitJS(`document.querySelector("#messages .message.ephemeral .embed-img")`, "the private viewer")
	require.Contains(t, b.lastText(), "(ply 4 of 4)")
	require.Contains(t, b.lastText(), "Only you can see this")
	b.do(chromedp.Click(chromedp.JSPath(`[...document.querySelectorAll('#messages .message.ephemeral .btn[data-custom-id*=":history:p"]')].pop()`)))
	b.waitJS(`document.querySelector("#messages .message.ephemeral").innerText.includes("(ply 3 of 4)")`, "◀ steps the viewer back")
	require.Equal(t, 1, b.count("#messages .message.ephemeral"), "◀ updates the viewer in place")
	b.waitJS(`(() => { const i = document.querySelector("#messages .message.ephemeral .embed-img"); return i.complete && i.naturalWidth > 200 })()`, "the earlier board loaded")
	b.shot("history")
	b.switchTo("bob")
	require.Zero(t, b.count("#messages .message.ephemeral"), "bob does not see carol's viewer")
}
