package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
)

// TestRatingsThroughDiscord: through the simulator and the real discordgo
// client, a rated Survival game (bob resigns) announces both rating
// changes in its final board; /leaderboard game:survival lists the server
// publicly and tells the invoker their own line privately; /stats shows
// the rating, the record and the game with a link; a casual challenge
// says so and rates nothing; another server sees none of it.
func TestRatingsThroughDiscord(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")

	ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	require.Contains(t, ch.Text(), "**Rated** game · "+alice.Mention()+" 1500? · "+bob.Mention()+" 1500?")
	decline(t, h, bob, ch)
	thread := h.survivalGame(alice, bob)
	first := h.liveBoard(thread)
	require.Contains(t, first.Text(), alice.Mention()+" (1500?)", "each player's rating in the header")
	require.Contains(t, first.Text(), "· rated")
	h.replyConfirmed(bob, thread.ID, "resign")
	final := h.liveBoard(thread)
	t.Logf("final board:\n%s", final.Text())
	require.Contains(t, final.Text(), "wins by resignation")
	require.Contains(t, final.Text(), "Ratings: "+alice.Mention()+" 1500? → 1662? (+162) · "+bob.Mention()+" 1500? → 1338? (−162)")

	// The leaderboard: public, the invoker's line privately.
	in := h.slash(bob, h.gen.ID, "leaderboard", discordsim.Opt("game", "survival"))
	lb := h.tcAnswer(in, nil)
	t.Logf("leaderboard:\n%s", lb.Text())
	require.False(t, lb.Ephemeral())
	require.Contains(t, lb.Text(), "**1.** "+alice.Mention()+" **1662? ± 290** · 1 game · 1 W · 0 L · 0 D")
	require.Contains(t, lb.Text(), "**2.** "+bob.Mention()+" **1338? ± 290**")
	require.NotContains(t, lb.Text(), "Your rank")
	note, err := in.WaitFollowup(wait, func(f *discordsim.Message) bool { return f.ID != lb.ID })
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, note, bob), "Your rank in Survival Chess: Tartan Grid: 2 of 2")

	// /stats of alice, asked by carol.
	st := h.tcReply(carol, h.gen.ID, "stats", discordsim.Opt("user", alice))
	t.Logf("stats:\n%s", st.Text())
	require.Contains(t, st.Text(), "1662? ± 290")
	require.Contains(t, st.Text(), "1 W · 0 L · 0 D")
	require.Contains(t, st.Text(), "Streak: 1 win")
	require.Contains(t, st.Text(), "https://discord.com/channels/"+h.gen.GuildID+"/"+thread.ID)
	require.Contains(t, st.Text(), "**won** (resignation) vs "+bob.Mention()+" as White (rated)")

	// A casual game: said on the challenge, rates nothing.
	cas := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("casual", true))
	require.Contains(t, cas.Text(), "**Casual** game (no rating changes)")
	require.Contains(t, cas.Text(), alice.Mention()+" 1662?")
	decline(t, h, bob, cas)
	thread2 := h.survivalGame(alice, bob, discordsim.Opt("casual", true))
	h.replyConfirmed(alice, thread2.ID, "resign")
	final2 := h.liveBoard(thread2)
	require.NotContains(t, final2.Text(), "Ratings:")
	lb = h.tcReply(carol, h.gen.ID, "leaderboard", discordsim.Opt("game", "survival"))
	require.Contains(t, lb.Text(), "1 game · 1 W", "the casual game changed nothing")

	// Another server: no ratings there.
	other := h.srv.AddGuild("Elsewhere")
	gen2, err := h.srv.AddChannel(other.ID, "general")
	require.NoError(t, err)
	lb = h.tcReply(alice, gen2.ID, "leaderboard", discordsim.Opt("game", "survival"))
	require.Contains(t, lb.Text(), "No rated game")
	require.False(t, strings.Contains(lb.Text(), "1662"))
}

// decline declines the challenge m as u, and waits for the answer.
func decline(t *testing.T, h *harness, u *discordsim.User, m *discordsim.Message) {
	t.Helper()
	in := h.click(u, m, buttonID(t, m, "Decline"))
	_, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "declined") })
	require.NoError(t, err)
}
