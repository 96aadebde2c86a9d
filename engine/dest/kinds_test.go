package dest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// kindConstants are the exported constants of type Kind declared in the
// package at dir (engine/dest's kinds, or the emulator's).
func kindConstants(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Kind" {
					for _, n := range v.Names {
						if n.IsExported() {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no kinds declared in %s", dir)
	}
	return out
}

// TestKindsStayInTheirFiles: no code outside engine/dest and
// engine/emulator names a kind of destination by its constant, so no list
// or switch of kinds grows elsewhere: a new kind is its file on each side
// (it registers itself), its words in the catalogue, and its tests.
func TestKindsStayInTheirFiles(t *testing.T) {
	root := filepath.Join("..", "..")
	banned := map[string]map[string]bool{
		"hoist/engine/dest":     kindConstants(t, "."),
		"hoist/engine/emulator": kindConstants(t, filepath.Join("..", "emulator")),
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "engine/dest" || rel == "engine/emulator" || rel == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := map[string]map[string]bool{} // the name a file imports a package by → its kinds
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if consts, ok := banned[p]; ok {
				name := p[strings.LastIndex(p, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				names[name] = consts
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && names[x.Name][sel.Sel.Name] {
				t.Errorf("%s names the kind %s.%s: say what it needs of a kind through the kind's info, or move it into the kind's file", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
