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
	long := strings.Repeat("é", 9000)
	field := &discordgo.MessageEmbedField{Name: long, Value: long}
	orig := &discordgo.MessageEmbed{Title: long, Description: long, Fields: []*discordgo.MessageEmbedField{field, field},
		Footer: &discordgo.MessageEmbedFooter{Text: long}}
	m := fit(commands.Message{Content: long, Embeds: []*discordgo.MessageEmbed{orig}})

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

	short := commands.Message{Content: "hi", Embeds: []*discordgo.MessageEmbed{{Title: "t", Description: "d"}}}
	require.Equal(t, short.Content, fit(short).Content)
	require.Equal(t, "d", fit(short).Embeds[0].Description)
}

func TestFitChoices(t *testing.T) {
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
