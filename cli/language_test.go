package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/words"
)

// hoistIn runs the command line in a process of its own, in the locale named.
func hoistIn(t *testing.T, locale string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1", "LANGUAGE=", "LC_ALL=", "LC_MESSAGES=", "LANG="+locale, "TERM=dumb")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// locales are the command line's languages as a user's system names them.
var locales = []struct{ locale, code string }{
	{"C.UTF-8", "en"}, {"ar_EG.UTF-8", "ar"}, {"fa_IR.UTF-8", "fa"}, {"he_IL.UTF-8", "he"},
}

// TestSendSpeaksTheLanguage: `hoist send` reports in the language of the
// locale, with sizes in its digits and file names kept whole inside the
// sentence; a file a destination refuses is said in that language too.
func TestSendSpeaksTheLanguage(t *testing.T) {
	for _, loc := range locales {
		t.Run(loc.locale, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{})
			lang := words.New(loc.locale)
			files := []string{l.png("نامه مشتری.png"), l.png("b.png"), l.png("c.png")}
			var size int64
			for _, f := range files {
				fi, err := os.Stat(f)
				if err != nil {
					t.Fatal(err)
				}
				size += fi.Size()
			}
			args := append([]string{"send", "--journal", l.journal, "--to", l.url + dest.SandboxPath, "--no-auth"}, files...)
			code, stdout, stderr := hoistIn(t, loc.locale, args...)
			if code != exitOK {
				t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			want := lang.Say("cli.summary", words.Args{"Files": lang.Say("count.filesDone", words.Args{"Done": 3, "N": 3}), "Size": lang.Size(size)})
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, stdout)
			}
			if name := lang.Isolate("نامه مشتری.png") + ":"; !strings.Contains(stdout, name) {
				t.Errorf("stdout lacks the file's name as %q:\n%s", name, stdout)
			}
			switch loc.code {
			case "fa":
				if !strings.ContainsAny(want, "۱۲۳۴۵۶۷۸۹") || strings.ContainsAny(want, "0123456789") {
					t.Errorf("Persian summary %q is not in Persian digits", want)
				}
			case "ar":
				if !strings.ContainsAny(want, "١٢٣٤٥٦٧٨٩") {
					t.Errorf("Arabic summary %q is not in Arabic-Indic digits", want)
				}
			case "he":
				if !strings.Contains(want, "הועלו") || !strings.ContainsAny(want, "123456789") {
					t.Errorf("Hebrew summary %q is not Hebrew words with Latin digits", want)
				}
			case "en":
				if !strings.Contains(want, "3 of 3 files uploaded") {
					t.Errorf("English summary %q", want)
				}
			}

			_, stdout, _ = hoistIn(t, loc.locale, "queue", "--journal", l.journal)
			head := strings.Fields(lang.Say("cli.queue.head", nil))[0]
			listed := lang.Say("cli.queue.summary", words.Args{"Done": 3, "Files": lang.Count(3), "SizeDone": lang.Size(size), "Size": lang.Size(size)})
			if !strings.HasPrefix(stdout, head) || !strings.Contains(stdout, listed) || !strings.Contains(stdout, lang.Isolate("نامه مشتری.png")) {
				t.Errorf("hoist queue does not speak %s (want %q and %q):\n%s", loc.code, head, listed, stdout)
			}

			big := l.sized("icon.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), 20_000_000)
			code, stdout, _ = hoistIn(t, loc.locale, "send", "--journal", l.journal, "--to", "playgames",
				"--resource", "r1", "--image-type", "ACHIEVEMENT_ICON", "--base-url", l.url, big)
			if code != exitFailed {
				t.Errorf("exit %d, want %d", code, exitFailed)
			}
			refused := lang.Say("fact.refused.tooLarge.playgames", words.Args{
				"File": lang.Isolate("icon.png"), "Size": lang.Size(20_000_000), "Limit": lang.Size(15_000_000)})
			if loc.code == "en" {
				refused = "icon.png is 20 MB; Play Games images can be at most 15 MB."
			}
			if !strings.Contains(stdout, refused) {
				t.Errorf("stdout lacks the refusal %q:\n%s", refused, stdout)
			}
			if loc.code != "en" && strings.Contains(stdout, "Play Games images") {
				t.Errorf("the refusal is in English:\n%s", stdout)
			}
			// Another process reads the refusal from the list of uploads.
			if _, stdout, _ = hoistIn(t, loc.locale, "queue", "--journal", l.journal); !strings.Contains(stdout, refused) {
				t.Errorf("hoist queue lacks the refusal %q:\n%s", refused, stdout)
			}
		})
	}
}

// serverNames are the names the emulator makes up for what it receives.
var serverNames = regexp.MustCompile(`/games/images/[0-9a-f]+`)

// TestJSONWithoutLanguage: --json says the same in every language.
func TestJSONWithoutLanguage(t *testing.T) {
	var first []map[string]any
	for _, loc := range locales {
		l := newSendLab(t, emulator.Options{})
		ok := l.png("ok.png")
		text := l.file("notes.txt", []byte("not a picture\n"))
		_, stdout, _ := hoistIn(t, loc.locale, "send", "--journal", l.journal, "--json", "--to", "playgames",
			"--resource", "r1", "--image-type", "ACHIEVEMENT_ICON", "--base-url", l.url, "--no-auth", text, ok)
		var results []map[string]any
		stdout = serverNames.ReplaceAllString(strings.ReplaceAll(stdout, l.url, "http://sandbox"), "/games/images/ID")
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: %q is not JSON: %v", loc.locale, line, err)
			}
			if m["event"] != "result" {
				continue
			}
			// What differs from run to run: ids, paths, timing.
			for _, k := range []string{"id", "file", "bytesPerSecond", "secondsLeft"} {
				delete(m, k)
			}
			if r, ok := m["result"].(map[string]any); ok {
				delete(r, "response")
				delete(r, "id")
				delete(r, "url")
			}
			results = append(results, m)
		}
		if len(results) != 2 {
			t.Fatalf("%s: %d results in:\n%s", loc.locale, len(results), stdout)
		}
		if first == nil {
			first = results
			if !strings.Contains(stdout, "is not an image") {
				t.Errorf("English --json lacks its reason:\n%s", stdout)
			}
			continue
		}
		if !reflect.DeepEqual(results, first) {
			t.Errorf("%s: --json differs from English's:\n%v\n%v", loc.locale, results, first)
		}
	}
}

// TestArabicFileCounts: the closing line counts files in Arabic's forms.
func TestArabicFileCounts(t *testing.T) {
	ar := words.New("ar_EG.UTF-8")
	for n, want := range map[int]string{1: "من ملف واحد", 2: "من ملفين", 3: "من ٣ ملفات", 11: "من ١١ ملفًا"} {
		views := make([]engine.JobView, n)
		for i := range views {
			views[i] = engine.JobView{ID: engine.JobID(filepath.Join("j", string(rune('a'+i)))), Name: "x.png", State: engine.Done, Size: 10}
		}
		var out bytes.Buffer
		newHumanDisplay(&out, ar, false).final(views)
		if !strings.Contains(out.String(), want) {
			t.Errorf("%d files: %q lacks %q", n, out.String(), want)
		}
	}
}

// TestHelpInTheLanguage: the usage and `hoist send --help` in the locale's
// language, the commands and flags as they are typed.
func TestHelpInTheLanguage(t *testing.T) {
	for _, loc := range locales[1:] {
		lang := words.New(loc.locale)
		_, stdout, _ := hoistIn(t, loc.locale, "help")
		for _, want := range []string{lang.Say("cli.help.send", nil), "hoist send [flags] PATH...", lang.Say("cli.help.version", nil)} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: help lacks %q:\n%s", loc.locale, want, stdout)
			}
		}
		code, _, stderr := hoistIn(t, loc.locale, "send", "--help")
		if code != exitOK || !strings.Contains(stderr, lang.Say("cli.send.about", nil)) || !strings.Contains(stderr, "-chunk-size") {
			t.Errorf("%s: send --help: exit %d:\n%s", loc.locale, code, stderr)
		}
		code, _, stderr = hoistIn(t, loc.locale, "send", "--parallel", "0", "x.png")
		if want := "hoist send: " + lang.Say("cli.send.parallel", words.Args{"Flag": "--parallel"}); code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", loc.locale, code, stderr, exitUsage, want)
		}
	}
}

// TestHelpSpeaksTheLanguage: every command's flags are explained in the
// locale's language, a flag typed wrong is said in it, and the destinations
// command speaks it: no line of English help is left in Arabic, Persian or
// Hebrew.
func TestHelpSpeaksTheLanguage(t *testing.T) {
	commands := [][]string{{"send", "--help"}, {"sandbox", "--help"}, {"login", "--help"}, {"queue", "--help"}, {"destinations", "export", "--help"}}
	helpLines := func(out string) []string {
		var lines []string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "    \t") {
				lines = append(lines, strings.TrimSpace(line))
			}
		}
		return lines
	}
	english := map[string]bool{}
	for _, c := range commands {
		code, _, stderr := hoistIn(t, "C.UTF-8", c...)
		if code != exitOK {
			t.Fatalf("%v in English: exit %d\n%s", c, code, stderr)
		}
		for _, h := range helpLines(stderr) {
			english[h] = true
		}
	}
	if !english["uploads at once (default: 4)"] || !english["the upload list file (default: in Hoist's config folder)"] {
		t.Fatalf("the English help lacks its flags: %v", english)
	}
	for _, loc := range locales[1:] {
		t.Run(loc.locale, func(t *testing.T) {
			l := words.New(loc.locale)
			for _, c := range commands {
				code, _, stderr := hoistIn(t, loc.locale, c...)
				lines := helpLines(stderr)
				if code != exitOK || len(lines) == 0 {
					t.Fatalf("%v: exit %d\n%s", c, code, stderr)
				}
				for _, h := range lines {
					if english[h] {
						t.Errorf("%v: %q is English", c, h)
					}
				}
			}
			code, _, stderr := hoistIn(t, loc.locale, "send", "--bogus", "x")
			if want := l.Say("cli.flagErr.unknown", words.Args{"Flag": l.Isolate("--bogus")}); code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stderr, "provided but not defined") {
				t.Errorf("an unknown flag: exit %d, want %q in\n%s", code, want, stderr)
			}
			code, _, stderr = hoistIn(t, loc.locale, "send", "--parallel", "many", "x")
			if want := l.Say("cli.flagErr.badValue", words.Args{"Flag": l.Isolate("--parallel"), "Value": l.Isolate(`"many"`)}); code != exitUsage || !strings.Contains(stderr, want) {
				t.Errorf("a flag's wrong value: exit %d, want %q in\n%s", code, want, stderr)
			}
			code, _, stderr = hoistIn(t, loc.locale, "send", "--to", "nowhere", "--no-auth", "x.png")
			unknown := l.Fact(fact.Fact{Code: fact.UnknownDest, Args: map[string]string{"name": `"nowhere"`, "kinds": dest.KindNames()}})
			if code != exitUsage || !strings.Contains(stderr, unknown) {
				t.Errorf("an unknown destination: exit %d, want %q in\n%s", code, unknown, stderr)
			}
			bad := filepath.Join(t.TempDir(), "old"+dest.ShareExtension)
			if err := os.WriteFile(bad, []byte(`{"format":"hoist-destination","version":99}`), 0o600); err != nil {
				t.Fatal(err)
			}
			code, _, stderr = hoistIn(t, loc.locale, "destinations", "import", bad)
			newer := l.Fact(fact.Fact{Code: fact.SharedNewer, Count: 99})
			if code != exitFailed || !strings.Contains(stderr, strings.TrimSuffix(newer, ".")) {
				t.Errorf("a destination from a newer Hoist: exit %d, want %q in\n%s", code, newer, stderr)
			}
		})
	}
}
