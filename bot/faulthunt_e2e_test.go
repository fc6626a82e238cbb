package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// survivalChallenge posts alice's Survival challenge to bob (alice White).
func (h *harness) survivalChallenge(alice, bob *discordsim.User) *discordsim.Message {
	h.t.Helper()
	return h.reply(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
}

// gamesListed counts the lines of title in u's /games.
func (h *harness) gamesListed(u *discordsim.User, title string) int {
	h.t.Helper()
	return strings.Count(h.reply(u, h.gen.ID, "games").Text(), title)
}

// TestAcceptCallbackFailsChallengeStillCloses: a 500 on the answer to the
// Accept click (the callback that would turn the challenge into "accepted")
// loses nothing: one game, one thread, the first board once, and the
// challenge message loses its buttons through the outbox, so a second
// Accept starts no second game.
func TestAcceptCallbackFailsChallengeStillCloses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	accept := buttonID(t, ch, "Accept")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	callbacks := len(h.srv.CallsTo("POST /interactions/*/*/callback"))
	_, err := h.srv.Click(bob, ch, accept)
	require.NoError(t, err)
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.Threads(h.gen.ID)) == 1 }))
	thread := h.srv.Threads(h.gen.ID)[0]
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		return len(h.messagesWith(thread.ID, "first move must be a promotion")) == 1
	}))
	// The answer follows the board: the fault must strike it, not the
	// /games below.
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		return len(h.srv.CallsTo("POST /interactions/*/*/callback")) > callbacks
	}))
	h.clock.Advance(time.Minute) // the answer's copy is due after 30 s
	h.swept()
	closed := h.srv.Message(ch.ID)
	require.Empty(t, closed.Buttons(), "the challenge is closed although its answer failed: %q", closed.Text())
	require.Equal(t, 1, h.gamesListed(alice, "Survival Chess"))
	require.Len(t, h.srv.Threads(h.gen.ID), 1)
	require.Len(t, h.messagesWith(thread.ID, "first move must be a promotion"), 1)
	h.move(alice, thread, "g7g8q")
}

// TestAcceptRateLimitedOnce: a 429 at the Accept answer is retried by the
// client: one game, one thread, the challenge closed, the board once.
func TestAcceptRateLimitedOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	h.srv.RateLimitNext("POST /interactions/*/*/callback", 1, 50*time.Millisecond)
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	m, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	require.Empty(t, m.Buttons())
	h.drained()
	threads := h.srv.Threads(h.gen.ID)
	require.Len(t, threads, 1)
	require.Len(t, h.messagesWith(threads[0].ID, "first move must be a promotion"), 1)
	require.Equal(t, 1, h.gamesListed(bob, "Survival Chess"))
}

// TestAcceptThreadStartFailsThenSecondAccept: a 500 on starting the game's
// thread at Accept leaves the challenge open (no game); a second Accept
// starts one game in one thread.
func TestAcceptThreadStartFailsThenSecondAccept(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	h.srv.ServerErrorNext("POST /channels/*/messages/*/threads", 1)
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	_, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	require.Equal(t, 0, h.gamesListed(alice, "Survival Chess"), "no game without its thread")
	open := h.srv.Message(ch.ID)
	in = h.click(bob, open, buttonID(t, open, "Accept"))
	_, err = in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	h.drained()
	threads := h.srv.Threads(h.gen.ID)
	require.Len(t, threads, 1)
	require.Len(t, h.messagesWith(threads[0].ID, "first move must be a promotion"), 1)
	require.Equal(t, 1, h.gamesListed(alice, "Survival Chess"))
}

// TestAcceptMemberAddFailsThenRetried: a 500 on adding a player to the new
// game's thread is retried: both players end up members.
func TestAcceptMemberAddFailsThenRetried(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	h.srv.ServerErrorNext("PUT /channels/*/thread-members/*", 1)
	in := h.click(bob, ch, buttonID(t, ch, "Accept"))
	_, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return strings.Contains(m.Text(), "accepted") })
	require.NoError(t, err)
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		for _, c := range h.srv.CallsTo("PUT /channels/*/thread-members/*") {
			if c.Status == 500 {
				return true
			}
		}
		return false
	}))
	h.clock.Advance(5 * time.Second)
	h.swept()
	thread := h.srv.ChannelByID(h.srv.Threads(h.gen.ID)[0].ID)
	require.True(t, thread.HasMember(alice.ID) && thread.HasMember(bob.ID), "both players are members after the retry")
}

// TestWrongUserCannotAcceptOrCancel: a third user's Accept, Decline or
// Cancel changes nothing; the challenge stays open for its opponent.
func TestWrongUserCannotAcceptOrCancel(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob, carol := h.srv.User("alice"), h.srv.User("bob"), h.srv.User("carol")
	ch := h.survivalChallenge(alice, bob)
	for _, label := range []string{"Accept", "Decline", "Cancel"} {
		var id string
		for _, b := range ch.Buttons() {
			if b.Label == label {
				id = b.CustomID
			}
		}
		if id == "" {
			continue
		}
		in := h.click(carol, ch, id)
		m, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		mustBeEphemeral(t, m, carol)
	}
	// alice cannot accept her own challenge.
	in := h.click(alice, ch, buttonID(t, ch, "Accept"))
	m, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	mustBeEphemeral(t, m, alice)
	require.Empty(t, h.srv.Threads(h.gen.ID))
	require.NotEmpty(t, h.srv.Message(ch.ID).Buttons(), "the challenge is still open")
	h.click(bob, ch, buttonID(t, ch, "Accept"))
	h.drained()
	require.Len(t, h.srv.Threads(h.gen.ID), 1)
}

// TestTeamChessStartPrivateThreadFailsThenStart: a 500 on creating a team's
// private thread at lobby Start leaves the lobby open; a second Start
// reuses what was created, so the game has one public and two private
// threads.
func TestTeamChessStartPrivateThreadFailsThenStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	h.srv.ServerErrorNext("POST /channels/*/threads", 1)
	failed := h.tcPress(alice, lobby, "Start")
	require.NotContains(t, failed.Text(), "started the game", failed.Text())
	lobby = h.srv.Message(lobby.ID)
	started := h.tcPress(alice, lobby, "Start")
	require.Contains(t, started.Text(), "started the game")
	h.drained()
	link := regexp.MustCompile(`<#(\d+)>`).FindStringSubmatch(started.Text())
	require.NotNil(t, link)
	var pubs, privs int
	for _, th := range h.srv.Threads(h.gen.ID) {
		if th.Type == 11 {
			pubs++
		} else {
			privs++
		}
	}
	require.Equal(t, [2]int{1, 2}, [2]int{pubs, privs}, "no second set of threads")
	require.Equal(t, 1, h.gamesListed(alice, "Team Chess"))
}

// serverErrorSeen waits until Discord has answered a call matching pattern
// with the injected 500.
func (h *harness) serverErrorSeen(pattern string) {
	h.t.Helper()
	require.NoError(h.t, h.srv.WaitFor(wait, func() bool {
		for _, c := range h.srv.CallsTo(pattern) {
			if c.Status == 500 {
				return true
			}
		}
		return false
	}))
	// The failed call's handler goes on (AnswerLost queues the lost answer):
	// what a test checks next must not race it.
	h.idle()
}

// TestDrawAcceptClickAnswerFails: a 500 on the answer to the click that
// accepts a draw offer (the answer that would turn the offer into the
// result) must not lose the announcement: the game is over, so the thread
// must say so once, with the record.
func TestDrawAcceptClickAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	offer := h.reply(alice, thread.ID, "draw offer")
	in := h.click(bob, offer, buttonID(t, offer, "Accept draw"))
	prompt, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err = h.srv.Click(bob, prompt, buttonID(t, prompt, "Confirm"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	mv := h.reply(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	require.Contains(t, mustBeEphemeral(t, mv, alice), "over", "the draw was saved")
	h.clock.Advance(time.Minute)
	h.swept()
	require.Len(t, h.messagesWith(thread.ID, "accepted the draw offer"), 1, "the result is announced once")
	// (The offer's message keeps its buttons, as it does when nothing
	// fails: the answer to the click is a new message, and a later press
	// is answered "Already done", changing nothing.)
}

// TestResignAnswerFails: a 500 on the answer to /resign: the result is
// posted once through the outbox, with the record.
func TestResignAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	prompt := h.reply(bob, thread.ID, "resign")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err := h.srv.Click(bob, prompt, buttonID(t, prompt, "Confirm"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.messagesWith(thread.ID, "wins by resignation")) > 0 }))
	h.clock.Advance(time.Minute)
	h.swept()
	res := h.messagesWith(thread.ID, bob.Mention()+" resigned")
	require.Len(t, res, 1, "announced once (the thread's closing summary says who won, not who resigned)")
	var pgn bool
	for _, a := range res[0].Attachments {
		pgn = pgn || strings.HasSuffix(a.Filename, ".pgn")
	}
	require.True(t, pgn, "the record is attached")
}

// TestSurvivalTimeLossAnnouncementFailsThenArrives: a 500 (then a 429) on
// the live board's edit announcing a time loss delays it: announced once
// after the retry.
func TestSurvivalTimeLossAnnouncementFailsThenArrives(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob, discordsim.Opt("move_time", "1h"))
	h.move(alice, thread, "e7e8r")
	// The time loss is shown on the live board, edited in place.
	h.srv.ServerErrorNext("PATCH /channels/*/messages/*", 1)
	h.srv.RateLimitNext("PATCH /channels/*/messages/*", 1, 50*time.Millisecond)
	h.clock.Advance(61 * time.Minute)
	h.requireTimeLosses(thread.ID, 0, "the first edit failed")
	h.clock.Advance(5 * time.Second)
	h.requireTimeLosses(thread.ID, 0, "the retry is rate limited")
	h.clock.Advance(5 * time.Second) // past the 429's Retry-After
	h.requireTimeLosses(thread.ID, 1, "retried twice")
	h.clock.Advance(time.Hour)
	h.requireTimeLosses(thread.ID, 1, "never twice")
}

// TestStaleDrawButtonAfterMove: the Accept button of a draw offer that
// lapsed (the offerer's opponent moved, then the offerer...) changes nothing.
func TestStaleDrawButtonAfterMove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	offer := h.reply(bob, thread.ID, "draw offer")
	h.move(alice, thread, "c7c8q")
	in := h.click(alice, h.srv.Message(offer.ID), buttonID(t, offer, "Accept draw"))
	m, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	require.NotContains(t, m.Text(), "Draw by agreement", "a lapsed offer cannot be accepted")
	h.drained()
	require.Empty(t, h.messagesWith(thread.ID, "Draw by agreement"))
	h.move(bob, thread, "e2e1k")
}

// TestTeamChessStartAnswerFails: a 500 on the answer to the lobby's Start
// click: one game, one set of threads, and the lobby message loses its
// buttons (a second Start is impossible).
func TestTeamChessStartAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err := h.srv.Click(alice, lobby, buttonID(t, lobby, "Start"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.Threads(h.gen.ID)) == 3 }))
	h.clock.Advance(time.Minute)
	h.swept()
	require.Len(t, h.srv.Threads(h.gen.ID), 3)
	require.Equal(t, 1, h.gamesListed(alice, "Team Chess"))
	// The lost answer's update of the lobby message is delivered by the
	// outbox: the lobby shows the start, with no button left to press.
	started := h.srv.Message(lobby.ID)
	require.Contains(t, started.Text(), "started the game")
	require.Empty(t, started.Buttons(), "the started lobby offers no button: %q", started.Text())
}

// TestSandAcceptCallbackFails: a 500 on the answer to a SandTable
// challenge's Accept: one game, one thread, the challenge closed, the
// deployment status posted once.
func TestSandAcceptCallbackFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.reply(alice, h.gen.ID, "sandtable challenge", discordsim.Opt("opponent", bob))
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err := h.srv.Click(bob, ch, buttonID(t, ch, "Accept"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.srv.Threads(h.gen.ID)) == 1 }))
	h.clock.Advance(time.Minute)
	h.swept()
	thread := h.srv.Threads(h.gen.ID)[0]
	require.Len(t, h.messagesWith(thread.ID, "SandTable Chess: Deployment"), 1)
	require.Empty(t, h.srv.Message(ch.ID).Buttons())
	require.Equal(t, 1, h.gamesListed(alice, "SandTable"))
}

// restart stops h's bot (its in-memory state is gone, as after a crash:
// the outbox and the game are what the file holds) and starts a new one on
// the same database and fake Discord, its clock where h's stopped.
func (h *harness) restart(t *testing.T, db string) *harness {
	t.Helper()
	at := h.clock.Now()
	h.stop()
	return startBotAt(t, h.srv, db, at, bot.Options{})
}

// TestAnswerCopiesAfterRestartNotShownTwice: the saved copies of answers
// that were shown (each public move answer, the challenge) are not posted
// again by a restarted bot, which no longer knows they were shown.
func TestAnswerCopiesAfterRestartNotShownTwice(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob := srv.User("alice"), srv.User("bob")
	thread := h.survivalGame(alice, bob)
	h.move(alice, thread, "g7g8q")
	h.move(bob, thread, "e2e1k")
	h = h.restart(t, db)
	h.clock.Advance(time.Minute)
	h.swept()
	require.LessOrEqual(t, len(public(h.messagesWith(thread.ID, "g8=Q"))), 1, "the first move not shown again")
	require.Equal(t, 1, h.countBotMessages(thread.ID).images, "one live board")
	require.Len(t, public(h.messagesWith(thread.ID, "played **e1=K**")), 1)
	require.Len(t, h.messagesWith(h.gen.ID, "Survival Chess"), 1, "the challenge once")
}

// TestAnswerCopyInBusyThreadAfterRestart: a move answered in a busy
// thread (25 messages of a spectator after it, within the 30 s before its
// saved copy is due) and a restart: the restarted bot, which no longer
// knows the answer was shown, must not post the move's board a second time.
func TestAnswerCopyInBusyThreadAfterRestart(t *testing.T) {
	t.Parallel()
	srv := discordsim.Start(t, discordsim.Options{})
	db := filepath.Join(t.TempDir(), "bot.db")
	h := startBot(t, srv, db)
	alice, bob, carol := srv.User("alice"), srv.User("bob"), srv.User("carol")
	thread := h.survivalGame(alice, bob)
	h.move(alice, thread, "g7g8q")
	for i := 0; i < 25; i++ {
		_, err := srv.Post(carol, thread.ID, fmt.Sprintf("nice move %d", i))
		require.NoError(t, err)
	}
	h = h.restart(t, db)
	h.clock.Advance(time.Minute)
	h.swept()
	// Fails: two messages "played **g8=Q**": the copy's reconciliation
	// (alreadyPosted) reads only the channel's last 25 messages.
	require.Len(t, public(h.messagesWith(thread.ID, "played **g8=Q**")), 1, "the move's board is shown once")
}

// TestDeclineAnswerFails: a 500 on the answer to Decline: the challenge is
// closed, so its message must lose its buttons (the outbox edits it, as the
// lost answer would have), and a press of the buttons still shown meanwhile
// answers privately and starts no game.
func TestDeclineAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	// The outbox's first edit of the message fails too: the stale buttons
	// stay until its retry, so the press below finds them (otherwise the
	// edit, delivered at once, can remove them first).
	h.srv.ServerErrorNext("PATCH /channels/*/messages/*", 1)
	_, err := h.srv.Click(bob, ch, buttonID(t, ch, "Decline"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	h.serverErrorSeen("PATCH /channels/*/messages/*")
	stale := h.srv.Message(ch.ID)
	in := h.click(bob, stale, buttonID(t, stale, "Accept"))
	m, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	mustBeEphemeral(t, m, bob)
	h.clock.Advance(2 * time.Hour)
	h.swept()
	require.Empty(t, h.srv.Threads(h.gen.ID), "declined: no game")
	require.Empty(t, h.srv.Message(ch.ID).Buttons(), "the declined challenge keeps its buttons: %q", h.srv.Message(ch.ID).Text())
}

// TestSandDeploymentTimeLossAnnouncementFails: a 500 then a 429 on the
// post announcing a loss on time during SandTable's deployment: announced
// once, after the retry, and the game is over.
func TestSandDeploymentTimeLossAnnouncementFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob, discordsim.Opt("turn_time", "1h"))
	g.deployRandom(bob)
	h.drained()
	h.srv.ServerErrorNext("POST /channels/*/messages", 1)
	h.srv.RateLimitNext("POST /channels/*/messages", 1, 50*time.Millisecond)
	h.clock.Advance(61 * time.Minute)
	h.requireTimeLosses(g.thread.ID, 0, "the first post failed")
	sg, _, _ := g.state()
	require.False(t, sg.Active, "the loss on time is saved")
	h.clock.Advance(5 * time.Second)
	h.requireTimeLosses(g.thread.ID, 0, "the retry is rate limited")
	h.clock.Advance(5 * time.Second) // past the 429's Retry-After
	h.requireTimeLosses(g.thread.ID, 1, "after the retries")
	h.clock.Advance(time.Hour)
	h.requireTimeLosses(g.thread.ID, 1, "never twice")
}

// TestSandRevealRateLimited: a 429 on the reveal's post is retried: the
// reveal is shown once.
func TestSandRevealRateLimited(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	g.deployRandom(alice)
	h.drained()
	h.srv.RateLimitNext("POST /channels/*/messages", 1, 50*time.Millisecond)
	g.deployRandom(bob)
	// The 429 reaches the outbox, which retries after its Retry-After.
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		for _, c := range h.srv.CallsTo("POST /channels/*/messages") {
			if c.Status == 429 {
				return true
			}
		}
		return false
	}))
	h.clock.Advance(time.Minute)
	h.swept()
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.messagesWith(g.thread.ID, "The coin is flipped")) > 0 }))
	require.Len(t, h.messagesWith(g.thread.ID, "The coin is flipped"), 1)
}

// TestSandConfirmAnswerFails: a 500 on the answer to a deployment panel's
// Confirm click (the update of the panel in the player's DMs): the
// confirmation is saved and announced in the thread, and the panel must not
// keep offering Confirm.
func TestSandConfirmAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	p := g.dmPanel(alice)
	_, p = g.press(alice, p, "Random")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err := h.srv.Click(alice, p, buttonID(t, p, "Confirm"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.messagesWith(g.thread.ID, "has confirmed their deployment")) > 0 }))
	h.clock.Advance(time.Minute)
	h.swept()
	require.Len(t, h.messagesWith(g.thread.ID, "has confirmed their deployment"), 1)
	// The lost answer's update of the panel is delivered by the outbox: the
	// panel shows the confirmation and no longer offers Confirm. The adapter
	// queues that edit once its send has failed, which may be after the
	// sweep above: wait for it.
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return strings.Contains(h.srv.Message(p.ID).Text(), "Confirmed") }))
	cur := h.srv.Message(p.ID)
	for _, b := range cur.Buttons() {
		require.NotEqual(t, "Confirm", b.Label, "the panel still offers Confirm after the confirmation: %q", cur.Text())
	}
}

// TestTeamChessTimeoutAnnouncementFails: a 500 on the public post
// announcing a commander's tag-out on time: announced once in each thread
// after the retry.
func TestTeamChessTimeoutAnnouncementFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	tb := h.tcStart("", users(h, "alice", "carol"), users(h, "bob"), discordsim.Opt("move_time", "1h"))
	tb.move(h.srv.User("alice"), "e4")
	h.drained()
	h.srv.ServerErrorNext("POST /channels/*/messages", 1)
	h.clock.Advance(61 * time.Minute)
	h.swept()
	h.clock.Advance(5 * time.Second)
	h.swept()
	for _, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		n := len(h.timeLosses(th.ID))
		require.Equal(t, 1, n, "thread %s: %d time announcements", th.Name, n)
	}
	h.clock.Advance(2 * time.Hour)
	h.swept()
	require.Len(t, h.timeLosses(tb.pub.ID), 1, "never twice")
}

// TestExpiredChallengeWhoseEditFailed: a challenge expires while Discord
// refuses the edit that closes its message (a 500): its Accept, pressed
// before the retry, starts no game; the retry then closes the message.
func TestExpiredChallengeWhoseEditFailed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	h.srv.ServerErrorNext("PATCH /channels/*/messages/*", 1)
	h.clock.Advance(61 * time.Minute)
	h.swept()
	h.serverErrorSeen("PATCH /channels/*/messages/*")
	cur := h.srv.Message(ch.ID)
	require.NotEmpty(t, cur.Buttons(), "the closing edit failed")
	in := h.click(bob, cur, buttonID(t, cur, "Accept"))
	_, err := in.WaitReply(wait, nil)
	require.NoError(t, err)
	h.drained()
	require.Empty(t, h.srv.Threads(h.gen.ID), "an expired challenge starts no game")
	h.clock.Advance(5 * time.Second)
	h.swept()
	require.Empty(t, h.srv.Message(ch.ID).Buttons(), "closed after the retry")
	require.Equal(t, 0, h.gamesListed(alice, "Survival Chess"))
}

// TestDoubleAcceptAndDoubleStart: two Accept clicks (and two lobby Start
// clicks) sent at once start one game with one set of threads.
func TestDoubleAcceptAndDoubleStart(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	ch := h.survivalChallenge(alice, bob)
	a1, err := h.srv.Click(bob, ch, buttonID(t, ch, "Accept"))
	require.NoError(t, err)
	a2, err := h.srv.Click(bob, ch, buttonID(t, ch, "Accept"))
	require.NoError(t, err)
	for _, in := range []*discordsim.Interaction{a1, a2} {
		_, err := in.WaitResponse(wait)
		require.NoError(t, err)
	}
	h.idle()
	h.drained()
	require.Len(t, h.srv.Threads(h.gen.ID), 1)
	require.Equal(t, 1, h.gamesListed(alice, "Survival Chess"))

	carol, dave := h.srv.User("carol"), h.srv.User("dave")
	lobby := h.tcOpen(carol)
	lobby = h.tcPress(carol, lobby, "Join White")
	lobby = h.tcPress(dave, lobby, "Join Black")
	s1, err := h.srv.Click(carol, lobby, buttonID(t, lobby, "Start"))
	require.NoError(t, err)
	s2, err := h.srv.Click(carol, lobby, buttonID(t, lobby, "Start"))
	require.NoError(t, err)
	for _, in := range []*discordsim.Interaction{s1, s2} {
		_, err := in.WaitResponse(wait)
		require.NoError(t, err)
	}
	h.idle()
	h.drained()
	require.Len(t, h.srv.Threads(h.gen.ID), 4, "the Survival thread and one Team Chess set of three")
	require.Equal(t, 1, h.gamesListed(carol, "Team Chess"))
}

// TestDoubleMoveAtOnce: the same /move sent twice at once is applied once.
func TestDoubleMoveAtOnce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	m1 := h.slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	m2 := h.slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	played := 0
	for _, in := range []*discordsim.Interaction{m1, m2} {
		m, err := in.WaitReply(wait, nil)
		require.NoError(t, err)
		if strings.HasPrefix(m.Text(), "You played") {
			played++
		}
	}
	require.Equal(t, 1, played, "one move applied")
	board := h.reply(bob, thread.ID, "board")
	require.Equal(t, 1, strings.Count(board.Text(), "g8=Q"), board.Text())
	require.Len(t, public(h.messagesWith(thread.ID, "played **g8=Q**")), 1, "one board for it")
}

// TestSandPanelCloseEditFailsThenRetried: a 500 on the first edit after
// the last Confirm (closing a panel or the status) is retried: everything
// is delivered and the status says the deployment is over.
func TestSandPanelCloseEditFailsThenRetried(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	g.deployRandom(alice)
	h.drained()
	h.srv.ServerErrorNext("PATCH /channels/*/messages/*", 1)
	g.deployRandom(bob)
	h.serverErrorSeen("PATCH /channels/*/messages/*")
	h.clock.Advance(time.Minute)
	h.swept()
	require.Equal(t, 0, h.bot.App().Pending(), "every effect delivered")
	require.Contains(t, h.srv.Message(g.status.ID).Text(), "Deployment over")
	require.Len(t, h.messagesWith(g.thread.ID, "The coin is flipped"), 1)
}

// TestTeamChessMemberAddFailsThenRetried: a 500 on adding a commander to
// their team's private thread at Start is retried: every player ends up a
// member of the public thread and of their own team's thread only.
func TestTeamChessMemberAddFailsThenRetried(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	lobby := h.tcOpen(alice)
	lobby = h.tcPress(alice, lobby, "Join White")
	lobby = h.tcPress(bob, lobby, "Join Black")
	h.srv.ServerErrorNext("PUT /channels/*/thread-members/*", 2)
	started := h.tcPress(alice, lobby, "Start")
	require.Contains(t, started.Text(), "started the game")
	h.serverErrorSeen("PUT /channels/*/thread-members/*")
	for i := 0; i < 3; i++ { // a retry may fail again: backoff 1 s, 2 s
		h.clock.Advance(10 * time.Second)
		h.swept()
	}
	for _, th := range h.srv.Threads(h.gen.ID) {
		th = h.srv.ChannelByID(th.ID)
		switch {
		case th.Type == 11:
			require.True(t, th.HasMember(alice.ID) && th.HasMember(bob.ID), "public thread members")
		case strings.Contains(th.Name, "White"):
			require.True(t, th.HasMember(alice.ID) && !th.HasMember(bob.ID), "White's thread members")
		default:
			require.True(t, th.HasMember(bob.ID) && !th.HasMember(alice.ID), "Black's thread members")
		}
	}
}

// TestChallengeAnswerFails: a 500 on the answer that would show a new
// challenge: the challenger can challenge again (one challenge shown), the
// unseen challenge expires without errors, and the shown one still works.
func TestChallengeAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	h.slash(alice, h.gen.ID, "survival challenge", discordsim.Opt("opponent", bob), discordsim.Opt("color", "white"))
	h.serverErrorSeen("POST /interactions/*/*/callback")
	h.clock.Advance(time.Minute)
	h.swept()
	ch := h.survivalChallenge(alice, bob)
	h.clock.Advance(time.Minute)
	h.swept()
	var shown int
	for _, m := range h.messagesWith(h.gen.ID, "challenge") {
		if len(m.Buttons()) > 0 {
			shown++
		}
	}
	require.Equal(t, 1, shown, "one challenge shown")
	h.click(bob, ch, buttonID(t, ch, "Accept"))
	h.drained()
	require.Len(t, h.srv.Threads(h.gen.ID), 1)
	h.clock.Advance(2 * time.Hour) // the unseen challenge expires
	h.swept()
}

// TestDeferredMoveAnswerEditFails: with every answer deferred, a 500 on
// the edit that fills the deferred answer of a move: the move's board is
// posted once through the outbox, and the opponent plays on.
func TestDeferredMoveAnswerEditFails(t *testing.T) {
	t.Parallel()
	h := newDeferringHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	thread := h.survivalGame(alice, bob)
	h.srv.ServerErrorNext("PATCH /webhooks/*/*/messages/@original", 1)
	h.slash(alice, thread.ID, "move", discordsim.Opt("move", "g7g8q"))
	h.serverErrorSeen("PATCH /webhooks/*/*/messages/@original")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.messagesWith(thread.ID, "played **g8=Q**")) > 0 }))
	h.clock.Advance(time.Minute)
	h.swept()
	require.Len(t, public(h.messagesWith(thread.ID, "played **g8=Q**")), 1, "posted once")
	h.move(bob, thread, "e2e1k")
}

// TestTeamChessResignAnswerFails: a 500 on the answer to a Team Chess
// /resign: the result reaches the public thread once (through the answer's
// copy) and each team thread once, and the game is over.
func TestTeamChessResignAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	tb := h.tcStart("", users(h, "alice"), users(h, "bob"))
	tb.move(alice, "e4")
	h.drained()
	prompt := h.reply(bob, tb.pub.ID, "resign")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err := h.srv.Click(bob, prompt, buttonID(t, prompt, "Confirm"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	h.clock.Advance(time.Minute)
	h.swept()
	for _, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		require.Len(t, h.messagesWith(th.ID, "Black resigned"), 1, "thread %s", th.Name)
	}
	// The game is over: a minute after the end its public thread is locked.
	h.drained()
	require.True(t, h.srv.ChannelByID(tb.pub.ID).Locked)
	_, err = h.srv.Slash(alice, tb.pub.ID, "move", discordsim.Opt("move", "d4"))
	require.Error(t, err, "nobody types in the locked thread")
}

// TestTeamChessMoveAnswerFails: a 500 on a Team Chess move's answer: the
// board reaches the public thread once (the answer's copy) and each team
// thread once, and the opponent plays on.
func TestTeamChessMoveAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	tb := h.tcStart("", users(h, "alice"), users(h, "bob"))
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	h.slash(alice, tb.pub.ID, "move", discordsim.Opt("move", "e4"))
	h.serverErrorSeen("POST /interactions/*/*/callback")
	require.NoError(t, h.srv.WaitFor(wait, func() bool { return len(h.messagesWith(tb.pub.ID, "played **e4**")) > 0 }))
	h.clock.Advance(time.Minute)
	h.swept()
	for _, th := range []*discordsim.Channel{tb.pub, tb.team[tcWhite], tb.team[tcBlack]} {
		require.Len(t, h.messagesWith(th.ID, "played **e4**"), 1, "thread %s", th.Name)
	}
	tb.move(bob, "e5")
}

// TestSandResignAnswerFails: a 500 on the answer to a SandTable /resign
// during deployment: the result is posted once and the status closes.
func TestSandResignAnswerFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	prompt := h.reply(bob, g.thread.ID, "resign")
	h.srv.ServerErrorNext("POST /interactions/*/*/callback", 1)
	_, err := h.srv.Click(bob, prompt, buttonID(t, prompt, "Confirm"))
	require.NoError(t, err)
	h.serverErrorSeen("POST /interactions/*/*/callback")
	h.clock.Advance(time.Minute)
	h.swept()
	require.Len(t, h.messagesWith(g.thread.ID, bob.Mention()+" resigned"), 1, "the result is posted once")
	sg, _, _ := g.state()
	require.False(t, sg.Active)
	for _, b := range h.srv.Message(g.status.ID).Buttons() {
		require.NotEqual(t, "Deploy (private)", b.Label, "the status is closed")
	}
}

// TestSandStatusEditRefused30046: Discord refuses every edit of the
// SandTable status message for good (30046, too many edits of an old
// message): the first refused edit is posted anew, and later updates
// must go to that new message, not post one more copy each time.
func TestSandStatusEditRefused30046(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	g := h.sandStart(alice, bob)
	h.srv.FailNext("PATCH /channels/"+g.thread.ID+"/messages/"+g.status.ID, 100,
		discordsim.Fault{Status: 400, Code: 30046, Message: "Maximum number of edits to messages older than 1 hour reached. Try again later."})
	g.deployRandom(alice)
	h.drained()
	g.deployRandom(bob)
	h.clock.Advance(time.Minute)
	h.swept()
	var statuses []string
	for _, m := range h.messagesWith(g.thread.ID, "SandTable Chess: Deployment") {
		if m.ID != g.status.ID {
			statuses = append(statuses, m.Text())
		}
	}
	// Fails: two replacement status messages, "North: deploying…" and
	// "Deployment over": the message posted anew is not made the game's
	// status message, so each later edit is refused again and posted anew.
	require.Len(t, statuses, 1, "one replacement status message: %q", statuses)
	require.Contains(t, statuses[0], "Deployment over")
}

// TestChallengeMessageIDLookupFails: a 500 on the read of the posted
// challenge (the bot learns its message ID from @original): when the
// challenge expires, its message must still lose its buttons.
func TestChallengeMessageIDLookupFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	alice, bob := h.srv.User("alice"), h.srv.User("bob")
	h.srv.ServerErrorNext("GET /webhooks/*/*/messages/@original", 1)
	ch := h.survivalChallenge(alice, bob)
	h.serverErrorSeen("GET /webhooks/*/*/messages/@original")
	// The bot reads it again (within seconds; the expiry is an hour away).
	require.NoError(t, h.srv.WaitFor(wait, func() bool {
		known := false
		_ = h.store.View(context.Background(), func(tx storage.Tx) error {
			return tx.Challenges().Each(func(_ string, raw []byte) error {
				known = known || strings.Contains(string(raw), `"message_id":"`+ch.ID+`"`)
				return nil
			})
		})
		return known
	}), "the challenge's message ID is recorded after the failed read")
	h.clock.Advance(61 * time.Minute)
	h.swept()
	h.clock.Advance(time.Minute)
	h.swept()
	require.Empty(t, h.srv.Message(ch.ID).Buttons(), "the expired challenge keeps its buttons: %q", h.srv.Message(ch.ID).Text())
}
