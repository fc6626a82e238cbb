package bot

import (
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sandtable/commands"
)

// Discord's limits on what the bot sends, in characters: Unicode code
// points, as Discord's API counts them and as commands.Clip cuts (see its
// comment for why code points and not bytes or UTF-16 units). Every text
// the bot sends passes one of the helpers below on its way out: fit
// (messages: content, embeds, components), fitModal, fitChoices and
// threadName. Custom IDs and select option values are not cut: they are the
// bot's own ASCII identifiers, and a cut one would no longer mean anything
// (the fake Discord refuses one over 100 characters, so every end-to-end
// test checks them).
const (
	maxContent      = 2000
	maxEmbedTitle   = 256
	maxEmbedDesc    = 4096
	maxFieldName    = 256
	maxFieldValue   = 1024
	maxFooter       = 2048
	maxAuthor       = 256
	maxFields       = 25
	maxEmbedTotal   = 6000
	maxChoiceLength = 100 // autocomplete choice name and value
	maxChoices      = 25
	maxThreadName   = 100
	maxButtonLabel  = 80
	maxOptionText   = 100 // select option label, value and description
	maxPlaceholder  = 150 // select menu placeholder
	maxModalTitle   = 45
	maxInputLabel   = 45
	maxInputHolder  = 100 // text input placeholder
	maxInputValue   = 4000
	maxCustomID     = 100
)

// clip shortens s to at most max characters (commands.Clip).
func clip(s string, max int) string { return commands.Clip(s, max) }

// fit returns the encoded message m within Discord's limits: Discord refuses a whole message
// (and so the whole answer) when one part is too long, and a long quote of
// a player's input must not cost them the answer. Embeds and components are
// copied, never changed in place.
func fit(m payload) payload {
	m.Content = clip(m.Content, maxContent)
	m.Components = fitComponents(m.Components)
	if len(m.Embeds) == 0 {
		return m
	}
	embeds := make([]*discordgo.MessageEmbed, len(m.Embeds))
	total := 0
	for i, e := range m.Embeds {
		if e == nil {
			continue
		}
		c := *e
		c.Title = clip(c.Title, maxEmbedTitle)
		c.Description = clip(c.Description, maxEmbedDesc)
		if len(c.Fields) > maxFields {
			c.Fields = c.Fields[:maxFields]
		}
		fields := make([]*discordgo.MessageEmbedField, 0, len(c.Fields))
		for _, f := range c.Fields {
			if f == nil {
				continue
			}
			ff := *f
			ff.Name = clip(ff.Name, maxFieldName)
			ff.Value = clip(ff.Value, maxFieldValue)
			fields = append(fields, &ff)
		}
		c.Fields = fields
		if c.Footer != nil {
			foot := *c.Footer
			foot.Text = clip(foot.Text, maxFooter)
			c.Footer = &foot
		}
		if c.Author != nil {
			author := *c.Author
			author.Name = clip(author.Name, maxAuthor)
			c.Author = &author
		}
		// Over the total, shorten the description: it is where long
		// text goes.
		size := embedSize(&c)
		if over := total + size - maxEmbedTotal; over > 0 {
			keep := utf8.RuneCountInString(c.Description) - over
			if keep < 1 {
				keep = 1
			}
			c.Description = clip(c.Description, keep)
			size = embedSize(&c)
		}
		total += size
		embeds[i] = &c
	}
	m.Embeds = embeds
	return m
}

// embedSize is what an embed counts toward Discord's total of 6000
// characters: title, description, field names and values, footer text and
// author name.
func embedSize(e *discordgo.MessageEmbed) int {
	n := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
	for _, f := range e.Fields {
		n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
	}
	if e.Footer != nil {
		n += utf8.RuneCountInString(e.Footer.Text)
	}
	if e.Author != nil {
		n += utf8.RuneCountInString(e.Author.Name)
	}
	return n
}

// fitComponents returns copies of action rows with button labels, select
// placeholders and option labels and descriptions cut to Discord's limits.
func fitComponents(cs []discordgo.MessageComponent) []discordgo.MessageComponent {
	if cs == nil {
		return nil
	}
	out := make([]discordgo.MessageComponent, len(cs))
	for i, c := range cs {
		switch r := c.(type) {
		case discordgo.ActionsRow:
			out[i] = discordgo.ActionsRow{ID: r.ID, Components: fitComponents(r.Components)}
		case *discordgo.ActionsRow:
			out[i] = &discordgo.ActionsRow{ID: r.ID, Components: fitComponents(r.Components)}
		case discordgo.Button:
			out[i] = fitButton(r)
		case *discordgo.Button:
			b := fitButton(*r)
			out[i] = &b
		case discordgo.SelectMenu:
			out[i] = fitSelect(r)
		case *discordgo.SelectMenu:
			sm := fitSelect(*r)
			out[i] = &sm
		default:
			out[i] = c
		}
	}
	return out
}

func fitButton(b discordgo.Button) discordgo.Button {
	b.Label = clip(b.Label, maxButtonLabel)
	return b
}

func fitSelect(sm discordgo.SelectMenu) discordgo.SelectMenu {
	sm.Placeholder = clip(sm.Placeholder, maxPlaceholder)
	if sm.Options != nil {
		opts := make([]discordgo.SelectMenuOption, len(sm.Options))
		for i, o := range sm.Options {
			o.Label = clip(o.Label, maxOptionText)
			o.Description = clip(o.Description, maxOptionText)
			opts[i] = o
		}
		sm.Options = opts
	}
	return sm
}

// fitModal returns a copy of m within Discord's limits: title and labels 45
// characters, placeholders 100, a prefilled value 4000 (and at most the
// input's own maximum length).
func fitModal(m *commands.Modal) *commands.Modal {
	c := *m
	c.Title = clip(c.Title, maxModalTitle)
	c.Inputs = make([]commands.ModalInput, len(m.Inputs))
	for i, in := range m.Inputs {
		in.Label = clip(in.Label, maxInputLabel)
		in.Placeholder = clip(in.Placeholder, maxInputHolder)
		if in.MaxLength > maxInputValue {
			in.MaxLength = maxInputValue
		}
		limit := in.MaxLength
		if limit <= 0 {
			limit = maxInputValue
		}
		in.Value = clip(in.Value, limit)
		c.Inputs[i] = in
	}
	return &c
}

// threadName is name cut to Discord's 100 characters for a thread name.
func threadName(name string) string { return clip(name, maxThreadName) }

// fitChoices keeps at most 25 autocomplete choices, with names shortened to
// 100 characters; a choice whose value is longer cannot be shortened (the
// value is what the user sends) and is left out.
func fitChoices(cs []*discordgo.ApplicationCommandOptionChoice) []*discordgo.ApplicationCommandOptionChoice {
	out := make([]*discordgo.ApplicationCommandOptionChoice, 0, len(cs))
	for _, c := range cs {
		if c == nil {
			continue
		}
		if v, ok := c.Value.(string); ok && utf8.RuneCountInString(v) > maxChoiceLength {
			continue
		}
		cc := *c
		cc.Name = clip(cc.Name, maxChoiceLength)
		out = append(out, &cc)
		if len(out) == maxChoices {
			break
		}
	}
	return out
}
