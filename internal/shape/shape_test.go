package shape

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const (
	maxFuncLines   = 100
	maxMethods     = 30
	maxQueue       = 25 // engine.Queue, the engine's public face
	maxWindowFiles = 15 // non-test files at ui's top level
)

// known are today's offenders, each with the size it has, while they are
// being split: a known offender may shrink but not grow, and is taken off
// this list once it is within the limit (the test says so).
var known = map[string]int{}

// generated is the line Go's tools put in generated files.
var generated = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

// source is one Go file of the repository that is neither a test nor generated.
type source struct {
	rel  string // slash-separated, from the repository's root
	file *ast.File
	fset *token.FileSet
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root is not at %s: %v", root, err)
	}
	return root
}

// sources reads every Go file of the repository (the bench module too) but
// tests and generated files.
func sources(t *testing.T, root string) []source {
	t.Helper()
	fset := token.NewFileSet()
	var out []source
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "build" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if generated.Match(src) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, source{rel: filepath.ToSlash(rel), file: f, fset: fset})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 100 {
		t.Fatalf("only %d Go files found under %s: the walk is not reading the repository", len(out), root)
	}
	return out
}

// measure is every measured thing over its limit: "func FILE NAME", "type
// DIR.NAME" or "files ui", with its size.
func measure(srcs []source) (over map[string]int, sizes map[string]int) {
	over, sizes = map[string]int{}, map[string]int{}
	methods := map[string]int{}
	windowFiles := 0
	for _, s := range srcs {
		dir := filepath.ToSlash(filepath.Dir(s.rel))
		if dir == "ui" {
			windowFiles++
		}
		for _, d := range s.file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if fd.Body != nil {
				lines := s.fset.Position(fd.End()).Line - s.fset.Position(fd.Pos()).Line + 1
				key := "func " + s.rel + " " + funcName(fd)
				sizes[key] = lines
				if lines > maxFuncLines {
					over[key] = lines
				}
			}
			if recv := receiver(fd); recv != "" && countsMethods(dir) {
				methods["type "+dir+"."+recv]++
			}
		}
	}
	for key, n := range methods {
		sizes[key] = n
		limit := maxMethods
		if key == "type engine.Queue" {
			limit = maxQueue
		}
		if n > limit {
			over[key] = n
		}
	}
	sizes["files ui"] = windowFiles
	if windowFiles > maxWindowFiles {
		over["files ui"] = windowFiles
	}
	return over, sizes
}

// countsMethods: the engine (but the emulator), the sign-in and the window.
func countsMethods(dir string) bool {
	under := func(p string) bool { return dir == p || strings.HasPrefix(dir, p+"/") }
	return (under("engine") && !under("engine/emulator")) || under("auth") || under("ui")
}

func receiver(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func funcName(fd *ast.FuncDecl) string {
	if r := receiver(fd); r != "" {
		return r + "." + fd.Name.Name
	}
	return fd.Name.Name
}

func TestTheHouseStaysWalkable(t *testing.T) {
	over, sizes := measure(sources(t, repoRoot(t)))
	var problems []string
	for key, n := range over {
		was, isKnown := known[key]
		switch {
		case !isKnown:
			problems = append(problems, fmt.Sprintf("%s: %d, over the limit (%s)", key, n, limitOf(key)))
		case n > was:
			problems = append(problems, fmt.Sprintf("%s: %d, grew from %d while it was to be split (%s)", key, n, was, limitOf(key)))
		}
	}
	for key, was := range known {
		if _, still := over[key]; !still {
			problems = append(problems, fmt.Sprintf("%s (was %d) is now %d, within the limit: take it off the list of known offenders", key, was, sizes[key]))
		}
	}
	slices.Sort(problems)
	if len(problems) > 0 {
		var b bytes.Buffer
		for _, p := range problems {
			fmt.Fprintln(&b, "  "+p)
		}
		t.Errorf("the house's limits (internal/shape/doc.go):\n%s", b.String())
	}
}

func limitOf(key string) string {
	switch {
	case strings.HasPrefix(key, "func "):
		return fmt.Sprintf("a function has at most %d lines", maxFuncLines)
	case key == "type engine.Queue":
		return fmt.Sprintf("the queue has at most %d methods", maxQueue)
	case strings.HasPrefix(key, "type "):
		return fmt.Sprintf("a type has at most %d methods", maxMethods)
	default:
		return fmt.Sprintf("ui's top level has at most %d non-test files", maxWindowFiles)
	}
}

// TestTheMeasureSeesOffenders: the measure finds a long function, a type
// with too many methods and a crowded window package, so a pass above means
// something.
func TestTheMeasureSeesOffenders(t *testing.T) {
	fset := token.NewFileSet()
	parse := func(rel, src string) source {
		f, err := parser.ParseFile(fset, rel, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		return source{rel: rel, file: f, fset: fset}
	}
	long := "package cli\nfunc Send() {\n" + strings.Repeat("\t_ = 1\n", maxFuncLines-1) + "}\n"
	short := "package cli\nfunc Quit() {\n" + strings.Repeat("\t_ = 1\n", maxFuncLines-2) + "}\n"
	var many, queue strings.Builder
	many.WriteString("package auth\ntype Service struct{}\n")
	for i := range maxMethods + 1 {
		fmt.Fprintf(&many, "func (s *Service) M%d() {}\n", i)
	}
	queue.WriteString("package engine\ntype Queue struct{}\n")
	for i := range maxQueue + 1 {
		fmt.Fprintf(&queue, "func (q *Queue) M%d() {}\n", i)
	}
	srcs := []source{
		parse("cli/send.go", long), parse("cli/quit.go", short),
		parse("auth/service.go", many.String()), parse("engine/queue.go", queue.String()),
		parse("engine/emulator/server.go", strings.Replace(many.String(), "package auth", "package emulator", 1)),
	}
	for i := range maxWindowFiles + 1 {
		srcs = append(srcs, parse(fmt.Sprintf("ui/f%d.go", i), "package ui\n"))
	}
	srcs = append(srcs, parse("ui/list/list.go", "package list\n"))
	over, _ := measure(srcs)
	want := map[string]int{
		"func cli/send.go Send": maxFuncLines + 1,
		"type auth.Service":     maxMethods + 1,
		"type engine.Queue":     maxQueue + 1,
		"files ui":              maxWindowFiles + 1,
	}
	if fmt.Sprint(over) != fmt.Sprint(want) {
		t.Errorf("measured over the limits:\n got %v\nwant %v", over, want)
	}
}
