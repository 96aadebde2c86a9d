package emulator

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Stage is what an upload request does in the protocol.
type Stage string

const (
	StageAny    Stage = ""       // in a Match: any stage
	StageUpload Stage = "upload" // uploadType=media or multipart: the whole file in one request
	StageStart  Stage = "start"  // uploadType=resumable without upload_id: starts a session
	StageChunk  Stage = "chunk"  // bytes sent to a session
	StageQuery  Stage = "query"  // status query: empty body, Content-Range: bytes */TOTAL
	StageOther  Stage = "other"  // anything else under /upload/
)

// classify tells the stage of a request from its query and headers alone.
func classify(r *http.Request) Stage {
	q := r.URL.Query()
	if q.Get("upload_id") != "" {
		if r.ContentLength == 0 && strings.HasPrefix(r.Header.Get("Content-Range"), "bytes */") {
			return StageQuery
		}
		return StageChunk
	}
	switch q.Get("uploadType") {
	case "resumable":
		return StageStart
	case "media", "multipart":
		return StageUpload
	}
	return StageOther
}

// Match chooses the requests a fault applies to; every set field must hold.
type Match struct {
	Method string                   // "POST" or "PUT"; empty: any
	Path   string                   // prefix of the URL path; empty: any
	Stage  Stage                    // empty: any stage the action can apply to
	Func   func(*http.Request) bool // any other condition, e.g. on a header; nil: any
}

func (m Match) matches(r *http.Request, st Stage) bool {
	return (m.Method == "" || strings.EqualFold(m.Method, r.Method)) &&
		(m.Path == "" || strings.HasPrefix(r.URL.Path, m.Path)) &&
		(m.Stage == StageAny || m.Stage == st) &&
		(m.Func == nil || m.Func(r))
}

// Fault is a misbehaviour injected into requests under /upload/.
type Fault struct {
	Name   string // shown in the request log; empty: the action's name
	Match  Match
	Skip   int // matching requests let through unharmed before the fault applies
	Times  int // requests the fault applies to; 0 means 1, negative means every one until removed
	Action Action
}

// Action is what a fault does to a request: Answer, CutBody, DropAnswer,
// Stall, KeepLess, ExpireSession, GarbageRange, ForeignLocation, NoLocation,
// FinishEarly, FinishOnQuery, BadSuccess, Forget, SlowRead or TroubleAfter.
type Action interface {
	// applies tells whether the action can act on a request of this stage.
	applies(Stage) bool
	name() string
}

// Answer replies at once with Status (e.g. 429, 500, 502, 503, 504, or a 4xx to
// refuse a session start) without processing the request. The body is a
// Google JSON error, or an HTML error page when HTML is set.
type Answer struct {
	Status     int
	RetryAfter string // Retry-After header value, e.g. "3"; empty: none
	HTML       bool
	Message    string // empty: a message fitting Status
	// Reason is Google's error reason, e.g. "quotaExceeded" or
	// "insufficientPermissions"; empty: one fitting Status.
	Reason string
}

// CutBody reads After bytes of the request body, processes them as a body
// that ended early, then closes the connection without an answer. A body no
// longer than After is processed normally.
type CutBody struct{ After int64 }

// DropAnswer processes the request completely, then closes the connection
// instead of answering: the client must ask where the upload stands. With
// Hold, the connection stays open, unanswered, until Hold is closed (or
// the client leaves): a client stopped meanwhile never hears.
type DropAnswer struct{ Hold <-chan struct{} }

// TroubleAfter processes the request completely (an upload makes its
// object), then answers Status (500, 502, 503 or 504) instead of its
// success: a front end that broke down after it passed the request on.
type TroubleAfter struct{ Status int }

// Stall holds the request, reading nothing, for For or until Until is closed
// (whichever first), then processes it normally. With neither set it holds
// until the server closes, or until the client leaves where net/http can
// tell: a client that gives up on a request with a body goes unnoticed while
// nothing reads it, so tests close the Server (which ends every stall)
// before its httptest server, whose Close waits for handlers.
type Stall struct {
	For   time.Duration
	Until <-chan struct{}
}

// KeepLess persists less of a chunk than was received: the end is rounded
// down to a multiple of Align (from the start of the file) when Align > 0,
// then Drop bytes are dropped. The 308 answer's Range tells the truth.
type KeepLess struct {
	Align int64
	Drop  int64
}

// ExpireSession makes the request's session expire now; the request and all
// later ones on it get the expired answer.
type ExpireSession struct{}

// GarbageRange answers a chunk or status query's 308 with this Range header
// instead of the true one, after persisting normally.
type GarbageRange struct{ Value string }

// ForeignLocation answers a session start with a Location on Host (default
// "uploads.example.net") instead of this server.
type ForeignLocation struct{ Host string }

// NoLocation answers a session start 200 without a Location header.
type NoLocation struct{}

// FinishEarly persists a chunk, then makes the object from the bytes the
// session holds so far, as if the file were complete, and answers 200/201
// with it: a premature claim of completion (the object's size says how
// many bytes it has). Later requests to the session get the same answer.
type FinishEarly struct{}

// FinishOnQuery answers a status query by making the object from the bytes
// the session holds so far and answering 200/201 with it, as some servers
// finalise a truncated upload when asked where it stands.
type FinishOnQuery struct{}

// Success bodies a BadSuccess fault answers.
type Success string

const (
	SuccessHTML    Success = "html"  // an HTML page
	SuccessCutJSON Success = "cut"   // the resource's JSON cut in half
	SuccessHuge    Success = "huge"  // a JSON document over 16 MiB
	SuccessEmpty   Success = "empty" // no body at all
	SuccessNothing Success = "{}"    // an empty JSON object: names nothing
)

// BadSuccess processes the request normally, but a 200/201 it answers
// carries Body instead of the resource's JSON.
type BadSuccess struct{ Body Success }

// Forget loses the last Bytes a session had persisted (and confirmed)
// before this chunk, keeps none of the chunk, and answers 308 with the
// shorter Range: a server that keeps a chunk, then forgets it. It needs a
// store that keeps bytes (NewMemoryStore); other stores only keep none of
// the chunk.
type Forget struct{ Bytes int64 }

// SlowRead reads the request body at most BytesPerSecond, as a server at
// the end of a slow link.
type SlowRead struct{ BytesPerSecond int64 }

func (Answer) applies(Stage) bool { return true }
func (a Answer) name() string     { return fmt.Sprintf("answer %d", a.Status) }

func (CutBody) applies(st Stage) bool {
	return st == StageUpload || st == StageStart || st == StageChunk
}
func (a CutBody) name() string { return fmt.Sprintf("cut after %d bytes", a.After) }

func (DropAnswer) applies(Stage) bool { return true }
func (DropAnswer) name() string       { return "drop answer" }

func (TroubleAfter) applies(Stage) bool { return true }
func (a TroubleAfter) name() string     { return fmt.Sprintf("answer %d after processing", a.Status) }

func (Stall) applies(Stage) bool { return true }
func (Stall) name() string       { return "stall" }

func (KeepLess) applies(st Stage) bool { return st == StageChunk }
func (a KeepLess) name() string {
	return fmt.Sprintf("keep less (align %d, drop %d)", a.Align, a.Drop)
}

func (ExpireSession) applies(st Stage) bool { return st == StageChunk || st == StageQuery }
func (ExpireSession) name() string          { return "expire session" }

func (GarbageRange) applies(st Stage) bool { return st == StageChunk || st == StageQuery }
func (GarbageRange) name() string          { return "garbage Range" }

func (ForeignLocation) applies(st Stage) bool { return st == StageStart }
func (ForeignLocation) name() string          { return "foreign Location" }

func (FinishEarly) applies(st Stage) bool { return st == StageChunk }
func (FinishEarly) name() string          { return "finish early" }

func (FinishOnQuery) applies(st Stage) bool { return st == StageQuery }
func (FinishOnQuery) name() string          { return "finish on status query" }

func (BadSuccess) applies(st Stage) bool {
	return st == StageUpload || st == StageChunk || st == StageQuery
}
func (b BadSuccess) name() string { return "bad success answer (" + string(b.Body) + ")" }

func (Forget) applies(st Stage) bool { return st == StageChunk }
func (f Forget) name() string        { return fmt.Sprintf("forget %d bytes", f.Bytes) }

func (SlowRead) applies(st Stage) bool { return st == StageUpload || st == StageChunk }
func (s SlowRead) name() string        { return fmt.Sprintf("read %d bytes/s", s.BytesPerSecond) }

func (NoLocation) applies(st Stage) bool { return st == StageStart }
func (NoLocation) name() string          { return "no Location" }

// Injected is a fault in force; it counts the requests it applied to.
type Injected struct {
	fault Fault
	list  *faultList

	mu      sync.Mutex
	skipped int
	count   int
}

// Count is the number of requests the fault has applied to so far.
func (i *Injected) Count() int {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.count
}

// Remove takes the fault out of force; its Count stays readable.
func (i *Injected) Remove() { i.list.remove(i) }

func (i *Injected) name() string {
	if i.fault.Name != "" {
		return i.fault.Name
	}
	return i.fault.Action.name()
}

// take counts the request against the fault; false when the fault lets it through.
func (i *Injected) take(r *http.Request, st Stage) bool {
	f := i.fault
	if f.Action == nil || !f.Action.applies(st) || !f.Match.matches(r, st) {
		return false
	}
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.skipped < f.Skip {
		i.skipped++
		return false
	}
	times := f.Times
	if times == 0 {
		times = 1
	}
	if times > 0 && i.count >= times {
		return false
	}
	i.count++
	return true
}

type faultList struct {
	mu   sync.Mutex
	list []*Injected
}

func (l *faultList) add(f Fault) *Injected {
	i := &Injected{fault: f, list: l}
	l.mu.Lock()
	l.list = append(l.list, i)
	l.mu.Unlock()
	return i
}

func (l *faultList) remove(i *Injected) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, x := range l.list {
		if x == i {
			l.list = append(l.list[:k:k], l.list[k+1:]...)
			return
		}
	}
}

func (l *faultList) clear() {
	l.mu.Lock()
	l.list = nil
	l.mu.Unlock()
}

// take returns the first fault in force that applies to the request, or nil.
func (l *faultList) take(r *http.Request, st Stage) *Injected {
	l.mu.Lock()
	list := append([]*Injected(nil), l.list...)
	l.mu.Unlock()
	for _, i := range list {
		if i.take(r, st) {
			return i
		}
	}
	return nil
}

// Inject puts a fault in force, after those already injected: each request
// gets at most one fault, the first in order that applies.
func (s *Server) Inject(f Fault) *Injected { return s.faults.add(f) }

// ClearFaults takes every injected fault out of force.
func (s *Server) ClearFaults() { s.faults.clear() }
