package bot_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// survivalGame starts a Survival game between alice (White) and bob (Black)
// and returns the game thread.
func (h *harness) survivalGame(alice, bob *discordsim.User, opts ...discordsim.Option) *discordsim.Channel {
	h.t.Helper()
	opts = append([]discordsim.Option{discordsim.Opt("opponent", bob), discordsim.Opt("color", "white")}, opts...)
	ch := h.reply(alice, h.gen.ID, "survival challenge", opts...)
	require.False(h.t, ch.Ephemeral(), "a challenge is public")
	require.Contains(h.t, ch.Content, bob.Mention())
	in := h.click(bob, ch, buttonID(h.t, ch, "Accept"))
	require.Contains(h.t, []discordgo.InteractionResponseType{discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseDeferredMessageUpdate}, respType(h.t, in))
	updated, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(h.t, err)
	require.Empty(h.t, updated.Buttons(), "an accepted challenge has no buttons left")
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(updated.Text())
	require.NotNil(h.t, link, "the accepted challenge links the game thread")
	thread := h.srv.ChannelByID(link[1])
	require.NotNil(h.t, thread)
	require.Equal(h.t, h.gen.ID, thread.ParentID)
	require.Equal(h.t, "Survival · "+alice.Name+" vs "+bob.Name, thread.Name)
	h.drained()
	thread = h.srv.ChannelByID(thread.ID)
	require.True(h.t, thread.HasMember(alice.ID) && thread.HasMember(bob.ID), "both players are added to the thread")
	first, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool { return m.ChannelID == thread.ID })
	require.NoError(h.t, err)
	require.NotNil(h.t, first.Attachment("board.png"), "the first board is posted in the thread")
	require.Contains(h.t, first.Text(), "first move must be a promotion")
	return thread
}

// move plays a move and returns the board it posted: the mover is answered
// privately ("You played ..."), the thread gets the new live board.
func (h *harness) move(u *discordsim.User, thread *discordsim.Channel, mv string) *discordsim.Message {
	h.t.Helper()
	m := h.reply(u, thread.ID, "move", discordsim.Opt("move", mv))
	require.True(h.t, strings.HasPrefix(m.Text(), "You played"), "move %s by %s refused: %s", mv, u.Name, m.Text())
	mustBeEphemeral(h.t, m, u)
	return h.liveBoard(thread)
}

// liveBoard waits until everything due is delivered and returns the newest
// message of channel carrying a board image.
func (h *harness) liveBoard(channel *discordsim.Channel) *discordsim.Message {
	h.t.Helper()
	h.drained()
	msgs := h.srv.Messages(channel.ID)
	for i := len(msgs) - 1; i >= 0; i-- {
		if !msgs[i].Ephemeral() && hasImage(msgs[i]) {
			return msgs[i]
		}
	}
	h.t.Fatalf("no board in channel %s", channel.Name)
	return nil
}

// hasImage reports whether m carries an image (a board).
func hasImage(m *discordsim.Message) bool {
	for _, a := range m.Attachments {
		if strings.HasSuffix(a.Filename, ".png") {
			return true
		}
	}
	return false
}

// eliminationGame is a legal Survival game from the Tartan Grid start that
// ends with Black capturing White's last piece (found by a seeded random
// search with games/chess; every move is checked again by the engine here).
var eliminationGame = strings.Fields(`g7g8q e2e1k g8g6 f7g6 c7c8q e1f2 c8d7 f2g3 d7e6 g3h4 e6f5 g6f5 a7a8q h4g5
a8b7 g5f6 e5f6 c2c1q b7c6 c1d2 c6d5 d2b2 d5c4 b2a3 c4d3 a3b4 d3e4 b4a5 e4f3 a5c3 f3g2 c3e3 g2h3 e3d4 h3g4
d4c5 g4f5 c5f5 e7e8q f5f6 e8h5 f6f4 h5b5 f4h2 b5b3 h2d6 b3a2 d6b6 a2a4 b6h6 a4a6 h6a6`)

func TestSurvivalFullGameToElimination(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)

	var last *discordsim.Message
	for i, mv := range eliminationGame {
		player := alice
		if i%2 == 1 {
			player = bob
		}
		last = h.move(player, thread, mv)
		img := last.Attachment("board.png")
		require.NotNil(t, img, "every move answer carries the new board")
		if i == 0 {
			_, err := png.Decode(bytes.NewReader(img.Data))
			require.NoError(t, err)
			require.Contains(t, last.Text(), "1. g8=Q")
			require.NotContains(t, last.Text(), "Capture is mandatory", "Black has no capture after 1. g8=Q")
		}
	}
	text := last.Text()
	require.Contains(t, text, "wins by elimination of the last piece")
	require.Contains(t, text, bob.Mention()+" (Black) wins")
	require.Contains(t, text, "0-1")
	pgn := last.Attachment("survival-" + gameIDFrom(t, last) + ".pgn")
	require.NotNil(t, pgn, "the game record is attached at the end")
	for _, tag := range []string{`[Variant "Survival Chess: Tartan Grid"]`, `[SetUp "1"]`, `[FEN "`, `[Result "0-1"]`, `[White "alice"]`, `[Black "bob"]`, "1. g8=Q"} {
		require.Contains(t, string(pgn.Data), tag)
	}
	requireOnlyRematch(t, last)

	// After the end, moves are refused.
	after := h.reply(alice, thread.ID, "move", discordsim.Opt("move", "a1a2"))
	require.Contains(t, mustBeEphemeral(t, after, alice), "This game is over")
}

func gameIDFrom(t *testing.T, m *discordsim.Message) string {
	t.Helper()
	for _, e := range m.Embeds {
		if e.Footer != nil && strings.HasPrefix(e.Footer.Text, "Game ") {
			return strings.Fields(strings.TrimPrefix(e.Footer.Text, "Game "))[0]
		}
	}
	t.Fatalf("no game ID in %q", m.Text())
	return ""
}

func TestSurvivalRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")

	t.Run("challenge yourself", func(t *testing.T) {
		m := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", alice))
		require.Contains(t, mustBeEphemeral(t, m, alice), "cannot challenge yourself")
	})
	t.Run("challenge a bot", func(t *testing.T) {
		robo := h.srv.AddBot("robo")
		m := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", robo))
		require.Contains(t, mustBeEphemeral(t, m, alice), "is a bot")
	})
	t.Run("bad move time", func(t *testing.T) {
		m := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("move_time", "soon"))
		require.Contains(t, mustBeEphemeral(t, m, alice), "move_time")
	})
	t.Run("only the challenged accepts, the challenger cancels", func(t *testing.T) {
		ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
		in := h.click(carol, ch, buttonID(t, ch, "Accept"))
		m, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		require.Contains(t, mustBeEphemeral(t, m, carol), "only they can accept")
		in = h.click(alice, ch, buttonID(t, ch, "Accept"))
		m, err = in.WaitReply(wait, nil)
		require.NoError(t, err)
		require.Contains(t, mustBeEphemeral(t, m, alice), "Use Cancel")
		in = h.click(bob, ch, buttonID(t, ch, "Cancel"))
		m, err = in.WaitReply(wait, nil)
		require.NoError(t, err)
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only alice")
		in = h.click(alice, ch, buttonID(t, ch, "Cancel"))
		m, err = in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "withdrew") })
		require.NoError(t, err)
		require.Empty(t, m.Buttons())
	})
	t.Run("decline", func(t *testing.T) {
		ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
		in := h.click(bob, ch, buttonID(t, ch, "Decline"))
		m, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "declined") })
		require.NoError(t, err)
		require.Empty(t, m.Buttons())
	})
	t.Run("expired challenge", func(t *testing.T) {
		ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
		// The bot learns the challenge message's ID just after answering
		// (GET @original); only then can the expiry edit it.
		id, err := commands.ParseCustomID(buttonID(t, ch, "Accept"))
		require.NoError(t, err)
		require.Eventually(t, func() bool {
			var doc struct {
				MessageID string `json:"message_id"`
			}
			err := h.store.View(context.Background(), func(tx storage.Tx) error { _, err := tx.Challenges().Get(id.ID, &doc); return err })
			return err == nil && doc.MessageID == ch.ID
		}, wait, 5*time.Millisecond)
		h.clock.Advance(2 * time.Hour)
		// The timer loop edits the challenge message once it expires.
		m, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
			return m.ID == ch.ID && strings.Contains(m.Text(), "expired")
		})
		require.NoError(t, err)
		require.Empty(t, m.Buttons())
	})

	thread := h.survivalGame(alice, bob)
	t.Run("out of turn", func(t *testing.T) {
		m := h.reply(bob, thread.ID, "move", discordsim.Opt("move", "a2a1q"))
		require.Contains(t, mustBeEphemeral(t, m, bob), "It is not your turn")
	})
	t.Run("non-player", func(t *testing.T) {
		m := h.reply(carol, thread.ID, "move", discordsim.Opt("move", "a7a8q"))
		require.Contains(t, mustBeEphemeral(t, m, carol), "You are not playing in this game")
	})
	t.Run("illegal first move", func(t *testing.T) {
		m := h.reply(alice, thread.ID, "move", discordsim.Opt("move", "b2b4"))
		require.Contains(t, mustBeEphemeral(t, m, alice), "`b2b4` is not a legal move")
	})
	h.move(alice, thread, "g7g8q")
	h.move(bob, thread, "e2e1k")
	t.Run("capture is mandatory", func(t *testing.T) {
		// The private refusal names the forced captures in the notation
		// typed: UCI for UCI, SAN for SAN.
		m := h.reply(alice, thread.ID, "move", discordsim.Opt("move", "a7a8q"))
		text := mustBeEphemeral(t, m, alice)
		require.Contains(t, text, "that move does not capture\nCapture is mandatory: the legal captures are `g8f7`, `g8g6`, `g8h7`.")
		m = h.reply(alice, thread.ID, "move", discordsim.Opt("move", "a8=Q"))
		text = mustBeEphemeral(t, m, alice)
		require.Contains(t, text, "Capture is mandatory: the legal captures are `Qxf7`, `Qxg6`, `Qxh7`.")
	})
	t.Run("nothing changed", func(t *testing.T) {
		board := h.reply(carol, thread.ID, "board")
		require.True(t, board.Ephemeral(), "/board answers privately")
		require.Contains(t, board.Text(), "1... e1=K")
		require.Contains(t, board.Text(), "3 captures available: Qxg6, Qxf7, Qxh7")
	})
	t.Run("move outside a game thread", func(t *testing.T) {
		m := h.reply(alice, h.gen.ID, "move", discordsim.Opt("move", "e4"))
		require.Contains(t, mustBeEphemeral(t, m, alice), "There is no game in this channel")
	})
}

func TestSurvivalAutocompleteAndFlip(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)

	in, err := h.srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", "a"))
	require.NoError(t, err)
	choices, err := in.WaitChoices(wait)
	require.NoError(t, err)
	var names []string
	for _, c := range choices {
		names = append(names, c.Name)
	}
	require.ElementsMatch(t, []string{"a8=B (a7a8b)", "a8=K (a7a8k)", "a8=N (a7a8n)", "a8=Q (a7a8q)", "a8=R (a7a8r)"}, names)

	in, err = h.srv.Autocomplete(alice, thread.ID, "move", discordsim.Focused("move", ""))
	require.NoError(t, err)
	choices, err = in.WaitChoices(wait)
	require.NoError(t, err)
	require.Len(t, choices, 20, "the 20 legal first moves (4 pawns x 5 promotions)")

	// The king promotion is a legal choice and its value plays.
	m := h.move(alice, thread, "a7a8k")
	require.Contains(t, m.Text(), "a8=K")

	board := m
	in = h.click(bob, board, buttonID(t, board, "Flip board"))
	flip, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, flip, bob), "from Black's side")
	require.NotNil(t, flip.Attachment("board.png"))
}

func TestSurvivalResignDrawAndTimeout(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")

	t.Run("resign", func(t *testing.T) {
		thread := h.survivalGame(alice, bob)
		require.Contains(t, mustBeEphemeral(t, h.replyConfirmed(bob, thread.ID, "resign"), bob), "You resigned")
		m := h.liveBoard(thread)
		require.Contains(t, m.Text(), bob.Mention()+" resigned")
		require.Contains(t, m.Text(), alice.Mention()+" (White) wins by resignation")
		require.NotNil(t, m.Attachment("survival-"+gameIDFrom(t, m)+".pgn"))
	})
	t.Run("draw by agreement", func(t *testing.T) {
		thread := h.survivalGame(alice, bob)
		m := h.reply(bob, thread.ID, "draw claim")
		require.Contains(t, mustBeEphemeral(t, m, bob), "Only the player to move")
		m = h.reply(alice, thread.ID, "draw claim")
		require.Contains(t, mustBeEphemeral(t, m, alice), "No draw can be claimed")
		m = h.reply(alice, thread.ID, "draw accept")
		require.Contains(t, mustBeEphemeral(t, m, alice), "no draw offer")
		offer := h.reply(alice, thread.ID, "draw offer")
		require.Contains(t, offer.Text(), "offers a draw")
		in := h.click(alice, offer, buttonID(t, offer, "Accept draw"))
		own, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		require.Contains(t, mustBeEphemeral(t, own, alice), "You made this draw offer")
		in = h.click(bob, offer, buttonID(t, offer, "Accept draw"))
		prompt, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		require.Contains(t, mustBeEphemeral(t, h.confirm(bob, prompt), bob), "You accepted the draw offer")
		done := h.liveBoard(thread)
		require.Contains(t, done.Text(), "Draw by agreement")
		require.Contains(t, done.Text(), "1/2-1/2")
	})
	t.Run("a move makes an offer lapse", func(t *testing.T) {
		thread := h.survivalGame(alice, bob)
		h.reply(bob, thread.ID, "draw offer")
		h.move(alice, thread, "c7c8q")
		m := h.reply(alice, thread.ID, "draw accept")
		require.Contains(t, mustBeEphemeral(t, m, alice), "no draw offer")
		h.reply(bob, thread.ID, "draw offer")
		m = h.reply(alice, thread.ID, "draw decline")
		require.Contains(t, m.Text(), "declined")
	})
	t.Run("timeout", func(t *testing.T) {
		thread := h.survivalGame(alice, bob, discordsim.Opt("move_time", "1h"))
		h.move(alice, thread, "e7e8r")
		h.clock.Advance(61 * time.Minute)
		m, err := h.srv.WaitMessage(wait, func(m *discordsim.Message) bool {
			return m.ChannelID == thread.ID && strings.Contains(m.Text(), "ran out of time")
		})
		require.NoError(t, err)
		require.Contains(t, m.Text(), alice.Mention()+" (White) wins by time")
		mv := h.reply(bob, thread.ID, "move", discordsim.Opt("move", "a2a1q"))
		require.Contains(t, mustBeEphemeral(t, mv, bob), "This game is over")
	})
	t.Run("games list", func(t *testing.T) {
		thread := h.survivalGame(alice, bob)
		m := h.reply(bob, h.gen.ID, "games")
		text := mustBeEphemeral(t, m, bob)
		require.Contains(t, text, "<#"+thread.ID+">")
		require.Contains(t, text, "vs "+alice.Mention())
	})
}

// TestRateLimitedCallbackStillAnswers: a 429 from Discord on the answer is
// retried by discordgo after retry_after, and the move is applied once.
func TestRateLimitedCallbackStillAnswers(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	h.srv.RateLimitNext("POST /interactions/*/*/callback", 1, 300*time.Millisecond)
	m := h.move(alice, thread, "g7g8n")
	calls := h.srv.CallsTo("POST /interactions/*/*/callback")
	require.NotEmpty(t, calls)
	faults := 0
	for _, c := range calls {
		if c.Fault {
			faults++
		}
	}
	require.Equal(t, 1, faults, "the 429 was served once, then discordgo retried")
	require.Contains(t, m.Text(), "g8=N")
	board := h.reply(bob, thread.ID, "board")
	require.Contains(t, board.Text(), "1. g8=N")
	require.Equal(t, 1, strings.Count(board.Text(), "g8=N"))
}

// TestServerErrorIsLoggedNotFatal: a 500 on a thread creation makes the
// accept fail with a clear message; the challenge stays open and works.
func TestServerErrorOnAcceptKeepsChallenge(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob))
	h.srv.ServerErrorNext("POST /channels/*/messages/*/threads", 1) // the thread starts from the challenge
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	m, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	text := mustBeEphemeral(t, m, bob)
	require.Contains(t, text, "I could not create the game's thread: Discord said")
	require.Contains(t, text, "The challenge is still open")
	in = h.click(bob, ch, buttonID(t, ch, "Accept"))
	_, err = in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
}

func TestDMClosedIsReported(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice := h.srv.User("alice")
	_, err := h.bot.App().Platform.DM(t.Context(), alice.ID, commands.Message{Content: "hello"})
	require.NoError(t, err)
	require.Len(t, h.srv.VisibleMessages(alice, h.srv.DM(alice).ID), 1)
	h.srv.SetDMsClosed(alice, true)
	_, err = h.bot.App().Platform.DM(t.Context(), alice.ID, commands.Message{Content: "hello again"})
	require.True(t, errors.Is(err, commands.ErrDMClosed), "got %v", err)
}

func TestTokenNotInLogs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.reply(h.srv.User("alice"), h.gen.ID, "games")
	require.NotContains(t, h.logs.String(), h.srv.Token())
	if os.Getenv("SHOW_LOGS") != "" {
		t.Log(h.logs.String())
	}
}

// TestDeferredAnswers runs a game with every interaction deferred: public
// answers fill the deferred message, private ones replace it, button
// updates edit the component's message.
func TestDeferredAnswers(t *testing.T) {
	t.Parallel()
	h := newDeferringHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	thread := h.survivalGame(alice, bob)

	in := h.slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, respType(t, in))
	played, err := in.WaitMessage(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, played, alice), "You played **g8=Q**", "a move is deferred privately")
	m := h.liveBoard(thread)
	require.NotNil(t, m.Attachment("board.png"))
	require.Contains(t, m.Text(), "1. g8=Q")

	in = h.slash(carol, thread.ID, "draw offer")
	f, err := in.WaitFollowup(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, f, carol), "You are not playing")
	require.Nil(t, in.Message(), "the public placeholder is deleted")
	for _, vm := range h.srv.VisibleMessages(alice, thread.ID) {
		require.NotContains(t, vm.Text(), "You are not playing", "a private answer leaked to another user")
	}

	flip := h.click(carol, m, buttonID(t, m, "Flip board"))
	require.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, respType(t, flip))
	f, err = flip.WaitFollowup(wait, nil)
	require.NoError(t, err)
	require.Contains(t, mustBeEphemeral(t, f, carol), "The board from Black's side")
}

// TestLongInputStillGetsAnAnswer: a move of 200 characters (the option's
// limit), each escaped when quoted back, gets a short answer, not a lost
// one. A move of nothing but invisible characters (200 tag characters) is
// read as no move at all (internal/playertext), and told so.
func TestLongInputStillGetsAnAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	m := h.reply(alice, thread.ID, "move", discordsim.Opt("move", strings.Repeat("*_`<@1>", 28)))
	text := mustBeEphemeral(t, m, alice)
	require.Contains(t, text, "is not a legal move")
	require.LessOrEqual(t, len([]rune(m.Content)), 2000)
	m = h.reply(alice, thread.ID, "move", discordsim.Opt("move", strings.Repeat("\U000E0001", 200)))
	require.Contains(t, mustBeEphemeral(t, m, alice), "Write your move in the move option")
}

// TestClockStopsWhileTheBotIsDown: the bot is stopped mid-game and started
// again three hours later; the player's one-hour clock is credited the
// downtime instead of being lost on time at the restart.
func TestClockStopsWhileTheBotIsDown(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob := srv.User("alice"), srv.User("bob")
	thread := h.survivalGame(alice, bob, discordsim.Opt("move_time", "1h"))
	h.move(alice, thread, "g7g8q")
	stoppedAt := h.clock.Now()
	h.stop()

	h2 := startBotAt(t, srv, db, stoppedAt.Add(3*time.Hour), bot.Options{})
	// Run a sweep now, as the timer loop would: nothing is due.
	require.NoError(t, h2.bot.App().Sweep(h2.clock.Now()))
	var games []*storage.Game
	require.NoError(t, h2.store.View(context.Background(), func(tx storage.Tx) error {
		var err error
		games, err = tx.Games().Active(bob.ID)
		return err
	}))
	require.Len(t, games, 1)
	require.True(t, games[0].Active, "not lost on time during the downtime")
	require.True(t, games[0].Deadline.Equal(stoppedAt.Add(4*time.Hour)), "deadline %s: the hour left, counted from the restart", games[0].Deadline)
	board := h2.reply(bob, thread.ID, "board")
	require.NotContains(t, board.Text(), "ran out of time")
	require.Contains(t, board.Text(), "To move", "the game goes on")
	for _, m := range srv.Messages(thread.ID) {
		require.NotContains(t, m.Text(), "ran out of time")
	}
	// One hour after the restart (the time bob had left), the clock runs out.
	h2.clock.Advance(61 * time.Minute)
	_, err := srv.WaitMessage(wait, func(m *discordsim.Message) bool {
		return m.ChannelID == thread.ID && strings.Contains(m.Text(), "ran out of time")
	})
	require.NoError(t, err)
}
