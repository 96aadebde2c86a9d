package engine_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/media/outlook"
	"hoist/engine/upload"
	"hoist/internal/msgfile"
	"hoist/words"
)

// outlookFile writes a fixture Outlook item and returns its path and the
// SHA-256 of the email it is.
func outlookFile(t *testing.T, dir, name string, m *msgfile.Message) (string, string, int64) {
	t.Helper()
	b := m.Bytes()
	p := writeFile(t, dir, name, b)
	email, err := outlook.Convert(bytes.NewReader(b), int64(len(b)), outlook.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(email)
	return p, hex.EncodeToString(sum[:]), int64(len(email))
}

// An Outlook message dropped on a Gmail destination arrives as the email it
// is, by every way Gmail takes one; before, it was refused as not an email.
func TestOutlookMessageGoesToEveryGmailKind(t *testing.T) {
	for _, kind := range []dest.Kind{dest.GmailImport, dest.GmailInsert, dest.GmailSend, dest.GmailDraft} {
		t.Run(string(kind), func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{})
			p, sum, size := outlookFile(t, r.dir, "نشرة.msg", msgfile.Fixtures()["html-inline-image.msg"])
			res := r.q.Add([]string{p}, dest.Destination{Kind: kind, BaseURL: r.url})
			if len(res.IDs) != 1 {
				t.Fatalf("add: %v", res.Problems)
			}
			v := r.state(res.IDs[0], engine.Done)
			objs := r.emu.Objects()
			if len(objs) != 1 {
				t.Fatalf("%d objects, want 1", len(objs))
			}
			if objs[0].SHA256 != sum || objs[0].Size != size || objs[0].ContentType != "message/rfc822" {
				t.Errorf("Gmail holds %s (%d bytes, %s), want the converted email %s (%d bytes)", objs[0].SHA256, objs[0].Size, objs[0].ContentType, sum, size)
			}
			if v.Size != size || v.Email == nil || v.Email.Subject != "Newsletter with logo" || v.Email.From != "News Team <news@example.com>" {
				t.Errorf("the row shows %d bytes and %+v", v.Size, v.Email)
			}
		})
	}
}

// The email made from an Outlook message keeps its Message-ID (one made
// from its content when it has none), so a lost answer is looked for and
// found: it arrives once.
func TestOutlookMessageLostAnswerIsFound(t *testing.T) {
	for _, name := range []string{"arabic-1256.msg", "draft-no-id.msg"} {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{})
			r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
			p, sum, _ := outlookFile(t, r.dir, name, msgfile.Fixtures()[name])
			id := r.q.Add([]string{p}, dest.Destination{Kind: dest.GmailInsert, BaseURL: r.url, Params: map[string]string{"labels": "INBOX"}}).IDs[0]
			v := r.state(id, engine.Done)
			if objs := r.emu.Objects(); len(objs) != 1 || objs[0].SHA256 != sum {
				t.Fatalf("objects %+v, want exactly the converted email", objs)
			}
			if n := uploads(r.emu); n != 1 {
				t.Errorf("the email went out %d times", n)
			}
			if v.Result == nil || v.Result.ID == "" {
				t.Errorf("result %+v", v.Result)
			}
		})
	}
}

// An Outlook item that is not an email is refused before any byte, saying
// what it is; to a destination that takes any file it goes as the file.
func TestOutlookItemsThatAreNotEmails(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	for name, kind := range msgfile.NotEmails {
		p, _, _ := outlookFile2(t, r.dir, name)
		id := r.q.Add([]string{p}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url}).IDs[0]
		v := r.state(id, engine.Refused)
		if v.Fact == nil || !strings.HasSuffix(string(v.Fact.Code), strings.ToUpper(kind[:1])+kind[1:]) {
			t.Errorf("%s: fact %+v, want the Outlook %s's", name, v.Fact, kind)
		}
	}
	contact := filepath.Join(r.dir, "contact.msg")
	var found bool
	for _, v := range r.q.Jobs() {
		if v.Path == contact {
			found = true
			if got, want := words.English().Fact(*v.Fact), "contact.msg is an Outlook contact, not an email."; got != want {
				t.Errorf("said %q, want %q", got, want)
			}
		}
	}
	if !found {
		t.Fatal("contact.msg is not in the list")
	}
	if n := len(r.emu.Requests()); n != 0 {
		t.Errorf("%d requests for files refused before any byte", n)
	}
	// Drive takes any file: the contact goes as the .msg it is.
	id := r.q.Add([]string{contact}, dest.Destination{Kind: dest.Drive, BaseURL: r.url}).IDs[0]
	r.state(id, engine.Done)
	if objs := r.emu.Objects(); len(objs) != 1 || objs[0].Size != int64(len(msgfile.Fixtures()["contact.msg"].Bytes())) {
		t.Errorf("Drive holds %+v, want the file itself", objs)
	}
}

func outlookFile2(t *testing.T, dir, name string) (string, []byte, error) {
	b := msgfile.Fixtures()[name].Bytes()
	return writeFile(t, dir, name, b), b, nil
}

// A damaged .msg gets a sentence, not a crash.
func TestDamagedOutlookMessageIsRefused(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	b := msgfile.Fixtures()["plain-unicode.msg"].Bytes()
	p := writeFile(t, r.dir, "cut.msg", b[:1024])
	id := r.q.Add([]string{p}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url}).IDs[0]
	v := r.state(id, engine.Refused)
	if v.Fact == nil || v.Fact.Code != fact.OutlookDamaged {
		t.Fatalf("fact %+v", v.Fact)
	}
	if got, want := words.English().Fact(*v.Fact), "cut.msg cannot be read as an Outlook message: the file is damaged, or it is not one."; got != want {
		t.Errorf("said %q, want %q", got, want)
	}
	// Text someone saved with an Outlook name.
	p = writeFile(t, r.dir, "notes.msg", []byte("Meeting notes, 3 March\nBring the budget.\n"))
	id = r.q.Add([]string{p}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url}).IDs[0]
	if v := r.state(id, engine.Refused); v.Fact == nil || v.Fact.Code != fact.OutlookDamaged {
		t.Errorf("notes.msg: fact %+v", v.Fact)
	}
}

// The size Gmail's limit is checked against is the email's, after the
// conversion, before the first byte: a 27 MB attachment is 36 MB in an email.
func TestOutlookMessageSizeIsCheckedAfterConversion(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	big := make([]byte, 27<<20)
	rand.Read(big)
	m := msgfile.Fixtures()["plain-unicode.msg"]
	m.Attachments = append(m.Attachments, msgfile.ByValue("scan.bin", "application/octet-stream", big))
	b := m.Bytes()
	if int64(len(b)) >= dest.GmailSendMaxSize {
		t.Fatalf("the .msg itself is %d bytes, not under the limit", len(b))
	}
	p := writeFile(t, r.dir, "scan.msg", b)
	id := r.q.Add([]string{p}, dest.Destination{Kind: dest.GmailSend, BaseURL: r.url}).IDs[0]
	v := r.state(id, engine.Refused)
	if v.Fact == nil || v.Fact.Code != fact.TooLarge || v.Fact.Size <= dest.GmailSendMaxSize || v.Size != v.Fact.Size {
		t.Errorf("fact %+v, size %d: want too large, by the email's size", v.Fact, v.Size)
	}
	if n := len(r.emu.Requests()); n != 0 {
		t.Errorf("%d requests before the refusal", n)
	}
}

// Quit in the middle of an Outlook message's resumable upload: after the
// restart it goes on in the same session, and Gmail holds the email whole.
func TestOutlookMessageResumesAfterAQuit(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	payload := make([]byte, 3<<20)
	rand.Read(payload)
	m := msgfile.Fixtures()["hebrew-1255.msg"]
	m.Attachments = append(m.Attachments, msgfile.ByValue("photo.bin", "application/octet-stream", payload))
	p, sum, size := outlookFile(t, r.dir, "דוח.msg", m)
	release, stalled := stallChunk(r, 4)
	defer release()
	id := r.q.Add([]string{p}, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url}).IDs[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return stalled.Count() == 1 })
	if v, _ := r.q.Job(id); v.Size != size {
		t.Fatalf("the job's size is %d, want the email's %d", v.Size, size)
	}
	r.close()
	release()
	r.emu.ClearRequests()
	r.open()
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	for _, q := range r.emu.Requests() {
		if q.Stage == emulator.StageStart && q.Fault == "" {
			t.Error("after the restart a new session was started")
		}
	}
	if objs := r.emu.Objects(); len(objs) != 1 || objs[0].SHA256 != sum {
		t.Errorf("Gmail holds %+v, want the email %s", objs, sum)
	}
}

// Subjects kept in Arabic, Persian and Hebrew code pages arrive in Gmail
// readable: Gmail names each message by the subject it decodes.
func TestOutlookSubjectsArriveReadable(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	want := map[string]string{
		"arabic-1256.msg":  "تقرير الحملة الشهري",
		"persian-1256.msg": "گزارش ماهانه فروش",
		"hebrew-1255.msg":  "דוח שנתי 2026",
		"western-1252.msg": "“Café” prices – €5",
	}
	var paths []string
	for name := range want {
		p, _, _ := outlookFile(t, r.dir, name, msgfile.Fixtures()[name])
		paths = append(paths, p)
	}
	for _, id := range r.q.Add(paths, dest.Destination{Kind: dest.GmailImport, BaseURL: r.url}).IDs {
		r.state(id, engine.Done)
	}
	got := map[string]bool{}
	for _, o := range r.emu.Objects() {
		got[o.Name] = true
	}
	for name, subject := range want {
		if !got[subject] {
			t.Errorf("%s: Gmail has no message named %q (it has %v)", name, subject, got)
		}
	}
}
