package emulator

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// On disk:
//
//	DIR/sessions/KEY.json   a session's record (KEY is a hash of its upload_id)
//	DIR/sessions/KEY.data   the bytes it has persisted; stays as the object's bytes once complete
//	DIR/objects/ID.json     a completed object
//	DIR/objects/ID.data     the bytes of an object uploaded in one request
const (
	sessionsDir = "sessions"
	objectsDir  = "objects"
	dirMode     = 0o700
	fileMode    = 0o600
)

// safeID matches the object ids this package generates; others never reach the file system.
var safeID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

type diskObject struct {
	Object
	Data string `json:"data"` // path of the bytes, relative to the store's folder
}

type diskSession struct {
	rec sessionRecord // guarded by diskStore.mu

	mu     sync.Mutex // guards digest and file
	digest *digest
	file   *os.File // opened for appending on first write
}

type diskStore struct {
	dir string

	mu       sync.Mutex
	objects  map[string]diskObject
	order    []string
	sessions map[string]*diskSession // by upload_id, loaded on first use
}

// NewDiskStore keeps objects and sessions in dir (created with mode 0700, files
// 0600), so that a new Server on the same dir after a restart still has every
// object and resumes every open session. Only one Server may use dir at a time.
func NewDiskStore(dir string) (Store, error) {
	for _, d := range []string{dir, filepath.Join(dir, sessionsDir), filepath.Join(dir, objectsDir)} {
		if err := os.MkdirAll(d, dirMode); err != nil {
			return nil, fmt.Errorf("emulator: create store folder: %w", err)
		}
	}
	s := &diskStore{dir: dir, objects: map[string]diskObject{}, sessions: map[string]*diskSession{}}
	if err := s.load(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *diskStore) load() error {
	entries, err := os.ReadDir(filepath.Join(s.dir, objectsDir))
	if err != nil {
		return fmt.Errorf("emulator: read store: %w", err)
	}
	var objs []diskObject
	for _, e := range entries {
		name := e.Name()
		path := filepath.Join(s.dir, objectsDir, name)
		if strings.HasSuffix(name, ".tmp") || strings.HasSuffix(name, ".part") {
			_ = os.Remove(path) // an upload or a record cut short by a crash
			continue
		}
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		var o diskObject
		if err := readJSON(path, &o); err != nil {
			return err
		}
		objs = append(objs, o)
	}
	sort.SliceStable(objs, func(i, j int) bool { return objs[i].Created.Before(objs[j].Created) })
	for _, o := range objs {
		s.objects[o.ID] = o
		s.order = append(s.order, o.ID)
	}
	return nil
}

func (s *diskStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.order)
}

func (s *diskStore) Objects() []Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Object, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.objects[id].Object)
	}
	return out
}

func (s *diskStore) Object(id string) (Object, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[id]
	return o.Object, ok
}

func (s *diskStore) Open(id string) (io.ReadCloser, error) {
	s.mu.Lock()
	o, ok := s.objects[id]
	s.mu.Unlock()
	if !ok {
		return nil, ErrNotFound
	}
	f, err := os.Open(filepath.Join(s.dir, o.Data))
	if err != nil {
		return nil, fmt.Errorf("emulator: open object %s: %w", id, err)
	}
	return f, nil
}

func (s *diskStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, ds := range s.sessions {
		ds.mu.Lock()
		if ds.file != nil {
			errs = append(errs, ds.file.Close())
			ds.file = nil
		}
		ds.mu.Unlock()
	}
	return errors.Join(errs...)
}

// sessionKey names a session's files without putting the upload_id, a capability, on disk.
func sessionKey(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

func (s *diskStore) sessionPath(id, ext string) string {
	return filepath.Join(s.dir, sessionsDir, sessionKey(id)+ext)
}

func (s *diskStore) putSession(rec sessionRecord) error {
	if err := writeJSONFile(s.sessionPath(rec.ID, ".json"), rec); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ds, ok := s.sessions[rec.ID]; ok {
		ds.rec = rec
		return nil
	}
	s.sessions[rec.ID] = &diskSession{rec: rec, digest: newDigest(!rec.NoMD5)}
	return nil
}

// loaded returns the session, reading it from disk and hashing its bytes
// once if this process has not seen it yet.
func (s *diskStore) loaded(id string) (*diskSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ds, ok := s.sessions[id]; ok {
		return ds, nil
	}
	var rec sessionRecord
	if err := readJSON(s.sessionPath(id, ".json"), &rec); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	if rec.ID != id {
		return nil, ErrNotFound
	}
	d := newDigest(!rec.NoMD5)
	f, err := os.Open(s.sessionPath(id, ".data"))
	switch {
	case err == nil:
		_, err = io.Copy(d, f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("emulator: read session bytes: %w", err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("emulator: open session bytes: %w", err)
	}
	ds := &diskSession{rec: rec, digest: d}
	s.sessions[id] = ds
	return ds, nil
}

func (s *diskStore) session(id string) (sessionRecord, int64, error) {
	ds, err := s.loaded(id)
	if err != nil {
		return sessionRecord{}, 0, err
	}
	s.mu.Lock()
	rec := ds.rec
	s.mu.Unlock()
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return rec, ds.digest.n, nil
}

func (s *diskStore) appendSession(id string, p []byte) error {
	ds, err := s.loaded(id)
	if err != nil {
		return err
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.file == nil {
		f, err := os.OpenFile(s.sessionPath(id, ".data"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, fileMode)
		if err != nil {
			return fmt.Errorf("emulator: open session bytes: %w", err)
		}
		ds.file = f
	}
	if _, err := ds.file.Write(p); err != nil {
		// Keep the file equal to what the digest counts as persisted.
		_ = ds.file.Truncate(ds.digest.n)
		return fmt.Errorf("emulator: write session bytes: %w", err)
	}
	_, _ = ds.digest.Write(p)
	return nil
}

func (s *diskStore) sessionContent(id string) (content, error) {
	ds, err := s.loaded(id)
	if err != nil {
		return content{}, err
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	return ds.digest.content(), nil
}

func (s *diskStore) completeSession(id string, obj Object) (Object, error) {
	ds, err := s.loaded(id)
	if err != nil {
		return Object{}, err
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if ds.file != nil {
		if err := ds.file.Close(); err != nil {
			return Object{}, fmt.Errorf("emulator: close session bytes: %w", err)
		}
		ds.file = nil
	}
	data := s.sessionPath(id, ".data")
	if _, err := os.Stat(data); errors.Is(err, os.ErrNotExist) {
		// An empty upload never wrote a byte; its object still needs a file.
		if err := os.WriteFile(data, nil, fileMode); err != nil {
			return Object{}, fmt.Errorf("emulator: write object: %w", err)
		}
	}
	obj = ds.digest.content().fill(obj)
	obj.Kept = true
	rel, err := filepath.Rel(s.dir, data)
	if err != nil {
		return Object{}, fmt.Errorf("emulator: object path: %w", err)
	}
	if err := s.addObject(diskObject{Object: obj, Data: rel}); err != nil {
		return Object{}, err
	}
	s.mu.Lock()
	rec := ds.rec
	s.mu.Unlock()
	rec.ObjectID = obj.ID
	if err := s.putSession(rec); err != nil {
		return Object{}, err
	}
	return obj, nil
}

func (s *diskStore) addObject(o diskObject) error {
	if !safeID.MatchString(o.ID) {
		return fmt.Errorf("emulator: object id %q cannot name a file", o.ID)
	}
	if err := writeJSONFile(filepath.Join(s.dir, objectsDir, o.ID+".json"), o); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.objects[o.ID]; !dup {
		s.order = append(s.order, o.ID)
	}
	s.objects[o.ID] = o
	return nil
}

func (s *diskStore) purgeSessions(before time.Time) error {
	entries, err := os.ReadDir(filepath.Join(s.dir, sessionsDir))
	if err != nil {
		return fmt.Errorf("emulator: read sessions: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		path := filepath.Join(s.dir, sessionsDir, name)
		var rec sessionRecord
		if err := readJSON(path, &rec); err != nil || rec.ObjectID != "" || !rec.Created.Before(before) {
			continue
		}
		s.mu.Lock()
		delete(s.sessions, rec.ID)
		s.mu.Unlock()
		_ = os.Remove(strings.TrimSuffix(path, ".json") + ".data")
		_ = os.Remove(path)
	}
	return nil
}

func (s *diskStore) newBlob(withMD5 bool) (blob, error) {
	f, err := os.CreateTemp(filepath.Join(s.dir, objectsDir), "upload-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("emulator: create object: %w", err)
	}
	if err := f.Chmod(fileMode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("emulator: create object: %w", err)
	}
	return &diskBlob{store: s, file: f, digest: newDigest(withMD5)}, nil
}

type diskBlob struct {
	store  *diskStore
	file   *os.File
	digest *digest
}

func (b *diskBlob) Write(p []byte) (int, error) {
	n, err := b.file.Write(p)
	_, _ = b.digest.Write(p[:n])
	if err != nil {
		return n, fmt.Errorf("emulator: write object: %w", err)
	}
	return n, nil
}

func (b *diskBlob) content() content { return b.digest.content() }

func (b *diskBlob) commit(obj Object) (Object, error) {
	if !safeID.MatchString(obj.ID) {
		b.discard()
		return Object{}, fmt.Errorf("emulator: object id %q cannot name a file", obj.ID)
	}
	if err := b.file.Close(); err != nil {
		os.Remove(b.file.Name())
		return Object{}, fmt.Errorf("emulator: write object: %w", err)
	}
	rel := filepath.Join(objectsDir, obj.ID+".data")
	if err := os.Rename(b.file.Name(), filepath.Join(b.store.dir, rel)); err != nil {
		os.Remove(b.file.Name())
		return Object{}, fmt.Errorf("emulator: write object: %w", err)
	}
	obj = b.digest.content().fill(obj)
	obj.Kept = true
	if err := b.store.addObject(diskObject{Object: obj, Data: rel}); err != nil {
		return Object{}, err
	}
	return obj, nil
}

func (b *diskBlob) discard() {
	b.file.Close()
	os.Remove(b.file.Name())
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("emulator: read %s: %w", filepath.Base(path), err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("emulator: read %s: %w", filepath.Base(path), err)
	}
	return nil
}

// writeJSONFile replaces path atomically, so a crash leaves the old or the new record.
func writeJSONFile(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("emulator: encode %s: %w", filepath.Base(path), err)
	}
	tmp := path + "." + rand.Text()[:8] + ".part"
	if err := os.WriteFile(tmp, b, fileMode); err != nil {
		return fmt.Errorf("emulator: write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("emulator: write %s: %w", filepath.Base(path), err)
	}
	return nil
}
