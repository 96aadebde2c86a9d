package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestStores(t *testing.T) {
	for _, tc := range []struct {
		name  string
		make  func(t *testing.T) Store
		kept  bool
		noSHA bool
	}{
		{"memory", func(*testing.T) Store { return NewMemoryStore() }, true, false},
		{"disk", func(t *testing.T) Store {
			s, err := NewDiskStore(filepath.Join(t.TempDir(), "sandbox"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}, true, false},
		{"hash", func(*testing.T) Store { return NewHashStore() }, false, false},
		{"crc", func(*testing.T) Store { return NewCRCStore() }, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Store: tc.make(t)})
			small := payload(5000, 30)
			resp, body := h.upload(http.MethodPost, withQuery(genericPath, "name", "small.bin"), "application/octet-stream", "", small)
			wantStatus(t, resp, body, http.StatusOK)

			big := payload(1300*kib+7, 31)
			session := h.resumable(len(big))
			for off := 0; off < len(big); off += 512 * kib {
				end := min(off+512*kib, len(big))
				resp, body := h.chunk(session, big[off:end], int64(off), int64(len(big)))
				if end < len(big) {
					wantStatus(t, resp, body, statusResumeIncomplete)
					wantRange(t, resp, int64(end))
				} else {
					wantStatus(t, resp, body, http.StatusCreated)
				}
			}
			empty := h.resumable(0)
			resp, body = h.status(empty, 0)
			wantStatus(t, resp, body, http.StatusCreated)

			objs := h.srv.Objects()
			if len(objs) != 3 {
				t.Fatalf("%d objects", len(objs))
			}
			for i, want := range [][]byte{small, big, nil} {
				o := objs[i]
				wantSHA := sha(want)
				if tc.noSHA {
					wantSHA = ""
				}
				if o.Size != int64(len(want)) || o.SHA256 != wantSHA || o.CRC32C != crc32.Checksum(want, crc32.MakeTable(crc32.Castagnoli)) || o.Kept != tc.kept {
					t.Fatalf("object %d = %+v", i, o)
				}
				rc, err := h.srv.Open(o.ID)
				if !tc.kept {
					if !errors.Is(err, ErrNotKept) {
						t.Fatalf("Open on a hash store: %v", err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(rc)
				rc.Close()
				if !bytes.Equal(got, want) {
					t.Fatalf("object %d reads back %d bytes that differ", i, len(got))
				}
			}
			if _, err := h.srv.Open("nope"); !errors.Is(err, ErrNotFound) {
				t.Fatalf("Open(unknown) = %v", err)
			}
		})
	}
}

func TestDiskStoreRestart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sandbox")
	open := func() (*Server, *httptest.Server) {
		store, err := NewDiskStore(dir)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := New(Options{Store: store})
		if err != nil {
			t.Fatal(err)
		}
		return srv, httptest.NewServer(srv)
	}
	// moveTo points a session URI at another server, as a client resuming
	// against a sandbox restarted on another port would.
	moveTo := func(session string, ts *httptest.Server) string {
		u, err := url.Parse(session)
		if err != nil {
			t.Fatal(err)
		}
		return ts.URL + u.RequestURI()
	}

	srv1, ts1 := open()
	h1 := &harness{t: t, srv: srv1, ts: ts1, client: &http.Client{}}
	small := []byte(eml)
	resp, body := h1.upload(http.MethodPost, gmailMe+"/messages", "message/rfc822", "", small)
	wantStatus(t, resp, body, http.StatusOK)
	done := h1.resumable(1000)
	resp, doneAnswer := h1.chunk(done, payload(1000, 32), 0, 1000)
	wantStatus(t, resp, doneAnswer, http.StatusCreated)

	data := payload(1024*kib+500, 33)
	open1 := h1.resumable(len(data))
	resp, body = h1.chunk(open1, data[:512*kib], 0, int64(len(data)))
	wantStatus(t, resp, body, statusResumeIncomplete)
	ts1.Close()
	if err := srv1.Close(); err != nil {
		t.Fatal(err)
	}

	srv2, ts2 := open()
	defer func() {
		ts2.Close()
		srv2.Close()
	}()
	h2 := &harness{t: t, srv: srv2, ts: ts2, client: &http.Client{}}
	resp, body = h2.status(moveTo(open1, ts2), int64(len(data)))
	wantStatus(t, resp, body, statusResumeIncomplete)
	wantRange(t, resp, 512*kib)
	resp, body = h2.chunk(moveTo(open1, ts2), data[512*kib:], 512*kib, int64(len(data)))
	wantStatus(t, resp, body, http.StatusCreated)

	resp, body = h2.status(moveTo(done, ts2), 1000)
	wantStatus(t, resp, body, http.StatusCreated)
	if string(body) != string(doneAnswer) {
		t.Fatalf("finished session answers %s after the restart, %s before", body, doneAnswer)
	}

	objs := srv2.Objects()
	if len(objs) != 3 || objs[0].Kind != KindGmail || objs[2].SHA256 != sha(data) {
		t.Fatalf("objects after restart: %+v", objs)
	}
	if !bytes.Equal(objectBytes(t, srv2, objs[0].ID), small) || !bytes.Equal(objectBytes(t, srv2, objs[2].ID), data) {
		t.Fatal("bytes after restart differ")
	}

	u, _ := url.Parse(open1)
	uploadID := u.Query().Get("upload_id")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if d.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			return fmt.Errorf("%s has mode %v, want %v", path, info.Mode().Perm(), want)
		}
		if strings.Contains(d.Name(), uploadID) {
			return fmt.Errorf("%s is named after an upload_id", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDiskStoreDropsExpiredSessions(t *testing.T) {
	dir := t.TempDir()
	clock := newFakeClock()
	store, err := NewDiskStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Options{Store: store, Now: clock.Now})
	session := h.resumable(512 * kib)
	resp, body := h.chunk(session, payload(256*kib, 34), 0, 512*kib)
	wantStatus(t, resp, body, statusResumeIncomplete)
	h.srv.Close()

	clock.Advance(DefaultSessionLifetime + time.Minute)
	store2, err := NewDiskStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	h2 := newHarness(t, Options{Store: store2, Now: clock.Now})
	entries, err := os.ReadDir(filepath.Join(dir, sessionsDir))
	if err != nil || len(entries) != 0 {
		t.Fatalf("sessions folder after restart: %v, %v", entries, err)
	}
	u, _ := url.Parse(session)
	resp, body = h2.status(u.RequestURI(), 512*kib)
	wantError(t, resp, body, http.StatusNotFound, "Start the upload again")
}

func TestSandboxPages(t *testing.T) {
	h := newHarness(t, Options{})
	data := []byte("hello, sandbox")
	resp, body := h.upload(http.MethodPost, withQuery(genericPath, "name", "<b>notes</b>.html"), "text/html", "", data)
	wantStatus(t, resp, body, http.StatusOK)
	obj := onlyObject(t, h.srv)

	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		return h.do(http.MethodGet, path, nil, nil)
	}
	resp, body = get("/")
	wantStatus(t, resp, body, http.StatusOK)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("&lt;b&gt;notes&lt;/b&gt;.html")) ||
		bytes.Contains(body, []byte("<b>notes")) || !bytes.Contains(body, []byte(obj.SHA256)) || !bytes.Contains(body, []byte("/sandbox/objects/"+obj.ID)) {
		t.Fatalf("index page: %s", body)
	}

	resp, body = get("/sandbox/objects")
	wantStatus(t, resp, body, http.StatusOK)
	var list []Object
	decodeInto(t, body, &list)
	if len(list) != 1 || list[0].ID != obj.ID || list[0].SHA256 != sha(data) {
		t.Fatalf("object list: %s", body)
	}

	resp, body = get("/sandbox/objects/" + obj.ID)
	wantStatus(t, resp, body, http.StatusOK)
	if !bytes.Equal(body, data) || resp.Header.Get("X-Content-Type-Options") != "nosniff" ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("download: %v %s", resp.Header, body)
	}

	resp, body = get("/sandbox/objects/" + obj.ID + "/info")
	wantStatus(t, resp, body, http.StatusOK)
	var info Object
	decodeInto(t, body, &info)
	if info.Name != "<b>notes</b>.html" || info.Size != int64(len(data)) {
		t.Fatalf("info: %s", body)
	}

	resp, body = get("/sandbox/requests")
	wantStatus(t, resp, body, http.StatusOK)
	var reqs []Request
	decodeInto(t, body, &reqs)
	if len(reqs) != 1 || reqs[0].Stage != StageUpload {
		t.Fatalf("requests: %s", body)
	}

	for _, p := range []string{"/sandbox/objects/nope", "/nothing/here", "/games/images/nope.png"} {
		resp, body = get(p)
		wantError(t, resp, body, http.StatusNotFound, "")
	}

	hs := newHarness(t, Options{Store: NewHashStore()})
	resp, body = hs.upload(http.MethodPost, genericPath, "text/plain", "", data)
	wantStatus(t, resp, body, http.StatusOK)
	var answer struct {
		MediaLink string `json:"mediaLink"`
	}
	decodeInto(t, body, &answer)
	resp, body = hs.do(http.MethodGet, answer.MediaLink, nil, nil)
	wantError(t, resp, body, http.StatusNotFound, "keeps only the size and SHA-256")
	if _, err := json.Marshal(hs.srv.Objects()); err != nil {
		t.Fatal(err)
	}
}

// TestMD5OnlyWhereAnswered: the bytes' MD5 is computed for Drive, whose
// answer carries it, and for no other upload.
func TestMD5OnlyWhereAnswered(t *testing.T) {
	store := NewHashStore().(*memStore)
	h := newHarness(t, Options{Store: store})
	for _, tc := range []struct {
		path string
		md5  bool
	}{
		{"/upload/sandbox/v1/files?uploadType=resumable&name=a.bin", false},
		{"/upload/drive/v3/files?uploadType=resumable", true},
	} {
		loc := h.start(http.MethodPost, tc.path, hdr("X-Upload-Content-Type", "application/octet-stream"), `{"name":"a.bin"}`)
		u, err := url.Parse(loc)
		if err != nil {
			t.Fatal(err)
		}
		store.mu.Lock()
		s, ok := store.sessions[u.Query().Get("upload_id")]
		computes := ok && s.digest.md5 != nil
		store.mu.Unlock()
		if !ok || computes != tc.md5 {
			t.Errorf("%s: session found %v, MD5 computed %v, want %v", tc.path, ok, computes, tc.md5)
		}
	}
}
