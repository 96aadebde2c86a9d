package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// resumable starts a generic session for a total-byte file.
func (h *harness) resumable(total int) string {
	h.t.Helper()
	return h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"),
		hdr("X-Upload-Content-Type", "application/octet-stream", "X-Upload-Content-Length", fmt.Sprint(total)), "")
}

func TestAnswerFaults(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			h := newHarness(t, Options{})
			data := payload(512*kib, 20)
			session := h.resumable(len(data))
			inj := h.srv.Inject(Fault{Match: Match{Stage: StageChunk}, Times: 2, Action: Answer{Status: status}})
			for range 2 {
				resp, body := h.chunk(session, data[:256*kib], 0, int64(len(data)))
				e := wantError(t, resp, body, status, "")
				if e.Error.Errors[0].Reason != "backendError" {
					t.Fatalf("reason = %q", e.Error.Errors[0].Reason)
				}
			}
			resp, body := h.chunk(session, data[:256*kib], 0, int64(len(data)))
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, 256*kib)
			if inj.Count() != 2 {
				t.Fatalf("Count = %d, want 2", inj.Count())
			}
			if reqs := h.srv.Requests(); reqs[1].Fault == "" || reqs[3].Fault != "" || reqs[1].Status != status {
				t.Fatalf("request log does not show the fault: %+v", reqs)
			}
		})
	}
}

func TestRateLimitFault(t *testing.T) {
	h := newHarness(t, Options{})
	inj := h.srv.Inject(Fault{Action: Answer{Status: http.StatusTooManyRequests, RetryAfter: "7"}})
	resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
	e := wantError(t, resp, body, http.StatusTooManyRequests, "Rate Limit Exceeded")
	if resp.Header.Get("Retry-After") != "7" || e.Error.Errors[0].Reason != "rateLimitExceeded" || e.Error.Status != "RESOURCE_EXHAUSTED" {
		t.Fatalf("Retry-After %q, body %s", resp.Header.Get("Retry-After"), body)
	}
	resp, body = h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
	wantStatus(t, resp, body, http.StatusOK)
	if inj.Count() != 1 {
		t.Fatalf("Count = %d", inj.Count())
	}
}

func TestAnswerFaultReason(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.Inject(Fault{Action: Answer{Status: http.StatusForbidden, Reason: "insufficientPermissions", Message: "The user does not have sufficient permissions."}})
	resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
	e := wantError(t, resp, body, http.StatusForbidden, "sufficient permissions")
	if e.Error.Errors[0].Reason != "insufficientPermissions" || e.Error.Status != "PERMISSION_DENIED" {
		t.Fatalf("reason %q, status %q: %s", e.Error.Errors[0].Reason, e.Error.Status, body)
	}
}

func TestHTMLErrorFault(t *testing.T) {
	h := newHarness(t, Options{})
	h.srv.Inject(Fault{Action: Answer{Status: http.StatusBadGateway, HTML: true}})
	resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
	wantStatus(t, resp, body, http.StatusBadGateway)
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte("<html")) {
		t.Fatalf("not an HTML page: %q %s", resp.Header.Get("Content-Type"), body)
	}
}

func TestRefuseSessionStartFault(t *testing.T) {
	h := newHarness(t, Options{})
	path := "/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets"
	inj := h.srv.Inject(Fault{Match: Match{Stage: StageStart, Path: "/upload/dfareporting/"}, Times: -1,
		Action: Answer{Status: http.StatusBadRequest, Message: "Resumable uploads are not supported."}})
	meta := `{"assetIdentifier":{"name":"banner","type":"HTML_IMAGE"}}`
	resp, body := h.do(http.MethodPost, withQuery(path, "uploadType", "resumable"), hdr("Content-Type", "application/json"), []byte(meta))
	wantError(t, resp, body, http.StatusBadRequest, "Resumable uploads are not supported.")
	mp := multipartBody("b", [2]string{"Content-Type: application/json", meta}, [2]string{"Content-Type: image/png", string(pngBytes(t))})
	resp, body = h.do(http.MethodPost, withQuery(path, "uploadType", "multipart"), hdr("Content-Type", "multipart/related; boundary=b"), mp)
	wantStatus(t, resp, body, http.StatusOK)
	if inj.Count() != 1 {
		t.Fatalf("Count = %d", inj.Count())
	}
}

func TestCutBodyFault(t *testing.T) {
	for _, tc := range []struct {
		name  string
		after int64
		want  int64 // persisted afterwards
	}{
		{"mid chunk", 600 * kib, 512 * kib},
		{"at the start", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			data := payload(1024*kib, 21)
			session := h.resumable(len(data))
			inj := h.srv.Inject(Fault{Match: Match{Stage: StageChunk}, Action: CutBody{After: tc.after}})
			if _, _, err := h.try(http.MethodPut, session, hdr("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(data)-1, len(data))), data); err == nil {
				t.Fatal("the cut request got an answer")
			}
			reqs := h.waitRequests(2)
			if reqs[1].Status != 0 || reqs[1].BodyBytes != tc.after || !strings.HasPrefix(reqs[1].Fault, "cut") {
				t.Fatalf("request log: %+v", reqs[1])
			}
			resp, body := h.status(session, int64(len(data)))
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, tc.want)
			resp, body = h.chunk(session, data[tc.want:], tc.want, int64(len(data)))
			wantStatus(t, resp, body, http.StatusCreated)
			if inj.Count() != 1 || onlyObject(t, h.srv).SHA256 != sha(data) {
				t.Fatal("upload after the cut differs")
			}
		})
	}
	t.Run("body shorter than the cut", func(t *testing.T) {
		h := newHarness(t, Options{})
		h.srv.Inject(Fault{Action: CutBody{After: 100}})
		resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("short"))
		wantStatus(t, resp, body, http.StatusOK)
	})
	t.Run("one-shot upload", func(t *testing.T) {
		h := newHarness(t, Options{})
		h.srv.Inject(Fault{Match: Match{Stage: StageUpload}, Action: CutBody{After: 10}})
		if _, _, err := h.try(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, payload(100*kib, 1)); err == nil {
			t.Fatal("the cut request got an answer")
		}
		h.waitRequests(1)
		if n := len(h.srv.Objects()); n != 0 {
			t.Fatalf("a cut one-request upload left %d objects", n)
		}
	})
}

func TestDropAnswerFault(t *testing.T) {
	h := newHarness(t, Options{})
	data := payload(300*kib, 22)
	session := h.resumable(len(data))
	inj := h.srv.Inject(Fault{Match: Match{Stage: StageChunk}, Action: DropAnswer{}})
	if _, _, err := h.try(http.MethodPut, session, hdr("Content-Range", fmt.Sprintf("bytes 0-%d/%d", len(data)-1, len(data))), data); err == nil {
		t.Fatal("the request got an answer")
	}
	h.waitRequests(2)
	resp, body := h.status(session, int64(len(data)))
	wantStatus(t, resp, body, http.StatusCreated)
	obj := onlyObject(t, h.srv)
	if string(body) != string(obj.Response) || obj.SHA256 != sha(data) || inj.Count() != 1 {
		t.Fatalf("status after the lost answer = %s", body)
	}
}

func TestStallFault(t *testing.T) {
	t.Run("until released", func(t *testing.T) {
		h := newHarness(t, Options{})
		data := payload(512*kib, 23)
		session := h.resumable(len(data))
		release := make(chan struct{})
		inj := h.srv.Inject(Fault{Match: Match{Stage: StageChunk}, Action: Stall{Until: release}})
		done := make(chan *http.Response, 1)
		go func() {
			resp, _, err := h.try(http.MethodPut, session, hdr("Content-Range", fmt.Sprintf("bytes 0-%d/%d", 256*kib-1, len(data))), data[:256*kib])
			if err != nil {
				t.Error(err)
			}
			done <- resp
		}()
		for inj.Count() == 0 {
			time.Sleep(time.Millisecond) // wait for the request to reach the server
		}
		// The stalled request has read nothing and holds no lock.
		resp, body := h.status(session, int64(len(data)))
		wantStatus(t, resp, body, statusResumeIncomplete)
		wantRange(t, resp, 0)
		close(release)
		if resp := <-done; resp == nil || resp.StatusCode != statusResumeIncomplete || resp.Header.Get("Range") != fmt.Sprintf("bytes=0-%d", 256*kib-1) {
			t.Fatalf("released request: %+v", resp)
		}
	})
	t.Run("for a while", func(t *testing.T) {
		h := newHarness(t, Options{})
		inj := h.srv.Inject(Fault{Action: Stall{For: 5 * time.Millisecond}})
		resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
		wantStatus(t, resp, body, http.StatusOK)
		if inj.Count() != 1 {
			t.Fatalf("Count = %d", inj.Count())
		}
	})
	t.Run("until the server closes", func(t *testing.T) {
		h := newHarness(t, Options{})
		inj := h.srv.Inject(Fault{Action: Stall{}})
		done := make(chan int, 1)
		go func() {
			resp, _, err := h.try(http.MethodPost, withQuery(genericPath, "uploadType", "media"), nil, []byte("x"))
			if err != nil {
				done <- 0
				return
			}
			done <- resp.StatusCode
		}()
		for inj.Count() == 0 {
			time.Sleep(time.Millisecond)
		}
		h.srv.Close()
		if status := <-done; status != http.StatusServiceUnavailable {
			t.Fatalf("stalled request on close: %d", status)
		}
	})
}

func TestKeepLessFault(t *testing.T) {
	data := payload(600*kib, 24)
	total := int64(len(data))
	for _, tc := range []struct {
		name string
		keep KeepLess
		sent int64 // bytes of the first request
		want int64 // persisted after it
	}{
		{"drop the last bytes", KeepLess{Drop: 1000}, 512 * kib, 512*kib - 1000},
		{"round down the whole file", KeepLess{Align: 256 * kib}, total, 512 * kib},
		{"round down then drop", KeepLess{Align: 256 * kib, Drop: 256 * kib}, total, 256 * kib},
		{"drop more than the chunk", KeepLess{Drop: 1 << 20}, 512 * kib, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Store: NewHashStore()})
			session := h.resumable(len(data))
			inj := h.srv.Inject(Fault{Action: tc.keep})
			resp, body := h.chunk(session, data[:tc.sent], 0, total)
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, tc.want)
			resp, body = h.status(session, total)
			wantStatus(t, resp, body, statusResumeIncomplete)
			wantRange(t, resp, tc.want)
			resp, body = h.chunk(session, data[tc.want:], tc.want, total)
			wantStatus(t, resp, body, http.StatusCreated)
			if inj.Count() != 1 || onlyObject(t, h.srv).SHA256 != sha(data) {
				t.Fatal("the completed upload differs")
			}
		})
	}
}

func TestExpireSessionFault(t *testing.T) {
	h := newHarness(t, Options{})
	session := h.resumable(1000)
	inj := h.srv.Inject(Fault{Action: ExpireSession{}})
	resp, body := h.status(session, 1000)
	wantError(t, resp, body, http.StatusNotFound, "expired")
	resp, body = h.chunk(session, make([]byte, 1000), 0, 1000)
	wantError(t, resp, body, http.StatusNotFound, "expired")
	if inj.Count() != 1 {
		t.Fatalf("Count = %d", inj.Count())
	}
}

func TestGarbageRangeFault(t *testing.T) {
	h := newHarness(t, Options{})
	session := h.resumable(512 * kib)
	h.srv.Inject(Fault{Times: 2, Action: GarbageRange{Value: "bytes=banana"}})
	resp, _ := h.chunk(session, payload(256*kib, 25), 0, 512*kib)
	if resp.StatusCode != statusResumeIncomplete || resp.Header.Get("Range") != "bytes=banana" {
		t.Fatalf("chunk: %d Range %q", resp.StatusCode, resp.Header.Get("Range"))
	}
	resp, _ = h.status(session, 512*kib)
	if resp.Header.Get("Range") != "bytes=banana" {
		t.Fatalf("status query Range %q", resp.Header.Get("Range"))
	}
	resp, _ = h.status(session, 512*kib)
	wantRange(t, resp, 256*kib)
}

func TestLocationFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		action Action
		check  func(loc string) bool
	}{
		{"foreign host", ForeignLocation{}, func(loc string) bool {
			u, err := url.Parse(loc)
			return err == nil && u.Host == "uploads.example.net" && u.Query().Get("upload_id") != ""
		}},
		{"chosen foreign host", ForeignLocation{Host: "evil.test:8443"}, func(loc string) bool {
			u, err := url.Parse(loc)
			return err == nil && u.Host == "evil.test:8443"
		}},
		{"missing", NoLocation{}, func(loc string) bool { return loc == "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			inj := h.srv.Inject(Fault{Action: tc.action})
			resp, body := h.do(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), nil, nil)
			wantStatus(t, resp, body, http.StatusOK)
			if loc := resp.Header.Get("Location"); !tc.check(loc) {
				t.Fatalf("Location = %q", loc)
			}
			if inj.Count() != 1 {
				t.Fatalf("Count = %d", inj.Count())
			}
		})
	}
}

func TestFaultMatching(t *testing.T) {
	media := withQuery(genericPath, "uploadType", "media")
	t.Run("by header, every time, until removed", func(t *testing.T) {
		h := newHarness(t, Options{})
		inj := h.srv.Inject(Fault{Times: -1, Match: Match{Func: func(r *http.Request) bool { return r.Header.Get("X-Test") == "boom" }},
			Action: Answer{Status: http.StatusServiceUnavailable}})
		for i, tc := range []struct {
			header http.Header
			status int
		}{
			{hdr("X-Test", "boom"), 503}, {nil, 200}, {hdr("X-Test", "boom"), 503}, {hdr("X-Test", "boom"), 503},
		} {
			resp, body := h.do(http.MethodPost, media, tc.header, []byte("x"))
			if resp.StatusCode != tc.status {
				t.Fatalf("request %d: %d %s", i, resp.StatusCode, body)
			}
		}
		inj.Remove()
		resp, body := h.do(http.MethodPost, media, hdr("X-Test", "boom"), []byte("x"))
		wantStatus(t, resp, body, http.StatusOK)
		if inj.Count() != 3 {
			t.Fatalf("Count = %d, want 3", inj.Count())
		}
	})
	t.Run("skip then times", func(t *testing.T) {
		h := newHarness(t, Options{})
		inj := h.srv.Inject(Fault{Skip: 1, Times: 2, Action: Answer{Status: 500}})
		var got []int
		for range 4 {
			resp, _ := h.do(http.MethodPost, media, nil, []byte("x"))
			got = append(got, resp.StatusCode)
		}
		if fmt.Sprint(got) != "[200 500 500 200]" || inj.Count() != 2 {
			t.Fatalf("statuses %v, Count %d", got, inj.Count())
		}
	})
	t.Run("method, path and stage", func(t *testing.T) {
		h := newHarness(t, Options{})
		inj := h.srv.Inject(Fault{Times: -1, Match: Match{Method: "PUT", Path: "/upload/files/", Stage: StageUpload}, Action: Answer{Status: 500}})
		statuses := map[string]int{}
		for _, tc := range []struct{ method, path string }{
			{"POST", media}, {"PUT", media}, {"PUT", withQuery("/upload/other/x", "uploadType", "media")},
			{"PUT", withQuery(genericPath, "uploadType", "resumable")},
		} {
			resp, _ := h.do(tc.method, tc.path, nil, []byte("x"))
			statuses[tc.method+" "+tc.path] = resp.StatusCode
		}
		if inj.Count() != 1 || statuses["PUT "+media] != 500 || statuses["POST "+media] != 200 {
			t.Fatalf("statuses %v", statuses)
		}
	})
	t.Run("first fault in order, one per request", func(t *testing.T) {
		h := newHarness(t, Options{})
		first := h.srv.Inject(Fault{Action: Answer{Status: 502}})
		second := h.srv.Inject(Fault{Action: Answer{Status: 504}})
		resp, _ := h.do(http.MethodPost, media, nil, []byte("x"))
		resp2, _ := h.do(http.MethodPost, media, nil, []byte("x"))
		if resp.StatusCode != 502 || resp2.StatusCode != 504 || first.Count() != 1 || second.Count() != 1 {
			t.Fatalf("statuses %d, %d", resp.StatusCode, resp2.StatusCode)
		}
		h.srv.Inject(Fault{Action: Answer{Status: 500}})
		h.srv.ClearFaults()
		resp, _ = h.do(http.MethodPost, media, nil, []byte("x"))
		if resp.StatusCode != 200 {
			t.Fatalf("after ClearFaults: %d", resp.StatusCode)
		}
	})
	t.Run("actions only where they apply", func(t *testing.T) {
		h := newHarness(t, Options{})
		inj := h.srv.Inject(Fault{Action: NoLocation{}})
		resp, body := h.do(http.MethodPost, media, nil, []byte("x")) // not a session start
		wantStatus(t, resp, body, http.StatusOK)
		if inj.Count() != 0 {
			t.Fatal("NoLocation applied to a one-request upload")
		}
	})
}

func TestRequireAuth(t *testing.T) {
	h := newHarness(t, Options{RequireAuth: func(tok string) bool { return tok == "good-token" }})
	media := withQuery(genericPath, "uploadType", "media")
	for _, tc := range []struct {
		name, auth string
		status     int
	}{
		{"none", "", 401}, {"wrong", "Bearer bad-token", 401}, {"not bearer", "Basic Z29vZC10b2tlbg==", 401},
		{"right", "Bearer good-token", 200}, {"scheme in lower case", "bearer good-token", 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := h.do(http.MethodPost, media, hdr("Authorization", tc.auth), []byte("x"))
			if tc.status == 401 {
				e := wantError(t, resp, body, 401, "invalid authentication credentials")
				if e.Error.Status != "UNAUTHENTICATED" || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
					t.Fatalf("401 answer: %s %v", body, resp.Header)
				}
				return
			}
			wantStatus(t, resp, body, tc.status)
		})
	}
	t.Run("chunks need it too", func(t *testing.T) {
		session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"), hdr("Authorization", "Bearer good-token"), "")
		resp, body := h.do(http.MethodPut, session, hdr("Content-Range", "bytes */*"), nil)
		wantStatus(t, resp, body, 401)
		resp, body = h.do(http.MethodPut, session, hdr("Content-Range", "bytes */*", "Authorization", "Bearer good-token"), nil)
		wantStatus(t, resp, body, statusResumeIncomplete)
	})
}

func TestRequestLogAndLogsKeepNoSecrets(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h := newHarness(t, Options{Logger: logger})
	const token = "ya29.secret-token"
	auth := "Bearer " + token
	data := payload(300*kib, 26)
	session := h.start(http.MethodPost, withQuery(genericPath, "uploadType", "resumable"),
		hdr("Authorization", auth, "X-Upload-Content-Type", "image/png", "X-Upload-Content-Length", fmt.Sprint(len(data))), `{"name":"a"}`)
	resp, body := h.do(http.MethodPut, session, hdr("Authorization", auth, "X-GUploader-No-308", "yes",
		"Content-Range", fmt.Sprintf("bytes 0-%d/%d", 256*kib-1, len(data))), data[:256*kib])
	wantStatus(t, resp, body, http.StatusOK)
	resp, body = h.do(http.MethodPut, session, hdr("Content-Range", fmt.Sprintf("bytes %d-%d/%d", 256*kib, len(data)-1, len(data))), data[256*kib:])
	wantStatus(t, resp, body, http.StatusCreated)

	reqs := h.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests logged", len(reqs))
	}
	start, chunk, last := reqs[0], reqs[1], reqs[2]
	if start.Stage != StageStart || start.UploadContentType != "image/png" || start.UploadContentLength != fmt.Sprint(len(data)) ||
		!start.Authorization || start.Status != 200 || start.BodyBytes != int64(len(`{"name":"a"}`)) {
		t.Fatalf("start: %+v", start)
	}
	if chunk.Stage != StageChunk || !chunk.No308 || chunk.ContentRange == "" || chunk.BodyBytes != 256*kib ||
		chunk.Session == "" || chunk.Session != start.Session || chunk.Query.Get("upload_id") != "redacted" || chunk.Method != "PUT" {
		t.Fatalf("chunk: %+v", chunk)
	}
	if last.Authorization || last.Status != http.StatusCreated || last.Session != start.Session {
		t.Fatalf("last: %+v", last)
	}
	u, _ := url.Parse(session)
	uploadID := u.Query().Get("upload_id")
	logged, _ := json.Marshal(reqs)
	for name, text := range map[string]string{"request log": string(logged), "slog output": logs.String()} {
		if strings.Contains(text, token) || strings.Contains(text, uploadID) {
			t.Fatalf("%s holds a secret: %s", name, text)
		}
	}
	if !strings.Contains(logs.String(), `"session":"`+start.Session) {
		t.Fatalf("slog output does not name the session by its tag: %s", logs.String())
	}
	h.srv.ClearRequests()
	if len(h.srv.Requests()) != 0 {
		t.Fatal("ClearRequests left entries")
	}
}
