// Package media says what a file is before it is uploaded: it expands folders
// into their files, detects the media type from content and extension, reads
// the headers of email files, fingerprints the bytes and opens the file for an
// upload that notices when the file changes underneath it.
package media

import (
	"errors"

	"hoist/engine/fact"
	"time"
)

// Info is what Hoist knows about one file at the moment it was inspected.
type Info struct {
	Path        string    // absolute path
	Name        string    // base name, as shown to the user
	Size        int64     // bytes
	ModTime     time.Time // last modification
	MIME        string    // media type without parameters, e.g. "image/png"
	Fingerprint string    // hex SHA-256 of size, first and last MiB; see Fingerprint
	Email       *Email    // headers of an email file; nil for other files
	// Part, for one email of a mailbox file (Path), is where it lies in
	// it; nil for a file that is sent whole. Size is then the email's.
	Part *Part
}

// FileSize is the file's own size: Size, but for an email made from the
// file (an Outlook item), whose Size is the email's.
func (i Info) FileSize() int64 {
	if i.Converted() {
		return i.Email.FileSize
	}
	return i.Size
}

func (i Info) onDisk() int64 { return i.FileSize() }

// Converted reports whether what is sent is made from the file (an Outlook
// item sent as an email), not the file's own bytes.
func (i Info) Converted() bool { return i.Email != nil && i.Email.FileSize > 0 }

// Empty reports whether the file has no bytes at all.
func (i Info) Empty() bool { return i.Size == 0 }

// Email is what an email file says about itself in its headers.
type Email struct {
	From    string    // "Display Name <address>" or just the address, decoded
	Subject string    // decoded
	Date    time.Time // zero when missing or unreadable
	// MessageID is the Message-ID header as written, angle brackets and
	// all; "" when the file has none.
	MessageID string
	// FileSize is, for an email made from another file (an Outlook item
	// sent as the email it is), that file's size; 0 when the email is the
	// file. It lives here, not in Info, so that every job stays small.
	FileSize int64
}

// Kinds of problems, for errors.Is. Every error from this package that is about
// a path is a Problem whose Message is a plain sentence.
var (
	ErrMissing    = errors.New("file does not exist")
	ErrUnreadable = errors.New("file cannot be read")
	ErrIsFolder   = errors.New("path is a folder")
	ErrEmpty      = errors.New("file is empty")
	ErrLoop       = errors.New("links lead in a circle")
	ErrNotRegular = errors.New("not a regular file")
	ErrNotEmail   = errors.New("not an email file")
)

// Problem is a path that cannot be used, with a sentence saying why.
type Problem struct {
	Path    string
	code    fact.Code // what Fact says
	detail  string    // what changed, for logs (a file changed since it was added)
	os      string    // the system's own reason, for fact.FileUnreadable
	special string    // fact.FileSpecial's kind
	kind    error     // one of the Err… values above, or upload.ErrFileChanged
	cause   error     // what the operating system said, if anything
}

// Error is the problem's fact, for logs; package words says it to people.
func (p *Problem) Error() string {
	if p.detail != "" {
		return p.Fact().String() + ": " + p.detail
	}
	return p.Fact().String()
}

// Fact is the problem as a fact, in no language.
func (p *Problem) Fact() fact.Fact {
	f := fact.Fact{Code: p.code, File: displayName(p.Path), Google: p.os}
	if f.Code == fact.FileSpecial {
		f.Args = map[string]string{"kind": p.special}
	}
	if f.Code == fact.OutlookTooLarge {
		f.Limit = maxOutlook
	}
	return f
}

// Unwrap lets errors.Is find both the kind of problem and its cause.
func (p *Problem) Unwrap() []error {
	var errs []error
	if p.kind != nil {
		errs = append(errs, p.kind)
	}
	if p.cause != nil {
		errs = append(errs, p.cause)
	}
	return errs
}

// Skipped is a file or folder that Expand left out on purpose.
type Skipped struct {
	Path string
	Fact fact.Fact // why, in no language: a hidden file, a system folder…
}
