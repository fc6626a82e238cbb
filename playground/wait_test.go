package playground

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestCommandWaitsForADeferredAnswer: with a bot that defers every answer, a command through
// the harness returns only once the "thinking" message is filled in, so a view taken right
// after shows the answer, not the placeholder. (On a busy machine the bot defers slow answers
// by itself; the API tests then read an empty message.)
func TestCommandWaitsForADeferredAnswer(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig(), func(o *Options) { o.Bot.DeferAfter = -1 })
	alice, bob := tp.userID("alice"), tp.userID("bob")
	thread := tp.survivalThread()
	out := tp.command(alice, thread, "move", opt("move", "g7g8q"))
	require.EqualValues(t, 5, out["response_type"], "the bot deferred the answer")
	var answer *messageView
	for _, m := range tp.view(alice, thread).Messages {
		if m.Interaction != nil && m.Interaction.Command == "move" {
			answer = &m
		}
	}
	require.NotNil(t, answer, "the answer, private to alice")
	require.False(t, answer.Loading, "the deferred answer is filled in")
	require.Contains(t, answer.text(), "You played **g8=Q**")
	// The board is the outbox's: the move posts it before answering only when it can within
	// a second (and the dispatcher is not busy), so it may come after the answer.
	tp.waitView(bob, thread, "the board after 1. g8=Q", func(v view) bool {
		return len(v.Messages) > 0 && strings.Contains(v.Messages[0].text(), "1. g8=Q") // the live board, edited in place
	})
}

// TestAnActionSaysWhenTheBotIsLate: an action waits Options.AnswerWait for the bot's first
// answer; past it, it says the bot did not respond in time, and the late answer still shows.
func TestAnActionSaysWhenTheBotIsLate(t *testing.T) {
	t.Parallel()
	tp := startPlayground(t, "", testConfig(), func(o *Options) { o.AnswerWait = time.Nanosecond })
	alice, general := tp.userID("alice"), tp.channelID("general")
	out := tp.ok("/api/commands", map[string]any{"as": alice, "channel_id": general, "command": "games", "options": []any{}})
	require.Equal(t, false, out["responded"])
	require.Contains(t, out["error"], "did not respond in time")
	tp.waitView(alice, general, "the late answer", func(v view) bool {
		for _, m := range v.Messages {
			if m.Interaction != nil && m.Interaction.Command == "games" && !m.Loading && strings.TrimSpace(m.text()) != "" {
				return true
			}
		}
		return false
	})
}
