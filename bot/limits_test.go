package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/commands"
)

func TestFitKeepsMessagesWithinDiscordLimits(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 9000)
	field := &discordgo.MessageEmbedField{Name: long, Value: long}
	orig := &discordgo.MessageEmbed{Title: long, Description: long, Fields: []*discordgo.MessageEmbedField{field, field},
		Footer: &discordgo.MessageEmbedFooter{Text: long}}
	m := fit(payload{Content: long, Embeds: []*discordgo.MessageEmbed{orig}})

	require.Equal(t, maxContent, utf8.RuneCountInString(m.Content))
	require.True(t, strings.HasSuffix(m.Content, "…"))
	e := m.Embeds[0]
	require.LessOrEqual(t, utf8.RuneCountInString(e.Title), maxEmbedTitle)
	require.LessOrEqual(t, utf8.RuneCountInString(e.Description), maxEmbedDesc)
	total := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description) + utf8.RuneCountInString(e.Footer.Text)
	for _, f := range e.Fields {
		require.LessOrEqual(t, utf8.RuneCountInString(f.Name), maxFieldName)
		require.LessOrEqual(t, utf8.RuneCountInString(f.Value), maxFieldValue)
		total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
	}
	require.LessOrEqual(t, total, maxEmbedTotal)
	require.Equal(t, long, orig.Title, "the caller's embed is not changed")
	require.Equal(t, long, field.Value)

	short := payload{Content: "hi", Embeds: []*discordgo.MessageEmbed{{Title: "t", Description: "d"}}}
	require.Equal(t, short.Content, fit(short).Content)
	require.Equal(t, "d", fit(short).Embeds[0].Description)
}

func TestFitChoices(t *testing.T) {
	t.Parallel()
	var cs []*discordgo.ApplicationCommandOptionChoice
	cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: strings.Repeat("n", 150), Value: "ok"})
	cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: "too long value", Value: strings.Repeat("v", 101)})
	for i := 0; i < 40; i++ {
		cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: "c", Value: "c"})
	}
	out := fitChoices(cs)
	require.Len(t, out, maxChoices)
	require.Equal(t, maxChoiceLength, utf8.RuneCountInString(out[0].Name))
	require.Equal(t, "ok", out[0].Value)
	require.Equal(t, "c", out[1].Value, "a value over 100 characters is left out")
	require.NotNil(t, fitChoices(nil), "an empty answer is a list, not null")
}

// TestEveryLimitCutsByCharacters: each Discord limit the bot applies keeps
// text of exactly the limit in characters whole (here 🐉 and 象: four and
// three bytes each), cuts one character more to the limit with "…", and
// never produces invalid UTF-8. Thread names were cut at 100 bytes.
func TestEveryLimitCutsByCharacters(t *testing.T) {
	t.Parallel()
	row := func(c discordgo.MessageComponent) payload {
		return payload{Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{c}}}}
	}
	first := func(m payload) discordgo.MessageComponent {
		return m.Components[0].(discordgo.ActionsRow).Components[0]
	}
	embed := func(e *discordgo.MessageEmbed) *discordgo.MessageEmbed {
		return fit(payload{Embeds: []*discordgo.MessageEmbed{e}}).Embeds[0]
	}
	field := func(name, value string) *discordgo.MessageEmbedField {
		return embed(&discordgo.MessageEmbed{Fields: []*discordgo.MessageEmbedField{{Name: name, Value: value}}}).Fields[0]
	}
	option := func(o discordgo.SelectMenuOption) discordgo.SelectMenuOption {
		return first(fit(row(discordgo.SelectMenu{CustomID: "s", Options: []discordgo.SelectMenuOption{o}}))).(discordgo.SelectMenu).Options[0]
	}
	input := func(in commands.ModalInput) commands.ModalInput {
		return fitModal(&commands.Modal{CustomID: "m", Title: "t", Inputs: []commands.ModalInput{in}}).Inputs[0]
	}
	limits := []struct {
		name  string
		limit int
		apply func(string) string
	}{
		{"content", 2000, func(s string) string { return fit(payload{Content: s}).Content }},
		{"embed title", 256, func(s string) string { return embed(&discordgo.MessageEmbed{Title: s}).Title }},
		{"embed description", 4096, func(s string) string { return embed(&discordgo.MessageEmbed{Description: s}).Description }},
		{"field name", 256, func(s string) string { return field(s, "v").Name }},
		{"field value", 1024, func(s string) string { return field("n", s).Value }},
		{"footer", 2048, func(s string) string {
			return embed(&discordgo.MessageEmbed{Footer: &discordgo.MessageEmbedFooter{Text: s}}).Footer.Text
		}},
		{"author", 256, func(s string) string {
			return embed(&discordgo.MessageEmbed{Author: &discordgo.MessageEmbedAuthor{Name: s}}).Author.Name
		}},
		{"button label", 80, func(s string) string {
			return first(fit(row(discordgo.Button{Label: s, CustomID: "b"}))).(discordgo.Button).Label
		}},
		{"button label (pointer)", 80, func(s string) string {
			m := fit(payload{Components: []discordgo.MessageComponent{&discordgo.ActionsRow{Components: []discordgo.MessageComponent{&discordgo.Button{Label: s, CustomID: "b"}}}}})
			return m.Components[0].(*discordgo.ActionsRow).Components[0].(*discordgo.Button).Label
		}},
		{"select placeholder", 150, func(s string) string {
			return first(fit(row(discordgo.SelectMenu{CustomID: "s", Placeholder: s}))).(discordgo.SelectMenu).Placeholder
		}},
		{"option label", 100, func(s string) string { return option(discordgo.SelectMenuOption{Label: s, Value: "v"}).Label }},
		{"option description", 100, func(s string) string {
			return option(discordgo.SelectMenuOption{Label: "l", Value: "v", Description: s}).Description
		}},
		{"modal title", 45, func(s string) string { return fitModal(&commands.Modal{CustomID: "m", Title: s}).Title }},
		{"input label", 45, func(s string) string { return input(commands.ModalInput{CustomID: "i", Label: s}).Label }},
		{"input placeholder", 100, func(s string) string {
			return input(commands.ModalInput{CustomID: "i", Label: "l", Placeholder: s}).Placeholder
		}},
		{"input value", 4000, func(s string) string { return input(commands.ModalInput{CustomID: "i", Label: "l", Value: s}).Value }},
		{"input value within its max length", 30, func(s string) string {
			return input(commands.ModalInput{CustomID: "i", Label: "l", Value: s, MaxLength: 30}).Value
		}},
		{"thread name", 100, threadName},
		{"choice name", 100, func(s string) string {
			return fitChoices([]*discordgo.ApplicationCommandOptionChoice{{Name: s, Value: "v"}})[0].Name
		}},
	}
	for _, l := range limits {
		for _, ch := range []string{"🐉", "象", "é", "x"} {
			exact := strings.Repeat(ch, l.limit)
			require.Equal(t, exact, l.apply(exact), "%s: %d × %s fits", l.name, l.limit, ch)
			over := l.apply(exact + ch)
			require.True(t, utf8.ValidString(over), l.name)
			require.Equal(t, strings.Repeat(ch, l.limit-1)+"…", over, "%s: %d × %s is cut by characters", l.name, l.limit+1, ch)
		}
	}
}

// TestFitLeavesIdentifiersAndTheCallerAlone: custom IDs, option values and
// choice values are never cut (a choice whose value is too long, in
// characters, is left out), and the caller's components are not changed.
func TestFitLeavesIdentifiersAndTheCallerAlone(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("象", 120)
	b := &discordgo.Button{Label: long, CustomID: "g:abcd:resign"}
	sm := discordgo.SelectMenu{CustomID: "g:abcd:pick", Placeholder: long, Options: []discordgo.SelectMenuOption{{Label: long, Value: "w:123"}}}
	m := payload{Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{b}},
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{sm}},
	}}
	got := fit(m)
	fb := got.Components[0].(discordgo.ActionsRow).Components[0].(*discordgo.Button)
	fs := got.Components[1].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	require.Equal(t, "g:abcd:resign", fb.CustomID)
	require.Equal(t, "g:abcd:pick", fs.CustomID)
	require.Equal(t, "w:123", fs.Options[0].Value)
	require.Equal(t, maxButtonLabel, utf8.RuneCountInString(fb.Label))
	require.Equal(t, long, b.Label, "the caller's button is not changed")
	require.Equal(t, long, sm.Options[0].Label, "the caller's options are not changed")
	require.Equal(t, long, sm.Placeholder)

	choices := fitChoices([]*discordgo.ApplicationCommandOptionChoice{
		{Name: "whole", Value: strings.Repeat("🐉", 100)},
		{Name: "over", Value: strings.Repeat("🐉", 101)},
	})
	require.Len(t, choices, 1)
	require.Equal(t, "whole", choices[0].Name, "a value of 100 characters (400 bytes) is kept")
}
