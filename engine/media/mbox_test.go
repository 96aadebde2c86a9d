package media

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// split returns each email of the mailbox b as the file would send it.
func split(t testing.TB, b []byte) ([]Part, [][]byte) {
	t.Helper()
	var parts []Part
	var emails [][]byte
	err := SplitMailbox(context.Background(), bytes.NewReader(b), func(m MailboxEmail) error {
		parts = append(parts, m.Part)
		return nil
	})
	if err != nil {
		t.Fatalf("SplitMailbox: %v", err)
	}
	f := readerFile(t, b)
	for _, p := range parts {
		r := &partReader{f: f, part: p}
		got, err := io.ReadAll(io.NewSectionReader(r, 0, p.Size))
		if err != nil {
			t.Fatalf("reading email %d: %v", p.Index, err)
		}
		emails = append(emails, got)
	}
	return parts, emails
}

// readerFile writes b to a file of the test's and opens it.
func readerFile(t testing.TB, b []byte) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "box.mbox")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestSplitMailboxUndoesEachFormatsQuoting(t *testing.T) {
	for _, tc := range []struct {
		name, box string
		want      []string
		quoting   Quoting
	}{{
		name: "mboxrd takes one > off every quoted From line",
		box: "From a@example.com Mon Jan  1 00:00:00 2024\nFrom: a@example.com\nSubject: one\n\n" +
			">From the start\n>>From a quote\nplain >From\n\n" +
			"From b@example.com Mon Jan  1 00:00:00 2024\nFrom: b@example.com\nSubject: two\n\nbody two\n",
		want: []string{
			"From: a@example.com\nSubject: one\n\nFrom the start\n>From a quote\nplain >From\n",
			"From: b@example.com\nSubject: two\n\nbody two\n",
		},
	}, {
		name: "Thunderbird's mboxo unquotes >From only",
		box: "From - Mon Jan  1 00:00:00 2024\nX-Mozilla-Status: 0001\nFrom: a@example.com\nSubject: one\n\n" +
			">From the start\n>>From a quote\n\n" +
			"From - Mon Jan  1 00:00:00 2024\nX-Mozilla-Status: 0001\nSubject: two\n\nlast line without end",
		want: []string{
			"X-Mozilla-Status: 0001\nFrom: a@example.com\nSubject: one\n\nFrom the start\n>>From a quote\n",
			"X-Mozilla-Status: 0001\nSubject: two\n\nlast line without end",
		},
		quoting: QuotedO,
	}, {
		name: "CRLF lines, a From line inside a paragraph is no separator",
		box:  "From x\r\nSubject: one\r\n\r\nsee\r\nFrom here on\r\n\r\n\r\nFrom y\r\nSubject: two\r\n\r\nb\r\n\r\n",
		want: []string{
			"Subject: one\r\n\r\nsee\r\nFrom here on\r\n\r\n",
			"Subject: two\r\n\r\nb\r\n",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			parts, emails := split(t, []byte(tc.box))
			if len(emails) != len(tc.want) {
				t.Fatalf("%d emails, want %d: %q", len(emails), len(tc.want), emails)
			}
			for i := range emails {
				if string(emails[i]) != tc.want[i] {
					t.Errorf("email %d:\n got %q\nwant %q", i, emails[i], tc.want[i])
				}
				if parts[i].Quoting != tc.quoting {
					t.Errorf("email %d quoting %d, want %d", i, parts[i].Quoting, tc.quoting)
				}
				if parts[i].Index != i {
					t.Errorf("email %d has index %d", i, parts[i].Index)
				}
			}
		})
	}
}

func TestSplitMailboxReadsTakeoutLabels(t *testing.T) {
	box := "From 1234@xxx Mon Jan 01 00:00:00 +0000 2024\nX-GM-THRID: 1\nX-Gmail-Labels: Inbox,Important,\"Clients, ACME\",\n =?UTF-8?B?2YHZiNin2KrZitix?=\nFrom: a@example.com\n\nhi\n"
	parts, _ := split(t, []byte(box))
	want := []string{"Inbox", "Important", "Clients, ACME", "=?UTF-8?B?2YHZiNin2KrZitix?="}
	if len(parts) != 1 || !slices.Equal(parts[0].Labels, want) {
		t.Fatalf("labels %q, want %q", parts[0].Labels, want)
	}
}

func TestSplitMailboxRefusesAFileThatIsNoMailbox(t *testing.T) {
	err := SplitMailbox(context.Background(), strings.NewReader("Subject: hi\n\nFrom x\n"), func(MailboxEmail) error { return nil })
	if !errors.Is(err, ErrNotMailbox) {
		t.Fatalf("err = %v, want ErrNotMailbox", err)
	}
}

// A read anywhere in an email, in any order, gives the bytes a read from
// its start gives there: the uploader reads a chunk again after a cut.
func TestPartReaderReadsAtAnyOffset(t *testing.T) {
	var b strings.Builder
	b.WriteString("From x\nSubject: s\n\n")
	for i := range 3000 {
		if i%7 == 0 {
			b.WriteString(">>From quoted line\n")
		} else {
			b.WriteString("a line of the body, long enough to cross buffers\n")
		}
	}
	parts, emails := split(t, []byte(b.String()))
	whole := emails[0]
	if int64(len(whole)) != parts[0].Size || parts[0].Size == parts[0].Length {
		t.Fatalf("size %d, length %d, read %d", parts[0].Size, parts[0].Length, len(whole))
	}
	r := &partReader{f: readerFile(t, []byte(b.String())), part: parts[0]}
	for _, at := range []int64{90000, 5, 100000, 0, parts[0].Size - 10} {
		p := make([]byte, 7000)
		n, err := r.ReadAt(p, at)
		want := whole[at:min(at+7000, int64(len(whole)))]
		if !bytes.Equal(p[:n], want) {
			t.Fatalf("ReadAt(%d) gave other bytes", at)
		}
		if n < len(p) && !errors.Is(err, io.EOF) {
			t.Fatalf("short ReadAt(%d) without EOF: %v", at, err)
		}
	}
}

// An email of any length is handed over with at most headLimit bytes of
// it held: its bytes are counted as they pass.
func TestSplitMailboxHoldsNoEmailWhole(t *testing.T) {
	huge := io.MultiReader(strings.NewReader("From x\nSubject: big\n\n"), io.LimitReader(zeros{}, 200<<20), strings.NewReader("\n\nFrom y\nSubject: small\n\nb\n"))
	var parts []Part
	err := SplitMailbox(context.Background(), huge, func(m MailboxEmail) error {
		if len(m.Head) > headLimit {
			t.Errorf("head of %d bytes", len(m.Head))
		}
		parts = append(parts, m.Part)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 || parts[0].Size != int64(len("Subject: big\n\n"))+200<<20+1 {
		t.Fatalf("parts %+v", parts)
	}
}

// zeros is an endless line without an end: the worst a mailbox can hold.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// FuzzSplitMailbox: whatever a mailbox holds, splitting it ends without a
// panic, its emails lie in order inside the file, and each reads back as
// exactly as many bytes as the split counted (the reader of one email and
// the reader of the mailbox agree on every quoted line).
func FuzzSplitMailbox(f *testing.F) {
	for _, seed := range []string{
		"From a\nSubject: x\n\n>From y\n>>From z\n\nFrom b\n\n",
		"From - x\nX-Mozilla-Status: 1\n\n>From y\n>>From z\n",
		"From x\r\n\r\nFrom y\r\n\r\n\r\n",
		"From ",
		"From \n\nFrom \n\n",
		"not a mailbox\n",
		"From x\n" + strings.Repeat(">", quoteSpan+3) + "From y\n",
		"From x\nX-Gmail-Labels: \"a,b\",c\n\nbody",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var parts []Part
		err := SplitMailbox(context.Background(), bytes.NewReader(b), func(m MailboxEmail) error {
			parts = append(parts, m.Part)
			return nil
		})
		if err != nil {
			if !errors.Is(err, ErrNotMailbox) {
				t.Fatalf("error that is not ErrNotMailbox: %v", err)
			}
			return
		}
		file := readerFile(t, b)
		end := int64(0)
		for i, p := range parts {
			if p.Index != i || p.Offset < end || p.End() > int64(len(b)) || p.Size > p.Length || p.Size < 0 {
				t.Fatalf("email %d out of place: %+v after %d in %d bytes", i, p, end, len(b))
			}
			end = p.End()
			got, err := io.ReadAll(io.NewSectionReader(&partReader{f: file, part: p}, 0, p.Size+1))
			if err != nil || int64(len(got)) != p.Size {
				t.Fatalf("email %d read %d bytes (%v), split counted %d", i, len(got), err, p.Size)
			}
		}
	})
}
