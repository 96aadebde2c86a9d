// Command testreport reads the events of `go test -json` and prints what a
// plain `go test` would (each package's result, and the output of every test
// that failed), then every test that was skipped, with its reason, and a
// closing count. It exits 1 when a test or package failed, or when a test
// was skipped that the list of expected skips does not name.
//
//	go test -json ./... | go run ./internal/testreport -expect scripts/expected-skips.txt
//
// The list has one skip a line: the package's import path and the test's
// name (a pattern as path.Match reads it), then why it is expected; text
// after '#' is a comment.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
)

// event is one line of `go test -json` (see `go doc test2json`).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Output     string
}

type key struct{ pkg, test string }

// Skip is a test that was skipped, with the lines that said why.
type Skip struct {
	Package, Test string
	Why           []string
}

// Expected is one line of the list of expected skips.
type Expected struct{ Package, Test string }

// Report is what the run came to.
type Report struct {
	Passed, Failed int
	Skipped        []Skip
	PackageFailed  bool
}

func main() {
	expectPath := flag.String("expect", "", "file listing the skips that are expected")
	flag.Parse()
	var expected []Expected
	if *expectPath != "" {
		b, err := os.ReadFile(*expectPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
		if expected, err = ParseExpected(string(b)); err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %s: %v\n", *expectPath, err)
			os.Exit(2)
		}
	}
	rep, err := Read(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if !Summary(os.Stdout, rep, expected) {
		os.Exit(1)
	}
}

// ParseExpected reads the list of expected skips.
func ParseExpected(text string) ([]Expected, error) {
	var list []Expected
	for n, line := range strings.Split(text, "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			return nil, fmt.Errorf("line %d: want: package test why", n+1)
		}
		if _, err := path.Match(f[1], ""); err != nil {
			return nil, fmt.Errorf("line %d: %v", n+1, err)
		}
		list = append(list, Expected{Package: f[0], Test: f[1]})
	}
	return list, nil
}

// Read prints, from the events on in, what a plain go test prints, and
// counts the tests.
func Read(in io.Reader, out io.Writer) (*Report, error) {
	rep := &Report{}
	buf := map[key][]string{}
	var running []key // tests started and not yet ended, in order
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(out, "%s\n", line) // not an event: go's own words
			continue
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "build-fail":
			rep.PackageFailed = true
		case e.Test == "":
			switch e.Action {
			case "output":
				if e.Output != "PASS\n" {
					fmt.Fprint(out, e.Output)
				}
			case "fail":
				rep.PackageFailed = true
				// A panic or a timeout ends tests that never said so.
				for _, r := range running {
					if r.pkg == e.Package {
						printTest(out, buf[r])
						delete(buf, r)
					}
				}
				running = slices.DeleteFunc(running, func(r key) bool { return r.pkg == e.Package })
			}
		case e.Action == "run":
			running = append(running, k)
		case e.Action == "output":
			buf[k] = append(buf[k], e.Output)
		case e.Action == "pass", e.Action == "fail", e.Action == "skip":
			switch e.Action {
			case "pass":
				rep.Passed++
			case "fail":
				rep.Failed++
				printTest(out, buf[k])
			case "skip":
				rep.Skipped = append(rep.Skipped, Skip{Package: e.Package, Test: e.Test, Why: reason(buf[k])})
			}
			delete(buf, k)
			running = slices.DeleteFunc(running, func(r key) bool { return r == k })
		}
	}
	return rep, sc.Err()
}

// printTest prints a test's output without the lines that only say it ran.
func printTest(out io.Writer, lines []string) {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "=== RUN") || strings.HasPrefix(t, "=== PAUSE") || strings.HasPrefix(t, "=== CONT") || strings.HasPrefix(t, "=== NAME") {
			continue
		}
		fmt.Fprint(out, l)
	}
}

// reason is what a skipped test logged, without the lines that say it ran.
func reason(lines []string) []string {
	var why []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "===") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		why = append(why, t)
	}
	return why
}

// Summary prints the skipped tests and the count, and reports whether the
// run is green: nothing failed and every skip is expected.
func Summary(out io.Writer, rep *Report, expected []Expected) bool {
	ok := rep.Failed == 0 && !rep.PackageFailed
	if len(rep.Skipped) == 0 {
		fmt.Fprintln(out, "No test was skipped.")
	} else {
		fmt.Fprintf(out, "Skipped tests (%d):\n", len(rep.Skipped))
	}
	for _, s := range rep.Skipped {
		mark := "expected"
		if !isExpected(s, expected) {
			mark = "NOT EXPECTED"
			ok = false
		}
		fmt.Fprintf(out, "  %s %s (%s)\n", s.Package, s.Test, mark)
		for _, w := range s.Why {
			fmt.Fprintf(out, "      %s\n", w)
		}
	}
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", rep.Passed, rep.Failed, len(rep.Skipped))
	return ok
}

func isExpected(s Skip, expected []Expected) bool {
	for _, e := range expected {
		if e.Package != s.Package {
			continue
		}
		if m, _ := path.Match(e.Test, s.Test); m {
			return true
		}
	}
	return false
}
