package emulator

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash"
	"io"
	"slices"
	"sync"
	"time"

	"hoist/engine/crc32c"
)

// ErrNotFound is returned for an object or session the store does not hold.
var ErrNotFound = errors.New("emulator: not found")

// ErrNotKept is returned by Open when the store keeps only the length and hash of objects.
var ErrNotKept = errors.New("emulator: this store keeps no bytes")

// headSize is how much of the start of every upload is kept for content checks
// (a Gmail message's headers, an image's signature), even by the hash store.
const headSize = 64 << 10

// Object is a completed upload as the server recorded it.
type Object struct {
	ID          string          `json:"id"`              // names the object here; the resource id for Gmail, CM360 and Play Games
	Kind        Kind            `json:"kind"`            // the destination that took it
	Action      string          `json:"action"`          // the API method, e.g. "gmail.users.messages.insert"
	Path        string          `json:"path"`            // URL path it was uploaded to
	Name        string          `json:"name"`            // file or asset name, when the upload gave one
	Draft       string          `json:"draft,omitempty"` // Gmail draft id, for drafts
	UploadType  string          `json:"uploadType"`      // media, multipart or resumable
	Size        int64           `json:"size"`
	SHA256      string          `json:"sha256"` // lowercase hex
	CRC32C      uint32          `json:"crc32c"`
	ContentType string          `json:"contentType"`
	Metadata    json.RawMessage `json:"metadata,omitempty"` // the JSON metadata sent with the upload
	Response    json.RawMessage `json:"response"`           // the JSON answered on success
	Created     time.Time       `json:"created"`
	Kept        bool            `json:"kept"` // the bytes can be read back with Open
	// MessageID is an email's Message-ID header, angle brackets trimmed,
	// and InternalDate the date Gmail files it under: what Gmail's
	// messages.list and messages.get answer of it.
	MessageID    string    `json:"messageId,omitempty"`
	InternalDate time.Time `json:"internalDate,omitzero"`
}

// Store keeps completed objects and open resumable sessions. Stores are made by
// NewMemoryStore, NewDiskStore and NewHashStore; all are safe for concurrent use.
type Store interface {
	// Objects lists completed uploads, oldest first.
	Objects() []Object
	// Len is how many uploads completed, without listing them.
	Len() int
	// Object returns one completed upload.
	Object(id string) (Object, bool)
	// Open reads an object's bytes; ErrNotKept when the store keeps none.
	Open(id string) (io.ReadCloser, error)
	// Close releases files; the store is not used afterwards.
	Close() error

	putSession(rec sessionRecord) error
	// session returns a session's record and how many bytes it has persisted.
	session(id string) (sessionRecord, int64, error)
	appendSession(id string, p []byte) error
	sessionContent(id string) (content, error)
	// completeSession turns the session's bytes into obj and marks the session done.
	completeSession(id string, obj Object) (Object, error)
	// purgeSessions drops unfinished sessions created before t.
	purgeSessions(before time.Time) error
	newBlob(withMD5 bool) (blob, error) // withMD5: the answer carries the bytes' MD5
}

// blob receives the bytes of a one-request upload; it becomes an object or is discarded.
type blob interface {
	io.Writer
	content() content
	commit(obj Object) (Object, error)
	discard()
}

// content is what the server knows of uploaded bytes without reading them again.
type content struct {
	Size   int64
	SHA256 string
	MD5    string // hex, as Drive's md5Checksum; "" unless the answer carries it
	CRC32C uint32
	Head   []byte // the first bytes, up to headSize
}

// digest follows bytes as they are persisted: length, SHA-256, MD5 (only
// for answers that carry it: Drive's), CRC32C and the head.
type digest struct {
	sha  hash.Hash // nil when only the CRC32C is computed
	md5  hash.Hash // nil unless the answer carries it
	crc  uint32
	n    int64
	head []byte
}

// newDigest computes the SHA-256, and the MD5 too when withMD5.
func newDigest(withMD5 bool) *digest {
	d := &digest{sha: sha256.New()}
	if withMD5 {
		d.md5 = md5.New()
	}
	return d
}

func (d *digest) Write(p []byte) (int, error) {
	if d.sha != nil {
		d.sha.Write(p)
	}
	if d.md5 != nil {
		d.md5.Write(p)
	}
	d.crc = crc32c.Update(d.crc, p)
	if room := headSize - len(d.head); room > 0 {
		d.head = append(d.head, p[:min(room, len(p))]...)
	}
	d.n += int64(len(p))
	return len(p), nil
}

func (d *digest) content() content {
	c := content{Size: d.n, CRC32C: d.crc, Head: slices.Clone(d.head)}
	if d.sha != nil {
		c.SHA256 = hex.EncodeToString(d.sha.Sum(nil))
	}
	if d.md5 != nil {
		c.MD5 = hex.EncodeToString(d.md5.Sum(nil))
	}
	return c
}

func (c content) fill(obj Object) Object {
	obj.Size, obj.SHA256, obj.CRC32C = c.Size, c.SHA256, c.CRC32C
	return obj
}

// memBlockSize is the unit of a memory store's byte storage, so growth never copies.
const memBlockSize = 1 << 20

// memBytes is an append-only byte sequence in fixed blocks.
type memBytes struct {
	blocks [][]byte
}

func (m *memBytes) append(p []byte) {
	for len(p) > 0 {
		if n := len(m.blocks); n == 0 || len(m.blocks[n-1]) == memBlockSize {
			m.blocks = append(m.blocks, make([]byte, 0, memBlockSize))
		}
		last := &m.blocks[len(m.blocks)-1]
		k := min(memBlockSize-len(*last), len(p))
		*last = append(*last, p[:k]...)
		p = p[k:]
	}
}

func (m *memBytes) reader() io.Reader {
	rs := make([]io.Reader, len(m.blocks))
	for i, b := range m.blocks {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

type memSession struct {
	rec sessionRecord // guarded by memStore.mu

	mu     sync.Mutex // guards digest and data, so hashing runs outside the store's lock
	digest *digest
	data   memBytes
}

type memObject struct {
	obj  Object
	data *memBytes
}

// memStore keeps everything in memory; with keep false only lengths and hashes.
type memStore struct {
	keep  bool
	noSHA bool // compute only the CRC32C

	mu       sync.Mutex
	sessions map[string]*memSession
	objects  map[string]*memObject
	order    []string
}

// NewMemoryStore keeps objects and sessions, bytes included, in memory.
func NewMemoryStore() Store {
	return &memStore{keep: true, sessions: map[string]*memSession{}, objects: map[string]*memObject{}}
}

// NewHashStore keeps only each upload's length, SHA-256, CRC32C and first
// 64 KiB, so uploads of any size cost neither memory nor disk.
func NewHashStore() Store {
	return &memStore{keep: false, sessions: map[string]*memSession{}, objects: map[string]*memObject{}}
}

// NewCRCStore keeps only each upload's length, CRC32C and first 64 KiB: no
// SHA-256 (Object.SHA256 is empty), whose cost would otherwise bound the
// throughput a benchmark can measure.
func NewCRCStore() Store {
	return &memStore{keep: false, noSHA: true, sessions: map[string]*memSession{}, objects: map[string]*memObject{}}
}

func (m *memStore) newDigest(withMD5 bool) *digest {
	if m.noSHA {
		return &digest{}
	}
	return newDigest(withMD5)
}

func (m *memStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.order)
}

func (m *memStore) Objects() []Object {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Object, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.objects[id].obj)
	}
	return out
}

func (m *memStore) Object(id string) (Object, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.objects[id]
	if !ok {
		return Object{}, false
	}
	return o.obj, true
}

func (m *memStore) Open(id string) (io.ReadCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	o, ok := m.objects[id]
	if !ok {
		return nil, ErrNotFound
	}
	if o.data == nil {
		return nil, ErrNotKept
	}
	// Blocks are never modified once an object is complete, so readers need no lock.
	return io.NopCloser(o.data.reader()), nil
}

func (m *memStore) Close() error { return nil }

func (m *memStore) putSession(rec sessionRecord) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.sessions[rec.ID]; ok {
		s.rec = rec
		return nil
	}
	m.sessions[rec.ID] = &memSession{rec: rec, digest: m.newDigest(!rec.NoMD5)}
	return nil
}

func (m *memStore) session(id string) (sessionRecord, int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return sessionRecord{}, 0, ErrNotFound
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rec, s.digest.n, nil
}

// lockedSession returns session id with its own lock held.
func (m *memStore) lockedSession(id string) (*memSession, error) {
	m.mu.Lock()
	s, ok := m.sessions[id]
	m.mu.Unlock()
	if !ok {
		return nil, ErrNotFound
	}
	s.mu.Lock()
	return s, nil
}

func (m *memStore) appendSession(id string, p []byte) error {
	s, err := m.lockedSession(id)
	if err != nil {
		return err
	}
	defer s.mu.Unlock()
	if m.keep {
		s.data.append(p)
	}
	_, _ = s.digest.Write(p)
	return nil
}

// errKeepsNoBytes: the store cannot forget bytes it never kept.
var errKeepsNoBytes = errors.New("emulator: this store keeps no bytes to forget")

// truncateSession keeps the first n bytes of a session; only a store that
// keeps bytes can, since a digest cannot be taken back.
func (m *memStore) truncateSession(id string, n int64) error {
	s, err := m.lockedSession(id)
	if err != nil {
		return err
	}
	defer s.mu.Unlock()
	if !m.keep {
		return errKeepsNoBytes
	}
	if n >= s.digest.n {
		return nil
	}
	old := s.data
	s.data, s.digest = memBytes{}, m.newDigest(!s.rec.NoMD5)
	buf := make([]byte, memBlockSize)
	r := io.LimitReader(old.reader(), n)
	for {
		k, err := r.Read(buf)
		s.data.append(buf[:k])
		_, _ = s.digest.Write(buf[:k])
		if err != nil {
			return nil
		}
	}
}

func (m *memStore) sessionContent(id string) (content, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return content{}, ErrNotFound
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.digest.content(), nil
}

func (m *memStore) completeSession(id string, obj Object) (Object, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.sessions[id]
	if !ok {
		return Object{}, ErrNotFound
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	obj = s.digest.content().fill(obj)
	obj.Kept = m.keep
	o := &memObject{obj: obj}
	if m.keep {
		data := s.data
		o.data = &data
		s.data = memBytes{}
	}
	m.addLocked(o)
	s.rec.ObjectID = obj.ID
	return obj, nil
}

func (m *memStore) addLocked(o *memObject) {
	if _, dup := m.objects[o.obj.ID]; !dup {
		m.order = append(m.order, o.obj.ID)
	}
	m.objects[o.obj.ID] = o
}

func (m *memStore) purgeSessions(before time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for id, s := range m.sessions {
		if s.rec.ObjectID == "" && s.rec.Created.Before(before) {
			delete(m.sessions, id)
		}
	}
	return nil
}

func (m *memStore) newBlob(withMD5 bool) (blob, error) {
	return &memBlob{store: m, digest: m.newDigest(withMD5)}, nil
}

type memBlob struct {
	store  *memStore
	digest *digest
	data   memBytes
}

func (b *memBlob) Write(p []byte) (int, error) {
	if b.store.keep {
		b.data.append(p)
	}
	return b.digest.Write(p)
}

func (b *memBlob) content() content { return b.digest.content() }

func (b *memBlob) commit(obj Object) (Object, error) {
	obj = b.digest.content().fill(obj)
	obj.Kept = b.store.keep
	o := &memObject{obj: obj}
	if b.store.keep {
		o.data = &b.data
	}
	b.store.mu.Lock()
	b.store.addLocked(o)
	b.store.mu.Unlock()
	return obj, nil
}

func (b *memBlob) discard() { b.data = memBytes{} }
