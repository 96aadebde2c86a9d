package engine_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
	"hoist/words"
)

// emailWithID is an email file Gmail can take, with its own Message-ID.
func emailWithID(t *testing.T, dir, name, msgid string) string {
	t.Helper()
	text := "From: Layla Haddad <layla@example.com>\r\nTo: Omar <omar@example.org>\r\n" +
		"Subject: Quarterly report\r\nDate: Tue, 03 Mar 2026 09:15:00 +0200\r\n" +
		"Message-ID: <" + msgid + ">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n" +
		strings.Repeat("The report is attached to the shared drive, as agreed.\r\n", 40)
	return writeFile(t, dir, name, []byte(text))
}

// uploads counts the requests that carried a one-request upload, once the
// server has noted every request it took (a dropped answer is noted after
// the connection closes).
func uploads(emu *emulator.Server) int {
	count := func() (n, all int) {
		reqs := emu.Requests()
		for _, r := range reqs {
			if r.Stage == emulator.StageUpload {
				n++
			}
		}
		return n, len(reqs)
	}
	n, all := count()
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		m, a := count()
		if a == all && m > 0 {
			return m
		}
		n, all = m, a
	}
	return n
}

// lostCase is a destination whose one-request uploads can be looked for.
type lostCase struct {
	name string
	dest func(base string) dest.Destination
	file func(t *testing.T, dir string) string
}

func lostCases() []lostCase {
	return []lostCase{
		{"drive", func(base string) dest.Destination {
			return dest.Destination{Kind: dest.Drive, BaseURL: base}
		}, func(t *testing.T, dir string) string {
			return writeFile(t, dir, "budget.pdf", []byte(strings.Repeat("%PDF-1.4 budget\n", 300)))
		}},
		{"gmail", func(base string) dest.Destination {
			return dest.Destination{Kind: dest.GmailInsert, BaseURL: base, Params: map[string]string{"labels": "INBOX"}}
		}, func(t *testing.T, dir string) string {
			return emailWithID(t, dir, "report.eml", "CAF-7781@mail.example.com")
		}},
		{"sandbox", func(base string) dest.Destination {
			return dest.Destination{Kind: dest.Sandbox, BaseURL: base}
		}, func(t *testing.T, dir string) string {
			return writeFile(t, dir, "photo.jpg", []byte(strings.Repeat("jpeg", 900)))
		}},
		{"cloud storage", func(base string) dest.Destination {
			return dest.Destination{Name: "Banners", Kind: dest.Custom, Params: map[string]string{"url": base + "/upload/storage/v1/b/banners/o?name=spring.png"}}
		}, func(t *testing.T, dir string) string { return pngFile(t, dir, "spring.png", 5000) }},
		{"cloud storage, named", func(base string) dest.Destination {
			return dest.Destination{Kind: dest.Storage, BaseURL: base, Params: map[string]string{"bucket": "northwind-banners", "folder": "spring"}}
		}, func(t *testing.T, dir string) string { return pngFile(t, dir, "spring.png", 5000) }},
	}
}

// A one-request upload whose answer was lost is looked for at its
// destination and found there: done, with the destination's id, and the
// file sent once.
func TestLostAnswerIsFound(t *testing.T) {
	for _, tc := range lostCases() {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{})
			r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
			id := r.q.Add([]string{tc.file(t, r.dir)}, tc.dest(r.url)).IDs[0]
			v := r.state(id, engine.Done)
			if objs := r.emu.Objects(); len(objs) != 1 {
				t.Fatalf("%d objects, want exactly 1", len(objs))
			}
			if v.Result == nil || v.Result.ID == "" {
				t.Fatalf("result %+v: the destination's id is missing", v.Result)
			}
			if n := uploads(r.emu); n > 2 || (!strings.HasPrefix(tc.name, "cloud storage") && n != 1) {
				t.Errorf("the file went out %d times", n)
			}
		})
	}
}

// Hoist quits (or is killed) while it waits for a one-request upload's
// answer; the upload arrived. Resumed, it is looked for, never sent blindly:
// exactly one object.
func TestQuitWhileWaitingForTheAnswer(t *testing.T) {
	for _, tc := range lostCases() {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{})
			hold := make(chan struct{})
			r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{Hold: hold}})
			id := r.q.Add([]string{tc.file(t, r.dir)}, tc.dest(r.url)).IDs[0]
			deadline := time.Now().Add(20 * time.Second)
			for r.emu.Received() == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the upload never arrived")
				}
				time.Sleep(5 * time.Millisecond)
			}
			r.close() // the answer is still held
			close(hold)

			rec := journalRecord(t, r.journal, string(id))
			if rec.SentAt.IsZero() {
				t.Fatalf("the list does not say the file went out: %+v", rec)
			}
			r.open()
			if err := r.q.Do(id, engine.Resume); err != nil && !errors.Is(err, engine.ErrNotNow) {
				t.Fatal(err)
			}
			v := r.state(id, engine.Done)
			if objs := r.emu.Objects(); len(objs) != 1 {
				t.Fatalf("%d objects after the resume, want exactly 1", len(objs))
			}
			if v.Result == nil || v.Result.ID == "" {
				t.Errorf("result %+v", v.Result)
			}
		})
	}
}

// journalRecord reads one job's record from a closed journal.
func journalRecord(t *testing.T, path, id string) journal.Record {
	t.Helper()
	j, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	rec, err := j.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A lost answer to Gmail for an email without a Message-ID: Gmail could be
// asked, but the email carries nothing it can be found by, and the row says
// so rather than that Gmail offers no way; it is not sent again on its own.
func TestLostAnswerOfAnEmailWithoutMessageID(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
	text := "From: Layla Haddad <layla@example.com>\r\nTo: Omar <omar@example.org>\r\n" +
		"Subject: Minutes\r\nDate: Tue, 03 Mar 2026 09:15:00 +0200\r\n\r\n" + strings.Repeat("Minutes of the meeting.\r\n", 40)
	p := writeFile(t, r.dir, "minutes.eml", []byte(text))
	d := dest.Destination{Kind: dest.GmailInsert, BaseURL: r.url, Params: map[string]string{"labels": "INBOX"}}
	id := r.q.Add([]string{p}, d).IDs[0]
	v := r.state(id, engine.Attention)
	if !v.InDoubt || !isFact(v.Fact, fact.LostUnmarked) || !isFact(v.NextFact, fact.LookFor) {
		t.Fatalf("in doubt %v, reason %+v, next %+v", v.InDoubt, v.Fact, v.NextFact)
	}
	said := words.English().Fact(*v.Fact)
	if !strings.Contains(said, "has no Message-ID") || strings.Contains(said, "offers no way") {
		t.Errorf("reason %q: it must say the email has no Message-ID, not that Gmail offers no way", said)
	}
	if n := uploads(r.emu); n != 1 {
		t.Fatalf("sent %d times", n)
	}
	// Hoist starts again: the row says the same.
	r.close()
	r.open()
	if v, _ := r.q.Job(id); !isFact(v.Fact, fact.LostUnmarked) || !v.InDoubt || v.Allows(engine.Resume) {
		t.Errorf("reopened: reason %+v, in doubt %v", v.Fact, v.InDoubt)
	}
}

// A lost answer to a destination that cannot be asked (Campaign Manager
// 360) is not sent again on its own: the row says when it went out and what
// to look for, and only Restart sends it.
func TestLostAnswerWithNothingToAsk(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
	d := dest.Destination{Kind: dest.CM360, BaseURL: r.url, Params: map[string]string{"profileId": "4180912", "advertiserId": "64032117"}}
	p := pngFile(t, r.dir, "Spring sale (v2).png", 0)
	id := r.q.Add([]string{p}, d).IDs[0]
	v := r.state(id, engine.Attention)
	if !v.InDoubt || !slices.Equal(v.Actions, []engine.Action{engine.Restart, engine.Cancel, engine.Remove}) {
		t.Fatalf("in doubt %v, actions %v", v.InDoubt, v.Actions)
	}
	if !isFact(v.Fact, fact.LostLook) || v.Fact.Arg("at") == "" || !isFact(v.NextFact, fact.LookFor) || v.NextFact.Arg("item") != "Spring sale v2.png" {
		t.Fatalf("reason %+v, next %+v", v.Fact, v.NextFact)
	}
	en := words.English()
	for _, want := range []string{"Campaign Manager 360", "offers no way"} {
		if !strings.Contains(en.Fact(*v.Fact), want) {
			t.Errorf("reason %q lacks %q", en.Fact(*v.Fact), want)
		}
	}
	if !strings.Contains(en.Fact(*v.NextFact), "Spring sale v2.png") {
		t.Errorf("next %q does not say what to look for", en.Fact(*v.NextFact))
	}
	if n := uploads(r.emu); n != 1 {
		t.Fatalf("sent %d times", n)
	}
	// Hoist starts again: the row is as it was.
	r.close()
	r.open()
	if v, _ := r.q.Job(id); !v.InDoubt || !v.Allows(engine.Restart) || v.Allows(engine.Resume) {
		t.Fatalf("reopened: %+v", v)
	}
	if err := r.q.Do(id, engine.Restart); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	if n := len(r.emu.Objects()); n != 2 {
		t.Errorf("%d objects after Restart; the user asked for a second copy", n)
	}
}

// A success answer that names nothing ({}) is not done: Drive's is looked
// for and found; Campaign Manager 360's cannot be, and the row says so.
func TestAnswerNamingNothing(t *testing.T) {
	t.Run("drive", func(t *testing.T) {
		r := newRig(t, emulator.Options{}, engine.Options{})
		r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.BadSuccess{Body: emulator.SuccessNothing}})
		id := r.q.Add([]string{writeFile(t, r.dir, "notes.txt", []byte("minutes of the meeting"))}, dest.Destination{Kind: dest.Drive, BaseURL: r.url}).IDs[0]
		v := r.state(id, engine.Done)
		if v.Result == nil || v.Result.ID == "" || v.Result.ID != r.emu.Objects()[0].ID {
			t.Fatalf("result %+v", v.Result)
		}
	})
	for _, body := range []emulator.Success{emulator.SuccessNothing, emulator.SuccessEmpty} {
		t.Run("cm360 "+string(body), func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{})
			r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.BadSuccess{Body: body}})
			d := dest.Destination{Kind: dest.CM360, BaseURL: r.url, Params: map[string]string{"profileId": "4180912", "advertiserId": "64032117"}}
			id := r.q.Add([]string{pngFile(t, r.dir, "banner.png", 0)}, d).IDs[0]
			v := r.state(id, engine.Attention)
			if !isFact(v.Fact, fact.NoID) || !v.InDoubt || v.Allows(engine.Resume) {
				t.Fatalf("reason %q (%+v), actions %v", reasonOf(v), v.Fact, v.Actions)
			}
		})
	}
}

// A server that said "complete" with part of the file holds a copy that is
// not the file: the row names it, Resume only asks the session again, and
// nothing makes a second copy but Restart.
func TestEarlyCompleteIsNeverCopiedOnItsOwn(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{Method: upload.Resumable, ChunkSize: 256 << 10})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 1, Action: emulator.FinishEarly{}})
	p, _ := r.file("archive.bin", 3<<20)
	id := r.add(p)[0]
	v := r.state(id, engine.Attention)
	objs := r.emu.Objects()
	if len(objs) != 1 || !isFact(v.Fact, fact.Incomplete) || v.Fact.Arg("id") != objs[0].ID {
		t.Fatalf("objects %d, reason %+v", len(objs), v.Fact)
	}
	if !slices.Equal(v.Actions, []engine.Action{engine.Resume, engine.Restart, engine.Cancel, engine.Remove}) || !isFact(v.NextFact, fact.WrongCopy) {
		t.Fatalf("actions %v, next %+v", v.Actions, v.NextFact)
	}
	r.close()
	r.open()
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	v = r.state(id, engine.Attention)
	if n := len(r.emu.Objects()); n != 1 || !isFact(v.Fact, fact.Incomplete) {
		t.Fatalf("after Resume: %d objects, reason %+v", n, v.Fact)
	}
	if err := r.q.Do(id, engine.Restart); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
}

// scopedAccounts signs in with the scopes granted so far: a client whose
// token names them, or auth's "sign in again" for a scope not granted.
type scopedAccounts struct {
	mu      sync.Mutex
	granted []string
	emu     *url.URL
}

func (a *scopedAccounts) grant(s ...string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.granted = append(a.granted, s...)
}

func (a *scopedAccounts) Client(_ context.Context, account string, scopes []string) (*http.Client, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var missing []string
	for _, s := range scopes {
		if !slices.Contains(a.granted, s) {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		return nil, &auth.SignInAgainError{Account: account, Missing: missing}
	}
	token := "scopes=" + strings.Join(scopes, ",")
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		r.URL.Scheme, r.URL.Host = a.emu.Scheme, a.emu.Host
		return engine.DefaultTransport().RoundTrip(r)
	})}, nil
}

func (*scopedAccounts) NeedsSignIn(err error) bool    { return errors.Is(err, auth.ErrSignInAgain) }
func (*scopedAccounts) KeychainLocked(err error) bool { return errors.Is(err, auth.ErrKeychainLocked) }

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Gmail's lookup needs more than gmail.insert: it is asked for once, with
// the reason, and may be given (then the email is looked for with
// gmail.metadata, which refuses q) or declined (Restart sends it anyway).
func TestGmailLookupAsksForPermission(t *testing.T) {
	emu, err := emulator.New(emulator.Options{TokenScopes: func(token string) []string {
		return strings.Split(strings.TrimPrefix(token, "scopes="), ",")
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	t.Cleanup(func() { emu.Close(); ts.Close() })
	emuURL, _ := url.Parse(ts.URL)
	accounts := &scopedAccounts{emu: emuURL}
	accounts.grant("https://www.googleapis.com/auth/gmail.insert")
	dir := t.TempDir()
	j, q := openJournaled(t, filepath.Join(dir, "journal.db"), engine.Options{Accounts: accounts, Backoff: noWait{}})
	t.Cleanup(func() { shutJournaled(t, j, q) })

	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
	d := dest.Destination{Kind: dest.GmailInsert, Account: "layla@example.com", Params: map[string]string{"labels": "INBOX"}}
	if !d.NeedsAuth() {
		t.Fatal("the destination needs no sign-in; the test would prove nothing")
	}
	id := q.Add([]string{emailWithID(t, dir, "report.eml", "CAF-7781@mail.example.com")}, d).IDs[0]
	r := &rig{t: t, q: q}
	v := r.state(id, engine.Attention)
	if !v.InDoubt || !v.NeedsSignIn || !isFact(v.Fact, fact.LostAllow) || !isFact(v.NextFact, fact.AllowLook) {
		t.Fatalf("in doubt %v, sign-in %v, reason %+v, next %+v", v.InDoubt, v.NeedsSignIn, v.Fact, v.NextFact)
	}
	if !slices.Contains(v.Scopes, dest.ScopeGmailMetadata) || !slices.Contains(v.Scopes, "https://www.googleapis.com/auth/gmail.insert") {
		t.Errorf("scopes %v: the sign-in must ask for gmail.metadata and keep gmail.insert", v.Scopes)
	}
	if !slices.Equal(v.Actions, []engine.Action{engine.SignIn, engine.Restart, engine.Cancel, engine.Remove}) {
		t.Errorf("actions %v", v.Actions)
	}
	if s := words.English().Fact(*v.Fact); !strings.Contains(s, "never their content") {
		t.Errorf("reason %q does not say what the permission reads", s)
	}
	accounts.grant(dest.ScopeGmailMetadata)
	if got := q.ResumeSignedIn("layla@example.com"); !slices.Contains(got, id) {
		t.Fatalf("resumed %v", got)
	}
	r.state(id, engine.Done)
	if n := len(emu.Objects()); n != 1 {
		t.Fatalf("%d emails, want 1", n)
	}
	if n := uploads(emu); n != 1 {
		t.Errorf("sent %d times", n)
	}
}
