package emulator

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// chunkAlign is the unit Google requires of every chunk but the last, and persists in.
	chunkAlign = 256 << 10
	// metadataLimit bounds the JSON metadata of an upload.
	metadataLimit = 1 << 20
	// drainLimit is how much of a refused request's body is read so that the
	// client, still sending, gets to see the answer; beyond it the connection closes.
	drainLimit = 64 << 20
)

// errCut is the body's error when a CutBody fault ends it.
var errCut = errors.New("emulator: connection cut by an injected fault")

// bodyReader counts a request's body and notices when the client goes away.
type bodyReader struct {
	r        io.Reader
	n        int64
	err      error // first error other than EOF: the connection is gone
	cutAfter int64 // a CutBody fault's limit; negative: none
	cut      bool
	rate     int64     // a SlowRead fault's bytes per second; 0: as fast as they come
	began    time.Time // the first read, when rate is set
}

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.cutAfter >= 0 {
		left := b.cutAfter - b.n
		if left <= 0 {
			// Cut only a body that goes on past the limit.
			var one [1]byte
			if m, err := io.ReadFull(b.r, one[:]); m == 0 {
				if errors.Is(err, io.ErrUnexpectedEOF) {
					err = io.EOF
				}
				if err != io.EOF {
					b.err = err
				}
				return 0, err
			}
			b.cut, b.err = true, errCut
			return 0, errCut
		}
		if int64(len(p)) > left {
			p = p[:left]
		}
	}
	if b.rate > 0 {
		if b.began.IsZero() {
			b.began = time.Now()
		}
		due := b.began.Add(time.Duration(float64(b.n) / float64(b.rate) * float64(time.Second)))
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		p = p[:min(int64(len(p)), max(b.rate/20, 1))]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// gone reports whether the client can no longer receive an answer.
func (b *bodyReader) gone() bool { return b.err != nil }

// answerWriter records the status answered, and swallows the answer of a
// request whose connection a fault closes.
type answerWriter struct {
	rw     http.ResponseWriter
	drop   func() bool
	header http.Header
	status int
}

func (a *answerWriter) Header() http.Header {
	if a.drop() {
		if a.header == nil {
			a.header = http.Header{}
		}
		return a.header
	}
	return a.rw.Header()
}

func (a *answerWriter) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
	if !a.drop() {
		a.rw.WriteHeader(code)
	}
}

func (a *answerWriter) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	if a.drop() {
		return len(p), nil
	}
	return a.rw.Write(p)
}

// exchange is one request under /upload/ on its way through the server.
type exchange struct {
	r      *http.Request
	w      *answerWriter
	body   *bodyReader
	entry  Request
	action Action // the injected fault's action; nil when none applies
	drop   bool   // close the connection instead of answering
}

func (x *exchange) dropping() bool { return x.drop || x.body.cut }

// drain reads what is left of the body, within drainLimit, so the client sees the answer.
func (x *exchange) drain() {
	if !x.body.gone() {
		_, _ = io.CopyN(io.Discard, x.body, drainLimit)
	}
}

// fail answers a Google JSON error.
func (x *exchange) fail(e *apiError) {
	x.drain()
	writeError(x.w, e)
}

var bufferPool = sync.Pool{New: func() any { b := make([]byte, chunkAlign+readBlock); return &b }}

// readBlock is how much body is read between writes to the store.
const readBlock = 1 << 20

func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	st := classify(r)
	x := &exchange{r: r, entry: newRequestEntry(r, st, s.now())}
	x.body = &bodyReader{r: r.Body, cutAfter: -1}
	x.w = &answerWriter{rw: w, drop: x.dropping}
	defer s.finish(x, w)

	if f := s.faults.take(r, st); f != nil {
		x.action = f.fault.Action
		x.entry.Fault = f.name()
		if !s.before(x) {
			return
		}
	}
	if s.requireAuth != nil && !s.authorized(r) {
		x.w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
		x.fail(newError(http.StatusUnauthorized, "authError",
			"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."))
		return
	}
	switch st {
	case StageUpload:
		s.serveOneShot(x)
	case StageStart:
		s.startSession(x)
	case StageChunk, StageQuery:
		s.serveSession(x)
	default:
		if t := r.URL.Query().Get("uploadType"); t != "" {
			x.fail(badRequest("Invalid value for uploadType: %q. Valid values: media, multipart, resumable.", t))
			return
		}
		x.fail(badRequest("Upload requests must include an uploadType URL parameter and a URL path beginning with /upload/."))
	}
}

// before applies the faults that act before the request is processed; false: it is answered.
func (s *Server) before(x *exchange) bool {
	switch a := x.action.(type) {
	case Stall:
		var timer <-chan time.Time
		if a.For > 0 {
			t := time.NewTimer(a.For)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-timer:
		case <-a.Until:
		case <-x.r.Context().Done():
			return false
		case <-s.closed:
			x.fail(newError(http.StatusServiceUnavailable, "backendError", "The service is shutting down."))
			return false
		}
	case Answer:
		s.answerFault(x, a)
		return false
	case CutBody:
		x.body.cutAfter = max(a.After, 0)
	case DropAnswer, TroubleAfter:
		x.drop = true // the success answer is swallowed
	case SlowRead:
		x.body.rate = a.BytesPerSecond
	}
	return true
}

func (s *Server) answerFault(x *exchange, a Answer) {
	x.drain()
	if a.RetryAfter != "" {
		x.w.Header().Set("Retry-After", a.RetryAfter)
	}
	if a.HTML {
		writeHTMLError(x.w, a.Status)
		return
	}
	msg, reason := a.Message, "backendError"
	switch {
	case a.Status == http.StatusTooManyRequests:
		reason = "rateLimitExceeded"
		if msg == "" {
			msg = "Rate Limit Exceeded"
		}
	case a.Status >= 500:
		if msg == "" {
			msg = http.StatusText(a.Status)
		}
	default:
		reason = "badRequest"
		if msg == "" {
			msg = http.StatusText(a.Status)
		}
	}
	if a.Reason != "" {
		reason = a.Reason
	}
	writeError(x.w, newError(a.Status, reason, "%s", msg))
}

func (s *Server) authorized(r *http.Request) bool {
	token := bearerToken(r)
	return token != "" && s.requireAuth(token)
}

// bearerToken is the request's bearer token; "" when none.
func bearerToken(r *http.Request) string {
	v := r.Header.Get("Authorization")
	const prefix = "Bearer "
	if len(v) <= len(prefix) || !strings.EqualFold(v[:len(prefix)], prefix) {
		return ""
	}
	return strings.TrimSpace(v[len(prefix):])
}

// finish closes a connection a fault cut, and records the request.
func (s *Server) finish(x *exchange, w http.ResponseWriter) {
	status := x.w.status
	trouble, late := x.action.(TroubleAfter)
	// A cut body gets no answer: close the connection rather than let net/http send one.
	if late && x.drop && !x.body.cut {
		writeError(w, newError(trouble.Status, "backendError", "%s", http.StatusText(trouble.Status)))
		status = trouble.Status
	} else if x.dropping() || (x.body.gone() && status == 0) {
		status = 0
		if d, ok := x.action.(DropAnswer); ok && d.Hold != nil {
			select {
			case <-d.Hold:
			case <-x.r.Context().Done():
			case <-s.closed:
			}
		}
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close()
		} else {
			defer panic(http.ErrAbortHandler) // HTTP/2: reset the stream instead
		}
	} else if x.body.gone() {
		status = 0
	}
	x.entry.Status = status
	x.entry.BodyBytes = x.body.n
	s.requests.add(x.entry)
	attrs := []slog.Attr{
		slog.String("method", x.r.Method), slog.String("path", x.r.URL.Path),
		slog.String("stage", string(x.entry.Stage)), slog.Int("status", status),
		slog.Int64("bytes", x.body.n),
	}
	if x.entry.Session != "" {
		attrs = append(attrs, slog.String("session", x.entry.Session))
	}
	if x.entry.Fault != "" {
		attrs = append(attrs, slog.String("fault", x.entry.Fault))
	}
	s.log.LogAttrs(x.r.Context(), slog.LevelInfo, "upload request", attrs...)
}

// oneShotHead reads what comes before a one-request upload's bytes: for
// uploadType=media the headers, for multipart the metadata part and the
// media part's headers. media is the file's bytes, still to be read; mr is
// the multipart body, whose end is still to be checked. ok is false when the
// request was answered.
func (s *Server) oneShotHead(x *exchange, u *uploadInfo) (media io.Reader, mr *multipart.Reader, ok bool) {
	r := x.r
	if u.uploadType == "media" {
		u.contentType = r.Header.Get("Content-Type")
		u.size = r.ContentLength
		return x.body, nil, true
	}
	mr, metadata, part, e := s.readMultipartHead(x)
	if e != nil {
		if !x.body.gone() {
			x.fail(e)
		}
		return nil, nil, false
	}
	u.metadata = metadata
	u.contentType = part.Header.Get("Content-Type")
	if named := metadataString(u.metadata, "contentType"); named != "" && mediaType(named) != mediaType(u.contentType) {
		// As Google's Cloud Storage emulator does: the two must agree.
		x.fail(newError(http.StatusPreconditionFailed, "conditionNotMet", "Content-Type validation failed"))
		return nil, nil, false
	}
	if media, e = decodePart(part); e != nil {
		x.fail(e)
		return nil, nil, false
	}
	return media, mr, true
}

// serveOneShot serves uploadType=media and uploadType=multipart.
func (s *Server) serveOneShot(x *exchange) {
	r := x.r
	ep, e := resolve(r.Method, r.URL.Path)
	if e != nil {
		x.fail(e)
		return
	}
	q := r.URL.Query()
	u := &uploadInfo{method: r.Method, path: r.URL.Path, query: q, size: -1, uploadType: q.Get("uploadType")}
	media, mr, ok := s.oneShotHead(x, u)
	if !ok {
		return
	}
	if e := s.admit(ep, u); e != nil {
		x.fail(e)
		return
	}
	b, err := s.store.newBlob(answersMD5(ep))
	if err != nil {
		x.fail(internal("The upload could not be stored."))
		s.log.Error("store failed", "err", err)
		return
	}
	limit := ep.limit()
	if limit <= 0 {
		limit = 1<<63 - 2
	}
	sink := &recordingWriter{w: b}
	bufp := bufferPool.Get().(*[]byte)
	n, err := io.CopyBuffer(sink, io.LimitReader(media, limit+1), *bufp)
	bufferPool.Put(bufp)
	switch {
	case x.body.gone():
		b.discard()
		return
	case sink.err != nil:
		b.discard()
		x.fail(internal("The upload could not be stored."))
		s.log.Error("store failed", "err", sink.err)
		return
	case errors.Is(err, io.ErrUnexpectedEOF):
		b.discard()
		x.fail(badRequest("The multipart body does not end with the closing boundary (--BOUNDARY--)."))
		return
	case err != nil:
		b.discard()
		x.fail(badRequest("The multipart body is malformed: %v.", err))
		return
	case n > limit:
		b.discard()
		x.fail(tooLarge(limit))
		return
	}
	if mr != nil {
		if _, err := mr.NextRawPart(); err != io.EOF {
			b.discard()
			switch {
			case x.body.gone():
			case err == nil:
				x.fail(badRequest("The multipart body has more than two parts; it must have exactly two: the JSON metadata, then the media."))
			default:
				x.fail(badRequest("The multipart body does not end with the closing boundary (--BOUNDARY--)."))
			}
			return
		}
	}
	obj, e := s.buildObject(r, ep, u, b.content())
	if e != nil {
		b.discard()
		x.fail(e)
		return
	}
	if obj, err = b.commit(obj); err != nil {
		x.fail(internal("The upload could not be stored."))
		s.log.Error("store failed", "err", err)
		return
	}
	s.writeResource(x, http.StatusOK, obj.Response)
}

// hugeAnswer is the size of a SuccessHuge body: past what clients keep of an answer.
const hugeAnswer = 16<<20 + 1<<10

// writeResource answers a finished upload with its resource, or with the
// body a BadSuccess fault asks for.
func (s *Server) writeResource(x *exchange, status int, body []byte) {
	b, ok := x.action.(BadSuccess)
	if !ok {
		writeJSON(x.w, status, body)
		return
	}
	switch b.Body {
	case SuccessHTML:
		page := []byte("<!DOCTYPE html>\n<html lang=en><meta charset=utf-8><title>Upload complete</title>\n<p>Your file was received.\n")
		x.w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		x.w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		x.w.WriteHeader(status)
		_, _ = x.w.Write(page)
	case SuccessCutJSON:
		writeJSON(x.w, status, body[:len(body)/2])
	case SuccessNothing:
		writeJSON(x.w, status, []byte("{}"))
	case SuccessHuge:
		head, tail := []byte(`{"padding":"`), []byte(`"}`)
		x.w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		x.w.Header().Set("Content-Length", strconv.Itoa(len(head)+hugeAnswer+len(tail)))
		x.w.WriteHeader(status)
		_, _ = x.w.Write(head)
		pad := bytes.Repeat([]byte("a"), 64<<10)
		for n := 0; n < hugeAnswer; n += len(pad) {
			if _, err := x.w.Write(pad[:min(len(pad), hugeAnswer-n)]); err != nil {
				return
			}
		}
		_, _ = x.w.Write(tail)
	default:
		writeJSON(x.w, status, nil)
	}
}

// recordingWriter tells a store's write error apart from the body's read error.
type recordingWriter struct {
	w   io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// readMultipartHead checks a multipart/related body up to its media part:
// exactly the JSON metadata first, then the media.
func (s *Server) readMultipartHead(x *exchange) (*multipart.Reader, json.RawMessage, *multipart.Part, *apiError) {
	ct := x.r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/related" || params["boundary"] == "" {
		return nil, nil, nil, badRequest("uploadType=multipart needs Content-Type: multipart/related with a boundary; the request has %q.", ct)
	}
	mr := multipart.NewReader(x.body, params["boundary"])
	first, err := mr.NextRawPart()
	if err == io.EOF {
		return nil, nil, nil, badRequest("The multipart body has no parts; it must have exactly two: the JSON metadata, then the media.")
	}
	if err != nil {
		return nil, nil, nil, badRequest("The multipart body does not start with its boundary (--%s).", params["boundary"])
	}
	if got := mediaType(first.Header.Get("Content-Type")); got != "application/json" {
		return nil, nil, nil, badRequest("The first part of a multipart upload must be the JSON metadata (Content-Type: application/json); it is %q.", first.Header.Get("Content-Type"))
	}
	raw, err := io.ReadAll(io.LimitReader(first, metadataLimit+1))
	if err != nil {
		return nil, nil, nil, badRequest("The metadata part could not be read: %v.", err)
	}
	if len(raw) > metadataLimit {
		return nil, nil, nil, badRequest("The metadata part is larger than %d bytes.", metadataLimit)
	}
	meta, e := parseMetadata(raw)
	if e != nil {
		return nil, nil, nil, e
	}
	second, err := mr.NextRawPart()
	if err == io.EOF {
		return nil, nil, nil, badRequest("The multipart body has only one part; it must have exactly two: the JSON metadata, then the media.")
	}
	if err != nil {
		return nil, nil, nil, badRequest("The multipart body's second part could not be read: %v.", err)
	}
	return mr, meta, second, nil
}

// decodePart undoes a media part's Content-Transfer-Encoding.
func decodePart(p *multipart.Part) (io.Reader, *apiError) {
	switch cte := strings.ToLower(strings.TrimSpace(p.Header.Get("Content-Transfer-Encoding"))); cte {
	case "", "binary", "8bit", "7bit":
		return p, nil
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, p), nil
	case "quoted-printable":
		return quotedprintable.NewReader(p), nil
	default:
		return nil, badRequest("Content-Transfer-Encoding %q of the media part is not supported.", cte)
	}
}

// parseMetadata accepts a JSON object, or nothing.
func parseMetadata(raw []byte) (json.RawMessage, *apiError) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, invalid("Invalid JSON payload received: the metadata must be a JSON object.")
	}
	return json.RawMessage(raw), nil
}

// mediaType is the lower-case type/subtype of a Content-Type value.
func mediaType(ct string) string {
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// accepted tells whether media type mt matches a pattern like "message/*" or "*/*".
func accepted(pattern, mt string) bool {
	if pattern == "*/*" {
		return true
	}
	if prefix, ok := strings.CutSuffix(pattern, "*"); ok {
		return strings.HasPrefix(mt, prefix) && len(mt) > len(prefix)
	}
	return mt == pattern
}

// admit checks what is known of an upload before any of its bytes.
func (s *Server) admit(ep endpoint, u *uploadInfo) *apiError {
	if e := ep.check(s, u); e != nil {
		return e
	}
	if mt := mediaType(u.contentType); !accepted(ep.accepts(), mt) {
		return newError(http.StatusBadRequest, "badContent",
			"Media type '%s' is not supported. Valid media types: [%s]", mt, ep.accepts())
	}
	if limit := ep.limit(); limit > 0 && u.size > limit {
		return tooLarge(limit)
	}
	return nil
}

// buildObject checks the uploaded bytes and makes the object and its answer.
func (s *Server) buildObject(r *http.Request, ep endpoint, u *uploadInfo, c content) (Object, *apiError) {
	if e := ep.inspect(u, c); e != nil {
		return Object{}, e
	}
	if cm, ok := ep.(committer); ok {
		u.hash = r.Header.Get("X-Goog-Hash")
		if e := cm.commitCheck(s, u, c); e != nil {
			return Object{}, e
		}
	}
	f := &finished{id: ep.newID(), info: u, content: c, base: s.base(r), created: s.now().UTC()}
	res := ep.resource(s, f)
	body, err := json.Marshal(res.body)
	if err != nil {
		return Object{}, internal("The answer could not be encoded.")
	}
	return Object{
		ID:          f.id,
		Kind:        ep.kind(),
		Action:      ep.action(),
		Path:        u.path,
		Name:        res.name,
		Draft:       res.draft,
		UploadType:  u.uploadType,
		ContentType: u.contentType,
		Metadata:    u.metadata,
		Response:    body,
		Created:     f.created,

		MessageID:    res.messageID,
		InternalDate: res.internalDate,
	}, nil
}
