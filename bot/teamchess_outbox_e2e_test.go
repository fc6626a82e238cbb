package bot_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestTeamChessFirstBoardFailsThenArrives: a 500 on a new Team Chess
// game's first post does not undo the start: the lobby is closed (no
// second Start), one game and one set of threads exist, and the first
// board arrives once, with the team threads' boards after it, when the
// outbox retries.
func TestTeamChessFirstBoardFailsThenArrives(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	h.srv.ServerErrorNext("POST /channels/*/messages", 1)
	started := h.tcPress(alice, lobby, "Start")
	require.False(t, started.Ephemeral(), started.Text())
	require.Contains(t, started.Text(), "started the game")
	require.Empty(t, started.Buttons(), "the lobby is closed: no second Start")
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(started.Text())
	require.NotNil(t, link)
	pub := link[1]

	threads := func() (public, private int) {
		for _, th := range h.srv.Threads(h.gen.ID) {
			switch th.Type {
			case discordgo.ChannelTypeGuildPublicThread:
				public++
			case discordgo.ChannelTypeGuildPrivateThread:
				private++
			}
		}
		return public, private
	}
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.CallsTo("POST /channels/*/messages")) > 0 }))
	require.Empty(t, h.messagesWith(pub, "acts first"), "the first post failed")
	pubs, privs := threads()
	require.Equal(t, [2]int{1, 2}, [2]int{pubs, privs})
	games := h.reply(alice, h.gen.ID, "games")
	require.Equal(t, 1, strings.Count(games.Text(), "Team Chess"), games.Text())

	// The retry is due a second later.
	h.clock.Advance(2 * time.Second)
	h.swept()
	require.Len(t, h.messagesWith(pub, "acts first"), 1, "the first board arrives once")
	pubs, privs = threads()
	require.Equal(t, [2]int{1, 2}, [2]int{pubs, privs}, "no second set of threads")
	for _, th := range h.srv.Threads(h.gen.ID) {
		if th.Type == discordgo.ChannelTypeGuildPrivateThread {
			require.Len(t, h.messagesWith(th.ID, "private thread"), 1, "each team thread's first board, once")
		}
	}
	m := h.tcReply(alice, pub, "move", discordsim.Opt("move", "e4"))
	require.Contains(t, m.Text(), "played **e4**")
}

// TestTeamChessLostTeamBoardIsRetried: a 500 on the first board a move
// sends (the public thread's; the answer, the interaction's callback, is
// private) delays the move's boards: the outbox posts each once when it
// retries (it used to be logged and lost), and each replaces its thread's
// live board.
func TestTeamChessLostTeamBoardIsRetried(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	tb := h.tcStart("", users(h, "alice"), users(h, "bob"))
	h.srv.ServerErrorNext("PATCH /channels/*/messages/*", 1)
	m := tb.h.tcReply(alice, tb.pub.ID, "move", discordsim.Opt("move", "e4"))
	require.Contains(t, mustBeEphemeral(t, m, alice), "played **e4**")
	require.Empty(t, public(h.messagesWith(tb.pub.ID, "played **e4**")), "the edit failed")
	h.clock.Advance(2 * time.Second)
	h.swept()
	for _, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		require.Len(t, public(h.messagesWith(th.ID, "played **e4**")), 1, "the live board edited, after the retry")
		c := h.countBotMessages(th.ID)
		require.LessOrEqual(t, c.messages, 2, "the live board and, in Black's thread, bob's ping")
		require.Equal(t, 1, c.images, "one live board")
	}
	require.Len(t, h.pingMessages(tb.team[tcBlack].ID), 1)
	tb.move(bob, "e5")
}
