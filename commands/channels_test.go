package commands

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
)

// TestGamesNeedATextChannel: challenges and lobbies are opened only in a
// server text channel, where the bot can create the game's threads.
func TestGamesNeedATextChannel(t *testing.T) {
	a, p := testApp(t)
	open := func(channel string, typ ui.ChannelType) []error {
		p.types[channel] = typ
		var errs []error
		for _, r := range []*Request{ // Survival and SandTable: commands/survival's and commands/sandtable's tests of the same name
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
	for _, err := range open("th9", ui.PublicThread) {
		require.Contains(t, userMsg(t, err), "Use this in a server text channel, not in a thread")
	}
	for _, err := range open("voice", ui.OtherChannel) {
		require.Contains(t, userMsg(t, err), "this kind of channel cannot hold the game's threads")
	}
	for _, err := range open("general", ui.TextChannel) {
		require.NoError(t, err)
	}
}

// TestDiscordReason: what a user is told Discord said comes from the
// PlatformError the adapter wraps a REST error in: Discord's message
// (escaped) and code, else the HTTP status, else the error's text.
func TestDiscordReason(t *testing.T) {
	cause := errors.New("HTTP 403 Forbidden, {\"message\": \"Missing Permissions\", \"code\": 50013}")
	withMessage := &PlatformError{HTTPStatus: 403, Status: "403 Forbidden", Code: 50013, Message: "Missing *Permissions*", Err: cause}
	require.Equal(t, `"Missing \*Permissions\*" (error 50013)`, discordReason(fmt.Errorf("thread: %w", withMessage)))
	statusOnly := &PlatformError{HTTPStatus: 502, Status: "502 Bad Gateway", Err: cause}
	require.Equal(t, "502 Bad Gateway", discordReason(statusOnly))
	require.Equal(t, "connection reset", discordReason(errors.New("connection reset")))
}
