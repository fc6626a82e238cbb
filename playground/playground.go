package playground

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"sandtable/bot"
	"sandtable/internal/discordsim"
	"sandtable/storage"
)

// BotName is the bot user's name in the playground.
const BotName = "SandTable"

// Options configure Start.
type Options struct {
	// Config is the bot's configuration. Its [playground] table shapes the playground; its
	// [discord] table is ignored (the bot connects to the local stand-in); [game] and [log]
	// apply as usual.
	Config bot.Config
	// Store is the open playground database (Config.Playground.Database). It holds the bot's
	// games and the stand-in's state; the caller closes it after Shutdown.
	Store storage.Store
	// Stdout gets the line with the page's URL; Stderr gets warnings (a taken port, a
	// non-loopback address). Nil discards.
	Stdout, Stderr io.Writer
	// Logger receives the bot's and the playground's logs (default: discard).
	Logger *slog.Logger
	// HoldBot, when not nil, delays the bot's start until it is closed. Tests use it to see
	// the page served before the bot connects.
	HoldBot <-chan struct{}
	// SaveDelay is how long after a change the stand-in's state is saved (default 300 ms),
	// so a burst of changes is written once.
	SaveDelay time.Duration
	// AnswerWait is how long an action waits for the bot's first answer before it reports
	// that the bot did not respond in time (default 3 s, Discord's window). Tests on a busy
	// machine raise it: a late answer still arrives, but the action would report none.
	AnswerWait time.Duration
	// HTTPInteractions runs the bot as behind Discord's Interactions Endpoint URL: without a
	// gateway connection (discord.gateway = false), with the stand-in's public key, and the
	// stand-in delivering every interaction as a signed POST to the bot's /interactions.
	HTTPInteractions bool
	// Bot are extra options for bot.New (tests set a clock or a faster timer sweep). Its
	// HTTPClient and Dialer are replaced.
	Bot bot.Options
}

// BotStatus says where the bot is: "connecting", "ready" or "failed".
type BotStatus struct {
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// Playground is a running playground: the Discord stand-in, the web page and the bot.
type Playground struct {
	opts Options
	log  *slog.Logger
	fake *discordsim.Server
	web  *http.Server
	ln   net.Listener
	url  string

	done      chan struct{} // closed by Shutdown: ends long polls and the saver
	saverDone chan struct{}
	botDone   chan struct{} // closed when the bot's start finished (or was abandoned)

	// waitingPolls counts the long polls waiting for a change, so a test can make its
	// change only once a poll must be woken by it.
	waitingPolls atomic.Int64

	mu     sync.Mutex
	bot    *bot.Bot
	status BotStatus
	// statusVersion counts status changes; statusChanged is closed at the next one.
	statusVersion uint64
	statusChanged chan struct{}
	saved         map[string]bool // attachment IDs in the database
	lastState     []byte
	saveErr       error
	shutdown      bool
}

// Start opens the stand-in with the state saved in opts.Store, serves the web page, prints its
// URL on opts.Stdout, and starts the bot in the background: the page answers at once, and
// shows the bot as connecting until it is ready.
//
// The page listens on Config.Playground.Address and Port. When the port is taken, Start picks
// a free one and says so on Stderr; when the address is not loopback, it warns there.
func Start(opts Options) (*Playground, error) {
	if opts.Store == nil {
		return nil, errors.New("playground: no database")
	}
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.SaveDelay <= 0 {
		opts.SaveDelay = 300 * time.Millisecond
	}
	if opts.AnswerWait <= 0 {
		opts.AnswerWait = answerWait
	}
	pc := opts.Config.Playground
	p := &Playground{opts: opts, log: opts.Logger.With("component", "playground"),
		done: make(chan struct{}), saverDone: make(chan struct{}), botDone: make(chan struct{}),
		status: BotStatus{State: "connecting"}, statusChanged: make(chan struct{}), saved: map[string]bool{}}

	state, files, err := p.load()
	if err != nil {
		return nil, err
	}
	fake, err := discordsim.New(discordsim.Options{
		Token:     randomToken(),
		BotName:   BotName,
		GuildName: pc.ServerName,
		Channels:  pc.Channels,
		Users:     pc.Users,
		State:     state,
		Files:     files,
		KeepCalls: 100,          // the record of REST calls is for tests; keep memory bounded
		Now:       opts.Bot.Now, // signs interactions with the bot's clock
	})
	if err != nil {
		return nil, fmt.Errorf("playground: starting the Discord stand-in: %w", err)
	}
	p.fake = fake
	// Users and channels named in the configuration since the state was saved.
	for _, name := range pc.Users {
		fake.User(name)
	}
	// The first person (alice) manages the server: Manage Server, which
	// /admin needs; the others (bob...) do not, so both sides can be tried.
	if len(pc.Users) > 0 {
		g, u := fake.Guild(), fake.User(pc.Users[0])
		fake.SetMemberPermissions(g.ID, u, fake.MemberPermissions(g.ID, u)|discordsim.PermManageGuild)
	}
	for _, name := range pc.Channels {
		fake.Channel(name)
	}

	ln, note, err := listen(pc.Address, pc.Port)
	if err != nil {
		fake.Close()
		return nil, fmt.Errorf("playground: %w", err)
	}
	p.ln = ln
	host := pc.Address
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	p.url = "http://" + net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)) + "/"
	if note != "" {
		fmt.Fprintln(opts.Stderr, note)
	}
	if !pc.IsLoopback() {
		fmt.Fprintf(opts.Stderr, "WARNING: the playground listens on %s, not on loopback: anyone who can reach this machine can open it and act as any playground user. It has no login. Use address = \"127.0.0.1\" in [playground] unless you mean it.\n",
			net.JoinHostPort(pc.Address, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)))
	}
	p.web = &http.Server{Handler: p.handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		MaxHeaderBytes: 16 << 10, ErrorLog: slog.NewLogLogger(p.log.Handler(), slog.LevelWarn)}
	go p.web.Serve(ln)
	fmt.Fprintf(opts.Stdout, "SandTable playground: open %s in your browser (Ctrl-C stops it)\n", p.url)

	go p.saver()
	go p.startBot()
	return p, nil
}

// listen listens on address:port, or on a free port when port is taken (note says so).
func listen(address string, port int) (net.Listener, string, error) {
	addr := net.JoinHostPort(address, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		return ln, "", nil
	}
	if port == 0 {
		return nil, "", fmt.Errorf("listening on %s: %w", addr, err)
	}
	ln, err2 := net.Listen("tcp", net.JoinHostPort(address, "0"))
	if err2 != nil {
		return nil, "", fmt.Errorf("listening on %s: %w (and on a free port: %v)", addr, err, err2)
	}
	why := "is in use"
	if !errors.Is(err, syscall.EADDRINUSE) {
		why = fmt.Sprintf("cannot be used (%v)", err)
	}
	return ln, fmt.Sprintf("Port %d %s; the playground uses port %d instead (set port in [playground] to choose).",
		port, why, ln.Addr().(*net.TCPAddr).Port), nil
}

func randomToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return "playground." + hex.EncodeToString(b)
}

// URL is the web page's address, "http://127.0.0.1:PORT/".
func (p *Playground) URL() string { return p.url }

// Fake is the Discord stand-in, for tests.
func (p *Playground) Fake() *discordsim.Server { return p.fake }

// Status reports the bot's state.
func (p *Playground) Status() BotStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}

// WaitReady waits until the bot is connected with its commands registered, or fails.
func (p *Playground) WaitReady(timeout time.Duration) error {
	select {
	case <-p.botDone:
	case <-time.After(timeout):
		return fmt.Errorf("playground: the bot is not ready after %v", timeout)
	}
	if st := p.Status(); st.State != "ready" {
		return fmt.Errorf("playground: the bot failed to start: %s", st.Error)
	}
	return nil
}

func (p *Playground) setStatus(st BotStatus) {
	p.mu.Lock()
	p.status = st
	p.statusVersion++
	close(p.statusChanged)
	p.statusChanged = make(chan struct{})
	p.mu.Unlock()
}

// version is the number a long poll compares: it grows with every change of the stand-in and
// of the bot's status.
func (p *Playground) version() (uint64, <-chan struct{}, <-chan struct{}) {
	p.mu.Lock()
	sv, sc := p.statusVersion, p.statusChanged
	p.mu.Unlock()
	fc := p.fake.Changed()
	return p.fake.Version() + sv, fc, sc
}

func (p *Playground) startBot() {
	defer close(p.botDone)
	if p.opts.HoldBot != nil {
		select {
		case <-p.opts.HoldBot:
		case <-p.done:
			return
		}
	}
	cfg := p.opts.Config
	cfg.Discord = bot.DiscordConfig{Token: bot.NewSecret(p.fake.Token()), APIBase: p.fake.URL(), ShardCount: 1, Gateway: true}
	if p.opts.HTTPInteractions {
		cfg.Discord.PublicKey, cfg.Discord.Gateway = p.fake.PublicKey(), false
	}
	if cfg.HTTP.Listen == "" {
		cfg.HTTP.Listen = "127.0.0.1:0" // the operations listener, on a free loopback port
	}
	bopts := p.opts.Bot
	bopts.HTTPClient, bopts.Dialer = nil, nil // api_base redirects discordgo to the stand-in
	if _, ok := p.opts.Store.(*storage.Bolt); ok {
		bopts.SoleProcess = true // its own bbolt file: an earlier run's claims are taken over at once
	}
	if bopts.Logger == nil {
		bopts.Logger = p.opts.Logger
	}
	b, err := bot.New(cfg, p.opts.Store, bopts)
	if err == nil {
		p.mu.Lock()
		if p.shutdown {
			p.mu.Unlock()
			return
		}
		p.bot = b
		p.mu.Unlock()
		err = b.Start()
	}
	if err != nil {
		p.log.Error("the bot failed to start", "err", err)
		p.setStatus(BotStatus{State: "failed", Error: err.Error()})
		return
	}
	if p.opts.HTTPInteractions {
		url := "http://" + b.HTTPAddr() + "/interactions"
		if err := p.fake.PingEndpoint(url); err != nil {
			p.log.Error("the bot's interactions endpoint fails Discord's check", "err", err)
			p.setStatus(BotStatus{State: "failed", Error: err.Error()})
			return
		}
		p.fake.DeliverTo(url)
		fmt.Fprintf(p.opts.Stdout, "SandTable playground: interactions go to the bot's endpoint %s (no gateway)\n", url)
	}
	p.log.Info("the bot is connected to the playground")
	if addr := b.HTTPAddr(); addr != "" {
		fmt.Fprintf(p.opts.Stdout, "SandTable playground: the bot's metrics are at http://%s/metrics (health: /livez, /readyz)\n", addr)
	}
	p.setStatus(BotStatus{State: "ready"})
}

// Shutdown stops the page (ending long polls), shuts the bot down (it finishes the
// interactions in flight), saves the stand-in's state and closes it. The caller then closes
// the store.
func (p *Playground) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	if p.shutdown {
		p.mu.Unlock()
		return nil
	}
	p.shutdown = true
	p.mu.Unlock()
	close(p.done)
	var errs []error
	if err := p.web.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("web page: %w", err))
	}
	select {
	case <-p.botDone:
	case <-ctx.Done():
	}
	p.mu.Lock()
	b := p.bot
	p.mu.Unlock()
	if b != nil {
		if err := b.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("bot: %w", err))
		}
	}
	<-p.saverDone
	if err := p.save(); err != nil {
		errs = append(errs, fmt.Errorf("saving the playground: %w", err))
	}
	p.fake.Close()
	return errors.Join(errs...)
}
