package upload_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// The resumable fault matrix (with automatic chunks too) again over HTTPS with HTTP/2, as Google serves uploads:
// the emulator's certificate comes from an authority made for the test and
// trusted by adding it to the client's roots.
func TestFaultMatrixHTTP2(t *testing.T) {
	ca, err := emulator.NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	var resumable []flow
	for _, f := range flows {
		if f.method == upload.Resumable {
			resumable = append(resumable, f)
		}
	}
	resumable = append(resumable, flow{"resumable auto chunks", upload.Resumable, upload.ChunkAuto, nil})
	faultMatrix(t, resumable, func(t *testing.T, h http.Handler, log *hostLog) (string, *http.Client, func()) {
		ts := httptest.NewUnstartedServer(h)
		ts.TLS = ca.ServerConfig()
		ts.EnableHTTP2 = true
		ts.StartTLS()
		tr := smallBufferTransport(t)
		tr.TLSClientConfig = &tls.Config{RootCAs: ca.Pool()}
		tr.ForceAttemptHTTP2 = true
		var h1 atomic.Int32
		protos := protoCheck{next: recordHosts{next: tr, log: log}, other: &h1}
		t.Cleanup(func() {
			if n := h1.Load(); n > 0 {
				t.Errorf("%d answers came over another protocol than HTTP/2", n)
			}
		})
		return ts.URL, &http.Client{Transport: protos}, ts.Close
	})
}

// protoCheck counts answers that did not come over HTTP/2.
type protoCheck struct {
	next  http.RoundTripper
	other *atomic.Int32
}

func (p protoCheck) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := p.next.RoundTrip(req)
	if err == nil && resp.ProtoMajor != 2 {
		p.other.Add(1)
	}
	return resp, err
}

// A client that does not trust the authority is refused: nothing turns
// verification off.
func TestHTTPSNeedsTheAuthority(t *testing.T) {
	ca, err := emulator.NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := srv.StartTLS(context.Background(), "127.0.0.1:0", ca)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stop()
		_ = srv.Close()
	})
	if _, err := http.Get(base + "/sandbox/objects"); err == nil {
		t.Fatal("a client without the authority reached the HTTPS sandbox")
	}
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}, ForceAttemptHTTP2: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get(base + "/sandbox/objects")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
		t.Errorf("answer %d over %s, want 200 over HTTP/2", resp.StatusCode, resp.Proto)
	}
	tr1 := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}, TLSNextProto: map[string]func(string, *tls.Conn) http.RoundTripper{}}
	defer tr1.CloseIdleConnections()
	resp, err = (&http.Client{Transport: tr1}).Get(base + "/sandbox/objects")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 1 {
		t.Errorf("a client offering only HTTP/1.1 was answered over %s", resp.Proto)
	}
}
