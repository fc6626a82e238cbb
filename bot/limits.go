package bot

import (
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sandtable/commands"
)

// Discord's message limits, in characters (Unicode code points).
const (
	maxContent      = 2000
	maxEmbedTitle   = 256
	maxEmbedDesc    = 4096
	maxFieldName    = 256
	maxFieldValue   = 1024
	maxFooter       = 2048
	maxFields       = 25
	maxEmbedTotal   = 6000
	maxChoiceLength = 100
	maxChoices      = 25
)

// clip shortens s to at most max characters, ending with "…" when cut.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// fit returns m within Discord's limits: Discord refuses a whole message
// (and so the whole answer) when one part is too long, and a long quote of
// a player's input must not cost them the answer. Embeds are copied, never
// changed in place.
func fit(m commands.Message) commands.Message {
	m.Content = clip(m.Content, maxContent)
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
		// Over the total, shorten the description: it is where long
		// text goes.
		size := utf8.RuneCountInString(c.Title) + utf8.RuneCountInString(c.Description)
		for _, f := range c.Fields {
			size += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		}
		if c.Footer != nil {
			size += utf8.RuneCountInString(c.Footer.Text)
		}
		if over := total + size - maxEmbedTotal; over > 0 {
			keep := utf8.RuneCountInString(c.Description) - over
			if keep < 1 {
				keep = 1
			}
			c.Description = clip(c.Description, keep)
			size -= over
		}
		total += size
		embeds[i] = &c
	}
	m.Embeds = embeds
	return m
}

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
