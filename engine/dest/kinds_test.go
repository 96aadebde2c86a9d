package dest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hoist/engine/upload"
	"hoist/internal/goconst"
)

// kindConstants are the exported constants of type Kind declared in the
// package at dir (engine/dest's kinds, or the emulator's).
func kindConstants(t *testing.T, dir string) map[string]bool {
	t.Helper()
	consts, err := goconst.Declared("Kind", filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, c := range consts {
		if ast.IsExported(c.Name) {
			out[c.Name] = true
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

// TestSettingsAreTyped: each kind reads its settings into a struct of its
// own, and that struct names every setting its form and flags offer (its
// family's for Gmail's four methods), and nothing else.
func TestSettingsAreTyped(t *testing.T) {
	family := map[string]map[string]bool{}
	for _, info := range Kinds() {
		keys := family[info.Kind.Family()]
		if keys == nil {
			keys = map[string]bool{}
			family[info.Kind.Family()] = keys
		}
		for _, f := range info.Fields {
			keys[f.Key] = true
		}
	}
	for _, k := range registry {
		info := k.info()
		s := k.settings()
		if s == nil {
			t.Errorf("%s: no typed settings", info.Kind)
			continue
		}
		typedKeys := map[string]bool{}
		for _, key := range settingKeys(s) {
			typedKeys[key] = true
			if !family[info.Kind.Family()][key] {
				t.Errorf("%s: the typed settings read %q, which no form offers", info.Kind, key)
			}
		}
		for _, f := range info.Fields {
			if !typedKeys[f.Key] {
				t.Errorf("%s: the setting %q is offered but never read into its typed settings", info.Kind, f.Key)
			}
		}
		// Every value a form may hold parses.
		d := Destination{Kind: info.Kind, Params: map[string]string{}}
		for _, f := range info.Fields {
			switch {
			case len(f.Choices) > 0:
				d.Params[f.Key] = strings.ToLower(f.Choices[len(f.Choices)-1])
			case f.Kind == BoolField:
				d.Params[f.Key] = "true"
			case f.Kind == NumberField:
				d.Params[f.Key] = "۱۲"
			case f.Kind == SizeField:
				d.Params[f.Key] = "2MiB"
			default:
				d.Params[f.Key] = "x, y"
			}
		}
		typed(d, s)
	}
	yt := youTubeOf(Destination{Kind: YouTube, Params: map[string]string{"privacy": "PUBLIC", "title": " Launch "}})
	if yt.Privacy != "public" || yt.Title != "Launch" || youTubeOf(Destination{Kind: YouTube}).Privacy != "private" {
		t.Errorf("typed %+v: a choice spelled as the API wants it, trimmed, or its default", yt)
	}
	if c := customOf(Destination{Kind: Custom, Params: map[string]string{"maxSize": "2MiB", "accept": "image/*, video/*"}}); c.MaxSize != 2<<20 || len(c.Accept) != 2 {
		t.Errorf("typed %+v: a size, a list", c)
	}
	if cm := cm360Of(Destination{Kind: CM360, Params: map[string]string{"profileId": "۱۲"}}); cm.ProfileID != "12" {
		t.Errorf("typed %+v: a number's digits made ASCII", cm)
	}
}

// damagedKind is a kind whose server refuses damaged bytes by their checksum.
type damagedKind struct{ base }

func (damagedKind) info() KindInfo { return KindInfo{Kind: "damaged-test", Rank: 9999} }
func (damagedKind) passesLater(_ Destination, e *upload.APIError) bool {
	return e.Status == 400 && strings.Contains(e.Message, "checksum")
}

// TestAKindSaysWhichRefusalsMayPass: a kind may say that a refusal of its
// server passes when the same file is sent again (bytes damaged on the
// way); no other kind's refusal does.
func TestAKindSaysWhichRefusalsMayPass(t *testing.T) {
	register(damagedKind{})
	t.Cleanup(func() {
		delete(byKind, "damaged-test")
		registry = slices.DeleteFunc(registry, func(k kind) bool { return k.info().Kind == "damaged-test" })
		order = slices.DeleteFunc(order, func(k Kind) bool { return k == "damaged-test" })
	})
	damaged := &upload.APIError{Status: 400, Reason: "invalid", Message: "the checksum does not match"}
	if !RefusalPassesLater(Destination{Kind: "damaged-test"}, damaged) {
		t.Error("the kind's damaged bytes would not pass when sent again")
	}
	if RefusalPassesLater(Destination{Kind: "damaged-test"}, &upload.APIError{Status: 400, Reason: "invalid", Message: "bad name"}) {
		t.Error("any refusal passes")
	}
	for _, info := range Kinds() {
		if info.Kind != "damaged-test" && RefusalPassesLater(Destination{Kind: info.Kind}, damaged) {
			t.Errorf("%s: a refusal passes when sent again", info.Kind)
		}
	}
}
