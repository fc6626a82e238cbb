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
// storage).
func TestImportsOnlyGames(t *testing.T) {
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
			if strings.Contains(first, ".") || (first == "sandtable" && !strings.HasPrefix(path, "sandtable/games/")) {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
