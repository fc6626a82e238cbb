package discordsim

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func survivalCmd() *discordgo.ApplicationCommand {
	minMoves := 1.0
	return &discordgo.ApplicationCommand{Name: "survival", Description: "Survival Chess", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "challenge", Description: "challenge someone", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionUser, Name: "opponent", Description: "who", Required: true},
			{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "your colour", Choices: []*discordgo.ApplicationCommandOptionChoice{
				{Name: "white", Value: "white"}, {Name: "black", Value: "black"}, {Name: "random", Value: "random"}}},
			{Type: discordgo.ApplicationCommandOptionInteger, Name: "moves", Description: "a number", MinValue: &minMoves, MaxValue: 500},
			{Type: discordgo.ApplicationCommandOptionBoolean, Name: "rated", Description: "rated?"},
		}},
		{Type: discordgo.ApplicationCommandOptionSubCommandGroup, Name: "admin", Description: "admin tools", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "purge", Description: "purge games"},
		}},
	}}
}

func moveCmd() *discordgo.ApplicationCommand {
	return &discordgo.ApplicationCommand{Name: "move", Description: "make a move", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "SAN or UCI", Required: true, Autocomplete: true},
		{Type: discordgo.ApplicationCommandOptionInteger, Name: "game", Description: "game number", Autocomplete: true},
	}}
}

func TestSlashWithSubcommandAndOptions(t *testing.T) {
	e := newEnv(t, survivalCmd())
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		d := i.ApplicationCommandData()
		if i.Type != discordgo.InteractionApplicationCommand || d.Name != "survival" || len(d.Options) != 1 {
			e.fail(fmt.Errorf("unexpected data %+v", d))
			return
		}
		sub := d.Options[0]
		if sub.Name == "admin" {
			if sub.Type != discordgo.ApplicationCommandOptionSubCommandGroup || sub.Options[0].Name != "purge" {
				e.fail(fmt.Errorf("group: %+v", sub))
			}
			respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "purged"}})
			return
		}
		if sub.Type != discordgo.ApplicationCommandOptionSubCommand || sub.Name != "challenge" {
			e.fail(fmt.Errorf("subcommand: %+v", sub))
			return
		}
		opp := sub.GetOption("opponent")
		color := sub.GetOption("color")
		moves := sub.GetOption("moves")
		rated := sub.GetOption("rated")
		if opp == nil || color == nil || moves == nil || rated == nil {
			e.fail(fmt.Errorf("missing options: %+v", sub.Options))
			return
		}
		// Typed getters panic on a mismatch, so these also check the JSON types.
		u := opp.UserValue(nil)
		resolved := d.Resolved.Users[u.ID]
		member := d.Resolved.Members[u.ID]
		if resolved == nil || member == nil || i.Member == nil || i.Member.User.ID != e.alice.ID || i.GuildID != e.guild.ID {
			e.fail(fmt.Errorf("resolved %v member %v invoker %+v", resolved, member, i.Member))
			return
		}
		if i.Member.Permissions == 0 || i.AppID != e.srv.AppID() || i.ChannelID != e.ch.ID {
			e.fail(fmt.Errorf("interaction fields: %+v", i.Interaction))
			return
		}
		respond(e, s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{
				Content: fmt.Sprintf("%s challenges %s as %s, %d moves, rated %v", i.Member.User.Username, resolved.Username,
					color.StringValue(), moves.IntValue(), rated.BoolValue()),
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Accept", CustomID: "g1:accept", Style: discordgo.SuccessButton},
					discordgo.Button{Label: "Decline", CustomID: "g1:decline", Style: discordgo.DangerButton},
				}}},
			}})
	})
	in, err := e.srv.Slash(e.alice, e.ch.ID, "survival challenge",
		Opt("opponent", e.bob), Opt("color", "black"), Opt("moves", 40), Opt("rated", true))
	if err != nil {
		t.Fatal(err)
	}
	m, err := in.WaitMessage(wait, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%s challenges %s as black, 40 moves, rated true", e.alice.Name, e.bob.Name)
	if m.Content != want {
		t.Errorf("content %q, want %q", m.Content, want)
	}
	if m.Author.ID != e.srv.Bot().ID || m.Type != discordgo.MessageTypeChatInputCommand || m.InteractionID != in.ID || m.Ephemeral() {
		t.Errorf("message %+v", m)
	}
	if b := m.Button("g1:accept"); b == nil || b.Label != "Accept" {
		t.Errorf("accept button: %+v", b)
	}
	for _, u := range []*User{e.alice, e.bob} {
		if vis := e.srv.VisibleMessages(u, e.ch.ID); len(vis) != 1 || vis[0].ID != m.ID {
			t.Errorf("%s sees %v", u.Name, vis)
		}
	}
	r := in.Response()
	if r.Type != discordgo.InteractionResponseChannelMessageWithSource || r.Data == nil || len(r.Data.Components) != 1 || r.Latency <= 0 {
		t.Errorf("recorded response %+v", r)
	}

	in, err = e.srv.Slash(e.bob, e.ch.ID, "survival admin purge")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := in.WaitMessage(wait, func(m *Message) bool { return m.Content == "purged" }); err != nil {
		t.Fatal(err)
	}
	e.noErrors()
}

func TestSlashRefusesWhatDiscordsClientWould(t *testing.T) {
	e := newEnv(t, survivalCmd(), moveCmd())
	cases := []struct {
		name, cmd string
		opts      []Option
		want      string
	}{
		{"unregistered", "chess", nil, "not registered"},
		{"missing subcommand", "survival", nil, "needs a subcommand"},
		{"unknown subcommand", "survival accept", nil, "no subcommand"},
		{"missing required", "survival challenge", nil, `required option "opponent"`},
		{"unknown option", "survival challenge", []Option{Opt("opponent", e.bob), Opt("speed", "fast")}, `no option "speed"`},
		{"wrong type", "survival challenge", []Option{Opt("opponent", e.bob), Opt("moves", "forty")}, "want a number"},
		{"not an integer", "survival challenge", []Option{Opt("opponent", e.bob), Opt("moves", 2.5)}, "want an integer"},
		{"below min", "survival challenge", []Option{Opt("opponent", e.bob), Opt("moves", 0)}, "range"},
		{"not a choice", "survival challenge", []Option{Opt("opponent", e.bob), Opt("color", "green")}, "choices"},
		{"unknown user", "survival challenge", []Option{Opt("opponent", "123")}, "known *User"},
		{"focused outside autocomplete", "move", []Option{Focused("move", "e4")}, "only for Autocomplete"},
	}
	for _, c := range cases {
		_, err := e.srv.Slash(e.alice, e.ch.ID, c.cmd, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to mention %q", c.name, err, c.want)
		}
	}
	// Guild commands are not usable in DMs or other guilds.
	if _, err := e.srv.Slash(e.alice, e.srv.DM(e.alice).ID, "move", Opt("move", "e4")); err == nil {
		t.Error("guild command used in a DM")
	}
	if _, err := e.srv.Slash(e.alice, e.srv.Channel("general").ID, "move", Opt("move", "e4")); err == nil {
		t.Error("guild command used in another guild")
	}
	for _, in := range e.srv.Interactions() {
		if in.User.ID == e.alice.ID {
			t.Errorf("a refused injection was sent: %+v", in)
		}
	}
}

func TestEphemeralResponseIsVisibleToItsUserOnly(t *testing.T) {
	e := newEnv(t, moveCmd())
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
			Content: "Illegal move: capture is mandatory", Flags: discordgo.MessageFlagsEphemeral}})
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "move", Opt("move", "e4")))
	m := must[*Message](t)(in.WaitMessage(wait, nil))
	if !m.Ephemeral() || m.VisibleTo != e.alice.ID {
		t.Fatalf("message %+v not ephemeral to alice", m)
	}
	if vis := e.srv.VisibleMessages(e.alice, e.ch.ID); len(vis) != 1 {
		t.Errorf("alice sees %d messages, want 1", len(vis))
	}
	if vis := e.srv.VisibleMessages(e.bob, e.ch.ID); len(vis) != 0 {
		t.Errorf("bob sees %v", vis)
	}
	// The bot cannot read ephemeral messages through channel endpoints.
	msgs, err := e.sess.ChannelMessages(e.ch.ID, 10, "", "", "")
	if err != nil || len(msgs) != 0 {
		t.Errorf("ChannelMessages = %v, %v; want none", msgs, err)
	}
	if _, err := e.sess.ChannelMessage(e.ch.ID, m.ID); err == nil {
		t.Error("ChannelMessage fetched an ephemeral message")
	}
	// But it can edit it through the interaction webhook.
	content := "edited"
	if _, err := e.sess.InteractionResponseEdit(e.nextInteraction().Interaction, &discordgo.WebhookEdit{Content: &content}); err != nil {
		t.Fatal(err)
	}
	if got := e.srv.Message(m.ID); got.Content != "edited" || !got.Ephemeral() || got.Version != 2 || got.EditedAt == nil {
		t.Errorf("after edit: %+v", got)
	}
	e.noErrors()
}

func TestAutocompleteChoicesAreStored(t *testing.T) {
	e := newEnv(t, moveCmd())
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if i.Type != discordgo.InteractionApplicationCommandAutocomplete {
			e.fail(fmt.Errorf("type %v", i.Type))
			return
		}
		d := i.ApplicationCommandData()
		var focused *discordgo.ApplicationCommandInteractionDataOption
		for _, o := range d.Options {
			if o.Focused {
				focused = o
			}
		}
		if focused == nil {
			e.fail(fmt.Errorf("no focused option in %+v", d.Options))
			return
		}
		typed, _ := focused.Value.(string) // always a string, even for an integer option
		n := 3
		if typed == "many" {
			n = 26
		}
		var choices []*discordgo.ApplicationCommandOptionChoice
		for k := range n {
			choices = append(choices, &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprintf("%s%d", typed, k), Value: fmt.Sprintf("%s%d", typed, k)})
		}
		respond(e, s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices}})
	})
	in := must[*Interaction](t)(e.srv.Autocomplete(e.alice, e.ch.ID, "move", Focused("move", "e2")))
	choices, err := in.WaitChoices(wait)
	if err != nil {
		t.Fatal(err)
	}
	if len(choices) != 3 || choices[0].Name != "e20" || choices[2].Value != "e22" {
		t.Errorf("choices %+v", choices)
	}
	if e.nextErr() != nil {
		t.Fatal("respond failed")
	}
	// The focused integer option arrives as the typed string.
	in = must[*Interaction](t)(e.srv.Autocomplete(e.alice, e.ch.ID, "move", Opt("move", "e4"), Focused("game", "1")))
	if _, err := in.WaitChoices(wait); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(in.Payload), `"focused":true,"name":"game","type":4,"value":"1"`) {
		t.Errorf("payload %s", in.Payload)
	}
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
	// Discord allows 25 choices: 26 is a 400 and nothing is stored.
	in = must[*Interaction](t)(e.srv.Autocomplete(e.alice, e.ch.ID, "move", Focused("move", "many")))
	err = e.nextErr()
	if status, code := restCode(err); status != 400 || code != discordgo.ErrCodeInvalidFormBody {
		t.Errorf("26 choices: %v", err)
	}
	if in.Choices() != nil || in.Response() != nil {
		t.Error("26 choices were stored")
	}
	if _, err := e.srv.Autocomplete(e.alice, e.ch.ID, "move"); err == nil {
		t.Error("autocomplete without a focused option accepted")
	}
}

// postBoard posts a message with an embed and buttons through the real session.
func postBoard(t *testing.T, e *env) *Message {
	t.Helper()
	sent, err := e.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{
		Content: "Board",
		Embeds:  []*discordgo.MessageEmbed{{Title: "White to move"}},
		Components: []discordgo.MessageComponent{
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.Button{Label: "Flip", CustomID: "g1:flip"},
				discordgo.Button{Label: "Off", CustomID: "g1:off", Disabled: true},
				discordgo.Button{Label: "Rules", Style: discordgo.LinkButton, URL: "https://example.invalid/rules"},
			}},
			discordgo.ActionsRow{Components: []discordgo.MessageComponent{
				discordgo.SelectMenu{CustomID: "g1:promo", Options: []discordgo.SelectMenuOption{
					{Label: "Queen", Value: "q"}, {Label: "King", Value: "k"}}},
			}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := e.srv.Message(sent.ID)
	if m == nil || len(sent.Components) != 2 {
		t.Fatalf("sent %+v, stored %+v", sent, m)
	}
	return m
}

func TestButtonUpdateMessageReplacesWhatDiscordgoSends(t *testing.T) {
	e := newEnv(t)
	board := postBoard(t, e)
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		d := i.MessageComponentData()
		if d.CustomID != "g1:flip" || d.ComponentType != discordgo.ButtonComponent || i.Message == nil || i.Message.ID != board.ID {
			e.fail(fmt.Errorf("component data %+v message %+v", d, i.Message))
			return
		}
		if len(i.Message.Components) != 2 || len(i.Message.Embeds) != 1 {
			e.fail(fmt.Errorf("interaction message lost components or embeds: %+v", i.Message))
			return
		}
		// Only content and components are set; discordgo still sends "embeds": null.
		respond(e, s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
			Data: &discordgo.InteractionResponseData{Content: "Flipped", Components: []discordgo.MessageComponent{
				discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Flip back", CustomID: "g1:flip"}}}}}})
	})
	in := must[*Interaction](t)(e.srv.Click(e.bob, board, "g1:flip"))
	m := must[*Message](t)(in.WaitMessage(wait, func(m *Message) bool { return m.Version == 2 }))
	if m.ID != board.ID || m.Content != "Flipped" || len(m.Embeds) != 0 || m.Button("g1:flip").Label != "Flip back" {
		t.Errorf("updated message %+v", m)
	}
	if board.Content != "Board" {
		t.Error("an old *Message changed")
	}
	for _, bad := range []string{"g1:off", "nope", ""} {
		if _, err := e.srv.Click(e.bob, board, bad); err == nil {
			t.Errorf("click on %q accepted", bad)
		}
	}
	e.noErrors()
}

func TestDeferredUpdateThenEditOriginal(t *testing.T) {
	e := newEnv(t)
	board := postBoard(t, e)
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
			e.fail(err)
			return
		}
		content := "Promoted to " + i.MessageComponentData().Values[0]
		_, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
		e.fail(err)
	})
	in := must[*Interaction](t)(e.srv.Select(e.alice, board, "g1:promo", "k"))
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
	m := in.Message()
	if m == nil || m.ID != board.ID || m.Content != "Promoted to k" || len(m.Embeds) != 1 || len(m.Components) != 2 {
		t.Errorf("after deferred update and edit: %+v", m)
	}
	if r := in.Response(); r.Type != discordgo.InteractionResponseDeferredMessageUpdate {
		t.Errorf("response %+v", r)
	}
	if _, err := e.srv.Select(e.alice, board, "g1:promo", "x"); err == nil {
		t.Error("select of a value that is not an option accepted")
	}
	if _, err := e.srv.Select(e.alice, board, "g1:promo", "q", "k"); err == nil {
		t.Error("two values for a single select accepted")
	}
}

// TestWaitReplyAfterADeferredUpdate: after a deferred update the answer is
// the follow-up or the clicked message edited, never the clicked message as
// it was (which WaitMessage returns at once).
func TestWaitReplyAfterADeferredUpdate(t *testing.T) {
	e := newEnv(t)
	board := postBoard(t, e)
	release := make(chan struct{})
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}); err != nil {
			e.fail(err)
			return
		}
		<-release
		if i.MessageComponentData().Values[0] == "k" {
			content := "Promoted to k"
			_, err := s.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content})
			e.fail(err)
			return
		}
		_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "Only you see this", Flags: discordgo.MessageFlagsEphemeral})
		e.fail(err)
	})
	in := must[*Interaction](t)(e.srv.Select(e.alice, board, "g1:promo", "q"))
	if _, err := in.WaitResponse(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if m, err := in.WaitMessage(time.Second, nil); err != nil || m.ID != board.ID {
		t.Fatalf("WaitMessage: %v, %v: the clicked message as it was", m, err)
	}
	if m, err := in.WaitReply(100*time.Millisecond, nil); err == nil {
		t.Fatalf("WaitReply before the answer returned %q", m.Content)
	}
	// Another edit of the clicked message (a live board updated by the
	// bot's outbox) is not the answer.
	other := "Live board, edited meanwhile"
	if _, err := e.sess.ChannelMessageEditComplex(&discordgo.MessageEdit{ID: board.ID, Channel: board.ChannelID, Content: &other}); err != nil {
		t.Fatal(err)
	}
	if m, err := in.WaitReply(100*time.Millisecond, nil); err == nil {
		t.Fatalf("WaitReply after another edit of the clicked message returned %q", m.Content)
	}
	release <- struct{}{}
	m, err := in.WaitReply(5*time.Second, nil)
	if err != nil || m.Content != "Only you see this" || m.ID == board.ID {
		t.Fatalf("WaitReply after the follow-up: %+v, %v", m, err)
	}
	in = must[*Interaction](t)(e.srv.Select(e.alice, board, "g1:promo", "k"))
	release <- struct{}{}
	m, err = in.WaitReply(5*time.Second, nil)
	if err != nil || m.ID != board.ID || m.Content != "Promoted to k" {
		t.Fatalf("WaitReply after the edit: %+v, %v", m, err)
	}
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
}

func TestModalOpenAndSubmit(t *testing.T) {
	e := newEnv(t, simpleCmd("deploy"))
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		switch i.Type {
		case discordgo.InteractionApplicationCommand:
			respond(e, s, i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: &discordgo.InteractionResponseData{
				CustomID: "g1:deploy", Title: "Deployment",
				Components: []discordgo.MessageComponent{
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{
						CustomID: "units", Label: "Units", Style: discordgo.TextInputParagraph, Required: true, MaxLength: 200}}},
					discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{
						CustomID: "note", Label: "Note", Style: discordgo.TextInputShort}}},
				}}})
		case discordgo.InteractionModalSubmit:
			d := i.ModalSubmitData()
			units := d.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.TextInput)
			respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{
				Content: d.CustomID + " " + units.CustomID + "=" + units.Value, Flags: discordgo.MessageFlagsEphemeral}})
		}
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "deploy"))
	if _, err := in.WaitResponse(wait); err != nil {
		t.Fatal(err)
	}
	md := in.Modal()
	if md == nil || md.Title != "Deployment" || len(md.Inputs) != 2 || e.srv.OpenModal(e.alice) != md || e.srv.OpenModal(e.bob) != nil {
		t.Fatalf("modal %+v", md)
	}
	if _, err := e.srv.SubmitModal(e.alice, map[string]string{"note": "hi"}); err == nil {
		t.Error("modal submitted without its required input")
	}
	if _, err := e.srv.SubmitModal(e.alice, map[string]string{"units": "x", "nope": "y"}); err == nil {
		t.Error("modal submitted with an unknown input")
	}
	sub := must[*Interaction](t)(e.srv.SubmitModal(e.alice, map[string]string{"units": "Tank a1, Drone b2"}))
	m := must[*Message](t)(sub.WaitMessage(wait, nil))
	if m.Content != "g1:deploy units=Tank a1, Drone b2" || m.VisibleTo != e.alice.ID {
		t.Errorf("answer %+v", m)
	}
	if e.srv.OpenModal(e.alice) != nil {
		t.Error("modal still open after submit")
	}
	e.noErrors()
}

func TestDeferredResponseEditAndFollowups(t *testing.T) {
	e := newEnv(t, simpleCmd("board"))
	png := []byte("\x89PNG fake board bytes")
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
		e.fail(err)
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "board"))
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
	i := e.nextInteraction()
	m := in.Message()
	if m == nil || !m.Loading() || m.Ephemeral() {
		t.Fatalf("deferred message %+v", m)
	}
	content := "Move 1"
	edited, err := e.sess.InteractionResponseEdit(i.Interaction, &discordgo.WebhookEdit{Content: &content,
		Embeds: &[]*discordgo.MessageEmbed{{Title: "Board", Image: &discordgo.MessageEmbedImage{URL: "attachment://board.png"}}},
		Files:  []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: strings.NewReader(string(png))}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(edited.Attachments) != 1 || edited.Attachments[0].Filename != "board.png" {
		t.Errorf("edit answered %+v", edited)
	}
	m = must[*Message](t)(in.WaitMessage(wait, nil))
	if m.Loading() || m.Content != "Move 1" || m.Attachment("board.png") == nil || string(m.Attachment("board.png").Data) != string(png) {
		t.Errorf("filled message %+v", m)
	}
	f1, err := e.sess.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "Your turn", Flags: discordgo.MessageFlagsEphemeral})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sess.FollowupMessageCreate(i.Interaction, false, &discordgo.WebhookParams{Content: "public"}); err != nil {
		t.Fatal(err)
	}
	fs := in.Followups()
	if len(fs) != 2 || fs[0].ID != f1.ID || fs[0].VisibleTo != e.alice.ID || fs[1].Ephemeral() || fs[1].Content != "public" {
		t.Errorf("followups %+v", fs)
	}
	if len(in.Messages()) != 3 {
		t.Errorf("Messages() = %d, want original and 2 follow-ups", len(in.Messages()))
	}
	if got := e.srv.VisibleMessages(e.bob, e.ch.ID); len(got) != 2 {
		t.Errorf("bob sees %d messages, want 2 (not alice's ephemeral follow-up)", len(got))
	}
	// An expired token refuses follow-ups with 50027.
	in.Expire()
	_, err = e.sess.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "late"})
	if status, code := restCode(err); status != 401 || code != discordgo.ErrCodeInvalidWebhookTokenProvided {
		t.Errorf("follow-up after expiry: %v", err)
	}
}

func TestFirstFollowupFillsDeferredEphemeral(t *testing.T) {
	e := newEnv(t, simpleCmd("games"))
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		if err := s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{Type: 5,
			Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}); err != nil {
			e.fail(err)
			return
		}
		// The follow-up asks for a public message, but fills the ephemeral "thinking" one.
		_, err := s.FollowupMessageCreate(i.Interaction, true, &discordgo.WebhookParams{Content: "You have no games"})
		e.fail(err)
	})
	in := must[*Interaction](t)(e.srv.Slash(e.bob, e.ch.ID, "games"))
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
	m := in.Message()
	if m == nil || m.Content != "You have no games" || m.Loading() || m.VisibleTo != e.bob.ID || len(in.Followups()) != 0 {
		t.Errorf("original %+v, follow-ups %v", m, in.Followups())
	}
}

func TestDoubleAcknowledgeFails(t *testing.T) {
	e := newEnv(t, simpleCmd("twice"))
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		r := &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "once"}}
		e.fail(s.InteractionRespond(i.Interaction, r))
		e.fail(s.InteractionRespond(i.Interaction, r))
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "twice"))
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
	if _, code := restCode(e.nextErr()); code != discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged {
		t.Error("second callback did not fail with 40060")
	}
	if n := len(e.srv.Messages(e.ch.ID)); n != 1 || in.Message().Content != "once" {
		t.Errorf("%d messages after a double acknowledge", n)
	}
}

func TestResponseTypeMustFitInteraction(t *testing.T) {
	e := newEnv(t, moveCmd())
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		// UPDATE_MESSAGE is only for components; a message is not an autocomplete answer.
		typ := discordgo.InteractionResponseUpdateMessage
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			typ = discordgo.InteractionResponseChannelMessageWithSource
		}
		respond(e, s, i, &discordgo.InteractionResponse{Type: typ, Data: &discordgo.InteractionResponseData{Content: "x"}})
	})
	must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "move", Opt("move", "e4")))
	if status, _ := restCode(e.nextErr()); status != 400 {
		t.Error("UPDATE_MESSAGE for a command accepted")
	}
	must[*Interaction](t)(e.srv.Autocomplete(e.alice, e.ch.ID, "move", Focused("move", "e")))
	if status, _ := restCode(e.nextErr()); status != 400 {
		t.Error("a message answering autocomplete accepted")
	}
	if n := len(e.srv.Messages(e.ch.ID)); n != 0 {
		t.Errorf("%d messages created by refused responses", n)
	}
}
