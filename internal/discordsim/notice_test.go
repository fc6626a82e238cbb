package discordsim

import (
	"testing"

	"github.com/bwmarrin/discordgo"
)

// TestNotifications: a new message notifies the users it mentions as its
// allowed_mentions allow (all without one; none with an empty parse; the
// users listed), a direct message notifies its recipient, an edit nobody;
// a deleted message's notification stays recorded.
func TestNotifications(t *testing.T) {
	srv := Start(t, Options{})
	sess := srv.NewSession()
	ch := srv.Channel("general")
	alice, bob := srv.User("alice"), srv.User("bob")
	count := func(u *User) int { return len(srv.Notifications(u.ID)) }

	if _, err := sess.ChannelMessageSend(ch.ID, alice.Mention()+" and "+bob.Mention()); err != nil {
		t.Fatal(err)
	}
	if count(alice) != 1 || count(bob) != 1 {
		t.Fatalf("no allowed_mentions: both notified, got %d and %d", count(alice), count(bob))
	}
	quiet, err := sess.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{Content: alice.Mention() + ", your move",
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}})
	if err != nil {
		t.Fatal(err)
	}
	if count(alice) != 1 {
		t.Fatalf("an empty parse notifies nobody, got %d", count(alice))
	}
	if _, err := sess.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{Content: alice.Mention() + " " + bob.Mention(),
		AllowedMentions: &discordgo.MessageAllowedMentions{Users: []string{bob.ID}}}); err != nil {
		t.Fatal(err)
	}
	if count(alice) != 1 || count(bob) != 2 {
		t.Fatalf("only the users listed: got %d and %d", count(alice), count(bob))
	}
	pinging, err := sess.ChannelMessageSendComplex(ch.ID, &discordgo.MessageSend{Content: alice.Mention(),
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}})
	if err != nil {
		t.Fatal(err)
	}
	if count(alice) != 2 {
		t.Fatalf("parse users: notified, got %d", count(alice))
	}
	if _, err := sess.ChannelMessageEdit(ch.ID, quiet.ID, alice.Mention()+" again"); err != nil {
		t.Fatal(err)
	}
	if count(alice) != 2 {
		t.Fatalf("an edit notifies nobody, got %d", count(alice))
	}
	if err := sess.ChannelMessageDelete(ch.ID, pinging.ID); err != nil {
		t.Fatal(err)
	}
	if count(alice) != 2 {
		t.Fatalf("a deleted message's notification stays recorded, got %d", count(alice))
	}
	if err := sess.ChannelMessageDelete(ch.ID, pinging.ID); err == nil {
		t.Fatal("deleting a deleted message: 404")
	}
	dm, err := sess.UserChannelCreate(bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.ChannelMessageSend(dm.ID, "your move in a game"); err != nil {
		t.Fatal(err)
	}
	if count(bob) != 3 {
		t.Fatalf("a direct message notifies its recipient, got %d", count(bob))
	}
}
