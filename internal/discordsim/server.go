package discordsim

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// ErrClosed is returned by waits and injections once the server is closed.
var ErrClosed = errors.New("discordsim: server closed")

// ErrTimeout is wrapped by every wait that gives up; test with errors.Is.
var ErrTimeout = errors.New("discordsim: timed out")

// Options configure a Server. The zero value is usable.
type Options struct {
	// Addr is the listen address; default "127.0.0.1:0" (a free loopback port). Only loopback
	// addresses are accepted.
	Addr string
	// Token is the bot token the fake expects ("Bot " + Token in the Authorization header and in
	// IDENTIFY); default "test-token".
	Token string
	// BotName is the bot user's name; default "SandTable". Its ID is also the application ID.
	BotName string
	// GuildName names the default guild; default "Test Server".
	GuildName string
	// Channels are text channels created in the default guild; default ["general"].
	Channels []string
	// Users are human users created up front (more can be added with Server.User).
	Users []string
	// HeartbeatInterval is sent in HELLO; default 41.25 s (Discord's value).
	HeartbeatInterval time.Duration
	// CallbackDeadline, when > 0, makes the first interaction callback fail with 404 "Unknown
	// interaction" (code 10062) once that long has passed since the interaction, as Discord does
	// after 3 s. Zero (the default) never expires it, so slow -race runs cannot flake.
	CallbackDeadline time.Duration
	// TokenLifetime is how long interaction tokens work for follow-ups and @original edits;
	// default 15 minutes (Discord's value).
	TokenLifetime time.Duration
	// Logf, when set, receives one line per REST call and gateway event (for example t.Logf).
	Logf func(format string, args ...any)
	// KeepCalls, when > 0, keeps only the last KeepCalls recorded REST calls (with their files),
	// so long benchmarks do not grow without bound; Call.Seq keeps counting. 0 keeps all.
	KeepCalls int
	// State, when set, restores a state saved with Server.ExportState instead of creating the
	// default guild, channels and users.
	State []byte
	// Now is the clock of the timestamps signing interactions delivered to an endpoint (see
	// DeliverTo) and of the nonce window (NonceWindow); default time.Now. A bot that checks
	// them against an injected clock shares it.
	Now func() time.Time
	// NonceWindow is how long a message create with a nonce and enforce_nonce makes a repeat of
	// that nonce (from the same author) answer 200 with the message already created instead of
	// creating another, as Discord does for "a few minutes"; default 5 minutes, on Now's clock.
	NonceWindow time.Duration
	// Files, with State, gives the bytes of attachments that State lists without data (as
	// ExportStateSplit writes it), by attachment ID. An attachment found in neither is an error.
	Files map[string][]byte
}

// Server is a fake Discord: REST API under /api/v9, a websocket gateway at /gateway, and a CDN
// for attachments, all on one loopback port, over an in-memory model of users, guilds, channels,
// threads, messages and application commands. All methods are safe for concurrent use.
type Server struct {
	opts     Options
	listener net.Listener
	http     *http.Server
	baseURL  string
	bot      *User

	closedFlag atomic.Bool

	mu      sync.Mutex
	notices []Notice // the notifications the bot's messages gave (Notifications)
	closed  bool
	version uint64
	changed chan struct{}
	lastID  uint64
	st      *store

	calls     []*Call
	callCount int
	faults    []*fault
	seqFaults map[int]Fault // by the Seq of the call they strike (FailCall)

	gw gateway

	// key signs interactions delivered over HTTP; endpoint (guarded by mu) is where, "" for the
	// gateway.
	key            ed25519.PrivateKey
	endpoint       string
	endpointClient *http.Client
}

// TB is the part of testing.TB that Start uses.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// Start starts a Server for a test and closes it in t.Cleanup. It fails the test on error.
func Start(t TB, opts Options) *Server {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatalf("discordsim: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// New starts a Server listening on opts.Addr (default a free 127.0.0.1 port).
func New(opts Options) (*Server, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("bad address %q: %w", opts.Addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("address %q is not loopback; the fake Discord only listens on loopback", opts.Addr)
	}
	if opts.Token == "" {
		opts.Token = "test-token"
	}
	if opts.BotName == "" {
		opts.BotName = "SandTable"
	}
	if opts.GuildName == "" {
		opts.GuildName = "Test Server"
	}
	if opts.Channels == nil {
		opts.Channels = []string{"general"}
	}
	if opts.HeartbeatInterval <= 0 {
		opts.HeartbeatInterval = 41250 * time.Millisecond
	}
	if opts.HeartbeatInterval < time.Millisecond {
		opts.HeartbeatInterval = time.Millisecond
	}
	if opts.TokenLifetime <= 0 {
		opts.TokenLifetime = 15 * time.Minute
	}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generating the application's key: %w", err)
	}
	s := &Server{opts: opts, changed: make(chan struct{}), st: newStore(), key: key,
		endpointClient: &http.Client{Timeout: endpointTimeout, Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 16}}}
	s.gw.sessions = map[string]*gwSession{}
	if opts.State != nil {
		if err := s.importState(opts.State, opts.Files); err != nil {
			return nil, fmt.Errorf("restore state: %w", err)
		}
	} else {
		s.bot = s.st.addUser(s.newID(), opts.BotName, true)
		g := s.st.addGuild(s.newID(), opts.GuildName)
		for _, name := range opts.Channels {
			s.st.addChannel(&Channel{ID: s.newID(), Type: discordgo.ChannelTypeGuildText, GuildID: g.ID, Name: name, CreatedAt: time.Now().UTC()})
		}
		for _, name := range opts.Users {
			s.st.addUser(s.newID(), name, false)
		}
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, err
	}
	s.listener = ln
	s.baseURL = "http://" + ln.Addr().String()
	s.http = &http.Server{Handler: http.HandlerFunc(s.serveHTTP), ReadHeaderTimeout: 10 * time.Second}
	go s.http.Serve(ln)
	return s, nil
}

// Close stops the server: it drops every gateway connection, stops the HTTP server and wakes
// every waiter with ErrClosed. Close discordgo sessions first (with ShouldReconnectOnError
// false), or they keep trying to reconnect.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.closedFlag.Store(true)
	conns := s.gw.liveConns()
	s.notifyLocked()
	s.mu.Unlock()
	for _, c := range conns {
		c.close()
	}
	return s.http.Close()
}

// URL returns the server's base URL, "http://127.0.0.1:PORT".
func (s *Server) URL() string { return s.baseURL }

// GatewayURL returns the websocket URL that GET /api/v9/gateway answers.
func (s *Server) GatewayURL() string { return "ws://" + s.listener.Addr().String() + "/gateway" }

// Token returns the bot token the fake accepts (without the "Bot " prefix).
func (s *Server) Token() string { return s.opts.Token }

// Bot returns the bot user; its ID is also the application ID.
func (s *Server) Bot() *User { return s.bot }

// AppID returns the application ID (the bot user's ID).
func (s *Server) AppID() string { return s.bot.ID }

// HTTPClient returns a new http.Client whose transport sends every request, whatever its host
// (discord.com, cdn.discordapp.com, ...), to this server.
func (s *Server) HTTPClient() *http.Client { return redirectClient(s.listener.Addr().String()) }

// Connect points a discordgo session at this server: its REST client and a fresh websocket
// dialer. Use it on a session made with discordgo.New("Bot " + srv.Token()).
func (s *Server) Connect(sess *discordgo.Session) {
	sess.Client = s.HTTPClient()
	sess.Dialer = newDialer()
}

// NewSession returns a discordgo session with this server's token, pointed at this server, not
// yet opened. Set Identify.Intents and add handlers, then call Open.
func (s *Server) NewSession() *discordgo.Session {
	sess, _ := discordgo.New("Bot " + s.opts.Token) // discordgo.New never fails
	s.Connect(sess)
	return sess
}

// Redirect points sess at a fake Discord running at baseURL ("http://127.0.0.1:PORT"), for a
// bot in another process than the Server (for example a child process in a restart test, given
// the URL in an environment variable).
func Redirect(sess *discordgo.Session, baseURL string) error {
	u, err := url.Parse(baseURL)
	if err != nil {
		return fmt.Errorf("discordsim: bad base URL %q: %w", baseURL, err)
	}
	if u.Scheme != "http" || u.Host == "" {
		return fmt.Errorf("discordsim: base URL %q must be http://host:port", baseURL)
	}
	sess.Client = redirectClient(u.Host)
	sess.Dialer = newDialer()
	return nil
}

func newDialer() *websocket.Dialer {
	return &websocket.Dialer{HandshakeTimeout: 10 * time.Second}
}

func redirectClient(hostport string) *http.Client {
	tr := &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     30 * time.Second,
	}
	return &http.Client{Timeout: 20 * time.Second, Transport: &rewriteTransport{host: hostport, base: tr}}
}

// rewriteTransport sends every request to one host over plain HTTP.
type rewriteTransport struct {
	host string
	base http.RoundTripper
}

func (t *rewriteTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	r.URL.Scheme = "http"
	r.URL.Host = t.host
	r.Host = t.host
	return t.base.RoundTrip(r)
}

// newID returns a new snowflake, strictly greater than every earlier one. Caller holds s.mu or
// is still constructing s.
func (s *Server) newID() string {
	const discordEpoch = 1420070400000
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= s.lastID {
		id = s.lastID + 1
	}
	s.lastID = id
	return fmt.Sprint(id)
}

func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// notifyLocked wakes every waiter. Caller holds s.mu.
func (s *Server) notifyLocked() {
	s.version++
	close(s.changed)
	s.changed = make(chan struct{})
}

// Version returns a counter that grows with every change of state, REST call or gateway event.
func (s *Server) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Changed returns a channel that is closed at the next change (see Version). A web UI can
// long-poll with it.
func (s *Server) Changed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// WaitFor calls cond after every change of the server, and every 5 ms for conditions outside it
// (such as discordgo's state), until it returns true, and returns nil then. It returns an error
// wrapping ErrTimeout after timeout, or ErrClosed. cond is called without any lock held, so it
// may call Server methods.
func (s *Server) WaitFor(timeout time.Duration, cond func() bool) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		ch, closed := s.changed, s.closed
		s.mu.Unlock()
		if cond() {
			return nil
		}
		if closed {
			return ErrClosed
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-timer.C:
			if cond() {
				return nil
			}
			return fmt.Errorf("%w after %v", ErrTimeout, timeout)
		}
	}
}

// waitValue is WaitFor for a condition that yields a value; describe explains a timeout.
func waitValue[T any](s *Server, timeout time.Duration, get func() (T, bool), describe func() string) (T, error) {
	var v T
	err := s.WaitFor(timeout, func() bool {
		var ok bool
		v, ok = get()
		return ok
	})
	if errors.Is(err, ErrTimeout) && describe != nil {
		err = fmt.Errorf("%w: %s", err, describe())
	}
	return v, err
}

func (s *Server) logf(format string, args ...any) {
	// After Close, a test's t.Logf may no longer be called.
	if s.opts.Logf != nil && !s.closedFlag.Load() {
		s.opts.Logf("discordsim: "+format, args...)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("discordsim: marshal %T: %v", v, err))
	}
	return b
}

func trimBot(token string) string { return strings.TrimPrefix(token, "Bot ") }
