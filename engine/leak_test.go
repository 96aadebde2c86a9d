package engine_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
	"hoist/internal/syncbuf"
)

// canary is a fake access token; it must never appear outside requests.
const canary = "ya29.CANARY-token-0123456789abcdef"

// bearer adds the canary token to every request, as the sign-in transport
// does, and takes requests for Google's host to the emulator.
type bearer struct {
	base http.RoundTripper
	emu  *url.URL
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+canary)
	r.URL.Scheme, r.URL.Host = b.emu.Scheme, b.emu.Host
	return b.base.RoundTrip(r)
}

// TestNoSecretLeaks runs uploads carrying a known token through retries,
// refusals, cut connections, bad answers, a sign-in failure and a panic in
// a log consumer, and checks that neither the token nor any session address
// appears in the logs or in anything shown to the user.
func TestNoSecretLeaks(t *testing.T) {
	var logs syncbuf.Buffer
	log := slog.New(auth.RedactingHandler(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	signInFails := false
	var mu sync.Mutex
	r, d := googleLab(t, emulator.Options{RequireAuth: func(tok string) bool { return tok == canary }},
		engine.Options{Logger: log, Backoff: noWait{}, Method: upload.Resumable, ChunkSize: upload.ChunkAlign},
		func(signedIn *http.Client) (*http.Client, error) {
			mu.Lock()
			defer mu.Unlock()
			if signInFails {
				return nil, errors.New("Your Google sign-in has expired or was withdrawn. Sign in again to continue.")
			}
			return signedIn, nil
		})
	emu, ts, q := r.emu, r.url, r.q
	faults := []emulator.Action{
		emulator.Answer{Status: 500},
		emulator.Answer{Status: 503, RetryAfter: "0"},
		emulator.CutBody{After: 1000},
		emulator.DropAnswer{},
		emulator.GarbageRange{Value: "bytes=oops"},
		emulator.Answer{Status: 502, HTML: true},
		emulator.Answer{Status: 400, Message: "Bad things in the request"},
		emulator.ForeignLocation{Host: "evil.example:1"},
	}
	for _, a := range faults {
		emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Action: a})
	}
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageStart}, Skip: 3, Action: emulator.ForeignLocation{Host: "evil.example:1"}})
	var ids []engine.JobID
	for i := range 5 {
		p, _ := r.file("leak"+string(rune('a'+i))+".bin", 3*upload.ChunkAlign+10)
		res := r.q.Add([]string{p}, d)
		if len(res.IDs) != 1 {
			t.Fatalf("add: %v", res.Problems)
		}
		ids = append(ids, res.IDs...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := q.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	signInFails = true
	mu.Unlock()
	p, _ := r.file("late.bin", 100)
	ids = append(ids, q.Add([]string{p}, d).IDs...)
	if err := q.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { recover() }()
		log.Error("a panic while logging", "header", "Bearer "+canary, "url", ts+"/upload/x?upload_id=SECRETID123")
		panic("Authorization: Bearer " + canary)
	}()

	var shown strings.Builder
	for _, v := range q.Jobs() {
		shown.WriteString(reasonOf(v) + "\n" + nextOf(v) + "\n")
		if v.Result != nil {
			shown.WriteString(summaryOf(v.Result) + "\n")
		}
	}
	var ids2 []string
	for _, r := range emu.Requests() {
		if r.Session != "" {
			ids2 = append(ids2, r.Session)
		}
	}
	uploadID := regexp.MustCompile(`upload_id=[^&\s"]+`)
	for what, text := range map[string]string{"the logs": logs.String(), "the rows": shown.String()} {
		if strings.Contains(text, canary) {
			t.Errorf("%s contain the access token:\n%s", what, text)
		}
		for _, m := range uploadID.FindAllString(text, -1) {
			if !strings.Contains(m, "REDACTED") && !strings.Contains(m, "redacted") {
				t.Errorf("%s contain a session address (%s):\n%s", what, m, text)
			}
		}
		if strings.Contains(text, "SECRETID123") {
			t.Errorf("%s contain an upload id", what)
		}
	}
	if v, _ := q.Job(ids[len(ids)-1]); v.State != engine.Attention || !v.NeedsSignIn || !isFact(v.Fact, fact.SignInToSend) {
		t.Errorf("a sign-in failure: %s %q, want attention asking to sign in", v.State, reasonOf(v))
	}
	for _, v := range q.Jobs() {
		t.Logf("%s: %s %q", v.Name, v.State, reasonOf(v))
	}
	if !strings.Contains(logs.String(), "upload stopped") {
		t.Errorf("the logs heard nothing; the test proves nothing:\n%s", logs.String())
	}
}

// TestLockedKeychainAsksToUnlock: a locked keychain stops uploads with a
// request to unlock it, not to sign in again, and Resume carries on once
// it is unlocked.
func TestLockedKeychainAsksToUnlock(t *testing.T) {
	var locked atomic.Bool
	locked.Store(true)
	r, d := googleLab(t, emulator.Options{}, engine.Options{Backoff: noWait{}}, func(signedIn *http.Client) (*http.Client, error) {
		if locked.Load() {
			return nil, fmt.Errorf("reading the sign-in of ada@example.com: %w", auth.ErrKeychainLocked)
		}
		return signedIn, nil
	})
	q := r.q
	p, _ := r.file("report.bin", 1000)
	id := q.Add([]string{p}, d).IDs[0]
	v := r.state(id, engine.Attention)
	if !v.Locked || !strings.HasSuffix(reasonOf(v), auth.ErrKeychainLocked.Error()) || nextOf(v) != "Unlock the keychain, then press Resume." {
		t.Errorf("locked: %+v; want a request to unlock the keychain", v)
	}
	locked.Store(false)
	if err := q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	if v := r.state(id, engine.Done); v.Locked {
		t.Error("a finished upload still says the keychain is locked")
	}
}

// googleLab serves an emulator that stands for Google's API host, and opens
// a queue on a new journal with opts. Its clients come from client, which is
// handed one that reaches the emulator with the canary token. d is a Google
// upload URL, so uploads to it ask for a signed-in client.
func googleLab(t *testing.T, eo emulator.Options, opts engine.Options, client func(signedIn *http.Client) (*http.Client, error)) (*rig, dest.Destination) {
	t.Helper()
	const google = "https://www.googleapis.com"
	eo.BaseURL = google
	emu, err := emulator.New(eo)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	t.Cleanup(func() { emu.Close(); ts.Close() })
	emuURL, _ := url.Parse(ts.URL)
	dir := t.TempDir()
	j, err := journal.Open(filepath.Join(dir, "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	opts.Journal = j
	opts.Accounts = labAccounts(func() (*http.Client, error) {
		return client(&http.Client{Transport: bearer{engine.DefaultTransport(), emuURL}})
	})
	q, err := engine.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close(context.Background()) })
	d := dest.Destination{Name: "Test", Kind: dest.Custom, Params: map[string]string{"url": google + dest.SandboxPath, "scope": "https://www.googleapis.com/auth/devstorage.read_write"}}
	if !d.NeedsAuth() {
		t.Fatal("the destination does not need sign-in; a test would prove nothing")
	}
	return &rig{t: t, emu: emu, url: ts.URL, dir: dir, q: q, j: j}, d
}

// labAccounts hands the queue the lab's client, and reads failures as auth
// words them, as the window and the command line wire it.
type labAccounts func() (*http.Client, error)

func (l labAccounts) Client(context.Context, string, []string) (*http.Client, error) { return l() }
func (labAccounts) NeedsSignIn(err error) bool                                       { return errors.Is(err, auth.ErrSignInAgain) }
func (labAccounts) KeychainLocked(err error) bool                                    { return errors.Is(err, auth.ErrKeychainLocked) }
