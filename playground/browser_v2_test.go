package playground

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// boardPNG is a small picture the size of a board, for layouts that show one.
func boardPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 320, 320))
	for y := 0; y < 320; y++ {
		for x := 0; x < 320; x++ {
			c := color.RGBA{0xf0, 0xd9, 0xb5, 0xff}
			if (x/40+y/40)%2 == 1 {
				c = color.RGBA{0xb5, 0x88, 0x63, 0xff}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

// TestBrowserShowsComponentsV2AndLockedThreads: the page draws a Components V2 layout as
// Discord does (a container with its accent bar, text, a section with an accessory, an image
// from the message's files, a separator and a row of buttons) and shows an archived or locked
// thread as Discord does.
func TestBrowserShowsComponentsV2AndLockedThreads(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice := tp.userID("alice")
	general := tp.channelID("general")
	s := botSession(t, tp.p.Fake())
	accent := 0x5865f2
	divider := true
	large := discordgo.SeparatorSpacingSizeLarge
	m, err := s.ChannelMessageSendComplex(general, &discordgo.MessageSend{
		Flags: discordgo.MessageFlagsIsComponentsV2,
		Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(boardPNG(t))}},
		Components: []discordgo.MessageComponent{
			discordgo.Container{AccentColor: &accent, Components: []discordgo.MessageComponent{
				discordgo.TextDisplay{Content: "### Survival Chess: Tartan Grid\n**White** <@" + alice + "> · **Black** bob"},
				discordgo.Section{
					Components: []discordgo.MessageComponent{discordgo.TextDisplay{Content: "Last move **1. g8=Q**"}},
					Accessory:  discordgo.Button{Label: "Flip board", CustomID: "g:abcdef:flip", Style: discordgo.SecondaryButton},
				},
				discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
				discordgo.Separator{Divider: &divider, Spacing: &large},
				discordgo.TextDisplay{Content: "-# Game abcdef · time runs out <t:2000000000:R>"},
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Resign", CustomID: "g:abcdef:resign", Style: discordgo.DangerButton},
					discordgo.Button{Label: "Offer draw", CustomID: "g:abcdef:draw", Style: discordgo.SecondaryButton},
				}},
			}},
		},
	})
	require.NoError(t, err)
	v := tp.view(alice, general)
	require.Len(t, v.Messages, 1)

	b := newBrowser(t, tp)
	box := `document.querySelector('#messages .message[data-id="` + m.ID + `"] .v2-container')`
	b.waitJS(box, "the layout")
	b.waitJS(box+`.querySelector("img.v2-media").complete && `+box+`.querySelector("img.v2-media").naturalWidth === 320`, "the board from the message's files")
	require.Equal(t, "rgb(88, 101, 242)", js[string](b, `getComputedStyle(`+box+`).borderLeftColor`), "the accent bar")
	require.Equal(t, "Survival Chess: Tartan Grid", js[string](b, box+`.querySelector(".v2-text h3").textContent`))
	require.Contains(t, js[string](b, box+`.innerText`), "White @alice · Black bob")
	require.Equal(t, "Flip board", js[string](b, box+`.querySelector(".v2-section .v2-accessory button").textContent`))
	require.Equal(t, []string{"Flip board", "Resign", "Offer draw"}, js[[]string](b, `[...`+box+`.querySelectorAll("button")].map(x => x.textContent)`))
	require.Equal(t, 1, b.count(".v2-sep.divider.large"))
	require.Zero(t, b.count(`#messages .attachments`), "the file shows through the layout only")
	b.shot("components-v2")
	// Its buttons work as any: the click reaches the bot.
	b.do(chromedp.Click(chromedp.Search(`//div[contains(@class,"v2-accessory")]/button[text()="Flip board"]`)))
	b.waitJS(`document.querySelector("#messages .message.ephemeral")`, "the bot's answer to the click")

	// A thread, archived, then locked, as the bot leaves a finished game's thread.
	th, err := s.ThreadStartComplex(general, &discordgo.ThreadStart{Name: "Survival · alice vs bob", Type: discordgo.ChannelTypeGuildPublicThread})
	require.NoError(t, err)
	require.NoError(t, s.ThreadMemberAdd(th.ID, alice))
	_, err = s.ChannelMessageSend(th.ID, "Game over: 1-0.")
	require.NoError(t, err)
	archived := true
	_, err = s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &archived})
	require.NoError(t, err)
	b.openChannel("Survival · alice vs bob")
	b.waitJS(`document.body.dataset.thread === "archived"`, "the thread shown archived")
	require.Contains(t, js[string](b, `document.querySelector("#thread-note").textContent`), "archived")
	require.Contains(t, js[string](b, `document.querySelector("#chat-topic").textContent`), "Archived")
	// A message unarchives it, as in Discord.
	tp.ok("/api/messages", map[string]any{"as": alice, "channel_id": th.ID, "content": "gg"})
	b.waitJS(`document.body.dataset.thread === ""`, "the thread unarchived by a message")
	require.False(t, tp.p.Fake().ChannelByID(th.ID).Archived)

	locked := true
	_, err = s.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &archived, Locked: &locked})
	require.NoError(t, err)
	b.waitJS(`document.body.dataset.thread === "locked"`, "the thread shown locked")
	require.True(t, js[bool](b, `document.querySelector("#composer-box").hidden`), "a locked thread has no message box")
	require.Contains(t, js[string](b, `document.querySelector("#thread-note").textContent`), "locked")
	b.shot("locked-thread")
	r := tp.post("/api/messages", map[string]any{"as": alice, "channel_id": th.ID, "content": "let me in"})
	require.Equal(t, 400, r.status)
	require.Contains(t, r.errorText(t), "locked thread")
	r = tp.post("/api/commands", map[string]any{"as": alice, "channel_id": th.ID, "command": "board", "options": []any{}})
	require.Equal(t, 400, r.status)
	require.Contains(t, r.errorText(t), "locked thread")
}
