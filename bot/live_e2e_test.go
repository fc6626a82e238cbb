package bot_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
)

// threadCount is what a channel shows: the bot's public messages (their
// final versions; deleted ones are gone), those carrying an image, and
// the bot's private answers there.
type threadCount struct {
	messages, images, private int
	compact                   []string // the messages without image, in order
}

func (h *harness) countBotMessages(channelID string) threadCount {
	h.t.Helper()
	h.drained()
	var c threadCount
	for _, m := range h.srv.Messages(channelID) {
		if m.Author == nil || m.Author.ID != h.srv.Bot().ID {
			continue
		}
		if m.Ephemeral() {
			c.private++
			continue
		}
		c.messages++
		if hasImage(m) {
			c.images++
		} else {
			c.compact = append(c.compact, m.Text())
		}
	}
	return c
}

// TestSurvivalThreadKeepsOneLiveBoard is issue 25's acceptance test: a
// 40-ply Survival game played with /move, no draw offer, leaves at most 6
// bot messages in its thread (the header, the live board edited in place,
// the turn's ping; then the replay and the closing summary); each turn's
// player is notified exactly once, by the ping message alone (the board's
// edits and its mentions notify nobody), and no ping of an earlier turn is
// left. The end deletes the last ping before the thread is archived.
func TestSurvivalThreadKeepsOneLiveBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	pingsIn := func(u *discordsim.User) int {
		n := 0
		for _, no := range h.srv.Notifications(u.ID) {
			if no.ChannelID == thread.ID {
				n++
			}
		}
		return n
	}
	h.drained()
	require.Equal(t, 1, pingsIn(alice), "White is pinged once for the first move")
	require.Equal(t, 0, pingsIn(bob))
	board := h.liveBoard(thread)
	for i, mv := range eliminationGame[:40] {
		player, next := alice, bob
		if i%2 == 1 {
			player, next = bob, alice
		}
		live := h.move(player, thread, mv)
		require.Equal(t, board.ID, live.ID, "after ply %d: the live board is edited in place", i+1)
		require.NotEmpty(t, live.Buttons(), "the live board keeps its controls")
		c := h.countBotMessages(thread.ID)
		require.LessOrEqual(t, c.messages, 3, "after ply %d: the header, the live board and one ping", i+1)
		require.Equal(t, 1, c.images, "after ply %d: one board image in the thread", i+1)
		plies := i + 1 // alice is pinged at the start and after each of bob's plies, bob after each of alice's
		require.Equal(t, 1+plies/2, pingsIn(alice), "after ply %d: alice pinged once per turn of hers", plies)
		require.Equal(t, (plies+1)/2, pingsIn(bob), "after ply %d: bob pinged once per turn of his", plies)
		pings := h.pingMessages(thread.ID)
		require.Len(t, pings, 1, "after ply %d: one ping left in the thread", i+1)
		require.Contains(t, pings[0].Content, next.Mention()+", your move", "the ping names the player to move")
		require.NotContains(t, pings[0].Content, player.Mention())
	}
	c := h.countBotMessages(thread.ID)
	for i, m := range public(h.srv.Messages(thread.ID)) {
		t.Logf("after 40 plies: v%d img=%v %q", m.Version, hasImage(m), m.Text()[:min(160, len(m.Text()))])
		tcDump(t, fmt.Sprintf("survival-40-plies-%d", i), m)
	}
	t.Logf("Survival, 40 plies played with /move: %d bot messages in the thread, %d with an image, %d private answers; pings: alice %d, bob %d",
		c.messages, c.images, c.private, pingsIn(alice), pingsIn(bob))

	h.replyConfirmed(bob, thread.ID, "resign")
	end := h.liveBoard(thread)
	require.Equal(t, board.ID, end.ID, "the live board becomes the final board")
	require.Contains(t, end.Text(), "wins by resignation")
	requireOnlyRematch(t, end)
	require.Empty(t, h.pingMessages(thread.ID), "the end deletes the last ping")
	require.Equal(t, 21, pingsIn(alice))
	require.Equal(t, 20, pingsIn(bob))

	// The replay and the thread's closing summary follow.
	h.clock.Advance(commands.ArchiveDelay)
	h.swept()
	c = h.countBotMessages(thread.ID)
	for _, m := range public(h.srv.Messages(thread.ID)) {
		t.Logf("archived: v%d img=%v %q", m.Version, hasImage(m), m.Text()[:min(160, len(m.Text()))])
	}
	t.Logf("Survival, 40 plies, resigned, archived: %d bot messages in the thread, %d with an image", c.messages, c.images)
	require.LessOrEqual(t, c.messages, 6, "issue 25's target")
	require.Equal(t, 1, c.images)
	// The closing summary names the winner: the one notification after
	// the end.
	require.Equal(t, 22, pingsIn(alice), "the winner is told by the closing summary")
	require.Equal(t, 20, pingsIn(bob))
	require.Empty(t, h.pingMessages(thread.ID))
}

// pingText is what a turn's ping says.
var pingText = regexp.MustCompile(`, your (move|turn|deployment)\b`)

// pingMessages are the bot's turn pings left in channelID.
func (h *harness) pingMessages(channelID string) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range public(h.srv.Messages(channelID)) {
		if m.Author != nil && m.Author.ID == h.srv.Bot().ID && pingText.MatchString(m.Content) && len(m.Embeds) == 0 {
			out = append(out, m)
		}
	}
	return out
}

// public is ms without the ephemeral messages.
func public(ms []*discordsim.Message) []*discordsim.Message {
	var out []*discordsim.Message
	for _, m := range ms {
		if !m.Ephemeral() {
			out = append(out, m)
		}
	}
	return out
}

// lastPublic is the newest message of channelID that everyone sees, or nil.
func (h *harness) lastPublic(channelID string) *discordsim.Message {
	ms := h.srv.Messages(channelID)
	for i := len(ms) - 1; i >= 0; i-- {
		if !ms[i].Ephemeral() {
			return ms[i]
		}
	}
	return nil
}

// TestTeamChessThreadsKeepOneLiveBoard: in Team Chess, the public thread
// and each team thread keep one live board each (a team's drawn from its
// side), edited in place at every move; each commander is pinged in their
// team's thread, once per turn, and no ping is left in any thread after
// the end.
func TestTeamChessThreadsKeepOneLiveBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tb := h.tcStart("", users(h, "alice", "carol"), users(h, "bob", "dan"))
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "O-O", "Nf6"}
	pingsIn := func(u *discordsim.User, ch *discordsim.Channel) int {
		n := 0
		for _, no := range h.srv.Notifications(u.ID) {
			if no.ChannelID == ch.ID {
				n++
			}
		}
		return n
	}
	for i, mv := range moves {
		u, next, team := alice, bob, tb.team[tcBlack]
		if i%2 == 1 {
			u, next, team = bob, alice, tb.team[tcWhite]
		}
		board := tb.move(u, mv)
		require.Contains(t, board.Text(), "played **"+mv+"**")
		h.drained()
		pings := h.pingMessages(team.ID)
		require.Len(t, pings, 1, "after %s: the commander to move pinged in their team thread", mv)
		require.Contains(t, pings[0].Content, next.Mention())
	}
	require.Equal(t, 6, pingsIn(alice, tb.team[tcWhite]), "alice: the first move and 5 more")
	require.Equal(t, 5, pingsIn(bob, tb.team[tcBlack]))
	require.Zero(t, pingsIn(alice, tb.pub)+pingsIn(bob, tb.pub), "nobody is pinged in the public thread")
	tb.do(bob, tb.pub, "resign")
	names := []string{"public thread", "White's thread", "Black's thread"}
	for i, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		c := h.countBotMessages(th.ID)
		t.Logf("Team Chess, %d moves then a resignation, %s: %d bot messages, %d with an image, %d private answers", len(moves), names[i], c.messages, c.images, c.private)
		require.Equal(t, 1, c.images, "%s: one live board", names[i])
		require.LessOrEqual(t, c.messages, 2, "%s: the live board (and the public thread's PGN-bearing final board)", names[i])
		require.Empty(t, h.pingMessages(th.ID), "%s: no ping left after the end", names[i])
	}
}

// TestSandTableThreadKeepsOneLiveBoard: in SandTable, a turn's actions
// (the Main action, then the Mines of its PostTurn) and the next turn edit
// the live board in place; the next player is pinged once per turn.
func TestSandTableThreadKeepsOneLiveBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g, _ := h.sandSetup(alice, bob, `sandtable-position 1
phase main
to-move south
piece SB1 a1
piece SB2 e1
piece SI1 c3
piece SI2 g3
piece NB1 t20
piece NB2 p20
piece NI1 t19
piece NI2 n18
`)
	before := h.countBotMessages(g.thread.ID)
	pings := func(u *discordsim.User) int {
		n := 0
		for _, no := range h.srv.Notifications(u.ID) {
			if no.ChannelID == g.thread.ID {
				n++
			}
		}
		return n
	}
	alice0, bob0 := pings(alice), pings(bob)
	any := func(sandtable.Square) bool { return true }
	turns := [][2]string{{"south", "c3-c4"}, {"north", "t19-t18"}, {"south", "c4-c5"}, {"north", "t18-t17"}}
	for _, tu := range turns {
		u := alice
		if tu[0] == "north" {
			u = bob
		}
		g.move(u, tu[1])
		for g.pos().Phase() == sandtable.PhasePostTurn {
			g.mine(any)
		}
	}
	c := h.countBotMessages(g.thread.ID)
	t.Logf("SandTable, %d turns (a Main action and two Mines each): %d bot messages in the thread (%d before them), %d with an image, %d private answers; pings alice +%d, bob +%d",
		len(turns), c.messages, before.messages, c.images, c.private, pings(alice)-alice0, pings(bob)-bob0)
	require.Equal(t, 1, c.images, "one live board")
	require.LessOrEqual(t, c.messages, before.messages+1, "the live board edited, one ping at most")
	require.Len(t, h.pingMessages(g.thread.ID), 1)
	require.Equal(t, 2, pings(bob)-bob0, "bob pinged for each of his turns")
	require.Equal(t, 2, pings(alice)-alice0, "alice pinged for each of hers after the first")
	require.Contains(t, g.board().Text(), "t18-t17", "the live board shows the last turn")
	require.Contains(t, g.board().Text(), alice.Mention()+", your turn", "the live board says whose turn it is")
}

// TestLiveBoardPostedAnewOnTooManyEdits: when Discord refuses to edit the
// live board (30046, a message older than an hour edited too often), the
// board is posted anew and the old one deleted, so the thread still holds
// one board; and a ping deleted by hand before the next turn (404 on its
// delete) counts as done.
func TestLiveBoardPostedAnewOnTooManyEdits(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	board := h.move(alice, thread, eliminationGame[0])
	h.srv.FailNext("PATCH /channels/"+thread.ID+"/messages/"+board.ID, 1,
		discordsim.Fault{Status: 400, Code: 30046, Message: "Maximum number of edits to messages older than 1 hour reached. Try again later"})
	// Bob deletes nothing, but the ping he was sent is gone (a moderator).
	pings := h.pingMessages(thread.ID)
	require.Len(t, pings, 1)
	require.NoError(t, h.srv.DeleteMessage(pings[0].ID))
	fresh := h.move(bob, thread, eliminationGame[1])
	require.NotEqual(t, board.ID, fresh.ID, "the board is posted anew")
	require.Nil(t, h.srv.Message(board.ID), "the old board is deleted")
	c := h.countBotMessages(thread.ID)
	require.Equal(t, 1, c.images, "one board in the thread")
	require.Equal(t, 2, c.messages, "the board and the new ping")
	require.Contains(t, fresh.Text(), "e1=K")
	next := h.move(alice, thread, eliminationGame[2])
	require.Equal(t, fresh.ID, next.ID, "the new board is edited in place from then on")
	require.Equal(t, 0, h.bot.App().Pending(), "nothing left to deliver")
}
