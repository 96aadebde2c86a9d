package engine

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sendingLog is a small file beside the list of uploads in which a
// one-request upload is noted, with one write synced to the disk, just
// before its body goes out and again just before its last bytes do
// ("S <job> <unix nanoseconds>"), and noted again once that doubt is
// settled ("C <job>"). A Hoist killed (or a machine that loses power)
// while it waits for an answer leaves the note behind, and the upload is
// looked for, not sent again, when it is resumed (see
// upload.Observer.Doubt). The list itself is written in transactions
// synced to the disk too, but with more to write: waiting for one before
// every small file would halve how many go per second. When the queue stops an upload it writes the
// job's record, doubt and all, so the notes matter only after a kill; Open
// reads them into the jobs, writes them to the list, and starts the file
// afresh.
type sendingLog struct {
	path string

	mu      sync.Mutex
	f       *os.File
	lines   int                 // lines in the file
	pending map[JobID]time.Time // noted and not yet settled
	broken  bool                // a write failed: notes are no longer taken
}

// sendingSuffix names the notes' file beside the list's.
const sendingSuffix = ".sending"

// tidyLines is how long the file grows before it starts afresh, when no
// upload is in doubt.
const tidyLines = 4096

// openSendingLog reads the notes a killed Hoist left beside the list at
// listPath: each job in doubt and when it went out. The file stays to be
// written; start makes it afresh once the notes are in the list.
func openSendingLog(listPath string) (*sendingLog, map[JobID]time.Time) {
	l := &sendingLog{path: listPath + sendingSuffix, pending: map[JobID]time.Time{}}
	found := map[JobID]time.Time{}
	f, err := os.Open(l.path)
	if err != nil {
		return l, found
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 3 && fields[0] == "S":
			if ns, err := strconv.ParseInt(fields[2], 10, 64); err == nil {
				found[JobID(fields[1])] = time.Unix(0, ns)
			}
		case len(fields) == 2 && fields[0] == "C":
			delete(found, JobID(fields[1]))
		}
	}
	return l, found
}

// start opens the file for notes: emptied when its notes are kept in the
// list by now (fresh), else added to.
func (l *sendingLog) start(fresh bool) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if fresh {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(l.path, flags, 0o600)
	if err == nil {
		// The file's name is on the disk before a note in it is relied on.
		err = syncDir(filepath.Dir(l.path))
		if err != nil {
			_ = f.Close()
		}
	}
	if err != nil {
		l.broken = true
		return fmt.Errorf("the notes of uploads under way could not be started: %w", err)
	}
	l.f, l.lines = f, 0
	return nil
}

// syncDir puts a folder's entries on the disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && runtime.GOOS != "windows" {
		return err // Windows cannot sync a folder; its file system keeps the name with the file's data
	}
	return nil
}

// note says the job's body is about to go out (sent) or that its doubt is
// settled (zero sent).
func (l *sendingLog) note(id JobID, sent time.Time) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.broken {
		return nil
	}
	_, had := l.pending[id]
	var line string
	switch {
	case !sent.IsZero():
		line = "S " + string(id) + " " + strconv.FormatInt(sent.UnixNano(), 10) + "\n"
		if len(l.pending) == 0 {
			l.tidy()
		}
		l.pending[id] = sent
	case had:
		line = "C " + string(id) + "\n"
		delete(l.pending, id)
		if len(l.pending) == 0 && l.tidy() {
			return nil // nothing in doubt: the settling note is not needed
		}
	default:
		return nil // nothing noted: nothing to settle
	}
	_, err := l.f.WriteString(line)
	if err == nil && !sent.IsZero() {
		// On the disk before the body goes: a power cut while the answer
		// is awaited must not lose it. A lost settling note costs only a look.
		err = l.f.Sync()
	}
	if err != nil {
		l.broken = true
		return fmt.Errorf("a note of an upload under way could not be written: %w", err)
	}
	l.lines++
	return nil
}

// usable reports whether notes are taken: the file is open and writes to
// it succeed. Without it, the list must hold a doubt before the body goes.
func (l *sendingLog) usable() bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.f != nil && !l.broken
}

// tidy empties a long file while nothing is in doubt; l.mu must be held.
func (l *sendingLog) tidy() bool {
	if l.lines < tidyLines {
		return false
	}
	if err := l.f.Truncate(0); err != nil {
		return false
	}
	l.lines = 0
	return true
}

// close closes the file; a queue that closed cleanly wrote every doubt
// into the list, so the file goes.
func (l *sendingLog) close(clean bool) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
	if clean {
		if err := os.Remove(l.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
}
