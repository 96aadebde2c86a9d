package upload_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// A server that answers with its own account of the object, as Drive does
// (size and md5Checksum in hex) or as a broken one would.
func TestTheServersAccountIsChecked(t *testing.T) {
	file := memSource(strings.Repeat("hoist ", 5000))
	sum := md5.Sum(file)
	good := hex.EncodeToString(sum[:])
	for _, tc := range []struct {
		name     string
		answer   string
		verified string
		wantErr  error
	}{
		{"drive md5", fmt.Sprintf(`{"id":"1","size":"%d","md5Checksum":%q}`, len(file), good), upload.VerifiedMD5, nil},
		{"size only", fmt.Sprintf(`{"id":"1","size":%d}`, len(file)), upload.VerifiedSize, nil},
		{"nothing to check", `{"id":"1"}`, "", nil},
		{"md5 differs", fmt.Sprintf(`{"md5Checksum":%q}`, strings.Repeat("0", 32)), "", upload.ErrMismatch},
		{"crc32c differs", `{"crc32c":"AAAAAA=="}`, "", upload.ErrMismatch},
		{"fewer bytes", `{"size":"10"}`, "", upload.ErrIncomplete},
		{"more bytes", fmt.Sprintf(`{"size":"%d"}`, len(file)+1), "", upload.ErrMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, tc.answer)
			}))
			defer ts.Close()
			up := &upload.Uploader{Client: ts.Client()}
			res, err := up.Upload(context.Background(), upload.Target{URL: ts.URL + "/upload/x"}, file, upload.Media, nil, nil)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) || upload.Retryable(err) {
					t.Fatalf("err = %v, want %v, not retried", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Verified != tc.verified {
				t.Errorf("verified %q, want %q", res.Verified, tc.verified)
			}
		})
	}
}

// The premature claim names what the server holds.
func TestIncompleteSaysHowMuch(t *testing.T) {
	err := &upload.IncompleteError{Received: 1048576, Size: 3145851}
	if got, want := err.Error(), "the server says the upload is complete but it received only 1048576 of 3145851 bytes"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// A resumed upload hashes the bytes sent before the resume in a pass over
// the file, so the sandbox's CRC32C still covers the whole file.
func TestResumedUploadIsVerifiedWhole(t *testing.T) {
	srv, ts := newEmulator(t)
	file := make(memSource, 3*1024*kib+5)
	for i := range file {
		file[i] = byte(i * 7)
	}
	ctx, cancel := context.WithCancel(context.Background())
	up := &upload.Uploader{Client: ts.Client(), ChunkSize: 1024 * kib}
	target := upload.Target{URL: ts.URL + "/upload/files/v1/things?name=a.bin"}
	var session upload.Session
	_, err := up.Upload(ctx, target, file, upload.Resumable, nil, &cancelAfterFirst{cancel: cancel, session: &session})
	if !errors.Is(err, context.Canceled) || session.URI == "" {
		t.Fatalf("first run: %v (session %v)", err, session.URI != "")
	}
	res, err := up.Upload(context.Background(), target, file, upload.Resumable, &session, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verified != upload.VerifiedCRC32C {
		t.Errorf("verified %q after a resume", res.Verified)
	}
	if n := len(srv.Objects()); n != 1 {
		t.Errorf("%d objects", n)
	}
}

// newEmulator serves an emulator on loopback until the test ends.
func newEmulator(t *testing.T) (*emulator.Server, *httptest.Server) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { _ = srv.Close(); ts.Close() })
	return srv, ts
}

type cancelAfterFirst struct {
	cancel  context.CancelFunc
	session *upload.Session
}

func (c *cancelAfterFirst) SessionStarted(s upload.Session) { *c.session = s }
func (c *cancelAfterFirst) Sent(int64)                      {}
func (c *cancelAfterFirst) Committed(off int64) {
	if off > 0 {
		c.cancel()
	}
}
func (c *cancelAfterFirst) Restarted(error)                      {}
func (c *cancelAfterFirst) Retrying(int, time.Duration, error)   {}
func (c *cancelAfterFirst) FellBack(_, _ upload.Method, _ error) {}
func (c *cancelAfterFirst) Doubt(time.Time) error                { return nil }

// smallReceiveBuffer makes each accepted connection's receive buffer small,
// so that bytes the server has not read are not acknowledged either, as at
// the far end of a slow link.
type smallReceiveBuffer struct{ net.Listener }

func (l smallReceiveBuffer) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(16 * kib)
	}
	return c, err
}

// A server that reads slowly is not stalled, even after the kernel has
// taken the request's last byte and the server still needs longer than the
// stall timeout to read what is left.
func TestSlowReaderIsNotAStall(t *testing.T) {
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv.Inject(emulator.Fault{Times: -1, Action: emulator.SlowRead{BytesPerSecond: 256 * kib}})
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener = smallReceiveBuffer{ts.Listener}
	ts.Start()
	defer ts.Close()
	defer srv.Close()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(4 << 20) // the kernel takes much of the body at once
		}
		return c, err
	}}
	defer tr.CloseIdleConnections()
	file := make(memSource, 1024*kib)
	up := &upload.Uploader{Client: &http.Client{Transport: tr}, StallTimeout: time.Second, MaxRetries: -1}
	res, err := up.Upload(context.Background(), upload.Target{URL: ts.URL + "/upload/files/v1/things?name=slow.bin"}, file, upload.Media, nil, nil)
	if err != nil {
		t.Fatalf("a slow reader was taken for a stall: %v", err)
	}
	if res.Verified != upload.VerifiedCRC32C {
		t.Errorf("verified %q", res.Verified)
	}
}

// editedFile is a file that changes once its last byte has been read.
type editedFile struct {
	memSource
	edited *atomic.Bool
}

func (f editedFile) Check() error {
	if f.edited.Load() {
		return fmt.Errorf("%w: it was saved again", upload.ErrFileChanged)
	}
	return nil
}

type editOnLastByte struct {
	cancelAfterFirst
	size   int64
	edited *atomic.Bool
}

func (o *editOnLastByte) Sent(off int64) {
	if off == o.size {
		o.edited.Store(true)
	}
}
func (o *editOnLastByte) Committed(int64) {}

// A file edited while its last bytes go out is not reported done, whether
// it went in one request or in chunks.
func TestFileEditedDuringTheLastBytes(t *testing.T) {
	for _, m := range []upload.Method{upload.Media, upload.Resumable} {
		t.Run(string(m), func(t *testing.T) {
			_, ts := newEmulator(t)
			file := make(memSource, 600*kib)
			edited := &atomic.Bool{}
			obs := &editOnLastByte{cancelAfterFirst: cancelAfterFirst{session: &upload.Session{}}, size: int64(len(file)), edited: edited}
			up := &upload.Uploader{Client: ts.Client(), ChunkSize: 256 * kib}
			_, err := up.Upload(context.Background(), upload.Target{URL: ts.URL + "/upload/files/v1/things?name=e.bin"}, editedFile{file, edited}, m, nil, obs)
			if !errors.Is(err, upload.ErrFileChanged) {
				t.Fatalf("err = %v, want the file changed", err)
			}
		})
	}
}
