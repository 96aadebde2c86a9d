package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/internal/testclock"
)

// mailboxEmail is one email of a test mailbox, as Gmail must receive it.
func mailboxEmail(i int, extra string) string {
	return fmt.Sprintf("From: Layla Haddad <layla@example.com>\nTo: omar@example.org\n"+
		"Subject: Report %d\nDate: Tue, 03 Mar 2026 09:15:00 +0200\nMessage-ID: <mbox-%d@mail.example.com>\n%s\n"+
		"Here is report %d.\nFrom the start of a line.\n>From a quote.\nBye.\n", i, i, extra, i)
}

// writeMailbox writes n emails as Google Takeout does (mboxrd, its labels
// beside each): what Gmail must receive of each is returned with its path.
func writeMailbox(t *testing.T, dir, name string, n int) (string, []string) {
	t.Helper()
	var b strings.Builder
	var want []string
	for i := range n {
		email := mailboxEmail(i, "")
		want = append(want, email)
		quoted := strings.ReplaceAll(strings.ReplaceAll(email, "\n>From", "\n>>From"), "\nFrom the", "\n>From the")
		fmt.Fprintf(&b, "From 17%d@xxx Tue Mar 03 07:15:00 +0000 2026\nX-GM-THRID: 17%d\nX-Gmail-Labels: Inbox,Reports\n%s\n", i, i, quoted)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	// Takeout's own headers are the first lines of each email as Gmail gets it.
	for i := range want {
		want[i] = fmt.Sprintf("X-GM-THRID: 17%d\nX-Gmail-Labels: Inbox,Reports\n", i) + want[i]
	}
	return path, want
}

// received is what the emulator holds of each email, by Message-ID.
func received(t *testing.T, emu *emulator.Server) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, o := range emu.Objects() {
		rc, err := emu.Open(o.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[o.MessageID] = append(out[o.MessageID], string(b))
	}
	return out
}

// A mailbox file sent to Gmail is its emails, each an upload of its own,
// in order, each arriving once as it was written (its quoting undone).
func TestMailboxIsSentAsItsEmailsEachOnce(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	box, want := writeMailbox(t, r.dir, "Takeout.mbox", 5)
	res := r.q.Add([]string{box}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url})
	if len(res.Problems) > 0 || len(res.IDs) != 5 {
		t.Fatalf("added %d jobs, problems %v; want 5 emails", len(res.IDs), res.Problems)
	}
	r.wait()
	for i, id := range res.IDs {
		v, _ := r.q.Job(id)
		if v.State != engine.Done || v.InMailbox != i+1 || v.Path != box || v.Name != "Takeout.mbox" {
			t.Errorf("job %d: %s, email %d of %s (%s)", i, v.State, v.InMailbox, v.Name, reasonOf(v))
		}
		if v.Email == nil || v.Email.Subject != fmt.Sprintf("Report %d", i) || v.Size != int64(len(want[i])) {
			t.Errorf("job %d shows %+v, %d bytes", i, v.Email, v.Size)
		}
	}
	got := received(t, r.emu)
	for i, w := range want {
		id := fmt.Sprintf("mbox-%d@mail.example.com", i)
		if len(got[id]) != 1 || got[id][0] != w {
			t.Errorf("email %d arrived %d times as\n%q\nwant\n%q", i, len(got[id]), got[id], w)
		}
	}
}

// A mailbox whose emails Gmail cannot all take: the one too large is
// refused alone, before a byte of it is read, and the others go.
func TestMailboxEmailTooLargeIsRefusedAlone(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	big := strings.Repeat("a line of a very large email, attached as text\n", (36<<20)/48)
	text := "From a@b Tue Mar 03 07:15:00 2026\n" + mailboxEmail(0, "") + "\n" +
		"From a@b Tue Mar 03 07:15:00 2026\n" + mailboxEmail(1, "") + big + "\n" +
		"From a@b Tue Mar 03 07:15:00 2026\n" + mailboxEmail(2, "")
	box := writeFile(t, r.dir, "Sent", []byte(text))
	res := r.q.Add([]string{box}, dest.Destination{Kind: dest.GmailSend, BaseURL: r.url})
	if len(res.IDs) != 3 {
		t.Fatalf("%d jobs, problems %v", len(res.IDs), res.Problems)
	}
	r.wait()
	var states []engine.State
	for _, id := range res.IDs {
		v, _ := r.q.Job(id)
		states = append(states, v.State)
		if v.State == engine.Refused && (v.Fact == nil || v.Fact.Code != fact.TooLarge) {
			t.Errorf("refused with %+v", v.Fact)
		}
	}
	if !slices.Equal(states, []engine.State{engine.Done, engine.Refused, engine.Done}) {
		t.Errorf("states %v", states)
	}
}

// A file named as a mailbox that is none, and a mailbox without emails,
// are rows that say so; the same mailbox added again while its emails go
// is not added twice.
func TestMailboxThatIsNoneOrEmptySaysSo(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{Idle: true})
	notBox := writeFile(t, r.dir, "notes.mbox", []byte("Dear all,\nFrom tomorrow on...\n"))
	empty := writeFile(t, r.dir, "empty.mbox", []byte("From a@b Tue Mar 03 07:15:00 2026\n"))
	box, _ := writeMailbox(t, r.dir, "Inbox.mbox", 2)
	d := dest.Destination{Kind: dest.GmailInsert, BaseURL: r.url}
	res := r.q.Add([]string{notBox, empty, box}, d)
	if len(res.IDs) != 4 || len(res.Problems) != 0 {
		t.Fatalf("%d jobs, problems %v", len(res.IDs), res.Problems)
	}
	for i, code := range []fact.Code{fact.MailboxNotMailbox, fact.MailboxEmpty} {
		v, _ := r.q.Job(res.IDs[i])
		if v.State != engine.Refused || v.Fact == nil || v.Fact.Code != code {
			t.Errorf("job %d: %s, %+v; want refused with %s", i, v.State, v.Fact, code)
		}
	}
	again := r.q.Add([]string{box}, d)
	var dup *engine.AlreadyQueued
	if len(again.IDs) != 0 || len(again.Problems) != 1 || !asAlready(again.Problems[0], &dup) {
		t.Errorf("adding it again: %d jobs, problems %v", len(again.IDs), again.Problems)
	}
}

func asAlready(err error, dup **engine.AlreadyQueued) bool {
	d, ok := err.(*engine.AlreadyQueued)
	*dup = d
	return ok
}

// Hoist quits while the answer to one email of a mailbox is lost on the
// way: reopened, it asks Gmail for that email by its Message-ID (it
// arrived), and goes on at the next; every email arrives exactly once.
func TestMailboxQuitMidwayGoesOnAtTheNextEmail(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{Parallel: 1})
	box, want := writeMailbox(t, r.dir, "Takeout.mbox", 4)
	hold := make(chan struct{})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Skip: 1, Action: emulator.DropAnswer{Hold: hold}})
	d := dest.Destination{Kind: dest.GmailInsert, BaseURL: r.url, Params: map[string]string{"labels": "INBOX"}}
	ids := r.q.Add([]string{box}, d).IDs
	if len(ids) != 4 {
		t.Fatalf("%d jobs", len(ids))
	}
	deadline := time.Now().Add(20 * time.Second)
	for r.emu.Received() < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the second email never arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.close() // the second email's answer is still held
	close(hold)

	r.open()
	r.q.ResumeAll()
	for _, id := range ids {
		r.state(id, engine.Done)
	}
	got := received(t, r.emu)
	for i := range want {
		id := fmt.Sprintf("mbox-%d@mail.example.com", i)
		if len(got[id]) != 1 || got[id][0] != want[i] {
			t.Errorf("email %d arrived %d times", i, len(got[id]))
		}
	}
	if n := uploads(r.emu); n != 4 {
		t.Errorf("%d emails went out, want 4", n)
	}
}

// A mailbox of many small emails moves at Gmail's pace: the queue spends
// no more of the account's 250 units a second than Gmail allows (25 an
// import), as the emulator counts them on the same clock, so Gmail
// answers no 429; one that comes all the same is waited out and sent
// again.
func TestMailboxMovesAtGmailsPace(t *testing.T) {
	clock := testclock.At(time.Date(2026, 3, 3, 9, 0, 0, 0, time.UTC))
	r := newRig(t, emulator.Options{Now: clock.Now, GmailUnitsPerSecond: 250}, engine.Options{Parallel: 1, Clock: clock})
	box, _ := writeMailbox(t, r.dir, "Takeout.mbox", 30)
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Skip: 12, Action: emulator.Answer{Status: 429, RetryAfter: "1"}})
	start := clock.Now()
	ids := r.q.Add([]string{box}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url}).IDs
	if len(ids) != 30 {
		t.Fatalf("%d jobs", len(ids))
	}
	r.wait()
	for _, id := range ids {
		if v, _ := r.q.Job(id); v.State != engine.Done {
			t.Fatalf("email %d: %s (%s)", v.InMailbox, v.State, reasonOf(v))
		}
	}
	if peak := r.emu.GmailPeakUnits(); peak > 250 {
		t.Errorf("Gmail counted %d units within one second, of 250", peak)
	}
	var refused, quota int
	for _, q := range r.emu.Requests() {
		if q.Status == 429 {
			refused++
			if q.Fault == "" {
				quota++
			}
		}
	}
	if quota > 0 || refused != 1 {
		t.Errorf("%d answers 429 past Gmail's quota, %d in all; want none past it and the one injected", quota, refused)
	}
	// 30 imports of 25 units at 250 a second take at least 2 seconds.
	if took := clock.Now().Sub(start); took < 2*time.Second {
		t.Errorf("30 imports took %v of the clock, under Gmail's pace", took)
	}
	if got := len(received(t, r.emu)); got != 30 {
		t.Errorf("%d emails arrived, want 30", got)
	}
}

// With the options on, each email of a Takeout mailbox goes under the
// labels it had there (Inbox as Gmail's own INBOX) and under a label named
// after the file; a label the mailbox lacks is made once, however many
// emails ask for it; without them, no label is made or asked for.
func TestMailboxLabelsFromTakeoutAndTheFileName(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	box, _ := writeMailbox(t, r.dir, "Old office.mbox", 3)
	d := dest.Destination{Kind: dest.GmailImport, BaseURL: r.url, Params: map[string]string{"labels": "Label_1", "mailboxLabels": "true", "mailboxLabel": "true"}}
	if !slices.Contains(d.Scopes(), "https://www.googleapis.com/auth/gmail.labels") {
		t.Errorf("scopes %v lack the labels' permission the options need", d.Scopes())
	}
	ids := r.q.Add([]string{box}, d).IDs
	r.wait()
	for _, id := range ids {
		if v, _ := r.q.Job(id); v.State != engine.Done {
			t.Fatalf("email %d: %s (%s)", v.InMailbox, v.State, reasonOf(v))
		}
	}
	if n := r.emu.LabelsCreated(); n != 2 {
		t.Errorf("%d labels made, want 2 (Reports, Old office)", n)
	}
	for _, o := range r.emu.Objects() {
		var m struct {
			LabelIDs []string `json:"labelIds"`
		}
		if err := json.Unmarshal(o.Response, &m); err != nil {
			t.Fatal(err)
		}
		slices.Sort(m.LabelIDs)
		if want := []string{"INBOX", "Label_1", "Label_4", "Label_5"}; !slices.Equal(m.LabelIDs, want) {
			t.Errorf("%s went under %v, want %v", o.MessageID, m.LabelIDs, want)
		}
	}

	plain := newRig(t, emulator.Options{}, engine.Options{})
	box, _ = writeMailbox(t, plain.dir, "Old office.mbox", 2)
	pd := dest.Destination{Kind: dest.GmailImport, BaseURL: plain.url}
	plain.q.Add([]string{box}, pd)
	plain.wait()
	if n := plain.emu.LabelsCreated(); n != 0 || slices.Contains(pd.Scopes(), "https://www.googleapis.com/auth/gmail.labels") {
		t.Errorf("without the options, %d labels made, scopes %v", n, pd.Scopes())
	}
}

// A Thunderbird folder (no extension, mboxo: only "From " was quoted)
// arrives as the emails it holds: its quoted "From " lines lose their
// ">", and a ">>From " line stays as it is (mboxrd would take one off).
func TestThunderbirdFolderArrivesAsItsEmails(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	var b strings.Builder
	var want []string
	for i := range 3 {
		email := fmt.Sprintf("X-Mozilla-Status: 0001\nX-Mozilla-Status2: 00000000\nFrom: Dana <dana@example.co.il>\nTo: office@example.org\n"+
			"Subject: Minutes %d\nMessage-ID: <tb-%d@example.co.il>\n\nFrom the board.\n>>From a reply, quoted twice by its writers.\n", i, i)
		want = append(want, email)
		fmt.Fprintf(&b, "From - Tue Mar 03 07:15:00 2026\n%s\n", strings.Replace(email, "\nFrom the board", "\n>From the board", 1))
	}
	folder := writeFile(t, r.dir, "Inbox", []byte(b.String()))
	ids := r.q.Add([]string{folder}, dest.Destination{Kind: dest.GmailInsert, BaseURL: r.url}).IDs
	if len(ids) != 3 {
		t.Fatalf("%d jobs", len(ids))
	}
	r.wait()
	got := received(t, r.emu)
	for i, w := range want {
		id := fmt.Sprintf("tb-%d@example.co.il", i)
		if len(got[id]) != 1 || got[id][0] != w {
			t.Errorf("email %d arrived %d times as %q, want %q", i, len(got[id]), got[id], w)
		}
	}
}

// A mailbox of more emails than one adds lists the first ones and says
// the rest were not added: its emails never grow the list without end.
func TestMailboxOfTooManyEmailsAddsTheFirstAndSaysSo(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{Idle: true, MailboxEmails: 3})
	box, _ := writeMailbox(t, r.dir, "All mail.mbox", 5)
	res := r.q.Add([]string{box}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url})
	if len(res.IDs) != 3 || len(res.Problems) != 1 {
		t.Fatalf("%d jobs, problems %v; want 3 and one problem", len(res.IDs), res.Problems)
	}
	f, ok := res.Problems[0].(interface{ Fact() fact.Fact })
	if !ok || f.Fact().Code != fact.MailboxTooMany || f.Fact().Count != 3 || f.Fact().File != "All mail.mbox" {
		t.Errorf("the problem says %v", res.Problems[0])
	}
}

// A mailbox added again to the same place, after every email of it went
// whole, sends nothing and says so once, for the mailbox, also after Hoist
// starts again; sending it again is the user's choice (AddAgain).
func TestMailboxAddedAgainIsNotSentTwice(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	box, _ := writeMailbox(t, r.dir, "Takeout.mbox", 3)
	d := dest.Destination{Kind: dest.GmailInsert, BaseURL: r.url}
	first := r.q.Add([]string{box}, d)
	if len(first.IDs) != 3 || len(first.Problems) != 0 {
		t.Fatalf("added %d, problems %v", len(first.IDs), first.Problems)
	}
	for _, id := range first.IDs {
		r.state(id, engine.Done)
	}
	for _, reopen := range []bool{false, true} {
		if reopen {
			r.close()
			r.open()
		}
		res := r.q.Add([]string{box}, d)
		if len(res.IDs) != 0 || len(res.Problems) != 1 {
			t.Fatalf("reopened %v: added %d again, problems %v; want none added and one sentence", reopen, len(res.IDs), res.Problems)
		}
		var sent *engine.AlreadySent
		if !errors.As(res.Problems[0], &sent) || sent.Path != box || sent.Name != "Takeout.mbox" || sent.Finished.IsZero() {
			t.Fatalf("reopened %v: problem %v; want the mailbox already sent", reopen, res.Problems[0])
		}
	}
	r.wait()
	if n := len(r.emu.Objects()); n != 3 {
		t.Fatalf("the sandbox holds %d emails, want the 3 sent once", n)
	}
	again := r.q.AddAgain([]string{box}, d)
	if len(again.IDs) != 3 || len(again.Problems) != 0 {
		t.Fatalf("sent again: %d added, problems %v", len(again.IDs), again.Problems)
	}
}

// A mailbox that grew since it was sent (a mail program adds to its
// mailboxes): added again, only its new emails go; those that went before
// are left out and said once, with how many.
func TestMailboxThatGrewSendsOnlyItsNewEmails(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	box, _ := writeMailbox(t, r.dir, "Takeout.mbox", 3)
	d := dest.Destination{Kind: dest.GmailSend, BaseURL: r.url}
	first := r.q.Add([]string{box}, d)
	for _, id := range first.IDs {
		r.state(id, engine.Done)
	}
	writeMailbox(t, r.dir, "Takeout.mbox", 5) // the same 3, then 2 new
	res := r.q.Add([]string{box}, d)
	if len(res.IDs) != 2 || len(res.Problems) != 1 {
		t.Fatalf("added %d, problems %v; want the 2 new emails and one sentence", len(res.IDs), res.Problems)
	}
	var sent *engine.AlreadySent
	if !errors.As(res.Problems[0], &sent) || sent.Emails != 3 || sent.Fact().Code != fact.SomeEmailsSent || sent.Fact().Count != 3 {
		t.Fatalf("problem %v; want 3 emails of the mailbox already sent", res.Problems[0])
	}
	r.wait()
	got := received(t, r.emu)
	for i := range 5 {
		if n := len(got[fmt.Sprintf("mbox-%d@mail.example.com", i)]); n != 1 {
			t.Errorf("email %d arrived %d times, want once", i, n)
		}
	}
}
