// Package goconst reads Go source for the constants of a named type, so
// that tests can hold code to what it declares (every fact code has a
// sentence, no kind of destination is named outside its files). It imports
// nothing of Hoist's.
package goconst

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Const is a declared constant: its name and, when it is a literal, its value.
type Const struct {
	Name  string
	Value string
}

// Declared are the constants of type typeName (written T or pkg.T) that the
// non-test Go files matched by the globs declare.
func Declared(typeName string, globs ...string) ([]Const, error) {
	var out []Const
	for _, glob := range globs {
		files, err := filepath.Glob(glob)
		if err != nil {
			return nil, err
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				return nil, err
			}
			out = append(out, constants(f, typeName)...)
		}
	}
	return out, nil
}

func constants(f *ast.File, typeName string) []Const {
	var out []Const
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			switch typ := v.Type.(type) {
			case *ast.Ident:
				if typ.Name != typeName {
					continue
				}
			case *ast.SelectorExpr:
				if typ.Sel.Name != typeName {
					continue
				}
			default:
				continue
			}
			for i, n := range v.Names {
				c := Const{Name: n.Name}
				if i < len(v.Values) {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok {
						c.Value, _ = strconv.Unquote(lit.Value)
					}
				}
				out = append(out, c)
			}
		}
	}
	return out
}
