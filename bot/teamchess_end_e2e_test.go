package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/commands"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// TestTeamChessEndRematchAndArchive, through the fake Discord, with answers
// at once and with every answer deferred (a click's answer then comes as a
// follow-up, whose ID the final message must be): a resignation's final
// board offers Rematch, which opens a lobby in the text channel with the
// sides swapped, at once; a minute after the end, the public thread's
// summary links to that final board, which exists and shows the board,
// each team thread's summary links to it too, and all three threads are
// archived and locked (Team Chess rulings D20, D21; Survival ruling 32).
// The rematch lobby starts a game with the sides swapped.
func TestTeamChessEndRematchAndArchive(t *testing.T) {
	t.Parallel()
	for _, deferred := range []bool{false, true} {
		name := "answered"
		if deferred {
			name = "deferred"
		}
		t.Run(name, func(t *testing.T) {
			var h *harness
			if deferred {
				h = newDeferringHarness(t)
			} else {
				h = newHarness(t)
			}
			alice, bob, carol, dan := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol"), h.srv.User("dan")
			tb := h.tcStart("", []*discordsim.User{alice, carol}, []*discordsim.User{bob, dan})
			tb.move(alice, "e4")
			final := tb.do(alice, tb.pub, "resign")
			require.Equal(t, tb.pub.ID, final.ChannelID)
			requireBoard(t, final)
			require.Contains(t, final.Text(), "Black wins")
			requireOnlyRematch(t, final)

			// The final message's ID arrives with the answer's report.
			require.NoError(t, h.srv.WaitFor(wait, func() bool { return tb.stored().FinalMessage == final.ID }),
				"the final message is the resignation's board: %q, want %q", tb.stored().FinalMessage, final.ID)

			// Rematch, by dan: a lobby in the text channel, sides swapped.
			in, err := h.srv.Click(dan, final, buttonID(t, final, "Rematch"))
			require.NoError(t, err)
			opened := h.tcAnswer(in, final)
			require.Contains(t, mustBeEphemeral(t, opened, dan), "Rematch lobby opened in <#"+h.gen.ID+">")
			var lobby *discordsim.Message
			require.NoError(t, h.srv.WaitFor(wait, func() bool {
				for _, m := range h.srv.Messages(h.gen.ID) {
					if strings.Contains(m.Text(), "opened a rematch of game "+tb.id) {
						lobby = m
					}
				}
				return lobby != nil
			}))
			tcDump(t, "end-"+name+"-final", final)
			tcDump(t, "end-"+name+"-rematch-opened", opened)
			tcDump(t, "end-"+name+"-rematch-lobby", lobby)
			require.Contains(t, lobby.Text(), bob.Mention()+", "+dan.Mention()+" now play White, "+alice.Mention()+", "+carol.Mention()+" Black")
			require.Contains(t, lobby.Text(), "1. "+bob.Mention()+"\n2. "+dan.Mention())
			require.Contains(t, lobby.Text(), "1. "+alice.Mention()+"\n2. "+carol.Mention())
			require.False(t, h.srv.ChannelByID(tb.pub.ID).Archived, "the lobby did not wait for the thread's closing")
			again := h.tcPress(bob, lobby, "Join White")
			require.Contains(t, mustBeEphemeral(t, again, bob), "Already done")

			// A minute after the end: summaries, archived and locked.
			h.drained()
			h.clock.Advance(commands.ArchiveDelay)
			h.swept()
			h.drained()
			link := "https://discord.com/channels/" + tb.pub.GuildID + "/" + tb.pub.ID + "/" + final.ID
			require.NotNil(t, h.srv.Message(final.ID).Attachment("board.png"), "the link names the final board, which exists")
			for _, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
				c := h.srv.ChannelByID(th.ID)
				require.True(t, c.Archived && c.Locked, "%s archived and locked", c.Name)
				last := h.srv.LastMessage(th.ID)
				tcDump(t, "end-"+name+"-summary-"+c.Name, last)
				require.True(t, strings.HasPrefix(last.Content, "**Game over.**"), "%s ends with its summary: %q", c.Name, last.Content)
				require.Contains(t, last.Content, link)
			}
			require.Contains(t, h.srv.LastMessage(tb.pub.ID).Content, bob.Mention()+", "+dan.Mention()+" win by resignation.")
			_, err = h.srv.Slash(carol, tb.team[tcWhite].ID, "board")
			require.Error(t, err, "nobody types in a locked team thread")

			// The rematch starts from its lobby, bob commanding White.
			re := h.tcBegin(dan, lobby, []*discordsim.User{bob, dan}, []*discordsim.User{alice, carol})
			require.NotEqual(t, tb.pub.ID, re.pub.ID)
			require.Contains(t, h.srv.Messages(re.pub.ID)[0].Text(), bob.Mention()+" commands White and acts first")
			var lobbies int
			require.NoError(t, h.store.View(context.Background(), func(tx storage.Tx) error {
				return tx.Lobbies().Each(func(string, []byte) error { lobbies++; return nil })
			}))
			require.Zero(t, lobbies, "the rematch lobby was taken by its game")
			h.clock.Advance(time.Hour)
			h.swept()
			var public []string
			for _, m := range h.srv.Messages(h.gen.ID) {
				if !m.Ephemeral() {
					public = append(public, m.Text())
				}
			}
			require.Len(t, public, 2, "the first lobby and the rematch's: nothing else in the text channel: %q", public)
		})
	}
}

// finalMessageOf is the stored final message (storage.Game.FinalMessage)
// of the game whose public thread is threadID.
func (h *harness) finalMessageOf(threadID string) string {
	h.t.Helper()
	var id string
	require.NoError(h.t, h.store.View(context.Background(), func(tx storage.Tx) error {
		g, err := tx.Games().ByChannel(threadID)
		if err == nil {
			id = g.FinalMessage
		}
		return err
	}))
	return id
}

// requireSummaryLinks waits until the game of thread knows its final
// message, which must be final, then lets ArchiveDelay pass and checks
// that the thread's last message, its summary, links to it (Survival
// ruling 32).
func (h *harness) requireSummaryLinks(thread *discordsim.Channel, final *discordsim.Message) {
	h.t.Helper()
	require.NoError(h.t, h.srv.WaitFor(wait, func() bool { return h.finalMessageOf(thread.ID) == final.ID }),
		"the final message: %q, want %q", h.finalMessageOf(thread.ID), final.ID)
	h.drained()
	h.clock.Advance(commands.ArchiveDelay)
	h.swept()
	h.drained()
	summary := h.srv.LastMessage(thread.ID)
	require.True(h.t, strings.HasPrefix(summary.Content, "**Game over.**"), summary.Content)
	require.Contains(h.t, summary.Content, "Final board and full record: https://discord.com/channels/"+thread.GuildID+"/"+thread.ID+"/"+final.ID+"\n")
}
