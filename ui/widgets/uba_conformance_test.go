package widgets

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/unicode/bidi"
)

// Unicode's conformance files for the bidirectional algorithm, as Debian's
// unicode-data installs them (make deps).
const (
	bidiCharacterTest = "/usr/share/unicode/BidiCharacterTest.txt"
	bidiClassTest     = "/usr/share/unicode/BidiTest.txt"
)

// conformance is what TestBidiConformance counted, said once the package's
// tests have run (a passing test's own words are not shown by make test).
var conformance struct {
	sync.Mutex
	said                   string
	charPass, charAll      int
	classPass, classAll    int
	charFailed, classFaild []string // the first few cases that failed
}

func TestMain(m *testing.M) {
	code := m.Run()
	if conformance.said != "" {
		fmt.Println(conformance.said)
	}
	os.Exit(code)
}

// TestBidiConformance runs the levels and the visual order Hoist computes
// against every case of Unicode's two conformance files, explicit
// embeddings, overrides, isolates and brackets included, and fails below
// 100 %. A missing file fails: the run would prove nothing.
func TestBidiConformance(t *testing.T) {
	for _, f := range []string{bidiCharacterTest, bidiClassTest} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("Unicode's bidi conformance file is missing (install Debian's unicode-data, make deps): %v", err)
		}
	}
	var wg sync.WaitGroup
	var charErr, classErr error
	wg.Go(func() { charErr = runCharacterTests(bidiCharacterTest) })
	wg.Go(func() { classErr = runClassTests(bidiClassTest) })
	wg.Wait()
	if charErr != nil || classErr != nil {
		t.Fatal(charErr, classErr)
	}
	c := &conformance
	c.said = fmt.Sprintf("bidi conformance: %d of %d character cases, %d of %d class cases", c.charPass, c.charAll, c.classPass, c.classAll)
	t.Log(c.said)
	if c.charAll < 90000 || c.classAll < 700000 {
		t.Errorf("the files hold fewer cases than Unicode 15's: %s", c.said)
	}
	if c.charPass != c.charAll || c.classPass != c.classAll {
		t.Errorf("%s; first failures:\n%s\n%s", c.said, strings.Join(c.charFailed, "\n"), strings.Join(c.classFaild, "\n"))
	}
}

// caseResult compares a resolved paragraph with the levels ("x" for a
// removed character) and the visual order a file gives.
func caseResult(t ubaText, dir int, wantLevels []string, wantOrder []int) (res resolved, ok bool, got string) {
	res = t.resolve(dir)
	res.levels = t.line(res, 0, len(t.classes))
	var levels []string
	for i, l := range res.levels {
		if res.removed[i] {
			levels = append(levels, "x")
		} else {
			levels = append(levels, strconv.Itoa(int(l)))
		}
	}
	order := slices.DeleteFunc(visualOrder(res.levels), func(i int) bool { return res.removed[i] })
	ok = slices.Equal(levels, wantLevels) && slices.Equal(order, wantOrder)
	return res, ok, fmt.Sprintf("levels %v order %v", levels, order)
}

func ints(s string) ([]int, error) {
	var out []int
	for f := range strings.FieldsSeq(s) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

func runCharacterTests(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	c := &conformance
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Split(text, ";")
		if len(fields) != 5 {
			return fmt.Errorf("%s:%d: %d fields", path, line, len(fields))
		}
		var runes []rune
		for h := range strings.FieldsSeq(fields[0]) {
			r, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				return fmt.Errorf("%s:%d: %v", path, line, err)
			}
			runes = append(runes, rune(r))
		}
		dir, err1 := strconv.Atoi(fields[1])
		para, err2 := strconv.Atoi(fields[2])
		order, err3 := ints(fields[4])
		if err1 != nil || err2 != nil || err3 != nil {
			return fmt.Errorf("%s:%d: unreadable", path, line)
		}
		res, ok, got := caseResult(ubaText{classes: classesOf(runes), runes: runes}, dir, strings.Fields(fields[3]), order)
		ok = ok && int(res.para) == para
		c.Lock()
		c.charAll++
		if ok {
			c.charPass++
		} else if len(c.charFailed) < 5 {
			c.charFailed = append(c.charFailed, fmt.Sprintf("%s:%d: %s: got paragraph %d, %s", path, line, text, res.para, got))
		}
		c.Unlock()
	}
	return sc.Err()
}

// classNames are the classes as BidiTest.txt names them.
var classNames = map[string]bidi.Class{
	"L": bidi.L, "R": bidi.R, "AL": bidi.AL, "EN": bidi.EN, "ES": bidi.ES, "ET": bidi.ET,
	"AN": bidi.AN, "CS": bidi.CS, "NSM": bidi.NSM, "BN": bidi.BN, "B": bidi.B, "S": bidi.S,
	"WS": bidi.WS, "ON": bidi.ON, "LRE": bidi.LRE, "LRO": bidi.LRO, "RLE": bidi.RLE,
	"RLO": bidi.RLO, "PDF": bidi.PDF, "LRI": bidi.LRI, "RLI": bidi.RLI, "FSI": bidi.FSI,
	"PDI": bidi.PDI,
}

func runClassTests(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	c := &conformance
	var wantLevels []string
	var wantOrder []int
	pass, all := 0, 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		switch {
		case text == "" || text[0] == '#':
			continue
		case strings.HasPrefix(text, "@Levels:"):
			wantLevels = strings.Fields(strings.TrimPrefix(text, "@Levels:"))
			continue
		case strings.HasPrefix(text, "@Reorder:"):
			if wantOrder, err = ints(strings.TrimPrefix(text, "@Reorder:")); err != nil {
				return fmt.Errorf("%s:%d: %v", path, line, err)
			}
			continue
		case text[0] == '@':
			continue
		}
		input, bits, found := strings.Cut(text, ";")
		if !found {
			return fmt.Errorf("%s:%d: no paragraph directions", path, line)
		}
		var classes []bidi.Class
		for name := range strings.FieldsSeq(input) {
			cl, ok := classNames[name]
			if !ok {
				return fmt.Errorf("%s:%d: unknown class %q", path, line, name)
			}
			classes = append(classes, cl)
		}
		set, err := strconv.ParseUint(strings.TrimSpace(bits), 16, 8)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		for _, d := range []struct {
			bit uint64
			dir int
		}{{1, paraAuto}, {2, paraLTR}, {4, paraRTL}} {
			if set&d.bit == 0 {
				continue
			}
			all++
			_, ok, got := caseResult(ubaText{classes: classes}, d.dir, wantLevels, wantOrder)
			if ok {
				pass++
			} else if len(c.classFaild) < 5 {
				c.Lock()
				c.classFaild = append(c.classFaild, fmt.Sprintf("%s:%d: %s (direction %d): want levels %v order %v, got %s", path, line, text, d.dir, wantLevels, wantOrder, got))
				c.Unlock()
			}
		}
	}
	c.Lock()
	c.classPass, c.classAll = pass, all
	c.Unlock()
	return sc.Err()
}
