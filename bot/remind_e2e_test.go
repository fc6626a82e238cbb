package bot_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestReminderThroughDiscord: the bot's own timer loop posts the turn
// reminder in the game's thread at 75 % of the move's time (the default
// game.remind_at), not before, mentioning the player to move with a link
// to the thread; a bot restarted on the same file does not send it again;
// /games says whom the game waits on and links the thread.
func TestReminderThroughDiscord(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob := srv.User("alice"), srv.User("bob")
	thread := h.survivalGame(alice, bob, discordsim.Opt("move_time", "1h"))
	h.move(alice, thread, "g7g8q")
	moved := h.clock.Now()
	link := fmt.Sprintf("https://discord.com/channels/%s/%s", h.gen.GuildID, thread.ID)

	h.clock.Advance(44 * time.Minute)
	h.swept()
	require.Empty(t, h.messagesWith(thread.ID, "Reminder:"))
	h.clock.Advance(time.Minute)
	h.swept()
	got := h.messagesWith(thread.ID, "Reminder:")
	require.Len(t, got, 1)
	require.Equal(t, fmt.Sprintf("Reminder: %s, 15 minutes left on your move in %s (time runs out <t:%d:R>).",
		bob.Mention(), link, moved.Add(time.Hour).Unix()), got[0].Content)
	require.Equal(t, h.bot.Session().State.User.ID, got[0].Author.ID)

	games := mustBeEphemeral(t, h.reply(bob, h.gen.ID, "games"), bob)
	require.Contains(t, games, "**[Survival Chess: Tartan Grid]("+link+")** in <#"+thread.ID+">")
	require.Contains(t, games, "**your move**")
	require.NotContains(t, games, "waiting on", "the summary says it is bob's move")
	require.Contains(t, mustBeEphemeral(t, h.reply(alice, h.gen.ID, "games"), alice), "· waiting on "+bob.Mention())

	h2 := h.restart(t, db)
	h2.clock.Advance(10 * time.Minute)
	h2.swept()
	require.Len(t, h2.messagesWith(thread.ID, "Reminder:"), 1, "not again after a restart")
}
