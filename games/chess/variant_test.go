package chess

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestEngineDoesNotBranchOnVariant keeps the variants in their hook files:
// no engine file other than variant*.go names a variant constant, compares
// a variant or switches on one.
func TestEngineDoesNotBranchOnVariant(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	isVariant := func(e ast.Expr) bool {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			return x.Sel.Name == "variant"
		case *ast.CallExpr:
			s, ok := x.Fun.(*ast.SelectorExpr)
			return ok && s.Sel.Name == "Variant"
		}
		return false
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "variant") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				switch x.Name {
				case "Chess", "Survival", "TeamChess":
					t.Errorf("%s names the variant %s", fset.Position(x.Pos()), x.Name)
				}
			case *ast.BinaryExpr:
				if (x.Op == token.EQL || x.Op == token.NEQ) && (isVariant(x.X) || isVariant(x.Y)) {
					t.Errorf("%s compares a variant", fset.Position(x.Pos()))
				}
			case *ast.SwitchStmt:
				if x.Tag != nil && isVariant(x.Tag) {
					t.Errorf("%s switches on a variant", fset.Position(x.Pos()))
				}
			}
			return true
		})
	}
}

// TestVariantRules checks the hook table: every variant has its hooks and
// names, and ParseVariant reads each name and alias back.
func TestVariantRules(t *testing.T) {
	t.Parallel()
	if len(variantRules) != len(Variants) {
		t.Fatalf("%d hook sets for %d variants", len(variantRules), len(Variants))
	}
	for _, v := range Variants {
		r := v.rules()
		if r == nil || r.endings == nil || r.name == "" || r.title == "" || r.prose == "" || r.moveHint == "" || r.maxPieces == 0 {
			t.Fatalf("%d: incomplete hooks %+v", v, r)
		}
		if (len(r.promotions) == 0) != r.sacrifices {
			t.Errorf("%s: a pawn on the last rank must promote or sacrifice, not both or neither", v)
		}
		if n := len(r.promotions); r.lastRankN != max(n, 1) {
			t.Errorf("%s: %d last-rank moves for %d promotion roles", v, r.lastRankN, n)
		}
		for _, name := range append([]string{r.name, strings.ToUpper(r.name)}, r.aliases...) {
			if got, err := ParseVariant(name); err != nil || got != v {
				t.Errorf("ParseVariant(%q) = %v, %v", name, got, err)
			}
		}
		if _, err := ParseFEN(v, v.StartFEN()); err != nil {
			t.Errorf("%s start: %v", v, err)
		}
	}
	if _, err := ParseVariant("antichess"); err == nil {
		t.Error("unknown variant accepted")
	}
	bad := Variant(9)
	if bad.String() != "variant(9)" || bad.Title() != "variant(9)" || !bad.HasCheck() || bad.StartFEN() != StandardFEN {
		t.Errorf("unknown variant: %q %q %v %q", bad.String(), bad.Title(), bad.HasCheck(), bad.StartFEN())
	}
	if _, err := ParseFEN(bad, StandardFEN); err == nil {
		t.Error("ParseFEN accepted an unknown variant")
	}
}
