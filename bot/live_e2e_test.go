package bot_test

import (
	"strings"
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

// TestSurvivalThreadKeepsOneLiveBoard: a 40-ply Survival game played with
// /move, then resigned, leaves its thread at most 48 bot messages and at
// most 2 carrying a board image: each move's board replaces the one
// before, which becomes a line of the move list (issue 15 item 1).
func TestSurvivalThreadKeepsOneLiveBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	var last *discordsim.Message
	for i, mv := range eliminationGame[:40] {
		player := alice
		if i%2 == 1 {
			player = bob
		}
		last = h.move(player, thread, mv)
		c := h.countBotMessages(thread.ID)
		require.Equal(t, 1, c.images, "after ply %d: one board image in the thread", i+1)
		require.Equal(t, i+2, c.messages, "after ply %d: the first board and one per move", i+1)
		next := bob
		if player == bob {
			next = alice
		}
		require.Contains(t, last.Text(), next.Mention()+", your move", "the new board pings the player to move")
		require.NotEmpty(t, last.Buttons(), "the live board keeps its controls")
	}
	c := h.countBotMessages(thread.ID)
	require.Contains(t, c.compact[1], "1. g8=Q — "+alice.Mention(), "the boards read as a move list")
	require.Contains(t, c.compact[2], "1... e1=K — "+bob.Mention())
	for _, m := range h.srv.Messages(thread.ID) {
		if !hasImage(m) && m.Author != nil && m.Author.ID == h.srv.Bot().ID && !m.Ephemeral() {
			require.Empty(t, m.Buttons(), "a compacted board has no buttons: %q", m.Text())
			require.Empty(t, m.Embeds, "a compacted board has no card: %q", m.Text())
			require.LessOrEqual(t, m.Version, 2, "a board is edited once at most")
		}
	}
	t.Logf("Survival, 40 plies played with /move: %d bot messages in the thread, %d with an image, %d private answers", c.messages, c.images, c.private)

	h.replyConfirmed(bob, thread.ID, "resign")
	end := h.liveBoard(thread)
	require.Contains(t, end.Text(), "wins by resignation")
	requireOnlyRematch(t, end)
	c = h.countBotMessages(thread.ID)
	t.Logf("Survival, 40 plies then a resignation: %d bot messages in the thread, %d with an image, %d private answers", c.messages, c.images, c.private)
	require.LessOrEqual(t, c.messages, 48)
	require.LessOrEqual(t, c.images, 2)
	if c.images != 1 {
		for _, m := range h.srv.Messages(thread.ID) {
			t.Logf("v%d img=%v eph=%v %q", m.Version, hasImage(m), m.Ephemeral(), m.Text()[:min(80, len(m.Text()))])
		}
	}
	require.Equal(t, 1, c.images, "the final board is the only image left")
	require.True(t, strings.HasPrefix(c.compact[0], "**Survival Chess: Tartan Grid**"), "the first board became the game's title line: %q", c.compact[0])

	// The thread is archived with its summary: one message more.
	h.clock.Advance(commands.ArchiveDelay)
	h.swept()
	c = h.countBotMessages(thread.ID)
	t.Logf("Survival, archived: %d bot messages in the thread, %d with an image", c.messages, c.images)
	require.LessOrEqual(t, c.messages, 48)
	require.Equal(t, 1, c.images)
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
// side): every move's board replaces the one before in every thread.
func TestTeamChessThreadsKeepOneLiveBoard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tb := h.tcStart("", users(h, "alice", "carol"), users(h, "bob", "dan"))
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	moves := []string{"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "d3", "d6", "O-O", "Nf6"}
	for i, mv := range moves {
		u := alice
		if i%2 == 1 {
			u = bob
		}
		board := tb.move(u, mv)
		require.Contains(t, board.Text(), "played **"+mv+"**")
	}
	tb.do(bob, tb.pub, "resign")
	names := []string{"public thread", "White's thread", "Black's thread"}
	for i, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		c := h.countBotMessages(th.ID)
		t.Logf("Team Chess, %d moves then a resignation, %s: %d bot messages, %d with an image, %d private answers", len(moves), names[i], c.messages, c.images, c.private)
		require.Equal(t, 1, c.images, "%s: one live board", names[i])
		require.LessOrEqual(t, c.messages, len(moves)+2, "%s: the first board, one per move, the final one", names[i])
		require.Contains(t, c.compact[1], "played **e4**", "%s: earlier boards read as the record", names[i])
		for _, m := range h.srv.Messages(th.ID) {
			require.LessOrEqual(t, m.Version, 2, "%s: a board is edited once at most", names[i])
		}
	}
}

// TestSandTableThreadKeepsOneLiveBoard: in SandTable, a turn's actions
// (the Main action, then the Mines of its PostTurn) update the turn's
// board in place; the next turn's board replaces it, and it becomes the
// turn's line.
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
	t.Logf("SandTable, %d turns (a Main action and two Mines each): %d bot messages in the thread (%d before them: the deployment status and the set-up board), %d with an image, %d private answers",
		len(turns), c.messages, before.messages, c.images, c.private)
	require.Equal(t, 1, c.images, "one live board")
	require.Equal(t, before.messages+len(turns), c.messages, "one message per turn")
	var lines []string
	for _, l := range c.compact {
		if strings.Contains(l, " played ") {
			lines = append(lines, l)
		}
	}
	require.Len(t, lines, len(turns), "each turn's board became its line: %q", c.compact)
	require.Contains(t, lines[0], "c3-c4")
	require.Contains(t, lines[0], "Mine", "the turn's line includes its placements")
	require.Contains(t, g.board().Text(), alice.Mention()+", your turn", "the live board pings the player to move")
}
