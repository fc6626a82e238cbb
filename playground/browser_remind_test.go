package playground

import (
	"strings"
	"testing"
	"time"

	"sandtable/internal/testkit"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestBrowserReminderAndGamesLink: the turn reminder shows in the game's
// thread with the player's mention and the thread's link as the thread's
// pill; /games links each game's thread, and the link opens the thread in
// the playground as Discord's client does.
func TestBrowserReminderAndGamesLink(t *testing.T) {
	t.Parallel()
	// The clock starts 18 hours ago, so that once advanced to the reminder
	// it is the browser's time again: the relative timestamps the page
	// shows ("time runs out in 6 hours") then agree with the bot.
	clock := testkit.NewClock(time.Now().Add(-18 * time.Hour))
	tp := startPlayground(t, "", testConfig(), func(o *Options) {
		o.Bot.Now = clock.Now
		o.Bot.SweepEvery = 20 * time.Millisecond
	})
	thread := tp.survivalThread()
	alice, bob := tp.userID("alice"), tp.userID("bob")
	tp.command(alice, thread, "move", opt("move", "g7g8q"))
	clock.Advance(18 * time.Hour)
	v := tp.waitView(bob, thread, "the reminder", func(v view) bool { return strings.Contains(lastText(v), "Reminder:") })
	require.Contains(t, v.Messages[len(v.Messages)-1].Content, "<@"+bob+">, 6 hours left on your move in https://discord.com/channels/")

	b := newBrowser(t, tp)
	b.switchTo("bob")
	name := "Survival · alice vs bob"
	b.openChannel(name)
	b.waitJS(`[...document.querySelectorAll("#messages .message")].pop().innerText.includes("Reminder:")`, "the reminder")
	last := b.lastText()
	require.Contains(t, last, "Reminder: @bob, 6 hours left on your move in "+name)
	require.NotContains(t, last, "discord.com", "the link shows as the thread's pill")
	b.shot("reminder")

	// alice's list: the game waits on bob; bob's: his move.
	b.switchTo("alice")
	b.openChannel("general")
	link := `#messages .embed-description a[href$="/` + thread + `"]`
	b.typeCommand("games")
	b.send()
	b.waitJS(`document.querySelector('`+link+`')`, "/games with the thread's link")
	require.Contains(t, b.lastText(), "Survival Chess: Tartan Grid in "+name)
	require.Contains(t, b.lastText(), "waiting on @bob")
	b.shot("games")
	b.switchTo("bob")
	b.openChannel("general")
	b.typeCommand("games")
	b.send()
	b.waitJS(`document.querySelector('`+link+`')`, "bob's /games")
	require.Contains(t, b.lastText(), "your move")
	require.NotContains(t, b.lastText(), "waiting on")
	b.do(chromedp.Click(chromedp.CSS(link)))
	b.waitJS(`document.body.dataset.channel === "`+name+`"`, "the link opens the thread here")
}
