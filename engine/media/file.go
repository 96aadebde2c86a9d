package media

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"hoist/engine/fact"
	"hoist/engine/upload"
)

// File is an inspected file opened for upload. It is an upload.Source and an
// upload.Checker: before every request the uploader asks whether the file is
// still the one that was inspected. ReadAt is safe for concurrent use.
type File struct {
	f    *os.File
	info Info
	// made is what is sent when it is made from the file (an Outlook item
	// as the email it is); nil: the file's own bytes are sent.
	made []byte
	// changed is the file's status change time when opened, where the
	// system keeps one: a write moves it, and unlike the modification time
	// it cannot be put back.
	changed time.Time
	// part reads one email of a mailbox file; nil for a file sent whole.
	part *partReader
	// seen is the mailbox's size and time when its email was last found
	// unchanged in it (see checkPart).
	seenMu   sync.Mutex
	seenSize int64
	seenTime time.Time
}

// Open opens the file info describes and checks that it has not changed since.
func Open(info Info) (*File, error) {
	f, err := os.Open(info.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, goneProblem(info, err)
		}
		return nil, problemFor(info.Path, err)
	}
	file := &File{f: f, info: info}
	if info.Part != nil {
		file.part = &partReader{f: f, part: *info.Part}
	}
	if err := file.Check(); err != nil {
		f.Close()
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && info.Part == nil {
		file.changed = changeTime(fi)
	}
	if info.Converted() {
		// The same file always makes the same email, so a session resumed
		// or an upload looked for finds the bytes it began with.
		made, err := convertOutlook(f, info)
		if err != nil {
			f.Close()
			return nil, err
		}
		if int64(len(made)) != info.Size {
			f.Close()
			return nil, changedProblem(info, fmt.Sprintf("made an email of %d bytes, not %d", len(made), info.Size))
		}
		file.made = made
	}
	return file, nil
}

// ReadAt reads bytes of the file at off (of the email made from it, for an
// Outlook item).
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if f.made != nil {
		if off >= int64(len(f.made)) {
			return 0, io.EOF
		}
		n := copy(p, f.made[off:])
		if n < len(p) {
			return n, io.EOF
		}
		return n, nil
	}
	if f.part != nil {
		return f.part.ReadAt(p, off)
	}
	return f.f.ReadAt(p, off)
}

// Size is the size the file had when it was inspected.
func (f *File) Size() int64 { return f.info.Size }

// Info is what was known of the file when it was inspected.
func (f *File) Info() Info { return f.info }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// Check returns an error wrapping upload.ErrFileChanged when the file's size
// or modification time differ from the inspected ones, or when the path now
// leads to another file or to nothing.
func (f *File) Check() error {
	open, err := f.f.Stat()
	if err != nil {
		return problemFor(f.info.Path, err)
	}
	if f.info.Part != nil {
		if err := f.checkPart(open); err != nil {
			return err
		}
	} else if err := compareStat(f.info, open); err != nil {
		return err
	}
	now, err := os.Stat(f.info.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return goneProblem(f.info, err)
		}
		return problemFor(f.info.Path, err)
	}
	if !os.SameFile(open, now) {
		return changedProblem(f.info, "replaced by another file")
	}
	if !f.changed.IsZero() && !changeTime(open).Equal(f.changed) {
		return changedProblem(f.info, writtenWhileSent)
	}
	return nil
}

// checkPart checks the email of a mailbox in the open file, reading its
// bytes again only when the mailbox changed since they were last found
// unchanged.
func (f *File) checkPart(fi fs.FileInfo) error {
	f.seenMu.Lock()
	defer f.seenMu.Unlock()
	if f.seenSize == fi.Size() && f.seenTime.Equal(fi.ModTime()) && !f.seenTime.IsZero() {
		return nil
	}
	if err := checkPart(f.info, f.f, fi); err != nil {
		return err
	}
	f.seenSize, f.seenTime = fi.Size(), fi.ModTime()
	return nil
}

// Verify checks, typically after a restart and before resuming, that the
// file at info.Path is still the one inspected: same size, modification time
// and fingerprint. A difference returns an error wrapping
// upload.ErrFileChanged that says what changed. An Info without a
// fingerprint is checked by size and time only.
func Verify(info Info) error {
	f, err := os.Open(info.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return goneProblem(info, err)
		}
		return problemFor(info.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return problemFor(info.Path, err)
	}
	if info.Part != nil {
		return checkPart(info, f, fi)
	}
	if err := compareStat(info, fi); err != nil {
		return err
	}
	if info.Fingerprint == "" {
		return nil
	}
	sum, err := Fingerprint(f, fi.Size())
	if err != nil {
		return readProblem(info.Path, err)
	}
	if sum != info.Fingerprint {
		return changedProblem(info, "contents differ")
	}
	return nil
}

func compareStat(info Info, fi fs.FileInfo) error {
	if fi.Size() != info.onDisk() {
		return changedProblem(info, fmt.Sprintf("size %d, now %d", info.onDisk(), fi.Size()))
	}
	if !fi.ModTime().Equal(info.ModTime) {
		return changedProblem(info, "saved again")
	}
	return nil
}

// writtenWhileSent is what changed when only the status change time tells.
const writtenWhileSent = "written to while sent"

// changedProblem is a file that changed since it was inspected; what
// changed is said in logs only.
func changedProblem(info Info, what string) *Problem {
	return &Problem{Path: info.Path, code: fact.FileChanged, detail: what, kind: upload.ErrFileChanged}
}

// goneProblem is a file that disappeared after it was inspected: both missing and changed.
func goneProblem(info Info, err error) *Problem {
	return &Problem{Path: info.Path, code: fact.FileMissing, kind: ErrMissing, cause: fmt.Errorf("%w: %w", upload.ErrFileChanged, err)}
}
