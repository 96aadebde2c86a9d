package engine_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestImportsPointOneWay keeps the arrows of docs/architecture.md: the
// engine reaches sign-in through engine.Accounts, never by importing auth;
// auth knows nothing of the engine; only the window imports Fyne; the
// engine's inner packages import only what the document lists; and the
// window's widgets import nothing of Hoist.
func TestImportsPointOneWay(t *testing.T) {
	graph := importGraph(t, "..")
	if len(graph["hoist/engine"]) == 0 || len(graph["hoist/ui"]) == 0 {
		t.Fatalf("the module was not read: %v", graph)
	}
	never := func(from func(string) bool, banned ...string) {
		t.Helper()
		for pkg := range graph {
			if !from(pkg) {
				continue
			}
			for dep, path := range reach(graph, pkg) {
				if dep == "hoist/digits" {
					continue // digits read as numbers, no words: everyone may
				}
				if dep == "hoist/engine/fact" && isAuthPkg(pkg) {
					continue // facts are codes, no words: sign-in says its errors as facts
				}
				for _, b := range banned {
					if dep == b || strings.HasPrefix(dep, b+"/") || strings.HasSuffix(b, "/") && strings.HasPrefix(dep, b) {
						t.Errorf("%s imports %s (%s)", pkg, dep, strings.Join(path, " → "))
					}
				}
			}
		}
	}
	isEngine := func(p string) bool { return p == "hoist/engine" || strings.HasPrefix(p, "hoist/engine/") }
	isAuth := isAuthPkg
	never(isEngine, "hoist/auth", "hoist/ui", "hoist/cli", "hoist/words", "fyne.io")
	never(isAuth, "hoist/engine", "hoist/ui", "hoist/cli", "hoist/words", "fyne.io")
	never(func(p string) bool { return p == "hoist/redact" || p == "hoist/digits" || p == "hoist/dirs" }, "hoist/")

	for pkg, deps := range graph {
		for _, dep := range deps {
			if strings.HasPrefix(dep, "fyne.io") && pkg != "hoist/ui" && !strings.HasPrefix(pkg, "hoist/ui/") {
				t.Errorf("%s imports %s; only the window (ui) imports Fyne", pkg, dep)
			}
		}
	}

	only := map[string][]string{
		"hoist/engine/upload":          {"hoist/engine/crc32c", "hoist/digits", "hoist/internal/webaddr"},
		"hoist/engine/media":           {"hoist/engine/upload", "hoist/engine/fact", "hoist/digits", "hoist/engine/media/outlook"},
		"hoist/engine/media/outlook":   {}, // reads Outlook items: nothing of Hoist's
		"hoist/engine/journal":         {"hoist/engine/upload", "hoist/engine/fact", "hoist/digits", "hoist/dirs"},
		"hoist/engine/emulator":        {"hoist/engine/upload", "hoist/engine/crc32c", "hoist/digits"},
		"hoist/engine/dest":            {"hoist/engine/upload", "hoist/engine/media", "hoist/engine/fact", "hoist/digits", "hoist/redact", "hoist/dirs"},
		"hoist/engine/fact":            {},
		"hoist/engine/crc32c":          {},
		"hoist/engine/google":          {"hoist/engine/dest", "hoist/engine/fact"},
		"hoist/ui/widgets":             {"hoist/ui/widgets/filechooser"}, // the toolkit's floor knows nothing of Hoist
		"hoist/ui/widgets/filechooser": {},
		"hoist/ui/readingcheck":        {"hoist/ui/widgets"}, // a panel's part, readable alone
		"hoist/ui/xdnd":                {},
		"hoist/ui/display":             {},
		"hoist/ui/native":              {},
		"hoist/ui/placement":           {},
		"hoist/ui/systemchooser":       {"hoist/ui/widgets/filechooser"},
		"hoist/words":                  {"hoist/engine/dest", "hoist/engine/fact", "hoist/engine/media", "hoist/digits"},
		"hoist/auth":                   {"hoist/engine/fact", "hoist/redact", "hoist/dirs"},
		"hoist/engine/proxy":           {"hoist/engine/fact", "hoist/internal/webaddr"},
		"hoist/internal/webaddr":       {},
	}
	for pkg, allowed := range only {
		for _, dep := range graph[pkg] {
			if strings.HasPrefix(dep, "hoist/") && !slices.Contains(allowed, dep) {
				t.Errorf("%s imports %s; it may import only %v of Hoist", pkg, dep, allowed)
			}
		}
	}
}

// TestWindowRoomsPointDown keeps the window's own packages on their floors
// (docs/architecture.md): the look at the bottom, the view of the queue every
// panel shares above it, then the dialogs and the received list, then the
// panels, the settings, and the window's top level, which builds them all.
// A package imports only the window's packages of a lower floor, so no
// arrow runs back up and no panel reads another on its own floor.
func TestWindowRoomsPointDown(t *testing.T) {
	graph := importGraph(t, "..")
	floor := map[string]int{
		"hoist/ui/look":        1,
		"hoist/ui/view":        2,
		"hoist/ui/dialogs":     3,
		"hoist/ui/received":    3,
		"hoist/ui/queuelist":   4,
		"hoist/ui/destination": 4,
		"hoist/ui/settings":    5,
		"hoist/ui":             9,
	}
	for pkg, f := range floor {
		if _, ok := graph[pkg]; !ok {
			t.Errorf("%s was not read", pkg)
		}
		for _, dep := range graph[pkg] {
			if g, ok := floor[dep]; ok && g >= f {
				t.Errorf("%s (floor %d) imports %s (floor %d)", pkg, f, dep, g)
			}
		}
	}
}

// importGraph reads the imports of every package of the module at root
// (test files and the separate bench module left out).
func importGraph(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bench" || name == "build") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := "hoist"
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		for _, imp := range f.Imports {
			dep, _ := strconv.Unquote(imp.Path.Value)
			if !slices.Contains(graph[pkg], dep) {
				graph[pkg] = append(graph[pkg], dep)
			}
		}
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("%s is not the module's root: %v", root, err)
	}
	return graph
}

// reach is every package pkg imports, directly or not, with one path to it.
func reach(graph map[string][]string, pkg string) map[string][]string {
	out := map[string][]string{}
	queue := [][]string{{pkg}}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		for _, dep := range graph[path[len(path)-1]] {
			if _, seen := out[dep]; seen {
				continue
			}
			p := append(slices.Clone(path), dep)
			out[dep] = p
			queue = append(queue, p)
		}
	}
	return out
}

// isAuthPkg reports whether p is the sign-in package or one of its own.
func isAuthPkg(p string) bool { return p == "hoist/auth" || strings.HasPrefix(p, "hoist/auth/") }
