package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// importRules says which packages of the module may import a third-party
// package directly: Discord's wire types stay in the Discord adapter, the
// simulator and the playground; bbolt stays in storage.
var importRules = map[string][]string{
	"github.com/bwmarrin/discordgo": {"sandtable/bot", "sandtable/internal/discordsim", "sandtable/playground"},
	"go.etcd.io/bbolt":              {"sandtable/storage"},
}

// TestImportGraph runs `go list -json ./...` and fails when a package of
// the module (its test files included) imports discordgo or bbolt outside
// the packages importRules allows.
func TestImportGraph(t *testing.T) {
	out, err := exec.Command("go", "list", "-json", "./...").Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		t.Fatalf("go list: %v\n%s", err, ee.Stderr)
	}
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(out))
	seen := 0
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else {
			require.NoError(t, err)
		}
		seen++
		imports := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
		slices.Sort(imports)
		for _, imp := range slices.Compact(imports) {
			if allowed, ruled := importRules[imp]; ruled && !slices.Contains(allowed, p.ImportPath) {
				t.Errorf("%s imports %s; only %v may", p.ImportPath, imp, allowed)
			}
		}
	}
	require.Greater(t, seen, 10, "go list listed the module's packages")
}

// gamePackages are the game flows; the framework (commands, its ui model
// and test harness) and the rules engines never import them: games are
// plugged in by the wiring (the bot).
var gamePackages = []string{"sandtable/commands/survival", "sandtable/commands/teamchess", "sandtable/commands/sandtable"}

// TestFrameworkImportsNoGame checks, with `go list -deps`, that neither the
// framework nor the engines depend on a game's flow, even indirectly, and
// that no game's flow depends on another's.
func TestFrameworkImportsNoGame(t *testing.T) {
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", "-test", pkg).Output()
		require.NoError(t, err, pkg)
		return strings.Fields(string(out))
	}
	for _, pkg := range []string{"sandtable/commands", "sandtable/commands/ui", "sandtable/commands/commandstest",
		"sandtable/games/chess", "sandtable/games/teamchess", "sandtable/games/sandtable", "sandtable/games/engine", "sandtable/storage", "sandtable/render"} {
		for _, d := range deps(pkg) {
			if slices.Contains(gamePackages, d) {
				t.Errorf("%s depends on the game flow %s", pkg, d)
			}
		}
	}
	for _, game := range gamePackages {
		if _, err := exec.Command("go", "list", game).Output(); err != nil {
			continue // not moved out yet
		}
		for _, d := range deps(game) {
			if d != game && slices.Contains(gamePackages, d) {
				t.Errorf("the game %s depends on the game %s", game, d)
			}
		}
	}
}
