package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// adminIn runs /admin sub as u in channelID; it returns the private answer.
func (h *harness) adminIn(u *discordsim.User, channelID, sub string, opts ...discordsim.Option) string {
	h.t.Helper()
	m := h.reply(u, channelID, "admin "+sub, opts...)
	return mustBeEphemeral(h.t, m, u)
}

// gameOf is the stored game of thread.
func (h *harness) gameOf(threadID string) *storage.Game {
	h.t.Helper()
	var g *storage.Game
	require.NoError(h.t, h.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		g, err = tx.Games().ByChannel(threadID)
		return err
	}))
	return g
}

// statsOf is u's /stats as asker reads it.
func (h *harness) statsOf(asker, u *discordsim.User) string {
	h.t.Helper()
	return h.tcReply(asker, h.gen.ID, "stats", discordsim.Opt("user", u)).Text()
}

// TestAdminAbortEachGame: a manager aborts a Survival, a SandTable and a
// Team Chess game, in its thread or by ID: the thread says who and why,
// the game ends unrated and nobody's record changes; a game over cannot be
// aborted again; the log keeps each abort.
func TestAdminAbortEachGame(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol, dave := h.srv.User("carol"), h.srv.User("dave")

	thread := h.survivalGame(bob, carol)
	h.move(bob, thread, "g7g8q")
	got := h.adminIn(alice, thread.ID, "game abort", discordsim.Opt("reason", "players asked"))
	require.Contains(t, got, "Aborted")
	final := h.liveBoard(thread)
	require.Contains(t, final.Text(), "aborted")
	require.Contains(t, final.Text(), alice.Mention()+", a server manager: players asked")
	require.NotContains(t, final.Text(), "Ratings:")
	require.False(t, h.gameOf(thread.ID).Active)
	require.Contains(t, h.adminIn(alice, thread.ID, "game abort", discordsim.Opt("reason", "again")), "already over")
	require.NotContains(t, h.statsOf(dave, bob), "W ·", "no record for bob")

	sand := h.sandStart(bob, carol)
	got = h.adminIn(alice, h.gen.ID, "game abort", discordsim.Opt("reason", "test game"), discordsim.Opt("game", sand.id))
	require.Contains(t, got, "Aborted")
	h.drained()
	require.NotEmpty(t, h.messagesWith(sand.thread.ID, "aborted, without a result: aborted by "+alice.Mention()+", a server manager: test game"))
	require.Equal(t, storage.Aborted, h.gameOf(sand.thread.ID).Outcome.Method)

	tb := h.tcStart("", []*discordsim.User{bob}, []*discordsim.User{carol, dave})
	got = h.adminIn(alice, tb.pub.ID, "game abort", discordsim.Opt("reason", "table left"))
	require.Contains(t, got, "Aborted")
	h.drained()
	require.NotEmpty(t, h.messagesWith(tb.pub.ID, "aborted by "+alice.Mention()+", a server manager: table left"))
	g := h.gameOf(tb.pub.ID)
	require.Equal(t, storage.Aborted, g.Outcome.Method)
	for _, u := range []*discordsim.User{bob, carol, dave} {
		require.NotContains(t, h.statsOf(alice, u), "W ·", "no record for %s", u.Name)
	}

	log := h.admin(alice, "log")
	require.Equal(t, 3, strings.Count(log, "**abort**"), log)
	require.Contains(t, log, sand.id)
	require.Contains(t, log, "players asked")

	// Bob, no manager, may not, even in the thread.
	thread = h.survivalGame(bob, carol)
	require.Contains(t, h.adminIn(bob, thread.ID, "game abort", discordsim.Opt("reason", "I want out")), "Manage Server")
	require.True(t, h.gameOf(thread.ID).Active)
}

// TestAdminExtendAndEndThread: extend moves a Survival game's per-move
// deadline and a SandTable deployment's (both sides') by the time given,
// said in the thread; a finished game cannot be extended; end-thread
// archives and locks a finished game's thread at once, and refuses a game
// still on.
func TestAdminExtendAndEndThread(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol := h.srv.User("carol")

	thread := h.survivalGame(bob, carol)
	before := h.gameOf(thread.ID).Deadline
	got := h.adminIn(alice, thread.ID, "game extend", discordsim.Opt("time", "3h"), discordsim.Opt("reason", "travel"))
	require.Contains(t, got, "Extended")
	after := h.gameOf(thread.ID).Deadline
	require.Equal(t, 3*time.Hour, after.Sub(before))
	h.drained()
	said := h.messagesWith(thread.ID, "gave 3h more time")
	require.Len(t, said, 1)
	require.Contains(t, said[0].Text(), bob.Mention(), "whoever must act: White, bob")
	require.Contains(t, said[0].Text(), fmt.Sprintf("<t:%d:f>", after.Unix()))
	require.Contains(t, said[0].Text(), "travel")
	require.Contains(t, h.adminIn(alice, thread.ID, "game extend", discordsim.Opt("time", "forever"), discordsim.Opt("reason", "x")), "between 1m and 30d")
	require.Equal(t, after, h.gameOf(thread.ID).Deadline, "nothing changed")

	sand := h.sandStart(bob, carol)
	before = h.gameOf(sand.thread.ID).Deadline
	h.adminIn(alice, sand.thread.ID, "game extend", discordsim.Opt("time", "1d"), discordsim.Opt("reason", "weekend"))
	require.Equal(t, 24*time.Hour, h.gameOf(sand.thread.ID).Deadline.Sub(before))
	h.drained()
	said = h.messagesWith(sand.thread.ID, "gave 1d more time")
	require.Len(t, said, 1)
	require.Contains(t, said[0].Text(), bob.Mention())
	require.Contains(t, said[0].Text(), carol.Mention(), "a deployment: both sides")

	// A game whose clock does not run (stored with no deadline): nothing
	// to extend, nothing changed.
	idle := h.survivalGame(h.srv.User("dave"), carol)
	g := h.gameOf(idle.ID)
	g.Deadline, g.Remind = time.Time{}, time.Time{}
	require.NoError(t, h.store.Update(context.Background(), func(tx storage.Tx) error { return tx.Games().Put(g, h.clock.Now()) }))
	require.Contains(t, h.adminIn(alice, idle.ID, "game extend", discordsim.Opt("time", "1h"), discordsim.Opt("reason", "x")), "No deadline runs")
	require.True(t, h.gameOf(idle.ID).Deadline.IsZero())

	// A finished game: no extending; its thread archived and locked now.
	h.replyConfirmed(carol, thread.ID, "resign")
	h.drained()
	require.Contains(t, h.adminIn(alice, thread.ID, "game extend", discordsim.Opt("time", "1h"), discordsim.Opt("reason", "x")), "over")
	require.Contains(t, h.adminIn(alice, sand.thread.ID, "game end-thread", discordsim.Opt("reason", "x")), "still on")
	require.False(t, h.srv.ChannelByID(thread.ID).Archived, "the automatic archive is still pending")
	got = h.adminIn(alice, h.gen.ID, "game end-thread", discordsim.Opt("reason", "done"), discordsim.Opt("game", h.gameOf(thread.ID).ID))
	require.Contains(t, got, "Archiving")
	h.drained()
	c := h.srv.ChannelByID(thread.ID)
	require.True(t, c.Archived && c.Locked, "archived and locked")
	require.NotEmpty(t, h.messagesWith(thread.ID, "archived and locked this thread. Why: done"))
	require.Contains(t, h.adminIn(alice, h.gen.ID, "game abort", discordsim.Opt("reason", "x"), discordsim.Opt("game", "nosuchgame")), "no game")
}

// TestAdminAdjudicateEachGame: a manager declares a Survival win (rated:
// the ratings move, the records count it), a SandTable draw and a Team
// Chess mutual loss, the results offered being each game's own; a result
// the game cannot have and a game already over are refused, nothing
// changed.
func TestAdminAdjudicateEachGame(t *testing.T) {
	t.Parallel()
	h, alice, bob := adminHarness(t)
	carol, dave := h.srv.User("carol"), h.srv.User("dave")

	thread := h.survivalGame(bob, carol)
	in, err := h.srv.Autocomplete(alice, thread.ID, "admin game adjudicate", discordsim.Focused("result", ""), discordsim.Opt("reason", "r"))
	require.NoError(t, err)
	choices, err := in.WaitChoices(wait)
	require.NoError(t, err)
	var values []string
	for _, c := range choices {
		values = append(values, c.Value.(string))
	}
	require.Equal(t, []string{"white", "black", "draw"}, values)
	require.Contains(t, h.adminIn(alice, thread.ID, "game adjudicate", discordsim.Opt("result", "mutual"), discordsim.Opt("reason", "r")), "not a result of this game")
	got := h.adminIn(alice, thread.ID, "game adjudicate", discordsim.Opt("result", "black"), discordsim.Opt("reason", "bob left the server"))
	require.Contains(t, got, "Adjudicated")
	final := h.liveBoard(thread)
	require.Contains(t, final.Text(), carol.Mention())
	require.Contains(t, final.Text(), "wins by adjudication")
	require.Contains(t, final.Text(), "bob left the server")
	require.Contains(t, final.Text(), "Ratings: ", "rated")
	require.Contains(t, h.statsOf(dave, carol), "1 W · 0 L · 0 D")
	require.Contains(t, h.statsOf(dave, bob), "0 W · 1 L · 0 D")
	require.Contains(t, h.adminIn(alice, thread.ID, "game adjudicate", discordsim.Opt("result", "white"), discordsim.Opt("reason", "changed my mind")), "already over")
	require.Contains(t, h.statsOf(dave, carol), "1 W · 0 L · 0 D", "nothing changed")

	sand := h.sandStart(bob, carol)
	h.adminIn(alice, sand.thread.ID, "game adjudicate", discordsim.Opt("result", "draw"), discordsim.Opt("reason", "both agreed by voice"))
	h.drained()
	require.NotEmpty(t, h.messagesWith(sand.thread.ID, "Drawn by adjudication"))
	o := h.gameOf(sand.thread.ID).Outcome
	require.Equal(t, storage.Adjudicated, o.Method)
	require.Empty(t, o.Winners)

	tb := h.tcStart("", []*discordsim.User{bob}, []*discordsim.User{carol, dave})
	h.adminIn(alice, tb.pub.ID, "game adjudicate", discordsim.Opt("result", "mutual"), discordsim.Opt("reason", "both broke rule 4"))
	h.drained()
	require.NotEmpty(t, h.messagesWith(tb.pub.ID, "mutual loss"))
	o = h.gameOf(tb.pub.ID).Outcome
	require.Equal(t, storage.Adjudicated, o.Method)
	require.ElementsMatch(t, []string{bob.ID, carol.ID, dave.ID}, o.Losers)
	require.Empty(t, o.Winners)

	require.Equal(t, 3, strings.Count(h.admin(alice, "log"), "**adjudicate**"))
}
