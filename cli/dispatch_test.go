package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func run(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = dispatch(args, &o, &e)
	return code, o.String(), e.String()
}

func TestUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-h"}, {"help"}, {"--help"}} {
		code, out, _ := run(args...)
		require.Equal(t, 0, code)
		require.Contains(t, out, "subcommands: analyse, apply, match, migrate, perft, render, replay, run, uci")
	}
	code, _, errOut := run("frobnicate")
	require.Equal(t, 2, code)
	require.Contains(t, errOut, `unknown subcommand "frobnicate"`)
}

func TestEverySubcommandHasHelp(t *testing.T) {
	t.Parallel()
	for name := range subcommands {
		code, out, errOut := run(name, "-h")
		require.Equal(t, 0, code, "%s -h", name)
		require.Contains(t, out+errOut, "usage: sandtable "+name, "%s -h prints its usage", name)
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "c.toml")
	require.NoError(t, os.WriteFile(cfg, []byte("[discord]\ntokn = \"x\"\n"), 0o600))
	code, _, errOut := run("run", "-config", cfg)
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "unknown key discord.tokn")
	require.Contains(t, errOut, cfg)
	code, _, errOut = run("run", "-config", filepath.Join(t.TempDir(), "missing.toml"))
	require.Equal(t, 2, code)
	require.Contains(t, errOut, "missing.toml")
}
