package engine_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/upload"
)

type memFile struct{ *bytes.Reader }

func (f memFile) Size() int64 { return f.Reader.Size() }

// Over HTTPS the default transport keeps one HTTP/1.1 connection for every
// chunk of an upload (no handshake per request), and it is a connection
// whose TLS records leave in large writes.
func TestDefaultTransportOverTLSKeepsOneConnection(t *testing.T) {
	emu, base, caFile := startTLSEmulator(t)
	tr, err := engine.TrustingTransport(caFile, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.CloseIdleConnections()

	var seen connections
	ctx := seen.trace(t.Context())
	data := make([]byte, 8*upload.ChunkAlign+123)
	_, _ = rand.Read(data)
	u := &upload.Uploader{Client: &http.Client{Transport: tr}, ChunkSize: 2 * upload.ChunkAlign}
	res, err := u.Upload(ctx, upload.Target{URL: base + dest.SandboxPath}, memFile{bytes.NewReader(data)}, upload.Resumable, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verified == "" {
		t.Errorf("the upload was not checked against the server's account")
	}
	objs := emu.Objects()
	if len(objs) != 1 || objs[0].Size != int64(len(data)) {
		t.Fatalf("the emulator holds %+v, want one object of %d bytes", objs, len(data))
	}
	requests, conns, gathered := seen.counts()
	// The session, then 5 chunks.
	if requests != 6 || conns != 1 || gathered != requests {
		t.Errorf("%d requests over %d connections, %d of them gathering TLS records; want 6 over 1, all gathering", requests, conns, gathered)
	}
}

// startTLSEmulator serves an emulator over HTTPS on loopback, with a
// certificate for its address and names made by an authority of its own,
// whose certificate is in caFile. It stops with the test.
func startTLSEmulator(t *testing.T, names ...string) (emu *emulator.Server, base, caFile string) {
	t.Helper()
	ca, err := emulator.NewAuthority(names...)
	if err != nil {
		t.Fatal(err)
	}
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, ca.CertPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	emu, err = emulator.New(emulator.Options{Store: emulator.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := emu.StartTLS(t.Context(), "127.0.0.1:0", ca)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stop() })
	return emu, base, caFile
}

// connections counts, for the requests made with trace's context, the
// requests, the new connections among them and those over a connection
// whose TLS records leave in large writes.
type connections struct {
	mu                        sync.Mutex
	requests, conns, gathered int
}

func (c *connections) trace(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.requests++
		if !info.Reused {
			c.conns++
		}
		if _, ok := info.Conn.(*upload.TLSConn); ok {
			c.gathered++
		}
	}})
}

func (c *connections) counts() (requests, conns, gathered int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests, c.conns, c.gathered
}
