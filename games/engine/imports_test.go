package engine

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsOnlyGames keeps the engine pure: its files import the
// standard library and games/ packages only (no Discord, rendering or
// storage); its tests may also use the test kit.
func TestImportsOnlyGames(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			first, _, _ := strings.Cut(path, "/")
			if strings.HasSuffix(name, "_test.go") && path == "sandtable/internal/testkit" {
				continue
			}
			if strings.Contains(first, ".") || (first == "sandtable" && !strings.HasPrefix(path, "sandtable/games/")) {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
