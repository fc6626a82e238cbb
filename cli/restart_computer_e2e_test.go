package cli

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
)

// TestKillWhileTheComputerThinks: alice challenges the bot (Survival, she
// plays Black, level strongest, whose first move takes about two seconds
// of search); the bot is killed (SIGKILL) as soon as the game has started,
// almost always while its first move is being searched, and started again
// on the same database: the restarted bot finds the pending move (a stored
// timer) and plays it. Either way the move is made exactly once, and the
// game goes on. (bot.TestSurvivalAgainstTheComputer holds a pending move
// across a restart deterministically.)
func TestKillWhileTheComputerThinks(t *testing.T) {
	t.Parallel()
	testkit.SkipUnlessLong(t, "child processes and a search at the strongest level")
	r := newKillRig(t)
	srv := r.srv
	alice, bot := srv.User("alice"), srv.Bot()
	start := r.answer(alice, r.gen.ID, "survival challenge", discordsim.Opt("opponent", bot),
		discordsim.Opt("color", "black"), discordsim.Opt("level", "strongest"))
	r.restart()
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(start.Text())
	require.NotNil(t, link, "the start links the thread: %s", start.Text())
	thread := link[1]

	// Each computer move gives alice her turn: one ping, one notification
	// (a ping is deleted by the next, its notification stays counted).
	computerMoves := func() int {
		n := 0
		for _, no := range srv.Notifications(alice.ID) {
			if no.ChannelID == thread {
				n++
			}
		}
		return n
	}
	require.NoError(t, srv.WaitFor(wait, func() bool { return computerMoves() >= 1 }), "child log:\n%s", r.bot.logs)

	// alice answers; the computer replies, and its first move was made once.
	in, err := srv.Autocomplete(alice, thread, "move", discordsim.Focused("move", ""))
	require.NoError(t, err)
	require.NoError(t, srv.WaitFor(wait, func() bool { return len(in.Choices()) > 0 }))
	m := r.answer(alice, thread, "move", discordsim.Opt("move", in.Choices()[0].Value.(string)))
	require.Contains(t, m.Text(), "You played")
	require.NoError(t, srv.WaitFor(wait, func() bool { return computerMoves() >= 2 }), "child log:\n%s", r.bot.logs)
	require.Equal(t, 2, computerMoves(), "each computer move once")
}
