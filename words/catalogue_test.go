package words

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hoist/engine/dest"
)

// entry is one entry of a catalogue file: a text, or its plural forms.
type entry map[string]string

func readCatalogue(t *testing.T, code string) map[string]entry {
	t.Helper()
	b, err := fs.ReadFile(catalogue, "catalogue/"+code+".json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s.json: %v", code, err)
	}
	out := make(map[string]entry, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = entry{"other": s}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			t.Fatalf("%s.json: %s: %v", code, k, err)
		}
		out[k] = forms
	}
	return out
}

func TestEveryKeyInEveryLanguage(t *testing.T) {
	en := readCatalogue(t, "en")
	keys := slices.Sorted(maps.Keys(en))
	for _, code := range Codes[1:] {
		cat := readCatalogue(t, code)
		for _, k := range keys {
			if _, ok := cat[k]; !ok {
				t.Errorf("%s.json lacks %q", code, k)
			}
		}
		for k := range cat {
			if _, ok := en[k]; !ok {
				t.Errorf("%s.json has %q, which en.json does not", code, k)
			}
		}
	}
}

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

// placeholders are the names a entry uses, over all its forms (Arabic's
// "one" form, "ملف واحد", needs no number).
func placeholders(m entry) []string {
	set := map[string]bool{}
	for _, text := range m {
		for _, sub := range placeholder.FindAllStringSubmatch(text, -1) {
			set[sub[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

func TestPlaceholdersIdentical(t *testing.T) {
	en := readCatalogue(t, "en")
	for _, code := range Codes[1:] {
		cat := readCatalogue(t, code)
		for k, m := range en {
			want, got := placeholders(m), placeholders(cat[k])
			if !slices.Equal(want, got) {
				t.Errorf("%s.json %q uses %v; en.json uses %v", code, k, got, want)
			}
		}
	}
}

// pluralForms are the forms CLDR gives each language for whole numbers.
var pluralForms = map[string][]string{
	"en": {"one", "other"},
	"fa": {"one", "other"},
	"he": {"one", "other", "two"},
	"ar": {"few", "many", "one", "other", "two", "zero"},
}

func TestPluralFormsComplete(t *testing.T) {
	en := readCatalogue(t, "en")
	for _, code := range Codes {
		cat := readCatalogue(t, code)
		for k, m := range cat {
			if len(en[k]) == 1 {
				if len(m) != 1 {
					t.Errorf("%s.json %q has plural forms; en.json has a single text", code, k)
				}
				continue
			}
			if got := slices.Sorted(maps.Keys(m)); !slices.Equal(got, pluralForms[code]) {
				t.Errorf("%s.json %q has forms %v, want %v", code, k, got, pluralForms[code])
			}
		}
	}
}

// TestNoKeyUnused finds every key as a string literal in Hoist's Go code
// (outside tests), so the catalogue holds no sentence nothing says.
func TestNoKeyUnused(t *testing.T) {
	used := map[string]bool{}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "bench" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					used[s] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for k := range readCatalogue(t, "en") {
		if !used[k] && !byRule(k, used) {
			t.Errorf("en.json %q is not used by any code", k)
		}
	}
}

// byRule reports whether key is one the words of the kinds of destination
// and of the facts are found by (see kinds.go): kind.<kind>.… for a kind or
// family that has it, fact.<code>[.<kind>[.<setting>]] for a code the code
// names.
func byRule(key string, literal map[string]bool) bool {
	kinds := map[string]bool{}
	for _, info := range dest.Kinds() {
		kinds[string(info.Kind)], kinds[info.Kind.Family()] = true, true
	}
	if rest, ok := strings.CutPrefix(key, "kind."); ok {
		for _, info := range dest.Kinds() {
			k := info.Kind
			for _, name := range []string{string(k), k.Family()} {
				if suffix, ok := strings.CutPrefix(rest, name+"."); ok && slices.Contains(append(KindKeys(k), "kind."+name+".where"), "kind."+name+"."+suffix) {
					return true
				}
			}
		}
		return false
	}
	if scope, ok := strings.CutPrefix(key, "look.what."); ok { // a permission's words, by its scope
		return literal["https://www.googleapis.com/auth/"+scope] || literal[scope]
	}
	if strings.HasPrefix(key, "list.") {
		for _, info := range dest.Kinds() {
			if slices.Contains(KindKeys(info.Kind), key) {
				return true
			}
			for _, f := range info.Fields {
				if f.List != nil && (key == "list."+f.List.Name+".signIn" || key == "list."+f.List.Name+".hint") {
					return true
				}
			}
		}
		return false
	}
	rest, ok := strings.CutPrefix(key, "fact.")
	if !ok {
		return false
	}
	seg := strings.Split(rest, ".")
	for i := len(seg); i > 0; i-- {
		if !literal[strings.Join(seg[:i], ".")] {
			continue
		}
		tail := seg[i:]
		return len(tail) == 0 || kinds[tail[0]] && len(tail) <= 2
	}
	return false
}

// TestEveryKindHasItsWords: each kind of destination finds every key it
// needs by the rule, in every language: its names, what it accepts, its
// id, its note, each setting's label and help and each choice's words.
func TestEveryKindHasItsWords(t *testing.T) {
	for _, code := range Codes {
		cat := readCatalogue(t, code)
		for _, info := range dest.Kinds() {
			for _, key := range KindKeys(info.Kind) {
				if _, ok := cat[key]; !ok {
					t.Errorf("%s.json lacks %q for the kind %s", code, key, info.Kind)
				}
			}
		}
	}
	// A kind that had no words would show its keys: none does.
	for _, info := range dest.Kinds() {
		if got := English().KindName(info.Kind); got == string(info.Kind) || got == "" {
			t.Errorf("%s is named %q", info.Kind, got)
		}
	}
}

func TestCatalogueLoads(t *testing.T) {
	if _, err := loadBundle(); err != nil {
		t.Fatal(err)
	}
	// Every text parses as a template and fills in without a gap.
	for _, code := range Codes {
		l := New(code)
		for k, m := range readCatalogue(t, code) {
			args := Args{}
			for _, p := range placeholders(m) {
				args[p] = "x"
			}
			for _, n := range []int{0, 1, 2, 3, 11, 100} {
				if _, ok := args["N"]; ok {
					args["N"] = n
				}
				got := l.Say(k, args)
				if got == k || strings.Contains(got, "<no value>") || got == "" {
					t.Errorf("%s: Say(%q, N=%d) = %q", code, k, n, got)
				}
			}
		}
	}
}

func TestMissingKeySaysKey(t *testing.T) {
	if got := English().Say("no.such.key", nil); got != "no.such.key" {
		t.Errorf("Say of a missing key = %q", got)
	}
}

// latinAllowed are the Latin words a Persian sentence may hold: names of
// products as Google writes them, and values a user types or a file holds
// (formats, examples, addresses).
var latinAllowed = map[string]bool{
	"Hoist": true, "Play": true, "Games": true, "Campaign": true, "Manager": true, "Google": true,
	"Cloud": true, "Console": true, "OAuth": true, "API": true, "JSON": true, "json": true,
	"Desktop": true, "app": true, "client_secret": true, "eml": true, "true": true, "false": true,
	"MiB": true, "MB": true, "v4": true, "image/*": true, "application/pdf": true, "name": true,
	"photo.png": true, "scope": true, "http": true, "https": true, "Drive": true, "YouTube": true,
	"image/png": true, "upload/": true, "HTTP/2": true, "HTTP/1.1": true, "HTTPS": true, "PEM": true,
	"Windows": true, "WinHTTP": true, "GNOME": true, "KDE": true, "HTTPS_PROXY": true, // where a proxy is set
	"Message-ID": true,                            // the header as the email file holds it
	"Outlook":    true, "msg": true, "mbox": true, // the mail program, and the email files offices keep
}

var (
	templateField = regexp.MustCompile(`{{[^}]*}}`)
	webAddress    = regexp.MustCompile(`https?://\S+`)
	latinWord     = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_./*\-]*`)
)

// TestPersianWithoutEnglish: Persian sentences use Persian words, keeping
// Latin letters for names and for what the user types or sees in files.
func TestPersianWithoutEnglish(t *testing.T) {
	for k, m := range readCatalogue(t, "fa") {
		for _, text := range m {
			text = webAddress.ReplaceAllString(templateField.ReplaceAllString(text, ""), "")
			for _, w := range latinWord.FindAllString(text, -1) {
				if !latinAllowed[strings.TrimRight(w, ".")] {
					t.Errorf("fa.json %q has the Latin word %q", k, w)
				}
			}
		}
	}
}
