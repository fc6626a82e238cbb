package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// modulePackage is one package of the module as `go list -deps -test
// -json` describes it: its direct imports (its test files' included) and
// everything it depends on, its tests included.
type modulePackage struct {
	ImportPath                         string
	Imports, TestImports, XTestImports []string
	Deps                               []string
}

// modulePackages runs `go list -deps -test -json ./...` once for the
// package's tests and returns the module's packages by import path. A
// package's Deps are those of the package and of its test binary
// (internal and external tests), with the test variants ("p [q.test]")
// named as the packages they vary.
func modulePackages(t *testing.T) map[string]*modulePackage {
	t.Helper()
	listOnce.Do(func() { listed, listErr = listModule() })
	require.NoError(t, listErr)
	require.Greater(t, len(listed), 10, "go list listed the module's packages")
	return listed
}

var (
	listOnce sync.Once
	listed   map[string]*modulePackage
	listErr  error
)

func listModule() (map[string]*modulePackage, error) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-json", "./...").Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil, fmt.Errorf("go list: %w\n%s", err, ee.Stderr)
	}
	if err != nil {
		return nil, err
	}
	type pkg struct {
		modulePackage
		Standard bool
		Module   *struct{ Path string }
	}
	var all []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		all = append(all, p)
	}
	base := func(path string) string { path, _, _ = strings.Cut(path, " "); return path }
	pkgs := map[string]*modulePackage{}
	for _, p := range all {
		if p.Standard || p.Module == nil || p.Module.Path != "sandtable" || strings.Contains(p.ImportPath, " ") ||
			strings.HasSuffix(p.ImportPath, ".test") {
			continue
		}
		mp := p.modulePackage
		pkgs[p.ImportPath] = &mp
	}
	for _, p := range all {
		// The test binary "p.test" depends on everything p's tests do.
		if mp := pkgs[strings.TrimSuffix(p.ImportPath, ".test")]; strings.HasSuffix(p.ImportPath, ".test") && mp != nil {
			mp.Deps = append(mp.Deps, p.Deps...)
		}
	}
	for _, mp := range pkgs {
		for i, d := range mp.Deps {
			mp.Deps[i] = base(d)
		}
		slices.Sort(mp.Deps)
		mp.Deps = slices.Compact(mp.Deps)
	}
	return pkgs, nil
}

// importRules says which packages of the module may import a third-party
// package directly: Discord's wire types stay in the Discord adapter, the
// simulator and the playground; bbolt stays in storage.
var importRules = map[string][]string{
	"github.com/bwmarrin/discordgo": {"sandtable/bot", "sandtable/internal/discordsim", "sandtable/playground"},
	"go.etcd.io/bbolt":              {"sandtable/storage"},
}

// TestImportGraph fails when a package of the module (its test files
// included) imports discordgo or bbolt outside the packages importRules
// allows.
func TestImportGraph(t *testing.T) {
	for _, p := range modulePackages(t) {
		imports := slices.Concat(p.Imports, p.TestImports, p.XTestImports)
		slices.Sort(imports)
		for _, imp := range slices.Compact(imports) {
			if allowed, ruled := importRules[imp]; ruled && !slices.Contains(allowed, p.ImportPath) {
				t.Errorf("%s imports %s; only %v may", p.ImportPath, imp, allowed)
			}
		}
	}
}

// gamePackages are the game flows; the framework (commands and its
// packages: ui model, test harness, ...), the chess-family UI and the rules
// engines never import them: games are plugged in by the wiring (the bot).
var gamePackages = []string{"sandtable/commands/survival", "sandtable/commands/teamchess", "sandtable/commands/sandtable"}

// chessFamily is the UI the chess-family games share (board, move
// refusal, piece order): it may import the chess engine, the framework
// may not.
const chessFamily = "sandtable/commands/chessui"

// isFramework reports whether pkg is a framework package: commands or a
// package under it that is neither a game flow nor the chess-family UI.
func isFramework(pkg string) bool {
	return (pkg == "sandtable/commands" || strings.HasPrefix(pkg, "sandtable/commands/")) &&
		!slices.Contains(gamePackages, pkg) && pkg != chessFamily
}

// TestFrameworkImportsNoGame checks that neither the framework, the
// chess-family UI, the engines, storage nor render depend on a game's flow,
// even indirectly (tests included), that no game's flow depends on
// another's, and that the framework depends on no rules engine (games/*).
func TestFrameworkImportsNoGame(t *testing.T) {
	pkgs := modulePackages(t)
	var framework int
	for path, p := range pkgs {
		noGame := isFramework(path) || path == chessFamily || strings.HasPrefix(path, "sandtable/games/") ||
			path == "sandtable/storage" || path == "sandtable/render"
		if isFramework(path) {
			framework++
		}
		for _, d := range p.Deps {
			switch {
			case noGame && slices.Contains(gamePackages, d):
				t.Errorf("%s depends on the game flow %s", path, d)
			case slices.Contains(gamePackages, path) && d != path && slices.Contains(gamePackages, d):
				t.Errorf("the game %s depends on the game %s", path, d)
			case isFramework(path) && strings.HasPrefix(d, "sandtable/games/"):
				t.Errorf("the framework package %s depends on the rules engine %s", path, d)
			}
		}
	}
	require.GreaterOrEqual(t, framework, 3, "the framework's packages were listed")
	for _, p := range append([]string{chessFamily, "sandtable/games/chess"}, gamePackages...) {
		require.Contains(t, pkgs, p, "go list listed %s", p)
	}
}
