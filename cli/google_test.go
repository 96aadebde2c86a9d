package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/words"
)

// Campaign Manager 360 goes to v5 by default; --api-version v4, which
// Google switched off, is refused before a byte is sent; a version Google
// refuses is told as Google tells it, with Google's words in the reason
// and in --json.
func TestSendCampaignManagerVersions(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	banner := l.png("banner.png")
	code, stdout, stderr := l.send("--to", "cm360", "--profile", "1", "--advertiser", "2", "--base-url", l.url, banner)
	if code != exitOK || !strings.Contains(stdout, "Added to Campaign Manager 360. Name: ") {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if objs := l.srv.Objects(); len(objs) != 1 || !strings.HasPrefix(objs[0].Path, "/upload/dfareporting/v5/") {
		t.Fatalf("objects %+v, want one through v5", objs)
	}

	// A version Google switched off is refused before a byte is sent, in the
	// words a saved destination moved off it is told in.
	code, _, stderr = l.send("--to", "cm360", "--profile", "1", "--advertiser", "3", "--api-version", "v4", "--base-url", l.url, banner)
	if code != exitUsage || !strings.Contains(stderr, "Google switched off Campaign Manager 360 API v4 (and older versions) on 26 February 2026") ||
		!strings.Contains(stderr, "use v5") || len(l.srv.Requests()) != 1 {
		t.Errorf("--api-version v4: exit %d, %d requests, stderr %q", code, len(l.srv.Requests()), stderr)
	}

	// A version Google switches off later, which Google refuses.
	l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden",
		Message: "3140 : Version v5 of the DCM/DFA Reporting And Trafficking API is no longer supported. Please migrate to a supported version of the API."}})
	code, stdout, _ = l.send("--to", "cm360", "--profile", "1", "--advertiser", "3", "--json", "--base-url", l.url, banner)
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	var last jobJSON
	for line := range strings.Lines(stdout) {
		if err := json.Unmarshal([]byte(line), &last); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
	}
	if last.Event != "result" || last.State != "failed" || !strings.Contains(last.Reason, "no longer supports API v5") ||
		!strings.HasPrefix(last.GoogleMessage, "3140 : Version v5 of the ") || last.FellBack {
		t.Errorf("result %+v", last)
	}
	if f := last.ReasonFact; f == nil || f.Code != fact.Retired || f.Arg("version") != "v5" || f.Arg("current") != dest.CM360Version ||
		f.Google != last.GoogleMessage || f.Status != http.StatusForbidden && f.Status != http.StatusNotFound && f.Status != http.StatusGone {
		t.Errorf("reason's fact %+v", last.ReasonFact)
	}
	if n := len(l.srv.Objects()); n != 1 {
		t.Errorf("%d objects, want still 1", n)
	}
}

// A 403 says what Google said, not only what Hoist guesses.
func TestSendShowsGoogleWords(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden",
		Message: "The domain administrators have disabled Campaign Manager 360 for this user."}})
	code, stdout, _ := l.send("--to", "cm360", "--profile", "1", "--advertiser", "2", "--base-url", l.url, l.png("banner.png"))
	want := "✗ banner.png: This account cannot upload to advertiser 2. The server said: “The domain administrators have disabled Campaign Manager 360 for this user.”"
	if code != exitFailed || !strings.Contains(stdout, want) {
		t.Errorf("exit %d; stdout lacks %q:\n%s", code, want, stdout)
	}
}

// Play Games' 404 is Google's removal of the method, not a wrong id.
func TestSendPlayGamesRemoved(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: http.StatusNotFound, Reason: "notFound", Message: "Method not found."}})
	code, stdout, _ := l.send("--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON", "--base-url", l.url, l.png("icon.png"))
	if code != exitFailed || !strings.Contains(stdout, "Google no longer accepts Play Games images through its API; set the icon in Play Console.") || strings.Contains(stdout, "could not find") {
		t.Errorf("exit %d:\n%s", code, stdout)
	}
}

// Custom URLs take PATCH, and a contentType in the metadata is the type sent.
func TestSendPatchWithMetadataType(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	file := l.file("data.txt", []byte("a,b\n1,2\n"))
	for _, method := range []string{"multipart", "resumable"} {
		code, stdout, stderr := l.send("--to", l.url+"/upload/things/v1/items/F1", "--http-method", "PATCH", "--no-auth",
			"--method", method, "--metadata", `{"name": "data.csv", "contentType": "text/csv"}`, file)
		if code != exitOK {
			t.Fatalf("%s: exit %d\n%s%s", method, code, stdout, stderr)
		}
	}
	for _, r := range l.srv.Requests() {
		if r.Method != http.MethodPatch && r.Stage != emulator.StageChunk {
			t.Errorf("request %s %s, want PATCH", r.Method, r.Stage)
		}
	}
	for _, o := range l.srv.Objects() {
		if o.ContentType != "text/csv" {
			t.Errorf("object sent as %q, want the metadata's text/csv", o.ContentType)
		}
	}
}

// Bad input gets a sentence and the right exit code.
func TestSendBadInput(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	empty := filepath.Join(l.dir, "empty folder")
	if err := os.Mkdir(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := l.send("--to", "sandbox", "--base-url", l.url, empty)
	if code != exitFailed || !strings.Contains(stderr, "no files found in "+empty) {
		t.Errorf("empty folder: exit %d, stderr %q", code, stderr)
	}
	for _, args := range [][]string{
		{"--to", "http://127.0.0.1:99999/upload/x", "--no-auth"},
		{"--to", "cm360", "--profile", "1", "--advertiser", "2", "--base-url", "http://127.0.0.1:0"},
		{"--to", "cm360", "--profile", "1", "--advertiser", "2", "--base-url", "http://127.0.0.1:port"},
	} {
		code, _, stderr := l.send(append(args, l.png("a.png"))...)
		if code != exitUsage || !strings.Contains(stderr, "address") && !strings.Contains(stderr, "port") {
			t.Errorf("%q: exit %d, stderr %q; want a usage error about the port", args, code, stderr)
		}
	}
	var out, errOut bytes.Buffer
	if code := Sandbox(context.Background(), []string{"--addr", "127.0.0.1:70000"}, &out, &errOut); code != exitUsage ||
		!strings.Contains(errOut.String(), "a port is a number from 0 to 65535") {
		t.Errorf("sandbox --addr: exit %d, %q", code, errOut.String())
	}
}

// A name cannot change the terminal's title or colours, nor break a line.
func TestSendNamesAreNeverRaw(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	evil := l.file("evil\x1b]0;owned\x07\x1b[31mred\nline.txt", []byte("x"))
	code, stdout, stderr := l.send("--to", "sandbox", "--base-url", l.url, evil)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07") || strings.Contains(stdout, "red\nline") {
		t.Errorf("raw control characters printed:\n%q", stdout)
	}
	if !strings.Contains(stdout, `evil\x1b]0;owned\x07\x1b[31mred\nline.txt`) {
		t.Errorf("the name is not shown escaped:\n%s", stdout)
	}
}

func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain.png":           "plain.png",
		"صورة.png":            "صورة.png",
		"a\tb\rc\nd":          `a\tb\rc\nd`,
		"\x1b[2J\u009b31m":    `\x1b[2J\x9b31m`,
		"bad\xffutf8\x7f.txt": `bad\xffutf8\x7f.txt`,
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}

// hoist send --to playgames says first what the window says where the kind
// is picked: Google removed the method.
func TestSendPlayGamesWarns(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	_, _, stderr := l.send("--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON", "--base-url", l.url, l.png("icon.png"))
	if want := words.English().KindNote(dest.PlayGames); want == "" || !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks the warning %q:\n%s", want, stderr)
	}
}
