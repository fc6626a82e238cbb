package bot

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/require"
)

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bot.toml")
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func noEnv(string) string { return "" }

func TestExampleConfigLoads(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig("../config.example.toml", noEnv)
	require.NoError(t, err)
	require.Equal(t, DefaultConfig(), cfg, "the example documents the defaults")
}

func TestConfigValues(t *testing.T) {
	t.Parallel()
	p := writeConfig(t, `
[discord]
token = "file-token"
application_id = "123456789012345678"
dev_guild_id = "876543210987654321"
shard_id = 1
shard_count = 2
[storage]
path = "x.db"
[log]
level = "debug"
format = "json"
[game]
board_size = 800
move_time = "3d"
challenge_ttl = "30m"
lobby_ttl = "2d"
remind_at = 0.5
[outbox]
lease_ttl = "5s"
workers = 3
`)
	cfg, err := LoadConfig(p, noEnv)
	require.NoError(t, err)
	require.Equal(t, NewSecret("file-token"), cfg.Discord.Token)
	require.Equal(t, 1, cfg.Discord.ShardID)
	require.Equal(t, 800, cfg.Game.BoardSize)
	require.Equal(t, 72*time.Hour, time.Duration(cfg.Game.MoveTime))
	require.Equal(t, 30*time.Minute, time.Duration(cfg.Game.ChallengeTTL))
	require.Equal(t, 48*time.Hour, time.Duration(cfg.Game.LobbyTTL))
	require.Equal(t, 0.5, cfg.Game.RemindAt)
	require.Equal(t, 0.75, DefaultConfig().Game.RemindAt)
	require.Equal(t, 2, cfg.Game.ComputerWorkers, "two computer workers by default: one long search does not hold up every game")
	require.Equal(t, 5*time.Second, time.Duration(cfg.Game.ComputerBudget))
	require.Equal(t, 5*time.Second, time.Duration(cfg.Outbox.LeaseTTL))
	require.Equal(t, 10*time.Second, time.Duration(DefaultConfig().Outbox.LeaseTTL))
	require.Empty(t, cfg.Deprecated())
	require.Equal(t, 3, cfg.Outbox.Workers)
	require.Equal(t, 8, DefaultConfig().Outbox.Workers)
}

func TestEnvTokenOverridesFile(t *testing.T) {
	t.Parallel()
	p := writeConfig(t, "[discord]\ntoken = \"file\"\n")
	cfg, err := LoadConfig(p, func(k string) string {
		if k == "DISCORD_TOKEN" {
			return "env"
		}
		return ""
	})
	require.NoError(t, err)
	require.Equal(t, NewSecret("env"), cfg.Discord.Token)
}

// TestClaimTTLIsDeprecated: a config from before leases, with
// outbox.claim_ttl, still loads; the setting is ignored and reported as
// deprecated (the bot logs it at start).
func TestClaimTTLIsDeprecated(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, "[outbox]\nclaim_ttl = \"60s\"\n"), noEnv)
	require.NoError(t, err)
	require.Equal(t, 10*time.Second, time.Duration(cfg.Outbox.LeaseTTL))
	require.Len(t, cfg.Deprecated(), 1)
	require.Contains(t, cfg.Deprecated()[0], "outbox.claim_ttl")
}

func TestConfigErrorsNameKeyAndFile(t *testing.T) {
	t.Parallel()
	cases := []struct{ body, want string }{
		{"[discord]\ntokn = \"x\"\n", "unknown key discord.tokn"},
		{"colour = 1\n", "unknown key colour"},
		{"[game]\nboard_size = \"big\"\n", "board_size"},
		{"[game]\nmove_time = \"soon\"\n", "move_time"},
		{"[game]\nboard_size = 10\n", "game.board_size must be between 256 and 2048"},
		{"[discord]\nshard_id = 2\nshard_count = 2\n", "discord.shard_id"},
		{"[discord]\napplication_id = \"abc\"\n", "discord.application_id must be a numeric Discord ID"},
		{"[log]\nlevel = \"loud\"\n", "log.level"},
		{"[http]\nlisten = \"127.0.0.1:99999\"\n", "http.listen must be an address such as 127.0.0.1:9090 (host:port, port 0 to 65535)"},
		{"[http]\nlisten = \"127.0.0.1:http\"\n", "http.listen must be"},
		{"[log]\nformat = \"xml\"\n", "log.format"},
		{"[storage]\npath = \"\"\n", "storage.path"},
		{"[discord]\npublic_key = \"abc\"\n[http]\nlisten = \"127.0.0.1:0\"\n", "discord.public_key must be the application's public key, 64 hexadecimal digits"},
		{"[discord]\npublic_key = \"" + strings.Repeat("ab", 32) + "\"\n", "discord.public_key is set but http.listen is empty"},
		{"[discord]\npublic_key = \"zz" + strings.Repeat("ab", 31) + "\"\n[http]\nlisten = \"127.0.0.1:0\"\n", "discord.public_key must be the application's public key, 64 hexadecimal digits (Developer Portal, General Information), but it holds characters other than 0-9 and a-f"},
		{"[discord]\ngateway = false\n[http]\nlisten = \"127.0.0.1:0\"\n", "discord.gateway = false needs discord.public_key"},
		{"[discord]\ngateway = false\npublic_key = \"" + strings.Repeat("ab", 32) + "\"\n", "discord.public_key is set but http.listen is empty"},
		{"[bot]\nprocess_name = \"a\nb\"\n", "bot.process_name"},
		{"[discord]\ngateway = false\nshard_ids = [0, 1]\nshard_count = 2\npublic_key = \"" + strings.Repeat("ab", 32) + "\"\n[http]\nlisten = \"127.0.0.1:0\"\n", "discord.gateway = false opens none"},
		{"[storage]\nendpoints = [\"http://127.0.0.1:2379\"]\n", "storage.backend is \"bbolt\""},
		{"[game]\nlobby_ttl = \"30s\"\n", "game.lobby_ttl must be at least 1m"},
		{"[game]\nremind_at = 1.0\n", "game.remind_at must be a share of the move's time from 0 (no reminders) to below 1, e.g. 0.75; got 1"},
		{"[game]\nremind_at = -0.25\n", "game.remind_at must be"},
		{"[game]\nremind_at = nan\n", "game.remind_at must be"},
		{"[game]\nremind_at = \"75%\"\n", "remind_at"},
		{"[game]\nchallenge_ttl = \"30s\"\n", "game.challenge_ttl must be at least 1m"},
		{"[outbox]\nlease_ttl = \"1s\"\n", "outbox.lease_ttl must be between 2s and 1m0s"},
		{"[outbox]\nlease_ttl = \"61s\"\n", "outbox.lease_ttl must be between 2s and 1m0s"},
		{"[outbox]\nworkers = 0\n", "outbox.workers must be from 1 to 256"},
		{"[game\n", "bot.toml"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			p := writeConfig(t, c.body)
			_, err := LoadConfig(p, noEnv)
			require.Error(t, err)
			require.Contains(t, err.Error(), c.want)
			require.Contains(t, err.Error(), p)
		})
	}
}

func TestMissingTokenIsExplained(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig("", noEnv)
	require.NoError(t, err)
	err = cfg.RequireToken("")
	require.ErrorContains(t, err, "DISCORD_TOKEN")
	require.ErrorContains(t, err, "discord.token")
}

// TestSecretNeverPrints tries every way a Secret can be printed: fmt with
// each verb (alone, by pointer, in the config, in slices and maps), both
// slog handlers (an attribute, a group, a logger's With, the whole config),
// encoding/json and TOML.
func TestSecretNeverPrints(t *testing.T) {
	t.Parallel()
	const token = "sekrit-token"
	cfg, err := LoadConfig("", func(string) string { return token })
	require.NoError(t, err)
	s := cfg.Discord.Token
	require.Equal(t, token, s.Value(), "the value itself is kept")

	check := func(what, out string) {
		t.Helper()
		require.NotContains(t, out, token, what)
		require.NotContains(t, out, hex.EncodeToString([]byte(token)), what)
	}
	values := map[string]any{
		"secret": s, "pointer": &s, "config": cfg, "config pointer": &cfg, "discord": cfg.Discord,
		"slice": []Secret{s}, "map": map[string]Secret{"t": s}, "map key": map[Secret]int{s: 1},
		"anonymous struct": struct{ Token Secret }{s}, "unexported field": struct{ token Secret }{s},
		"unexported pointer field": struct{ token *Secret }{&s},
	}
	for what, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%t", "%10.3s", "%T %v"} {
			check(what+" "+verb, fmt.Sprintf(verb, v, v))
		}
		check(what+" Sprint", fmt.Sprint(v))
		check(what+" Sprintln", fmt.Sprintln(v))
		check(what+" error", fmt.Errorf("bad: %v", v).Error())
		out, err := json.Marshal(v)
		require.NoError(t, err)
		check(what+" json", string(out))

		for _, format := range []string{"text", "json"} {
			var buf bytes.Buffer
			log := NewLogger(LogConfig{Level: "debug", Format: format}, &buf)
			log.Info("attr", "v", v)
			log.Info("any", slog.Any("v", v))
			log.Info("group", slog.Group("g", slog.Any("v", v), "w", v))
			log.With("v", v).Info("with")
			log.WithGroup("g").Info("with group", "v", v)
			log.LogAttrs(context.Background(), slog.LevelWarn, "attrs", slog.Any("v", v))
			check(what+" slog "+format, buf.String())
			require.Equal(t, 6, strings.Count(buf.String(), "\n"), "six lines were logged")
		}
	}
	var buf bytes.Buffer
	require.NoError(t, toml.NewEncoder(&buf).Encode(cfg))
	check("toml", buf.String())
	require.Contains(t, buf.String(), redacted)

	require.Equal(t, "", fmt.Sprint(Secret{}), "an empty secret shows it is not set")
	require.Equal(t, redacted, fmt.Sprint(s))
}

func TestPlaygroundConfig(t *testing.T) {
	t.Parallel()
	p := writeConfig(t, `
[playground]
address = "0.0.0.0"
port = 0
database = "pg.db"
server_name = "Chess Club"
channels = ["lobby", "games"]
users = ["ann", "ben", "cy"]
`)
	cfg, err := LoadConfig(p, noEnv)
	require.NoError(t, err)
	require.Equal(t, PlaygroundConfig{Address: "0.0.0.0", Port: 0, Database: "pg.db", ServerName: "Chess Club",
		Channels: []string{"lobby", "games"}, Users: []string{"ann", "ben", "cy"}}, cfg.Playground)
	require.False(t, cfg.Playground.IsLoopback())
	def := DefaultConfig().Playground
	require.True(t, def.IsLoopback(), "the playground listens on loopback by default")
	require.GreaterOrEqual(t, len(def.Users), 4, "four or more local users by default")

	for _, c := range []struct{ body, want string }{
		{`address = "example.org"`, "playground.address must be an IP address"},
		{`port = 70000`, "playground.port must be between 0"},
		{`database = " "`, "playground.database must not be empty"},
		{`server_name = "x"`, "playground.server_name must be 2 to 100 characters"},
		{`channels = []`, "playground.channels must list 1 to 20"},
		{`channels = ["General"]`, `"General" is not a channel name`},
		{`channels = ["a", "a"]`, `"a" is listed twice`},
		{`users = ["ann"]`, "playground.users must list 2 to 25"},
		{`users = ["ann", "Bob Smith"]`, `"Bob Smith" is not a user name`},
		{`users = ["ann", "ann"]`, `"ann" is listed twice`},
		{`colour = "red"`, "unknown key playground.colour"},
		{`port = "8080"`, "playground.port"},
	} {
		_, err := LoadConfig(writeConfig(t, "[playground]\n"+c.body+"\n"), noEnv)
		require.Error(t, err, c.body)
		require.Contains(t, err.Error(), c.want, c.body)
	}
}

// TestConfigErrorsNeverShowTheToken: a TOML error anywhere in a file that
// holds the token is reported by line and column without the file's lines
// (the TOML library's positioned error prints the lines around the error).
func TestConfigErrorsNeverShowTheToken(t *testing.T) {
	t.Parallel()
	const tok = "MTIzNDU2Nzg5.REAL-SECRET-abc.def"
	for name, body := range map[string]string{
		"bad value two lines below": "[discord]\ntoken = \"" + tok + "\"\n[game]\nmove_time = \"5x\"\n",
		"unterminated token string": "[discord]\ntoken = \"" + tok + "\n",
		"bad escape in the token":   "[discord]\ntoken = \"" + tok + "\\q\"\n",
		"token unquoted":            "[discord]\ntoken = " + tok + "\n",
		"duplicate key after it":    "[discord]\ntoken = '" + tok + "'\ntoken = 'x'\n",
		"syntax error on next line": "[discord]\ntoken = \"" + tok + "\"\n[game\n",
	} {
		t.Run(name, func(t *testing.T) {
			p := writeConfig(t, body)
			_, err := LoadConfig(p, noEnv)
			require.Error(t, err)
			require.Contains(t, err.Error(), p)
			require.Contains(t, err.Error(), "line ")
			for i := 0; i+8 <= len(tok); i++ {
				require.NotContains(t, err.Error(), tok[i:i+8], "the error shows part of the token: %s", err)
			}
		})
	}
}

// TestEndpointConfig: the HTTP interactions endpoint's keys load, and New
// refuses a bot without a gateway that nothing could reach (a test's
// Options.HTTPListen counts as http.listen).
func TestEndpointConfig(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("0f", 32)
	p := writeConfig(t, "[discord]\npublic_key = \""+key+"\"\ngateway = false\n[http]\nlisten = \"127.0.0.1:9090\"\n[bot]\nprocess_name = \"bot-a\"\n")
	cfg, err := LoadConfig(p, noEnv)
	require.NoError(t, err)
	require.Equal(t, key, cfg.Discord.PublicKey)
	require.False(t, cfg.Discord.Gateway)
	require.Equal(t, "bot-a", processName(cfg.Bot))
	require.True(t, DefaultConfig().Discord.Gateway, "the gateway is on by default")
	host, _ := os.Hostname()
	require.Equal(t, fmt.Sprintf("%s-%d", host, os.Getpid()), processName(DefaultConfig().Bot))

	cfg = DefaultConfig()
	cfg.Discord.Gateway = false
	cfg.Discord.PublicKey = key
	_, err = New(cfg, nil, Options{})
	require.ErrorContains(t, err, "http.listen")
	_, err = New(cfg, nil, Options{HTTPListen: "127.0.0.1:0", Logger: slog.New(slog.DiscardHandler)})
	require.NoError(t, err)
}

// TestStorageConfig: the etcd backend's keys are read and checked, each
// error naming its key; bbolt stays the default.
func TestStorageConfig(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig("", noEnv)
	require.NoError(t, err)
	require.Equal(t, "bbolt", cfg.Storage.Backend)

	dir := t.TempDir()
	pem, certPEM, keyPEM := filepath.Join(dir, "x.pem"), filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(pem, []byte("-"), 0o600))
	writeCertAndKey(t, certPEM, keyPEM)
	p := writeConfig(t, `
[storage]
backend = "etcd"
endpoints = ["https://10.0.0.1:2379", "https://10.0.0.2:2379"]
prefix = "bot1/"
dial_timeout = "2s"
username = "bot"
password = "pw-sekrit"
tls_ca = "`+certPEM+`"
tls_cert = "`+certPEM+`"
tls_key = "`+keyPEM+`"
`)
	cfg, err = LoadConfig(p, noEnv)
	require.NoError(t, err)
	o := cfg.Storage.EtcdOptions()
	require.Equal(t, []string{"https://10.0.0.1:2379", "https://10.0.0.2:2379"}, o.Endpoints)
	require.Equal(t, "bot1/", o.Prefix)
	require.Equal(t, 2*time.Second, o.DialTimeout)
	require.Equal(t, "pw-sekrit", o.Password)
	require.NotContains(t, fmt.Sprintf("%v %+v", cfg, cfg.Storage), "pw-sekrit", "the password never prints")

	cases := []struct{ body, want string }{
		{"backend = \"redis\"\n", "storage.backend must be bbolt or etcd"},
		{"backend = \"etcd\"\n", "storage.endpoints must list"},
		{"backend = \"etcd\"\nendpoints = [\"10.0.0.1:2379\"]\n", "storage.endpoints: \"10.0.0.1:2379\" is not an etcd client URL"},
		{"backend = \"etcd\"\nendpoints = [\"http://a:2379\"]\nprefix = \"\"\n", "storage.prefix must not be empty"},
		{"backend = \"etcd\"\nendpoints = [\"http://a:2379\"]\nprefix = \"bot1\"\n", "storage.prefix must end with /"},
		{"backend = \"etcd\"\nendpoints = [\"http://a:2379\"]\ndial_timeout = \"1ms\"\n", "storage.dial_timeout must be between"},
		{"backend = \"etcd\"\nendpoints = [\"http://a:2379\"]\nusername = \"u\"\n", "storage.username and storage.password go together"},
		{"backend = \"etcd\"\nendpoints = [\"https://a:2379\"]\ntls_cert = \"" + pem + "\"\n", "storage.tls_cert and storage.tls_key go together"},
		{"backend = \"etcd\"\nendpoints = [\"https://a:2379\"]\ntls_ca = \"" + filepath.Join(dir, "none.pem") + "\"\n", "storage.tls_ca: cannot read"},
		{"backend = \"etcd\"\nendpoints = [\"http://a:2379\"]\ntls_ca = \"" + pem + "\"\n", "is http, but storage.tls_* are set"},
		{"backend = \"etcd\"\nendpoints = [\"https://a:2379\"]\ntls_ca = \"" + pem + "\"\n", "storage.tls_ca: " + pem + " holds no PEM certificate"},
		{"backend = \"etcd\"\nendpoints = [\"https://a:2379\"]\ntls_ca = \"" + keyPEM + "\"\n", "storage.tls_ca: " + keyPEM + " holds no PEM certificate"},
		{"backend = \"etcd\"\nendpoints = [\"https://a:2379\"]\ntls_cert = \"" + pem + "\"\ntls_key = \"" + keyPEM + "\"\n", "storage.tls_cert and storage.tls_key"},
		{"backend = \"etcd\"\nendpoints = [\"https://a:2379\"]\ntls_cert = \"" + certPEM + "\"\ntls_key = \"" + certPEM + "\"\n", "are not a PEM certificate and its private key"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			p := writeConfig(t, "[storage]\n"+c.body)
			_, err := LoadConfig(p, noEnv)
			require.ErrorContains(t, err, c.want)
			require.ErrorContains(t, err, p)
		})
	}
}

// writeCertAndKey writes a self-signed certificate and its private key as PEM files.
func writeCertAndKey(t *testing.T, certPath, keyPath string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "etcd-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600))
	require.NoError(t, os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
}
