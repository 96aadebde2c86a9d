package dest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/media"
)

// gmailMailbox is the sandbox's Gmail holding one email with the
// Message-ID <CAF-1@example.com>, which Gmail dates at when.
func gmailMailbox(t *testing.T, when time.Time) string {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Now: func() time.Time { return when }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	t.Cleanup(func() { emu.Close(); ts.Close() })
	mail := "From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\nMessage-ID: <CAF-1@example.com>\r\n\r\nbody\r\n"
	resp, err := http.Post(ts.URL+"/upload/gmail/v1/users/me/messages?uploadType=media", "message/rfc822", strings.NewReader(mail))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.Status)
	}
	return ts.URL
}

// Without the mailbox's historyId from before the upload (no permission
// read it then), an email with the same Message-ID that Gmail dates before
// the upload began is not this upload's: by search and by scan alike, and
// one dated by its Date header cannot be told apart at all.
func TestGmailOlderEmailIsNotThisUpload(t *testing.T) {
	began := time.Now()
	file := media.Info{Name: "report.eml", MIME: "message/rfc822", Size: 90, Email: &media.Email{MessageID: "<CAF-1@example.com>"}}
	for _, tc := range []struct {
		name   string
		kind   dest.Kind
		stored time.Time // when Gmail dates the email already there
		found  bool
		err    error
	}{
		{"inserted a day before", dest.GmailInsert, began.Add(-24 * time.Hour), false, nil},
		{"inserted after it began", dest.GmailInsert, began.Add(time.Second), true, nil},
		{"imported, dated by its header", dest.GmailImport, began.Add(time.Second), false, dest.ErrNotThisUpload},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := gmailMailbox(t, tc.stored)
			d := dest.Destination{Kind: tc.kind, BaseURL: base}
			p, err := d.Plan(file)
			if err != nil {
				t.Fatal(err)
			}
			p.Since = "time:" + strconv.FormatInt(began.UnixMilli(), 10)
			p = d.Findable(p, file, "job-1")
			if len(p.Find) != 4 {
				t.Fatalf("%d ways to look", len(p.Find))
			}
			for _, way := range []int{0, 3} { // search (gmail.readonly), scan (gmail.metadata)
				f, err := p.Find[way].Find(context.Background(), http.DefaultClient)
				if (f.Body != nil) != tc.found || !errors.Is(err, tc.err) {
					t.Errorf("way %d: found %s, err %v", way, f.Body, err)
				}
			}
		})
	}
}
