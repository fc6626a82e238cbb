package playground

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// lastWith waits until as's view of channel has a message whose text contains text and
// returns the newest such message.
func (tp *testPlayground) lastWith(as, channel, text string) messageView {
	tp.t.Helper()
	var found messageView
	tp.waitView(as, channel, "a message with "+text, func(v view) bool {
		for _, m := range v.Messages {
			if strings.Contains(m.text(), text) {
				found = m
			}
		}
		return found.ID != ""
	})
	return found
}

func (tp *testPlayground) click(as string, m messageView, label string) {
	tp.t.Helper()
	id := m.button(label)
	require.NotEmpty(tp.t, id, "no %q button on %q", label, m.text())
	out := tp.ok("/api/click", map[string]any{"as": as, "message_id": m.ID, "custom_id": id})
	require.Equal(tp.t, true, out["responded"], "%s: %v", label, out)
}

// sandTableGame plays a SandTable challenge from alice (South) to bob in
// #sandtable and bob's accept through the API, and returns their IDs.
func (tp *testPlayground) sandTableGame() (alice, bob string) {
	tp.t.Helper()
	alice, bob = tp.userID("alice"), tp.userID("bob")
	ch := tp.channelID("sandtable")
	tp.command(alice, ch, "sandtable challenge", opt("opponent", bob))
	tp.click(bob, tp.lastWith(bob, ch, "SandTable"), "Accept")
	return alice, bob
}

// dm opens as's direct messages with the bot through the API and returns
// the channel's ID.
func (tp *testPlayground) dm(as string) string {
	tp.t.Helper()
	return tp.ok("/api/dm", map[string]any{"as": as})["id"].(string)
}

// TestTeamThreadsThroughTheAPI plays a Team Chess lobby with the real bot through the API: the
// team threads are private threads that only their team sees.
func TestTeamThreadsThroughTheAPI(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob, carol, dave := tp.userID("alice"), tp.userID("bob"), tp.userID("carol"), tp.userID("dave")
	ch := tp.channelID("team-chess")
	tp.command(alice, ch, "teamchess new")
	for _, j := range []struct{ who, side string }{{alice, "White"}, {bob, "White"}, {carol, "Black"}} {
		lobby := tp.lastWith(j.who, ch, "Team Chess lobby")
		tp.click(j.who, lobby, "Join "+j.side)
	}
	tp.click(alice, tp.lastWith(alice, ch, "Team Chess lobby"), "Start")

	// threads waits until as sees want game threads (thread members are
	// added by the outbox, after the Start) and lists them.
	threads := func(as string, want int) map[string]string {
		out := map[string]string{}
		for _, c := range tp.waitView(as, "", "the game threads", func(v view) bool {
			n := 0
			for _, c := range v.Channels {
				if c.Kind != "text" {
					n++
				}
			}
			return n >= want
		}).Channels {
			if c.Kind != "text" {
				out[c.Name] = c.Kind
			}
		}
		return out
	}
	public := "Team Chess · alice, bob vs carol"
	white, black := "Team Chess · White team: alice commands (alice, bob)", "Team Chess · Black team: carol commands (carol)"
	tp.waitView(alice, "", "White's team thread", func(v view) bool {
		for _, c := range v.Channels {
			if c.Name == white {
				return true
			}
		}
		return false
	})
	require.Equal(t, map[string]string{public: "public_thread", white: "private_thread"}, threads(alice, 2))
	require.Equal(t, map[string]string{public: "public_thread", white: "private_thread"}, threads(bob, 2))
	require.Equal(t, map[string]string{public: "public_thread", black: "private_thread"}, threads(carol, 2))
	require.Equal(t, map[string]string{public: "public_thread"}, threads(dave, 1), "a spectator sees the game thread only")
}

// TestDeploymentPanelsArePrivate checks that a SandTable deployment panel, sent by DM, is its
// player's alone: nobody else sees it or can use it.
func TestDeploymentPanelsArePrivate(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob := tp.sandTableGame()

	alicePanel := tp.lastWith(alice, tp.dm(alice), "Your secret deployment")
	require.Contains(t, alicePanel.text(), "South")
	bobPanel := tp.lastWith(bob, tp.dm(bob), "Your secret deployment")
	require.Contains(t, bobPanel.text(), "North")

	// bob cannot open alice's DM, see her panel, use its buttons or load its image.
	require.Equal(t, "general", tp.view(bob, tp.dm(alice)).Channel.Name)
	r := tp.post("/api/click", map[string]any{"as": bob, "message_id": alicePanel.ID, "custom_id": alicePanel.button("Confirm")})
	require.Equal(t, 404, r.status)
	img := alicePanel.Attachments[0].URL
	require.Equal(t, 200, tp.get(img).status)
	require.Equal(t, 404, tp.get(strings.Replace(img, "as="+alice, "as="+bob, 1)).status)
}

// TestAFileOptionUploadsTheFile sends a layout file with /sandtable deploy from the DM, as the
// page's file picker does, and checks the refusals of bad files.
func TestAFileOptionUploadsTheFile(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, _ := tp.sandTableGame()
	dm := tp.dm(alice)
	tp.lastWith(alice, dm, "Your secret deployment")

	file := func(name, data string) map[string]any {
		return map[string]any{"filename": name, "content_type": "text/plain", "data": data}
	}
	layout := base64.StdEncoding.EncodeToString([]byte(southFlyer))
	tp.command(alice, dm, "sandtable deploy", opt("file", file("south.txt", layout)))
	tp.lastWith(alice, dm, "I sent your deployment panel anew, here in our direct messages")
	// The panel given anew (it may come after the answer) shows the file.
	var m messageView
	tp.waitView(alice, dm, "the panel given anew", func(v view) bool {
		for _, x := range v.Messages {
			if strings.Contains(x.text(), "Your secret deployment") && strings.Contains(x.text(), "Layout loaded: 68 pieces") {
				m = x
			}
		}
		return m.ID != ""
	})
	require.Contains(t, m.text(), "Valid")

	for _, c := range []struct {
		value  any
		status int
		want   string
	}{
		{file("south.txt", "not base64!"), 400, "data must be the file in base64"},
		{file("", layout), 400, "a file needs a filename"},
		{file("../etc/passwd", layout), 400, "no path"},
		{map[string]any{"filename": "a.txt", "data": layout, "size": 3}, 400, `not "size"`},
		{file("big.txt", base64.StdEncoding.EncodeToString(make([]byte, MaxUpload+1))), 413, "is over 64 KiB"},
	} {
		r := tp.post("/api/commands", map[string]any{"as": alice, "channel_id": dm, "command": "sandtable deploy",
			"options": []any{map[string]any{"name": "file", "value": c.value}}})
		require.Equal(t, c.status, r.status, "%v: %s", c.value, r.body)
		require.Contains(t, r.errorText(t), c.want)
	}
}
