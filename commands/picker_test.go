package commands

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// TestPickRoundTrip: every picker state survives its custom ID, and a
// damaged arg is refused with a message for the user.
func TestPickRoundTrip(t *testing.T) {
	t.Parallel()
	for _, p := range []Pick{
		{Stamp: "12", Open: true},
		{Stamp: "12", Select: true, Path: ""},
		{Stamp: "12", Select: true, Path: "e7e8s:d2d1s:g1f3"},
		{Stamp: "0", Page: 2, Path: "d4"},
		{Stamp: "7", Path: "e7e8"},
	} {
		got, err := ParsePick(p.String())
		require.NoError(t, err, p.String())
		require.Equal(t, p, got)
	}
	for _, bad := range []string{"", ".s.e7", "3.x.e7", "3.-1.e7", "3.s"} {
		_, err := ParsePick(bad)
		var ue *UserError
		require.ErrorAs(t, err, &ue, "%q", bad)
	}
	// A select's chosen value must extend the path it was shown for.
	p := Pick{Stamp: "1", Select: true, Path: "e7"}
	for _, v := range [][]string{nil, {"d7d8"}, {"e7"}, {"e7e8", "e7e8q"}} {
		_, err := p.Chosen(&Request{Values: v})
		require.Error(t, err, "%v", v)
	}
	got, err := p.Chosen(&Request{Values: []string{"e7e8q"}})
	require.NoError(t, err)
	require.Equal(t, "e7e8q", got)
}

// TestPickerMessagePages: 60 options fill three pages of at most 25, each
// page showing its own options with Previous and Next disabled at the
// ends; every route parses back to the state it should carry and fits
// Discord's 100 characters.
func TestPickerMessagePages(t *testing.T) {
	t.Parallel()
	g := &storage.Game{ID: "abcdefghij"}
	var opts []PickOption
	for i := 0; i < 60; i++ {
		opts = append(opts, PickOption{Label: fmt.Sprintf("option %d", i), Value: fmt.Sprintf("e7%02d", i)})
	}
	step := PickStep{Text: "Pick.", Placeholder: "Pick one", Options: opts, Back: "", HasBack: true}
	seen := 0
	for page := 0; page < 3; page++ {
		m := PickerMessage(g, "pick", Pick{Stamp: "5", Page: page, Path: "e7"}, step)
		require.Len(t, m.Rows, 2)
		sel := m.Rows[0][0].(ui.Select)
		require.Equal(t, fmt.Sprintf("Pick one (page %d of 3)", page+1), sel.Placeholder)
		require.Equal(t, opts[page*25].Value, sel.Options[0].Value)
		seen += len(sel.Options)
		id, err := ParseCustomID(sel.Route)
		require.NoError(t, err)
		p, err := ParsePick(id.Arg)
		require.NoError(t, err)
		require.Equal(t, Pick{Stamp: "5", Select: true, Path: "e7"}, p)
		nav := m.Rows[1]
		require.Len(t, nav, 3, "Previous, Next, Back (no Start over on the first step)")
		prev, next, back := nav[0].(ui.Button), nav[1].(ui.Button), nav[2].(ui.Button)
		require.Equal(t, page == 0, prev.Disabled)
		require.Equal(t, page == 2, next.Disabled)
		for b, want := range map[ui.Button]Pick{
			prev: {Stamp: "5", Page: max(page-1, 0), Path: "e7"},
			next: {Stamp: "5", Page: min(page+1, 2), Path: "e7"},
			back: {Stamp: "5", Path: ""},
		} {
			id, err := ParseCustomID(b.Route)
			require.NoError(t, err)
			got, err := ParsePick(id.Arg)
			require.NoError(t, err)
			require.Equal(t, want, got, b.Label)
		}
	}
	require.Equal(t, 60, seen)
	// A page past the end shows the last one.
	m := PickerMessage(g, "pick", Pick{Stamp: "5", Page: 9, Path: "e7"}, step)
	require.Contains(t, m.Content, "Page 3 of 3: options 51 to 60 of 60.")

	// Few options: one select, no page buttons.
	m = PickerMessage(g, "pick", Pick{Stamp: "5"}, PickStep{Text: "Pick.", Options: opts[:3]})
	require.Len(t, m.Rows, 1)
	require.Equal(t, "Pick.", m.Content)
}

// TestPickerMessageTooLong: a path whose controls would not fit in a
// custom ID gets no menu, only the advice to type the move.
func TestPickerMessageTooLong(t *testing.T) {
	t.Parallel()
	g := &storage.Game{ID: "abcdefghij"}
	long := strings.Repeat("e7e8s:", 14)
	m := PickerMessage(g, "pick", Pick{Stamp: "5", Path: long}, PickStep{Text: "Pick.", Options: []PickOption{{Label: "x", Value: long + "d2"}}})
	require.Empty(t, m.Rows)
	require.Contains(t, m.Content, "type it with `/move`")
}

// TestPickAnswers: a picker's steps update it, the board's button opens a
// private one; a move's private answer replaces the picker, a public one
// is posted as it is.
func TestPickAnswers(t *testing.T) {
	t.Parallel()
	msg := Message{Content: "x"}
	require.Equal(t, &Response{Ephemeral: true, Message: msg}, PickAnswer(Pick{Stamp: "1", Open: true}, msg))
	require.Equal(t, &Response{Update: true, Message: msg}, PickAnswer(Pick{Stamp: "1", Select: true}, msg))
	require.Equal(t, &Response{Update: true, Message: msg}, PickPlayed(&Response{Ephemeral: true, Message: msg}))
	require.Equal(t, &Response{Message: msg}, PickPlayed(&Response{Message: msg}))
	require.Nil(t, PickPlayed(nil))
}
