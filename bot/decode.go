package bot

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"

	"sandtable/commands"
)

// decode turns a discordgo interaction into a commands.Request. It never
// panics on malformed data: discordgo's typed option getters panic on a type
// mismatch, so values are checked by hand.
func decode(i *discordgo.Interaction, now time.Time) (*commands.Request, error) {
	req := &commands.Request{InteractionID: i.ID, GuildID: i.GuildID, ChannelID: i.ChannelID, Now: now}
	switch {
	case i.Member != nil && i.Member.User != nil:
		req.User = userOf(i.Member.User)
		if i.Member.Nick != "" {
			req.User.Name = i.Member.Nick
		}
		req.Permissions, req.Roles = i.Member.Permissions, i.Member.Roles
	case i.User != nil:
		req.User = userOf(i.User)
	default:
		return nil, errors.New("interaction without a user")
	}
	switch i.Type {
	case discordgo.InteractionApplicationCommand, discordgo.InteractionApplicationCommandAutocomplete:
		data, ok := i.Data.(discordgo.ApplicationCommandInteractionData)
		if !ok {
			return nil, fmt.Errorf("command interaction with data %T", i.Data)
		}
		req.Type = commands.CommandRequest
		if i.Type == discordgo.InteractionApplicationCommandAutocomplete {
			req.Type = commands.AutocompleteRequest
		}
		req.Command = data.Name
		req.Options = map[string]commands.Option{}
		opts := data.Options
		for len(opts) == 1 && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand || opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
			if req.Sub != "" {
				req.Sub += " "
			}
			req.Sub += opts[0].Name
			opts = opts[0].Options
		}
		for _, o := range opts {
			opt := optionValue(o, data.Resolved)
			req.Options[o.Name] = opt
			if o.Focused {
				req.Focused = o.Name
			}
		}
	case discordgo.InteractionMessageComponent:
		data, ok := i.Data.(discordgo.MessageComponentInteractionData)
		if !ok {
			return nil, fmt.Errorf("component interaction with data %T", i.Data)
		}
		req.Type = commands.ComponentRequest
		req.CustomID = data.CustomID
		req.Values = data.Values
		if i.Message != nil {
			req.MessageID = i.Message.ID
		}
	case discordgo.InteractionModalSubmit:
		data, ok := i.Data.(discordgo.ModalSubmitInteractionData)
		if !ok {
			return nil, fmt.Errorf("modal interaction with data %T", i.Data)
		}
		req.Type = commands.ModalRequest
		req.CustomID = data.CustomID
		req.Fields = map[string]string{}
		for _, row := range data.Components {
			ar, ok := row.(*discordgo.ActionsRow)
			if !ok {
				continue
			}
			for _, c := range ar.Components {
				if ti, ok := c.(*discordgo.TextInput); ok {
					req.Fields[ti.CustomID] = ti.Value
				}
			}
		}
		if i.Message != nil {
			req.MessageID = i.Message.ID
		}
	default:
		return nil, fmt.Errorf("unsupported interaction type %d", i.Type)
	}
	return req, nil
}

func userOf(u *discordgo.User) commands.User {
	name := u.GlobalName
	if name == "" {
		name = u.Username
	}
	return commands.User{ID: u.ID, Name: name, Bot: u.Bot}
}

func optionValue(o *discordgo.ApplicationCommandInteractionDataOption, res *discordgo.ApplicationCommandInteractionDataResolved) commands.Option {
	opt := commands.Option{Type: optionType(o.Type)}
	switch v := o.Value.(type) {
	case string:
		opt.String = v
	case float64:
		opt.Int = int64(v)
		opt.String = strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		opt.Bool = v
		opt.String = strconv.FormatBool(v)
	case nil:
	default:
		opt.String = fmt.Sprint(v)
	}
	switch o.Type {
	case discordgo.ApplicationCommandOptionUser:
		u := &commands.User{ID: opt.String, Name: opt.String}
		if res != nil {
			if ru, ok := res.Users[opt.String]; ok && ru != nil {
				uu := userOf(ru)
				u = &uu
			}
			if m, ok := res.Members[opt.String]; ok && m != nil && m.Nick != "" {
				u.Name = m.Nick
			}
		}
		if u.ID != "" {
			opt.User = u
		}
	case discordgo.ApplicationCommandOptionChannel:
		if res != nil {
			if c, ok := res.Channels[opt.String]; ok && c != nil {
				opt.ChannelType = channelType(c.Type)
			}
		}
	case discordgo.ApplicationCommandOptionAttachment:
		if res != nil {
			if a, ok := res.Attachments[opt.String]; ok && a != nil {
				opt.AttachmentURL = a.URL
				opt.AttachmentName = a.Filename
			}
		}
	}
	return opt
}
