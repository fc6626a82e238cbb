package discordsim

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func TestMultipartFilesAreStoredAndServed(t *testing.T) {
	e := newEnv(t, simpleCmd("board"))
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 0, 1, 2, 255}, 1000)
	mark := e.srv.CallCount()
	sent, err := e.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{
		Embeds: []*discordgo.MessageEmbed{{Title: "Board", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
		Files: []*discordgo.File{
			{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)},
			{Name: "game.pgn", Reader: strings.NewReader("1. e4 e5 *")},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := e.srv.Message(sent.ID)
	a, pgn := m.Attachment("board.png"), m.Attachment("game.pgn")
	if a == nil || !bytes.Equal(a.Data, png) || a.ContentType != "image/png" || pgn == nil || string(pgn.Data) != "1. e4 e5 *" {
		t.Fatalf("attachments %+v", m.Attachments)
	}
	if len(sent.Attachments) != 2 || sent.Attachments[0].Size != len(png) || sent.Attachments[0].URL != a.URL {
		t.Errorf("answer attachments %+v", sent.Attachments)
	}
	if m.Embeds[0].Image.URL != "attachment://board.png" {
		t.Errorf("embed image %q", m.Embeds[0].Image.URL)
	}
	// The attachment URL serves the bytes (through the redirecting client, like a CDN download).
	resp, err := e.srv.HTTPClient().Get(a.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(body, png) || resp.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET attachment: %d bytes, type %q", len(body), resp.Header.Get("Content-Type"))
	}
	// The call is recorded with its payload and files.
	c, err := e.srv.WaitCall(wait, func(c *Call) bool { return c.Seq > mark && c.Is("POST /channels/*/messages") })
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 2 || c.Files[0].Field != "files[0]" || c.Files[1].Name != "game.pgn" || c.Status != 200 {
		t.Errorf("call %v files %+v", c, c.Files)
	}
	if emb := c.JSON.(map[string]any)["embeds"].([]any); len(emb) != 1 {
		t.Errorf("payload_json %s", c.Body)
	}

	// A type 4 response with a file.
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Content: "start", Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}}})
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "board"))
	rm := must[*Message](t)(in.WaitMessage(wait, nil))
	if rm.Attachment("board.png") == nil || !bytes.Equal(rm.Attachment("board.png").Data, png) || len(in.Response().Files) != 1 {
		t.Errorf("response message %+v", rm)
	}
	e.noErrors()
}

func TestEditKeepsOrReplacesAttachments(t *testing.T) {
	e := newEnv(t)
	sent, err := e.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{Content: "v1",
		Files: []*discordgo.File{{Name: "a.png", Reader: strings.NewReader("A")}}})
	if err != nil {
		t.Fatal(err)
	}
	// No "attachments" key: the old file stays and the new one is added.
	_, err = e.sess.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: sent.ID, Channel: e.ch.ID,
		Files: []*discordgo.File{{Name: "b.png", Reader: strings.NewReader("B")}}})
	if err != nil {
		t.Fatal(err)
	}
	if m := e.srv.Message(sent.ID); len(m.Attachments) != 2 || m.Content != "v1" || m.Attachments[0].ContentType != "image/png" {
		t.Errorf("after append: %+v", m.Attachments)
	}
	// An empty "attachments" list drops the old files.
	content := "v3"
	_, err = e.sess.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: sent.ID, Channel: e.ch.ID, Content: &content,
		Attachments: &[]*discordgo.MessageAttachment{}, Files: []*discordgo.File{{Name: "c.png", Reader: strings.NewReader("C")}}})
	if err != nil {
		t.Fatal(err)
	}
	m := e.srv.Message(sent.ID)
	if len(m.Attachments) != 1 || m.Attachments[0].Filename != "c.png" || m.Content != "v3" || m.Version != 3 {
		t.Errorf("after replace: %+v", m)
	}
}

func TestDMsAndClosedDMs(t *testing.T) {
	e := newEnv(t)
	dm, err := e.sess.UserChannelCreate(e.alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if dm.Type != discordgo.ChannelTypeDM || len(dm.Recipients) != 1 || dm.Recipients[0].ID != e.alice.ID {
		t.Errorf("DM channel %+v", dm)
	}
	if again, _ := e.sess.UserChannelCreate(e.alice.ID); again == nil || again.ID != dm.ID {
		t.Error("a second UserChannelCreate made another channel")
	}
	if _, err := e.sess.ChannelMessageSend(dm.ID, "Your deployment, please"); err != nil {
		t.Fatal(err)
	}
	if vis := e.srv.VisibleMessages(e.alice, dm.ID); len(vis) != 1 || vis[0].Content != "Your deployment, please" {
		t.Errorf("alice's DMs: %v", vis)
	}
	if e.srv.CanSee(e.bob, dm.ID) || len(e.srv.VisibleMessages(e.bob, dm.ID)) != 0 {
		t.Error("bob sees alice's DMs")
	}

	e.srv.SetDMsClosed(e.bob, true)
	bobDM, err := e.sess.UserChannelCreate(e.bob.ID) // creating the channel still works
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.sess.ChannelMessageSend(bobDM.ID, "hello")
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response.StatusCode != 403 || re.Message == nil || re.Message.Code != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Fatalf("send to closed DMs: %v", err)
	}
	if len(e.srv.Messages(bobDM.ID)) != 0 {
		t.Error("a message was stored despite closed DMs")
	}
	e.srv.SetDMsClosed(e.bob, false)
	if _, err := e.sess.ChannelMessageSend(bobDM.ID, "hello"); err != nil {
		t.Errorf("after reopening DMs: %v", err)
	}
	// Bots cannot be DMed.
	other := e.srv.AddBot(t.Name() + "-bot")
	botDM, err := e.sess.UserChannelCreate(other.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, code := restCode(func() error { _, err := e.sess.ChannelMessageSend(botDM.ID, "x"); return err }()); code != discordgo.ErrCodeCannotSendMessagesToThisUser {
		t.Error("DM to a bot accepted")
	}
}

func TestSlashInDMUsesGlobalCommands(t *testing.T) {
	e := newEnv(t)
	dmAllowed, guildOnly := true, false
	cmds := []*discordgo.ApplicationCommand{
		{Name: "dmtest", Description: "usable in DMs", DMPermission: &dmAllowed},
		{Name: "guildonly", Description: "not in DMs", DMPermission: &guildOnly},
	}
	if _, err := e.sess.ApplicationCommandBulkOverwrite(e.srv.AppID(), "", cmds); err != nil {
		t.Fatal(err)
	}
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.User == nil || i.Member != nil || i.GuildID != "" {
			e.fail(errors.New("DM interaction must carry user, not member"))
			return
		}
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "dm ok"}})
	})
	dm := e.srv.DM(e.alice)
	in := must[*Interaction](t)(e.srv.Slash(e.alice, dm.ID, "dmtest"))
	m := must[*Message](t)(in.WaitMessage(wait, nil))
	if m.ChannelID != dm.ID || m.GuildID != "" {
		t.Errorf("response %+v", m)
	}
	if _, err := e.srv.Slash(e.alice, dm.ID, "guildonly"); err == nil {
		t.Error("a command with dm_permission false was usable in a DM")
	}
	if _, err := e.srv.Slash(e.bob, dm.ID, "dmtest"); err == nil {
		t.Error("bob used alice's DM channel")
	}
	names := []string{}
	for _, c := range e.srv.CommandsIn(dm.ID) {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "dmtest" {
		t.Errorf("commands in DM: %v", names)
	}
	e.noErrors()
}

func TestThreadsAndMembership(t *testing.T) {
	e := newEnv(t, moveCmd())
	// Private thread (type 12) with alice only.
	priv, err := e.sess.ThreadStartComplex(e.ch.ID, &discordgo.ThreadStart{Name: "alice vs bot", Type: discordgo.ChannelTypeGuildPrivateThread, Invitable: false})
	if err != nil {
		t.Fatal(err)
	}
	if priv.Type != discordgo.ChannelTypeGuildPrivateThread || priv.ParentID != e.ch.ID || priv.ThreadMetadata == nil {
		t.Errorf("thread %+v", priv)
	}
	if err := e.sess.ThreadMemberAdd(priv.ID, e.alice.ID); err != nil {
		t.Fatal(err)
	}
	if !e.srv.CanSee(e.alice, priv.ID) || e.srv.CanSee(e.bob, priv.ID) {
		t.Error("private thread visibility wrong after adding alice")
	}
	if err := e.srv.JoinThread(e.bob, priv.ID); err == nil {
		t.Error("bob joined a private thread uninvited")
	}
	if _, err := e.srv.Slash(e.bob, priv.ID, "move", Opt("move", "e4")); err == nil {
		t.Error("bob used a command in a private thread he cannot see")
	}
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "moved in " + i.ChannelID}})
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, priv.ID, "move", Opt("move", "e4")))
	if m := must[*Message](t)(in.WaitMessage(wait, nil)); m.ChannelID != priv.ID || m.Content != "moved in "+priv.ID {
		t.Errorf("answer in thread %+v", m)
	}
	if err := e.sess.ThreadMemberRemove(priv.ID, e.alice.ID); err != nil {
		t.Fatal(err)
	}
	if e.srv.CanSee(e.alice, priv.ID) {
		t.Error("alice still sees the private thread after removal")
	}

	// Without a type, API v9 makes a private thread.
	def, err := e.sess.ThreadStartComplex(e.ch.ID, &discordgo.ThreadStart{Name: "default"})
	if err != nil {
		t.Fatal(err)
	}
	if def.Type != discordgo.ChannelTypeGuildPrivateThread {
		t.Errorf("default thread type %d, want 12", def.Type)
	}

	// A public thread from a message has the message's ID and is visible to everyone.
	msg, err := e.sess.ChannelMessageSend(e.ch.ID, "Challenge accepted")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := e.sess.MessageThreadStartComplex(e.ch.ID, msg.ID, &discordgo.ThreadStart{Name: "alice vs bob", AutoArchiveDuration: 1440})
	if err != nil {
		t.Fatal(err)
	}
	if pub.ID != msg.ID || pub.Type != discordgo.ChannelTypeGuildPublicThread || !e.srv.CanSee(e.bob, pub.ID) {
		t.Errorf("public thread %+v", pub)
	}
	if m := e.srv.Message(msg.ID); m.ThreadID != pub.ID {
		t.Errorf("starter message %+v", m)
	}
	if _, err := e.sess.MessageThreadStartComplex(e.ch.ID, msg.ID, &discordgo.ThreadStart{Name: "again"}); err == nil {
		t.Error("second thread from one message accepted")
	}
	// A standalone public thread is announced in the parent channel.
	pub2, err := e.sess.ThreadStart(e.ch.ID, "open game", discordgo.ChannelTypeGuildPublicThread, 60)
	if err != nil {
		t.Fatal(err)
	}
	last := e.srv.LastMessage(e.ch.ID)
	if last.Type != discordgo.MessageTypeThreadCreated || last.ThreadID != pub2.ID {
		t.Errorf("thread announcement %+v", last)
	}
	threads := e.srv.Threads(e.ch.ID)
	if len(threads) != 4 {
		t.Errorf("%d threads, want 4", len(threads))
	}
	vis := e.srv.VisibleChannels(e.bob)
	seen := map[string]bool{}
	for _, c := range vis {
		seen[c.ID] = true
	}
	if !seen[e.ch.ID] || !seen[pub.ID] || !seen[pub2.ID] || seen[priv.ID] || seen[def.ID] {
		t.Errorf("bob's channels %v", vis)
	}
	// THREAD_CREATE reached discordgo (Guilds intent).
	if err := e.srv.WaitFor(wait, func() bool { _, err := e.sess.State.Channel(pub2.ID); return err == nil }); err != nil {
		t.Errorf("THREAD_CREATE not in discordgo state: %v", err)
	}
	e.noErrors()
}

func TestRateLimitThenSuccess(t *testing.T) {
	e := newEnv(t)
	mark := e.srv.CallCount()
	e.srv.RateLimitNext("POST /channels/"+e.ch.ID+"/messages", 2, 20*time.Millisecond)
	start := time.Now()
	m, err := e.sess.ChannelMessageSend(e.ch.ID, "after the rate limit")
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 40*time.Millisecond {
		t.Errorf("discordgo did not wait retry_after twice (took %v)", time.Since(start))
	}
	var statuses []int
	for _, c := range e.srv.CallsTo("POST /channels/*/messages") {
		if c.Seq > mark {
			statuses = append(statuses, c.Status)
			if c.Status == 429 && !c.Fault {
				t.Errorf("429 not marked as a fault: %v", c)
			}
		}
	}
	if len(statuses) != 3 || statuses[0] != 429 || statuses[1] != 429 || statuses[2] != 200 {
		t.Errorf("statuses %v, want [429 429 200]", statuses)
	}
	if msgs := e.srv.Messages(e.ch.ID); len(msgs) != 1 || msgs[0].ID != m.ID {
		t.Errorf("messages %v: the rate-limited attempts must not create messages", msgs)
	}

	// A global 429 (X-RateLimit-Global, X-RateLimit-Reset-After) is waited out as well.
	e.srv.FailNext("GET /users/*", 1, Fault{Status: 429, RetryAfter: 50 * time.Millisecond, Global: true, Message: "global"})
	start = time.Now()
	if _, err := e.sess.User(e.alice.ID); err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Errorf("global 429 not waited out (took %v)", time.Since(start))
	}
	if c := e.srv.CallsTo("GET /users/*"); c[len(c)-1].Status != 200 || c[len(c)-2].Status != 429 {
		t.Errorf("global 429 calls: %v", c)
	}
}

func TestServerErrorIsReturned(t *testing.T) {
	e := newEnv(t)
	e.srv.ServerErrorNext("/channels/**", 1)
	_, err := e.sess.ChannelMessageSend(e.ch.ID, "x")
	if status, _ := restCode(err); status != 500 {
		t.Fatalf("err %v, want a 500 RESTError", err)
	}
	if _, err := e.sess.ChannelMessageSend(e.ch.ID, "y"); err != nil {
		t.Fatalf("the fault outlived its count: %v", err)
	}
	if msgs := e.srv.Messages(e.ch.ID); len(msgs) != 1 || msgs[0].Content != "y" {
		t.Errorf("messages %v", msgs)
	}
	// Any status with a Discord code.
	e.srv.FailNext("PATCH /channels/*", 1, Fault{Status: 403, Code: discordgo.ErrCodeMissingPermissions, Message: "Missing Permissions"})
	name := "renamed"
	_, err = e.sess.ChannelEdit(e.ch.ID, &discordgo.ChannelEdit{Name: name})
	if _, code := restCode(err); code != discordgo.ErrCodeMissingPermissions {
		t.Errorf("custom fault: %v", err)
	}
}

func TestMessageLimitsAreEnforced(t *testing.T) {
	e := newEnv(t)
	cases := map[string]*discordgo.MessageSend{
		"empty":       {},
		"too long":    {Content: strings.Repeat("x", 2001)},
		"11 embeds":   {Embeds: make([]*discordgo.MessageEmbed, 11)},
		"empty field": {Embeds: []*discordgo.MessageEmbed{{Title: "t", Fields: []*discordgo.MessageEmbedField{{Name: "n"}}}}},
		"duplicate custom id": {Content: "x", Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "a", CustomID: "same"}, discordgo.Button{Label: "b", CustomID: "same"}}}}},
		"6 buttons": {Content: "x", Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "1", CustomID: "1"}, discordgo.Button{Label: "2", CustomID: "2"}, discordgo.Button{Label: "3", CustomID: "3"},
			discordgo.Button{Label: "4", CustomID: "4"}, discordgo.Button{Label: "5", CustomID: "5"}, discordgo.Button{Label: "6", CustomID: "6"}}}}},
		"button without id": {Content: "x", Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.Button{Label: "a"}}}}},
	}
	for name, msg := range cases {
		if name == "11 embeds" {
			for i := range msg.Embeds {
				msg.Embeds[i] = &discordgo.MessageEmbed{Title: "t"}
			}
		}
		_, err := e.sess.ChannelMessageSendComplex(e.ch.ID, msg)
		if status, _ := restCode(err); status != 400 {
			t.Errorf("%s: %v, want a 400", name, err)
		}
	}
	if n := len(e.srv.Messages(e.ch.ID)); n != 0 {
		t.Errorf("%d invalid messages stored", n)
	}
}

func TestCommandRegistrationIsValidated(t *testing.T) {
	e := newEnv(t)
	bad := map[string]*discordgo.ApplicationCommand{
		"uppercase name":          {Name: "Move", Description: "d"},
		"no description":          {Name: "move"},
		"required after optional": simpleCmd("move", strOpt("a", "a", false), strOpt("b", "b", true)),
		"mixed subcommands": simpleCmd("x", strOpt("a", "a", false),
			&discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "sub", Description: "s"}),
		"autocomplete with choices": simpleCmd("x", &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionString,
			Name: "a", Description: "a", Autocomplete: true, Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}),
	}
	for name, cmd := range bad {
		_, err := e.sess.ApplicationCommandBulkOverwrite(e.srv.AppID(), e.guild.ID, []*discordgo.ApplicationCommand{cmd})
		if status, code := restCode(err); status != 400 || code != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("%s: %v, want 400 50035", name, err)
		}
	}
	if len(e.srv.Commands(e.guild.ID)) != 0 {
		t.Error("invalid commands were stored")
	}
	// Overwrites keep command IDs by name and replace the whole set.
	first, err := e.sess.ApplicationCommandBulkOverwrite(e.srv.AppID(), e.guild.ID, []*discordgo.ApplicationCommand{simpleCmd("a"), simpleCmd("b")})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.sess.ApplicationCommandBulkOverwrite(e.srv.AppID(), e.guild.ID, []*discordgo.ApplicationCommand{simpleCmd("b")})
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 1 || second[0].ID != first[1].ID || second[0].GuildID != e.guild.ID {
		t.Errorf("overwrite: first %+v second %+v", first, second)
	}
	if err := e.srv.WaitCommands(50*time.Millisecond, e.ch.ID, "a"); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "a") {
		t.Errorf("WaitCommands for a removed command: %v", err)
	}
	if err := e.srv.WaitCommands(wait, e.ch.ID, "b"); err != nil {
		t.Error(err)
	}
}

func TestPostReachesTheBotWithoutContentIntent(t *testing.T) {
	e := newEnv(t)
	m, err := e.srv.Post(e.alice, e.ch.ID, "hello bot")
	if err != nil {
		t.Fatal(err)
	}
	var got *discordgo.MessageCreate
	e.srv.WaitFor(wait, func() bool {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		for _, mc := range shared.messages {
			if mc.ID == m.ID {
				got = mc
			}
		}
		return got != nil
	})
	if got == nil {
		t.Fatal("MESSAGE_CREATE never reached the bot")
	}
	if got.Author.ID != e.alice.ID || got.Content != "" {
		t.Errorf("MESSAGE_CREATE author %s content %q: without the MessageContent intent content must be empty", got.Author.ID, got.Content)
	}
	if vis := e.srv.VisibleMessages(e.bob, e.ch.ID); len(vis) != 1 || vis[0].Content != "hello bot" {
		t.Errorf("bob sees %v", vis)
	}
}

func TestWaitCallTimesOutWithContext(t *testing.T) {
	srv := shared.srv
	_, err := srv.WaitCall(20*time.Millisecond, CallTo("DELETE /nothing/like/this"))
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "last calls") {
		t.Errorf("err %v", err)
	}
}

func TestCallPatterns(t *testing.T) {
	c := &Call{Method: "POST", Path: "/interactions/1/tok/callback"}
	for pattern, want := range map[string]bool{
		"POST /interactions/*/*/callback":   true,
		"/interactions/*/*/callback":        true,
		"post /interactions/**":             true,
		"GET /interactions/*/*/callback":    false,
		"POST /interactions/*/callback":     false,
		"POST /interactions/*/*/callback/x": false,
	} {
		if c.Is(pattern) != want {
			t.Errorf("%q matched %v, want %v", pattern, !want, want)
		}
	}
}

func TestUnknownRoutesAndAuth(t *testing.T) {
	srv := shared.srv
	client := srv.HTTPClient()
	req, _ := http.NewRequest("GET", "https://discord.com/api/v9/users/@me", nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Errorf("no token: %d, want 401", resp.StatusCode)
	}
	req, _ = http.NewRequest("GET", "https://discord.com/api/v9/no/such/route", nil)
	req.Header.Set("Authorization", "Bot "+srv.Token())
	resp, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown route: %d, want 404", resp.StatusCode)
	}
}

func TestExportAndRestoreState(t *testing.T) {
	e := newEnv(t)
	board := postBoard(t, e)
	if _, err := e.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{Content: "file",
		Files: []*discordgo.File{{Name: "x.png", Reader: strings.NewReader("PNG")}}}); err != nil {
		t.Fatal(err)
	}
	e.srv.SetDMsClosed(e.bob, true)
	data, err := e.srv.ExportState()
	if err != nil {
		t.Fatal(err)
	}
	srv2 := Start(t, Options{State: data})
	if srv2.Bot().ID != e.srv.Bot().ID || srv2.UserByID(e.alice.ID) == nil || srv2.ChannelByID(e.ch.ID) == nil {
		t.Fatal("users or channels lost")
	}
	got := srv2.Message(board.ID)
	if got == nil || got.Button("g1:flip") == nil || got.SelectMenu("g1:promo") == nil || got.Embeds[0].Title != "White to move" {
		t.Errorf("restored board %+v", got)
	}
	last := srv2.LastMessage(e.ch.ID)
	if last.Attachment("x.png") == nil || string(last.Attachment("x.png").Data) != "PNG" {
		t.Errorf("restored attachment %+v", last)
	}
	if got.Author != srv2.Bot() {
		t.Error("restored author not linked to the bot user")
	}
	// New IDs stay above the old ones, and closed DMs stay closed.
	if u := srv2.User("newcomer"); !idLess(board.ID, u.ID) {
		t.Errorf("new ID %s not above %s", u.ID, board.ID)
	}
	if !srv2.st.dmsClosed[e.bob.ID] {
		t.Error("closed DMs not restored")
	}
	e.srv.SetDMsClosed(e.bob, false)
}

func TestRedirectForAnotherProcess(t *testing.T) {
	srv := shared.srv
	s, _ := discordgo.New("Bot " + srv.Token())
	if err := Redirect(s, srv.URL()); err != nil {
		t.Fatal(err)
	}
	u, err := s.User("@me")
	if err != nil || u.ID != srv.Bot().ID {
		t.Fatalf("User(@me) through Redirect = %v, %v", u, err)
	}
	for _, bad := range []string{"", "ftp://127.0.0.1:1", "127.0.0.1:80"} {
		if err := Redirect(s, bad); err == nil {
			t.Errorf("Redirect(%q) accepted", bad)
		}
	}
	if _, err := New(Options{Addr: "0.0.0.0:0"}); err == nil {
		t.Error("a non-loopback address was accepted")
	}
}

func TestKeepCallsBoundsTheRecord(t *testing.T) {
	srv := Start(t, Options{KeepCalls: 3})
	s := srv.NewSession()
	for range 10 {
		if _, err := s.User("@me"); err != nil {
			t.Fatal(err)
		}
	}
	calls := srv.Calls()
	if len(calls) != 3 || calls[2].Seq != 10 || srv.CallCount() != 10 {
		t.Errorf("kept %d calls, last seq %d, count %d", len(calls), calls[len(calls)-1].Seq, srv.CallCount())
	}
}

// Many users at once: every interaction is answered once, in its own channel. Run with -race.
func TestConcurrentInteractions(t *testing.T) {
	e := newEnv(t, simpleCmd("echo", strOpt("text", "text", true)))
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		text := i.ApplicationCommandData().Options[0].StringValue()
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: text}})
	})
	const n = 20
	type sent struct {
		in   *Interaction
		text string
	}
	ins := make(chan sent, n)
	errs := make(chan error, n)
	for k := range n {
		go func() {
			u := e.alice
			if k%2 == 1 {
				u = e.bob
			}
			text := fmt.Sprint("msg ", k)
			in, err := e.srv.Slash(u, e.ch.ID, "echo", Opt("text", text))
			if err != nil {
				errs <- err
				return
			}
			ins <- sent{in, text}
		}()
	}
	for range n {
		select {
		case err := <-errs:
			t.Fatal(err)
		case x := <-ins:
			m, err := x.in.WaitMessage(wait, nil)
			if err != nil {
				t.Fatal(err)
			}
			if m.Content != x.text {
				t.Errorf("interaction %s answered %q, want %q", x.in.ID, m.Content, x.text)
			}
		}
	}
	if got := len(e.srv.Messages(e.ch.ID)); got != n {
		t.Errorf("%d messages, want %d", got, n)
	}
	e.noErrors()
}

// TestTextIsMeasuredInCharacters: the fake measures Discord's limits in
// characters (code points) as Discord does, so multi-byte text of exactly
// a limit is accepted and one character more is refused; it refuses a body
// that is not UTF-8 (50109) and text holding U+FFFD, which is what
// encoding/json sends for a string cut inside a character (50035).
func TestTextIsMeasuredInCharacters(t *testing.T) {
	e := newEnv(t, simpleCmd("form"))
	dragons := func(n int) string { return strings.Repeat("🐉", n) }
	row := func(c discordgo.MessageComponent) []discordgo.MessageComponent {
		return []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{c}}}
	}
	sel := func(placeholder, description string) []discordgo.MessageComponent {
		return row(discordgo.SelectMenu{CustomID: "s", Placeholder: placeholder,
			Options: []discordgo.SelectMenuOption{{Label: dragons(100), Value: "v", Description: description}}})
	}
	for _, c := range []struct {
		name     string
		ok, over *discordgo.MessageSend
	}{
		{"content", &discordgo.MessageSend{Content: dragons(2000)}, &discordgo.MessageSend{Content: dragons(2001)}},
		{"embed title", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: dragons(256)}}},
			&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: dragons(257)}}}},
		{"author", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Author: &discordgo.MessageEmbedAuthor{Name: dragons(256)}}}},
			&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Author: &discordgo.MessageEmbedAuthor{Name: dragons(257)}}}}},
		{"button label", &discordgo.MessageSend{Components: row(discordgo.Button{Label: dragons(80), CustomID: "b"})},
			&discordgo.MessageSend{Components: row(discordgo.Button{Label: dragons(81), CustomID: "b"})}},
		{"select placeholder", &discordgo.MessageSend{Components: sel(dragons(150), "")}, &discordgo.MessageSend{Components: sel(dragons(151), "")}},
		{"option description", &discordgo.MessageSend{Components: sel("", dragons(100))}, &discordgo.MessageSend{Components: sel("", dragons(101))}},
		{"cut inside a character", &discordgo.MessageSend{Content: "象"}, &discordgo.MessageSend{Content: "象"[:2]}},
		{"cut inside a character, in an embed", &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "象"}}},
			&discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "a", Fields: []*discordgo.MessageEmbedField{{Name: "n", Value: "象"[:1]}}}}}},
	} {
		if _, err := e.sess.ChannelMessageSendComplex(e.ch.ID, c.ok); err != nil {
			t.Errorf("%s at the limit: %v", c.name, err)
		}
		if status, code := restCode(func() error { _, err := e.sess.ChannelMessageSendComplex(e.ch.ID, c.over); return err }()); status != 400 || code != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("%s over the limit: %d %d, want 400 50035", c.name, status, code)
		}
	}

	// Thread names: 100 characters of 4 bytes each are fine, 101 are not.
	if _, err := e.sess.ThreadStartComplex(e.ch.ID, &discordgo.ThreadStart{Name: dragons(100), Type: discordgo.ChannelTypeGuildPublicThread}); err != nil {
		t.Errorf("thread name of 100 characters: %v", err)
	}
	for _, name := range []string{dragons(101), dragons(10) + "🐉"[:3]} {
		_, err := e.sess.ThreadStartComplex(e.ch.ID, &discordgo.ThreadStart{Name: name, Type: discordgo.ChannelTypeGuildPublicThread})
		if status, _ := restCode(err); status != 400 {
			t.Errorf("thread name %q: %v, want a 400", name, err)
		}
	}

	// A body that is not UTF-8 at all (discordgo never sends one; another client might).
	_, err := e.sess.RequestRaw("POST", discordgo.EndpointChannelMessages(e.ch.ID), "application/json",
		[]byte("{\"content\":\"\xff\xfe\"}"), discordgo.EndpointChannelMessages(e.ch.ID), 0)
	if status, code := restCode(err); status != 400 || code != discordgo.ErrCodeTheRequestBodyContainsInvalidJSON {
		t.Errorf("body not UTF-8: %d %d (%v), want 400 50109", status, code, err)
	}

	// Modals: placeholder 100, value 4000 and within max_length.
	input := make(chan discordgo.TextInput, 1)
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(e, s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
			CustomID: "m", Title: dragons(45), Components: row(<-input)}})
	})
	for _, c := range []struct {
		name string
		in   discordgo.TextInput
		ok   bool
	}{
		{"at the limits", discordgo.TextInput{Label: dragons(45), Placeholder: dragons(100), Value: dragons(4000)}, true},
		{"label", discordgo.TextInput{Label: dragons(46)}, false},
		{"placeholder", discordgo.TextInput{Label: "l", Placeholder: dragons(101)}, false},
		{"value", discordgo.TextInput{Label: "l", Value: dragons(4001)}, false},
		{"value over max_length", discordgo.TextInput{Label: "l", Value: dragons(11), MaxLength: 10}, false},
		{"max_length", discordgo.TextInput{Label: "l", MaxLength: 4001}, false},
	} {
		c.in.CustomID, c.in.Style = "i", discordgo.TextInputShort
		input <- c.in
		must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "form"))
		if err := e.nextErr(); (err == nil) != c.ok {
			t.Errorf("modal %s: %v, want ok=%v", c.name, err, c.ok)
		}
	}
}
