package bot

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	cfg, err := LoadConfig("../config.example.toml", noEnv)
	require.NoError(t, err)
	require.Equal(t, DefaultConfig(), cfg, "the example documents the defaults")
}

func TestConfigValues(t *testing.T) {
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
`)
	cfg, err := LoadConfig(p, noEnv)
	require.NoError(t, err)
	require.Equal(t, Secret("file-token"), cfg.Discord.Token)
	require.Equal(t, 1, cfg.Discord.ShardID)
	require.Equal(t, 800, cfg.Game.BoardSize)
	require.Equal(t, 72*time.Hour, time.Duration(cfg.Game.MoveTime))
	require.Equal(t, 30*time.Minute, time.Duration(cfg.Game.ChallengeTTL))
}

func TestEnvTokenOverridesFile(t *testing.T) {
	p := writeConfig(t, "[discord]\ntoken = \"file\"\n")
	cfg, err := LoadConfig(p, func(k string) string {
		if k == "DISCORD_TOKEN" {
			return "env"
		}
		return ""
	})
	require.NoError(t, err)
	require.Equal(t, Secret("env"), cfg.Discord.Token)
}

func TestConfigErrorsNameKeyAndFile(t *testing.T) {
	cases := []struct{ body, want string }{
		{"[discord]\ntokn = \"x\"\n", "unknown key discord.tokn"},
		{"colour = 1\n", "unknown key colour"},
		{"[game]\nboard_size = \"big\"\n", "board_size"},
		{"[game]\nmove_time = \"soon\"\n", "move_time"},
		{"[game]\nboard_size = 10\n", "game.board_size must be between 256 and 2048"},
		{"[discord]\nshard_id = 2\nshard_count = 2\n", "discord.shard_id"},
		{"[discord]\napplication_id = \"abc\"\n", "discord.application_id must be a numeric Discord ID"},
		{"[log]\nlevel = \"loud\"\n", "log.level"},
		{"[log]\nformat = \"xml\"\n", "log.format"},
		{"[storage]\npath = \"\"\n", "storage.path"},
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
	cfg, err := LoadConfig("", noEnv)
	require.NoError(t, err)
	err = cfg.RequireToken("")
	require.ErrorContains(t, err, "DISCORD_TOKEN")
	require.ErrorContains(t, err, "discord.token")
}

func TestTokenNeverPrints(t *testing.T) {
	cfg, err := LoadConfig("", func(string) string { return "sekrit-token" })
	require.NoError(t, err)
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%v", cfg.Discord)} {
		require.NotContains(t, s, "sekrit-token")
	}
}

func TestPlaygroundConfig(t *testing.T) {
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
