package engine_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

var (
	templateField = regexp.MustCompile(`{{[^}]*}}`)
	printfVerb    = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z]`)
)

// canonical is a text with its placeholders (a catalogue's {{.File}}, a
// format's %s) made alike and its ends trimmed, so that a sentence written
// in the engine and the same sentence in the catalogue compare equal.
func canonical(s string) string {
	s = templateField.ReplaceAllString(s, "\x00")
	s = printfVerb.ReplaceAllString(s, "\x00")
	return strings.TrimSpace(s)
}

// sentenceLike reports whether a catalogue text is words for people (two
// words or more), not a value such as "POST", ", " or "%s".
func sentenceLike(s string) bool {
	words := strings.FieldsFunc(templateField.ReplaceAllString(s, " "), func(r rune) bool { return !unicode.IsLetter(r) })
	return len(words) >= 2
}

// TestEngineWritesNoSentences: the engine returns facts and package words
// makes every sentence, so no text of the English catalogue is written in
// the engine's code (tests aside): a sentence found there is one that
// shows in English to people who read Arabic, Persian or Hebrew.
func TestEngineWritesNoSentences(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "words", "catalogue", "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cat map[string]json.RawMessage
	if err := json.Unmarshal(raw, &cat); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{} // canonical text → its key
	for key, v := range cat {
		var one string
		var forms map[string]string
		if json.Unmarshal(v, &one) == nil {
			forms = map[string]string{"other": one}
		} else if err := json.Unmarshal(v, &forms); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		for _, text := range forms {
			if sentenceLike(text) {
				texts[canonical(text)] = key
			}
		}
	}
	if len(texts) < 300 {
		t.Fatalf("only %d sentences read from the catalogue", len(texts))
	}
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if key, ok := texts[canonical(s)]; ok {
				t.Errorf("%s writes %q, the catalogue's %s: return a fact and let words say it", fset.Position(lit.Pos()), s, key)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
