package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// lastCommandOption is the value of option name in the last slash command the bot received
// from user: what the page really sent.
func lastCommandOption(t *testing.T, fake *discordsim.Server, user, name string) any {
	t.Helper()
	var last *discordsim.Interaction
	for _, in := range fake.Interactions() {
		if in.Type == discordgo.InteractionApplicationCommand && in.User.ID == user {
			last = in
		}
	}
	require.NotNil(t, last, "no command from %s", user)
	var in discordgo.Interaction
	require.NoError(t, json.Unmarshal(last.Payload, &in))
	for _, o := range in.ApplicationCommandData().Options {
		if o.Name == name {
			return o.Value
		}
	}
	t.Fatalf("the last command of %s has no option %s: %s", user, name, last.Payload)
	return nil
}

// TestBrowserAutocompleteNeverPlaysAStaleSuggestion is the bug of issue 15: typing g8=K fast
// and pressing Enter switched the box to a suggestion made for an earlier text (a8=B), and a
// second Enter played it. A list made for an earlier text is never picked from: the move
// played is the one typed. As in Discord, a list made for the text on screen highlights its
// first suggestion and Enter takes it into the box; the next Enter sends it (issue 25).
func TestBrowserAutocompleteNeverPlaysAStaleSuggestion(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob := tp.userID("alice"), tp.userID("bob")
	thread := tp.survivalThread()
	b := newBrowser(t, tp)
	b.openChannel("Survival · alice vs bob")

	// alice types "g", and the bot's suggestions for "g" show, the first highlighted.
	b.typeCommand("move")
	sel := `.option-pill[data-name="move"] input`
	b.do(chromedp.Click(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), "g"))
	b.waitJS(`document.querySelectorAll("#popup .popup-item").length > 1`, "the suggestions for g")
	require.Equal(t, 1, b.count("#popup .popup-item.active"), "one suggestion is highlighted")
	require.True(t, js[bool](b, `document.querySelector("#popup .popup-item").classList.contains("active")`), "the first")
	stale := js[string](b, `document.querySelector("#popup .popup-item").dataset.value`)
	b.shot("autocomplete-suggestions")
	// Then, at typing speed, the rest of the move and Enter: the list on screen is stale. The
	// Enter sends what was typed, or (when the answer for g8=K came first) takes g8=K's own
	// suggestion, which a second Enter sends.
	b.do(chromedp.SendKeys(chromedp.CSS(sel), "8=K"+kb.Enter))
	if !js[bool](b, `document.querySelector("#command-chip").hidden`) {
		require.Contains(t, js[string](b, `document.querySelector(`+strconv.Quote(sel)+`).value`), "g8=K")
		b.send()
	}
	b.waitJS(`document.querySelector("#messages").innerText.includes("g8=K")`, "the move g8=K played")
	require.NotEqual(t, stale, lastCommandOption(t, tp.p.Fake(), alice, "move"))
	require.NotContains(t, lastText(tp.view(alice, thread)), stale)

	// bob types the first letter of a move: Enter takes the highlighted first suggestion into
	// the box (not sent yet), a second Enter sends it.
	ac := tp.ok("/api/autocomplete", map[string]any{"as": bob, "channel_id": thread, "command": "move",
		"options": []map[string]any{{"name": "move", "value": "", "focused": true}}})
	choices := ac["choices"].([]any)
	require.NotEmpty(t, choices, "bob has moves")
	prefix := choices[0].(map[string]any)["name"].(string)[:1]
	b.switchTo("bob")
	b.typeCommand("move")
	b.do(chromedp.Click(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), prefix))
	b.waitJS(`document.querySelectorAll("#popup .popup-item.active").length > 0`, "the suggestions for "+prefix)
	first := js[string](b, `document.querySelector("#popup .popup-item").dataset.value`)
	firstText := js[string](b, `document.querySelector("#popup .popup-item .pi-main").textContent`)
	b.do(chromedp.KeyEvent(kb.Enter))
	b.waitJS(`document.querySelector("#popup").hidden`, "the suggestion taken")
	require.Equal(t, firstText, js[string](b, `document.querySelector(`+strconv.Quote(sel)+`).value`))
	require.False(t, js[bool](b, `document.querySelector("#command-chip").hidden`), "taking a suggestion does not send")
	b.send()
	require.Equal(t, first, lastCommandOption(t, tp.p.Fake(), bob, "move"), "the picked suggestion's value is sent")
	b.shot("autocomplete-picked")
}

// TestBrowserMessageBoxKeys: the box has the focus after a channel or user switch; Esc closes
// the suggestions before it clears the text or the command; Tab moves to the next option
// without filling the one it leaves (issue 25, item 6).
func TestBrowserMessageBoxKeys(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	tp.survivalThread()
	b := newBrowser(t, tp)
	focused := `document.activeElement && document.activeElement.id === "composer-input"`
	b.openChannel("Survival · alice vs bob")
	b.waitJS(focused, "the box focused after opening a thread")
	b.do(chromedp.Blur(chromedp.ID("composer-input")))
	b.openChannel("general")
	b.waitJS(focused, "the box focused after opening a channel")
	b.switchTo("bob")
	b.waitJS(focused, "the box focused after a user switch")

	// Esc in the box: first the command list closes, the text stays; then the text clears.
	b.do(chromedp.SendKeys(chromedp.ID("composer-input"), "/surv"))
	b.waitJS(`!document.querySelector("#popup").hidden`, "the command list")
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitJS(`document.querySelector("#popup").hidden`, "the list closed")
	require.Equal(t, "/surv", js[string](b, `document.querySelector("#composer-input").value`))
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitJS(`document.querySelector("#composer-input").value === ""`, "the text cleared")

	// In an option: Tab leaves "al" as typed (no @alice filled in) for the next option.
	b.typeCommand("survival challenge")
	opp := `.option-pill[data-name="opponent"] input`
	b.do(chromedp.Click(chromedp.CSS(opp)), chromedp.SendKeys(chromedp.CSS(opp), "al"))
	b.waitJS(`document.querySelector("#popup .popup-item.active")`, "@alice suggested")
	b.do(chromedp.KeyEvent(kb.Tab))
	b.waitJS(`document.activeElement.closest(".option-pill") && document.activeElement.closest(".option-pill").dataset.name !== "opponent"`,
		"the next option focused")
	require.Equal(t, "al", js[string](b, `document.querySelector(`+strconv.Quote(opp)+`).value`), "Tab fills nothing")
	// Esc with the option's list open closes the list and keeps the command; then cancels it.
	b.do(chromedp.Click(chromedp.CSS(opp)))
	b.waitJS(`!document.querySelector("#popup").hidden`, "the opponent's list")
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitJS(`document.querySelector("#popup").hidden`, "the list closed")
	require.False(t, js[bool](b, `document.querySelector("#command-chip").hidden`), "the command stays")
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitJS(`document.querySelector("#command-chip").hidden`, "the command cancelled")
}

// TestBrowserRendersMessagesAsDiscord: escaped markdown, Discord's styles, timestamps that
// move on by themselves, mentions and emoji, and ephemeral messages that a reload removes.
func TestBrowserRendersMessagesAsDiscord(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob, general := tp.userID("alice"), tp.userID("bob"), tp.channelID("general")
	b := newBrowser(t, tp)
	// Times show in the reader's language and time zone: make them US English in UTC.
	ctx, cancel := context.WithTimeout(b.ctx, wait)
	_, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "UTC"})
	require.NoError(t, err)
	_, err = chromedp.Call(ctx, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: "en-US"})
	require.NoError(t, err)
	cancel()

	now := time.Now().Unix()
	content := fmt.Sprintf("\\*not italic\\* \\_nor this\\_ a\\\\b **bold** *it* _it2_ __under__ ~~gone~~ ***both*** snake_case_name `code \\* kept` "+
		"**bold \\*star\\*** <@%s> <#%s> 🐉 ✅ 🏁\n"+
		"<t:%d:R>|<t:%d:R>|<t:%d:R>|<t:%d:R>|<t:%d:R>\n"+
		"<t:1543392060:t>|<t:1543392060:T>|<t:1543392060:d>|<t:1543392060:D>|<t:1543392060>|<t:1543392060:F>|\\<t:1543392060:R>\n"+
		"[the rules](https://example.com/rules) https://discord.com/channels/%s/%s/123",
		bob, general, now+300, now-3*3600, now+3*86400, now+3600, now+3, tp.p.Fake().Guild().ID, general)
	tp.ok("/api/messages", map[string]any{"as": alice, "channel_id": general, "content": content})
	b.waitJS(`document.querySelector("#messages .message .content .ts-pill")`, "the message")
	msg := `document.querySelector('#messages .message[data-author="alice"] .content')`
	text := js[string](b, msg+`.innerText`)
	require.Contains(t, text, "*not italic* _nor this_ a\\b bold it it2 under gone both snake_case_name code \\* kept bold *star* @bob #general 🐉 ✅ 🏁")
	for tag, want := range map[string]string{"strong": "bold|both|bold *star*", "em": "it|it2|both", "u": "under", "s": "gone", "code": `code \* kept`} {
		got := js[string](b, `[...`+msg+`.querySelectorAll("`+tag+`")].map(x => x.textContent).join("|")`)
		require.Equal(t, want, got, "<%s> elements", tag)
	}
	pills := js[[]string](b, `[...`+msg+`.querySelectorAll(".ts-pill")].map(x => x.textContent)`)
	require.Equal(t, []string{"in 5 minutes", "3 hours ago", "in 3 days", "in an hour", "in a few seconds",
		"8:01 AM", "8:01:00 AM", "11/28/2018", "November 28, 2018", "November 28, 2018 8:01 AM", "Wednesday, November 28, 2018 8:01 AM"}, pills)
	require.Contains(t, text, "|<t:1543392060:R>", "an escaped timestamp shows as typed")
	require.Equal(t, "the rules", js[string](b, msg+`.querySelector('a[href="https://example.com/rules"]').textContent`), "a masked link")
	require.Equal(t, "#general › message", js[string](b, msg+`.querySelector('.channel-mention[data-message="123"]').textContent`), "a message link")
	require.Equal(t, "Wednesday, November 28, 2018 8:01 AM", js[string](b, msg+`.querySelector(".ts-pill[data-style=t]").title`), "the full date on hover")
	// A message of emoji alone shows them large, as Discord does; text with emoji does not.
	tp.ok("/api/messages", map[string]any{"as": bob, "channel_id": general, "content": "🏁 🐉"})
	bobs := `document.querySelector('#messages .message[data-author="bob"] .content')`
	b.waitJS(bobs+` && `+bobs+`.textContent === "🏁 🐉"`, "bob's emoji")
	require.Equal(t, "48px", js[string](b, `getComputedStyle(`+bobs+`).fontSize`))
	require.Equal(t, "16px", js[string](b, `getComputedStyle(`+msg+`).fontSize`))
	b.shot("markdown")
	// A relative time moves on by itself, as in Discord.
	b.waitJS(msg+`.querySelectorAll(".ts-pill")[4].textContent === "a few seconds ago"`, "in a few seconds becomes a few seconds ago")

	// Emoji are drawn with the Twemoji font the page ships, on a machine with no emoji font
	// too: every emoji in the bot's messages, and none of the text around them.
	emoji := botEmoji(t)
	require.NotEmpty(t, emoji)
	t.Logf("the bot's emoji: %q", emoji)
	for _, e := range emoji {
		fonts := platformFonts(b, e)
		require.Len(t, fonts, 1, "%q (U+%04X) is drawn with one font: %v", e, []rune(e)[0], fonts)
		require.True(t, fonts[0].IsCustomFont, "%q is drawn with the page's font, not %s", e, fonts[0].FamilyName)
		require.Contains(t, fonts[0].FamilyName, "Twemoji", "%q", e)
	}
	for _, f := range platformFonts(b, "Move 12: Nf3 → e5, ✓ done") {
		require.NotContains(t, f.FamilyName, "Twemoji", "text, digits and arrows keep the text font")
	}

	// An ephemeral message lasts as long as the page.
	thread := tp.survivalThread()
	b.openChannel("Survival · alice vs bob")
	tp.command(alice, thread, "move", opt("move", "g7g8q"))
	b.switchTo("bob")
	b.typeCommand("move")
	b.fillOption("move", "a1a2", "")
	b.send()
	b.switchTo("alice")
	b.typeCommand("move")
	b.fillOption("move", "a1a2", "")
	b.send()
	b.waitJS(`document.querySelector("#messages .message.ephemeral")`, "alice's ephemeral refusal")
	require.Contains(t, b.lastText(), "Only you can see this")
	b.do(chromedp.Reload())
	b.waitJS(`document.body.dataset.ready === "ready" && document.body.dataset.channel === "Survival · alice vs bob" && document.querySelector("#messages .embed-img")`, "the page reloaded")
	require.Zero(t, b.count("#messages .message.ephemeral"), "a reload removes the ephemeral messages")
	b.switchTo("bob")
	require.Zero(t, b.count("#messages .message.ephemeral"), "bob's earlier one is gone too")
	b.switchTo("alice")
	b.typeCommand("move")
	b.fillOption("move", "a1a2", "")
	b.send()
	b.waitJS(`document.querySelectorAll("#messages .message.ephemeral").length === 1`, "a new ephemeral message after the reload")
}

// platformFonts are the fonts Chromium draws text with in the page's messages.
func platformFonts(b *browser, text string) []*css.PlatformFontUsage {
	b.t.Helper()
	js[bool](b, `(() => { const p = document.createElement("div"); p.className = "content font-probe"; p.textContent = `+strconv.Quote(text)+`;
		document.querySelector("#messages").append(p); return true })()`)
	ctx, cancel := context.WithTimeout(b.ctx, wait)
	defer cancel()
	// The font loads on first use: wait for it, then ask what drew the text.
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise))
	require.NoError(b.t, err)
	ids, err := chromedp.Run(ctx, chromedp.QueryNodeIDs(chromedp.CSS(".font-probe")))
	require.NoError(b.t, err)
	_, err = chromedp.Call(ctx, css.Enable, cdp.Empty{})
	require.NoError(b.t, err)
	res, err := chromedp.Call(ctx, css.GetPlatformFontsForNode, css.GetPlatformFontsForNodeParams{NodeID: ids[0]})
	require.NoError(b.t, err)
	js[bool](b, `(document.querySelector(".font-probe").remove(), true)`)
	return res.Fonts
}

// emojiPresentation are the characters below U+1F000 that are emoji without U+FE0F.
var emojiPresentation = [][2]rune{{0x231A, 0x231B}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3}, {0x25FD, 0x25FE},
	{0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1}, {0x26AA, 0x26AB}, {0x26BD, 0x26BE},
	{0x26C4, 0x26C5}, {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA}, {0x26F2, 0x26F3}, {0x26F5, 0x26F5}, {0x26FA, 0x26FA},
	{0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B}, {0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755},
	{0x2757, 0x2757}, {0x2795, 0x2797}, {0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}}

// botEmoji is every emoji in the bot's source (not its tests): each character of U+1F000 and
// above, each one followed by U+FE0F (kept with it), each emoji-presentation one below.
func botEmoji(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	for _, dir := range []string{"../commands", "../bot", "../games", "../render"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rs := []rune(string(data))
			for i, r := range rs {
				e := ""
				switch {
				case r >= 0x1F000 && r <= 0x1FAFF:
					e = string(r)
				case i+1 < len(rs) && rs[i+1] == 0xFE0F && r > 0x7F:
					e = string(r) + "\uFE0F"
				default:
					for _, rg := range emojiPresentation {
						if r >= rg[0] && r <= rg[1] {
							e = string(r)
						}
					}
				}
				if e != "" && !seen[e] {
					seen[e] = true
					out = append(out, e)
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
	return out
}
