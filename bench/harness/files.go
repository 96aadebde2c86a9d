package harness

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"

	"hoist/engine/crc32c"
)

// fileSet is the files of one workload, each workload in a folder of its own.
type fileSet struct {
	Name  string
	Dir   string
	Files []fileInfo
	Bytes int64
	made  bool // written (planned sets are written when a case first needs them)
}

type fileInfo struct {
	Path   string
	Size   int64
	SHA256 string
	CRC32C uint32
}

// remove deletes the set's files.
func (s *fileSet) remove() error { return os.RemoveAll(s.Dir) }

func (s *fileSet) paths() []string {
	out := make([]string, len(s.Files))
	for i, f := range s.Files {
		out[i] = f.Path
	}
	return out
}

// makeFiles writes count files of size bytes of random content (the same on
// every run of the harness) into dir/name, computing their SHA-256 on the way.
func makeFiles(dir, name string, count int, size int64) (*fileSet, error) {
	set := planFiles(dir, name, count, size)
	return set, set.make()
}

// planFiles is makeFiles's set, not written yet: make writes it.
func planFiles(dir, name string, count int, size int64) *fileSet {
	set := &fileSet{Name: name, Dir: filepath.Join(dir, name), Files: make([]fileInfo, count), Bytes: int64(count) * size}
	for i := range set.Files {
		set.Files[i] = fileInfo{Path: filepath.Join(set.Dir, fmt.Sprintf("%s-%04d.bin", name, i)), Size: size}
	}
	return set
}

// make writes the set's files, once: a run of a few cases writes only theirs.
func (set *fileSet) make() error {
	if set.made {
		return nil
	}
	if err := os.MkdirAll(set.Dir, 0o755); err != nil {
		return err
	}
	errs := make([]error, len(set.Files))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range set.Files {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f := &set.Files[i]
			f.SHA256, f.CRC32C, errs[i] = writeRandom(f.Path, f.Size, seedOf(set.Name, i))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	set.made = true
	return nil
}

func seedOf(name string, i int) [32]byte {
	var seed [32]byte
	copy(seed[:], name)
	binary.LittleEndian.PutUint64(seed[24:], uint64(i))
	return seed
}

func writeRandom(path string, size int64, seed [32]byte) (string, uint32, error) {
	f, err := os.Create(path)
	if err != nil {
		return "", 0, err
	}
	h, c := sha256.New(), crc32c.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h, c), 1<<20)
	if _, err := io.CopyN(w, rand.NewChaCha8(seed), size); err != nil {
		f.Close()
		return "", 0, err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return "", 0, err
	}
	if err := f.Close(); err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), c.Sum32(), nil
}
