package playground

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// sidebarThreads lists the thread names in the page's sidebar.
func (b *browser) sidebarThreads() []string {
	b.t.Helper()
	return js[[]string](b, `[...document.querySelectorAll(".channel-item.thread")].map(x => x.dataset.name)`)
}

// waitSidebarThreads waits until the sidebar lists exactly these threads, in any order. The
// bot adds the players to their team thread one by one, so a thread can show up for one
// teammate before the other.
func (b *browser) waitSidebarThreads(what string, want ...string) {
	b.t.Helper()
	want = slices.Sorted(slices.Values(want))
	data, err := json.Marshal(want)
	require.NoError(b.t, err)
	b.waitJS(`JSON.stringify([...document.querySelectorAll(".channel-item.thread")].map(x => x.dataset.name).sort()) === `+strconv.Quote(string(data)), what)
	require.ElementsMatch(b.t, want, b.sidebarThreads(), what)
}

func TestBrowserTeamChessLobbyAndTeamThreads(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	b := newBrowser(t, tp)
	b.openChannel("team-chess")
	b.typeCommand("teamchess new")
	b.send()
	b.waitJS(`[...document.querySelectorAll("#messages .btn")].some(x => x.textContent === "Join White")`, "the lobby")

	// The lobby fills: alice and bob for White, carol and dave for Black.
	join := func(who, side string) {
		b.t.Helper()
		b.switchTo(who)
		b.clickButton("Join " + side)
		b.waitJS(`document.querySelector("#messages").innerText.includes(`+strconv.Quote("@"+who)+`) && [...document.querySelectorAll("#messages .embed")].pop().innerText.includes("@`+who+`")`, who+" in the lobby")
	}
	join("alice", "White")
	join("bob", "White")
	join("carol", "Black")
	join("dave", "Black")
	b.shot("teamchess-lobby")

	// The creator starts: a public game thread and one private thread per team.
	b.switchTo("alice")
	b.clickButton("Start")
	public := "Team Chess · alice, bob vs carol, dave"
	white := "Team Chess · White team: alice commands (alice, bob)"
	black := "Team Chess · Black team: carol commands (carol, dave)"
	b.waitSidebarThreads("alice sees the game and her team's thread, not Black's", public, white)
	b.openChannel(white)
	b.waitJS(`document.querySelector("#messages").innerText.includes("White's private thread")`, "White's team thread")
	b.shot("teamchess-team-thread")

	b.switchTo("carol")
	b.waitSidebarThreads("carol sees the game and her team's thread, not White's", public, black)
	require.NotEqual(t, white, js[string](b, `document.body.dataset.channel`), "carol cannot stay in White's thread")

	// dave is on Black too; a spectator would see the game thread only (checked through the API).
	b.switchTo("dave")
	b.waitSidebarThreads("dave sees the game and his team's thread, not White's", public, black)
	b.openChannel(public)
	b.waitJS(`(() => { const i = [...document.querySelectorAll("#messages .embed-img")].pop(); return i && i.complete && i.naturalWidth > 200 })()`, "the first board in the game thread")

	// alice, White's commander, plays the first move with autocomplete; everyone sees the board.
	b.switchTo("alice")
	lastSrc := js[string](b, `[...document.querySelectorAll("#messages .embed-img")].pop().src`)
	b.typeCommand("move")
	b.fillOption("move", "e2e", "")
	item := `[...document.querySelectorAll("#popup .popup-item")].filter(x => x.textContent.includes("e4"))`
	b.waitJS(item+`.length > 0`, "a suggestion for e2-e4")
	b.do(chromedp.Click(chromedp.JSPath(item + `[0]`)))
	b.send()
	b.waitJS(fmt.Sprintf(`(() => { const i = [...document.querySelectorAll("#messages .embed-img")].pop(); return i && i.src !== %q })()`, lastSrc), "the board after 1. e4")
	b.switchTo("dave")
	b.waitJS(`(() => { const i = [...document.querySelectorAll("#messages .embed-img")].pop(); return i && i.complete && i.naturalWidth > 200 })()`, "the new board for dave")
	require.Contains(t, b.lastPublicText(), "e4")
	b.shot("teamchess-game")
}
