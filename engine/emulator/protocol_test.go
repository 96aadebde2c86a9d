package emulator

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const genericPath = "/upload/files/v1/things"

func TestMediaUpload(t *testing.T) {
	h := newHarness(t, Options{})
	data := payload(300*kib+17, 1)
	resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media", "name", "report.pdf"),
		hdr("Content-Type", "application/pdf"), data)
	wantStatus(t, resp, body, http.StatusOK)
	m := decode(t, body)
	if m["name"] != "report.pdf" || m["size"] != strconv.Itoa(len(data)) || m["contentType"] != "application/pdf" || m["sha256Hash"] != sha(data) {
		t.Fatalf("answer = %s", body)
	}
	obj := onlyObject(t, h.srv)
	if obj.Name != "report.pdf" || obj.Size != int64(len(data)) || obj.SHA256 != sha(data) ||
		obj.UploadType != "media" || obj.Kind != KindGeneric || obj.Path != genericPath || !obj.Kept {
		t.Fatalf("object = %+v", obj)
	}
	if !bytes.Equal(objectBytes(t, h.srv, obj.ID), data) {
		t.Fatal("stored bytes differ from those sent")
	}
	if string(obj.Response) != string(body) {
		t.Fatalf("object keeps response %s, answered %s", obj.Response, body)
	}
}

func TestPutCreatesOrUpdates(t *testing.T) {
	h := newHarness(t, Options{})
	// PATCH updates, as Drive's files.update does.
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodPatch} {
		resp, body := h.do(method, withQuery(genericPath, "uploadType", "media"), hdr("Content-Type", "text/plain"), []byte("x"))
		wantStatus(t, resp, body, http.StatusOK)
	}
	resp, body := h.do(http.MethodDelete, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
	wantError(t, resp, body, http.StatusNotFound, "Method not found")
}

func TestUploadTypeRequired(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct{ name, path, want string }{
		{"missing", genericPath, "must include an uploadType"},
		{"unknown", withQuery(genericPath, "uploadType", "chunky"), `Invalid value for uploadType: "chunky"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.do(http.MethodPost, tc.path, nil, []byte("x"))
			wantError(t, resp, body, http.StatusBadRequest, tc.want)
		})
	}
}

func TestMultipart(t *testing.T) {
	meta := `{"name":"llama.jpg","metadata":{"farm":"yes"}}`
	media := string(payload(70*kib, 2))
	jsonPart := "Content-Type: application/json; charset=UTF-8"
	mediaPart := "Content-Type: image/jpeg"
	good := multipartBody("foo_bar_baz", [2]string{jsonPart, meta}, [2]string{mediaPart, media})

	t.Run("valid", func(t *testing.T) {
		h := newHarness(t, Options{})
		resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "multipart"),
			hdr("Content-Type", "multipart/related; boundary=foo_bar_baz"), good)
		wantStatus(t, resp, body, http.StatusOK)
		m := decode(t, body)
		if m["name"] != "llama.jpg" || m["contentType"] != "image/jpeg" || m["size"] != strconv.Itoa(len(media)) {
			t.Fatalf("answer = %s", body)
		}
		if md, _ := m["metadata"].(map[string]any); md["farm"] != "yes" {
			t.Fatalf("metadata not echoed: %s", body)
		}
		obj := onlyObject(t, h.srv)
		if obj.SHA256 != sha([]byte(media)) || string(obj.Metadata) != meta || obj.UploadType != "multipart" {
			t.Fatalf("object = %+v", obj)
		}
	})

	t.Run("base64 media part", func(t *testing.T) {
		h := newHarness(t, Options{})
		enc := base64.StdEncoding.EncodeToString([]byte(media))
		body := multipartBody("b", [2]string{jsonPart, meta}, [2]string{mediaPart + "\r\nContent-Transfer-Encoding: base64", enc})
		resp, b := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "multipart"),
			hdr("Content-Type", "multipart/related; boundary=b"), body)
		wantStatus(t, resp, b, http.StatusOK)
		if obj := onlyObject(t, h.srv); obj.SHA256 != sha([]byte(media)) {
			t.Fatal("base64 media part not decoded")
		}
	})

	for _, tc := range []struct {
		name  string
		ctype string
		body  []byte
		want  string
	}{
		{"not multipart/related", "multipart/form-data; boundary=foo_bar_baz", good, "multipart/related"},
		{"no boundary", "multipart/related", good, "with a boundary"},
		{"media first", "multipart/related; boundary=x",
			multipartBody("x", [2]string{mediaPart, media}, [2]string{jsonPart, meta}), "first part of a multipart upload must be the JSON metadata"},
		{"one part", "multipart/related; boundary=x", multipartBody("x", [2]string{jsonPart, meta}), "only one part"},
		{"three parts", "multipart/related; boundary=x",
			multipartBody("x", [2]string{jsonPart, meta}, [2]string{mediaPart, media}, [2]string{mediaPart, media}), "more than two parts"},
		{"no parts", "multipart/related; boundary=x", []byte("--x--\r\n"), "no parts"},
		{"metadata not an object", "multipart/related; boundary=x",
			multipartBody("x", [2]string{jsonPart, `["a"]`}, [2]string{mediaPart, media}), "Invalid JSON payload"},
		{"no closing boundary", "multipart/related; boundary=x",
			[]byte("--x\r\n" + jsonPart + "\r\n\r\n" + meta + "\r\n--x\r\n" + mediaPart + "\r\n\r\n" + media), "closing boundary"},
		{"no boundary at all", "multipart/related; boundary=x", []byte("just bytes"), "does not start with its boundary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "multipart"), hdr("Content-Type", tc.ctype), tc.body)
			wantError(t, resp, body, http.StatusBadRequest, tc.want)
			if n := len(h.srv.Objects()); n != 0 {
				t.Fatalf("a refused upload left %d objects", n)
			}
		})
	}
}

func TestResumableWholeFile(t *testing.T) {
	for _, tc := range []struct {
		method string
		final  int
	}{{http.MethodPost, http.StatusCreated}, {http.MethodPut, http.StatusOK}} {
		t.Run(tc.method, func(t *testing.T) {
			h := newHarness(t, Options{})
			data := payload(1000*kib+3, 3)
			path := withQuery(genericPath, "uploadType", "resumable", "alt", "json")
			session := h.start(tc.method, path, hdr("X-Upload-Content-Type", "image/jpeg", "X-Upload-Content-Length", strconv.Itoa(len(data))), `{"name":"Llama"}`)
			u, err := url.Parse(session)
			if err != nil || u.Host != strings.TrimPrefix(h.ts.URL, "http://") || u.Path != genericPath ||
				u.Query().Get("uploadType") != "resumable" || u.Query().Get("upload_id") == "" || u.Query().Get("alt") != "json" {
				t.Fatalf("Location = %q", session)
			}
			resp, body := h.do(http.MethodPut, session, hdr("Content-Type", "image/jpeg"), data)
			wantStatus(t, resp, body, tc.final)
			if m := decode(t, body); m["name"] != "Llama" || m["contentType"] != "image/jpeg" {
				t.Fatalf("answer = %s", body)
			}
			obj := onlyObject(t, h.srv)
			if obj.SHA256 != sha(data) || obj.UploadType != "resumable" || !bytes.Equal(objectBytes(t, h.srv, obj.ID), data) {
				t.Fatalf("object = %+v", obj)
			}
		})
	}
}

func TestResumableChunks(t *testing.T) {
	for _, method := range []string{http.MethodPut, http.MethodPost} {
		t.Run("chunks sent with "+method, func(t *testing.T) {
			h := newHarness(t, Options{})
			data := payload(3*256*kib+1234, 4)
			total := int64(len(data))
			session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"),
				hdr("X-Upload-Content-Type", "application/zip", "X-Upload-Content-Length", fmt.Sprint(total)), "")

			resp, body := h.status(session, total)
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, 0)

			for off := int64(0); off < total; off += 512 * kib {
				end := min(off+512*kib, total)
				cr := fmt.Sprintf("bytes %d-%d/%d", off, end-1, total)
				resp, body := h.do(method, session, hdr("Content-Range", cr), data[off:end])
				if end < total {
					wantStatus(t, resp, body, statusResumeIncomplete)
					wantRange(t, resp, end)
					if resp.Header.Get("Location") != "" {
						t.Fatal("308 must not carry a Location: clients would follow it")
					}
					resp, body = h.status(session, total)
					wantStatus(t, resp, body, statusResumeIncomplete)
					wantRange(t, resp, end)
					continue
				}
				wantStatus(t, resp, body, http.StatusCreated)
			}
			obj := onlyObject(t, h.srv)
			if obj.Size != total || obj.SHA256 != sha(data) || !bytes.Equal(objectBytes(t, h.srv, obj.ID), data) {
				t.Fatalf("object = %+v", obj)
			}
			// A status query after the end answers the resource again.
			resp, body = h.status(session, total)
			wantStatus(t, resp, body, http.StatusCreated)
			if string(body) != string(obj.Response) {
				t.Fatalf("status after completion = %s, want %s", body, obj.Response)
			}
		})
	}
}

func TestUnknownTotal(t *testing.T) {
	// Google's Go client: chunks "bytes A-B/*", then a final "bytes */N" when
	// the file is a whole number of chunks.
	h := newHarness(t, Options{})
	data := payload(512*kib, 5)
	session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), hdr("X-Upload-Content-Type", "text/plain"), "")
	for off := 0; off < len(data); off += 256 * kib {
		resp, body := h.chunk(session, data[off:off+256*kib], int64(off), -1)
		wantStatus(t, resp, body, statusResumeIncomplete)
		wantRange(t, resp, int64(off+256*kib))
	}
	resp, body := h.status(session, -1)
	wantStatus(t, resp, body, statusResumeIncomplete)
	resp, body = h.status(session, int64(len(data)))
	wantStatus(t, resp, body, http.StatusCreated)
	if obj := onlyObject(t, h.srv); obj.SHA256 != sha(data) {
		t.Fatal("bytes differ")
	}
}

func TestNo308(t *testing.T) {
	h := newHarness(t, Options{})
	data := payload(300*kib, 6)
	session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, "")
	no308 := hdr("X-GUploader-No-308", "yes", "Content-Range", fmt.Sprintf("bytes 0-%d/*", 256*kib-1))
	resp, body := h.do(http.MethodPost, session, no308, data[:256*kib])
	wantStatus(t, resp, body, http.StatusOK)
	if resp.Header.Get("X-Http-Status-Code-Override") != "308" {
		t.Fatalf("override header = %q", resp.Header.Get("X-Http-Status-Code-Override"))
	}
	wantRange(t, resp, 256*kib)

	resp, body = h.do(http.MethodPut, session, hdr("X-GUploader-No-308", "yes", "Content-Range", "bytes */*"), nil)
	wantStatus(t, resp, body, http.StatusOK)
	if resp.Header.Get("X-Http-Status-Code-Override") != "308" {
		t.Fatal("status query lost the override header")
	}
	final := hdr("X-GUploader-No-308", "yes", "Content-Range", fmt.Sprintf("bytes %d-%d/%d", 256*kib, len(data)-1, len(data)))
	resp, body = h.do(http.MethodPost, session, final, data[256*kib:])
	wantStatus(t, resp, body, http.StatusCreated)
	if resp.Header.Get("X-Http-Status-Code-Override") != "" {
		t.Fatal("final answer carries the override header")
	}
}

func TestChunkRules(t *testing.T) {
	data := payload(1024*kib+100, 7)
	total := int64(len(data))
	for _, tc := range []struct {
		name   string
		header http.Header
		body   []byte
		want   string
	}{
		{"gap", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 512*kib, 768*kib-1, total)), data[512*kib : 768*kib], "only bytes 0-262143 are persisted; send the file from byte 262144"},
		{"overlap", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 0, 256*kib-1, total)), data[:256*kib], "inside the bytes already persisted"},
		{"overlap by one", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 256*kib-1, 512*kib-2, total)), data[256*kib-1 : 512*kib-1], "inside the bytes already persisted"},
		{"not a multiple of 256 KiB", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 256*kib, 256*kib+1000, total)), data[256*kib : 256*kib+1001], "not a multiple of 262144"},
		{"total differs from X-Upload-Content-Length", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 256*kib, 512*kib-1, total+1)), data[256*kib : 512*kib], "this upload session is for"},
		{"past the end", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/*", 256*kib, total+256*kib-1)), make([]byte, total), "goes past the end"},
		{"Content-Length differs", hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 256*kib, 768*kib-1, total)), data[256*kib : 512*kib], "Content-Length is 262144"},
		{"bad syntax", hdr("Content-Range", "bytes=262144-524287/1048676"), data[256*kib : 512*kib], "Invalid Content-Range"},
		{"reversed", hdr("Content-Range", "bytes 524287-262144/*"), data[:1], "Invalid Content-Range"},
		{"negative", hdr("Content-Range", "bytes -5-262144/*"), data[:1], "Invalid Content-Range"},
		{"body with a status query", hdr("Content-Range", fmt.Sprintf("bytes */%d", total)), data[:10], "must have an empty body"},
		{"total below persisted", hdr("Content-Range", "bytes */100"), nil, "this upload session is for"},
		{"no Content-Range when resuming", http.Header{}, data[256*kib:], "already holds 262144 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"),
				hdr("X-Upload-Content-Length", fmt.Sprint(total)), "")
			resp, body := h.chunk(session, data[:256*kib], 0, total)
			wantStatus(t, resp, body, statusResumeIncomplete)

			resp, body = h.do(http.MethodPut, session, tc.header, tc.body)
			wantError(t, resp, body, http.StatusBadRequest, tc.want)

			resp, body = h.status(session, total)
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, 256*kib)
		})
	}
}

func TestPastTheEnd(t *testing.T) {
	h := newHarness(t, Options{})
	session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), hdr("X-Upload-Content-Length", "1000"), "")
	resp, body := h.chunk(session, make([]byte, 1001), 0, -1)
	wantError(t, resp, body, http.StatusBadRequest, "goes past the end of the 1000-byte file")
}

// rawRequest sends a PUT whose Content-Length header says contentLength,
// whatever the body's size, over a raw connection.
func rawRequest(t *testing.T, h *harness, target string, header http.Header, body []byte, contentLength int) (*http.Response, []byte) {
	t.Helper()
	u, err := url.Parse(h.url(target))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var req bytes.Buffer
	fmt.Fprintf(&req, "PUT %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", u.RequestURI(), u.Host, contentLength)
	for k, vs := range header {
		for _, v := range vs {
			fmt.Fprintf(&req, "%s: %s\r\n", k, v)
		}
	}
	req.WriteString("\r\n")
	req.Write(body)
	if _, err := conn.Write(req.Bytes()); err != nil {
		t.Fatal(err)
	}
	if len(body) < contentLength {
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}
	return readResponse(t, conn)
}

func TestEmptyFile(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct {
		name   string
		header http.Header
	}{
		{"status query with total 0", hdr("Content-Range", "bytes */0")},
		{"empty PUT", http.Header{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), hdr("X-Upload-Content-Length", "0"), "")
			resp, body := h.do(http.MethodPut, session, tc.header, nil)
			wantStatus(t, resp, body, http.StatusCreated)
			if m := decode(t, body); m["size"] != "0" {
				t.Fatalf("answer = %s", body)
			}
		})
	}
}

func TestChunkedBodyWithoutContentRange(t *testing.T) {
	h := newHarness(t, Options{})
	data := payload(700*kib, 8)
	session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, "")
	req, err := http.NewRequest(http.MethodPut, session, struct{ *bytes.Reader }{bytes.NewReader(data)})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := h.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if reqs := h.srv.Requests(); reqs[len(reqs)-1].ContentLength != -1 {
		t.Fatal("the request was not sent chunked")
	}
	if obj := onlyObject(t, h.srv); obj.SHA256 != sha(data) {
		t.Fatal("bytes differ")
	}
}

func TestUnknownSession(t *testing.T) {
	h := newHarness(t, Options{})
	session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, "")
	u, _ := url.Parse(session)
	q := u.Query()

	for _, tc := range []struct{ name, target string }{
		{"unknown upload_id", withQuery(genericPath, "uploadType", "resumable", "upload_id", "nope")},
		{"other path", withQuery("/upload/other/v1/x", "uploadType", "resumable", "upload_id", q.Get("upload_id"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.status(tc.target, 10)
			wantError(t, resp, body, http.StatusNotFound, "Start the upload again")
		})
	}
}

func TestSessionExpiry(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     Options
		lifetime time.Duration
		status   int
	}{
		{"default week, 404", Options{}, 7 * 24 * time.Hour, http.StatusNotFound},
		{"one hour, 410", Options{SessionLifetime: time.Hour, ExpiredStatus: http.StatusGone}, time.Hour, http.StatusGone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newFakeClock()
			tc.opts.Now = clock.Now
			h := newHarness(t, tc.opts)
			session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, "")
			resp, body := h.chunk(session, payload(256*kib, 9), 0, -1)
			wantStatus(t, resp, body, statusResumeIncomplete)

			clock.Advance(tc.lifetime - time.Second)
			resp, body = h.status(session, -1)
			wantStatus(t, resp, body, statusResumeIncomplete)

			clock.Advance(time.Second)
			resp, body = h.status(session, -1)
			wantError(t, resp, body, tc.status, "expired")
		})
	}
	t.Run("bad ExpiredStatus", func(t *testing.T) {
		if _, err := New(Options{ExpiredStatus: 400}); err == nil {
			t.Fatal("New accepted ExpiredStatus 400")
		}
	})
}

// TestCutBodyKeepsWholeUnits cuts a chunk's connection from the client side.
func TestCutBodyKeepsWholeUnits(t *testing.T) {
	for _, tc := range []struct {
		name string
		sent int
		want int64
	}{
		{"mid second unit", 700 * kib, 512 * kib},
		{"exactly one unit", 256 * kib, 256 * kib},
		{"less than a unit", 100 * kib, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			data := payload(1024*kib, 10)
			session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, "")
			cr := hdr("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(data)-1, len(data)))
			resp, _ := rawRequest(t, h, session, cr, data[:tc.sent], len(data))
			if resp != nil {
				t.Fatalf("a cut request was answered %d", resp.StatusCode)
			}
			reqs := h.waitRequests(2)
			if reqs[1].Status != 0 || reqs[1].BodyBytes != int64(tc.sent) {
				t.Fatalf("request log: %+v", reqs[1])
			}
			resp, body := h.status(session, int64(len(data)))
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, tc.want)

			resp, body = h.chunk(session, data[tc.want:], tc.want, int64(len(data)))
			wantStatus(t, resp, body, http.StatusCreated)
			if obj := onlyObject(t, h.srv); obj.SHA256 != sha(data) {
				t.Fatal("resumed upload differs")
			}
		})
	}
}

func TestConcurrentSessions(t *testing.T) {
	h := newHarness(t, Options{Store: NewHashStore()})
	const n = 6
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := payload(768*kib+i, uint64(100+i))
			resp, _, err := h.try(http.MethodPost, withQuery(genericPath, "uploadType", "resumable", "name", fmt.Sprint(i)), nil, nil)
			if err != nil {
				errs <- err
				return
			}
			session := resp.Header.Get("Location")
			for off := 0; off < len(data); off += 256 * kib {
				end := min(off+256*kib, len(data))
				cr := fmt.Sprintf("bytes %d-%d/%d", off, end-1, len(data))
				resp, body, err := h.try(http.MethodPut, session, hdr("Content-Range", cr), data[off:end])
				if err != nil {
					errs <- err
					return
				}
				if end == len(data) && resp.StatusCode != http.StatusCreated {
					errs <- fmt.Errorf("final chunk: %d %s", resp.StatusCode, body)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	objs := h.srv.Objects()
	if len(objs) != n {
		t.Fatalf("%d objects, want %d", len(objs), n)
	}
	for _, o := range objs {
		i, _ := strconv.Atoi(o.Name)
		if o.SHA256 != sha(payload(768*kib+i, uint64(100+i))) {
			t.Fatalf("object %s has the wrong bytes", o.Name)
		}
	}
}

func TestStart(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, stop, err := srv.Start(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("base URL = %q", base)
	}
	resp, err := http.Post(base+withQuery(genericPath, "uploadType", "media"), "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(srv.Objects()) != 1 {
		t.Fatalf("status %d, %d objects", resp.StatusCode, len(srv.Objects()))
	}
	if err := stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Fatal("server still answers after stop")
	}
}

func TestSessionStartRules(t *testing.T) {
	for _, tc := range []struct {
		name   string
		header http.Header
		body   []byte
		status int
		want   string
	}{
		{"negative X-Upload-Content-Length", hdr("X-Upload-Content-Length", "-5"), nil, 400, "Invalid X-Upload-Content-Length"},
		{"X-Upload-Content-Length not a number", hdr("X-Upload-Content-Length", "12kb"), nil, 400, "Invalid X-Upload-Content-Length"},
		{"metadata of another type", hdr("Content-Type", "text/plain"), []byte(`{"name":"a"}`), 400, "must be the JSON metadata"},
		{"metadata not JSON", hdr("Content-Type", "application/json"), []byte(`name=a`), 400, "Invalid JSON payload"},
		{"metadata too large", hdr("Content-Type", "application/json"), bytes.Repeat([]byte(" "), metadataLimit+1), 400, "larger than"},
		{"DELETE", nil, nil, 404, "Method not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			method := http.MethodPost
			if tc.name == "DELETE" {
				method = http.MethodDelete
			}
			resp, body := h.do(method, withQuery(genericPath, "uploadType", "resumable"), tc.header, tc.body)
			wantError(t, resp, body, tc.status, tc.want)
		})
	}
	t.Run("type from the metadata", func(t *testing.T) {
		h := newHarness(t, Options{})
		session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, `{"name":"a.csv","contentType":"text/csv"}`)
		resp, body := h.do(http.MethodPut, session, nil, []byte("a,b\n"))
		wantStatus(t, resp, body, http.StatusCreated)
		if obj := onlyObject(t, h.srv); obj.ContentType != "text/csv" {
			t.Fatalf("content type %q", obj.ContentType)
		}
	})
}

func TestBaseURL(t *testing.T) {
	h := newHarness(t, Options{BaseURL: "http://sandbox.test:9/"})
	resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	if loc := resp.Header.Get("Location"); !strings.HasPrefix(loc, "http://sandbox.test:9"+genericPath+"?") {
		t.Fatalf("Location = %q", loc)
	}
}
