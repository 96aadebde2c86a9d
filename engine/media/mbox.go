package media

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"path/filepath"
	"strings"
)

// A mailbox file (.mbox) holds many emails one after another, each after a
// line "From sender date" that stands at the file's start or after an empty
// line. Lines of an email that began with "From " were quoted when it was
// written, so that they are not taken for the next email's start: how,
// depends on the program that wrote it (Quoting).
//
// The file is read once, as a stream, and each email is handed over as where
// its bytes lie (MailboxEmail): memory stays flat in the file's size, however
// large the file or any one email in it. Its bytes are read again from the
// file when it is sent (OpenPart), the quoting undone on the way.

// Quoting is how a mailbox quoted the lines of its emails that began with "From ".
type Quoting uint8

const (
	// QuotedRD (mboxrd, and Google Takeout): every line of ">"s followed by
	// "From " got one ">" more; one is taken off again.
	QuotedRD Quoting = iota
	// QuotedO (mboxo, Thunderbird's): only "From " got a ">"; ">From "
	// becomes "From " again, and ">>From " stays as it is.
	QuotedO
)

// quoteSpan is how far into a line its quoting is looked for: a line of
// more ">"s than that is taken as it is, by the reader of the mailbox and by
// the reader of one email alike.
const quoteSpan = 4 << 10

// mailboxBuffer is the reading buffer of a mailbox: the longest piece of a
// line held at once, whatever the length of the line.
const mailboxBuffer = 64 << 10

// ErrNotMailbox: a file named as a mailbox whose first line is not the
// "From " line a mailbox starts with.
var ErrNotMailbox = errors.New("not a mailbox file")

// MailboxEmail is one email of a mailbox file, as SplitMailbox finds it.
type MailboxEmail struct {
	Part
	// Head is the email's header block (at most headLimit bytes), valid only
	// during the call that hands it over.
	Head []byte
}

// Part is where one email of a mailbox file lies, which is all that is
// needed to read it again.
type Part struct {
	Index   int     // its place in the mailbox, from 0
	Offset  int64   // its first byte in the file (after its "From " line)
	Length  int64   // its bytes in the file, quoted as they are there
	Size    int64   // its bytes as sent, the quoting undone
	Quoting Quoting // how the mailbox quoted it
	// Sum is the CRC-32C (Castagnoli) of its bytes in the file: what tells
	// that the email is still the one queued when the mailbox around it
	// was written to (a mail program adds to its mailboxes).
	Sum uint32
	// FileSize is the mailbox file's size when it was split: while it is
	// unchanged, so is the email.
	FileSize int64
	// Labels are the Gmail labels Google Takeout wrote beside it
	// (X-Gmail-Labels); nil for other mailboxes.
	Labels []string
}

// End is the offset just past the email's bytes in the file.
func (p Part) End() int64 { return p.Offset + p.Length }

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// LooksLikeMailbox reports whether a file of this name starting with head
// is a mailbox file: named .mbox or .mbx, or (as Thunderbird keeps its
// folders) without an extension, starting with a "From " line followed by
// an email's header.
func LooksLikeMailbox(name string, head []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".mbox", ".mbx":
		return true
	case "":
	default:
		return false
	}
	if !bytes.HasPrefix(head, []byte("From ")) {
		return false
	}
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		return false
	}
	line := head[i+1:]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	colon := bytes.IndexByte(line, ':')
	return colon > 0 && !bytes.ContainsAny(line[:colon], " \t")
}

// SplitMailbox reads the mailbox r as a stream and calls each for every
// email in it, in order; an error from each ends the reading with it. An
// error wrapping ErrNotMailbox says r does not start as a mailbox does.
// Only the reading buffer and one email's header block are held at once.
func SplitMailbox(ctx context.Context, r io.Reader, each func(MailboxEmail) error) error {
	s := splitter{
		br:        bufio.NewReaderSize(r, mailboxBuffer),
		each:      each,
		lineStart: true,
		head:      make([]byte, 0, 4<<10),
	}
	return s.run(ctx)
}

type splitter struct {
	br   *bufio.Reader
	each func(MailboxEmail) error

	pos       int64 // offset of the next byte read
	lineStart bool  // the next piece starts a line
	inFrom    bool  // within a "From " line: its bytes belong to no email
	// blank is the empty line just read, held back: it ends the email
	// when a "From " line follows, and belongs to it otherwise.
	blank    []byte
	blankBuf [2]byte

	quoting Quoting
	decided bool // quoting was decided from the first email's header

	in       bool // within an email
	index    int
	cur      Part
	crc      uint32
	head     []byte
	headDone bool
}

func (s *splitter) run(ctx context.Context) error {
	for {
		piece, err := s.br.ReadSlice('\n')
		full := errors.Is(err, bufio.ErrBufferFull)
		if len(piece) > 0 {
			if s.pos == 0 && !bytes.HasPrefix(piece, []byte("From ")) {
				return fmt.Errorf("%w: its first line is not a \"From \" line", ErrNotMailbox)
			}
			if e := s.piece(piece, !full); e != nil {
				return e
			}
		}
		if full {
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if s.index%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
	}
	if s.in {
		return s.emit(s.pos - int64(len(s.blank)))
	}
	return nil
}

// piece takes the next bytes of the file: a whole line or its end (ends),
// or a part of one as long as the buffer.
func (s *splitter) piece(p []byte, ends bool) error {
	start := s.lineStart
	at := s.pos
	s.pos += int64(len(p))
	s.lineStart = ends
	if start && (at == 0 || s.blank != nil) && bytes.HasPrefix(p, []byte("From ")) {
		if s.in {
			if err := s.emit(at - int64(len(s.blank))); err != nil {
				return err
			}
		}
		s.blank = nil
		s.inFrom = !ends
		s.begin(s.pos)
		return nil
	}
	if s.inFrom {
		s.inFrom = !ends
		s.cur.Offset, s.cur.Length = s.pos, 0
		return nil
	}
	if s.blank != nil {
		s.add(s.blank)
		s.blank = nil
	}
	if start && ends && isBlankLine(p) {
		s.blank = s.blankBuf[:copy(s.blankBuf[:], p)]
		return nil
	}
	if start && len(p) > 0 && p[0] == '>' && quoted(p, s.quotingNow()) {
		s.cur.Size--
	}
	s.add(p)
	return nil
}

func isBlankLine(p []byte) bool {
	return len(p) == 1 && p[0] == '\n' || len(p) == 2 && p[0] == '\r' && p[1] == '\n'
}

// begin starts an email at off.
func (s *splitter) begin(off int64) {
	s.in = true
	s.cur = Part{Index: s.index, Offset: off}
	s.crc = 0
	s.head = s.head[:0]
	s.headDone = false
}

// add counts bytes of the current email.
func (s *splitter) add(p []byte) {
	if !s.in {
		return
	}
	s.cur.Length += int64(len(p))
	s.cur.Size += int64(len(p))
	s.crc = crc32.Update(s.crc, castagnoli, p)
	if s.headDone {
		return
	}
	if isBlankLine(p) && (len(s.head) == 0 || s.head[len(s.head)-1] == '\n') {
		s.headDone = true // the header ends at its first empty line
		s.decide()
		return
	}
	room := headLimit - len(s.head)
	if len(p) >= room {
		s.head = append(s.head, p[:room]...)
		s.headDone = true
		s.decide()
		return
	}
	s.head = append(s.head, p...)
}

// decide settles the mailbox's quoting from its first email's header:
// Thunderbird marks the emails it keeps with X-Mozilla-Status, and quotes
// as mboxo does.
func (s *splitter) decide() {
	if s.decided {
		return
	}
	s.decided = true
	if hasHeader(s.head, "X-Mozilla-Status") {
		s.quoting = QuotedO
	}
}

// quotingNow is the quoting, decided at the latest now.
func (s *splitter) quotingNow() Quoting {
	s.decide()
	return s.quoting
}

// emit hands the current email over, its bytes ending at end.
func (s *splitter) emit(end int64) error {
	s.in = false
	if s.cur.Length == 0 && end == s.cur.Offset {
		return nil // a "From " line with nothing under it is no email
	}
	s.index++
	s.cur.Sum = s.crc
	s.cur.Quoting = s.quotingNow()
	if s.cur.Length != end-s.cur.Offset {
		// Every byte between its start and end went through add.
		return fmt.Errorf("mailbox split lost count at %d", end)
	}
	s.cur.Labels = gmailLabels(s.head)
	return s.each(MailboxEmail{Part: s.cur, Head: s.head})
}

// quoted reports whether a line starting with p is a quoted "From " line,
// looking no further than quoteSpan.
func quoted(p []byte, q Quoting) bool {
	p = p[:min(len(p), quoteSpan)]
	if q == QuotedO {
		return bytes.HasPrefix(p, []byte(">From "))
	}
	n := 0
	for n < len(p) && p[n] == '>' {
		n++
	}
	return n > 0 && bytes.HasPrefix(p[n:], []byte("From "))
}

// hasHeader reports whether the header block head has a field named name.
func hasHeader(head []byte, name string) bool {
	_, ok := headerValue(head, name)
	return ok
}

// headerValue is the value of the first field named name in the header
// block head, its folded lines joined.
func headerValue(head []byte, name string) (string, bool) {
	var val []byte
	found := false
	for line := range bytes.Lines(head) {
		if found {
			if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
				val = append(val, ' ')
				val = append(val, bytes.TrimSpace(line)...)
				continue
			}
			break
		}
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(k), name) {
			found = true
			val = append(val, bytes.TrimSpace(v)...)
		}
	}
	return string(val), found
}

// gmailLabels are the labels Google Takeout wrote in X-Gmail-Labels
// (comma-separated, a name holding a comma in double quotes); nil when
// there are none.
func gmailLabels(head []byte) []string {
	v, ok := headerValue(head, "X-Gmail-Labels")
	if !ok {
		return nil
	}
	v = raw8bit(v, "utf-8")
	var out []string
	var b strings.Builder
	inQuote := false
	flush := func() {
		if l := strings.TrimSpace(b.String()); l != "" {
			out = append(out, l)
		}
		b.Reset()
	}
	for _, r := range v {
		switch {
		case r == '"':
			inQuote = !inQuote
		case r == ',' && !inQuote:
			flush()
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return out
}

// unquoter reads one email of a mailbox from its bytes in the file, with
// the quoting undone.
type unquoter struct {
	br        *bufio.Reader
	q         Quoting
	lineStart bool
	rest      []byte // what was read of the current piece and not yet given
	err       error
}

func newUnquoter(r io.Reader, q Quoting) *unquoter {
	return &unquoter{br: bufio.NewReaderSize(r, mailboxBuffer), q: q, lineStart: true}
}

func (u *unquoter) Read(p []byte) (int, error) {
	if len(u.rest) == 0 {
		if u.err != nil {
			return 0, u.err
		}
		if u.lineStart {
			if peek, _ := u.br.Peek(quoteSpan); quoted(peek, u.q) {
				_, _ = u.br.Discard(1)
			}
		}
		line, err := u.br.ReadSlice('\n')
		u.lineStart = err == nil
		if errors.Is(err, bufio.ErrBufferFull) {
			err = nil
		}
		u.rest, u.err = line, err
		if len(line) == 0 {
			return 0, err
		}
	}
	n := copy(p, u.rest)
	u.rest = u.rest[n:]
	return n, nil
}
