// Package upload speaks Google's media upload protocol: uploadType=media,
// multipart (RFC 2387) and resumable sessions with chunks, status queries,
// resume, restart on 404/410 and exponential backoff on 5xx.
//
// A resumable upload takes the server's Range as the truth between chunks
// and asks where the session stands (a status query) after any
// interruption, 5xx, pause or untrustworthy answer. Bodies are sections of
// the file read on demand, so memory does not grow with file or chunk size.
// A media or multipart upload whose whole body went out before the
// connection broke is not sent again blindly: the server may already have
// made the object, and a second copy (a second email sent) is worse than
// asking. Where the destination can be asked (Target.Lookup), the uploader
// asks it, and sends again only when the object is not there; a
// precondition (Target.Pin) makes sending again safe by itself. Where
// nothing can be asked, the upload stops with ErrAnswerLost.
package upload

import (
	"context"
	"io"
	"net/http"
	"time"
)

// Method is an upload type of the protocol, or Auto to let the uploader choose.
type Method string

const (
	Auto      Method = "auto"
	Media     Method = "media"
	Multipart Method = "multipart"
	Resumable Method = "resumable"
)

// DefaultThreshold is the size under which Auto sends a file in one request.
const DefaultThreshold = 5 << 20

// ChunkAlign is the granularity Google requires of every chunk but the last.
const ChunkAlign = 256 << 10

// Target says where and how the bytes go.
type Target struct {
	URL         string // media URI (may carry query parameters; uploadType is added)
	HTTPMethod  string // POST to create, PUT to update; "" means POST
	Metadata    []byte // JSON metadata part / session body; nil when none
	ContentType string // media type of the file's bytes
	// FallbackToMultipart: when a resumable session start is refused with a 4xx,
	// send the file as multipart (or media without metadata) instead.
	FallbackToMultipart bool
	// Lookup, when set, finds the object the upload makes, so that an
	// answer that was lost, or that names nothing, is settled by asking
	// the destination (see lookup.go).
	Lookup Lookup
	// Pin, when set, makes the upload conditional on what the destination
	// holds under the object's name (Cloud Storage's generation
	// preconditions), so that sending again cannot make a second copy.
	Pin Pinner
	// Repeatable: sending the upload again makes no second copy (it
	// replaces what an earlier attempt made, as a new version of a file
	// does), so an attempt whose answer was lost is simply sent again.
	Repeatable bool
	// Identifies, when set, reports whether a success answer names the
	// object made (its id); an answer that does not is not taken as done.
	Identifies func(body []byte) bool
	// SendCRC32C: the destination checks a CRC32C the upload names and
	// refuses bytes that do not match it (Cloud Storage): the multipart
	// metadata carries "crc32c", and the request with the last byte of a
	// media or resumable upload carries "X-Goog-Hash: crc32c=…".
	SendCRC32C bool
}

// Source is the file being uploaded. Bytes are read with ReadAt, so a chunk
// can be re-read on retry without buffering.
type Source interface {
	io.ReaderAt
	Size() int64
}

// Checker is optionally implemented by a Source; Check is called before every
// request that sends bytes and returns an error wrapping ErrFileChanged when
// the file is no longer the one that was queued.
type Checker interface {
	Check() error
}

// Session is a resumable upload session on the server, or the trace of a
// one-request upload whose answer was never heard.
type Session struct {
	URI     string // the resumable session; "" for none
	Started time.Time
	// Sent is when a one-request upload of the file last went out, its
	// answer never heard (Observer.Doubt): the file may have arrived. A
	// later Upload is handed it back and asks the destination before it
	// sends the file again. Zero when no upload is in doubt.
	Sent time.Time
}

// Observer hears about an upload as it goes. Calls are never concurrent and
// never come after Upload returns, but Sent is called from the HTTP
// transport's goroutine while it reads the body; implementations must be
// quick and must not block.
type Observer interface {
	// SessionStarted is called once a session URI is known, before any byte is sent.
	SessionStarted(s Session)
	// Sent reports the offset up to which bytes have been written to the wire
	// in the current request (absolute position in the file).
	Sent(offset int64)
	// Committed reports the offset up to which the server has confirmed bytes.
	Committed(offset int64)
	// Restarted says the upload honestly starts again from byte 0, and why.
	Restarted(reason error)
	// Retrying says the uploader waits before trying again, and why.
	Retrying(attempt int, wait time.Duration, cause error)
	// FellBack says the method in use changed (resumable refused → multipart).
	FellBack(from, to Method, cause error)
	// Doubt is called, with the time, before the body of a one-request
	// upload goes out: from then on the file may arrive without the
	// uploader hearing of it, so the caller keeps the time (the journal
	// stores it before Doubt returns) and hands it back in Session.Sent.
	// It is called again, with a later time, just before the body's last
	// bytes go out: a request that reached the server whole is waited for
	// from then (Uploader.SettleTime), however long its body took to send.
	// Doubt(time.Time{}) says the doubt is settled: the attempt was
	// refused, did not go out whole, or the destination was asked. A
	// success is not said so: the finished upload settles it.
	// An error says the time could not be kept: the body does not go out
	// (or, before its last bytes, is cut short), and the upload stops
	// with ErrNotNoted. The error of a settling call is not heard.
	Doubt(sent time.Time) error
}

// Clock is time as the uploader sees it; tests inject a fake one.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, whichever is first.
	Sleep(ctx context.Context, d time.Duration) error
}

// Backoff gives the wait before retry number n (n starts at 0).
type Backoff interface {
	Wait(n int) time.Duration
}

// Result is the server's final answer.
type Result struct {
	Status int
	Body   []byte // the resource JSON
	Method Method // the method that finished the upload
	// Verified names the server's account of the object that matched the
	// file: VerifiedCRC32C, VerifiedMD5, VerifiedSHA256 or VerifiedSize; ""
	// when the answer gave neither a size nor a checksum.
	Verified string
	// Found: the answer was lost (or named nothing) and Body is what
	// Target.Lookup found at the destination.
	Found bool
}

// Uploader uploads one file at a time per call; it is safe for concurrent use.
type Uploader struct {
	// Client carries authorization, if any; nil is http.DefaultClient. Its
	// redirects are never followed (308 means "resume incomplete" here) and
	// its Timeout is ignored: StallTimeout guards each request instead.
	Client *http.Client
	// ChunkSize is the most bytes per request of a resumable upload; 0 = the
	// whole rest in one request; ChunkAuto = sized by the link, request by
	// request. Rounded down to a multiple of ChunkAlign, at least
	// ChunkAlign; other negative sizes are invalid.
	ChunkSize       int64
	Threshold       int64         // Auto: below this, one request; 0 means DefaultThreshold
	Backoff         Backoff       // nil = ExponentialBackoff: 2^n s + up to 1000 ms random, capped under a minute
	Clock           Clock         // nil = RealClock
	MaxRetries      int           // retries for connection errors and 5xx without progress; 0 = 5, negative = none
	MaxOtherRetries int           // retries for 408 and 429; 0 = 10, negative = none
	StallTimeout    time.Duration // abort a request making no progress this long; 0 = 60 s, negative = never
	// MaxWait bounds the time the uploader sleeps before retries, in all,
	// within one call; a wait that would go past it ends the call at once
	// with a *WaitError saying until when the server asked to wait, so
	// that the caller can come back then. 0 = no bound.
	MaxWait         time.Duration
	SessionLifetime time.Duration // sessions older than this are not resumed; 0 = 7 days
	// SettleTime is how long after a one-request upload's answer was lost
	// (or, resumed, after it went out) a lookup that finds nothing is asked
	// again before the file is sent again; 0 = DefaultSettleTime, negative
	// = not at all.
	SettleTime time.Duration
	// AllowedHost, when set, is the only host a session URI may point at
	// (with a port, only that port); otherwise the host of Target.URL is.
	AllowedHost string
}
