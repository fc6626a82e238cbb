package playground

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBrowserComputerAndLeaderboard: alice plays the computer from the
// command box (the bot picked from the member suggestions, a level from
// the choices) and sees its first move in the new thread; after a rated
// game between alice and bob, /leaderboard lists both in #general. With
// -screenshots it writes playground-computer.png and
// playground-leaderboard.png.
func TestBrowserComputerAndLeaderboard(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	b := newBrowser(t, tp)
	var botID string
	for _, u := range tp.view(tp.userID("alice"), tp.channelID("general")).Users {
		if u.Bot {
			botID = u.ID
		}
	}
	require.NotEmpty(t, botID)

	b.typeCommand("survival challenge")
	b.fillOption("opponent", "Sand", botID)
	b.fillOption("color", "bl", "black")
	b.fillOption("level", "beg", "beginner")
	b.send()
	b.waitJS(`[...document.querySelectorAll("#messages .message")].some(m => m.innerText.includes("against the computer"))`, "the game against the computer announced")
	thread := "Survival · Computer (beginner) vs alice"
	b.openChannel(thread)
	b.waitJS(`[...document.querySelectorAll("#messages .message:not(.ephemeral)")].some(m => m.innerText.includes("your move"))`, "the computer's first move")
	b.waitJS(`(() => { const i = [...document.querySelectorAll("#messages .embed-img")].pop(); return i && i.complete && i.naturalWidth > 200 })()`, "the board loaded")
	require.Contains(t, b.boardText(), "Computer (beginner)")
	require.Contains(t, b.boardText(), "unrated")
	b.shot("computer")

	// A rated game between alice and bob, through the API.
	alice, bob := tp.userID("alice"), tp.userID("bob")
	tp.survivalThread()
	var game string
	for _, c := range tp.view(alice, tp.channelID("general")).Channels {
		if c.Name == "Survival · alice vs bob" {
			game = c.ID
		}
	}
	require.NotEmpty(t, game)
	for i, mv := range eliminationGame {
		who := alice
		if i%2 == 1 {
			who = bob
		}
		tp.command(who, game, "move", opt("move", mv))
	}
	tp.waitView(alice, game, "the game's end on the live board", func(v view) bool {
		return len(v.Messages) > 0 && strings.Contains(v.Messages[0].text(), "wins by elimination")
	})

	b.openChannel("general")
	b.typeCommand("leaderboard")
	b.fillOption("game", "surv", "survival")
	b.send()
	b.waitJS(`(() => { const m = [...document.querySelectorAll("#messages .message:not(.ephemeral)")].pop(); return m && m.innerText.includes("bob") && m.innerText.includes("alice") && m.innerText.includes("1 W") })()`, "the leaderboard listing bob and alice")
	text := b.lastPublicText()
	require.Less(t, strings.Index(text, "@bob"), strings.Index(text, "@alice"), "the winner bob ranks above alice: %s", text)
	b.shot("leaderboard")
}
