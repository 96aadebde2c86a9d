package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"
)

// viewInfix names the private copies OpenView reads, beside the list.
const viewInfix = ".view-"

// ErrReadOnly is the answer of a change to a view (see OpenView).
var ErrReadOnly = errors.New("journal: this is a copy of the list for reading; it cannot be changed")

// OpenView opens, for reading only, the list at path as it was at one
// moment, beside the process that holds it (a running `hoist send`): it
// takes no lock and writes nothing to the list. A file copied while that
// process committed is copied again, so the view is never torn. Its
// changes return ErrReadOnly; Close removes the copy.
func OpenView(path string) (*Journal, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	data, err := stableCopy(abs)
	if err != nil {
		return nil, fmt.Errorf("journal: reading the list of uploads: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), filepath.Base(abs)+viewInfix+"*")
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	j := &Journal{path: tmp.Name(), opts: Options{}.withDefaults(), isView: true}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(j.path, fileMode)
	}
	if werr != nil {
		_ = os.Remove(j.path)
		return nil, j.classify(fmt.Errorf("journal: %w", werr))
	}
	var db *bbolt.DB
	err = safely(func() error {
		var err error
		db, err = bbolt.Open(j.path, fileMode, &bbolt.Options{ReadOnly: true, Timeout: time.Second})
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if err := inspect(db, j.path); err != nil {
			_ = db.Close()
			return err
		}
		return nil
	})
	if err != nil {
		_ = os.Remove(j.path)
		return nil, err
	}
	j.db = db
	return j, nil
}

// stableCopy reads the whole file at path so that no commit lands while it
// is read: bbolt writes a commit's pages where the last commit does not
// reach, then its meta page (one of the first two pages); a copy whose
// first two pages are still the same once it is read holds the last
// commit whole. A copy that changed under the reading is read again.
func stableCopy(path string) ([]byte, error) {
	var last error
	for try := 0; try < 500; try++ {
		if try > 0 {
			time.Sleep(time.Millisecond)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		head := metaSpan(data)
		if head == 0 {
			return data, nil // no list, or none bbolt wrote: Open says what it is
		}
		now, err := readHead(path, head)
		if err != nil {
			return nil, err
		}
		if bytes.Equal(now, data[:head]) {
			return data, nil
		}
		last = errors.New("the list kept changing while it was read")
	}
	return nil, last
}

// metaSpan is the length of a bbolt file's two meta pages, from the page
// size its first meta page gives; 0 when data is not that long or not a
// bbolt file.
func metaSpan(data []byte) int {
	// A page's header is 16 bytes; the meta's magic, version and page size follow.
	const magicAt, sizeAt, magic = 16, 24, 0xED0CDAED
	if len(data) < sizeAt+4 || binary.LittleEndian.Uint32(data[magicAt:]) != magic {
		return 0
	}
	size := int(binary.LittleEndian.Uint32(data[sizeAt:]))
	if size < 1024 || size > 1<<20 || len(data) < 2*size {
		return 0
	}
	return 2 * size
}

// readHead reads the first n bytes of the file at path.
func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return b, nil
}

// View reports whether j is a copy opened with OpenView.
func (j *Journal) View() bool { return j.isView }

// removeView removes a view's copy; the caller holds j.mu.
func (j *Journal) removeView() error {
	if err := os.Remove(j.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: removing a copy of the list: %w", err)
	}
	return nil
}

// staleView is how old a view's copy is when Open takes it for one that a
// process which read the list, and was stopped, left behind.
const staleView = 10 * time.Minute

// removeStaleViews removes the copies of the list at path that readers left
// behind; a copy being read now is younger.
func removeStaleViews(path string, now time.Time) {
	matches, _ := filepath.Glob(path + viewInfix + "*")
	for _, m := range matches {
		if info, err := os.Lstat(m); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > staleView {
			_ = os.Remove(m)
		}
	}
}
