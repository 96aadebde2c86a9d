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
	set := &fileSet{Name: name, Dir: filepath.Join(dir, name)}
	if err := os.MkdirAll(set.Dir, 0o755); err != nil {
		return nil, err
	}
	set.Files = make([]fileInfo, count)
	errs := make([]error, count)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i := range count {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			path := filepath.Join(set.Dir, fmt.Sprintf("%s-%04d.bin", name, i))
			sum, crc, err := writeRandom(path, size, seedOf(name, i))
			set.Files[i], errs[i] = fileInfo{Path: path, Size: size, SHA256: sum, CRC32C: crc}, err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	set.Bytes = int64(count) * size
	return set, nil
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
