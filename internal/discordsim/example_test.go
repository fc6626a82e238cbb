package discordsim_test

import (
	"fmt"
	"time"

	"github.com/bwmarrin/discordgo"

	"sandtable/internal/discordsim"
)

// A bot with one command, played end to end: register, slash, answer, read what a user sees.
func Example() {
	srv, err := discordsim.New(discordsim.Options{})
	if err != nil {
		panic(err)
	}
	defer srv.Close()

	// The bot under test: a real discordgo session pointed at the fake.
	sess := srv.NewSession()
	sess.Identify.Intents = discordgo.IntentsGuilds
	sess.AddHandler(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		s.InteractionRespond(i.Interaction, &discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "pong", Flags: discordgo.MessageFlagsEphemeral},
		})
	})
	if err := sess.Open(); err != nil {
		panic(err)
	}
	defer func() { sess.ShouldReconnectOnError = false; sess.Close() }()
	_, err = sess.ApplicationCommandBulkOverwrite(srv.AppID(), srv.Guild().ID,
		[]*discordgo.ApplicationCommand{{Name: "ping", Description: "Ping the bot"}})
	if err != nil {
		panic(err)
	}

	// The test side: a user types /ping.
	alice, bob := srv.User("alice"), srv.User("bob")
	general := srv.Channel("general")
	in, err := srv.Slash(alice, general.ID, "ping")
	if err != nil {
		panic(err)
	}
	reply, err := in.WaitMessage(5*time.Second, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(reply.Content, reply.Ephemeral())
	fmt.Println("alice sees", len(srv.VisibleMessages(alice, general.ID)), "message(s)")
	fmt.Println("bob sees", len(srv.VisibleMessages(bob, general.ID)), "message(s)")
	// Output:
	// pong true
	// alice sees 1 message(s)
	// bob sees 0 message(s)
}
