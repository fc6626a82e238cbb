package commands

import (
	"errors"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"
)

// TestGamesNeedATextChannel: challenges and lobbies are opened only in a
// server text channel, where the bot can create the game's threads.
func TestGamesNeedATextChannel(t *testing.T) {
	a, p := testApp(t)
	open := func(channel string, typ discordgo.ChannelType) []error {
		p.types[channel] = typ
		var errs []error
		for _, r := range []*Request{
			cmd(alice, "survival", "challenge", nil),
			cmd(alice, "sandtable", "challenge", nil),
			cmd(alice, "teamchess", "new", nil),
		} {
			r.ChannelID = channel
			if r.Command != "teamchess" {
				r.Options["opponent"] = Option{User: &bob}
			}
			_, err := a.Handle(r)
			errs = append(errs, err)
		}
		return errs
	}
	for _, err := range open("th9", discordgo.ChannelTypeGuildPublicThread) {
		require.Contains(t, userMsg(t, err), "Use this in a server text channel, not in a thread")
	}
	for _, err := range open("voice", discordgo.ChannelTypeGuildVoice) {
		require.Contains(t, userMsg(t, err), "this kind of channel cannot hold the game's threads")
	}
	for _, err := range open("general", discordgo.ChannelTypeGuildText) {
		require.NoError(t, err)
	}
}

// TestAcceptWhereThreadsCannotBe: a challenge whose channel cannot hold
// threads is closed at acceptance, saying why.
func TestAcceptWhereThreadsCannotBe(t *testing.T) {
	a, p := testApp(t)
	r := cmd(alice, "survival", "challenge", nil)
	r.Options["opponent"] = Option{User: &bob}
	resp, err := a.Handle(r)
	require.NoError(t, err)
	p.threadErr = errors.Join(ErrNoThreads, errors.New("HTTP 400"))
	acc, err := a.Handle(click(bob, buttonOf(t, resp.Message, "Accept")))
	require.NoError(t, err)
	require.True(t, acc.Update)
	require.Contains(t, acc.Embeds[0].Description, "This game cannot start here")
	require.Empty(t, acc.Components)
	_, err = a.Handle(click(bob, buttonOf(t, resp.Message, "Accept")))
	require.Contains(t, userMsg(t, err), "no longer open")
}
