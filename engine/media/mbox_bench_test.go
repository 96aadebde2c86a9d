package media

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"testing"
)

// BenchmarkSplitMailbox splits mailboxes of 10,000 emails, from 20 MiB to
// 2 GiB, as a stream: the bytes allocated per split (B/op) and the most
// heap in use while it runs (peak-heap-MiB) stay the same whatever the
// mailbox's size, because only a reading buffer and one email's header
// are ever held. docs/benchmarks.md records a run.
func BenchmarkSplitMailbox(b *testing.B) {
	const emails = 10_000
	for _, total := range []int64{20 << 20, 200 << 20, 2 << 30} {
		b.Run(fmt.Sprintf("%dMiB", total>>20), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(total)
			var peak uint64
			for b.Loop() {
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				base := ms.HeapInuse
				n := 0
				err := SplitMailbox(context.Background(), newMailboxStream(emails, total/emails), func(m MailboxEmail) error {
					n++
					if n%500 == 0 {
						runtime.ReadMemStats(&ms)
						peak = max(peak, ms.HeapInuse-min(ms.HeapInuse, base))
					}
					return nil
				})
				if err != nil || n != emails {
					b.Fatalf("%d emails, %v", n, err)
				}
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// mailboxStream writes a mailbox of n emails of about size bytes each as
// it is read, holding none of it: one line in twenty of each body is a
// quoted "From " line.
type mailboxStream struct {
	n, i   int
	size   int64
	left   int64 // of the current email's body
	line   int
	header []byte
	pend   []byte
}

func newMailboxStream(n int, size int64) *mailboxStream {
	return &mailboxStream{n: n, size: size, left: -1}
}

var (
	bodyLine   = []byte("a line of an email's body, as long as most lines of text are, more or less.\n")
	quotedLine = []byte(">From a quoted line\n")
)

func (s *mailboxStream) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) {
		if len(s.pend) > 0 {
			c := copy(p[w:], s.pend)
			s.pend = s.pend[c:]
			w += c
			continue
		}
		if s.left <= 0 {
			if s.i == s.n {
				if w == 0 {
					return 0, io.EOF
				}
				return w, nil
			}
			sep := "\n"
			if s.i == 0 {
				sep = ""
			}
			s.header = fmt.Appendf(s.header[:0], "%sFrom sender@example.com Mon Jan  1 00:00:00 2024\nFrom: Sender <sender@example.com>\nTo: you@example.com\nSubject: Email %d\nMessage-ID: <%d@example.com>\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\n", sep, s.i, s.i)
			s.pend = s.header
			s.left = s.size - int64(len(s.header))
			s.i++
			continue
		}
		s.line++
		if s.line%20 == 0 {
			s.pend = quotedLine
		} else {
			s.pend = bodyLine
		}
		s.left -= int64(len(s.pend))
	}
	return w, nil
}
