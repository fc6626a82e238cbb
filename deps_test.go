package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
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
