package render

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports: render depends on no other package of this module (no rules
// engine, Discord or storage code): callers convert their positions into
// ChessBoard and SandTableBoard. Test files are checked too.
func TestImports(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "sandtable/") && path != "sandtable/render" || strings.Contains(path, "discordgo") || strings.Contains(path, "bbolt") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
