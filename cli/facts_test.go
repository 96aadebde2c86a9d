package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/words"
)

var (
	// isolated are the runs an Arabic sentence keeps apart: file names,
	// ids, commands, the server's own words.
	isolated = regexp.MustCompile("\u2068[^\u2069]*\u2069")
	latin    = regexp.MustCompile(`[A-Za-z]+`)
	// products are the names Google gives its products, written as Google does.
	products = map[string]bool{"Hoist": true, "Google": true, "Campaign": true, "Manager": true, "API": true}
)

// arabicOnly fails when out holds Latin words outside what an Arabic
// sentence keeps apart.
func arabicOnly(t *testing.T, out string) {
	t.Helper()
	var left []string
	for _, w := range latin.FindAllString(isolated.ReplaceAllString(out, ""), -1) {
		if !products[w] {
			left = append(left, w)
		}
	}
	if len(left) > 0 {
		t.Errorf("Latin words %q outside names and quotes in:\n%s", left, out)
	}
}

// TestSendReportsInArabic: `hoist send --to sandbox *.png` in an Arabic
// locale says every result, reason and next step in Arabic; the only Latin
// letters are file names, ids, commands and the server's own words, which
// are quoted as they are.
func TestSendReportsInArabic(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	ar := words.New("ar_EG.UTF-8")
	files := []string{l.png("a.png"), l.png("b.png"), l.png("c.png")}
	args := append([]string{"send", "--journal", l.journal, "--to", "sandbox", "--base-url", l.url}, files...)
	code, stdout, stderr := hoistIn(t, "ar_EG.UTF-8", args...)
	if code != exitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if want := ar.Say("fact.result.uploaded", words.Args{"Where": ar.Say("kind.sandbox.where", nil)}); strings.Count(stdout, want) < 3 {
		t.Errorf("stdout does not say %q for each file:\n%s", want, stdout)
	}
	arabicOnly(t, stdout)

	// The server refuses: its words are quoted as they are, the rest is Arabic.
	const google = "The caller does not have permission"
	l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: 403, Message: google, Reason: "forbidden"}})
	code, stdout, stderr = hoistIn(t, "ar_EG.UTF-8", "send", "--journal", l.journal, "--to", "sandbox", "--base-url", l.url, "--again", l.png("d.png"))
	if code != exitFailed {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{ar.Say("fact.google.forbidden.sandbox", nil), ar.Isolate(google)} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	arabicOnly(t, stdout)

	// Another process reads the facts back from the list of uploads.
	_, stdout, _ = hoistIn(t, "ar_EG.UTF-8", "queue", "--journal", l.journal)
	if want := ar.Say("fact.google.forbidden.sandbox", nil); !strings.Contains(stdout, want) {
		t.Errorf("hoist queue lacks %q:\n%s", want, stdout)
	}
	arabicOnly(t, stdout)
}

// TestRetiredVersionInArabic: Campaign Manager 360 refusing an API version is said
// in Arabic, naming the version to set, with Google's own message (its
// code 3140 among it) quoted as Google wrote it.
func TestRetiredVersionInArabic(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	ar := words.New("ar_EG.UTF-8")
	l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: 403, Reason: "forbidden",
		Message: "3140 : Version v5 of the DCM/DFA Reporting And Trafficking API is no longer supported. Please migrate to a supported version of the API."}})
	code, stdout, stderr := hoistIn(t, "ar_EG.UTF-8", "send", "--journal", l.journal, "--to", "cm360", "--profile", "1",
		"--advertiser", "3", "--base-url", l.url, "--no-auth", l.png("banner.png"))
	if code != exitFailed {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want := ar.Fact(fact.Fact{Code: fact.Retired, Dest: "cm360", Args: map[string]string{"version": "v5", "current": dest.CM360Version}})
	if !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if !strings.Contains(stdout, "\u20683140 : Version v5 of the ") {
		t.Errorf("stdout lacks Google's own words, as they are:\n%s", stdout)
	}
	arabicOnly(t, stdout)
}

// TestOlderListInArabic: a list of uploads an older Hoist wrote, holding
// English sentences and no facts, still opens; hoist queue shows those
// sentences as they are, the rest in Arabic.
func TestOlderListInArabic(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	j, err := journal.Open(l.journal, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := json.Marshal(dest.Destination{Name: "Sandbox", Kind: dest.Sandbox})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err = j.PutAll(
		journal.Record{ID: "a", Order: 1, Path: l.png("a.png"), Name: "a.png", Size: 88, Destination: d,
			State: "failed", LastError: "The connection dropped.", Created: now},
		journal.Record{ID: "b", Order: 2, Path: l.png("b.png"), Name: "b.png", Size: 88, Destination: d,
			State: "done", ResultSummary: "Uploaded to the sandbox.", Committed: 88, Created: now, Finished: now},
	)
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := hoistIn(t, "ar_EG.UTF-8", "queue", "--journal", l.journal)
	if code != exitOK {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	ar := words.New("ar_EG.UTF-8")
	for _, want := range []string{"The connection dropped.", "Uploaded to the sandbox.", ar.State("failed")} {
		if !strings.Contains(stdout, want) {
			t.Errorf("hoist queue lacks %q:\n%s", want, stdout)
		}
	}
}

// TestFolderProblemsInArabic: what a folder leaves out and a path that is
// not there are said in Arabic too.
func TestFolderProblemsInArabic(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	ar := words.New("ar_EG.UTF-8")
	l.png("shown.png")
	l.file(".hidden.png", []byte("x"))
	missing := filepath.Join(l.dir, "gone.png")
	code, stdout, stderr := hoistIn(t, "ar_EG.UTF-8", "send", "--journal", l.journal, "--to", "sandbox", "--base-url", l.url, l.dir, missing)
	if code != exitFailed {
		t.Fatalf("exit %d; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	skipped := ar.Say("cli.send.skipped", words.Args{"File": ar.Isolate(filepath.Join(l.dir, ".hidden.png")), "Why": ar.Say("fact.skipped.hiddenFile", nil)})
	if !strings.Contains(stderr, skipped) {
		t.Errorf("stderr lacks %q:\n%s", skipped, stderr)
	}
	if gone := ar.Fact(fact.Fact{Code: fact.FileMissing, File: "gone.png"}); !strings.Contains(stdout, gone) {
		t.Errorf("stdout lacks %q:\n%s", gone, stdout)
	}
	arabicOnly(t, stdout)
	arabicOnly(t, stderr)
}
