package media

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

const goldenDir = "../../testdata/eml"

func zone(name string, offset string) *time.Location {
	d, err := time.ParseDuration(offset)
	if err != nil {
		panic(err)
	}
	return time.FixedZone(name, int(d.Seconds()))
}

func TestInspectGoldenEmails(t *testing.T) {
	tests := []struct {
		file    string
		from    string
		subject string
		date    time.Time
	}{
		{"plain-ascii.eml", "Alice Example <alice@example.com>", "Quarterly numbers",
			time.Date(2026, 3, 3, 9, 15, 0, 0, zone("", "2h"))},
		{"alternative-html.eml", "Newsletter Team <news@example.com>", "March newsletter: what's new",
			time.Date(2026, 3, 4, 18, 0, 0, 0, time.UTC)},
		{"attachment-png.eml", "carol@example.com", "Logo for the campaign",
			time.Date(2026, 3, 5, 11, 30, 45, 0, zone("", "-5h"))},
		{"تقرير_الحملة_2026.eml", "فريق الحملة <campaign@example.com>", "تقرير الحملة النهائي لعام 2026",
			time.Date(2026, 3, 1, 8, 0, 0, 0, zone("", "3h"))},
		{"گزارش نهایی.eml", "مریم رضایی <maryam@example.ir>", "گزارش نهایی پروژه",
			time.Date(2026, 3, 2, 10, 20, 30, 0, zone("", "3h30m"))},
		{"דוח שנתי.eml", "דנה כהן <dana@example.co.il>", "דוח שנתי 2025",
			time.Date(2026, 2, 26, 14, 45, 0, 0, zone("", "2h"))},
		{"arabic-windows-1256.eml", "أحمد علي <ahmed@example.com>", "فاتورة شهر مارس",
			time.Date(2026, 2, 27, 16, 5, 0, 0, zone("", "3h"))},
		{"mbox-raw-utf8.eml", "יוסי לוי <yossi@example.co.il>", "סיכום פגישה",
			time.Date(2026, 2, 28, 12, 0, 0, 0, zone("", "2h"))},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(goldenDir, tt.file)
			info, err := Inspect(path)
			if err != nil {
				t.Fatal(err)
			}
			if info.MIME != "message/rfc822" {
				t.Errorf("MIME = %q", info.MIME)
			}
			if info.Name != tt.file {
				t.Errorf("Name = %q", info.Name)
			}
			if info.Email == nil {
				t.Fatal("Email is nil")
			}
			if info.Email.From != tt.from {
				t.Errorf("From = %q, want %q", info.Email.From, tt.from)
			}
			if info.Email.Subject != tt.subject {
				t.Errorf("Subject = %q, want %q", info.Email.Subject, tt.subject)
			}
			if !info.Email.Date.Equal(tt.date) {
				t.Errorf("Date = %v, want %v", info.Email.Date, tt.date)
			}
			// ReadEmail, the headers alone, reads the same.
			if e, err := ReadEmail(path); err != nil || e.From != info.Email.From || e.Subject != info.Email.Subject || !e.Date.Equal(info.Email.Date) {
				t.Errorf("ReadEmail = %+v, %v; want %+v", e, err, *info.Email)
			}
		})
	}
}

// ReadEmail of a file that is no email says so with nil; a file that is
// gone is a problem.
func TestReadEmailNoHeaders(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "notes.eml")
	if err := os.WriteFile(plain, []byte("just words\nno headers\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if e, err := ReadEmail(plain); e != nil || err != nil {
		t.Errorf("ReadEmail(not an email) = %+v, %v; want nil, nil", e, err)
	}
	if _, err := ReadEmail(filepath.Join(dir, "gone.eml")); !errors.Is(err, ErrMissing) {
		t.Errorf("ReadEmail(gone) = %v, want ErrMissing", err)
	}
}

func TestInspectNotAnEmail(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"report.eml":    "Meeting notes\n\n- one\n- two\n",
		"key-value.eml": "Note: buy milk\nColour: blue\n\nbody\n",
		"image.eml":     "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"indented.eml":  "  From: someone\n",
	}
	golden, err := os.ReadFile(filepath.Join(goldenDir, "not-an-email.eml"))
	if err != nil {
		t.Fatal(err)
	}
	cases["not-an-email.eml"] = string(golden)
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			info, err := Inspect(write(t, dir, name, []byte(content)))
			if !errors.Is(err, ErrNotEmail) {
				t.Fatalf("err = %v, want ErrNotEmail", err)
			}
			want := name + " does not look like an email file (its first lines are not email headers)."
			if SayEnglish(err) != want {
				t.Errorf("message = %q, want %q", SayEnglish(err), want)
			}
			if info.Email != nil || info.MIME == "message/rfc822" || info.Size != int64(len(content)) || info.Fingerprint == "" {
				t.Errorf("info = %+v; want the file described as what it is", info)
			}
		})
	}
}

func TestInspectEmailEdges(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, content string
		from, subject string
	}{
		{"UPPER.EML", "Subject: shouting\r\n\r\nbody", "", "shouting"},
		{"headers-only.eml", "From: a@example.com\nDate: not a date", "a@example.com", ""},
		{"bom.eml", "\xef\xbb\xbfFrom: \"Zoë\" <zoe@example.com>\n\n", "Zoë <zoe@example.com>", ""},
		{"two-senders.eml", "From: A <a@example.com>, b@example.com\n\n", "A <a@example.com>, b@example.com", ""},
		{"unknown-charset.eml", "Subject: =?x-klingon?Q?tlhIngan?=\n\n", "", "=?x-klingon?Q?tlhIngan?="},
		{"raw-1256.eml", "Content-Type: text/plain; charset=windows-1256\nSubject: \xdd\xc7\xca\xe6\xd1\xc9\n\n", "", "فاتورة"},
		{"bad-raw.eml", "Subject: caf\xe9\n\n", "", "caf\uFFFD"},
		{"broken-from.eml", "From: =?UTF-8?B?2YHYsdmK2YI=?= <<broken\nSubject: x\n\n", "فريق <<broken", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := Inspect(write(t, dir, tt.name, []byte(tt.content)))
			if err != nil {
				t.Fatal(err)
			}
			if info.Email == nil {
				t.Fatal("no Email")
			}
			if info.Email.From != tt.from || info.Email.Subject != tt.subject {
				t.Errorf("From, Subject = %q, %q; want %q, %q", info.Email.From, info.Email.Subject, tt.from, tt.subject)
			}
		})
	}

	t.Run("empty", func(t *testing.T) {
		info, err := Inspect(write(t, dir, "empty.eml", nil))
		if err != nil || info.Size != 0 || info.MIME != "message/rfc822" || info.Email != nil {
			t.Errorf("Inspect(empty.eml) = %+v, %v; want an empty email file for the destination to judge", info, err)
		}
	})
}

// TestInspectLargeEmail makes the ~40 MB golden email with the generator and
// checks that the headers are read without reading the whole file: the
// bytes the process read (the kernel's count) are counted.
func TestInspectLargeEmail(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 40 MB")
	}
	goBin, err := exec.LookPath("go") // go test puts its own go first on PATH
	if err != nil {
		t.Skip("the go command is needed to run the generator")
	}
	path := filepath.Join(t.TempDir(), "scanned contracts.eml")
	cmd := exec.Command(goBin, "run", "./testdata/eml/generate.go", "-dir", t.TempDir(), "-large", path)
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, out)
	}
	counted := runtime.GOOS == "linux" // where the kernel counts a process's reads
	var before int64
	if counted {
		before = bytesRead(t)
	}
	info, err := Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	// The start and the end of the file (a MiB each, and the headers within
	// the first), and a little for reading the count itself.
	if read := bytesReadSince(t, counted, before); counted && read > 2*fingerprintSpan+64<<10 {
		t.Errorf("Inspect read %d bytes of a 40 MB file; it needs at most %d", read, 2*fingerprintSpan)
	} else if counted {
		t.Logf("Inspect read %d bytes", read)
	}
	if info.Size != 40_000_000 {
		t.Errorf("Size = %d, want 40,000,000", info.Size)
	}
	if info.Email == nil || info.Email.Subject != "Scanned contracts (large)" || info.Email.From != "Big Sender <big@example.com>" {
		t.Errorf("Email = %+v", info.Email)
	}
	if !strings.HasPrefix(FormatSize(info.Size), "40 MB") {
		t.Errorf("FormatSize = %q", FormatSize(info.Size))
	}
}

// bytesRead is how many bytes this process has read from files and pipes
// so far: the kernel's count (rchar in /proc/self/io).
func bytesRead(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatalf("counting the bytes read: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no rchar in /proc/self/io:\n%s", b)
	return 0
}

func bytesReadSince(t *testing.T, counted bool, before int64) int64 {
	if !counted {
		return 0
	}
	return bytesRead(t) - before
}
