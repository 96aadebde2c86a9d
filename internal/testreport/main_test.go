package main

import (
	"strings"
	"testing"
)

const events = `{"Action":"start","Package":"hoist/a"}
{"Action":"run","Package":"hoist/a","Test":"TestGood"}
{"Action":"output","Package":"hoist/a","Test":"TestGood","Output":"=== RUN   TestGood\n"}
{"Action":"output","Package":"hoist/a","Test":"TestGood","Output":"--- PASS: TestGood (0.00s)\n"}
{"Action":"pass","Package":"hoist/a","Test":"TestGood"}
{"Action":"run","Package":"hoist/a","Test":"TestQuiet"}
{"Action":"output","Package":"hoist/a","Test":"TestQuiet","Output":"=== RUN   TestQuiet\n"}
{"Action":"output","Package":"hoist/a","Test":"TestQuiet","Output":"    a_test.go:9: no keyring here\n"}
{"Action":"output","Package":"hoist/a","Test":"TestQuiet","Output":"--- SKIP: TestQuiet (0.00s)\n"}
{"Action":"skip","Package":"hoist/a","Test":"TestQuiet"}
{"Action":"output","Package":"hoist/a","Output":"PASS\n"}
{"Action":"output","Package":"hoist/a","Output":"ok  \thoist/a\t0.01s\n"}
{"Action":"pass","Package":"hoist/a"}
{"Action":"run","Package":"hoist/b","Test":"TestBad"}
{"Action":"output","Package":"hoist/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"hoist/b","Test":"TestBad","Output":"    b_test.go:3: wrong\n"}
{"Action":"output","Package":"hoist/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"hoist/b","Test":"TestBad"}
{"Action":"run","Package":"hoist/b","Test":"TestHang"}
{"Action":"output","Package":"hoist/b","Test":"TestHang","Output":"    b_test.go:7: waiting\n"}
{"Action":"output","Package":"hoist/b","Output":"panic: test timed out\n"}
{"Action":"output","Package":"hoist/b","Output":"FAIL\thoist/b\t1.00s\n"}
{"Action":"fail","Package":"hoist/b"}
{"Action":"skip","Package":"hoist/c"}
`

func TestReport(t *testing.T) {
	var out strings.Builder
	rep, err := Read(strings.NewReader(events), &out)
	if err != nil {
		t.Fatal(err)
	}
	printed := out.String()
	for _, want := range []string{"ok  \thoist/a", "b_test.go:3: wrong", "--- FAIL: TestBad", "b_test.go:7: waiting", "FAIL\thoist/b"} {
		if !strings.Contains(printed, want) {
			t.Errorf("output lacks %q:\n%s", want, printed)
		}
	}
	for _, unwanted := range []string{"TestGood", "=== RUN", "PASS\n", "no keyring here"} {
		if strings.Contains(printed, unwanted) {
			t.Errorf("output has %q:\n%s", unwanted, printed)
		}
	}
	if rep.Passed != 1 || rep.Failed != 1 || !rep.PackageFailed || len(rep.Skipped) != 1 {
		t.Fatalf("report %+v", rep)
	}
	if s := rep.Skipped[0]; s.Package != "hoist/a" || s.Test != "TestQuiet" || strings.Join(s.Why, "|") != "a_test.go:9: no keyring here" {
		t.Errorf("skip %+v", s)
	}
}

func TestSummary(t *testing.T) {
	skipped := &Report{Passed: 3, Skipped: []Skip{{Package: "hoist/a", Test: "TestQuiet/sub", Why: []string{"no keyring here"}}}}
	expected, err := ParseExpected("# comment\nhoist/a TestQuiet/* needs no keyring on Windows # why\n")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if !Summary(&out, skipped, expected) {
		t.Errorf("an expected skip failed the run:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "hoist/a TestQuiet/sub (expected)") || !strings.Contains(out.String(), "tests: 3 passed, 0 failed, 1 skipped") {
		t.Errorf("summary:\n%s", out.String())
	}
	out.Reset()
	if Summary(&out, skipped, nil) {
		t.Errorf("an unexpected skip passed the run:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "NOT EXPECTED") || !strings.Contains(out.String(), "no keyring here") {
		t.Errorf("summary:\n%s", out.String())
	}
	out.Reset()
	if Summary(&out, &Report{Failed: 1}, nil) || !strings.Contains(out.String(), "No test was skipped.") {
		t.Errorf("a failed run passed:\n%s", out.String())
	}
	if _, err := ParseExpected("hoist/a TestX\n"); err == nil {
		t.Error("a line without its reason was accepted")
	}
}
