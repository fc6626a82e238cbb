package bot

import (
	"crypto/ed25519"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"sandtable/commands"
	"sandtable/internal/duration"
	"sandtable/storage"
)

// Config is the bot's configuration, read from a TOML file shaped like
// config.example.toml. The zero value is not valid: start from DefaultConfig.
type Config struct {
	Discord DiscordConfig `toml:"discord"`
	Storage StorageConfig `toml:"storage"`
	Log     LogConfig     `toml:"log"`
	Game    GameConfig    `toml:"game"`
	// Playground configures the local playground (package playground) that
	// `sandtable run` starts when no token is configured.
	Playground PlaygroundConfig `toml:"playground"`
	HTTP       HTTPConfig       `toml:"http"`
	Bot        BotConfig        `toml:"bot"`
	Outbox     OutboxConfig     `toml:"outbox"`
}

// OutboxConfig holds the [outbox] table: the delivery of effects (posts,
// edits, direct messages) that several processes share.
type OutboxConfig struct {
	// LeaseTTL is the TTL of the lease each process sharing an etcd store
	// holds, which its outbox claims are bound to: after a crash, its
	// effects wait at most that long before another process delivers them
	// (reconciled first). A live process keeps its lease, and so its
	// claims, however long its backlog.
	LeaseTTL Duration `toml:"lease_ttl"`
	// ClaimTTL is deprecated (claims lasted a TTL before leases): still
	// accepted, ignored, and logged as such at start.
	ClaimTTL Duration `toml:"claim_ttl"`
	// Workers is how many games' effects are delivered at once (each
	// game's in order).
	Workers int `toml:"workers"`
}

// Deprecated reports the deprecated settings the config file gave, each
// with what replaces it, for the log at start.
func (c Config) Deprecated() []string {
	var out []string
	if c.Outbox.ClaimTTL != 0 {
		out = append(out, "outbox.claim_ttl is deprecated and ignored: claims are bound to the process's lease (outbox.lease_ttl)")
	}
	return out
}

// BotConfig holds the [bot] table: this process among others.
type BotConfig struct {
	// ProcessName names this process in every log line ("process");
	// empty: hostname-pid.
	ProcessName string `toml:"process_name"`
}

// HTTPConfig holds the [http] table: the operations listener.
type HTTPConfig struct {
	// Listen is the address (host:port) of the listener serving
	// Prometheus metrics at /metrics and health at /livez and /readyz;
	// empty: off. Port 0 picks a free port (logged).
	Listen string `toml:"listen"`
}

// processName is the name of this process in the logs: bot.process_name,
// or hostname-pid.
func processName(c BotConfig) string {
	if c.ProcessName != "" {
		return c.ProcessName
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "sandtable"
	}
	return host + "-" + strconv.Itoa(os.Getpid())
}

// DiscordConfig holds the [discord] table.
type DiscordConfig struct {
	// Token is the bot token. DISCORD_TOKEN overrides it. Never logged.
	Token         Secret `toml:"token"`
	ApplicationID string `toml:"application_id"`
	DevGuildID    string `toml:"dev_guild_id"`
	ShardID       int    `toml:"shard_id"`
	ShardCount    int    `toml:"shard_count"`
	// ShardIDs, instead of ShardID, runs several shards in this process:
	// one gateway session each (see Shards).
	ShardIDs []int `toml:"shard_ids"`
	// APIBase, when set, sends all REST and gateway traffic to this base URL
	// instead of discord.com (the local playground and tests use it).
	APIBase string `toml:"api_base"`
	// PublicKey is the application's Ed25519 public key (hex, from the
	// Developer Portal). With it and http.listen, the bot serves Discord's
	// HTTP interactions at POST /interactions.
	PublicKey string `toml:"public_key"`
	// Gateway says whether to connect to Discord's gateway (default true).
	// False runs on REST alone: interactions come only to the HTTP
	// endpoint, which public_key and http.listen must then set up.
	Gateway bool `toml:"gateway"`
}

// Shards are the shards this process serves: ShardIDs, or ShardID alone.
func (c DiscordConfig) Shards() []int {
	if len(c.ShardIDs) > 0 {
		return c.ShardIDs
	}
	return []int{c.ShardID}
}

// validateShards checks discord.shard_ids against shard_count and
// shard_id.
func (c DiscordConfig) validateShards() error {
	if len(c.ShardIDs) == 0 {
		return nil
	}
	if c.ShardID != 0 {
		return errors.New("discord.shard_ids replaces discord.shard_id: set one of them, not both")
	}
	seen := map[int]bool{}
	for _, id := range c.ShardIDs {
		if id < 0 || id >= c.ShardCount {
			return fmt.Errorf("discord.shard_ids must hold shard IDs between 0 and shard_count-1 (%d), got %d", c.ShardCount-1, id)
		}
		if seen[id] {
			return fmt.Errorf("discord.shard_ids lists shard %d twice", id)
		}
		seen[id] = true
	}
	return nil
}

// StorageConfig holds the [storage] table: which store the bot keeps its
// games in.
type StorageConfig struct {
	// Backend is "bbolt" (one file, one process: the default) or "etcd" (a
	// cluster several bot processes share).
	Backend string `toml:"backend"`
	// Path is the bbolt database file.
	Path string `toml:"path"`
	// Endpoints are the etcd members' client URLs.
	Endpoints []string `toml:"endpoints"`
	// Prefix starts every etcd key of the bot (default "sandtable/").
	Prefix string `toml:"prefix"`
	// DialTimeout bounds the first contact with the etcd cluster.
	DialTimeout Duration `toml:"dial_timeout"`
	// Username and Password authenticate to etcd (both or neither).
	Username string `toml:"username"`
	Password Secret `toml:"password"`
	// TLSCA, TLSCert and TLSKey are PEM files; TLS is on when any is set.
	TLSCA   string `toml:"tls_ca"`
	TLSCert string `toml:"tls_cert"`
	TLSKey  string `toml:"tls_key"`
}

// EtcdOptions are the options of storage.OpenEtcd this table gives.
func (c StorageConfig) EtcdOptions() storage.EtcdOptions {
	return storage.EtcdOptions{Endpoints: c.Endpoints, Prefix: c.Prefix, DialTimeout: time.Duration(c.DialTimeout),
		Username: c.Username, Password: c.Password.Value(), TLSCA: c.TLSCA, TLSCert: c.TLSCert, TLSKey: c.TLSKey}
}

func (c *StorageConfig) validate() error {
	switch c.Backend {
	case "bbolt":
		if strings.TrimSpace(c.Path) == "" {
			return errors.New("storage.path must not be empty")
		}
		// etcd settings under bbolt are a forgotten backend line, not a
		// choice: the bot would quietly run on a file of its own.
		if len(c.Endpoints) > 0 || c.Username != "" || c.TLSCA != "" || c.TLSCert != "" || c.TLSKey != "" {
			return errors.New("storage.endpoints (or another etcd key) is set but storage.backend is \"bbolt\": set backend = \"etcd\" to use the cluster, or remove the etcd keys")
		}
		return nil
	case "etcd":
	default:
		return fmt.Errorf("storage.backend must be bbolt or etcd, got %q", c.Backend)
	}
	if len(c.Endpoints) == 0 {
		return errors.New("storage.endpoints must list the etcd members' client URLs (such as http://127.0.0.1:2379) when storage.backend is etcd")
	}
	useTLS := c.TLSCA != "" || c.TLSCert != "" || c.TLSKey != ""
	for _, ep := range c.Endpoints {
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return fmt.Errorf("storage.endpoints: %q is not an etcd client URL such as http://127.0.0.1:2379", ep)
		}
		if useTLS && u.Scheme != "https" {
			return fmt.Errorf("storage.endpoints: %q is http, but storage.tls_* are set: use https URLs", ep)
		}
	}
	if strings.TrimSpace(c.Prefix) == "" {
		return errors.New("storage.prefix must not be empty (the default is \"sandtable/\")")
	}
	// Without the slash, one store's keys would start another's ("bot1"
	// and "bot10"), which then would not open.
	if !strings.HasSuffix(c.Prefix, "/") {
		return fmt.Errorf("storage.prefix must end with / (such as \"sandtable/\"), got %q", c.Prefix)
	}
	if d := time.Duration(c.DialTimeout); d < 100*time.Millisecond || d > 5*time.Minute {
		return fmt.Errorf("storage.dial_timeout must be between 100ms and 5m, got %s", d)
	}
	if (c.Username == "") != c.Password.Empty() {
		return errors.New("storage.username and storage.password go together: set both or neither")
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("storage.tls_cert and storage.tls_key go together: set both or neither")
	}
	for _, f := range []struct{ key, path string }{{"storage.tls_ca", c.TLSCA}, {"storage.tls_cert", c.TLSCert}, {"storage.tls_key", c.TLSKey}} {
		if f.path == "" {
			continue
		}
		if _, err := os.Stat(f.path); err != nil {
			return fmt.Errorf("%s: cannot read %s: %v", f.key, f.path, errors.Unwrap(err))
		}
	}
	// Unchecked, a file without certificates makes every connection fail
	// as if the cluster did not answer.
	if c.TLSCA != "" {
		data, err := os.ReadFile(c.TLSCA)
		if err != nil {
			return fmt.Errorf("storage.tls_ca: cannot read %s: %v", c.TLSCA, errors.Unwrap(err))
		}
		if !x509.NewCertPool().AppendCertsFromPEM(data) {
			return fmt.Errorf("storage.tls_ca: %s holds no PEM certificate", c.TLSCA)
		}
	}
	if c.TLSCert != "" {
		if _, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey); err != nil {
			return fmt.Errorf("storage.tls_cert and storage.tls_key (%s, %s) are not a PEM certificate and its private key: %v", c.TLSCert, c.TLSKey, err)
		}
	}
	return nil
}

// LogConfig holds the [log] table.
type LogConfig struct {
	Level  string `toml:"level"`
	Format string `toml:"format"`
}

// GameConfig holds the [game] table.
type GameConfig struct {
	BoardSize    int      `toml:"board_size"`
	MoveTime     Duration `toml:"move_time"`
	ChallengeTTL Duration `toml:"challenge_ttl"`
	LobbyTTL     Duration `toml:"lobby_ttl"`
	// RemindAt is the share of a move's (turn's, deployment's) time after
	// which whoever must act is reminded in the game's thread; 0: never.
	RemindAt float64 `toml:"remind_at"`
	// ComputerWorkers is how many computer moves are computed at once
	// (games against the computer; 2 by default, so that one long search
	// does not hold up every other game); ComputerBudget caps the search
	// time of one move (the level's node budget usually ends it sooner; a
	// search past it and a grace is stopped, see commands.ComputerGrace).
	ComputerWorkers int      `toml:"computer_workers"`
	ComputerBudget  Duration `toml:"computer_budget"`
	// AnalysisMoveTime is the search time of each position when a
	// finished game is analysed (its Analysis button: a 100-ply game
	// takes about 101 times it); AnalysisDepth, when positive, also caps
	// each search's depth.
	AnalysisMoveTime Duration `toml:"analysis_movetime"`
	AnalysisDepth    int      `toml:"analysis_depth"`
}

// PlaygroundConfig holds the [playground] table: the web page, the local
// Discord stand-in and the database of the playground.
type PlaygroundConfig struct {
	// Address is the IP address the web page listens on; loopback by default.
	// Any other address is reachable from other machines and is warned about.
	Address string `toml:"address"`
	// Port is the web page's TCP port; 0 picks a free one. When the port is
	// taken, the playground picks a free one and says so.
	Port int `toml:"port"`
	// Database is the bbolt file of the playground's games and of its Discord
	// stand-in (users, channels, threads, messages, attachments). It is kept
	// apart from storage.path so playground games never reach a real bot.
	Database string `toml:"database"`
	// ServerName, Channels and Users shape a new playground: the Discord
	// server's name, its text channels and the local people one can act as.
	// Names added later are added to an existing playground; none is removed.
	ServerName string   `toml:"server_name"`
	Channels   []string `toml:"channels"`
	Users      []string `toml:"users"`
}

// Secret holds a string that never prints, so a token cannot reach a log
// line or an error message. Every way Go prints a value is covered: fmt with
// any verb and flag (Format, String, GoString), log/slog with the text and
// JSON handlers, alone, in a group or nested in a struct (LogValue,
// MarshalJSON), encoders using encoding.TextMarshaler (TOML, JSON map keys).
// The value sits behind a pointer so that even fmt's reflection, which
// cannot call the methods of a Secret in an unexported field, finds only an
// address. An empty Secret prints as "" (so "not set" shows); any other as
// "[redacted]". The zero value is empty; Value gives the string itself, for
// the one place that needs it (the session).
type Secret struct {
	p *string
}

// NewSecret wraps v; NewSecret("") is the empty Secret.
func NewSecret(v string) Secret {
	if v == "" {
		return Secret{}
	}
	return Secret{p: &v}
}

// Value returns the secret string itself. Never print or log it.
func (s Secret) Value() string {
	if s.p == nil {
		return ""
	}
	return *s.p
}

// Empty reports whether the Secret holds the empty string.
func (s Secret) Empty() bool { return s.Value() == "" }

// UnmarshalText reads the value (from the TOML file).
func (s *Secret) UnmarshalText(b []byte) error {
	*s = NewSecret(string(b))
	return nil
}

// redacted is what a non-empty Secret prints as.
const redacted = "[redacted]"

// String hides the value.
func (s Secret) String() string {
	if s.Empty() {
		return ""
	}
	return redacted
}

// GoString hides the value from %#v.
func (s Secret) GoString() string { return "bot.Secret(" + strconv.Quote(s.String()) + ")" }

// Format hides the value from every fmt verb, including those that would
// otherwise print the underlying string (%x, %d's error text): %#v gives
// GoString, %q the quoted String, everything else String.
func (s Secret) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('#'):
		io.WriteString(f, s.GoString())
	case verb == 'q':
		io.WriteString(f, strconv.Quote(s.String()))
	default:
		io.WriteString(f, s.String())
	}
}

// LogValue hides the value from log/slog: Secret is a slog.LogValuer.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalText hides the value from text encoders (TOML, encoding/xml, JSON
// map keys).
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// MarshalJSON hides the value from encoding/json (and so from slog's JSON
// handler when a Secret is nested in a struct).
func (s Secret) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// Duration is a time.Duration read from a TOML string such as "24h" or "3d"
// (see duration.Parse).
type Duration time.Duration

// UnmarshalText parses a duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := duration.Parse(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// DefaultConfig returns the configuration used for keys the file leaves out.
func DefaultConfig() Config {
	return Config{
		Discord: DiscordConfig{ShardCount: 1, Gateway: true},
		Storage: StorageConfig{Backend: "bbolt", Path: "sandtable.db", Prefix: storage.DefaultEtcdPrefix, DialTimeout: Duration(5 * time.Second)},
		Log:     LogConfig{Level: "info", Format: "text"},
		Game: GameConfig{
			BoardSize:       640,
			MoveTime:        Duration(24 * time.Hour),
			ChallengeTTL:    Duration(time.Hour),
			LobbyTTL:        Duration(24 * time.Hour),
			RemindAt:        0.75,
			ComputerWorkers: commands.DefaultComputerWorkers,
			ComputerBudget:  Duration(5 * time.Second),
			// A 100-ply game's analysis: about 10 s.
			AnalysisMoveTime: Duration(commands.DefaultAnalysisMoveTime),
		},
		Outbox: OutboxConfig{LeaseTTL: Duration(storage.DefaultLeaseTTL), Workers: commands.DefaultWorkers},
		Playground: PlaygroundConfig{
			Address:    "127.0.0.1",
			Port:       8765,
			Database:   "playground.db",
			ServerName: "SandTable Playground",
			Channels:   []string{"general", "survival-chess", "sandtable", "team-chess"},
			Users:      []string{"alice", "bob", "carol", "dave"},
		},
	}
}

// LoadConfig reads the TOML file at path over DefaultConfig, applies the
// DISCORD_TOKEN environment variable, and validates the result. An empty path
// means "no file": defaults plus environment. Errors name the file and the key.
func LoadConfig(path string, getenv func(string) string) (Config, error) {
	cfg := DefaultConfig()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return cfg, fmt.Errorf("config %s: %w", path, err)
		}
		md, err := toml.Decode(string(data), &cfg)
		if err != nil {
			return cfg, fmt.Errorf("config %s: %s", path, configError(err))
		}
		if un := md.Undecoded(); len(un) > 0 {
			keys := make([]string, len(un))
			for i, k := range un {
				keys[i] = k.String()
			}
			return cfg, fmt.Errorf("config %s: unknown key %s (see config.example.toml for the keys)", path, strings.Join(keys, ", "))
		}
	}
	if getenv != nil {
		if tok := getenv("DISCORD_TOKEN"); tok != "" {
			cfg.Discord.Token = NewSecret(tok)
		}
	}
	if err := cfg.validate(); err != nil {
		name := path
		if name == "" {
			name = "(defaults)"
		}
		return cfg, fmt.Errorf("config %s: %w", name, err)
	}
	return cfg, nil
}

// configError describes a TOML error by line, column and message, never
// with the file's source lines: the TOML library's ErrorWithPosition shows
// the lines around the error, which can hold discord.token.
func configError(err error) string {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	msg := fmt.Sprintf("line %d, column %d: %s", pe.Position.Line, pe.Position.Col, pe.Message)
	if pe.LastKey != "" {
		msg += " (key " + pe.LastKey + ")"
	}
	return msg
}

func (c *Config) validate() error {
	switch {
	case c.Discord.ShardCount < 1:
		return fmt.Errorf("discord.shard_count must be at least 1, got %d", c.Discord.ShardCount)
	case c.Discord.ShardID < 0 || c.Discord.ShardID >= c.Discord.ShardCount:
		return fmt.Errorf("discord.shard_id must be between 0 and shard_count-1 (%d), got %d", c.Discord.ShardCount-1, c.Discord.ShardID)
	case c.Discord.validateShards() != nil:
		return c.Discord.validateShards()
	case c.Game.BoardSize < 256 || c.Game.BoardSize > 2048:
		return fmt.Errorf("game.board_size must be between 256 and 2048 pixels, got %d", c.Game.BoardSize)
	case time.Duration(c.Game.MoveTime) < time.Minute:
		return fmt.Errorf("game.move_time must be at least 1m, got %s", time.Duration(c.Game.MoveTime))
	case time.Duration(c.Game.ChallengeTTL) < time.Minute:
		return fmt.Errorf("game.challenge_ttl must be at least 1m, got %s", time.Duration(c.Game.ChallengeTTL))
	case time.Duration(c.Game.LobbyTTL) < time.Minute:
		return fmt.Errorf("game.lobby_ttl must be at least 1m, got %s", time.Duration(c.Game.LobbyTTL))
	case c.Game.ComputerWorkers < 1 || c.Game.ComputerWorkers > 64:
		return fmt.Errorf("game.computer_workers must be from 1 to 64 (how many computer moves are computed at once); got %d", c.Game.ComputerWorkers)
	case c.Game.ComputerBudget < Duration(100*time.Millisecond) || c.Game.ComputerBudget > Duration(10*time.Minute):
		return fmt.Errorf("game.computer_budget must be from 100ms to 10m (the longest search of one computer move), e.g. \"5s\"; got %s", time.Duration(c.Game.ComputerBudget))
	case c.Game.AnalysisMoveTime < Duration(time.Millisecond) || c.Game.AnalysisMoveTime > Duration(10*time.Second):
		return fmt.Errorf("game.analysis_movetime must be from 1ms to 10s (the search time of each position of an analysed game), e.g. \"100ms\"; got %s", time.Duration(c.Game.AnalysisMoveTime))
	case c.Game.AnalysisDepth < 0 || c.Game.AnalysisDepth > 64:
		return fmt.Errorf("game.analysis_depth must be from 0 (no cap) to 64; got %d", c.Game.AnalysisDepth)
	case !(c.Game.RemindAt >= 0 && c.Game.RemindAt < 1):
		return fmt.Errorf("game.remind_at must be a share of the move's time from 0 (no reminders) to below 1, e.g. 0.75; got %v", c.Game.RemindAt)
	case time.Duration(c.Outbox.LeaseTTL) < storage.MinLeaseTTL || time.Duration(c.Outbox.LeaseTTL) > storage.MaxLeaseTTL:
		return fmt.Errorf("outbox.lease_ttl must be between %s and %s (how long a dead process's effects wait), got %s", storage.MinLeaseTTL, storage.MaxLeaseTTL, time.Duration(c.Outbox.LeaseTTL))
	case c.Outbox.Workers < 1 || c.Outbox.Workers > 256:
		return fmt.Errorf("outbox.workers must be from 1 to 256 (how many games' effects are delivered at once); got %d", c.Outbox.Workers)
	}
	if c.Discord.APIBase != "" {
		u, err := url.Parse(c.Discord.APIBase)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("discord.api_base must be an http(s) URL such as http://127.0.0.1:8081, got %q", c.Discord.APIBase)
		}
	}
	for _, id := range []struct{ key, v string }{{"discord.application_id", c.Discord.ApplicationID}, {"discord.dev_guild_id", c.Discord.DevGuildID}} {
		if id.v != "" && !isSnowflake(id.v) {
			return fmt.Errorf("%s must be a numeric Discord ID, got %q", id.key, id.v)
		}
	}
	if err := c.Storage.validate(); err != nil {
		return err
	}
	if err := c.Playground.validate(); err != nil {
		return err
	}
	if c.HTTP.Listen != "" {
		if _, port, err := net.SplitHostPort(c.HTTP.Listen); err != nil || port == "" || !validPort(port) {
			return fmt.Errorf("http.listen must be an address such as 127.0.0.1:9090 (host:port, port 0 to 65535), got %q", c.HTTP.Listen)
		}
	}
	if err := c.checkEndpoint(); err != nil {
		return err
	}
	if n := len(c.Bot.ProcessName); n > 100 || strings.ContainsAny(c.Bot.ProcessName, "\n\r\t") {
		return fmt.Errorf("bot.process_name must be at most 100 characters on one line, got %q", c.Bot.ProcessName)
	}
	switch strings.ToLower(c.Log.Level) {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log.level must be debug, info, warn or error, got %q", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		return fmt.Errorf("log.format must be text or json, got %q", c.Log.Format)
	}
	return nil
}

// checkEndpoint validates discord.public_key and refuses the combinations
// of public_key, gateway and http.listen that cannot receive interactions.
func (c *Config) checkEndpoint() error {
	if c.Discord.PublicKey != "" {
		if _, err := parsePublicKey(c.Discord.PublicKey); err != nil {
			return err
		}
		if c.HTTP.Listen == "" {
			return errors.New("discord.public_key is set but http.listen is empty: the interactions endpoint (POST /interactions) is served on the http.listen address")
		}
	}
	if !c.Discord.Gateway {
		switch {
		case len(c.Discord.ShardIDs) > 0 || c.Discord.ShardID != 0 || c.Discord.ShardCount > 1:
			return errors.New("discord.shard_id, shard_ids and shard_count choose gateway connections, and discord.gateway = false opens none: remove them (over HTTP, Discord sends every interaction to the endpoint)")
		case c.Discord.PublicKey == "":
			return errors.New("discord.gateway = false needs discord.public_key: without the gateway, interactions arrive only at the HTTP endpoint, which verifies them with the application's public key")
		case c.HTTP.Listen == "":
			return errors.New("discord.gateway = false needs http.listen: without the gateway, interactions arrive only at the HTTP endpoint (POST /interactions) on that address")
		}
	}
	return nil
}

// parsePublicKey reads an Ed25519 public key written in hex.
func parsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil && len(strings.TrimSpace(s)) == 2*ed25519.PublicKeySize {
		// The right length: say what is wrong with it, not its length.
		return nil, fmt.Errorf("discord.public_key must be the application's public key, %d hexadecimal digits (Developer Portal, General Information), but it holds characters other than 0-9 and a-f", 2*ed25519.PublicKeySize)
	}
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("discord.public_key must be the application's public key, %d hexadecimal digits (Developer Portal, General Information), got %d characters", 2*ed25519.PublicKeySize, len(s))
	}
	return ed25519.PublicKey(b), nil
}

var (
	playgroundUser    = regexp.MustCompile(`^[a-z0-9_.]{2,32}$`)
	playgroundChannel = regexp.MustCompile(`^[a-z0-9_-]{1,100}$`)
)

func (p *PlaygroundConfig) validate() error {
	if p.Address != "localhost" && net.ParseIP(p.Address) == nil {
		return fmt.Errorf("playground.address must be an IP address such as 127.0.0.1 (or localhost), got %q", p.Address)
	}
	if p.Port < 0 || p.Port > 65535 {
		return fmt.Errorf("playground.port must be between 0 (any free port) and 65535, got %d", p.Port)
	}
	if strings.TrimSpace(p.Database) == "" {
		return errors.New("playground.database must not be empty")
	}
	if n := len([]rune(p.ServerName)); n < 2 || n > 100 {
		return fmt.Errorf("playground.server_name must be 2 to 100 characters, got %q", p.ServerName)
	}
	if len(p.Channels) < 1 || len(p.Channels) > 20 {
		return fmt.Errorf("playground.channels must list 1 to 20 channel names, got %d", len(p.Channels))
	}
	seen := map[string]bool{}
	for _, c := range p.Channels {
		if !playgroundChannel.MatchString(c) {
			return fmt.Errorf("playground.channels: %q is not a channel name (1 to 100 lower-case letters, digits, - or _)", c)
		}
		if seen["#"+c] {
			return fmt.Errorf("playground.channels: %q is listed twice", c)
		}
		seen["#"+c] = true
	}
	if len(p.Users) < 2 || len(p.Users) > 25 {
		return fmt.Errorf("playground.users must list 2 to 25 user names, got %d", len(p.Users))
	}
	for _, u := range p.Users {
		if !playgroundUser.MatchString(u) {
			return fmt.Errorf("playground.users: %q is not a user name (2 to 32 lower-case letters, digits, _ or .)", u)
		}
		if seen["@"+u] {
			return fmt.Errorf("playground.users: %q is listed twice", u)
		}
		seen["@"+u] = true
	}
	return nil
}

// IsLoopback reports whether the playground's address is a loopback address
// (reachable from this machine only).
func (p *PlaygroundConfig) IsLoopback() bool {
	if p.Address == "localhost" {
		return true
	}
	ip := net.ParseIP(p.Address)
	return ip != nil && ip.IsLoopback()
}

// RequireToken reports the missing-token error that `sandtable run` gives when
// it must connect to Discord.
func (c *Config) RequireToken(path string) error {
	if !c.Discord.Token.Empty() {
		return nil
	}
	where := "no config file given"
	if path != "" {
		where = "config " + path
	}
	return fmt.Errorf("%s: discord.token is missing: set the DISCORD_TOKEN environment variable or discord.token in the config file (see config.example.toml and the README's \"Create the Discord application\")", where)
}

func isSnowflake(s string) bool {
	if len(s) < 5 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// validPort reports whether port is a TCP port number, 0 to 65535.
func validPort(port string) bool {
	n, err := strconv.Atoi(port)
	return err == nil && n >= 0 && n <= 65535
}
