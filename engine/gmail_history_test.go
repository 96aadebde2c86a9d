package engine_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
)

// gmailRig is a queue signed in to the sandbox's Gmail with the scopes
// granted, the sandbox's clock shifted by skew.
func gmailRig(t *testing.T, now func() time.Time, scopes ...string) (*rig, *emulator.Server) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{
		TokenScopes: func(token string) []string { return strings.Split(strings.TrimPrefix(token, "scopes="), ",") },
		Now:         now,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	t.Cleanup(func() { emu.Close(); ts.Close() })
	emuURL, _ := url.Parse(ts.URL)
	accounts := &scopedAccounts{emu: emuURL}
	accounts.grant(scopes...)
	dir := t.TempDir()
	j, q := openJournaled(t, filepath.Join(dir, "journal.db"), engine.Options{Accounts: accounts, Backoff: noWait{}})
	t.Cleanup(func() { shutJournaled(t, j, q) })
	return &rig{t: t, q: q, dir: dir, emu: emu, url: ts.URL}, emu
}

// With gmail.metadata only, an email whose answer was lost is found among
// what was added since it was sent, however long ago Gmail dates it and
// whatever came after it: here Gmail files it 26 hours before the lookup
// (a lookup a day after the sending), and another email half an hour
// later. It is not sent a second time.
func TestGmailMetadataLookupADayLater(t *testing.T) {
	var skew atomic.Int64
	skew.Store(int64(-26 * time.Hour))
	r, emu := gmailRig(t, func() time.Time { return time.Now().Add(time.Duration(skew.Load())) },
		"https://www.googleapis.com/auth/gmail.insert", dest.ScopeGmailMetadata)
	hold := make(chan struct{})
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{Hold: hold}})
	d := dest.Destination{Kind: dest.GmailInsert, Account: "layla@example.com", Params: map[string]string{"labels": "INBOX"}}
	id := r.q.Add([]string{emailWithID(t, r.dir, "report.eml", "CAF-7781@mail.example.com")}, d).IDs[0]
	deadline := time.Now().Add(20 * time.Second)
	for emu.Received() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the upload never arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
	skew.Store(int64(-25*time.Hour - 30*time.Minute))
	other := "From: Omar <omar@example.org>\r\nTo: Layla <layla@example.com>\r\nSubject: Re: lunch\r\nMessage-ID: <other-1@example.org>\r\n\r\nYes.\r\n"
	body := "--b1\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n{\"labelIds\":[\"INBOX\"]}\r\n" +
		"--b1\r\nContent-Type: message/rfc822\r\n\r\n" + other + "\r\n--b1--\r\n"
	req := httptest.NewRequest("POST", r.url+"/upload/gmail/v1/users/me/messages?uploadType=multipart", strings.NewReader(body))
	req.RequestURI = ""
	req.Header.Set("Content-Type", "multipart/related; boundary=b1")
	req.Header.Set("Authorization", "Bearer scopes=https://www.googleapis.com/auth/gmail.insert")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || emu.Received() != 2 {
		t.Fatalf("the other email: %s, %d in the mailbox", resp.Status, emu.Received())
	}
	close(hold)
	v := r.state(id, engine.Done)
	if n := len(emu.Objects()); n != 2 {
		t.Fatalf("%d emails in the mailbox, want 2 (this one once, and the other)", n)
	}
	if v.Result == nil || v.Result.ID != emu.Objects()[0].ID {
		t.Errorf("result %+v, want the email's id %s", v.Result, emu.Objects()[0].ID)
	}
}

// The same email imported twice on purpose (Gmail dates both by their Date
// header): the second's answer is lost; what is found is the second email,
// the one added since it was sent, never the first.
func TestGmailOlderCopyIsNotThisUpload(t *testing.T) {
	for _, scope := range []string{dest.ScopeGmailMetadata, "https://www.googleapis.com/auth/gmail.readonly"} {
		t.Run(scope[strings.LastIndex(scope, "/")+1:], func(t *testing.T) {
			r, emu := gmailRig(t, nil, "https://www.googleapis.com/auth/gmail.insert", scope)
			d := dest.Destination{Kind: dest.GmailImport, Account: "layla@example.com", Params: map[string]string{"labels": "INBOX"}}
			file := emailWithID(t, r.dir, "report.eml", "CAF-7781@mail.example.com")
			first := r.q.Add([]string{file}, d).IDs[0]
			r.state(first, engine.Done)
			emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
			second := r.q.AddAgain([]string{file}, d).IDs[0] // on purpose: the user chose to send it again
			v := r.state(second, engine.Done)
			objs := emu.Objects()
			if len(objs) != 2 {
				t.Fatalf("%d emails, want 2", len(objs))
			}
			if v.Result == nil || v.Result.ID != objs[1].ID {
				t.Fatalf("the second upload is done as %+v; it is %s (the first is %s)", v.Result, objs[1].ID, objs[0].ID)
			}
		})
	}
}

// gmail-send: Gmail keeps a Message-ID written <left@right>, and the lost
// answer of such an email is found among the sent mail added since (the
// recipients get it once). An email whose Message-ID Gmail would replace
// cannot be found by it: it stops in doubt, never sent twice.
func TestGmailSendLookup(t *testing.T) {
	t.Run("kept", func(t *testing.T) {
		r, emu := gmailRig(t, nil, "https://www.googleapis.com/auth/gmail.send", dest.ScopeGmailMetadata)
		emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
		d := dest.Destination{Kind: dest.GmailSend, Account: "layla@example.com"}
		id := r.q.Add([]string{emailWithID(t, r.dir, "report.eml", "CAF-7781@mail.example.com")}, d).IDs[0]
		v := r.state(id, engine.Done)
		objs := emu.Objects()
		if len(objs) != 1 || objs[0].MessageID != "CAF-7781@mail.example.com" {
			t.Fatalf("sent %+v: want one email with its own Message-ID", objs)
		}
		if n := uploads(emu); n != 1 || v.Result == nil || v.Result.ID != objs[0].ID {
			t.Errorf("sent %d times, result %+v", n, v.Result)
		}
	})
	t.Run("replaced", func(t *testing.T) {
		r, emu := gmailRig(t, nil, "https://www.googleapis.com/auth/gmail.send", dest.ScopeGmailMetadata)
		emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
		d := dest.Destination{Kind: dest.GmailSend, Account: "layla@example.com"}
		id := r.q.Add([]string{emailWithID(t, r.dir, "report.eml", "report-of-march")}, d).IDs[0]
		v := r.state(id, engine.Attention)
		if !v.InDoubt || !isFact(v.Fact, fact.LostUnmarked) {
			t.Fatalf("in doubt %v, reason %+v", v.InDoubt, v.Fact)
		}
		objs := emu.Objects()
		if len(objs) != 1 || !strings.HasSuffix(objs[0].MessageID, "@mail.gmail.com") {
			t.Fatalf("sent %+v: Gmail gives such an email a Message-ID of its own", objs)
		}
		if n := uploads(emu); n != 1 {
			t.Errorf("sent %d times", n)
		}
	})
}
