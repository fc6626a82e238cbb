package playground

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// southFlyer is a valid South deployment (the phalanx with an Airplane on o6), pasted in the
// deployment form; the same layout as bot/sandtable_e2e_test.go.
const southFlyer = `# South: phalanx with an Airplane on o6
#  abcdefghijklmnopqrst
 9 IIIIIIIIIIIIIIIIIIII
 8 MAMAMAMAMAMAMAMAMAMA
 7 .I.I.I.I.I.I.I.I.I.I
 6 TM.ATMPA.M.ATMPA.MTA
 1 .....B........B.....
`

// openDM opens the person's direct messages with the bot from the sidebar.
func (b *browser) openDM() {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(`.channel-item.dm`)))
	b.waitJS(`document.body.dataset.channel === "SandTable" && document.querySelector("#chat-title").textContent === "SandTable"`, "the DM with the bot")
}

// clickButton clicks the button with this label on the newest message that has one.
func (b *browser) clickButton(label string) {
	b.t.Helper()
	sel := `[...document.querySelectorAll("#messages .btn")].filter(x => x.textContent.trim() === ` + strconv.Quote(label) + `)`
	b.waitJS(sel+`.length > 0`, "a "+label+" button")
	b.do(chromedp.Click(chromedp.JSPath(sel + `.pop()`)))
}

func TestBrowserSandTableDeploymentThroughDMs(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	b := newBrowser(t, tp)
	b.openChannel("sandtable")
	b.typeCommand("sandtable challenge")
	b.fillOption("opponent", "bo", tp.userID("bob"))
	b.send()
	b.switchTo("bob")
	b.clickButton("Accept")
	b.waitJS(`[...document.querySelectorAll(".channel-item.thread")].some(x => x.dataset.name === "SandTable · alice vs bob")`, "the SandTable thread")

	// Both players got their panel by DM: the page says alice has an unread one.
	b.waitJS(`document.querySelector("#switch-user .me-sub").textContent.includes("1 other has new DMs")`, "the new-DM note for alice")
	b.waitJS(`document.querySelector('.member[data-name="alice"] .dm-dot')`, "the new-DM dot by alice in the member list")

	// bob (North) deploys in his DMs: a preset from the menu, then Confirm.
	b.openDM()
	b.waitJS(`document.querySelector('#messages .select[data-custom-id*=":dep-preset"]')`, "bob's secret deployment panel")
	b.do(chromedp.Click(chromedp.CSS(`#messages .select[data-custom-id*=":dep-preset"] .select-box`)))
	b.waitJS(`document.querySelector('.select-option[data-value="phalanx"]')`, "the preset list")
	b.shot("sandtable-presets")
	b.do(chromedp.Click(chromedp.CSS(`.select-option[data-value="phalanx"]`)))
	b.waitJS(`document.querySelector("#messages").innerText.includes("Preset phalanx loaded")`, "the phalanx preset loaded")
	b.clickButton("Confirm")
	b.waitJS(`document.querySelector("#messages").innerText.includes("Confirmed")`, "bob's deployment confirmed")
	b.shot("sandtable-dm-panel")

	// alice (South) pastes a layout in the form, then confirms.
	b.switchTo("alice")
	b.openDM()
	require.NotContains(t, js[string](b, `document.querySelector("#messages").innerText`), "North",
		"alice's DMs show her own panel only")
	b.clickButton("Paste layout")
	b.waitJS(`!document.querySelector("#modal-root").hidden && document.querySelector("#modal-root textarea")`, "the Paste layout form")
	b.do(chromedp.SetValue(chromedp.CSS(`#modal-root textarea`), southFlyer))
	b.shot("sandtable-modal")
	b.do(chromedp.Click(chromedp.CSS(`#modal-root button[type=submit]`)))
	b.waitJS(`document.querySelector("#modal-root").hidden`, "the form closed")
	b.waitJS(`document.querySelector("#messages").innerText.includes("Layout loaded: 68 pieces")`, "the pasted layout loaded")

	// The same layout as a file, with /sandtable deploy file: and the file picker.
	layout := filepath.Join(t.TempDir(), "south.txt")
	require.NoError(t, os.WriteFile(layout, []byte(southFlyer), 0o644))
	loaded := `(document.querySelector("#messages").innerText.match(/Layout loaded: 68 pieces/g) || []).length`
	before := js[int](b, loaded)
	b.typeCommand("sandtable deploy")
	b.do(chromedp.SetUploadFiles(chromedp.CSS(`.option-pill[data-name="file"] input[type=file]`), []string{layout}))
	b.waitJS(`document.querySelector('.option-pill[data-name="file"] .opt-file').textContent === "south.txt"`, "the chosen file in the command")
	b.shot("sandtable-upload")
	b.send()
	b.waitJS(loaded+` > `+strconv.Itoa(before), "the uploaded layout loaded")
	// One live panel: the older one points to the panel given anew.
	b.waitJS(`document.querySelector("#messages").innerText.includes("This deployment panel moved")`, "the older panel pointing to the new one")
	js[bool](b, `(() => { [...document.querySelectorAll("#messages .message")].filter(x => x.innerText.includes("This deployment panel moved")).pop().scrollIntoView({block: "start"}); return true })()`)
	b.shot("sandtable-panel-moved")
	b.clickButton("Confirm")

	// Both confirmed: the public board appears in the game thread, for everyone.
	b.switchTo("carol")
	b.openChannel("SandTable · alice vs bob")
	b.waitJS(`document.querySelector("#messages").innerText.includes("The coin is flipped")`, "the reveal in the thread")
	b.waitJS(`(() => { const i = [...document.querySelectorAll("#messages .embed-img, #messages .attachment-image")].pop(); return i && i.complete && i.naturalWidth > 200 })()`, "the public board image")
	b.shot("sandtable-reveal")
	// carol sees no deployment panel of anyone: her DMs are empty.
	b.openDM()
	require.Zero(t, b.count("#messages .message"), "carol has no DM from the bot")
}
