package bot

import (
	"bytes"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"

	"sandtable/commands"
	"sandtable/commands/ui"
)

// payload is a ui.Message encoded for discordgo: what a message send, edit
// or interaction answer carries.
type payload struct {
	Content    string
	Embeds     []*discordgo.MessageEmbed
	Components []discordgo.MessageComponent
	Files      []*discordgo.File
}

// outgoing is m encoded for Discord and fitted to its limits.
func outgoing(m commands.Message) payload { return fit(encode(m)) }

// encode turns the neutral message m into discordgo values. A nil list
// stays nil and an empty one stays empty. Each call reads the files afresh,
// so a message can be sent twice.
func encode(m ui.Message) payload {
	p := payload{Content: m.Content}
	if m.Cards != nil {
		p.Embeds = make([]*discordgo.MessageEmbed, 0, len(m.Cards))
		for _, c := range m.Cards {
			if c != nil {
				p.Embeds = append(p.Embeds, encodeCard(c))
			}
		}
	}
	if m.Rows != nil {
		p.Components = make([]discordgo.MessageComponent, 0, len(m.Rows))
		for _, r := range m.Rows {
			p.Components = append(p.Components, encodeRow(r))
		}
	}
	for _, f := range m.Files {
		if f != nil {
			p.Files = append(p.Files, &discordgo.File{Name: f.Name, ContentType: f.ContentType, Reader: bytes.NewReader(f.Data)})
		}
	}
	return p
}

// attachment is the URL by which an embed shows the message's file name.
func attachment(name string) string { return "attachment://" + name }

func encodeCard(c *ui.Card) *discordgo.MessageEmbed {
	e := &discordgo.MessageEmbed{Title: c.Title, Description: c.Description, URL: c.URL, Color: c.Color}
	if c.Fields != nil {
		e.Fields = make([]*discordgo.MessageEmbedField, 0, len(c.Fields))
		for _, f := range c.Fields {
			if f != nil {
				e.Fields = append(e.Fields, &discordgo.MessageEmbedField{Name: f.Name, Value: f.Value, Inline: f.Inline})
			}
		}
	}
	if c.Footer != "" {
		e.Footer = &discordgo.MessageEmbedFooter{Text: c.Footer}
	}
	if c.Image != "" {
		e.Image = &discordgo.MessageEmbedImage{URL: attachment(c.Image)}
	}
	if c.Thumbnail != "" {
		e.Thumbnail = &discordgo.MessageEmbedThumbnail{URL: attachment(c.Thumbnail)}
	}
	if c.Author != "" {
		e.Author = &discordgo.MessageEmbedAuthor{Name: c.Author}
	}
	return e
}

func encodeRow(r ui.Row) discordgo.ActionsRow {
	row := discordgo.ActionsRow{Components: make([]discordgo.MessageComponent, 0, len(r))}
	for _, c := range r {
		switch c := c.(type) {
		case ui.Button:
			row.Components = append(row.Components, encodeButton(c))
		case ui.Select:
			row.Components = append(row.Components, encodeSelect(c))
		}
	}
	return row
}

var buttonStyles = map[ui.ButtonStyle]discordgo.ButtonStyle{
	ui.Primary:   discordgo.PrimaryButton,
	ui.Secondary: discordgo.SecondaryButton,
	ui.Success:   discordgo.SuccessButton,
	ui.Danger:    discordgo.DangerButton,
	ui.Link:      discordgo.LinkButton,
}

func encodeButton(b ui.Button) discordgo.Button {
	return discordgo.Button{Label: b.Label, Style: buttonStyles[b.Style], CustomID: b.Route, URL: b.URL,
		Disabled: b.Disabled, Emoji: emoji(b.Emoji)}
}

func encodeSelect(s ui.Select) discordgo.SelectMenu {
	sm := discordgo.SelectMenu{CustomID: s.Route, Placeholder: s.Placeholder, MaxValues: s.MaxValues, Disabled: s.Disabled}
	if s.MinValues != 0 {
		n := s.MinValues
		sm.MinValues = &n
	}
	if s.Options != nil {
		sm.Options = make([]discordgo.SelectMenuOption, len(s.Options))
		for i, o := range s.Options {
			sm.Options[i] = discordgo.SelectMenuOption{Label: o.Label, Value: o.Value, Description: o.Description,
				Emoji: emoji(o.Emoji), Default: o.Default}
		}
	}
	return sm
}

func emoji(name string) *discordgo.ComponentEmoji {
	if name == "" {
		return nil
	}
	return &discordgo.ComponentEmoji{Name: name}
}

// encodeChoices turns autocomplete choices into discordgo's; fitChoices
// then fits them to Discord's limits.
func encodeChoices(cs []*ui.Choice) []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(cs))
	for _, c := range cs {
		if c != nil {
			out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: c.Name, Value: c.Value})
		}
	}
	return out
}

var optionTypes = map[ui.OptionType]discordgo.ApplicationCommandOptionType{
	ui.String:          discordgo.ApplicationCommandOptionString,
	ui.Integer:         discordgo.ApplicationCommandOptionInteger,
	ui.Boolean:         discordgo.ApplicationCommandOptionBoolean,
	ui.User:            discordgo.ApplicationCommandOptionUser,
	ui.Attachment:      discordgo.ApplicationCommandOptionAttachment,
	ui.Subcommand:      discordgo.ApplicationCommandOptionSubCommand,
	ui.SubcommandGroup: discordgo.ApplicationCommandOptionSubCommandGroup,
	ui.Channel:         discordgo.ApplicationCommandOptionChannel,
	ui.Role:            discordgo.ApplicationCommandOptionRole,
}

// optionType is the ui type of a decoded option, 0 for a type no command
// of the bot declares.
func optionType(t discordgo.ApplicationCommandOptionType) ui.OptionType {
	for u, d := range optionTypes {
		if d == t {
			return u
		}
	}
	return 0
}

// encodeCommands turns slash command definitions into discordgo's.
func encodeCommands(defs []*ui.Command) []*discordgo.ApplicationCommand {
	out := make([]*discordgo.ApplicationCommand, 0, len(defs))
	for _, d := range defs {
		c := &discordgo.ApplicationCommand{Name: d.Name, Description: d.Description,
			DMPermission: d.DMPermission, DefaultMemberPermissions: d.DefaultMemberPermissions, Options: encodeOptions(d.Options)}
		if d.GuildOnly {
			c.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild}
		}
		out = append(out, c)
	}
	return out
}

func encodeOptions(opts []*ui.CommandOption) []*discordgo.ApplicationCommandOption {
	if opts == nil {
		return nil
	}
	out := make([]*discordgo.ApplicationCommandOption, 0, len(opts))
	for _, o := range opts {
		do := &discordgo.ApplicationCommandOption{Type: optionTypes[o.Type], Name: o.Name, Description: o.Description,
			Required: o.Required, Autocomplete: o.Autocomplete, Options: encodeOptions(o.Options), MaxLength: o.MaxLength}
		if o.Choices != nil {
			do.Choices = encodeChoices(o.Choices)
		}
		if o.TextChannels {
			do.ChannelTypes = []discordgo.ChannelType{discordgo.ChannelTypeGuildText}
		}
		out = append(out, do)
	}
	return out
}

// channelType is the ui kind of a Discord channel type.
func channelType(t discordgo.ChannelType) ui.ChannelType {
	switch t {
	case discordgo.ChannelTypeGuildText:
		return ui.TextChannel
	case discordgo.ChannelTypeGuildPublicThread:
		return ui.PublicThread
	case discordgo.ChannelTypeGuildPrivateThread:
		return ui.PrivateThread
	case discordgo.ChannelTypeGuildNewsThread:
		return ui.NewsThread
	}
	return ui.OtherChannel
}

// platformError wraps a Discord REST refusal in a commands.PlatformError,
// which the game flow reads without discordgo: a *discordgo.RESTError, a
// *discordgo.RateLimitError (a 429 that discordgo did not retry itself,
// see requestOptions) and a 502 discordgo gave up retrying. The
// PlatformError describes itself (RetryFailure), so retry.Describe reads the
// status, Discord's code and the server's Retry-After through it. Other
// errors (no answer) pass unchanged.
func platformError(err error) error {
	var (
		re *discordgo.RESTError
		rl *discordgo.RateLimitError
		pe *commands.PlatformError
	)
	switch {
	case err == nil || errors.As(err, &pe):
		return err
	case errors.As(err, &rl):
		pe = &commands.PlatformError{HTTPStatus: http.StatusTooManyRequests, Status: "429 Too Many Requests"}
		if rl.RateLimit != nil && rl.TooManyRequests != nil {
			pe.Message = rl.TooManyRequests.Message
			pe.RetryAfter = rl.TooManyRequests.RetryAfter
		}
	case errors.As(err, &re):
		pe = &commands.PlatformError{}
		if re.Response != nil {
			pe.HTTPStatus = re.Response.StatusCode
			pe.Status = re.Response.Status
			pe.RetryAfter = retryAfterHeader(re.Response.Header)
		}
		if re.Message != nil {
			pe.Code = re.Message.Code
			pe.Message = re.Message.Message
		}
	case strings.HasPrefix(err.Error(), "Exceeded Max retries HTTP 502"):
		// discordgo's answer to a 502 once its own retries (MaxRestRetries) are spent.
		pe = &commands.PlatformError{HTTPStatus: http.StatusBadGateway, Status: "502 Bad Gateway"}
	default:
		return err
	}
	pe.Err = err
	return pe
}

// retryAfterHeader reads a Retry-After header in seconds (0 when absent or
// not a number of seconds).
func retryAfterHeader(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	secs, err := strconv.ParseFloat(v, 64)
	if err != nil || secs <= 0 || secs > 24*3600 {
		return 0
	}
	return time.Duration(secs * float64(time.Second))
}
