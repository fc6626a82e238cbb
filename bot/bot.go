package bot

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"sandtable/commands"
	"sandtable/commands/sandtable"
	"sandtable/commands/survival"
	"sandtable/commands/teamchess"
	"sandtable/internal/retry"
	"sandtable/storage"
)

// Options adjust a Bot for tests and the playground. The zero value is the
// production setting.
type Options struct {
	// SoleProcess says that no other process can be using the store (a
	// bbolt file, which one process opens): Start then takes over at once
	// the outbox claims an earlier run left (see App.TakeOverClaims).
	SoleProcess bool
	// HTTPClient and Dialer redirect discordgo's REST and gateway traffic
	// (to a fake Discord in tests).
	// HTTPListen, when set, overrides the [http] listen address (tests
	// use "127.0.0.1:0").
	HTTPListen string
	HTTPClient *http.Client
	Dialer     *websocket.Dialer
	// Now is the clock (default time.Now).
	Now func() time.Time
	// DeferAfter is how long a handler may run before the bot sends a
	// deferred response, keeping inside Discord's 3-second window
	// (default 1.5 s). A negative value defers every interaction except
	// autocomplete at once, without racing the handler (for tests).
	DeferAfter time.Duration
	// AfterDeliver, when set, is called after each round of the outbox
	// dispatcher (tests wait on it).
	AfterDeliver func()
	// SweepEvery, when set, is the longest the timer loop and the outbox
	// dispatcher sleep: they then check at least that often (tests with a
	// fake clock, which the loops cannot sleep on). Unset, a bot on a bbolt
	// file sleeps until its next timer, heartbeat or delivery, woken by its
	// own commits; on etcd it checks every 5 s.
	SweepEvery time.Duration
	// AfterSweep, when set, is called by the timer loop after each sweep
	// with the clock time it swept at and its error. Once it reports a time
	// at or after an instant, every timer due by that instant has fired and
	// announced its result, and none that was not due has: tests wait for it
	// instead of sleeping.
	AfterSweep func(now time.Time, err error)
	// DeliveryTimeout bounds one delivery of an effect (default
	// commands.DefaultDeliveryTimeout; tests shorten it).
	DeliveryTimeout time.Duration
	// Logger receives structured logs (default: from the config's [log]).
	Logger *slog.Logger
	// Draining, when set, is called by Shutdown when it has to wait for
	// interactions in flight, with their number, just before it blocks.
	// Shutdown closes the gateway and returns only after they are answered
	// (or its context ends): tests wait for this call to know that
	// Shutdown is waiting, instead of sleeping.
	Draining func(n int)
}

// Bot is the running Discord bot: one discordgo session per shard it
// serves (discord.shard_id, or the list discord.shard_ids), the command
// handlers and the store. Several Bots, in one process or many, may share
// one store (docs/architecture.md, "Many processes").
type Bot struct {
	// closeOnce closes the gateway sessions once: a second write of their
	// ShouldReconnectOnError (Shutdown after a failed Start) raced with a
	// heartbeat goroutine of the first close reading it (discordgo reads it
	// without a lock).
	closeOnce sync.Once
	closeErr  error
	cfg       Config
	opts      Options
	log       *slog.Logger
	store     storage.Store
	app       *commands.App
	// sess is the first shard's session, through which the bot's REST
	// requests go; sessions are all of them (sess first), each with its
	// gateway connection.
	sess     *discordgo.Session
	sessions []*discordgo.Session

	appID   string
	started atomic.Bool
	// gate guards closing and inflight.Add, so that no interaction is
	// counted in after Shutdown has started waiting.
	gate     sync.Mutex
	closing  bool
	inflight inflight
	stop     chan struct{}
	loopDone chan struct{}
	ops      *ops // metrics and the HTTP listener
	// deliverDone is closed when the outbox dispatcher has stopped.
	deliverDone chan struct{}
	// wakes receives a value after each commit of this process
	// (wakingStore): the timer loop reads its next timer again.
	wakes chan struct{}
	// hints receives the wall time of each timer set (by any process) on a
	// watched store (changed): the timer loop takes it as its next timer
	// when earlier, reading nothing.
	hints chan time.Time
	// offset is the store's clock offset (Meta.ClockOffset), read at start:
	// it moves only when downtime is credited, when no process serves.
	offset  atomic.Int64
	dmChans sync.Map // user ID -> DM channel ID
	// publicKey verifies the HTTP interactions endpoint's requests; nil
	// when the endpoint is off.
	publicKey ed25519.PublicKey
	// skipHandOver makes Shutdown keep this process's outbox claims, as
	// a crash does (tests).
	skipHandOver bool
	// lease is the process's lease on a shared store (nil: none), which
	// its outbox claims are bound to; leaseLoop renews it when lost.
	lease atomic.Pointer[storage.Lease]
	// abandoned says the lease was left to run out (Crash, tests): it is
	// not renewed.
	abandoned atomic.Bool
	// unwatch ends the watch of the other processes' changes.
	unwatch context.CancelFunc
}

// New prepares a bot; Start connects it. The store stays owned by the
// caller, who closes it after Shutdown.
func New(cfg Config, store storage.Store, opts Options) (*Bot, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.DeferAfter == 0 {
		opts.DeferAfter = 1500 * time.Millisecond
	}
	if opts.HTTPListen != "" {
		cfg.HTTP.Listen = opts.HTTPListen
	}
	if err := cfg.checkEndpoint(); err != nil {
		return nil, err
	}
	var key ed25519.PublicKey
	if cfg.Discord.PublicKey != "" {
		key, _ = parsePublicKey(cfg.Discord.PublicKey) // checked above
	}
	log := opts.Logger
	if log == nil {
		log = NewLogger(cfg.Log, os.Stderr)
	}
	name := processName(cfg.Bot)
	process := name + "-" + runSuffix() // this run: the owner of its outbox claims
	shard := any(cfg.Discord.Shards())
	if ids := cfg.Discord.Shards(); len(ids) == 1 {
		shard = ids[0]
	}
	log = log.With("process", name, "shard", shard)
	if opts.HTTPClient == nil && cfg.Discord.APIBase != "" {
		opts.HTTPClient = redirectClient(cfg.Discord.APIBase)
	}
	var sessions []*discordgo.Session
	for _, shard := range cfg.Discord.Shards() {
		sess, err := discordgo.New("Bot " + cfg.Discord.Token.Value())
		if err != nil {
			return nil, fmt.Errorf("discord session: %w", err)
		}
		// Slash commands, components and DMs reach a bot through interactions,
		// which need no gateway intent; Guilds keeps the channel cache useful.
		sess.Identify.Intents = discordgo.IntentsGuilds
		sess.ShardID = shard
		sess.ShardCount = cfg.Discord.ShardCount
		sess.LogLevel = discordgo.LogError
		if opts.HTTPClient != nil {
			sess.Client = opts.HTTPClient
			sess.Dialer = &websocket.Dialer{HandshakeTimeout: 10 * time.Second}
		}
		if opts.Dialer != nil {
			sess.Dialer = opts.Dialer
		}
		sessions = append(sessions, sess)
	}
	sess := sessions[0]
	b := &Bot{cfg: cfg, opts: opts, log: log, store: store, sess: sess, sessions: sessions, publicKey: key,
		appID: cfg.Discord.ApplicationID, stop: make(chan struct{}), loopDone: make(chan struct{}),
		deliverDone: make(chan struct{}), wakes: make(chan struct{}, 1), hints: make(chan time.Time, 64)}
	// On a watched store the timer loop learns of the timers its own
	// commits set from the watch (changed), as of the others': a commit
	// wakes it only on a store nobody watches (bbolt).
	wakes := b.wakes
	if _, watched := store.(storage.Watcher); watched && !opts.SoleProcess {
		wakes = nil
	}
	b.app = commands.New(wakingStore{store, wakes}, (*platform)(b), commands.Settings{
		BoardSize:        cfg.Game.BoardSize,
		MoveTime:         time.Duration(cfg.Game.MoveTime),
		ChallengeTTL:     time.Duration(cfg.Game.ChallengeTTL),
		LobbyTTL:         time.Duration(cfg.Game.LobbyTTL),
		RemindAt:         cfg.Game.RemindAt,
		DevGuildID:       cfg.Discord.DevGuildID,
		DeliveryTimeout:  opts.DeliveryTimeout,
		ComputerWorkers:  cfg.Game.ComputerWorkers,
		ComputerBudget:   time.Duration(cfg.Game.ComputerBudget),
		AnalysisMoveTime: time.Duration(cfg.Game.AnalysisMoveTime),
		AnalysisDepth:    cfg.Game.AnalysisDepth,
	}, log)
	b.app.Now = opts.Now
	b.app.Process = process
	b.app.Workers = cfg.Outbox.Workers
	b.app.Render.Observe = func(what string, took time.Duration) { b.ops.renders.WithLabelValues(what).Observe(took.Seconds()) }
	b.app.OnRetry = func() { b.ops.retries.Inc() }
	b.app.OnDone = func(waited time.Duration) { b.ops.waited.Observe(waited.Seconds()) }
	b.ops = newOps(b)
	// The wiring: every game the bot plays.
	survival.Register(b.app)
	teamchess.Register(b.app)
	sandtable.Register(b.app)
	for _, s := range sessions {
		s.AddHandler(b.onInteraction)
		s.AddHandler(func(s *discordgo.Session, r *discordgo.Ready) {
			log.Info("gateway ready", "user", r.User.Username, "guilds", len(r.Guilds), "gateway_shard", s.ShardID)
		})
	}
	return b, nil
}

// App is the command layer, for tests.
func (b *Bot) App() *commands.App { return b.app }

// Session is the discordgo session of the first shard, through which
// REST requests go, for tests.
func (b *Bot) Session() *discordgo.Session { return b.sess }

// Sessions are the discordgo sessions of every shard the bot serves, the
// first shard's first, for tests.
func (b *Bot) Sessions() []*discordgo.Session { return b.sessions }

// closeSessions closes the gateway connections.
func (b *Bot) closeSessions() error {
	b.closeOnce.Do(func() {
		for _, s := range b.sessions {
			s.ShouldReconnectOnError = false
			if err := s.Close(); err != nil && b.closeErr == nil {
				b.closeErr = err
			}
		}
	})
	return b.closeErr
}

// Start opens the gateway connections (one per shard; none when
// discord.gateway is false), registers the slash commands, starts the
// timer and outbox loops, and serves the operations listener (with the
// interactions endpoint when discord.public_key is set).
func (b *Bot) Start() error {
	if b.cfg.Discord.Gateway {
		for _, s := range b.sessions {
			if err := s.Open(); err != nil {
				b.closeSessions() // the shards opened before it (closing one never opened is a no-op)
				return fmt.Errorf("connecting to Discord (shard %d): %w", s.ShardID, err)
			}
		}
	} else if err := b.identifyREST(); err != nil {
		return err
	}
	// The bot's own user: a challenge naming it is a game against the
	// computer.
	if u := b.sess.State.User; u != nil && u.ID != "" {
		b.app.SetSelf(u.ID)
	} else {
		b.app.SetSelf(b.appID)
	}
	b.log.Info("serving", "shards", b.cfg.Discord.Shards(), "shard_count", b.cfg.Discord.ShardCount, "gateway", b.cfg.Discord.Gateway)
	if b.appID == "" {
		if r := b.sess.State.Ready; r.Application != nil && r.Application.ID != "" {
			b.appID = r.Application.ID
		} else if b.sess.State.User != nil {
			b.appID = b.sess.State.User.ID
		}
	}
	// Only shard 0 registers: commands are global state of the application.
	if slices.Contains(b.cfg.Discord.Shards(), 0) {
		defs := encodeCommands(b.app.Definitions())
		if _, err := b.sess.ApplicationCommandBulkOverwrite(b.appID, b.cfg.Discord.DevGuildID, defs); err != nil {
			b.closeSessions()
			return fmt.Errorf("registering slash commands: %w", err)
		}
		scope := "globally"
		if b.cfg.Discord.DevGuildID != "" {
			scope = "in guild " + b.cfg.Discord.DevGuildID
		}
		b.log.Info("registered slash commands", "count", len(defs), "scope", scope)
	}
	for _, d := range b.cfg.Deprecated() {
		b.log.Warn("deprecated setting", "note", d)
	}
	// On a store shared with other processes, the outbox claims are bound
	// to this process's lease, and a watch wakes the loops when another
	// process sets a timer or ends.
	leaser, shared := b.store.(storage.Leaser)
	if shared && !b.opts.SoleProcess {
		l, err := leaser.Grant(context.Background(), b.app.Process, time.Duration(b.cfg.Outbox.LeaseTTL))
		if err != nil {
			b.closeSessions()
			return fmt.Errorf("taking the process's lease on the store: %w", err)
		}
		b.lease.Store(&l)
		b.app.SetLease(l)
		b.log.Info("holding a lease on the store", "lease", fmt.Sprintf("%x", l.ID()), "ttl", time.Duration(b.cfg.Outbox.LeaseTTL))
		b.ops.leases.Inc()
		go b.leaseLoop(leaser, l)
	}
	// The clocks stop while the bot is down: credit that time before any
	// timer can fire.
	if b.opts.SoleProcess {
		if err := b.app.TakeOverClaims(b.opts.Now()); err != nil {
			b.log.Error("taking over an earlier run's outbox claims failed", "err", err)
		}
	}
	if down, err := b.app.CreditDowntime(b.opts.Now()); err != nil {
		b.log.Error("crediting downtime failed", "err", err)
	} else if down > 0 {
		b.log.Info("credited downtime to running clocks", "downtime", down.Round(time.Second))
	}
	if w, ok := b.store.(storage.Watcher); ok && !b.opts.SoleProcess {
		if err := b.store.View(context.Background(), func(tx storage.Tx) error {
			off, err := tx.Meta().ClockOffset()
			b.offset.Store(int64(off))
			return err
		}); err != nil {
			b.log.Error("reading the clock offset failed", "err", err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		b.unwatch = cancel
		go w.Watch(ctx, b.changed)
	}
	b.started.Store(true)
	if b.cfg.HTTP.Listen != "" {
		if err := b.ops.serve(b, b.cfg.HTTP.Listen); err != nil {
			b.started.Store(false) // no loops to wait for at Shutdown
			b.closeSessions()
			return err
		}
	}
	go b.timerLoop()
	go b.deliverLoop()
	return nil
}

// Shutdown stops taking interactions (the gateway's get an apology, the
// HTTP endpoint answers 503), waits for the ones in flight (at most until
// ctx ends), stops the timer loop, closes the gateway connection and then
// the HTTP listener.
func (b *Bot) Shutdown(ctx context.Context) error {
	b.gate.Lock()
	if b.closing {
		b.gate.Unlock()
		return nil
	}
	b.closing = true
	b.gate.Unlock()
	close(b.stop)
	if b.unwatch != nil {
		b.unwatch()
	}
	// An analysis being computed is abandoned (the next click computes
	// it again): the clicks waiting for it are answered now, so that
	// they do not hold up the shutdown.
	b.app.StopAnalyses()
	done := make(chan struct{})
	go func() {
		b.inflight.Wait(func(n int) {
			b.log.Info("shutdown: waiting for interactions in flight", "count", n)
			if b.opts.Draining != nil {
				b.opts.Draining(n)
			}
		})
		if b.started.Load() {
			<-b.loopDone
			<-b.deliverDone
			// A computer move being searched is applied (or, cut short,
			// resumed from its stored timer by the next start).
			b.app.StopComputers()
			// What this process claimed and did not deliver goes to the
			// others (or to this bot, restarted) at once.
			if b.skipHandOver {
				b.log.Info("shutdown: the outbox is not handed over (a crash, for tests)")
			} else if err := b.app.HandOver(b.opts.Now()); err != nil {
				b.log.Error("handing over the outbox failed", "err", err)
			}
		}
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = errors.New("shutdown: interactions still running when the grace period ended")
	}
	if cerr := b.closeSessions(); cerr != nil && err == nil {
		err = cerr
	}
	if b.ops.server != nil {
		if cerr := b.ops.server.Shutdown(ctx); cerr != nil && err == nil {
			err = cerr
		}
	}
	return err
}

// retryEvery is how soon the loops look again at work that was due but
// still is after they ran (a timer whose handler failed or runs elsewhere,
// as a computer move does; an effect another worker or an action holds),
// when no commit wakes them before.
const retryEvery = 5 * time.Second

// maxSleep is the longest the loops sleep without a wake-up: Options.
// SweepEvery when set (tests with a fake clock, which the loops cannot
// sleep on: they poll it at that period); else none: they are woken by
// this process's own commits and, on a shared store, by the watch of the
// others' changes (changed).
func (b *Bot) maxSleep() time.Duration {
	if b.opts.SweepEvery > 0 {
		return b.opts.SweepEvery
	}
	return 0
}

// changed follows a change of the watched store (storage.Watcher): a
// timer set (by any process) is a hint to the timer loop, which takes it
// as its next timer when earlier, reading nothing; a process gone wakes
// the dispatcher to take over the effects it had claimed; a watch
// interrupted wakes both, to read everything again.
func (b *Bot) changed(e storage.Event) {
	b.ops.wakeups.WithLabelValues(e.Change.String()).Inc()
	if e.Change != storage.TimerSet {
		b.log.Debug("woken by a change of the store", "change", e.Change.String())
	}
	switch e.Change {
	case storage.TimerSet:
		select {
		case b.hints <- e.At.Add(time.Duration(b.offset.Load())):
		default: // the loop is behind: it reads its next timer again
			select {
			case b.wakes <- struct{}{}:
			default:
			}
		}
	case storage.ProcessGone:
		b.app.Kick()
	case storage.SettingsChanged:
		b.app.ForgetSettings(e.Guild)
	case storage.Missed:
		b.app.ForgetSettings("") // a change may have been missed
		select {
		case b.wakes <- struct{}{}:
		default:
		}
		b.app.Kick()
	}
}

// leaseLoop watches the process's lease: when it is lost while the process
// lives (the store lost its majority for a whole TTL; the process may have
// been cut off), the process stops delivering (its claims may be taken
// over by now), takes a new lease as soon as the store answers, and then
// delivers again, taking its old effects again as another's: reconciled
// first.
func (b *Bot) leaseLoop(leaser storage.Leaser, l storage.Lease) {
	ttl := time.Duration(b.cfg.Outbox.LeaseTTL)
	for {
		select {
		case <-b.stop:
			return
		case <-l.Done():
		}
		select {
		case <-b.stop:
			return // revoked by the hand-over
		default:
		}
		if b.abandoned.Load() {
			return
		}
		b.app.SetLease(nil)
		b.ops.leasesLost.Inc()
		b.log.Warn("the process's lease on the store was lost: delivering nothing until a new one is held", "lease", fmt.Sprintf("%x", l.ID()))
		for attempt := 1; ; attempt++ {
			ctx, cancel := context.WithTimeout(context.Background(), ttl)
			nl, err := leaser.Grant(ctx, b.app.Process, ttl)
			cancel()
			if err == nil {
				l = nl
				break
			}
			b.log.Warn("taking a new lease failed", "attempt", attempt, "err", err)
			select {
			case <-b.stop:
				return
			case <-time.After(min(time.Duration(attempt)*time.Second, ttl)):
			}
		}
		b.lease.Store(&l)
		b.app.SetLease(l)
		b.ops.leases.Inc()
		b.log.Info("holding a new lease on the store: the effects claimed under the lost one are reconciled", "lease", fmt.Sprintf("%x", l.ID()))
	}
}

// sleep returns a timer channel firing after d capped by the maximum sleep
// (nil: never) and the function stopping it.
func (b *Bot) sleep(d time.Duration, none bool) (<-chan time.Time, func()) {
	if m := b.maxSleep(); m > 0 && (none || d > m) {
		d, none = m, false
	}
	if none {
		return nil, func() {}
	}
	t := time.NewTimer(max(d, 0))
	return t.C, func() { t.Stop() }
}

// timerLoop runs the timers (Sweep) when the earliest is due, the
// heartbeat every commands.HeartbeatEvery and the prune of interaction
// marks every hour, sleeping in between until the earliest of those times:
// a commit of this process (wakingStore) wakes it to read the next timer
// again, since the commit may have set an earlier one.
func (b *Bot) timerLoop() {
	defer close(b.loopDone)
	polling := b.maxSleep() > 0
	now := b.opts.Now()
	lastPrune, lastBeat := time.Time{}, now
	var next, hold time.Time // the next timer; no sweep before hold (still due after one)
	read := true
	for {
		now = b.opts.Now()
		if now.Sub(lastBeat) >= commands.HeartbeatEvery {
			lastBeat = now
			if err := b.app.Heartbeat(now); err != nil {
				b.log.Error("heartbeat failed", "err", err)
			}
		}
		if read || polling {
			next, read = b.app.NextDeadline(), false
		}
		var err error
		if !next.IsZero() && !next.After(now) && !now.Before(hold) {
			// Shutdown waits for this loop to end, so a sweep in progress
			// finishes before the session closes.
			if err = b.app.Sweep(now); err != nil {
				b.log.Error("timer sweep failed", "err", err)
			}
			// The sweep's own commits woke this loop: the next timer is
			// read after them (a later commit wakes it again).
			b.drainWakes()
			if next = b.app.NextDeadline(); !next.IsZero() && !next.After(now) && !polling {
				hold = now.Add(retryEvery)
			}
			read = false
		}
		if b.opts.AfterSweep != nil {
			b.opts.AfterSweep(now, err)
		}
		if now.Sub(lastPrune) > time.Hour {
			lastPrune = now
			if _, err := pruneInteractions(b.store, now.Add(-time.Hour)); err != nil {
				b.log.Error("pruning interactions failed", "err", err)
			}
		}
		until := lastBeat.Add(commands.HeartbeatEvery)
		if p := lastPrune.Add(time.Hour); p.Before(until) {
			until = p
		}
		if !next.IsZero() && next.Before(until) {
			until = next
			if until.Before(hold) {
				until = hold
			}
		}
		if !until.After(now) { // still due, polling
			until = now.Add(b.maxSleep())
		}
		c, stop := b.sleep(until.Sub(now), false)
		select {
		case <-b.stop:
			stop()
			// The last heartbeat is the moment the clocks stop.
			if err := b.app.Heartbeat(b.opts.Now()); err != nil {
				b.log.Error("heartbeat failed", "err", err)
			}
			return
		case <-c:
		case <-b.wakes:
			read = true
		case t := <-b.hints:
			if next.IsZero() || t.Before(next) {
				next = t
			}
		}
		stop()
	}
}

// drainWakes forgets a pending wake-up of the timer loop.
func (b *Bot) drainWakes() {
	select {
	case <-b.wakes:
	default:
	}
}

// wakingStore is the store as the bot's App sees it: each commit wakes the
// timer loop (wakes), since it may have set an earlier timer.
type wakingStore struct {
	storage.Store
	wakes chan struct{}
}

func (s wakingStore) Update(ctx context.Context, fn func(storage.Tx) error) error {
	err := s.Store.Update(ctx, fn)
	if err == nil && s.wakes != nil {
		select {
		case s.wakes <- struct{}{}:
		default:
		}
	}
	return err
}

// pruneBatch is how many interaction marks one transaction forgets.
const pruneBatch = 100

// pruneInteractions forgets the interactions applied before cutoff, one
// transaction per batch so that none grows over etcd's limits, and returns
// how many it forgot.
func pruneInteractions(store storage.Store, cutoff time.Time) (int, error) {
	total := 0
	for n := pruneBatch; n == pruneBatch; total += n {
		if err := store.Update(context.Background(), func(tx storage.Tx) (err error) {
			n, err = tx.Dedupe().Prune(cutoff, pruneBatch)
			return err
		}); err != nil {
			return total, err
		}
	}
	return total, nil
}

// deliverLoop is the outbox dispatcher: it delivers the effects actions
// saved (commands.App.Deliver) as soon as they are saved (App.Kicks), and
// retries failed ones when due (App.NextDelivery), sleeping in between:
// with nothing to deliver it reads nothing. Effects left over from before
// a restart go out at start. It ends with Shutdown, after finishing the
// delivery in progress.
func (b *Bot) deliverLoop() {
	defer close(b.deliverDone)
	ctx := context.Background()
	polling := b.maxSleep() > 0
	for {
		_, next, known, err := b.app.DeliverNext(ctx, b.opts.Now())
		if err != nil {
			b.log.Error("delivering effects failed", "err", err)
		}
		if b.opts.AfterDeliver != nil {
			b.opts.AfterDeliver()
		}
		var d time.Duration
		none := true
		if !polling {
			// Due and still there: held by an action or a replay being
			// drawn (each kicks when done), or another process's.
			if !known {
				next = b.app.NextDelivery()
			}
			if !next.IsZero() {
				d, none = max(next.Sub(b.opts.Now()), 0), false
				if d == 0 {
					d = retryEvery
				}
			}
		}
		c, stop := b.sleep(d, none)
		select {
		case <-b.stop:
			stop()
			return
		case <-b.app.Kicks():
		case <-c:
		}
		stop()
	}
}

// redirectClient sends every request to base (scheme and host), keeping the
// path: discordgo's endpoints are fixed at init, so this is the one place to
// redirect it.
func redirectClient(base string) *http.Client {
	u, _ := url.Parse(base) // validated with the config
	return &http.Client{Timeout: 20 * time.Second, Transport: redirectTransport{u}}
}

type redirectTransport struct{ base *url.URL }

func (t redirectTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme = t.base.Scheme
	r.URL.Host = t.base.Host
	r.Host = t.base.Host
	return http.DefaultTransport.RoundTrip(r)
}

// NewLogger builds the slog logger the [log] table describes.
func NewLogger(c LogConfig, w interface{ Write([]byte) (int, error) }) *slog.Logger {
	var level slog.Level
	switch strings.ToLower(c.Level) {
	case "debug":
		level = slog.LevelDebug
	case "warn":
		level = slog.LevelWarn
	case "error":
		level = slog.LevelError
	}
	opts := &slog.HandlerOptions{Level: level}
	if c.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// enter counts an interaction in, unless the bot is shutting down.
func (b *Bot) enter() bool {
	b.gate.Lock()
	defer b.gate.Unlock()
	if b.closing {
		return false
	}
	b.inflight.Add()
	return true
}

// updatesMessage reports whether the interaction came from a message's
// component: a click, a select, or a modal opened by one.
func updatesMessage(i *discordgo.Interaction) bool {
	return i.Type == discordgo.InteractionMessageComponent || i.Type == discordgo.InteractionModalSubmit && i.Message != nil
}

// toResponse turns a handler's result into the response the user sees.
func (b *Bot) toResponse(r result, log *slog.Logger) *commands.Response {
	if r.err == nil && r.resp != nil {
		return r.resp
	}
	var ue *commands.UserError
	if errors.As(r.err, &ue) {
		return &commands.Response{Ephemeral: true, Message: commands.Message{Content: clip(ue.Msg, maxContent)}}
	}
	if r.err == nil {
		r.err = errors.New("handler returned no response")
	}
	ref := fmt.Sprintf("%x", time.Now().UnixNano()&0xffffff)
	log.Error("interaction failed", "ref", ref, "err", r.err)
	if errors.Is(r.err, storage.ErrUnavailable) {
		return &commands.Response{Ephemeral: true, Message: commands.Message{
			Content: fmt.Sprintf("I cannot reach the game database right now, so I could not finish that (reference %s). Try again in a minute: if it went through after all, the game shows it.", ref)}}
	}
	return &commands.Response{Ephemeral: true, Message: commands.Message{
		Content: fmt.Sprintf("Sorry, something went wrong on my side (reference %s). If it keeps happening, tell the server's admins.", ref)}}
}

// respond sends r as the initial response to i, through initial.
func (b *Bot) respond(i *discordgo.Interaction, r *commands.Response, initial responder) {
	b.send(i, r, initial(initialResponse(i, r)))
}

// respondDeferred answers a deferred interaction by editing or following up.
// privateDefer says the deferral was an ephemeral "thinking" message, which
// the answer fills.
func (b *Bot) respondDeferred(i *discordgo.Interaction, r *commands.Response, privateDefer bool) {
	var err error
	if r.Modal != nil {
		// A form cannot follow a deferral: say so instead of failing silently.
		r = &commands.Response{Ephemeral: true, Message: commands.Message{
			Content: "That form took too long to open. Nothing was changed; please click again."}}
	}
	switch {
	case privateDefer:
		_, err = b.sess.InteractionResponseEdit(i, webhookEdit(r))
	case r.Ephemeral:
		if !updatesMessage(i) {
			// The deferral showed a public "thinking" message: replace it
			// by a private one.
			_ = b.sess.InteractionResponseDelete(i)
		}
		_, err = b.sess.FollowupMessageCreate(i, true, webhookParams(r))
	case r.Update || !updatesMessage(i):
		_, err = b.sess.InteractionResponseEdit(i, webhookEdit(r))
	default:
		// A click deferred as an update, answered with a new message: the
		// follow-up is that message (the original response is the clicked
		// one).
		var m *discordgo.Message
		if m, err = b.sess.FollowupMessageCreate(i, true, webhookParams(r)); err == nil && r.Posted != nil && !r.Ephemeral && m != nil {
			posted := r.Posted
			r.Posted = nil
			b.send(i, r, nil)
			posted(m.ID)
			return
		}
	}
	b.send(i, r, err)
}

// send finishes an answer: it logs a failure or reports the posted message.
func (b *Bot) send(i *discordgo.Interaction, r *commands.Response, err error) {
	if err != nil {
		b.log.Error("answering interaction failed", "interaction", i.ID, "err", err)
		b.ops.restError(platformError(err))
		// The change is saved: show it through the outbox instead.
		mid := ""
		if i.Message != nil {
			mid = i.Message.ID
		}
		b.app.AnswerLost(i.ChannelID, mid, r)
		return
	}
	b.app.AnswerSent(r)
	if r.Posted != nil && !r.Ephemeral && !r.Update {
		// The posted message's ID (a challenge's, a lobby's) is what its
		// expiry edits: a failed read is retried a few times.
		for attempt := 1; ; attempt++ {
			m, err := b.sess.InteractionResponse(i)
			if err == nil {
				r.Posted(m.ID)
				break
			}
			b.log.Warn("reading posted answer failed", "interaction", i.ID, "attempt", attempt, "err", err)
			wait, again := readAnswerRetry.Delay(attempt, platformError(err))
			if !again {
				break
			}
			time.Sleep(wait)
		}
	}
	if r.PrivateNote != nil {
		note := &commands.Response{Ephemeral: true, Message: *r.PrivateNote}
		if _, err := b.sess.FollowupMessageCreate(i, true, webhookParams(note)); err != nil {
			b.log.Error("sending the private note failed", "interaction", i.ID, "err", err)
		}
	}
}

// readAnswerRetry paces the reads of a posted answer's ID: four reads at
// most, 0.2-0.4, 0.4-0.8 and 0.8-1.6 s apart (or a longer Retry-After);
// a permanent refusal ends them.
var readAnswerRetry = retry.Policy{Base: 400 * time.Millisecond, Cap: 3 * time.Second, Jitter: 0.5, MaxAttempts: 4}

func initialResponse(i *discordgo.Interaction, r *commands.Response) *discordgo.InteractionResponse {
	switch {
	case i.Type == discordgo.InteractionApplicationCommandAutocomplete:
		choices := fitChoices(encodeChoices(r.Choices))
		return &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult,
			Data: &discordgo.InteractionResponseData{Choices: choices}}
	case r.Modal != nil:
		return &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: modalData(r.Modal)}
	}
	typ := discordgo.InteractionResponseChannelMessageWithSource
	if r.Update && (i.Type == discordgo.InteractionMessageComponent || i.Type == discordgo.InteractionModalSubmit) && !r.Ephemeral {
		typ = discordgo.InteractionResponseUpdateMessage
	}
	out := outgoing(r.Message)
	data := &discordgo.InteractionResponseData{
		Content:         out.Content,
		Embeds:          out.Embeds,
		Components:      out.Components,
		Files:           out.Files,
		AllowedMentions: mentions(),
	}
	if typ == discordgo.InteractionResponseUpdateMessage {
		// Replace the message's old attachments with the new files.
		data.Attachments = &[]*discordgo.MessageAttachment{}
	}
	if r.Ephemeral {
		data.Flags = discordgo.MessageFlagsEphemeral
	}
	if data.Components == nil {
		data.Components = []discordgo.MessageComponent{}
	}
	return &discordgo.InteractionResponse{Type: typ, Data: data}
}

// mentions lets messages ping users only (never @everyone or roles).
func mentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}}
}

// mentionsOf is what m's mentions may ping: nobody for a quiet message (a
// live board), else users (mentions).
func mentionsOf(m commands.Message) *discordgo.MessageAllowedMentions {
	if m.Quiet {
		return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
	}
	return mentions()
}

func modalData(m *commands.Modal) *discordgo.InteractionResponseData {
	m = fitModal(m)
	rows := make([]discordgo.MessageComponent, 0, len(m.Inputs))
	for _, in := range m.Inputs {
		style := discordgo.TextInputShort
		if in.Paragraph {
			style = discordgo.TextInputParagraph
		}
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{
			CustomID: in.CustomID, Label: in.Label, Style: style, Placeholder: in.Placeholder,
			Value: in.Value, Required: in.Required, MaxLength: in.MaxLength,
		}}})
	}
	return &discordgo.InteractionResponseData{CustomID: m.CustomID, Title: m.Title, Components: rows}
}

func webhookParams(r *commands.Response) *discordgo.WebhookParams {
	out := outgoing(r.Message)
	p := &discordgo.WebhookParams{Content: out.Content, Embeds: out.Embeds, Components: out.Components, Files: out.Files, AllowedMentions: mentions()}
	if r.Ephemeral {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	return p
}

func webhookEdit(r *commands.Response) *discordgo.WebhookEdit {
	out := outgoing(r.Message)
	content := out.Content
	embeds := out.Embeds
	if embeds == nil {
		embeds = []*discordgo.MessageEmbed{}
	}
	comps := out.Components
	if comps == nil {
		comps = []discordgo.MessageComponent{}
	}
	return &discordgo.WebhookEdit{Content: &content, Embeds: &embeds, Components: &comps, Files: out.Files,
		Attachments: &[]*discordgo.MessageAttachment{}, AllowedMentions: mentions()}
}

// runSuffix tells this run of a process from its earlier ones: the owner of
// outbox claims is the process name and this suffix, so a restarted process
// reconciles what its previous run had claimed.
func runSuffix() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
