package bot

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestShardIDs: discord.shard_ids runs several shards in one process; it
// is checked against shard_count, and replaces shard_id.
func TestShardIDs(t *testing.T) {
	t.Parallel()
	cfg, err := LoadConfig(writeConfig(t, "[discord]\nshard_ids = [0, 1]\nshard_count = 2\n"), noEnv)
	require.NoError(t, err)
	require.Equal(t, []int{0, 1}, cfg.Discord.Shards())
	cfg, err = LoadConfig(writeConfig(t, "[discord]\nshard_id = 1\nshard_count = 2\n"), noEnv)
	require.NoError(t, err)
	require.Equal(t, []int{1}, cfg.Discord.Shards(), "shard_id alone: one shard")
	require.Equal(t, []int{0}, DefaultConfig().Discord.Shards())

	for body, want := range map[string]string{
		"[discord]\nshard_ids = [0, 2]\nshard_count = 2\n":               "between 0 and shard_count-1 (1), got 2",
		"[discord]\nshard_ids = [-1]\nshard_count = 2\n":                 "got -1",
		"[discord]\nshard_ids = [1, 1]\nshard_count = 2\n":               "shard 1 twice",
		"[discord]\nshard_id = 1\nshard_ids = [0, 1]\nshard_count = 2\n": "not both",
	} {
		p := writeConfig(t, body)
		_, err := LoadConfig(p, noEnv)
		require.ErrorContains(t, err, want)
		require.ErrorContains(t, err, "discord.shard_")
		require.ErrorContains(t, err, p)
	}
}
