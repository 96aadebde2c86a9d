package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// sessionRecord is a resumable session as the store keeps it.
type sessionRecord struct {
	ID          string          `json:"id"` // the upload_id
	Path        string          `json:"path"`
	Query       string          `json:"query"`  // the start's query, without upload_id
	Method      string          `json:"method"` // POST (create: 201 at the end) or PUT (update: 200)
	ContentType string          `json:"contentType"`
	Total       int64           `json:"total"` // -1 until the client says
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Created     time.Time       `json:"created"`
	Expired     bool            `json:"expired,omitempty"`
	ObjectID    string          `json:"objectId,omitempty"` // set once complete
	Failure     *apiError       `json:"failure,omitempty"`  // the answer to a completion that was refused
	// NoMD5: the answer does not carry the bytes' MD5, so it is not
	// computed (sessions stored by an earlier sandbox compute it).
	NoMD5 bool `json:"noMD5,omitempty"`
}

func (rec *sessionRecord) info() *uploadInfo {
	q, _ := url.ParseQuery(rec.Query)
	return &uploadInfo{
		method: rec.Method, path: rec.Path, query: q, metadata: rec.Metadata,
		contentType: rec.ContentType, size: rec.Total, uploadType: "resumable",
	}
}

// doneStatus is the final answer's status: 201 Created for a session started
// with POST, 200 OK for one started with PUT.
func doneStatus(method string) int {
	if method == http.MethodPost {
		return http.StatusCreated
	}
	return http.StatusOK
}

func sessionNotFound() *apiError {
	return notFound("No upload session matches this upload_id. Start the upload again from the beginning.")
}

func (s *Server) expiredError() *apiError {
	const msg = "The upload session has expired. Start the upload again from the beginning."
	if s.expiredStatus == http.StatusGone {
		return newError(http.StatusGone, "gone", msg)
	}
	return notFound(msg)
}

// startSession serves uploadType=resumable without upload_id.
func (s *Server) startSession(x *exchange) {
	r := x.r
	ep, e := resolve(r.Method, r.URL.Path)
	if e != nil {
		x.fail(e)
		return
	}
	if s.refuse[ep.kind()] {
		x.fail(badRequest("uploadType=resumable is not supported by this method; upload the file with uploadType=multipart or uploadType=media."))
		return
	}
	q := r.URL.Query()
	u := &uploadInfo{method: r.Method, path: r.URL.Path, query: q, size: -1, uploadType: "resumable"}
	if v := r.Header.Get("X-Upload-Content-Length"); v != "" {
		n, err := parseSize(v)
		if err != nil {
			x.fail(badRequest("Invalid X-Upload-Content-Length %q: it must be the size of the file in bytes.", v))
			return
		}
		u.size = n
	}
	raw, err := io.ReadAll(io.LimitReader(x.body, metadataLimit+1))
	if err != nil || x.body.gone() {
		return
	}
	if len(raw) > metadataLimit {
		x.fail(badRequest("The metadata is larger than %d bytes.", metadataLimit))
		return
	}
	if ct := r.Header.Get("Content-Type"); len(strings.TrimSpace(string(raw))) > 0 && ct != "" && mediaType(ct) != "application/json" {
		x.fail(badRequest("The body of a session start must be the JSON metadata (Content-Type: application/json); it is %q.", ct))
		return
	}
	if u.metadata, e = parseMetadata(raw); e != nil {
		x.fail(e)
		return
	}
	u.contentType = r.Header.Get("X-Upload-Content-Type")
	if u.contentType == "" {
		u.contentType = metadataString(u.metadata, "contentType")
	}
	if u.contentType == "" {
		u.contentType = "application/octet-stream"
	}
	if e := s.admit(ep, u); e != nil {
		x.fail(e)
		return
	}
	q.Del("upload_id")
	rec := sessionRecord{
		ID: newUploadID(), Path: r.URL.Path, Query: q.Encode(), Method: r.Method,
		ContentType: u.contentType, Total: u.size, Metadata: u.metadata, Created: s.now().UTC(),
		NoMD5: !answersMD5(ep),
	}
	if err := s.store.putSession(rec); err != nil {
		x.fail(internal("The upload session could not be stored."))
		s.log.Error("store failed", "err", err)
		return
	}
	x.entry.Session = sessionTag(rec.ID)
	q.Set("upload_id", rec.ID)
	loc := s.base(r) + r.URL.EscapedPath() + "?" + q.Encode()
	switch a := x.action.(type) {
	case NoLocation:
		loc = ""
	case ForeignLocation:
		host := a.Host
		if host == "" {
			host = "uploads.example.net"
		}
		if u, err := url.Parse(loc); err == nil {
			u.Host = host
			loc = u.String()
		}
	}
	h := x.w.Header()
	if loc != "" {
		h.Set("Location", loc)
	}
	h.Set("Content-Length", "0")
	x.w.WriteHeader(http.StatusOK)
}

// metadataString returns a top-level string field of JSON metadata, or "".
func metadataString(meta json.RawMessage, field string) string {
	if meta == nil {
		return ""
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return ""
	}
	var v string
	if json.Unmarshal(m[field], &v) != nil {
		return ""
	}
	return v
}

// serveSession serves requests carrying an upload_id: chunks and status queries.
func (s *Server) serveSession(x *exchange) {
	r := x.r
	if r.Method != http.MethodPut && r.Method != http.MethodPost {
		x.fail(methodNotFound())
		return
	}
	id := r.URL.Query().Get("upload_id")
	unlock, err := s.lockSession(r.Context(), id)
	if err != nil {
		if errors.Is(err, errClosed) {
			x.fail(newError(http.StatusServiceUnavailable, "backendError", "The service is shutting down."))
		}
		return
	}
	defer unlock()

	rec, persisted, ok := s.openSession(x, id)
	if !ok {
		return
	}
	ep, e := resolve(rec.Method, rec.Path)
	if e != nil {
		x.fail(e)
		return
	}
	cr, total, ok := s.sessionRange(x, &rec, persisted, ep)
	if !ok {
		return
	}
	if cr.query {
		if _, early := x.action.(FinishOnQuery); early || (total >= 0 && persisted == total) {
			s.complete(x, rec, ep)
			return
		}
		s.incomplete(x, persisted)
		return
	}
	if f, ok := x.action.(Forget); ok {
		s.forget(x, rec, persisted, f)
		return
	}
	s.receiveChunk(x, id, rec, ep, cr, total)
}

// openSession reads the session a request names and answers for it when it
// cannot take bytes: unknown, expired, already finished or failed. ok is
// true when the request goes on.
func (s *Server) openSession(x *exchange, id string) (rec sessionRecord, persisted int64, ok bool) {
	rec, persisted, err := s.store.session(id)
	switch {
	case errors.Is(err, ErrNotFound) || (err == nil && rec.Path != x.r.URL.Path):
		x.fail(sessionNotFound())
		return rec, 0, false
	case err != nil:
		x.fail(internal("The upload session could not be read."))
		s.log.Error("store failed", "err", err)
		return rec, 0, false
	}
	if _, ok := x.action.(ExpireSession); ok && !rec.Expired {
		rec.Expired = true
		if err := s.store.putSession(rec); err != nil {
			s.log.Error("store failed", "err", err)
		}
	}
	switch {
	case rec.Expired || !s.now().Before(rec.Created.Add(s.lifetime)):
		x.fail(s.expiredError())
	case rec.ObjectID != "":
		s.answerDone(x, rec)
	case rec.Failure != nil:
		x.fail(rec.Failure)
	default:
		return rec, persisted, true
	}
	return rec, 0, false
}

// sessionRange reads the request's Content-Range against the session: the
// file's size it gives must agree with what the session knows, and a chunk
// must follow the persisted bytes. A size learnt now is kept in rec and the
// store. ok is true when the request goes on.
func (s *Server) sessionRange(x *exchange, rec *sessionRecord, persisted int64, ep endpoint) (cr contentRange, total int64, ok bool) {
	r := x.r
	cr, e := requestRange(r, persisted)
	if e != nil {
		x.fail(e)
		return cr, 0, false
	}
	total = rec.Total
	if cr.total >= 0 {
		if total >= 0 && cr.total != total {
			x.fail(badRequest("Content-Range says the file has %d bytes, but this upload session is for %d bytes.", cr.total, total))
			return cr, 0, false
		}
		if cr.total < persisted {
			x.fail(badRequest("Content-Range says the file has %d bytes, fewer than the %d bytes already persisted.", cr.total, persisted))
			return cr, 0, false
		}
		total = cr.total
	}
	if cr.query && r.ContentLength != 0 {
		x.fail(badRequest("A request with Content-Range: bytes */TOTAL asks where the upload stands and must have an empty body."))
		return cr, 0, false
	}
	if !cr.query {
		if e := checkChunk(r, cr, total, persisted, ep.limit()); e != nil {
			x.fail(e)
			return cr, 0, false
		}
	}
	if total != rec.Total {
		rec.Total = total
		if err := s.store.putSession(*rec); err != nil {
			x.fail(internal("The upload session could not be stored."))
			s.log.Error("store failed", "err", err)
			return cr, 0, false
		}
	}
	return cr, total, true
}

// receiveChunk stores a chunk's bytes and answers: the object when the file
// is complete, else how much is persisted.
func (s *Server) receiveChunk(x *exchange, id string, rec sessionRecord, ep endpoint, cr contentRange, total int64) {
	var keep *KeepLess
	if k, ok := x.action.(KeepLess); ok {
		keep = &k
	}
	want := cr.last - cr.first + 1
	var body io.Reader = x.body
	if cr.toEnd {
		want = -1
		if limit := ep.limit(); limit > 0 {
			body = io.LimitReader(body, limit+1)
		}
	}
	got, err := s.receive(id, body, cr.first, want, keep)
	if err != nil {
		x.fail(internal("The upload could not be stored."))
		s.log.Error("store failed", "err", err)
		return
	}
	switch {
	case x.body.gone():
		return // the connection is cut; what was persisted stays for a resume
	case got.long:
		x.fail(badRequest("The request body is longer than the %d bytes its Content-Range gives.", want))
		return
	case got.short:
		x.fail(badRequest("The request body has %d bytes, fewer than the %d bytes its Content-Range gives.", got.n, want))
		return
	}
	if cr.toEnd {
		if limit := ep.limit(); limit > 0 && got.n > limit {
			rec.Failure = tooLarge(limit)
			if err := s.store.putSession(rec); err != nil {
				s.log.Error("store failed", "err", err)
			}
			x.fail(rec.Failure)
			return
		}
		total = cr.first + got.n
		rec.Total = total
		if err := s.store.putSession(rec); err != nil {
			x.fail(internal("The upload session could not be stored."))
			s.log.Error("store failed", "err", err)
			return
		}
	}
	if _, early := x.action.(FinishEarly); early || (total >= 0 && got.end == total) {
		s.complete(x, rec, ep)
		return
	}
	s.incomplete(x, got.end)
}

// sessionTruncater is a store that can make a session forget its last bytes.
type sessionTruncater interface {
	truncateSession(id string, n int64) error
}

// forget serves a Forget fault: the session drops back, the chunk is not kept.
func (s *Server) forget(x *exchange, rec sessionRecord, persisted int64, f Forget) {
	keep := persisted
	if t, ok := s.store.(sessionTruncater); ok {
		want := max(persisted-max(f.Bytes, 0), 0)
		want -= want % chunkAlign
		switch err := t.truncateSession(rec.ID, want); {
		case err == nil:
			keep = want
		case !errors.Is(err, errKeepsNoBytes):
			x.fail(internal("The upload session could not be stored."))
			s.log.Error("store failed", "err", err)
			return
		}
	}
	s.incomplete(x, keep)
}

// contentRange is a request's Content-Range.
type contentRange struct {
	query       bool  // "bytes */TOTAL": where does the upload stand?
	first, last int64 // the bytes this request carries
	total       int64 // -1 for "*"
	toEnd       bool  // no Content-Range and no Content-Length: the whole file, to the end of the body
}

// requestRange reads Content-Range; without it the body is the whole file.
func requestRange(r *http.Request, persisted int64) (contentRange, *apiError) {
	v := r.Header.Get("Content-Range")
	if v == "" {
		if persisted > 0 {
			return contentRange{}, badRequest("This upload session already holds %d bytes; send the rest with Content-Range: bytes %d-LAST/TOTAL.", persisted, persisted)
		}
		switch {
		case r.ContentLength > 0:
			return contentRange{first: 0, last: r.ContentLength - 1, total: r.ContentLength}, nil
		case r.ContentLength == 0:
			return contentRange{query: true, total: 0}, nil // an empty file, sent whole
		default:
			return contentRange{total: -1, toEnd: true}, nil
		}
	}
	cr, ok := parseContentRange(v)
	if !ok {
		return contentRange{}, badRequest(`Invalid Content-Range %q: expected "bytes FIRST-LAST/TOTAL", "bytes FIRST-LAST/*" or "bytes */TOTAL".`, v)
	}
	return cr, nil
}

func parseContentRange(v string) (contentRange, bool) {
	spec, ok := strings.CutPrefix(v, "bytes ")
	if !ok {
		return contentRange{}, false
	}
	rng, tot, ok := strings.Cut(spec, "/")
	if !ok {
		return contentRange{}, false
	}
	cr := contentRange{total: -1}
	if tot != "*" {
		n, err := parseSize(tot)
		if err != nil {
			return contentRange{}, false
		}
		cr.total = n
	}
	if rng == "*" {
		cr.query = true
		return cr, true
	}
	a, b, ok := strings.Cut(rng, "-")
	if !ok {
		return contentRange{}, false
	}
	first, err1 := parseSize(a)
	last, err2 := parseSize(b)
	if err1 != nil || err2 != nil || last < first {
		return contentRange{}, false
	}
	cr.first, cr.last = first, last
	return cr, true
}

// parseSize reads a non-negative decimal number of bytes, digits only.
func parseSize(v string) (int64, error) {
	if v == "" || strings.TrimLeft(v, "0123456789") != "" {
		return 0, fmt.Errorf("not a size: %q", v)
	}
	return strconv.ParseInt(v, 10, 64)
}

// checkChunk applies the rules of a chunk before its bytes are read.
func checkChunk(r *http.Request, cr contentRange, total, persisted, limit int64) *apiError {
	if cr.toEnd {
		return nil
	}
	length := cr.last - cr.first + 1
	if r.ContentLength >= 0 && r.ContentLength != length {
		return badRequest("Content-Length is %d, but Content-Range bytes %d-%d covers %d bytes.", r.ContentLength, cr.first, cr.last, length)
	}
	if total >= 0 && cr.last >= total {
		return badRequest("Content-Range bytes %d-%d goes past the end of the %d-byte file.", cr.first, cr.last, total)
	}
	switch {
	case cr.first > persisted && persisted == 0:
		return badRequest("Content-Range starts at byte %d, but nothing is persisted yet; send the file from byte 0.", cr.first)
	case cr.first > persisted:
		return badRequest("Content-Range starts at byte %d, but only bytes 0-%d are persisted; send the file from byte %d.", cr.first, persisted-1, persisted)
	case cr.first < persisted:
		return badRequest("Content-Range starts at byte %d, inside the bytes already persisted (0-%d); send the file from byte %d.", cr.first, persisted-1, persisted)
	}
	final := total >= 0 && cr.last == total-1
	if !final && length%chunkAlign != 0 {
		return badRequest("A chunk of %d bytes is not a multiple of %d bytes (256 KiB); only the last chunk may be of another size.", length, chunkAlign)
	}
	if limit > 0 && cr.last+1 > limit {
		return tooLarge(limit)
	}
	return nil
}

// received is how a chunk's body went.
type received struct {
	n     int64 // body bytes read
	end   int64 // the session's persisted length afterwards
	short bool  // the body ended cleanly before the bytes it announced
	long  bool  // the body went on past them
}

// receive streams a chunk into session id from offset start: want bytes, or
// to the end of the body when want < 0. Bytes go to the store as they come,
// less a tail held back until the end, so a body that ends early keeps only
// whole 256 KiB units and a KeepLess fault can persist less. The error is
// the store's; a broken body shows in what was persisted.
func (s *Server) receive(id string, body io.Reader, start, want int64, keep *KeepLess) (received, error) {
	hold := int64(chunkAlign)
	if keep != nil {
		hold = max(keep.Align, chunkAlign) + max(keep.Drop, 0)
	}
	var buf []byte
	if hold == chunkAlign {
		bufp := bufferPool.Get().(*[]byte)
		defer bufferPool.Put(bufp)
		buf = *bufp
	} else {
		buf = make([]byte, hold+readBlock)
	}
	src := body
	if want >= 0 {
		src = io.LimitReader(body, want)
	}
	var got received
	var n int         // bytes waiting in buf
	var flushed int64 // bytes of this chunk already in the store
	var broken bool   // the body failed before its end
	for {
		m, err := src.Read(buf[n:])
		n += m
		got.n += int64(m)
		if n == len(buf) {
			out := n - int(hold)
			if err := s.store.appendSession(id, buf[:out]); err != nil {
				return got, err
			}
			flushed += int64(out)
			n = copy(buf, buf[out:n])
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			broken = true
			break
		}
	}
	if want >= 0 && !broken {
		if got.n < want {
			got.short = true
		} else {
			var one [1]byte
			if m, _ := io.ReadFull(body, one[:]); m > 0 {
				got.long = true
			}
		}
	}
	end := start + got.n
	if broken || got.short || got.long {
		end -= end % chunkAlign
	}
	if keep != nil {
		if keep.Align > 0 {
			end -= end % keep.Align
		}
		end -= max(keep.Drop, 0)
	}
	end = max(end, start+flushed)
	if tail := end - start - flushed; tail > 0 {
		if err := s.store.appendSession(id, buf[:tail]); err != nil {
			return got, err
		}
	}
	got.end = end
	return got, nil
}

// incomplete answers 308 Resume Incomplete with the persisted Range, or
// 200 with X-Http-Status-Code-Override: 308 for clients that ask for it.
func (s *Server) incomplete(x *exchange, persisted int64) {
	x.drain()
	h := x.w.Header()
	if persisted > 0 {
		h.Set("Range", fmt.Sprintf("bytes=0-%d", persisted-1))
	}
	if g, ok := x.action.(GarbageRange); ok {
		h.Set("Range", g.Value)
	}
	h.Set("Content-Length", "0")
	if x.r.Header.Get("X-GUploader-No-308") == "yes" {
		h.Set("X-Http-Status-Code-Override", strconv.Itoa(statusResumeIncomplete))
		x.w.WriteHeader(http.StatusOK)
		return
	}
	x.w.WriteHeader(statusResumeIncomplete)
}

// complete turns a session whose bytes are all persisted into an object.
func (s *Server) complete(x *exchange, rec sessionRecord, ep endpoint) {
	c, err := s.store.sessionContent(rec.ID)
	if err != nil {
		x.fail(internal("The upload session could not be read."))
		s.log.Error("store failed", "err", err)
		return
	}
	obj, e := s.buildObject(x.r, ep, rec.info(), c)
	if e != nil {
		rec.Failure = e
		if err := s.store.putSession(rec); err != nil {
			s.log.Error("store failed", "err", err)
		}
		x.fail(e)
		return
	}
	if obj, err = s.store.completeSession(rec.ID, obj); err != nil {
		x.fail(internal("The upload could not be stored."))
		s.log.Error("store failed", "err", err)
		return
	}
	x.drain()
	s.writeResource(x, doneStatus(rec.Method), obj.Response)
}

// answerDone repeats the final answer of a finished session.
func (s *Server) answerDone(x *exchange, rec sessionRecord) {
	obj, ok := s.store.Object(rec.ObjectID)
	if !ok {
		x.fail(sessionNotFound())
		return
	}
	x.drain()
	s.writeResource(x, doneStatus(rec.Method), obj.Response)
}
