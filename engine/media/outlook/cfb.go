package outlook

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/richardlehane/mscfb"
)

// storage is one folder of the compound file: the message itself, a
// recipient, an attachment or a message attached to another.
type storage struct {
	streams  map[string]*mscfb.File // by name, upper case
	children map[string]*storage    // by name, upper case
	r        *reader
}

// reader reads the streams of one compound file within a budget: a
// damaged file may claim streams larger than itself, or name the same
// sectors from many entries, and none of that may cost unbounded memory.
type reader struct {
	left int64 // bytes still allowed to be read from streams
	size int64 // the whole file's size: no stream is larger
}

// openStorage reads the compound file's directory into a tree.
func openStorage(ra io.ReaderAt, size int64, budget int64) (root *storage, err error) {
	defer func() {
		// The compound file reader is not ours; a file it trips over is a
		// damaged file, not a crash.
		if p := recover(); p != nil {
			root, err = nil, fmt.Errorf("%w: the compound file reader failed: %v", ErrDamaged, p)
		}
	}()
	doc, err := mscfb.New(ra)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	rd := &reader{left: budget, size: size}
	root = &storage{streams: map[string]*mscfb.File{}, children: map[string]*storage{}, r: rd}
	for i, f := range doc.File {
		if i == 0 {
			continue // the root entry itself
		}
		parent := root
		for _, name := range f.Path {
			child := parent.children[strings.ToUpper(name)]
			if child == nil {
				child = &storage{streams: map[string]*mscfb.File{}, children: map[string]*storage{}, r: rd}
				parent.children[strings.ToUpper(name)] = child
			}
			parent = child
		}
		key := strings.ToUpper(f.Name)
		if f.FileInfo().IsDir() {
			if parent.children[key] == nil {
				parent.children[key] = &storage{streams: map[string]*mscfb.File{}, children: map[string]*storage{}, r: rd}
			}
			continue
		}
		parent.streams[key] = f
	}
	return root, nil
}

// errTooBig: the streams read add up to more than the message may hold.
var errTooBig = errors.New("the message's parts add up to more than Hoist converts")

// stream reads a whole stream; nil, nil when there is none of that name.
func (s *storage) stream(name string) (b []byte, err error) {
	f := s.streams[strings.ToUpper(name)]
	if f == nil {
		return nil, nil
	}
	defer func() {
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("%w: reading %s: %v", ErrDamaged, name, p)
		}
	}()
	n := f.Size
	if n <= 0 {
		return []byte{}, nil
	}
	if n > s.r.size {
		return nil, fmt.Errorf("%w: stream %s says %d bytes in a file of %d", ErrDamaged, name, n, s.r.size)
	}
	if n > s.r.left {
		return nil, fmt.Errorf("%w: %w", ErrTooLarge, errTooBig)
	}
	s.r.left -= n
	b = make([]byte, 0, n)
	buf := make([]byte, min(n, 64<<10))
	for int64(len(b)) < n {
		want := min(int64(len(buf)), n-int64(len(b)))
		k, err := f.Read(buf[:want])
		b = append(b, buf[:k]...)
		if err == io.EOF && int64(len(b)) == n {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%w: reading %s: %w", ErrDamaged, name, err)
		}
		if k == 0 {
			return nil, fmt.Errorf("%w: reading %s: no progress", ErrDamaged, name)
		}
	}
	return b, nil
}

// child is the storage of that name, or nil.
func (s *storage) child(name string) *storage { return s.children[strings.ToUpper(name)] }

// numbered are the storages whose names start with prefix ("__recip_version1.0_#"),
// in the order of their numbers.
func (s *storage) numbered(prefix string) []*storage {
	prefix = strings.ToUpper(prefix)
	var names []string
	for name := range s.children {
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	sortStrings(names) // the numbers are 8 hex digits, so text order is number order
	out := make([]*storage, len(names))
	for i, n := range names {
		out[i] = s.children[n]
	}
	return out
}
