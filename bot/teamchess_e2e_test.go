package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/internal/discordsim"
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
	t.Parallel()
	h := newHarness(t)
	alice, bob, eve := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("eve")
	carol, dan, zed := h.srv.User("carol"), h.srv.User("dan"), h.srv.User("zed")

	rules := h.tcReply(zed, h.gen.ID, "teamchess rules")
	require.Contains(t, mustBeEphemeral(t, rules, zed), "`e8=Assassin:xd4`: removes the opposing piece on d4")
	require.Contains(t, mustBeEphemeral(t, h.tcReply(zed, h.gen.ID, "teamchess new", discordsim.Opt("move_time", "10s")), zed), "move_time must be a time between 1m and 30d")

	lobby := h.tcOpen(alice, discordsim.Opt("move_time", "2h"))
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
		require.Contains(t, mustBeEphemeral(t, m, carol), "Already done: you are in Black's queue")
	})
	lobby = h.tcPress(zed, lobby, "Leave")
	require.Contains(t, lobby.Text(), zed.Mention()+" left Black")
	t.Run("only the creator sets up", func(t *testing.T) {
		m := h.tcPress(zed, lobby, "Leave")
		require.Contains(t, mustBeEphemeral(t, m, zed), "not in this lobby")
		m = h.tcPress(bob, lobby, "Start")
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice, who opened this lobby, can start the game")
		m = h.tcChoose(bob, lobby, "move-up", "w:1:"+alice.ID)
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice")
		m = h.tcPress(bob, lobby, "Cancel")
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice")
	})
	// Queues: White bob, alice, eve; Black carol, dan.
	require.Contains(t, lobby.Text(), "1. "+bob.Mention()+"\n2. "+alice.Mention()+"\n3. "+eve.Mention())
	lobby = h.tcChoose(alice, lobby, "move-up", "w:1:"+alice.ID)
	require.Contains(t, lobby.Text(), "1. "+alice.Mention()+"\n2. "+bob.Mention()+"\n3. "+eve.Mention())
	// Only Black, the smaller team, may have a second command.
	require.ElementsMatch(t, []string{"b:" + carol.ID + " = carol commands twice for Black", "b:" + dan.ID + " = dan commands twice for Black"},
		selectValues(t, lobby, "double"))
	lobby = h.tcChoose(alice, lobby, "double", "b:"+dan.ID)
	require.Contains(t, lobby.Text(), "granted "+dan.Mention()+" a second command for Black")
	require.Contains(t, lobby.Text(), "3. "+dan.Mention()+" (2nd command)")
	// Queue: carol, dan, dan(2nd): move dan's first command to the front.
	lobby = h.tcChoose(alice, lobby, "move-up", "b:1:"+dan.ID)
	require.Contains(t, lobby.Text(), "1. "+dan.Mention()+"\n2. "+carol.Mention()+"\n3. "+dan.Mention()+" (2nd command)")
	tcDump(t, "lobby-1", lobby)

	tb := h.tcBegin(alice, lobby, []*discordsim.User{alice, bob, eve}, []*discordsim.User{dan, carol})
	t.Run("threads and membership", func(t *testing.T) {
		require.Equal(t, "Team Chess · alice, bob, eve vs dan, carol", tb.pub.Name)
		for _, u := range []*discordsim.User{alice, bob, eve, carol, dan} {
			require.True(t, tb.pub.HasMember(u.ID), "%s in the game thread", u.Name)
		}
		for _, u := range []*discordsim.User{alice, bob, eve} {
			require.True(t, tb.team[tcWhite].HasMember(u.ID))
			require.False(t, tb.team[tcBlack].HasMember(u.ID))
		}
		for _, u := range []*discordsim.User{carol, dan} {
			require.True(t, tb.team[tcBlack].HasMember(u.ID))
			require.False(t, tb.team[tcWhite].HasMember(u.ID))
		}
		require.False(t, h.srv.CanSee(zed, tb.team[tcWhite].ID), "a spectator does not see a team thread")
		require.True(t, h.srv.CanSee(zed, tb.pub.ID))
		first := h.srv.Messages(tb.pub.ID)[0]
		tcDump(t, "start-public", first)
		require.Contains(t, first.Text(), alice.Mention()+" commands White and acts first")
		require.Contains(t, first.Text(), "White · stagnation 0/4")
		require.Contains(t, first.Text(), "1. ▶ "+alice.Mention()+" (1500?) +0 -0 · commanding")
		require.Contains(t, first.Text(), "3. "+dan.Mention()+" (1500?) (2nd command) +0 -0")
		requireBoard(t, first)
		for side, th := range tb.team {
			msgs := h.srv.Messages(th.ID)
			if side == tcWhite {
				require.Len(t, h.pingMessages(th.ID), 1, "White's commander pinged in White's thread")
				require.Contains(t, h.pingMessages(th.ID)[0].Content, alice.Mention())
			}
			require.Len(t, msgs, 1+len(h.pingMessages(th.ID)))
			tcDump(t, "start-team-"+[]string{"white", "black"}[side], msgs[0])
			require.Contains(t, msgs[0].Text(), "private thread")
			requireBoard(t, msgs[0])
		}
		require.Contains(t, h.srv.Messages(tb.team[tcBlack].ID)[0].Text(), dan.Mention()+" commands now; advising: "+carol.Mention())
	})

	t.Run("refusals name the active commander", func(t *testing.T) {
		msg := tb.refused(bob, tb.pub, "move", discordsim.Opt("move", "e4"))
		require.Contains(t, msg, "Only the active commander may move: alice commands White now")
		require.Contains(t, msg, "<#"+tb.team[tcWhite].ID+">")
		require.Contains(t, tb.refused(dan, tb.pub, "move", discordsim.Opt("move", "e5")), "It is White's turn: White's active commander, alice, is to act")
		require.Contains(t, tb.refused(zed, tb.pub, "move", discordsim.Opt("move", "e4")), "You are not playing in this game")
		require.Contains(t, tb.refused(alice, tb.pub, "draw offer"), "Team Chess has no draws")
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordsim.Opt("move", "e5")), "`e5` is not a legal move")
		require.Contains(t, tb.refused(bob, tb.pub, "resign"), "Only White's active commander, alice, can resign")
		require.Contains(t, tb.refused(alice, tb.pub, "siege win"), "Black is not besieged")
		require.Contains(t, tb.choices(alice, tb.pub, "e"), "e4 (e2e4) = e2e4")
	})

	t.Run("a move from the team thread is announced everywhere", func(t *testing.T) {
		m := tb.do(alice, tb.team[tcWhite], "move", discordsim.Opt("move", "e4"))
		require.Equal(t, tb.team[tcWhite].ID, m.ChannelID)
		for _, ch := range []*discordsim.Channel{tb.pub, tb.team[tcBlack]} {
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
		require.Contains(t, m.Text(), "1. ~~"+dan.Mention()+" (1500?)~~ +0 -1 · personal loss")
		tb.refresh()
		require.False(t, tb.team[tcBlack].HasMember(dan.ID))
		require.False(t, h.srv.CanSee(dan, tb.team[tcBlack].ID))
		require.NotContains(t, tb.last(tb.pub).Text(), "removed from this thread", "membership notes stay in the team thread")
		require.Contains(t, tb.refused(dan, tb.pub, "suggest", discordsim.Opt("move", "e5")), "You cannot advise: you have a personal loss in this game")
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
		require.Contains(t, tb.refused(bob, tb.pub, "suggest", discordsim.Opt("move", "Nf3")), "Suggest a move when White is to move")
		tb.move(dan, "e5")
		m := tb.refused(bob, tb.pub, "suggest", discordsim.Opt("move", "Nf3"), discordsim.Opt("comment", "develop first"))
		require.Contains(t, m, "posted in your team thread")
		s := h.lastPublic(tb.team[tcWhite].ID)
		require.Equal(t, "💡 **bob** suggests **Nf3** to "+alice.Mention()+".\n> develop first", s.Content)
		require.Contains(t, tb.refused(alice, tb.pub, "suggest", discordsim.Opt("move", "Nf3")), "you are the active commander")
		require.Contains(t, tb.refused(zed, tb.pub, "suggest", discordsim.Opt("move", "Nf3")), "not playing")
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
		m := h.tcReply(zed, tb.pub.ID, "record")
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
		require.Contains(t, tb.refused(bob, tb.pub, "move", discordsim.Opt("move", "e4")), "This game is over: White wins: Black resigned")
		require.False(t, tb.stored().Active)
		require.True(t, tb.stored().Deadline.IsZero())
	})
	tb.requirePrivacy()
}

// TestTeamChessLobbyDoubleWithdrawn: a second command that no longer
// balances the teams is withdrawn when the teams change; a failed start
// keeps the lobby; Cancel closes it.
func TestTeamChessLobbyDoubleWithdrawn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol, dan := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol"), h.srv.User("dan")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	lobby = h.tcPress(carol, lobby, "Join Black")
	lobby = h.tcChoose(alice, lobby, "double", "w:"+alice.ID)
	require.Contains(t, lobby.Text(), "2. "+alice.Mention()+" (2nd command)")
	require.Equal(t, []string{"w:none:" + alice.ID + " = Withdraw alice's second command (White)"}, selectValues(t, lobby, "double"))
	lobby = h.tcPress(carol, lobby, "Leave")
	require.Contains(t, lobby.Text(), alice.Mention()+"'s second command for White was withdrawn")
	require.NotContains(t, lobby.Text(), "2nd command")
	lobby = h.tcPress(carol, lobby, "Join Black")
	lobby = h.tcChoose(alice, lobby, "double", "w:"+alice.ID)
	lobby = h.tcPress(dan, lobby, "Join White")
	require.Contains(t, lobby.Text(), "was withdrawn", "White is no longer the smaller team")

	// A failure while starting (Discord refuses the thread) leaves the
	// lobby open: nothing was saved, and Start works again.
	h.srv.ServerErrorNext("POST /channels/*/messages/*/threads", 1)
	m := h.tcPress(alice, lobby, "Start")
	require.Contains(t, mustBeEphemeral(t, m, alice), "I could not create the game's thread: Discord said")
	m = h.tcPress(alice, lobby, "Cancel")
	require.Contains(t, m.Text(), "cancelled this lobby")
	require.Empty(t, m.Buttons())
}

// users returns the named users of the fake.
func users(h *harness, names ...string) []*discordsim.User {
	var out []*discordsim.User
	for _, n := range names {
		out = append(out, h.srv.User(n))
	}
	return out
}

// TestTeamChessSacrifices plays each role of rule 3 in 1v2 and 2v1 games
// started from special positions: an Assassin, a forced Royal Guard, a
// Saboteur forcing the reply (after a tag-out), a Political Agent deposing
// a commander (who leaves the team thread) and one exhausting a
// one-commander team.
func TestTeamChessSacrifices(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")

	t.Run("assassin", func(t *testing.T) {
		tb := h.tcStart("4k2r/P7/8/8/8/8/8/Q3K3 w - - 0 1", users(h, "alice"), users(h, "bob", "carol"))
		require.Contains(t, tb.choices(alice, tb.pub, "a8=as"), "a8=Assassin:xh8 (a7a8a:h8) = a7a8a:h8")
		m := tb.move(alice, "a8=Assassin:xh8")
		tcDump(t, "assassin", m)
		require.Contains(t, m.Text(), "**alice** (White) played **a8=Assassin:xh8**. The pawn is consumed as an **Assassin** and removes Black's rook on h8 (rule 3.2).")
		requireBoard(t, m)
		require.Contains(t, m.Text(), "Last move\n1. a8=Assassin:xh8 (alice)")
		tb.do(bob, tb.pub, "resign")
		tb.requirePrivacy()
	})

	t.Run("royal guard forced", func(t *testing.T) {
		tb := h.tcStart("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", users(h, "alice", "bob"), users(h, "carol"))
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordsim.Opt("move", "a8=Saboteur:Kd7")),
			"`a8=Saboteur:Kd7` is not a legal move: the pawn on a7 cannot be a Saboteur here: your Queen has been captured, so the pawn must be a Royal Guard (rule 3.1)")
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordsim.Opt("move", "a8")), "Write a8=RoyalGuard")
		// Six legal moves: the private refusal names them, the sacrifice once
		// per role, in the notation typed.
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordsim.Opt("move", "Ke3")),
			"`Ke3` is not a legal move: no king can move to e3\nThe legal moves are `a8=RoyalGuard+`, `Kd1`, `Kd2`, `Ke2`, `Kf1`, `Kf2`.")
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordsim.Opt("move", "e1e3")),
			"\nThe legal moves are `a7a8g`, `e1d1`, `e1d2`, `e1e2`, `e1f1`, `e1f2`.")
		require.Equal(t, []string{"a8=RoyalGuard+ (a7a8g) = a7a8g"}, tb.choices(alice, tb.pub, "a8"))
		m := tb.move(alice, "a7a8g")
		tcDump(t, "royal-guard", m)
		require.Contains(t, m.Text(), "played **a8=RoyalGuard+**. The pawn is consumed as a **Royal Guard**: White's captured Queen returns to the board on a8 (rule 3.1).")
		require.Contains(t, m.Text(), carol.Mention()+", your move (Black): you are in check.")
		require.Contains(t, m.Text(), "**Check:** Black is in check.")
		tb.do(carol, tb.pub, "resign")
	})

	t.Run("saboteur forces the reply", func(t *testing.T) {
		tb := h.tcStart("4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", users(h, "alice"), users(h, "bob", "carol"))
		m := tb.do(alice, tb.team[tcWhite], "move", discordsim.Opt("move", "a8=Saboteur:Kd7"))
		tcDump(t, "saboteur", m)
		require.Contains(t, m.Text(), "The pawn is consumed as a **Saboteur**: Black's next move is forced: **Kd7** (rule 3.3).")
		pub := tb.last(tb.pub)
		require.Contains(t, pub.Text(), bob.Mention()+", your move (Black) is forced by the Saboteur: **Kd7**.")
		require.Contains(t, pub.Text(), "Forced move (Saboteur, rule 3.3)\nBlack must play **Kd7**.")
		require.Equal(t, []string{"Kd7 (e8d7) = e8d7"}, tb.choices(bob, tb.pub, ""), "autocomplete offers only the forced move")
		require.Contains(t, tb.refused(bob, tb.pub, "move", discordsim.Opt("move", "Kf7")), "a Saboteur forced your move: you must play Kd7")
		// The forced side may still tag out first; the next commander plays it.
		m = tb.do(bob, tb.pub, "tagout")
		require.Contains(t, m.Text(), "**carol** takes command of Black")
		require.Contains(t, m.Text(), carol.Mention()+", your move (Black) is forced by the Saboteur: **Kd7**.")
		m = tb.move(carol, "Kd7")
		require.Contains(t, m.Text(), "**carol** (Black) played **Kd7**, the move the Saboteur forced.")
		require.NotContains(t, m.Text(), "Forced move (Saboteur")
		tb.refresh()
		require.False(t, tb.team[tcBlack].HasMember(bob.ID))
		tb.do(alice, tb.pub, "resign")
		tb.requirePrivacy()
	})

	t.Run("political agent deposes a commander", func(t *testing.T) {
		tb := h.tcStart("4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", users(h, "alice"), users(h, "bob", "carol"))
		m := tb.move(alice, "a8=PoliticalAgent")
		tcDump(t, "agent", m)
		require.Contains(t, m.Text(), "The pawn is consumed as a **Political Agent**: a political revolution in Black's team (rule 3.4).")
		require.Contains(t, m.Text(), "🔁 **bob** (Black) is deposed by the Political Agent (rule 3.4): a personal loss for bob, a personal win for alice. **carol** takes command of Black.")
		require.Contains(t, m.Text(), carol.Mention()+", your move (Black).")
		require.Contains(t, tb.last(tb.team[tcBlack]).Text(), "🚪 **bob** was removed from this thread")
		tb.refresh()
		require.False(t, tb.team[tcBlack].HasMember(bob.ID))
		require.True(t, tb.team[tcBlack].HasMember(carol.ID))
		tb.do(carol, tb.pub, "resign")
	})

	t.Run("political agent exhausts a one-commander team", func(t *testing.T) {
		tb := h.tcStart("4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", users(h, "alice", "bob"), users(h, "carol"))
		m := tb.move(alice, "a8=Agent")
		tcDump(t, "agent-exhausts", m)
		require.Contains(t, m.Text(), "Black has no commander left.")
		require.Contains(t, m.Text(), "🔁 **carol** (Black) is deposed by the Political Agent (rule 3.4): a personal loss for carol, a personal win for alice. Black has no commander left.")
		require.Contains(t, m.Text(), "🏁 **White wins by Fatigue victory.** Every Black commander has a personal loss (rule 1.5).\n")
		pgn := m.Attachment("teamchess-" + tb.id + ".pgn")
		require.NotNil(t, pgn)
		require.Contains(t, string(pgn.Data), `[Sacrifices "1. a8=PoliticalAgent"]`)
		require.Contains(t, string(pgn.Data), `[WinCategory "fatigue_victory"]`)
		require.Contains(t, tb.refused(carol, tb.pub, "tagout"), "This game is over")
	})
}

// TestTeamChessSiegesAndLeaderboard plays a Siege Win, a siege continued
// into checkmate, a failed siege attempt and a mutual loss, then checks
// the leaderboard and the stats built from these games.
func TestTeamChessSiegesAndLeaderboard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol, dan := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol"), h.srv.User("dan")
	const siege = "7k/5K2/8/6Q1/8/8/8/8 w - - 0 1"

	t.Run("siege win", func(t *testing.T) {
		tb := h.tcStart(siege, users(h, "alice"), users(h, "bob"))
		m := tb.move(alice, "Qg6")
		tcDump(t, "siege", m)
		require.Contains(t, m.Text(), "Black has no legal move and is not in check: Black is **besieged** and passes (rule 2.1).")
		require.Contains(t, m.Text(), alice.Mention()+", Black is besieged: take the Siege Win with `/siege win` or make one more move with `/siege continue`.")
		require.Contains(t, m.Text(), "Siege decision (rule 2.1)")
		require.Contains(t, m.Text(), "Black · stagnation 1/4")
		require.Contains(t, tb.refused(bob, tb.pub, "siege win"), "It is White's turn")
		require.Contains(t, tb.refused(alice, tb.pub, "move", discordsim.Opt("move", "Qh6")), "Black is besieged and has passed: first decide the siege with `/siege win` or `/siege continue`.")
		require.Empty(t, tb.choices(alice, tb.pub, ""), "no move to offer during the decision")
		m = tb.do(alice, tb.pub, "siege win")
		tcDump(t, "siege-win", m)
		require.Contains(t, m.Text(), "🏁 **White wins by Siege Win.** A Siege Win is dishonourable (rule 5). Personal win for alice, personal loss for bob.")
	})

	t.Run("siege continued into checkmate", func(t *testing.T) {
		tb := h.tcStart(siege, users(h, "alice"), users(h, "bob"))
		tb.move(alice, "Qg6")
		m := tb.do(alice, tb.pub, "siege continue")
		require.Contains(t, m.Text(), "**alice** (White) declines the Siege Win and makes one more move")
		require.Contains(t, m.Text(), alice.Mention()+", make your one more move (White).")
		require.Contains(t, tb.refused(alice, tb.pub, "tagout"), "You chose to continue the siege: your turn has begun")
		m = tb.move(alice, "Qh6#")
		tcDump(t, "siege-mate", m)
		require.Contains(t, m.Text(), "🏁 **White wins by honourable checkmate.** An honourable win (rule 5).")
		requireBoard(t, m)
	})

	t.Run("siege attempt fails", func(t *testing.T) {
		tb := h.tcStart(siege, users(h, "alice", "carol"), users(h, "bob"))
		tb.move(alice, "Qg6")
		tb.do(alice, tb.pub, "siege continue")
		m := tb.move(alice, "Qg1")
		tcDump(t, "siege-fails", m)
		require.Contains(t, m.Text(), "🔁 The siege continuation failed: it gave Black a legal move without checkmate (rule 2.1), a fatigue tag-out for **alice** (White): a personal loss for alice, a personal win for bob. **carol** takes command of White.")
		require.Contains(t, m.Text(), bob.Mention()+", your move (Black).")
		require.Contains(t, tb.last(tb.team[tcWhite]).Text(), "🚪 **alice** was removed from this thread")
		tb.refresh()
		require.False(t, tb.team[tcWhite].HasMember(alice.ID))
		tb.move(bob, "Kh7")
		m = tb.do(carol, tb.pub, "resign")
		require.Contains(t, m.Text(), "Black wins: White resigned")
	})

	t.Run("mutual loss", func(t *testing.T) {
		tb := h.tcStart("", users(h, "alice", "carol"), users(h, "bob", "dan"))
		for i := 0; i < 2; i++ {
			tb.move(alice, "Nf3")
			tb.move(bob, "Nf6")
			tb.move(alice, "Ng1")
			tb.move(bob, "Ng8")
		}
		m := tb.last(tb.pub)
		tcDump(t, "mutual", m)
		require.Contains(t, m.Text(), "🏁 **Both teams lose (mutual loss).** Both teams reached 4 stagnant turns in the same round (rule 4.3). Personal loss for alice, personal loss for bob.")
		pgn := m.Attachment("teamchess-" + tb.id + ".pgn")
		require.NotNil(t, pgn)
		require.Contains(t, string(pgn.Data), `[Result "*"]`)
		require.Contains(t, string(pgn.Data), `[Termination "both teams lose (mutual loss)"]`)
	})

	t.Run("leaderboard", func(t *testing.T) {
		in := h.slash(carol, h.gen.ID, "teamchess leaderboard")
		m := h.tcAnswer(in, nil)
		require.False(t, m.Ephemeral())
		tcDump(t, "leaderboard", m)
		want := strings.Join([]string{
			// Rule 6.1's order, the rating beside (ruling D28): dan and
			// carol never commanded a move in a rated game.
			"**1.** " + alice.Mention() + " · team 2-2 · personal 2-2 (ratio 1.00) · 4 games · rating 1495?",
			"**2.** " + bob.Mention() + " · team 1-3 · personal 2-3 (ratio 0.67) · 4 games · rating 1505?",
			"**3.** " + dan.Mention() + " · team 0-1 · personal 0-0 (ratio 0, no losses) · 1 game",
			"**4.** " + carol.Mention() + " · team 0-2 · personal 0-1 (ratio 0.00) · 2 games",
		}, "\n")
		require.Contains(t, m.Text(), want)
		// The invoker's own rank is theirs alone (ruling D11): not in the
		// public answer, but in a follow-up only they see.
		require.NotContains(t, m.Text(), "Your rank")
		note, err := in.WaitFollowup(wait, func(f *discordsim.Message) bool { return f.ID != m.ID })
		require.NoError(t, err)
		require.Equal(t, "Your rank: 4 of 4 · team 0-2 · personal 0-1 (ratio 0.00) · 2 games.", mustBeEphemeral(t, note, carol))
		for _, u := range []*discordsim.User{alice, bob, dan} {
			for _, v := range h.srv.VisibleMessages(u, h.gen.ID) {
				require.NotContains(t, v.Text(), "Your rank", "%s sees another player's rank", u.Name)
			}
		}
		// A player without a record gets the public list only.
		zed := h.srv.User("zed")
		m = h.tcReply(zed, h.gen.ID, "teamchess leaderboard")
		require.False(t, m.Ephemeral())
		require.NotContains(t, m.Text(), "Your rank")
	})
	t.Run("stats", func(t *testing.T) {
		m := h.tcReply(alice, h.gen.ID, "teamchess stats", discordsim.Opt("user", bob))
		tcDump(t, "stats", m)
		text := m.Text()
		require.Contains(t, text, "Team Chess record · bob")
		require.Contains(t, text, "Rank\n2 of 4")
		require.Contains(t, text, "Team wins / losses\n1 / 3")
		require.Contains(t, text, "Personal wins / losses\n2 / 3")
		require.Contains(t, text, "Team wins by category\nresignation: 1")
		require.Contains(t, text, "Team losses by category\nhonourable checkmate: 1\nSiege Win (dishonourable): 1\nmutual loss: 1")
		m = h.tcReply(h.srv.User("zed"), h.gen.ID, "teamchess stats")
		require.Contains(t, m.Text(), "You have not finished a Team Chess game in this server yet.")
	})
	t.Run("records are per server", func(t *testing.T) {
		other := h.srv.AddGuild("elsewhere", "lounge")
		var lounge *discordsim.Channel
		for _, c := range h.srv.Channels(other.ID) {
			if c.Name == "lounge" {
				lounge = c
			}
		}
		require.NotNil(t, lounge)
		m := h.tcReply(alice, lounge.ID, "teamchess leaderboard")
		require.Contains(t, m.Text(), "No Team Chess game has been finished in this server yet.")
	})
}

// TestTeamChessRestartAndTimer: a 2v2 game survives a restart (the team
// threads still reach the game), then the move timer tags out commanders
// (ruling B1) until a team is exhausted.
func TestTeamChessRestartAndTimer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol, dan := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol"), h.srv.User("dan")
	tb := h.tcStart("", users(h, "alice", "bob"), users(h, "carol", "dan"), discordsim.Opt("move_time", "1h"))
	tb.move(alice, "e4")
	tb.do(carol, tb.team[tcBlack], "move", discordsim.Opt("move", "e5"))
	require.Equal(t, 2, tb.storedActions())

	h.stop()
	h2 := startBot(t, h.srv, h.store.(interface{ Path() string }).Path())
	tb.h = h2
	m := tb.do(alice, tb.team[tcWhite], "move", discordsim.Opt("move", "Nf3"))
	require.Contains(t, m.Text(), "**alice** (White) played **Nf3**.")
	require.Contains(t, tb.last(tb.pub).Text(), "Last move\n2. Nf3 (alice)")
	require.Equal(t, 3, tb.storedActions())
	require.Contains(t, tb.refused(dan, tb.pub, "move", discordsim.Opt("move", "Nc6")), "carol commands Black now")
	games := h2.tcReply(carol, h2.gen.ID, "games")
	require.Contains(t, mustBeEphemeral(t, games, carol), "you play for Black, **your move**")

	h2.clock.Advance(61 * time.Minute)
	m, err := h2.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == tb.pub.ID && strings.Contains(m.Text(), "ran out of time")
	})
	require.NoError(t, err)
	tcDump(t, "timeout", m)
	require.Contains(t, m.Text(), "🔁 **carol** (Black) ran out of time for the move and is tagged out (ruling B1): a personal loss for carol, a personal win for alice. **dan** takes command of Black.")
	require.Contains(t, m.Text(), dan.Mention()+", your move (Black).")
	require.NoError(t, h2.srv.WaitFor(wait, func() bool { return !h2.srv.ChannelByID(tb.team[tcBlack].ID).HasMember(carol.ID) }))

	// Exactly the move time: the deadline is due when it is reached.
	h2.clock.Advance(60 * time.Minute)
	m, err = h2.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == tb.pub.ID && strings.Contains(m.Text(), "White wins by Fatigue victory")
	})
	require.NoError(t, err)
	require.Contains(t, m.Text(), "**dan** (Black) ran out of time for the move")
	require.Contains(t, m.Text(), "Black has no commander left.")
	require.NotNil(t, m.Attachment("teamchess-"+tb.id+".pgn"))
	require.False(t, tb.stored().Active)
	// The sweep posts in the team threads after the game thread; Black's
	// is the last. Wait for it, so the test does not end (and shut the bot
	// down) in the middle of the sweep.
	_, err = h2.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == tb.team[tcBlack].ID && strings.Contains(m.Text(), "White wins by Fatigue victory")
	})
	require.NoError(t, err)
	rec := tb.h.tcReply(bob, tb.pub.ID, "record")
	require.Contains(t, mustBeEphemeral(t, rec, bob), "Black: dan tagged out (move time ran out), personal loss; personal win to alice; no commander left")
	board := tb.h.tcReply(bob, h2.gen.ID, "teamchess leaderboard")
	require.Contains(t, board.Text(), "**1.** "+alice.Mention()+" · team 1-0 · personal 2-0 (ratio 2, no losses) · 1 game")
	tb.requirePrivacy()
}

// TestTeamChessLobbyExpires: a lobby nobody changes for a day (the default
// game.lobby_ttl) is closed by the timer: its message loses its buttons and
// says so (TestLobbyExpires checks that a click that still reaches it is
// refused).
func TestTeamChessLobbyExpires(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	lobby := h.tcOpen(alice)
	require.Contains(t, lobby.Text(), "closes after 1d without a change", "the lobby says when it expires")
	lobby = h.tcPress(bob, lobby, "Join White")
	h.clock.Advance(24*time.Hour - time.Second)
	h.swept()
	require.NotEmpty(t, h.srv.Message(lobby.ID).Buttons(), "a day after the last change, less a second: still open")
	h.clock.Advance(time.Second)
	h.swept()
	closed := h.srv.Message(lobby.ID)
	require.Empty(t, closed.Buttons())
	require.Contains(t, closed.Text(), "This lobby expired")
}
