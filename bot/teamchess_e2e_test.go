package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot/discordtest"
)

// End-to-end Team Chess games over the fake Discord (issue 6, "How we will
// check it"). Rulings of the Discord layer are in docs/rules/teamchess.md,
// "Discord rulings".

// TestTeamChessLobbyAndGame runs the whole lobby flow (joins, a switch of
// sides, refusals, reordering, a second command), then a 3v2 game from the
// standard start: refusals naming the active commander, a move from a team
// thread, a suggestion, voluntary tag-outs with the team thread's
// membership following rule 1.4 (a second command brings its member back),
// a fatigue tag-out, /record, resignation with the PGN, and privacy.
func TestTeamChessLobbyAndGame(t *testing.T) {
	h := newHarness(t)
	alice, bob, eve := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("eve")
	carol, dan, zed := h.srv.User("carol"), h.srv.User("dan"), h.srv.User("zed")

	lobby := h.tcOpen(alice, discordtest.Opt("move_time", "2h"))
	tcDump(t, "lobby-0", lobby)
	require.Contains(t, lobby.Text(), "Time for each move: **2h**")
	for _, label := range []string{"Join White", "Join Black", "Leave", "Start", "Cancel"} {
		buttonID(t, lobby, label)
	}

	t.Run("start needs both sides", func(t *testing.T) {
		m := h.tcPress(alice, lobby, "Start")
		require.Contains(t, mustBeEphemeral(t, m, alice), "White has no commander yet")
	})
	lobby = h.tcPress(bob, lobby, "Join White")
	lobby = h.tcPress(alice, lobby, "Join Black")
	lobby = h.tcPress(alice, lobby, "Join White") // switches sides
	require.Contains(t, lobby.Text(), alice.Mention()+" switched to White")
	lobby = h.tcPress(eve, lobby, "Join White")
	lobby = h.tcPress(carol, lobby, "Join Black")
	lobby = h.tcPress(dan, lobby, "Join Black")
	lobby = h.tcPress(zed, lobby, "Join Black")
	t.Run("join twice, leave when absent", func(t *testing.T) {
		m := h.tcPress(carol, lobby, "Join Black")
		require.Contains(t, mustBeEphemeral(t, m, carol), "already in Black's queue")
	})
	lobby = h.tcPress(zed, lobby, "Leave")
	require.Contains(t, lobby.Text(), zed.Mention()+" left Black")
	t.Run("only the creator sets up", func(t *testing.T) {
		m := h.tcPress(zed, lobby, "Leave")
		require.Contains(t, mustBeEphemeral(t, m, zed), "not in this lobby")
		m = h.tcPress(bob, lobby, "Start")
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice, who opened this lobby, can start the game")
		m = h.tcChoose(bob, lobby, "move-up", "w:1")
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice")
		m = h.tcPress(bob, lobby, "Cancel")
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice")
	})
	// Queues: White bob, alice, eve; Black carol, dan.
	require.Contains(t, lobby.Text(), "1. "+bob.Mention()+"\n2. "+alice.Mention()+"\n3. "+eve.Mention())
	lobby = h.tcChoose(alice, lobby, "move-up", "w:1")
	require.Contains(t, lobby.Text(), "1. "+alice.Mention()+"\n2. "+bob.Mention()+"\n3. "+eve.Mention())
	// Only Black, the smaller team, may have a second command.
	require.ElementsMatch(t, []string{"b:" + carol.ID + " = carol commands twice for Black", "b:" + dan.ID + " = dan commands twice for Black"},
		selectValues(t, lobby, "double"))
	lobby = h.tcChoose(alice, lobby, "double", "b:"+dan.ID)
	require.Contains(t, lobby.Text(), "granted "+dan.Mention()+" a second command for Black")
	require.Contains(t, lobby.Text(), "3. "+dan.Mention()+" (2nd command)")
	// Queue: carol, dan, dan(2nd): move dan's first command to the front.
	lobby = h.tcChoose(alice, lobby, "move-up", "b:1")
	require.Contains(t, lobby.Text(), "1. "+dan.Mention()+"\n2. "+carol.Mention()+"\n3. "+dan.Mention()+" (2nd command)")
	tcDump(t, "lobby-1", lobby)

	tb := h.tcBegin(alice, lobby, []*discordtest.User{alice, bob, eve}, []*discordtest.User{dan, carol})
	t.Run("threads and membership", func(t *testing.T) {
		require.Equal(t, "Team Chess · alice, bob, eve vs dan, carol", tb.pub.Name)
		for _, u := range []*discordtest.User{alice, bob, eve, carol, dan} {
			require.True(t, tb.pub.HasMember(u.ID), "%s in the game thread", u.Name)
		}
		for _, u := range []*discordtest.User{alice, bob, eve} {
			require.True(t, tb.team[tcWhite].HasMember(u.ID))
			require.False(t, tb.team[tcBlack].HasMember(u.ID))
		}
		for _, u := range []*discordtest.User{carol, dan} {
			require.True(t, tb.team[tcBlack].HasMember(u.ID))
			require.False(t, tb.team[tcWhite].HasMember(u.ID))
		}
		require.False(t, h.srv.CanSee(zed, tb.team[tcWhite].ID), "a spectator does not see a team thread")
		require.True(t, h.srv.CanSee(zed, tb.pub.ID))
		first := h.srv.Messages(tb.pub.ID)[0]
		tcDump(t, "start-public", first)
		require.Contains(t, first.Text(), alice.Mention()+" commands White and acts first")
		require.Contains(t, first.Text(), "White · stagnation 0/4")
		require.Contains(t, first.Text(), "1. ▶ "+alice.Mention()+" +0 -0 · commanding")
		require.Contains(t, first.Text(), "3. "+dan.Mention()+" (2nd command) +0 -0")
		requireBoard(t, first)
		for side, th := range tb.team {
			msgs := h.srv.Messages(th.ID)
			require.Len(t, msgs, 1)
			tcDump(t, "start-team-"+[]string{"white", "black"}[side], msgs[0])
			require.Contains(t, msgs[0].Text(), "private thread")
			requireBoard(t, msgs[0])
		}
		require.Contains(t, h.srv.Messages(tb.team[tcBlack].ID)[0].Text(), dan.Mention()+" commands now; advising: "+carol.Mention())
	})

	t.Run("refusals name the active commander", func(t *testing.T) {
		msg := tb.refused(bob, tb.pub, "move", discordtest.Opt("move", "e4"))
		require.Contains(t, msg, "Only the active commander may move: alice commands White now")
		require.Contains(t, msg, "<#"+tb.team[tcWhite].ID+">")
		require.Contains(t, tb.refused(dan, tb.pub, "move", discordtest.Opt("move", "e5")), "It is White's turn: White's active commander, alice, is to act")
		require.Contains(t, tb.refused(zed, tb.pub, "move", discordtest.Opt("move", "e4")), "You are not playing in this game")
		require.Contains(t, tb.refused(alice, tb.pub, "draw offer"), "Team Chess has no draws")
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordtest.Opt("move", "e5")), "`e5` is not a legal move")
		require.Contains(t, tb.refused(bob, tb.pub, "resign"), "Only White's active commander, alice, can resign")
		require.Contains(t, tb.refused(alice, tb.pub, "siege win"), "Black is not besieged")
		require.Contains(t, tb.choices(alice, tb.pub, "e"), "e4 (e2e4) = e2e4")
	})

	t.Run("a move from the team thread is announced everywhere", func(t *testing.T) {
		m := tb.do(alice, tb.team[tcWhite], "move", discordtest.Opt("move", "e4"))
		require.Equal(t, tb.team[tcWhite].ID, m.ChannelID)
		for _, ch := range []*discordtest.Channel{tb.pub, tb.team[tcBlack]} {
			last := tb.last(ch)
			require.Contains(t, last.Text(), "**alice** (White) played **e4**")
			require.Contains(t, last.Text(), "Last move\n1. e4 (alice)")
			requireBoard(t, last)
		}
		require.Contains(t, tb.last(tb.pub).Text(), dan.Mention()+", your move (Black).")
		require.NotContains(t, tb.last(tb.team[tcBlack]).Content, "<@", "team threads do not ping a second time")
	})

	t.Run("voluntary tag-out removes the adviser right", func(t *testing.T) {
		m := tb.do(dan, tb.team[tcBlack], "tagout")
		tcDump(t, "tagout-dan", m)
		require.Contains(t, m.Text(), "**dan** (Black) tagged out (rule 1.2): a personal loss for dan, a personal win for alice. **carol** takes command of Black. dan may no longer advise (rule 1.4).")
		require.Contains(t, m.Text(), "🚪 **dan** was removed from this thread")
		require.Contains(t, m.Text(), "1. ~~"+dan.Mention()+"~~ +0 -1 · personal loss")
		tb.refresh()
		require.False(t, tb.team[tcBlack].HasMember(dan.ID))
		require.False(t, h.srv.CanSee(dan, tb.team[tcBlack].ID))
		require.NotContains(t, tb.last(tb.pub).Text(), "removed from this thread", "membership notes stay in the team thread")
		require.Contains(t, tb.refused(dan, tb.pub, "suggest", discordtest.Opt("move", "e5")), "You cannot advise: you have a personal loss in this game")
	})
	t.Run("the second command brings its member back", func(t *testing.T) {
		m := tb.do(carol, tb.pub, "tagout")
		require.Contains(t, m.Text(), "**dan** takes command of Black")
		black := tb.last(tb.team[tcBlack])
		tcDump(t, "second-command-black", black)
		require.Contains(t, black.Text(), "➡️ **dan** is back in this thread to command")
		require.Contains(t, black.Text(), "🚪 **carol** was removed")
		tb.refresh()
		require.True(t, tb.team[tcBlack].HasMember(dan.ID))
		require.False(t, tb.team[tcBlack].HasMember(carol.ID))
	})

	t.Run("suggestions stay in the team thread", func(t *testing.T) {
		require.Contains(t, tb.refused(bob, tb.pub, "suggest", discordtest.Opt("move", "Nf3")), "Suggest a move when White is to move")
		tb.move(dan, "e5")
		m := tb.refused(bob, tb.pub, "suggest", discordtest.Opt("move", "Nf3"), discordtest.Opt("comment", "develop first"))
		require.Contains(t, m, "posted in your team thread")
		s := tb.last(tb.team[tcWhite])
		require.Equal(t, "💡 **bob** suggests **Nf3** to "+alice.Mention()+".\n> develop first", s.Content)
		require.Contains(t, tb.refused(alice, tb.pub, "suggest", discordtest.Opt("move", "Nf3")), "you are the active commander")
		require.Contains(t, tb.refused(zed, tb.pub, "suggest", discordtest.Opt("move", "Nf3")), "not playing")
		tb.requirePrivacy()
	})

	t.Run("fatigue tag-out", func(t *testing.T) {
		// White shuffles a knight; Black pushes pawns: after White's fourth
		// stagnant turn the round ends with Black's move and alice is
		// tagged out (rule 4.2).
		for _, pair := range [][2]string{{"Nf3", "a6"}, {"Ng1", "a5"}, {"Nf3", "a4"}} {
			tb.move(alice, pair[0])
			tb.move(dan, pair[1])
		}
		m := tb.move(alice, "Ng1")
		require.Contains(t, m.Text(), "White · stagnation 4/4")
		m = tb.move(dan, "a3")
		tcDump(t, "fatigue", m)
		require.Contains(t, m.Text(), "**alice** (White) is tagged out by fatigue after 4 turns without a pawn move or capture (rule 4.2): a personal loss for alice, a personal win for dan.")
		require.Contains(t, m.Text(), "**bob** takes command of White")
		require.Contains(t, m.Text(), "White · stagnation 0/4")
		tb.refresh()
		require.False(t, tb.team[tcWhite].HasMember(alice.ID))
		require.Contains(t, tb.last(tb.team[tcWhite]).Text(), "🚪 **alice** was removed")
	})

	t.Run("record", func(t *testing.T) {
		in := h.slash(zed, tb.pub.ID, "record")
		m, err := in.WaitMessage(wait, nil)
		require.NoError(t, err)
		text := mustBeEphemeral(t, m, zed)
		tcDump(t, "record", m)
		require.Contains(t, text, "Black: dan tagged out (voluntary), personal loss; personal win to alice; carol takes command [stagnation W 0/4, B 0/4]")
		require.Contains(t, text, "White: alice tagged out (fatigue), personal loss; personal win to dan; bob takes command")
		require.Contains(t, text, "5. White (alice): Ng1 [stagnation W 4/4, B 0/4]")
		rec := m.Attachment("teamchess-" + tb.id + "-record.txt")
		require.NotNil(t, rec)
		require.Equal(t, 13, strings.Count(string(rec.Data), "\n"), string(rec.Data))
	})

	t.Run("resignation ends the game with the PGN", func(t *testing.T) {
		m := tb.do(dan, tb.pub, "resign")
		tcDump(t, "resign", m)
		require.Contains(t, m.Text(), "🏁 **White wins: Black resigned.**")
		require.Contains(t, m.Text(), "Personal win for bob, personal loss for dan.")
		pgn := m.Attachment("teamchess-" + tb.id + ".pgn")
		require.NotNil(t, pgn)
		for _, want := range []string{`[Result "1-0"]`, `[Variant "Team Chess"]`, `[White "alice, bob, eve"]`, `[Black "dan, carol"]`,
			`[WhiteCommanders "alice (+2 -1); bob* (+1 -0); eve (+0 -0)"]`, `[BlackCommanders "dan (+0 -1); carol (+0 -1); dan 2nd* (+1 -1)"]`,
			`[TagOuts "1... Black dan (voluntary) -> carol; 1... Black carol (voluntary) -> dan; 6. White alice (fatigue) -> bob"]`,
			`[WinCategory "resignation"]`, `[GameID "` + tb.id + `"]`, `[MoveTime "2h"]`, "1... e5 2. Nf3 a6"} {
			require.Contains(t, string(pgn.Data), want)
		}
		for _, th := range tb.team {
			require.Contains(t, tb.last(th).Text(), "White wins: Black resigned")
			require.Nil(t, tb.last(th).Attachment("teamchess-"+tb.id+".pgn"), "the PGN is attached once, in the game thread")
		}
		require.Contains(t, tb.refused(bob, tb.pub, "move", discordtest.Opt("move", "e4")), "This game is over: White wins: Black resigned")
		require.False(t, tb.stored().Active)
		require.True(t, tb.stored().Deadline.IsZero())
	})
	tb.requirePrivacy()
}

// TestTeamChessLobbyDoubleWithdrawn: a second command that no longer
// balances the teams is withdrawn when the teams change; Cancel closes.
func TestTeamChessLobbyDoubleWithdrawn(t *testing.T) {
	h := newHarness(t)
	alice, bob, carol, dan := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol"), h.srv.User("dan")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	lobby = h.tcPress(carol, lobby, "Join Black")
	lobby = h.tcChoose(alice, lobby, "double", "w:"+alice.ID)
	require.Contains(t, lobby.Text(), "2. "+alice.Mention()+" (2nd command)")
	require.Equal(t, []string{"w:none = Withdraw alice's second command (White)"}, selectValues(t, lobby, "double"))
	lobby = h.tcPress(carol, lobby, "Leave")
	require.Contains(t, lobby.Text(), alice.Mention()+"'s second command for White was withdrawn")
	require.NotContains(t, lobby.Text(), "2nd command")
	lobby = h.tcPress(carol, lobby, "Join Black")
	lobby = h.tcChoose(alice, lobby, "double", "w:"+alice.ID)
	lobby = h.tcPress(dan, lobby, "Join White")
	require.Contains(t, lobby.Text(), "was withdrawn", "White is no longer the smaller team")
	m := h.tcPress(alice, lobby, "Cancel")
	require.Contains(t, m.Text(), "cancelled this lobby")
	require.Empty(t, m.Buttons())
}

var _ = time.Second
