package bot_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/commands"
	"sandtable/commands/commandstest"
	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// wait is the deadline of every wait for a condition in these end-to-end tests.
const wait = testkit.Wait

// sweepLog follows the bot's timer loop through bot.Options.AfterSweep.
type sweepLog struct {
	mu      sync.Mutex
	last    time.Time // the clock time of the latest finished sweep
	err     error     // the first sweep error
	changed chan struct{}
}

func newSweepLog() *sweepLog { return &sweepLog{changed: make(chan struct{})} }

func (s *sweepLog) note(now time.Time, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.After(s.last) {
		s.last = now
	}
	if err != nil && s.err == nil {
		s.err = err
	}
	close(s.changed)
	s.changed = make(chan struct{})
}

// harness is the real bot (real discordgo, real bbolt; storage.Memory with
// its fake leases for several bots on one store) connected to a fake
// Discord on loopback.
type harness struct {
	t     testing.TB
	srv   *discordsim.Server
	bot   *bot.Bot
	store storage.Store
	clock *testkit.Clock
	logs  *testkit.SyncBuffer
	gen   *discordsim.Channel
	sweep *sweepLog
	// peers are the other bots sharing the store (multi_e2e_test.go):
	// drained waits for their outboxes too.
	peers   []*harness
	stopped bool // a peer shut down (multi_e2e_test.go)
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	srv := discordsim.Start(t, discordsim.Options{})
	return startBot(t, srv, filepath.Join(t.TempDir(), "bot.db"))
}

func startBot(t testing.TB, srv *discordsim.Server, dbPath string) *harness {
	t.Helper()
	return startBotWith(t, srv, dbPath, bot.Options{})
}

func startBotWith(t testing.TB, srv *discordsim.Server, dbPath string, opts bot.Options, extra ...commandstest.Toy) *harness {
	t.Helper()
	return startBotAt(t, srv, dbPath, time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), opts, extra...)
}

// startBotAt starts a bot whose clock starts at start.
func startBotAt(t testing.TB, srv *discordsim.Server, dbPath string, start time.Time, opts bot.Options, extra ...commandstest.Toy) *harness {
	t.Helper()
	return startBotConfigured(t, srv, dbPath, start, nil, opts, extra...)
}

// startBotConfigured is startBotAt with the default configuration changed
// by configure (nil: unchanged).
func startBotConfigured(t testing.TB, srv *discordsim.Server, dbPath string, start time.Time, configure func(*bot.Config), opts bot.Options, extra ...commandstest.Toy) *harness {
	t.Helper()
	store, err := storage.Open(dbPath, time.Second)
	require.NoError(t, err)
	cfg := bot.DefaultConfig()
	if configure != nil {
		configure(&cfg)
	}
	cfg.Discord.Token = bot.NewSecret(srv.Token())
	logs := &testkit.SyncBuffer{}
	c := testkit.NewClock(start)
	opts.HTTPClient = srv.HTTPClient()
	if opts.SweepEvery >= 0 {
		opts.Now = c.Now
		opts.SweepEvery = 20 * time.Millisecond
	} else {
		// Event-driven loops on the real clock (c is then unused): what a
		// bot runs with.
		opts.SweepEvery = 0
	}
	sweeps := newSweepLog()
	opts.AfterSweep = sweeps.note
	opts.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(logs), &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := bot.New(cfg, store, opts)
	require.NoError(t, err)
	for _, k := range extra {
		commands.Register(b.App(), k)
	}
	srv.Connect(b.Session())
	require.NoError(t, b.Start())
	h := &harness{t: t, srv: srv, bot: b, store: store, clock: c, logs: logs, gen: srv.Channel("general"), sweep: sweeps}
	t.Cleanup(h.stop)
	require.NoError(t, srv.WaitCommands(wait, h.gen.ID, "survival", "move"))
	return h
}

func (h *harness) stop() {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_ = h.bot.Shutdown(ctx)
	_ = h.store.Close()
}

// swept waits until the timer loop has finished a sweep at the clock's
// current time or later, and fails the test if any sweep failed. After it,
// every timer due by now has fired and announced its result; one that did
// not fire was not due. Advance the clock, then call swept: this is how a
// test shows that something did not happen (instead of sleeping).
func (h *harness) swept() {
	h.t.Helper()
	at := h.clock.Now()
	deadline := time.After(wait)
	for {
		h.sweep.mu.Lock()
		last, err, changed := h.sweep.last, h.sweep.err, h.sweep.changed
		h.sweep.mu.Unlock()
		require.NoError(h.t, err, "a timer sweep failed")
		if !last.Before(at) {
			h.drained()
			return
		}
		select {
		case <-changed:
		case <-deadline:
			h.t.Fatalf("no timer sweep at %s within %s (the latest ran at %s)", at.Format(time.TimeOnly), wait, last.Format(time.TimeOnly))
		}
	}
}

// drained waits until the outbox has delivered every effect due at the
// clock's time (the posts, edits and thread members an action asked for)
// and no delivery is in progress: what a delivery does after its commit
// (its metrics) is done too.
func (h *harness) drained() {
	h.t.Helper()
	settled := func(p *harness) func() bool {
		return func() bool { return p.bot.App().Due(p.clock.Now()) == 0 && p.bot.App().Delivering() == 0 }
	}
	require.Eventually(h.t, settled(h), wait, time.Millisecond,
		"the outbox did not deliver its due effects within %s", wait)
	for _, p := range h.peers {
		if p != h && !p.stopped {
			require.Eventually(h.t, settled(p), wait, time.Millisecond,
				"a peer's outbox did not deliver its due effects within %s", wait)
		}
	}
}

// idle waits until the bot handles no interaction: every answer, deferred
// ones included, has been sent (or its loss handled). Only for tests with no
// interaction held on purpose.
func (h *harness) idle() {
	h.t.Helper()
	require.NoError(h.t, h.bot.WaitIdle(wait))
}

// slash runs a slash command and returns the interaction.
func (h *harness) slash(u *discordsim.User, channelID, command string, opts ...discordsim.Option) *discordsim.Interaction {
	h.t.Helper()
	in, err := h.srv.Slash(u, channelID, command, opts...)
	require.NoError(h.t, err)
	return in
}

// reply runs a slash command and waits for the message it produced and
// for its handler to finish (what it does after answering, such as
// recording a challenge's message ID, is done when reply returns).
func (h *harness) reply(u *discordsim.User, channelID, command string, opts ...discordsim.Option) *discordsim.Message {
	h.t.Helper()
	in := h.slash(u, channelID, command, opts...)
	m, err := in.WaitMessage(wait, nil)
	require.NoError(h.t, err, "no answer to /%s", command)
	h.idle()
	return m
}

// click clicks a button and waits for the answer and for its handler to
// finish.
func (h *harness) click(u *discordsim.User, m *discordsim.Message, customID string) *discordsim.Interaction {
	h.t.Helper()
	in, err := h.srv.Click(u, m, customID)
	require.NoError(h.t, err)
	_, err = in.WaitResponse(wait)
	require.NoError(h.t, err)
	h.idle()
	return in
}

// buttonID finds the custom ID of the button with the label on m.
func buttonID(t testing.TB, m *discordsim.Message, label string) string {
	t.Helper()
	for _, b := range m.Buttons() {
		if b.Label == label {
			return b.CustomID
		}
	}
	t.Fatalf("no %q button on message %q", label, m.Text())
	return ""
}

// mustBeEphemeral asserts m is private to u and returns its text.
func mustBeEphemeral(t testing.TB, m *discordsim.Message, u *discordsim.User) string {
	t.Helper()
	require.True(t, m.Ephemeral(), "expected an ephemeral answer, got public %q", m.Text())
	require.True(t, m.VisibleFor(u.ID))
	return m.Text()
}

// respType returns the initial response type of in.
func respType(t testing.TB, in *discordsim.Interaction) discordgo.InteractionResponseType {
	t.Helper()
	r, err := in.WaitResponse(wait)
	require.NoError(t, err)
	return r.Type
}

// newDeferringHarness is a harness whose bot defers every interaction at
// once, so the deferred paths (edit @original, follow-ups) carry every answer.
func newDeferringHarness(t testing.TB) *harness {
	t.Helper()
	srv := discordsim.Start(t, discordsim.Options{})
	return startBotWith(t, srv, filepath.Join(t.TempDir(), "bot.db"), bot.Options{DeferAfter: -1})
}

func openStore(t testing.TB) *storage.Bolt {
	t.Helper()
	s, err := storage.Open(filepath.Join(t.TempDir(), "bot.db"), time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// confirm clicks Confirm on the private confirmation prompt (an action that
// asks first) and waits for the message the confirmed action produced.
func (h *harness) confirm(u *discordsim.User, prompt *discordsim.Message) *discordsim.Message {
	h.t.Helper()
	mustBeEphemeral(h.t, prompt, u)
	in, err := h.srv.Click(u, prompt, buttonID(h.t, prompt, "Confirm"))
	require.NoError(h.t, err)
	// The answer may replace the prompt (Update) or follow it (a slow
	// handler's deferred update): wait for it, not for the prompt itself.
	m, err := in.WaitReply(wait, func(m *discordsim.Message) bool { return !strings.Contains(m.Text(), "Confirm within") })
	require.NoError(h.t, err, "no answer to Confirm")
	return m
}

// replyConfirmed runs a slash command that asks first, confirms it and
// waits for the message the confirmed action produced.
func (h *harness) replyConfirmed(u *discordsim.User, channelID, command string, opts ...discordsim.Option) *discordsim.Message {
	h.t.Helper()
	return h.confirm(u, h.reply(u, channelID, command, opts...))
}
