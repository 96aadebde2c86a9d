package media

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hoist/engine/fact"
	"hoist/internal/msgfile"
)

func writeMsg(t *testing.T, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, msgfile.Fixtures()[name].Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// An Outlook item is inspected as the file it is; AsEmail makes it the
// email it is, and Open reads that email, the same each time.
func TestOutlookItemAsEmail(t *testing.T) {
	p := writeMsg(t, "hebrew-1255.msg")
	info, err := Inspect(p)
	if err != nil {
		t.Fatal(err)
	}
	if info.MIME != OutlookType || !IsOutlook(info) || info.Email != nil {
		t.Fatalf("inspected as %q, email %+v", info.MIME, info.Email)
	}
	email, err := AsEmail(info)
	if err != nil {
		t.Fatal(err)
	}
	if email.MIME != emailType || email.FileSize() != info.Size || email.Size <= 0 || !email.Converted() || IsOutlook(email) {
		t.Fatalf("as an email: %+v", email)
	}
	if e := email.Email; e == nil || e.Subject != "דוח שנתי 2026" || e.From != "דנה כהן <dana@example.co.il>" || e.MessageID != "<hebrew-1255@example.co.il>" {
		t.Errorf("headers %+v", email.Email)
	}
	read := func() []byte {
		f, err := Open(email)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Size() != email.Size {
			t.Errorf("Size = %d, want %d", f.Size(), email.Size)
		}
		b, err := io.ReadAll(io.NewSectionReader(f, 0, f.Size()))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Check(); err != nil {
			t.Errorf("Check: %v", err)
		}
		return b
	}
	first := read()
	if int64(len(first)) != email.Size || string(first[:5]) != "From:" {
		t.Errorf("read %d bytes starting %q", len(first), first[:20])
	}
	if second := read(); string(second) != string(first) {
		t.Error("two reads made different emails")
	}
	if err := Verify(email); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if e, err := ReadEmail(p); err != nil || e == nil || e.MessageID != "<hebrew-1255@example.co.il>" {
		t.Errorf("ReadEmail = %+v, %v", e, err)
	}
	// Saved again: the upload notices.
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	if _, err := Open(email); !errors.Is(err, errFileChanged) {
		t.Errorf("Open after a change = %v", err)
	}
}

func TestOutlookItemThatIsNotAnEmail(t *testing.T) {
	info, err := Inspect(writeMsg(t, "task.msg"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = AsEmail(info)
	var p *Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrNotEmail) || p.Fact().Code != fact.OutlookTask || p.Fact().File != "task.msg" {
		t.Errorf("AsEmail = %v", err)
	}
}

// An email saved as text under an Outlook name is the email it is.
func TestEmailNamedLikeAnOutlookMessage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mail.msg")
	text := "From: Dana <dana@example.co.il>\r\nTo: Omar <omar@example.org>\r\nSubject: Hello\r\n" +
		"Date: Tue, 03 Mar 2026 09:15:00 +0200\r\nMessage-ID: <x@example.co.il>\r\n\r\nHello.\r\n"
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	info, err := Inspect(p)
	if err != nil {
		t.Fatal(err)
	}
	if IsOutlook(info) || info.MIME != emailType || info.Email == nil || info.Email.Subject != "Hello" {
		t.Errorf("inspected as %q (Outlook: %v), email %+v", info.MIME, IsOutlook(info), info.Email)
	}
}
