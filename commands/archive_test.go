package commands

import (
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands/ui"
	"sandtable/storage"
)

// TestMarkFinal: of what an ending action shows in the game's public
// thread, the message the closing summary links to is the last one with a
// board (files), else the last one; its ID is known at once for an edit or
// an answer updating the clicked message, learnt on delivery for a post
// (Effect.Final) and from the adapter for a posted answer (Response.Posted).
func TestMarkFinal(t *testing.T) {
	t.Parallel()
	board := func() *Message {
		return &Message{Content: "board", Files: []*ui.File{{Name: "board.png", Data: []byte{1}}}}
	}
	text := func() *Message { return &Message{Content: "text"} }
	game := func() *storage.Game { return &storage.Game{ID: "gm", GuildID: "g", ThreadID: "th"} }
	req := &Request{ChannelID: "th", MessageID: "clicked"}
	a := &App{}

	// The board posted in the thread, not the later text, nor a post
	// elsewhere, nor a text answer.
	rec := game()
	effects := []Effect{
		{Op: OpPost, Channel: "th", Body: text()},
		{Op: OpPost, Channel: ChannelOfGame, Body: board()},
		{Op: OpPost, Channel: ChannelOfGame, Body: text()},
		{Op: OpPost, Channel: "team", Body: board()},
		{Op: OpDM, User: "u", Body: board()},
	}
	resp := &Response{Message: *text()}
	a.markFinal(rec, req, resp, effects)
	for i, e := range effects {
		require.Equal(t, i == 1, e.Final, "effect %d", i)
	}
	require.Empty(t, rec.FinalMessage, "a post's ID comes with its delivery")
	require.Nil(t, resp.Posted)

	// No board at all: the last message shown, the answer.
	rec, effects = game(), []Effect{{Op: OpPost, Channel: "th", Body: text()}}
	resp = &Response{Message: *text()}
	a.markFinal(rec, req, resp, effects)
	require.False(t, effects[0].Final)
	require.NotNil(t, resp.Posted)
	require.Equal(t, "gm", resp.final, "its outbox copy yields the ID too")

	// A board in the answer, shown after the effects.
	rec, effects = game(), []Effect{{Op: OpPost, Channel: "th", Body: board()}}
	resp = &Response{Message: *board()}
	a.markFinal(rec, req, resp, effects)
	require.False(t, effects[0].Final)
	require.NotNil(t, resp.Posted)

	// A private answer or one in another channel is no candidate.
	for _, r := range []struct {
		resp *Response
		req  *Request
	}{
		{&Response{Ephemeral: true, Message: *board()}, req},
		{&Response{Message: *board()}, &Request{ChannelID: "team"}},
	} {
		rec, effects = game(), []Effect{{Op: OpPost, Channel: "th", Body: text()}}
		a.markFinal(rec, r.req, r.resp, effects)
		require.True(t, effects[0].Final)
		require.Nil(t, r.resp.Posted)
	}

	// An answer that updates the clicked message names it at once.
	rec = game()
	a.markFinal(rec, req, &Response{Update: true, Message: *board()}, nil)
	require.Equal(t, "clicked", rec.FinalMessage)

	// A board edited in place names its message at once, and is marked
	// for when Discord refuses the edit and it is posted anew.
	rec, effects = game(), []Effect{{Op: OpEdit, Channel: ChannelOfGame, Message: "live", Body: board()}}
	a.markFinal(rec, nil, nil, effects)
	require.Equal(t, "live", rec.FinalMessage)
	require.True(t, effects[0].Final)

	// Nothing shown in the thread: nothing to link.
	rec, effects = game(), []Effect{{Op: OpPost, Channel: "team", Body: board()}}
	a.markFinal(rec, nil, nil, effects)
	require.Empty(t, rec.FinalMessage)
	require.False(t, effects[0].Final)
}

// TestClosingSummary: the public thread's summary gives the result and, once
// the final message is known, the link to it; another thread's summary
// points to the public thread without pinging anybody.
func TestClosingSummary(t *testing.T) {
	t.Parallel()
	rec := &storage.Game{ID: "gm", GuildID: "g1", ThreadID: "th", Outcome: &storage.Outcome{Winners: []string{"1"}, Method: storage.Resignation}}
	m := closingSummary(rec, ChannelOfGame)
	require.Contains(t, m.Content, "<@1> wins by resignation.")
	require.Contains(t, m.Content, "final board message above")
	require.NotContains(t, m.Content, "https://")
	team := closingSummary(rec, "team")
	require.Contains(t, team.Content, "<#th>")
	require.NotContains(t, team.Content, "<@", "the public summary pings the players already")

	rec.FinalMessage = "m9"
	link := "https://discord.com/channels/g1/th/m9"
	require.Contains(t, closingSummary(rec, ChannelOfGame).Content, "Final board and full record: "+link+"\n")
	require.Contains(t, closingSummary(rec, "th").Content, link)
	require.Contains(t, closingSummary(rec, "team").Content, "in the game thread: "+link+"\n")

	effects := closeThread(rec, []string{"team", "", "th"})
	var ops []string
	for _, e := range effects {
		ops = append(ops, string(e.Op)+" "+e.Channel)
	}
	require.Equal(t, []string{"post @game", "archive @game", "post team", "archive team"}, ops,
		"the public thread, then each other thread once")
	require.True(t, effects[0].Closing && effects[2].Closing, "the summaries are written again when delivered")
}
