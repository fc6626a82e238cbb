package bot

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/commands/ui"
)

// TestEncodeMessage: a ui.Message becomes the discordgo embeds, rows and
// files Discord expects: cards show their images by attachment URL, empty
// footers and images are left out, routes become custom IDs, and a nil
// list stays nil while an empty one stays empty (an edit that clears).
func TestEncodeMessage(t *testing.T) {
	t.Parallel()
	m := ui.Message{
		Content: "hi",
		Cards: []*ui.Card{
			{Title: "t", Description: "d", URL: "https://example.org", Color: 0x123456, Footer: "f", Image: "board.png",
				Thumbnail: "small.png", Author: "a", Fields: []*ui.Field{{Name: "n", Value: "v", Inline: true}}},
			{Description: "plain"},
		},
		Files: []*ui.File{{Name: "board.png", ContentType: "image/png", Data: []byte("png")}},
		Rows: []ui.Row{
			{ui.Button{Label: "Go", Style: ui.Success, Route: "g:abc:go"}, ui.Button{Label: "Web", Style: ui.Link, URL: "https://example.org", Emoji: "♟", Disabled: true}},
			{ui.Select{Route: "g:abc:pick", Placeholder: "p", MinValues: 1, MaxValues: 2,
				Options: []ui.SelectOption{{Label: "A", Value: "a", Description: "first", Emoji: "🐉", Default: true}}}},
		},
	}
	p := encode(m)
	require.Equal(t, "hi", p.Content)
	require.Len(t, p.Embeds, 2)
	e := p.Embeds[0]
	require.Equal(t, "t", e.Title)
	require.Equal(t, "https://example.org", e.URL)
	require.Equal(t, 0x123456, e.Color)
	require.Equal(t, "f", e.Footer.Text)
	require.Equal(t, "attachment://board.png", e.Image.URL)
	require.Equal(t, "attachment://small.png", e.Thumbnail.URL)
	require.Equal(t, "a", e.Author.Name)
	require.Equal(t, []*discordgo.MessageEmbedField{{Name: "n", Value: "v", Inline: true}}, e.Fields)
	plain := p.Embeds[1]
	require.Nil(t, plain.Footer)
	require.Nil(t, plain.Image)
	require.Nil(t, plain.Thumbnail)
	require.Nil(t, plain.Author)

	require.Len(t, p.Components, 2)
	buttons := p.Components[0].(discordgo.ActionsRow).Components
	require.Equal(t, discordgo.Button{Label: "Go", Style: discordgo.SuccessButton, CustomID: "g:abc:go"}, buttons[0])
	require.Equal(t, discordgo.Button{Label: "Web", Style: discordgo.LinkButton, URL: "https://example.org",
		Emoji: &discordgo.ComponentEmoji{Name: "♟"}, Disabled: true}, buttons[1])
	sm := p.Components[1].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	require.Equal(t, "g:abc:pick", sm.CustomID)
	require.Equal(t, "p", sm.Placeholder)
	require.Equal(t, 1, *sm.MinValues)
	require.Equal(t, 2, sm.MaxValues)
	require.Equal(t, []discordgo.SelectMenuOption{{Label: "A", Value: "a", Description: "first",
		Emoji: &discordgo.ComponentEmoji{Name: "🐉"}, Default: true}}, sm.Options)

	require.Len(t, p.Files, 1)
	require.Equal(t, "board.png", p.Files[0].Name)
	require.Equal(t, "image/png", p.Files[0].ContentType)
	data, err := io.ReadAll(p.Files[0].Reader)
	require.NoError(t, err)
	require.Equal(t, "png", string(data))
	again, err := io.ReadAll(encode(m).Files[0].Reader)
	require.NoError(t, err)
	require.Equal(t, "png", string(again), "a message encoded twice sends its files twice")

	require.Nil(t, encode(ui.Message{}).Embeds)
	require.Nil(t, encode(ui.Message{}).Components)
	cleared := encode(ui.Message{Cards: []*ui.Card{}, Rows: []ui.Row{}})
	require.NotNil(t, cleared.Embeds)
	require.Empty(t, cleared.Embeds)
	require.NotNil(t, cleared.Components)
	require.Empty(t, cleared.Components)
}

// TestEncodeButtonStyles: every ui style has its own Discord style, and the
// zero style is Discord's default (primary).
func TestEncodeButtonStyles(t *testing.T) {
	t.Parallel()
	seen := map[discordgo.ButtonStyle]bool{}
	for _, s := range []ui.ButtonStyle{ui.Primary, ui.Secondary, ui.Success, ui.Danger, ui.Link} {
		d := encodeButton(ui.Button{Style: s}).Style
		require.NotZero(t, d)
		require.False(t, seen[d], "style %d", s)
		seen[d] = true
	}
	require.Equal(t, discordgo.PrimaryButton, encodeButton(ui.Button{}).Style)
}

// TestEncodeCommands: slash command definitions keep every field the bot
// uses, and option types map both ways.
func TestEncodeCommands(t *testing.T) {
	t.Parallel()
	no := false
	defs := encodeCommands([]*ui.Command{{Name: "move", Description: "d", DMPermission: &no, Options: []*ui.CommandOption{
		{Type: ui.String, Name: "move", Description: "m", Required: true, Autocomplete: true, MaxLength: 200},
		{Type: ui.Subcommand, Name: "sub", Description: "s", Options: []*ui.CommandOption{
			{Type: ui.String, Name: "color", Description: "c", Choices: []*ui.Choice{{Name: "White", Value: "white"}}},
		}},
	}}, {Name: "games", Description: "g"}})
	require.Len(t, defs, 2)
	require.Equal(t, &discordgo.ApplicationCommand{Name: "move", Description: "d", DMPermission: &no, Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionString, Name: "move", Description: "m", Required: true, Autocomplete: true, MaxLength: 200},
		{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "sub", Description: "s", Options: []*discordgo.ApplicationCommandOption{
			{Type: discordgo.ApplicationCommandOptionString, Name: "color", Description: "c",
				Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "White", Value: "white"}}},
		}},
	}}, defs[0])
	require.Nil(t, defs[1].DMPermission)
	require.Nil(t, defs[1].Options)

	for u, d := range optionTypes {
		require.Equal(t, u, optionType(d))
	}
	require.Len(t, optionTypes, 9)
	require.Zero(t, optionType(discordgo.ApplicationCommandOptionMentionable))

	// A managers' command: default member permissions, servers only, a
	// text channel option and a role option.
	perm := ui.ManageGuild
	admin := encodeCommands([]*ui.Command{{Name: "admin", Description: "a", DefaultMemberPermissions: &perm, GuildOnly: true,
		Options: []*ui.CommandOption{{Type: ui.Channel, Name: "ch", Description: "c", TextChannels: true}, {Type: ui.Role, Name: "r", Description: "r"}}}})[0]
	require.Equal(t, int64(discordgo.PermissionManageGuild), *admin.DefaultMemberPermissions)
	require.Equal(t, []discordgo.InteractionContextType{discordgo.InteractionContextGuild}, *admin.Contexts)
	require.Equal(t, []discordgo.ChannelType{discordgo.ChannelTypeGuildText}, admin.Options[0].ChannelTypes)
	require.Equal(t, discordgo.ApplicationCommandOptionRole, admin.Options[1].Type)
	require.Nil(t, defs[0].Contexts, "other commands keep Discord's default contexts")
}

// TestChannelTypes: text channels and each kind of thread are told apart;
// anything else is OtherChannel.
func TestChannelTypes(t *testing.T) {
	t.Parallel()
	require.Equal(t, ui.TextChannel, channelType(discordgo.ChannelTypeGuildText))
	require.Equal(t, ui.PublicThread, channelType(discordgo.ChannelTypeGuildPublicThread))
	require.Equal(t, ui.PrivateThread, channelType(discordgo.ChannelTypeGuildPrivateThread))
	require.Equal(t, ui.NewsThread, channelType(discordgo.ChannelTypeGuildNewsThread))
	for _, c := range []discordgo.ChannelType{discordgo.ChannelTypeGuildVoice, discordgo.ChannelTypeDM, discordgo.ChannelTypeGuildForum, discordgo.ChannelTypeGuildCategory} {
		require.Equal(t, ui.OtherChannel, channelType(c))
	}
}

// TestPlatformError: a REST error becomes a commands.PlatformError with
// Discord's status, code and message, keeping its text and the original
// error; any other error passes unchanged.
func TestPlatformError(t *testing.T) {
	t.Parallel()
	re := &discordgo.RESTError{Response: &http.Response{StatusCode: 403, Status: "403 Forbidden"},
		Message: &discordgo.APIErrorMessage{Code: 50013, Message: "Missing Permissions"}}
	err := platformError(fmt.Errorf("starting: %w", re))
	var pe *commands.PlatformError
	require.True(t, errors.As(err, &pe))
	require.Equal(t, commands.PlatformError{HTTPStatus: 403, Status: "403 Forbidden", Code: 50013, Message: "Missing Permissions", Err: pe.Err}, *pe)
	require.Equal(t, "starting: "+re.Error(), err.Error())
	var back *discordgo.RESTError
	require.True(t, errors.As(err, &back), "the REST error is still there for the adapter")

	bare := platformError(&discordgo.RESTError{Response: &http.Response{StatusCode: 502, Status: "502 Bad Gateway"}})
	require.True(t, errors.As(bare, &pe))
	require.Equal(t, 502, pe.HTTPStatus)
	require.Zero(t, pe.Code)

	other := errors.New("dial tcp: refused")
	require.Same(t, other, platformError(other))
	require.NoError(t, platformError(nil))
}
