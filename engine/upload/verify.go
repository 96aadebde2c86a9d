package upload

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"strings"
	"sync"

	"hoist/engine/crc32c"
)

// What Result.Verified names: the strongest account of the object the
// server gave that matched the file.
const (
	VerifiedCRC32C = "crc32c" // Cloud Storage's crc32c, the sandbox's
	VerifiedMD5    = "md5"    // Cloud Storage's md5Hash, Drive's md5Checksum
	VerifiedSHA256 = "sha256" // Drive's sha256Checksum, the sandbox's sha256Hash
	VerifiedSize   = "size"   // only the size was given, and it matched
)

var (
	// ErrIncomplete: the server said the upload was complete while it had
	// fewer bytes than the file (matched by *IncompleteError).
	ErrIncomplete = errors.New("the server says the upload is complete but it does not have the whole file")
	// ErrMismatch: the server's own account of the object (size or checksum)
	// differs from the file (matched by *MismatchError).
	ErrMismatch = errors.New("the server's copy is not the same as the file")
)

// IncompleteError is a premature "complete": the server insists it is done
// with Received of Size bytes.
type IncompleteError struct {
	Received, Size int64
	Body           []byte // the server's answer: what it made of the bytes it has
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("the server says the upload is complete but it received only %d of %d bytes", e.Received, e.Size)
}

func (e *IncompleteError) Is(target error) bool { return target == ErrIncomplete }

// MismatchError says which of the server's values differs from the file's.
type MismatchError struct {
	Check        string // "size", "crc32c", "md5" or "sha256"
	Server, File string // the two values, as the server writes them
	Body         []byte // the server's answer: the copy that is not the file
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("the server's copy is not the same as the file: its %s is %s, the file's is %s", e.Check, e.Server, e.File)
}

func (e *MismatchError) Is(target error) bool { return target == ErrMismatch }

// account is what a final answer says of the stored object, in the fields
// Cloud Storage, Drive and the sandbox use.
type account struct {
	Size           flexSize `json:"size"`
	CRC32C         string   `json:"crc32c"`         // Cloud Storage: base64 of the big-endian value
	MD5Hash        string   `json:"md5Hash"`        // Cloud Storage: base64
	MD5Checksum    string   `json:"md5Checksum"`    // Drive: hex
	SHA256Checksum string   `json:"sha256Checksum"` // Drive: hex
	SHA256Hash     string   `json:"sha256Hash"`     // the sandbox: hex
}

// flexSize is a size written as a JSON number or string; -1 when absent.
type flexSize int64

func (s *flexSize) UnmarshalJSON(b []byte) error {
	v := strings.Trim(string(b), `"`)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		*s = -1
		return nil //nolint:nilerr // a size that is not a number is no account at all
	}
	*s = flexSize(n)
	return nil
}

// maxAccount bounds an answer read for the object's account: a resource
// is a few kilobytes, and a larger body is not one.
const maxAccount = 1 << 20

func readAccount(body []byte) account {
	a := account{Size: -1}
	if len(body) > maxAccount {
		return a
	}
	if err := json.Unmarshal(body, &a); err != nil {
		return account{Size: -1}
	}
	return a
}

// fileSum follows the file's bytes as they are read for sending, in order
// from byte 0, so the CRC32C of a file sent from its start costs no second
// read. Bytes read again (a retry) are not counted twice; a gap (a resume
// from the middle) is filled from the file when the sum is asked for.
type fileSum struct {
	mu   sync.Mutex
	crc  uint32
	upTo int64 // the sum covers bytes [0, upTo)
}

// add takes bytes b read at offset off.
func (s *fileSum) add(off int64, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	end := off + int64(len(b))
	if off > s.upTo || end <= s.upTo {
		return
	}
	s.crc = crc32c.Update(s.crc, b[s.upTo-off:])
	s.upTo = end
}

// sumBlock is the read size of a pass over the file.
const sumBlock = 1 << 20

// crc32c completes the sum from the file and returns it.
func (s *fileSum) crc32c(src Source) (uint32, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.upTo < src.Size() {
		crc, err := continueCRC(s.crc, src, s.upTo)
		if err != nil {
			return 0, err
		}
		s.crc, s.upTo = crc, src.Size()
	}
	return s.crc, nil
}

func continueCRC(crc uint32, src Source, from int64) (uint32, error) {
	buf := make([]byte, sumBlock)
	r := io.NewSectionReader(src, from, src.Size()-from)
	for {
		n, err := r.Read(buf)
		crc = crc32c.Update(crc, buf[:n])
		if err == io.EOF {
			return crc, nil
		}
		if err != nil {
			return 0, fmt.Errorf("%w: it could not be read: %w", ErrFileChanged, err)
		}
	}
}

// hashFile is a pass over the whole file with h.
func hashFile(src Source, h hash.Hash) ([]byte, error) {
	if _, err := io.CopyBuffer(h, io.NewSectionReader(src, 0, src.Size()), make([]byte, sumBlock)); err != nil {
		return nil, fmt.Errorf("%w: it could not be read: %w", ErrFileChanged, err)
	}
	return h.Sum(nil), nil
}

// verify compares the server's account of the object with the file and
// returns what matched: the cheapest checksum given (CRC32C, which sending
// from byte 0 already computed; else MD5 or SHA-256 in a pass over the
// file), or the size alone, or "" when the answer says nothing of either.
func (r *run) verify(body []byte) (string, error) {
	a := readAccount(body)
	if a.Size >= 0 && int64(a.Size) != r.size {
		if int64(a.Size) < r.size {
			return "", &IncompleteError{Received: int64(a.Size), Size: r.size}
		}
		return "", &MismatchError{Check: VerifiedSize, Server: strconv.FormatInt(int64(a.Size), 10), File: strconv.FormatInt(r.size, 10)}
	}
	switch {
	case a.CRC32C != "":
		got, err := r.sum.crc32c(r.src)
		if err != nil {
			return "", err
		}
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], got)
		return compareSum(VerifiedCRC32C, a.CRC32C, b[:], base64.StdEncoding.DecodeString, base64.StdEncoding.EncodeToString)
	case a.MD5Hash != "" || a.MD5Checksum != "":
		got, err := hashFile(r.src, md5.New())
		if err != nil {
			return "", err
		}
		if a.MD5Hash != "" {
			return compareSum(VerifiedMD5, a.MD5Hash, got, base64.StdEncoding.DecodeString, base64.StdEncoding.EncodeToString)
		}
		return compareSum(VerifiedMD5, a.MD5Checksum, got, hex.DecodeString, hex.EncodeToString)
	case a.SHA256Checksum != "" || a.SHA256Hash != "":
		got, err := hashFile(r.src, sha256.New())
		if err != nil {
			return "", err
		}
		server := a.SHA256Checksum
		if server == "" {
			server = a.SHA256Hash
		}
		return compareSum(VerifiedSHA256, server, got, hex.DecodeString, hex.EncodeToString)
	case a.Size >= 0:
		return VerifiedSize, nil
	}
	return "", nil
}

// compareSum compares a server's sum, written with decode's encoding, with the file's.
func compareSum(check, server string, file []byte, decode func(string) ([]byte, error), encode func([]byte) string) (string, error) {
	got, err := decode(strings.TrimSpace(server))
	if err != nil || !bytes.Equal(got, file) {
		return "", &MismatchError{Check: check, Server: server, File: encode(file)}
	}
	return check, nil
}
