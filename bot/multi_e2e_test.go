package bot_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"sandtable/bot"
	"sandtable/games/sandtable"
	"sandtable/internal/discordsim"
	"sandtable/internal/testkit"
	"sandtable/storage"
)

// Several bot processes on one store (docs/architecture.md, "Many
// processes"), here several Bots in the test process: each with its own
// gateway sessions (its shards), locks, timer loop, outbox dispatcher and
// lease, sharing one store (storage.Memory, whose fake leases end at once
// when a bot crashes), one clock and one fake Discord.

// multi is the bots of one test.
type multi struct {
	t     *testing.T
	srv   *discordsim.Server
	store *storage.Memory
	clock *testkit.Clock
	count int                 // shard_count
	gen   *discordsim.Channel // the text channel the games start in
	hs    []*harness
}

// startMulti starts a fake Discord with shard_count count, a server on
// shard gameShard with the channel "war", and one bot per entry of shards
// (the shards it serves).
func startMulti(t *testing.T, count, gameShard int, shards ...[]int) *multi {
	t.Helper()
	srv := discordsim.Start(t, discordsim.Options{})
	g, err := srv.AddGuildOnShard("Far Server", gameShard, count, "war")
	require.NoError(t, err)
	store := storage.NewMemory()
	m := &multi{t: t, srv: srv, store: store, count: count, clock: testkit.NewClock(time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)),
		gen: srv.Channels(g.ID)[0]}
	t.Cleanup(func() {
		for i := len(m.hs) - 1; i >= 0; i-- {
			m.stop(m.hs[i])
		}
		_ = store.Close()
	})
	for _, s := range shards {
		m.start(s...)
	}
	return m
}

// start starts one more bot serving shards.
func (m *multi) start(shards ...int) *harness {
	m.t.Helper()
	cfg := bot.DefaultConfig()
	cfg.Discord.Token = bot.NewSecret(m.srv.Token())
	cfg.Discord.ShardCount = m.count
	cfg.Discord.ShardIDs = shards
	logs := &testkit.SyncBuffer{}
	sweeps := newSweepLog()
	b, err := bot.New(cfg, m.store, bot.Options{HTTPClient: m.srv.HTTPClient(), Now: m.clock.Now, SweepEvery: 20 * time.Millisecond,
		AfterSweep: sweeps.note, Logger: slog.New(slog.NewTextHandler(io.MultiWriter(logs), &slog.HandlerOptions{Level: slog.LevelDebug}))})
	require.NoError(m.t, err)
	require.Len(m.t, b.Sessions(), len(shards))
	for _, s := range b.Sessions() {
		m.srv.Connect(s)
	}
	require.NoError(m.t, b.Start())
	h := &harness{t: m.t, srv: m.srv, bot: b, store: m.store, clock: m.clock, logs: logs, gen: m.gen, sweep: sweeps}
	m.hs = append(m.hs, h)
	for _, x := range m.hs {
		x.peers = m.hs
	}
	require.NoError(m.t, m.srv.WaitCommands(wait, m.gen.ID, "sandtable", "move"))
	return h
}

// stop shuts h's bot down (once).
func (m *multi) stop(h *harness) {
	if h.stopped {
		return
	}
	h.stopped = true
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	_ = h.bot.Shutdown(ctx)
}

// crash stops h's bot as a dying process stops: its outbox claims stay.
func (m *multi) crash(h *harness) {
	h.stopped = true
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	require.NoError(m.t, h.bot.Crash(ctx))
}

// handled reports whether h's bot handled the interaction in.
func handled(h *harness, in *discordsim.Interaction) bool {
	return strings.Contains(h.logs.String(), "interaction="+in.ID+" ")
}

// sweptAll waits until every running bot has swept at the clock's time.
func (m *multi) sweptAll() {
	m.t.Helper()
	for _, h := range m.hs {
		if !h.stopped {
			h.swept()
		}
	}
}

// postedOnce fails the test when the bots posted the same thing twice in
// channelID: outbox posts (no interaction) whose text is another bot
// message's there.
func (m *multi) postedOnce(channelID string) {
	m.t.Helper()
	var answers, posts []*discordsim.Message
	for _, msg := range m.srv.Messages(channelID) {
		if msg.Author == nil || msg.Author.ID != m.srv.Bot().ID || msg.Ephemeral() {
			continue
		}
		if msg.InteractionID != "" {
			answers = append(answers, msg)
		} else {
			posts = append(posts, msg)
		}
	}
	seen := map[string]string{}
	for _, a := range answers {
		seen[a.Text()] = a.ID
	}
	for _, p := range posts {
		other, dup := seen[p.Text()]
		require.False(m.t, dup, "posted twice (messages %s and %s): %q", other, p.ID, p.Text())
		seen[p.Text()] = p.ID
	}
}

// TestMultiProcessSandTable: two bots, on shards 0 and 1 of two, one
// store. A SandTable game in a server on shard 1 (its commands and clicks
// reach the shard-1 bot) is deployed through direct messages (which reach
// the shard-0 bot); the shard-0 bot dies with an effect of the last
// Confirm still claimed; a new bot takes shard 0 over, with no downtime
// credited (the other bot served all along); the dead bot's effect is
// delivered once its lease ends, by a live bot; the game goes on
// through Drone orders (confirmed in direct messages) to its result.
// Every effect is posted once.
func TestMultiProcessSandTable(t *testing.T) {
	t.Parallel()
	m := startMulti(t, 2, 1, []int{0}, []int{1})
	h0, h1 := m.hs[0], m.hs[1]
	alice, bob := m.srv.User("alice"), m.srv.User("bob")

	g := h1.sandStart(alice, bob, discordsim.Opt("turn_time", "2h"))
	challenges := m.srv.Interactions()
	require.True(t, handled(h1, challenges[len(challenges)-1]), "the Accept click reached the shard-1 bot")

	// South pastes a layout and confirms in direct messages: the shard-0 bot.
	sp := g.dmPanel(alice)
	g.openModal(alice, sp, "Paste layout")
	sp = g.submit(alice, map[string]string{"layout": southFlyer})
	require.Contains(t, sp.Text(), "**Valid** ✅")
	in, sp := g.press(alice, sp, "Confirm")
	require.Contains(t, sp.Text(), "Confirmed")
	require.True(t, handled(h0, in), "a DM click reaches the shard-0 bot")
	require.False(t, handled(h1, in))
	_, err := m.srv.WaitMessage(wait, func(msg *dtMessage) bool {
		return msg.ChannelID == g.thread.ID && strings.Contains(msg.Text(), "has confirmed their deployment")
	})
	require.NoError(t, err)

	// North's Confirm reveals both deployments; the reveal's first post
	// fails, and the shard-0 bot dies before retrying it.
	np := g.dmPanel(bob)
	sel, err := m.srv.Select(bob, np, presetID(np), "phalanx")
	require.NoError(t, err)
	np = h0.answerOf(sel, np.Version)
	require.Contains(t, np.Text(), "Preset **phalanx** loaded")
	m.srv.ServerErrorNext("POST /channels/*/messages", 1)
	in, np = g.press(bob, np, "Confirm")
	require.Contains(t, np.Text(), "both are revealed")
	require.True(t, handled(h0, in))
	h0.serverErrorSeen("POST /channels/*/messages")
	m.crash(h0)
	require.Contains(t, h0.logs.String(), "not handed over")

	// A new bot serves shard 0. Another bot was serving meanwhile: no
	// downtime is credited.
	h2 := m.start(0)
	require.NotContains(t, h2.logs.String(), "credited downtime")
	reveal := func() []*dtMessage { return h1.messagesWith(g.thread.ID, "The coin is flipped") }
	m.clock.Advance(30 * time.Second) // past the failed post's retry
	require.NoError(t, m.srv.WaitFor(wait, func() bool { return len(reveal()) > 0 }), "a live bot delivers the reveal once the dead one's lease ended")
	m.sweptAll()
	took := h1.logs.String() + h2.logs.String()
	require.Contains(t, took, "took over an effect claimed before")
	require.Len(t, reveal(), 1)

	// The game: South flies an Airplane to North's Bases and orders a
	// Drone; North shuffles and orders one too. Moves reach the shard-1
	// bot, Drone confirmations (in DMs) the new shard-0 bot.
	south := []string{"n7-o6", "Po6-o20", "Po20-f20"}
	north := []string{"b14-c15", "c15-c16", "c16-c17"}
	si, ni := 0, 0
	for turn := 1; g.pos().Phase() != sandtable.PhaseFinished; turn++ {
		require.Less(t, turn, 10)
		if g.pos().ToMove() == sandtable.South {
			g.move(alice, south[si])
			si++
			if g.pos().Phase() == sandtable.PhaseFinished {
				break
			}
			g.mine(inFiles('k', 'm'))
			if si == 1 {
				g.drone(alice, "c9", "c11")
				confirms := m.srv.Interactions()
				require.True(t, handled(h2, confirms[len(confirms)-1]), "the Drone's Confirm (a DM click) reached the new shard-0 bot")
			} else {
				g.mine(inFiles('k', 'm'))
			}
		} else {
			g.move(bob, north[ni])
			ni++
			for p := g.pos(); p.Phase() == sandtable.PhasePostTurn && p.ToMove() == sandtable.North; p = g.pos() {
				if ni == 1 && p.HazardUses() == 1 {
					g.drone(bob, "t12", "t10")
				} else {
					g.mine(inFiles('k', 'm'))
				}
			}
		}
	}
	last := g.board()
	require.Contains(t, last.Text(), alice.Mention()+" (South) wins: North has no Base left")
	m.clock.Advance(time.Minute) // past the answers' saved copies
	m.sweptAll()

	require.Len(t, h1.messagesWith(g.thread.ID, "has confirmed their deployment"), 1, "North's Confirm revealed both: one notice, South's")
	images := 0
	for _, msg := range public(m.srv.Messages(g.thread.ID)) {
		if hasImage(msg) {
			images++
		}
	}
	require.Equal(t, 1, images, "the reveal's board, posted once, is the live board edited since")
	require.NotEmpty(t, h1.messagesWith(g.thread.ID, "declared a Drone"))
	require.Len(t, public(h1.messagesWith(g.thread.ID, "wins: North has no Base left")), 1)
	m.postedOnce(g.thread.ID)
	m.postedOnce(m.srv.DM(alice).ID)
	m.postedOnce(m.srv.DM(bob).ID)
	require.Len(t, h1.messagesWith(m.gen.ID, "SandTable Chess"), 1, "the challenge once")
	require.Len(t, finished(t, m.store, alice), 1, "one game")
}

// finished lists u's finished games.
func finished(t *testing.T, store storage.Store, u *discordsim.User) []*storage.Game {
	t.Helper()
	var games []*storage.Game
	require.NoError(t, store.View(t.Context(), func(tx storage.Tx) error {
		var err error
		games, err = tx.Games().Finished(u.ID, time.Time{}, 10)
		return err
	}))
	return games
}

// TestMultiProcessTimerFiresOnce: three bots, on shards 0, 1 and 2 of
// three, all sweeping one store: a Survival game's time limit, in a server
// on shard 1, runs out once: one announcement, one result.
func TestMultiProcessTimerFiresOnce(t *testing.T) {
	t.Parallel()
	m := startMulti(t, 3, 1, []int{0}, []int{1}, []int{2})
	h1 := m.hs[1]
	alice, bob := m.srv.User("alice"), m.srv.User("bob")
	thread := h1.survivalGame(alice, bob, discordsim.Opt("move_time", "1h"))
	h1.move(alice, thread, "g7g8q") // a game with no move is aborted, not lost on time
	m.clock.Advance(59 * time.Minute)
	m.sweptAll()
	require.Empty(t, h1.messagesWith(thread.ID, "ran out of time"))

	m.clock.Advance(2 * time.Minute)
	m.sweptAll()
	require.Len(t, h1.messagesWith(thread.ID, "ran out of time"), 1)
	m.clock.Advance(time.Minute)
	m.sweptAll()
	require.Len(t, h1.messagesWith(thread.ID, "ran out of time"), 1, "no bot announces it again")
	m.postedOnce(thread.ID)
	games := finished(t, m.store, alice)
	require.Len(t, games, 1)
	require.Equal(t, storage.Time, games[0].Outcome.Method)
}
