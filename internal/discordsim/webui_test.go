package discordsim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
)

func TestExportStateSplitKeepsFilesApart(t *testing.T) {
	e := newEnv(t)
	png := bytes.Repeat([]byte("PNG!"), 500)
	sent, err := e.sess.ChannelMessageSendComplex(e.ch.ID, &discordgo.MessageSend{Content: "board",
		Files: []*discordgo.File{{Name: "board.png", ContentType: "image/png", Reader: bytes.NewReader(png)}}})
	if err != nil {
		t.Fatal(err)
	}
	att := e.srv.Message(sent.ID).Attachment("board.png")
	state, files, err := e.srv.ExportStateSplit()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files[att.ID], png) {
		t.Fatalf("files[%s] has %d bytes, want the %d of the attachment", att.ID, len(files[att.ID]), len(png))
	}
	if bytes.Contains(state, []byte(`"data":"UE5HIV`)) {
		t.Error("the split state still carries attachment bytes")
	}
	// The live message keeps its bytes: the export copied, it did not strip in place.
	if !bytes.Equal(e.srv.Message(sent.ID).Attachment("board.png").Data, png) {
		t.Error("ExportStateSplit changed the live message")
	}

	srv2 := Start(t, Options{State: state, Files: files})
	got := srv2.Message(sent.ID).Attachment("board.png")
	if got == nil || !bytes.Equal(got.Data, png) {
		t.Fatalf("restored attachment %+v", got)
	}
	// Without the files the state is refused with a clear error, not restored with holes.
	if _, err := New(Options{State: state}); err == nil || !strings.Contains(err.Error(), "has no data") {
		t.Errorf("restore without files: %v", err)
	}
}

func TestMessagesRecordTheirInteraction(t *testing.T) {
	e := newEnv(t, simpleCmd("hello"))
	e.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		respond(e, s, i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "hi"}})
	})
	in := must[*Interaction](t)(e.srv.Slash(e.alice, e.ch.ID, "hello"))
	m := must[*Message](t)(in.WaitMessage(wait, nil))
	mi := m.Interaction
	if mi == nil || mi.ID != in.ID || mi.UserID != e.alice.ID || mi.Command != "hello" || mi.Type != discordgo.InteractionApplicationCommand {
		t.Fatalf("interaction metadata %+v", mi)
	}
	// It survives an export and a restore.
	data, err := e.srv.ExportState()
	if err != nil {
		t.Fatal(err)
	}
	srv2 := Start(t, Options{State: data})
	if got := srv2.Message(m.ID).Interaction; got == nil || *got != *mi {
		t.Errorf("restored metadata %+v, want %+v", got, mi)
	}
	e.noErrors()
}
