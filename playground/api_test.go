package playground

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

func TestViewShowsTheServerAsOnePersonSeesIt(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	v := tp.view("", "")
	require.Equal(t, "alice", v.Me.Name, "with no user the page acts as the first person")
	require.Equal(t, "ready", v.Status.State)
	require.Equal(t, "SandTable Playground", v.Guild.Name)
	var names []string
	for _, c := range v.Channels {
		names = append(names, c.Name)
	}
	require.Equal(t, []string{"general", "survival-chess", "sandtable", "team-chess"}, names)
	require.Equal(t, "general", v.Channel.Name, "the first text channel opens by default")
	var people []string
	for _, u := range v.Users {
		if !u.Bot {
			people = append(people, u.Name)
		}
	}
	require.Equal(t, []string{"alice", "bob", "carol", "dave"}, people)
	require.Nil(t, v.DM, "no DM channel until one is opened")

	// The command box knows the registered commands, with subcommands, choices and autocomplete.
	cmds := map[string]int{}
	for i, c := range v.Commands {
		cmds[c.Name] = i
	}
	require.Contains(t, cmds, "survival")
	require.Contains(t, cmds, "move")
	surv := v.Commands[cmds["survival"]]
	require.Equal(t, "challenge", surv.Options[0].Name)
	require.Equal(t, int(discordgo.ApplicationCommandOptionSubCommand), surv.Options[0].Type)
	require.Equal(t, "opponent", surv.Options[0].Options[0].Name)
	require.Equal(t, int(discordgo.ApplicationCommandOptionUser), surv.Options[0].Options[0].Type)
	require.Equal(t, "color", surv.Options[0].Options[1].Name)
	require.Len(t, surv.Options[0].Options[1].Choices, 3)
	move := v.Commands[cmds["move"]]
	require.True(t, move.Options[0].Autocomplete)

	// Opening the DM with the bot.
	alice := tp.userID("alice")
	dm := tp.ok("/api/dm", map[string]any{"as": alice})
	require.Equal(t, "dm", dm["kind"])
	require.Equal(t, BotName, dm["name"])
	v = tp.view(alice, dm["id"].(string))
	require.Equal(t, "dm", v.Channel.Kind)
	require.NotNil(t, v.DM)
	// Another person cannot open alice's DM: their view falls back to #general.
	require.Equal(t, "general", tp.view(tp.userID("bob"), dm["id"].(string)).Channel.Name)
}

func TestASurvivalGameThroughTheAPI(t *testing.T) {
	t.Parallel()
	testSurvivalGameThroughTheAPI(t, startPlayground(t, "", testConfig()))
}

// TestHTTPInteractionsPlayground: with HTTPInteractions, the playground's bot has no gateway
// connection and the stand-in delivers interactions to its endpoint; the same game plays.
func TestHTTPInteractionsPlayground(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig(), func(o *Options) { o.HTTPInteractions = true })
	require.Contains(t, tp.stdout.String(), "/interactions (no gateway)")
	require.Empty(t, tp.p.Fake().GatewaySessions())
	testSurvivalGameThroughTheAPI(t, tp)
	for _, c := range tp.p.Fake().Calls() {
		require.False(t, c.Is("POST /interactions/*/*/callback") && !c.Endpoint, "a REST callback: %s", c)
	}
}

func testSurvivalGameThroughTheAPI(t *testing.T, tp *testPlayground) {
	alice, bob, carol := tp.userID("alice"), tp.userID("bob"), tp.userID("carol")
	thread := tp.survivalThread()

	// The thread is public: carol sees it too, with the first board.
	v := tp.view(carol, thread)
	require.Equal(t, "public_thread", v.Channel.Kind)
	require.Equal(t, "Survival · alice vs bob", v.Channel.Name)
	require.NotEmpty(t, v.Messages)
	first := v.Messages[0]
	require.Len(t, first.Embeds, 1)
	require.Equal(t, "attachment://board.png", first.Embeds[0].Image.URL)
	require.Len(t, first.Attachments, 1)
	img := first.Attachments[0]
	require.Equal(t, "image/png", img.ContentType)

	// The board image is served to those who can see it, and it is a PNG.
	r := tp.get(img.URL)
	require.Equal(t, 200, r.status)
	require.Equal(t, "image/png", r.header.Get("Content-Type"))
	_, err := png.Decode(bytes.NewReader(r.body))
	require.NoError(t, err)

	// Autocomplete comes from the bot.
	ac := tp.ok("/api/autocomplete", map[string]any{"as": alice, "channel_id": thread, "command": "move",
		"options": []map[string]any{{"name": "move", "value": "g7g8", "focused": true}}})
	var values []string
	for _, c := range ac["choices"].([]any) {
		values = append(values, c.(map[string]any)["value"].(string))
	}
	require.Contains(t, values, "g7g8q")
	require.Contains(t, values, "g7g8k", "promotion to a king is a legal choice in Survival")

	// A move: the live board is edited in place (a new image), the player to move is pinged
	// by a message of its own, and the mover is answered privately; the answer says who used
	// which command.
	tp.command(alice, thread, "move", opt("move", "g7g8q"))
	v = tp.waitView(bob, thread, "the first move", func(v view) bool {
		n := len(v.Messages)
		return n >= 2 && strings.Contains(v.Messages[0].text(), "1. g8=Q") && strings.Contains(v.Messages[n-1].text(), "your move")
	})
	live := v.Messages[0]
	require.False(t, live.Ephemeral)
	require.Equal(t, first.ID, live.ID, "the live board, edited in place")
	require.NotEqual(t, img.ID, live.Attachments[0].ID, "a new board image")
	ping := v.Messages[len(v.Messages)-1]
	require.Empty(t, ping.Embeds, "the ping is a line of text")
	var answer *messageView
	for _, m := range tp.view(alice, thread).Messages {
		if m.Ephemeral && strings.Contains(m.text(), "You played **g8=Q**") {
			answer = &m
		}
	}
	require.NotNil(t, answer, "the mover's private answer")
	require.NotNil(t, answer.Interaction)
	require.Equal(t, "alice", answer.Interaction.User.Name)
	require.Equal(t, "move", answer.Interaction.Command)

	// A move out of turn: an ephemeral refusal that only alice sees, with its own image URL
	// closed to others.
	tp.command(alice, thread, "move", opt("move", "a1a2"))
	v = tp.waitView(alice, thread, "the refusal", func(v view) bool { return v.Messages[len(v.Messages)-1].Ephemeral })
	refusal := v.Messages[len(v.Messages)-1]
	require.Contains(t, refusal.text(), "not your turn")
	for _, who := range []string{bob, carol} {
		for _, m := range tp.view(who, thread).Messages {
			require.NotEqual(t, refusal.ID, m.ID, "an ephemeral message is shown to its person only")
		}
	}
	// Nobody but alice can act on the ephemeral message either.
	r = tp.post("/api/click", map[string]any{"as": bob, "message_id": refusal.ID, "custom_id": "x"})
	require.Equal(t, 404, r.status)

	// Attachments of a message are refused to someone who cannot see the message.
	var alicesBoard string // the live board's image: which message holds it depends on delivery order
	for _, m := range tp.view(alice, thread).Messages {
		if !m.Ephemeral && len(m.Attachments) > 0 {
			alicesBoard = m.Attachments[0].URL
		}
	}
	require.NotEmpty(t, alicesBoard, "a public board image in the thread")
	require.Equal(t, 200, tp.get(alicesBoard).status)
	forBob := strings.Replace(alicesBoard, "as="+alice, "as="+bob, 1)
	require.Equal(t, 200, tp.get(forBob).status, "a public message's image is bob's too")

	// A plain message from a person.
	out := tp.ok("/api/messages", map[string]any{"as": carol, "channel_id": thread, "content": "good luck **both**"})
	require.Equal(t, "carol", out["author"].(map[string]any)["name"])
	require.Equal(t, "good luck **both**", tp.view(bob, thread).Messages[len(tp.view(bob, thread).Messages)-1].Content)
}

// botSession is a REST-only session of the bot on the stand-in, to make what the bot
// would make (private threads, messages with components) in tests.
func botSession(t *testing.T, fake *discordsim.Server) *discordgo.Session {
	t.Helper()
	s, err := discordgo.New("Bot " + fake.Token())
	require.NoError(t, err)
	fake.Connect(s)
	return s
}

func TestPrivateThreadsAreShownToTheirMembersOnly(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob := tp.userID("alice"), tp.userID("bob")
	general := tp.channelID("team-chess")
	s := botSession(t, tp.p.Fake())
	th, err := s.ThreadStartComplex(general, &discordgo.ThreadStart{Name: "White team", Type: discordgo.ChannelTypeGuildPrivateThread})
	require.NoError(t, err)
	require.NoError(t, s.ThreadMemberAdd(th.ID, alice))
	_, err = s.ChannelMessageSendComplex(th.ID, &discordgo.MessageSend{Content: "Your team's plan",
		Files: []*discordgo.File{{Name: "secret.png", ContentType: "image/png", Reader: bytes.NewReader(tinyPNG(t))}}})
	require.NoError(t, err)

	kinds := func(v view) map[string]string {
		out := map[string]string{}
		for _, c := range v.Channels {
			out[c.Name] = c.Kind
		}
		return out
	}
	require.Equal(t, "private_thread", kinds(tp.view(alice, ""))["White team"])
	require.NotContains(t, kinds(tp.view(bob, "")), "White team", "a private thread is hidden from non-members")

	va := tp.view(alice, th.ID)
	require.Equal(t, "White team", va.Channel.Name)
	require.Equal(t, []string{tp.p.Fake().Bot().ID, alice}, va.Channel.Members)
	secret := va.Messages[0].Attachments[0].URL
	require.Equal(t, 200, tp.get(secret).status)

	// bob: the view falls back to the first channel, and every action in the thread is refused.
	vb := tp.view(bob, th.ID)
	require.Equal(t, "general", vb.Channel.Name)
	r := tp.post("/api/messages", map[string]any{"as": bob, "channel_id": th.ID, "content": "hi"})
	require.Equal(t, 403, r.status)
	require.Contains(t, r.errorText(t), "bob cannot see this channel")
	r = tp.post("/api/threads/join", map[string]any{"as": bob, "thread_id": th.ID})
	require.Equal(t, 403, r.status)
	r = tp.get(strings.Replace(secret, "as="+alice, "as="+bob, 1))
	require.Equal(t, 404, r.status, "a private thread's files are not served to others")
	r = tp.post("/api/commands", map[string]any{"as": bob, "channel_id": th.ID, "command": "board", "options": []any{}})
	require.Equal(t, 403, r.status)

	// A public thread can be joined.
	pub, err := s.ThreadStartComplex(general, &discordgo.ThreadStart{Name: "Open", Type: discordgo.ChannelTypeGuildPublicThread})
	require.NoError(t, err)
	j := tp.ok("/api/threads/join", map[string]any{"as": bob, "thread_id": pub.ID})
	require.Contains(t, j["members"], bob)
}

func tinyPNG(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 2, 2))))
	return buf.Bytes()
}

func TestComponentsAndModalsThroughTheAPI(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, bob := tp.userID("alice"), tp.userID("bob")
	general := tp.channelID("general")
	s := botSession(t, tp.p.Fake())
	min := 1
	m, err := s.ChannelMessageSendComplex(general, &discordgo.MessageSend{Content: "pick one",
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.SelectMenu{CustomID: "g:abcdef:pick", MinValues: &min, MaxValues: 1,
				Options: []discordgo.SelectMenuOption{{Label: "Knight", Value: "n"}, {Label: "Bishop", Value: "b"}}}}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Go", CustomID: "g:abcdef:go", Style: discordgo.PrimaryButton}}},
		}})
	require.NoError(t, err)

	// The selection and the click reach the bot as interactions, and it answers them (here
	// with its refusal of a component that is not its own game's).
	out := tp.ok("/api/select", map[string]any{"as": alice, "message_id": m.ID, "custom_id": "g:abcdef:pick", "values": []string{"b"}})
	require.Equal(t, true, out["responded"])
	in := tp.p.Fake().Interactions()
	last := in[len(in)-1]
	require.Equal(t, []string{"b"}, last.Values)
	require.Equal(t, alice, last.User.ID)
	r := tp.post("/api/select", map[string]any{"as": alice, "message_id": m.ID, "custom_id": "g:abcdef:pick", "values": []string{"q"}})
	require.Equal(t, 400, r.status)
	require.Contains(t, r.errorText(t), `"q" is not an option`)
	out = tp.ok("/api/click", map[string]any{"as": bob, "message_id": m.ID, "custom_id": "g:abcdef:go"})
	require.Equal(t, true, out["responded"])
	v := tp.waitView(bob, general, "the answer to the click", func(v view) bool { return v.Messages[len(v.Messages)-1].Ephemeral })
	require.NotEmpty(t, v.Messages[len(v.Messages)-1].text())
	r = tp.post("/api/click", map[string]any{"as": bob, "message_id": m.ID, "custom_id": "nope"})
	require.Equal(t, 400, r.status)
	require.Contains(t, r.errorText(t), `has no button "nope"`)

	// Modals: none open, so a submit is a conflict; a dismiss is harmless.
	r = tp.post("/api/modal/submit", map[string]any{"as": alice, "values": map[string]string{}})
	require.Equal(t, 409, r.status)
	require.Contains(t, r.errorText(t), "alice has no open form")
	tp.ok("/api/modal/dismiss", map[string]any{"as": alice})
	require.Nil(t, tp.view(alice, "").Modal)
}

func TestBadRequestsGetClearErrors(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice := tp.userID("alice")
	general := tp.channelID("general")
	bot := tp.p.Fake().Bot().ID
	big := strings.Repeat("x", MaxBody+10)
	cases := []struct {
		name        string
		method      string
		path        string
		contentType string
		body        string
		header      map[string]string
		status      int
		want        string
	}{
		{"unknown endpoint", "GET", "/api/nothing", "", "", nil, 404, "no API endpoint /api/nothing"},
		{"wrong method", "GET", "/api/commands", "", "", nil, 405, "/api/commands takes POST, not GET"},
		{"wrong method on a read", "POST", "/api/view", "application/json", "{}", nil, 405, "takes GET"},
		{"not JSON", "POST", "/api/messages", "text/plain", "hello", nil, 415, "must be JSON"},
		{"no content type", "POST", "/api/messages", "", `{}`, nil, 415, "must be JSON"},
		{"malformed JSON", "POST", "/api/messages", "application/json", `{"as": `, nil, 400, "malformed JSON"},
		{"empty body", "POST", "/api/messages", "application/json", ``, nil, 400, "the request body is empty"},
		{"not an object", "POST", "/api/messages", "application/json", `[1, 2]`, nil, 400, "must be a JSON object"},
		{"unknown field", "POST", "/api/messages", "application/json", `{"as": "1", "colour": "red"}`, nil, 400, `unknown field "colour"`},
		{"wrong type", "POST", "/api/messages", "application/json", `{"as": 5}`, nil, 400, `field "as" must be a string`},
		{"trailing data", "POST", "/api/messages", "application/json", `{"as": "1"} {"as": "2"}`, nil, 400, "unexpected data after the JSON object"},
		{"oversized", "POST", "/api/messages", "application/json", `{"as": "` + big + `"}`, nil, 413, "over 128 KiB"},
		{"no user", "POST", "/api/messages", "application/json", `{"channel_id": "` + general + `", "content": "hi"}`, nil, 400, `say who acts`},
		{"unknown user", "POST", "/api/messages", "application/json", `{"as": "42", "channel_id": "` + general + `", "content": "hi"}`, nil, 404, `unknown user "42"`},
		{"the bot acting", "POST", "/api/messages", "application/json", `{"as": "` + bot + `", "channel_id": "` + general + `", "content": "hi"}`, nil, 400, "SandTable is a bot"},
		{"no channel", "POST", "/api/messages", "application/json", `{"as": "` + alice + `", "content": "hi"}`, nil, 400, "channel_id is missing"},
		{"unknown channel", "POST", "/api/messages", "application/json", `{"as": "` + alice + `", "channel_id": "7", "content": "hi"}`, nil, 404, `unknown channel "7"`},
		{"empty message", "POST", "/api/messages", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "content": "  "}`, nil, 400, "the message is empty"},
		{"unregistered command", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "fly"}`, nil, 400, "command /fly is not registered"},
		{"missing required option", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "survival challenge"}`, nil, 400, `required option "opponent" missing`},
		{"a choice that is not one", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "survival challenge", "options": [{"name": "opponent", "value": "` + alice + `"}, {"name": "color", "value": "green"}]}`, nil, 400, "not one of the registered choices"},
		{"object option", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "move", "options": [{"name": "move", "value": {"x": 1}}]}`, nil, 400, `a file has filename, content_type and data, not "x"`},
		{"list option", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "move", "options": [{"name": "move", "value": [1]}]}`, nil, 400, "a value is a string, a number, a boolean or a file"},
		{"null option", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "move", "options": [{"name": "move", "value": null}]}`, nil, 400, `option "move" has no value`},
		{"no command", "POST", "/api/commands", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `"}`, nil, 400, "command is missing"},
		{"autocomplete without focus", "POST", "/api/autocomplete", "application/json", `{"as": "` + alice + `", "channel_id": "` + general + `", "command": "move", "options": []}`, nil, 400, "exactly one Focused option"},
		{"unknown message", "POST", "/api/click", "application/json", `{"as": "` + alice + `", "message_id": "9", "custom_id": "x"}`, nil, 404, `unknown message "9"`},
		{"bad poll version", "GET", "/api/poll?since=soon", "", "", nil, 400, "since must be the version"},
		{"view of an unknown user", "GET", "/api/view?as=42", "", "", nil, 404, `unknown user "42"`},
		{"bad attachment URL", "GET", "/api/attachments/1/2", "", "", nil, 404, "an attachment URL is"},
		{"another site's page posting here", "POST", "/api/messages", "application/json", `{}`, map[string]string{"Origin": "http://evil.example"}, 403, "requests from other sites"},
		{"DNS rebinding", "GET", "/api/status", "", "", map[string]string{"Host": "evil.example:80"}, 421, "answers requests for 127.0.0.1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body *strings.Reader
			if c.body != "" || c.method == "POST" {
				body = strings.NewReader(c.body)
			}
			var r resp
			if body != nil {
				r = tp.request(c.method, c.path, c.contentType, body, c.header)
			} else {
				r = tp.request(c.method, c.path, c.contentType, nil, c.header)
			}
			require.Equal(t, c.status, r.status, "body %s", r.body)
			require.Equal(t, "application/json; charset=utf-8", r.header.Get("Content-Type"))
			require.Contains(t, r.errorText(t), c.want)
		})
	}
	// Nothing of it reached the channel.
	require.Empty(t, tp.view(alice, general).Messages)
}

func TestPageAssetsAreLocal(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	r := tp.get("/")
	require.Equal(t, 200, r.status)
	require.Equal(t, "text/html; charset=utf-8", r.header.Get("Content-Type"))
	require.Contains(t, string(r.body), "<title>SandTable Playground</title>")
	require.Contains(t, r.header.Get("Content-Security-Policy"), "default-src 'self'")
	for _, name := range []string{"/app.js", "/app.css", "/icon.svg", "/twemoji-LICENSE.txt"} {
		r := tp.get(name)
		require.Equal(t, 200, r.status, name)
	}
	// The emoji font is served from here, as a font.
	font := tp.get("/twemoji.woff2")
	require.Equal(t, 200, font.status)
	require.Equal(t, "font/woff2", font.header.Get("Content-Type"))
	require.Equal(t, "wOF2", string(font.body[:4]), "a WOFF2 file")
	require.Contains(t, string(tp.get("/app.css").body), `url("/twemoji.woff2")`)
	require.Equal(t, 404, tp.get("/nothing.js").status)
	require.Equal(t, 404, tp.get("/../go.mod").status)
	// Nothing refers to another host: no CDN script, font or style.
	err := fs.WalkDir(web, "web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(web, path)
		require.NoError(t, err)
		// The SVG namespace names, it does not fetch; nor does the font's licence, which the
		// page never loads.
		data = bytes.ReplaceAll(data, []byte(`http://www.w3.org/2000/svg`), nil)
		if path == "web/twemoji-LICENSE.txt" {
			return nil
		}
		for _, bad := range []string{"http://", "https://", "//cdn", "fonts.googleapis", "@import"} {
			require.NotContains(t, string(data), bad, "%s refers to %s", path, bad)
		}
		return nil
	})
	require.NoError(t, err)
}

// waitUntil checks cond every millisecond until it holds, failing the test
// after wait.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(wait)
	for !cond() {
		select {
		case <-tick.C:
		case <-deadline:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func TestLongPollWakesOnAChange(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig())
	alice, general := tp.userID("alice"), tp.channelID("general")
	v := tp.view(alice, general)
	done := make(chan resp, 1)
	go func() { done <- tp.get("/api/poll?since=" + strconv.FormatUint(v.Version, 10)) }()
	// Change only once the poll waits: an earlier change would answer it at
	// once, without waking anything.
	waitUntil(t, "the long poll to wait", func() bool { return tp.p.waitingPolls.Load() == 1 })
	tp.ok("/api/messages", map[string]any{"as": alice, "channel_id": general, "content": "wake up"})
	select {
	case r := <-done:
		require.Equal(t, 200, r.status)
		out := r.json(t)
		require.Equal(t, true, out["changed"])
		require.Greater(t, out["version"].(float64), float64(v.Version))
	case <-time.After(wait):
		t.Fatal("the long poll did not wake on a new message")
	}
	// A poll with an old version answers at once.
	r := tp.get("/api/poll?since=" + strconv.FormatUint(v.Version, 10))
	require.Equal(t, true, r.json(t)["changed"])
}

func TestThePageAnswersBeforeTheBotConnects(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	tp := startPlaygroundNoWait(t, "", testConfig(), hold)
	require.Contains(t, tp.stdout.String(), tp.p.URL(), "the URL is printed once the page is served")
	require.Equal(t, 200, tp.get("/").status)
	v := tp.view("", "")
	require.Equal(t, "connecting", v.Status.State)
	r := tp.post("/api/commands", map[string]any{"as": v.Me.ID, "channel_id": v.Channel.ID, "command": "games"})
	require.Equal(t, 503, r.status)
	require.Contains(t, r.errorText(t), "still connecting")
	close(hold)
	require.NoError(t, tp.p.WaitReady(wait))
	require.Equal(t, "ready", tp.view("", "").Status.State)
}

func TestAPlaygroundGameSurvivesARestart(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "playground.db")
	tp := startPlayground(t, db, testConfig())
	alice, bob := tp.userID("alice"), tp.userID("bob")
	thread := tp.survivalThread()
	tp.command(alice, thread, "move", opt("move", "g7g8q"))
	before := tp.waitView(bob, thread, "the move and bob's ping", func(v view) bool {
		n := len(v.Messages)
		return n >= 2 && strings.Contains(v.Messages[0].text(), "g8=Q") && strings.Contains(v.Messages[n-1].text(), "your move")
	})
	dm := tp.ok("/api/dm", map[string]any{"as": alice})
	tp.stop()

	tp2 := startPlayground(t, db, testConfig())
	require.Equal(t, alice, tp2.userID("alice"), "the same people")
	after := tp2.view(bob, thread)
	require.Equal(t, "Survival · alice vs bob", after.Channel.Name, "the thread is back")
	require.Equal(t, len(before.Messages), len(after.Messages))
	for i := range before.Messages {
		require.Equal(t, before.Messages[i].ID, after.Messages[i].ID)
		require.Equal(t, before.Messages[i].text(), after.Messages[i].text())
	}
	// The board images are back, byte for byte.
	img := after.Messages[0].Attachments[0] // the live board
	r := tp2.get(img.URL)
	require.Equal(t, 200, r.status)
	require.Equal(t, img.Size, len(r.body))
	require.Equal(t, dm["id"], tp2.view(alice, "").DM.ID, "alice's DM is back")
	// The game goes on: the bot kept it in the same database.
	tp2.command(bob, thread, "move", opt("move", "e2e1k"))
	v := tp2.waitView(alice, thread, "the reply", func(v view) bool { return strings.Contains(v.Messages[0].text(), "e1=K") })
	require.Contains(t, v.Messages[0].text(), "e1=K", "the live board edited")
}

func TestATakenPortIsReplacedAndSaid(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	cfg := testConfig()
	cfg.Playground.Port = port
	tp := startPlayground(t, "", cfg)
	require.NotContains(t, tp.p.URL(), fmt.Sprintf(":%d/", port))
	require.Contains(t, tp.stderr.String(), fmt.Sprintf("Port %d is in use; the playground uses port", port))
	require.Equal(t, 200, tp.get("/").status)
}

func TestANonLoopbackAddressIsWarnedAbout(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.Playground.Address = "0.0.0.0"
	tp := startPlayground(t, "", cfg)
	require.Contains(t, tp.stderr.String(), "WARNING: the playground listens on 0.0.0.0")
	require.True(t, strings.HasPrefix(tp.p.URL(), "http://127.0.0.1:"), "the printed URL still works locally: %s", tp.p.URL())
	require.Equal(t, 200, tp.get("/").status)
}

func TestNewUsersAndChannelsInTheConfigAreAdded(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "playground.db")
	tp := startPlayground(t, db, testConfig())
	tp.stop()
	cfg := testConfig()
	cfg.Playground.Users = append(cfg.Playground.Users, "erin")
	cfg.Playground.Channels = append(cfg.Playground.Channels, "lobby")
	tp2 := startPlayground(t, db, cfg)
	v := tp2.view("", "")
	names := []string{}
	for _, u := range v.Users {
		names = append(names, u.Name)
	}
	require.Contains(t, names, "erin")
	require.Equal(t, "lobby", v.Channels[len(v.Channels)-1].Name)
}
