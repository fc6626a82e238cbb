package discordsim

import (
	"fmt"
	"io"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestAttachmentOption: a file given to an attachment option arrives in
// data.resolved.attachments, and its URL serves the bytes through the
// session's HTTP client.
func TestAttachmentOption(t *testing.T) {
	e := newEnv(t, &discordgo.ApplicationCommand{Name: "upload", Description: "upload a file", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionAttachment, Name: "file", Description: "the file", Required: true},
	}})
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		d := i.ApplicationCommandData()
		id, _ := d.Options[0].Value.(string)
		a := d.Resolved.Attachments[id]
		if a == nil || a.Filename != "layout.txt" || a.Size != 11 {
			e.fail(fmt.Errorf("resolved attachment %q: %+v", id, a))
			return
		}
		resp, err := s.Client.Get(a.URL)
		if err != nil {
			e.fail(err)
			return
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || string(body) != "9 IIIIIIII." {
			e.fail(fmt.Errorf("downloaded %q, %v", body, err))
			return
		}
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "got it"}})
	})
	if _, err := e.srv.Slash(e.alice, e.ch.ID, "upload", Opt("file", "not a file")); err == nil {
		t.Fatal("a string for an attachment option was accepted")
	}
	in, err := e.srv.Slash(e.alice, e.ch.ID, "upload", Opt("file", File{Name: "layout.txt", Data: []byte("9 IIIIIIII.")}))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.nextErr(); err != nil {
		t.Fatal(err)
	}
	if _, err := in.WaitMessage(wait, nil); err != nil {
		t.Fatal(err)
	}
}
