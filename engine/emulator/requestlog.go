package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// maxRequests bounds the request log; older entries are dropped first.
const maxRequests = 10000

// Request is what the server saw of one request under /upload/. The upload_id
// and any Authorization value are not kept: Session is a short tag that is
// the same for every request of one session.
type Request struct {
	Time                time.Time  `json:"time"`
	Method              string     `json:"method"`
	Path                string     `json:"path"`
	Query               url.Values `json:"query"` // upload_id replaced by "redacted"
	Stage               Stage      `json:"stage"`
	Session             string     `json:"session,omitempty"`
	ContentType         string     `json:"contentType,omitempty"`
	ContentLength       int64      `json:"contentLength"` // -1 when unknown (chunked body)
	ContentRange        string     `json:"contentRange,omitempty"`
	UploadContentType   string     `json:"uploadContentType,omitempty"`   // X-Upload-Content-Type
	UploadContentLength string     `json:"uploadContentLength,omitempty"` // X-Upload-Content-Length
	No308               bool       `json:"no308,omitempty"`               // X-GUploader-No-308: yes
	Authorization       bool       `json:"authorization"`                 // an Authorization header was present
	BodyBytes           int64      `json:"bodyBytes"`                     // body bytes the server read
	Status              int        `json:"status"`                        // 0: no answer, the connection was cut
	Fault               string     `json:"fault,omitempty"`               // the injected fault that applied
	UserAgent           string     `json:"userAgent,omitempty"`
}

func newRequestEntry(r *http.Request, st Stage, now time.Time) Request {
	q := r.URL.Query()
	var session string
	if id := q.Get("upload_id"); id != "" {
		session = sessionTag(id)
		q.Set("upload_id", "redacted")
	}
	h := r.Header
	return Request{
		UserAgent:           h.Get("User-Agent"),
		Time:                now,
		Method:              r.Method,
		Path:                r.URL.Path,
		Query:               q,
		Stage:               st,
		Session:             session,
		ContentType:         h.Get("Content-Type"),
		ContentLength:       r.ContentLength,
		ContentRange:        h.Get("Content-Range"),
		UploadContentType:   h.Get("X-Upload-Content-Type"),
		UploadContentLength: h.Get("X-Upload-Content-Length"),
		No308:               h.Get("X-GUploader-No-308") == "yes",
		Authorization:       h.Get("Authorization") != "",
	}
}

type requestLog struct {
	mu   sync.Mutex
	list []Request
}

func (l *requestLog) add(e Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.list) >= maxRequests {
		l.list = slices.Delete(l.list, 0, len(l.list)-maxRequests+1)
	}
	l.list = append(l.list, e)
}

// Requests returns the requests served under /upload/, oldest first.
func (s *Server) Requests() []Request {
	s.requests.mu.Lock()
	defer s.requests.mu.Unlock()
	return slices.Clone(s.requests.list)
}

// ClearRequests empties the request log.
func (s *Server) ClearRequests() {
	s.requests.mu.Lock()
	s.requests.list = nil
	s.requests.mu.Unlock()
}
