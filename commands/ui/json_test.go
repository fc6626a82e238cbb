package ui

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMessageJSONRoundTrip: every part of a message survives the outbox's
// JSON, controls keep their types, styles are written by name.
func TestMessageJSONRoundTrip(t *testing.T) {
	t.Parallel()
	m := Message{
		Content: "hi <@1>",
		Cards:   []*Card{{Title: "T", Description: "D", URL: "https://x", Color: 0x123456, Footer: "F", Image: "board.png", Fields: []*Field{{Name: "a", Value: "b", Inline: true}}}},
		Files:   []*File{{Name: "board.png", ContentType: "image/png", Data: []byte{0, 1, 2, 255}}},
		Rows: []Row{
			{Button{Label: "Go", Style: Danger, Route: "g:abcd:go"}, Button{Label: "Link", Style: Link, URL: "https://x"}},
			{Select{Route: "g:abcd:pick", MinValues: 1, MaxValues: 2, Options: []SelectOption{{Label: "x", Value: "1", Default: true}}}},
		},
	}
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	require.Contains(t, string(raw), `"style":"danger"`)
	require.Contains(t, string(raw), `"select":{`)
	var back Message
	require.NoError(t, json.Unmarshal(raw, &back))
	require.Equal(t, m, back)

	require.Error(t, json.Unmarshal([]byte(`{"rows":[[{}]]}`), &back))
	require.Error(t, json.Unmarshal([]byte(`{"rows":[[{"button":{"style":"plaid"}}]]}`), &back))
}
