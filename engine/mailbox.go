package engine

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// A mailbox file (.mbox) sent to a destination that takes emails one at a
// time (Gmail) is its emails: each is a job of its own, whose file is the
// mailbox and whose Part says where the email lies in it. Each is then
// sent, paused, resumed, looked for after a lost answer (by its own
// Message-ID) and finished as any email file is, so a run stopped in the
// middle of a mailbox, even killed, goes on at its first email not yet
// sent, and none is sent twice. The mailbox is read once, as a stream,
// when it is added; each email's bytes are read from it again when sent.

// MaxMailboxEmails is the most emails one mailbox adds to the list unless
// Options.MailboxEmails says otherwise: a list of that many uploads is
// what the window is measured with.
const MaxMailboxEmails = 100_000

// errMailboxFull ends the reading of a mailbox at its most emails.
var errMailboxFull = errors.New("the mailbox holds more emails than one adds")

// mayBeMailbox reports whether the file at path may be a mailbox, by its
// name: named .mbox or .mbx, or without an extension, as Thunderbird keeps
// its folders (its content then decides).
func mayBeMailbox(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mbox", ".mbx", "":
		return true
	}
	return false
}

// addMailboxes takes the mailbox files out of files, when d takes emails
// one at a time, and lists their emails; the rest of files are returned to
// be added as they are. false when the queue is closing.
func (ac *actions) addMailboxes(res *AddResult, files []string, sent sentIndex, d dest.Destination, now time.Time, method upload.Method) ([]string, bool) {
	if !d.Kind.Info().Emails {
		return files, true
	}
	rest := files[:0:0]
	for _, path := range files {
		if !mayBeMailbox(path) {
			rest = append(rest, path)
			continue
		}
		info, err := media.Inspect(path)
		if err != nil || info.MIME != media.MailboxType {
			rest = append(rest, path) // said as any file is
			continue
		}
		ac.mu.Lock()
		dup := ac.unfinishedLocked().duplicate(info.Path, d)
		ac.mu.Unlock()
		if dup != "" {
			res.Problems = append(res.Problems, &AlreadyQueued{Name: info.Name, Dest: d, Job: dup})
			continue
		}
		if !ac.addMailbox(res, info, sent, d, now, method) {
			return nil, false
		}
	}
	return rest, true
}

// addMailbox lists the emails of the mailbox file mailbox for d, in
// batches as Add lists files, each email checked against d's rules (one
// larger than d takes is refused before a byte of it is read again); false
// when the queue is closing. Its emails that went whole to d before (in
// sent) are left out and said once, for the mailbox: the whole mailbox, or
// how many of its emails, when it grew since.
func (ac *actions) addMailbox(res *AddResult, mailbox media.Info, sent sentIndex, d dest.Destination, now time.Time, method upload.Method) bool {
	var (
		paths   []string
		looks   []*inspection
		size    = firstAddBatch
		count   int
		closed  bool
		most    = cmp.Or(ac.opts.MailboxEmails, MaxMailboxEmails)
		prev    *AlreadySent // the latest upload of its emails left out
		skipped int          // its emails left out, as sent before
	)
	flush := func() bool {
		if len(looks) == 0 {
			return true
		}
		ok := ac.listBatch(res, paths, looks, nil, nil, nil, d, now)
		paths, looks = paths[:0], looks[:0]
		return ok
	}
	err := media.Emails(context.Background(), mailbox, func(email media.Info) error {
		if count == most {
			return errMailboxFull
		}
		count++
		look := &inspection{info: email, read: true, err: checkFile(d, email, method)}
		if p := sent.find(email, d); p != nil && look.err == nil && !replaces(d, email) {
			skipped++
			if prev == nil || p.Finished.After(prev.Finished) {
				prev = p
			}
			return nil
		}
		paths = append(paths, mailbox.Path)
		looks = append(looks, look)
		if len(looks) < size {
			return nil
		}
		size = min(2*size, maxAddBatch)
		if !flush() {
			closed = true
			return errClosingAdd
		}
		return nil
	})
	if closed || !flush() {
		return false
	}
	if prev != nil {
		already := &AlreadySent{Name: mailbox.Name, Path: mailbox.Path, Dest: d, Job: prev.Job, Finished: prev.Finished}
		if skipped < count {
			already.Emails = skipped // the others are listed
		}
		res.Problems = append(res.Problems, already)
	}
	var problem *media.Problem
	switch {
	case errors.Is(err, errMailboxFull):
		res.Problems = append(res.Problems, &factError{fact.Fact{Code: fact.MailboxTooMany, File: mailbox.Name, Count: most}})
	case err != nil && count == 0 && errors.As(err, &problem):
		// Nothing of it is listed: its row says why.
		return ac.listBatch(res, nil, nil, []*media.Problem{problem}, nil, nil, d, now)
	case err != nil:
		res.Problems = append(res.Problems, err)
	case count == 0:
		look := &inspection{info: mailbox, read: true, err: &factError{fact.Fact{Code: fact.MailboxEmpty}}}
		return ac.listBatch(res, []string{mailbox.Path}, []*inspection{look}, nil, nil, nil, d, now)
	}
	return true
}
