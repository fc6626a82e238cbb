package discordsim

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestComponentsV2LayoutsAreValidated: a Components V2 message (flag IS_COMPONENTS_V2) is kept
// as sent when it fits Discord's rules, and refused with 400 50035 as Discord refuses it when
// it does not: no content or embeds beside it, the allowed types where they may stand, 1 to 3
// texts and an accessory in a section, 1 to 10 gallery items, no container in a container, at
// most 40 components and 4000 characters of text, and the usual rules for its buttons.
func TestComponentsV2LayoutsAreValidated(t *testing.T) {
	e := newEnv(t)
	text := func(s string) discordgo.MessageComponent { return discordgo.TextDisplay{Content: s} }
	button := func(id string) discordgo.MessageComponent {
		return discordgo.Button{Label: "Go", CustomID: id, Style: discordgo.PrimaryButton}
	}
	container := func(cs ...discordgo.MessageComponent) discordgo.MessageComponent {
		return discordgo.Container{Components: cs}
	}
	send := func(m *discordgo.MessageSend) error {
		m.Flags |= discordgo.MessageFlagsIsComponentsV2
		_, err := e.sess.ChannelMessageSendComplex(e.ch.ID, m)
		return err
	}
	many := func(n int) []discordgo.MessageComponent {
		var cs []discordgo.MessageComponent
		for i := 0; i < n; i++ {
			cs = append(cs, text("line"))
		}
		return cs
	}
	good := &discordgo.MessageSend{Components: []discordgo.MessageComponent{container(
		text("### Board"),
		discordgo.Section{Components: []discordgo.MessageComponent{text("Last move")}, Accessory: button("g:1:flip")},
		discordgo.MediaGallery{Items: []discordgo.MediaGalleryItem{{Media: discordgo.UnfurledMediaItem{URL: "attachment://board.png"}}}},
		discordgo.Separator{},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{button("g:1:resign"), button("g:1:draw")}},
	)}}
	if err := send(good); err != nil {
		t.Fatalf("a valid layout was refused: %v", err)
	}
	msgs := e.srv.VisibleMessages(e.alice, e.ch.ID)
	last := msgs[len(msgs)-1]
	if last.Flags&discordgo.MessageFlagsIsComponentsV2 == 0 || len(last.Components) != 1 || last.Button("g:1:flip") == nil || last.Button("g:1:draw") == nil {
		t.Fatalf("the layout was not kept as sent: flags %d, %d components", last.Flags, len(last.Components))
	}
	if got := last.Text(); got != "### Board\nLast move" {
		t.Errorf("the layout's text reads %q", got)
	}
	if err := send(&discordgo.MessageSend{Components: many(40)}); err != nil {
		t.Errorf("40 components: %v", err)
	}

	three := discordgo.SeparatorSpacingSize(3) // 1 small and 2 large are the sizes
	bad := map[string]*discordgo.MessageSend{
		"content beside it":          {Content: "hi", Components: []discordgo.MessageComponent{text("x")}},
		"an embed beside it":         {Embeds: []*discordgo.MessageEmbed{{Title: "x"}}, Components: []discordgo.MessageComponent{text("x")}},
		"no component":               {Files: []*discordgo.File{{Name: "a.txt", Reader: strings.NewReader("a")}}},
		"41 components":              {Components: many(41)},
		"4001 characters of text":    {Components: []discordgo.MessageComponent{text(strings.Repeat("a", 2000)), text(strings.Repeat("b", 2001))}},
		"an empty text":              {Components: []discordgo.MessageComponent{text("")}},
		"a container in a container": {Components: []discordgo.MessageComponent{container(container(text("x")))}},
		"an empty container":         {Components: []discordgo.MessageComponent{container()}},
		"a section without accessory": {Components: []discordgo.MessageComponent{
			discordgo.Section{Components: []discordgo.MessageComponent{text("x")}}}},
		"a section of four texts": {Components: []discordgo.MessageComponent{
			discordgo.Section{Components: many(4), Accessory: button("g:1:a")}}},
		"an empty gallery": {Components: []discordgo.MessageComponent{discordgo.MediaGallery{}}},
		"eleven gallery items": {Components: []discordgo.MessageComponent{discordgo.MediaGallery{Items: func() []discordgo.MediaGalleryItem {
			var it []discordgo.MediaGalleryItem
			for i := 0; i < 11; i++ {
				it = append(it, discordgo.MediaGalleryItem{Media: discordgo.UnfurledMediaItem{URL: "attachment://b.png"}})
			}
			return it
		}()}}},
		"a file from the web":   {Components: []discordgo.MessageComponent{discordgo.FileComponent{File: discordgo.UnfurledMediaItem{URL: "https://example.com/a.pgn"}}}},
		"a duplicate custom ID": {Components: []discordgo.MessageComponent{container(discordgo.Section{Components: []discordgo.MessageComponent{text("x")}, Accessory: button("g:1:x")}, discordgo.ActionsRow{Components: []discordgo.MessageComponent{button("g:1:x")}})}},
		"six buttons in a row": {Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			button("a"), button("b"), button("c"), button("d"), button("e"), button("f")}}}},
		"a text input": {Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
			discordgo.TextInput{CustomID: "t", Label: "t", Style: discordgo.TextInputShort}}}}},
		"a bad separator": {Components: []discordgo.MessageComponent{discordgo.Separator{Spacing: &three}, text("x")}},
	}
	before := len(e.srv.VisibleMessages(e.alice, e.ch.ID))
	for name, m := range bad {
		if status, code := restCode(send(m)); status != 400 || code != discordgo.ErrCodeInvalidFormBody {
			t.Errorf("%s: got %d %d, want 400 50035", name, status, code)
		}
	}
	if n := len(e.srv.VisibleMessages(e.alice, e.ch.ID)); n != before {
		t.Errorf("refused layouts were stored: %d messages, want %d", n, before)
	}
}

// TestPeoplePostInArchivedButNotLockedThreads: as in Discord, a person's message unarchives an
// archived thread, and nobody without Manage Threads posts in a locked one.
func TestPeoplePostInArchivedButNotLockedThreads(t *testing.T) {
	e := newEnv(t)
	th, err := e.sess.ThreadStartComplex(e.ch.ID, &discordgo.ThreadStart{Name: "game", Type: discordgo.ChannelTypeGuildPublicThread})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := e.sess.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.Post(e.alice, th.ID, "gg"); err != nil {
		t.Fatalf("a message in an archived thread: %v", err)
	}
	if e.srv.ChannelByID(th.ID).Archived {
		t.Error("a message did not unarchive the thread")
	}
	if _, err := e.sess.ChannelEditComplex(th.ID, &discordgo.ChannelEdit{Archived: &yes, Locked: &yes}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.Post(e.alice, th.ID, "let me in"); err == nil || !strings.Contains(err.Error(), "locked thread") {
		t.Errorf("a message in a locked thread: %v, want a refusal", err)
	}
	if n := len(e.srv.VisibleMessages(e.alice, th.ID)); n != 1 {
		t.Errorf("%d messages in the thread, want 1", n)
	}
}
