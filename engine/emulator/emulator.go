// Package emulator is an in-process server of Google's media upload protocol
// (uploadType=media, multipart and resumable, with chunks, status queries,
// 308 Resume Incomplete and Google's X-GUploader-No-308 variant) and of the
// destinations Hoist uploads to: Gmail, Campaign Manager 360, Play Games
// Services Publishing, Google Drive, YouTube and Cloud Storage, each served
// from a file of its own (dest_*.go), and any other /upload/ path stored as
// an object shaped like Cloud Storage's.
//
// It is Google's side written from Google's documents, independently of the
// client in engine/upload, so that it catches the client's mistakes. Tests
// and benchmarks mount it with httptest; the product's sandbox serves it with
// Start. Faults (cut connections, 5xx, stalls, bytes persisted short, bad
// Location or Range headers) are injected per test with Inject.
//
// Choices where Google's documents leave room, made strict on purpose:
//   - a body that ends early (a cut connection) keeps the bytes received,
//     rounded down to a multiple of 256 KiB from the start of the file, as
//     Google's upload servers persist in 256 KiB units;
//   - a chunk that does not start exactly at the first unpersisted byte is
//     refused with 400, whether it leaves a gap or overlaps persisted bytes;
//   - an expired session answers 404 (as the Play Games guide says) unless
//     Options.ExpiredStatus asks for 410;
//   - a request to a finished session answers the final status again with
//     the resource, as a status query after a lost answer expects.
package emulator

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Kind names a destination the emulator serves; each is defined in its
// dest_*.go file.
type Kind string

// DefaultSessionLifetime is how long Google keeps a resumable session: one week.
const DefaultSessionLifetime = 7 * 24 * time.Hour

// Options configure a Server. The zero value is a working in-memory server.
type Options struct {
	// Store keeps objects and sessions; nil means NewMemoryStore(). The
	// server owns it from New on and closes it in Close.
	Store Store
	// SessionLifetime is how long after its start a session can be used; 0 means one week.
	SessionLifetime time.Duration
	// ExpiredStatus answers requests to an expired session: 404 (default) or 410.
	ExpiredStatus int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger hears one line per upload request; nil discards. Session URIs
	// and Authorization values are never logged.
	Logger *slog.Logger
	// BaseURL prefixes Location headers and links, e.g. "http://127.0.0.1:8080";
	// empty means the scheme and Host of each request.
	BaseURL string
	// RequireAuth, when set, must accept the bearer token of every request
	// under /upload/; otherwise the answer is 401.
	RequireAuth func(token string) bool
	// TokenScopes, when set, gives the scopes each bearer token carries:
	// the lookups refuse what those scopes do not allow, as Google does
	// (Gmail's q with gmail.metadata alone, say).
	TokenScopes func(token string) []string
	// RefuseResumable lists destinations whose resumable session starts are
	// refused with 400, as Campaign Manager 360's discovery document suggests.
	RefuseResumable []Kind
	// GmailUnitsPerSecond, when set, is Gmail's per-user quota (250 at
	// Google): a request that would spend more within a second is answered
	// 429 rateLimitExceeded (see gmailquota.go). Spending is counted either
	// way (GmailPeakUnits).
	GmailUnitsPerSecond int
}

// Server is the emulator. It is an http.Handler; it is safe for concurrent use.
type Server struct {
	store         Store
	now           func() time.Time
	log           *slog.Logger
	lifetime      time.Duration
	expiredStatus int
	baseURL       string
	requireAuth   func(string) bool
	tokenScopes   func(string) []string
	refuse        map[Kind]bool
	mux           *http.ServeMux

	faults   faultList
	requests requestLog
	listed   listsState // what the pickers' list methods answer

	gmailLimit int
	gmailQuota gmailQuota
	labelsMade atomic.Int64 // users.labels.create calls that made one

	locksMu sync.Mutex
	locks   map[string]chan struct{} // one request at a time per session

	closed    chan struct{}
	closeOnce sync.Once
	closeErr  error
	serving   sync.WaitGroup // goroutines serving listeners opened by Start
	httpMu    sync.Mutex
	https     []*http.Server
}

// New makes a server. Unfinished sessions older than the session lifetime
// are dropped from the store.
func New(opts Options) (*Server, error) {
	s := &Server{
		store:         opts.Store,
		now:           opts.Now,
		log:           opts.Logger,
		lifetime:      opts.SessionLifetime,
		expiredStatus: opts.ExpiredStatus,
		baseURL:       strings.TrimSuffix(opts.BaseURL, "/"),
		requireAuth:   opts.RequireAuth,
		tokenScopes:   opts.TokenScopes,
		refuse:        map[Kind]bool{},
		gmailLimit:    opts.GmailUnitsPerSecond,
		locks:         map[string]chan struct{}{},
		closed:        make(chan struct{}),
	}
	if s.store == nil {
		s.store = NewMemoryStore()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.lifetime <= 0 {
		s.lifetime = DefaultSessionLifetime
	}
	switch s.expiredStatus {
	case 0:
		s.expiredStatus = http.StatusNotFound
	case http.StatusNotFound, http.StatusGone:
	default:
		return nil, fmt.Errorf("emulator: ExpiredStatus must be 404 or 410, not %d", opts.ExpiredStatus)
	}
	for _, k := range opts.RefuseResumable {
		s.refuse[k] = true
	}
	if err := s.store.purgeSessions(s.now().Add(-s.lifetime)); err != nil {
		return nil, err
	}
	s.mux = s.sandboxRoutes()
	return s, nil
}

// ServeHTTP serves the upload protocol under /upload/ and the sandbox pages elsewhere.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Upload paths bypass the mux, which would clean and redirect unusual paths.
	if strings.HasPrefix(r.URL.Path, "/upload/") {
		s.serveUpload(w, r)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Objects lists the completed uploads, oldest first.
func (s *Server) Objects() []Object { return s.store.Objects() }

// Received is how many uploads completed: a cheap check before Objects.
func (s *Server) Received() int { return s.store.Len() }

// Object returns one completed upload by id.
func (s *Server) Object(id string) (Object, bool) { return s.store.Object(id) }

// Open reads an object's bytes where the store keeps them.
func (s *Server) Open(id string) (io.ReadCloser, error) { return s.store.Open(id) }

// Start listens on addr (e.g. "127.0.0.1:0") and serves until ctx is done,
// stop is called or the server is closed. It returns the base URL to give
// clients; stop waits for serving to end.
func (s *Server) Start(ctx context.Context, addr string) (baseURL string, stop func() error, err error) {
	return s.start(ctx, addr, nil)
}

// start is Start, over TLS when ca is not nil.
func (s *Server) start(ctx context.Context, addr string, ca *Authority) (baseURL string, stop func() error, err error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("emulator: listen on %s: %w", addr, err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 30 * time.Second, ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelDebug)}
	serve := hs.Serve
	if ca != nil {
		ca.configure(hs)
		serve = func(ln net.Listener) error { return hs.ServeTLS(ln, "", "") }
	}
	s.httpMu.Lock()
	s.https = append(s.https, hs)
	s.httpMu.Unlock()

	done := make(chan struct{})
	s.serving.Add(1)
	go func() {
		defer s.serving.Done()
		defer close(done)
		if err := serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("sandbox server stopped", "err", err)
		}
	}()
	var once sync.Once
	var stopErr error
	stop = func() error {
		once.Do(func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := hs.Shutdown(sctx); err != nil {
				stopErr = hs.Close()
			}
			<-done
		})
		return stopErr
	}
	unwatch := context.AfterFunc(ctx, func() { _ = stop() })
	go func() {
		<-done
		unwatch()
	}()
	url := listenerURL(ln.Addr())
	if ca != nil {
		url = "https://" + strings.TrimPrefix(url, "http://")
	}
	return url, stop, nil
}

func listenerURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String()
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// Close stops listeners opened by Start, releases stalled requests and closes the store.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.httpMu.Lock()
		for _, hs := range s.https {
			_ = hs.Close()
		}
		s.httpMu.Unlock()
		s.serving.Wait()
		s.closeErr = s.store.Close()
	})
	return s.closeErr
}

var errClosed = errors.New("emulator: server closed")

// lockSession lets one request at a time work on a session, as a later
// request must see what an earlier one persisted.
func (s *Server) lockSession(ctx context.Context, id string) (unlock func(), err error) {
	s.locksMu.Lock()
	ch, ok := s.locks[id]
	if !ok {
		ch = make(chan struct{}, 1)
		s.locks[id] = ch
	}
	s.locksMu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.closed:
		return nil, errClosed
	}
}

// base is the scheme and host that Location headers and links point at.
func (s *Server) base(r *http.Request) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// newUploadID makes a session's upload_id: 192 random bits, a capability.
func newUploadID() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return "HU" + base64.RawURLEncoding.EncodeToString(b[:])
}

// sessionTag is a short, non-secret name for a session in logs and the request log.
func sessionTag(id string) string {
	return sessionKey(id)[:10]
}
