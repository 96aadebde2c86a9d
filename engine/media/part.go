package media

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"sync"

	"hoist/engine/fact"
)

// Emails reads the mailbox file mailbox describes (an Info of Inspect's,
// of MIME MailboxType) as a stream and calls each with the Info of every
// email in it, in order: its Path the mailbox's, its Part where it lies, its
// Size its own, its MIME an email's and its Email what its headers say
// (nil when they are not an email's headers). An error from each
// ends the reading with it; a file that is not a mailbox is a Problem
// (fact.MailboxNotMailbox), as is one that changed while it was read.
func Emails(ctx context.Context, mailbox Info, each func(Info) error) error {
	f, err := os.Open(mailbox.Path)
	if err != nil {
		return problemFor(mailbox.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return problemFor(mailbox.Path, err)
	}
	if err := compareStat(mailbox, fi); err != nil {
		return err
	}
	// Only what it had when inspected is read: a mail program adding to it
	// meanwhile adds nothing half written.
	r := io.NewSectionReader(f, 0, mailbox.Size)
	err = SplitMailbox(ctx, r, func(m MailboxEmail) error {
		part := m.Part
		part.FileSize = mailbox.Size
		info := Info{
			Path:    mailbox.Path,
			Name:    mailbox.Name,
			Size:    part.Size,
			ModTime: mailbox.ModTime,
			MIME:    emailType, // what a mailbox holds; Email says whether it is one
			Part:    &part,
		}
		if e, err := parseEmail(m.Head, int64(len(m.Head)) < part.Length); err == nil {
			info.Email = e
		}
		return each(info)
	})
	switch {
	case errors.Is(err, ErrNotMailbox):
		return &Problem{Path: mailbox.Path, code: fact.MailboxNotMailbox, kind: ErrNotMailbox, cause: err}
	case err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) && isReadError(err):
		return readProblem(mailbox.Path, err)
	}
	return err
}

// isReadError reports whether err came from reading the file (not from
// the caller's each).
func isReadError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) || errors.Is(err, io.ErrUnexpectedEOF)
}

// partReader reads one email of a mailbox from the file, the quoting
// undone. Reads usually go forward (a request's body, then the next): a
// read where the last one ended goes on from there; one before it reads
// the email again from its start, so memory stays that of one buffer
// however the bytes are asked for.
type partReader struct {
	f    *os.File
	part Part

	mu  sync.Mutex
	u   *unquoter
	out int64 // where u stands, in the email as sent
}

func (r *partReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off >= r.part.Size {
		return 0, io.EOF
	}
	short := false
	if left := r.part.Size - off; int64(len(p)) > left {
		p, short = p[:left], true
	}
	if r.part.Size == r.part.Length {
		// Nothing was quoted: its bytes are the file's.
		n, err := r.f.ReadAt(p, r.part.Offset+off)
		if err != nil {
			return n, shortRead(err) // the file is shorter than when it was split
		}
		if short {
			return n, io.EOF
		}
		return n, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.u == nil || off < r.out {
		r.u = newUnquoter(io.NewSectionReader(r.f, r.part.Offset, r.part.Length), r.part.Quoting)
		r.out = 0
	}
	if off > r.out {
		n, err := io.CopyN(io.Discard, r.u, off-r.out)
		r.out += n
		if err != nil {
			r.u = nil
			return 0, shortRead(err)
		}
	}
	n, err := io.ReadFull(r.u, p)
	r.out += int64(n)
	if err != nil {
		r.u = nil
		return n, shortRead(err)
	}
	if short {
		return n, io.EOF
	}
	return n, nil
}

// checkPart says whether the email part describes is still in the file
// f, as it was: while the mailbox's size and modification time are
// unchanged, so is the email; when they changed (a mail program added to
// the mailbox, or compacted it), its bytes must be where they were, with
// the same checksum.
func checkPart(info Info, f *os.File, fi fs.FileInfo) error {
	part := info.Part
	if fi.Size() == part.FileSize && fi.ModTime().Equal(info.ModTime) {
		return nil
	}
	if fi.Size() < part.End() {
		return changedProblem(info, fmt.Sprintf("the mailbox is %d bytes, its email ended at %d", fi.Size(), part.End()))
	}
	h := crc32.New(castagnoli)
	if _, err := io.Copy(h, io.NewSectionReader(f, part.Offset, part.Length)); err != nil {
		return readProblem(info.Path, err)
	}
	if h.Sum32() != part.Sum {
		return changedProblem(info, "the email's bytes in the mailbox differ")
	}
	return nil
}

// emailOf reads the headers of the email info describes again.
func emailOf(info Info) (*Email, error) {
	f, err := os.Open(info.Path)
	if err != nil {
		return nil, problemFor(info.Path, err)
	}
	defer f.Close()
	r := &partReader{f: f, part: *info.Part}
	head := make([]byte, min(int64(headLimit), info.Part.Size))
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, readProblem(info.Path, err)
	}
	email, err := parseEmail(head[:n], int64(n) < info.Part.Size)
	if err != nil {
		return nil, nil
	}
	return email, nil
}

// InspectPart looks again at the email of a mailbox info describes (Retry,
// Restart): it must still lie where it was, with the same bytes; its
// headers are read again, and the mailbox's size and time are taken as
// they are now, so that a mailbox its mail program added to since reads
// as unchanged from here on.
func InspectPart(info Info) (Info, error) {
	f, err := os.Open(info.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return info, goneProblem(info, err)
		}
		return info, problemFor(info.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return info, problemFor(info.Path, err)
	}
	if err := checkPart(info, f, fi); err != nil {
		return info, err
	}
	part := *info.Part
	part.FileSize = fi.Size()
	info.Part, info.ModTime = &part, fi.ModTime()
	e, err := emailOf(info)
	if err != nil {
		return info, err
	}
	info.Email, info.MIME = e, emailType
	return info, nil
}
