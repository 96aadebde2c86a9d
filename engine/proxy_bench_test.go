package engine_test

import (
	"crypto/rand"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/proxy"
	"hoist/internal/testproxy"
)

// BenchmarkPutThroughConnectProxy sends one large body over HTTPS through
// an office proxy (CONNECT) on loopback: Hoist's upload transport, and curl
// through the same proxy as the reference (issue: ≥ 0.9 × curl).
func BenchmarkPutThroughConnectProxy(b *testing.B) {
	const size = 64 << 20
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	// The server's certificate names example.com; only the proxy knows where that is.
	px := testproxy.Start(b, testproxy.WithHost("example.com", srv.Listener.Addr().String()))
	_, port, _ := strings.Cut(srv.Listener.Addr().String(), ":")
	address := "https://example.com:" + port + "/upload"
	dir := b.TempDir()
	file := filepath.Join(dir, "big.bin")
	data := make([]byte, size)
	_, _ = rand.Read(data)
	if err := os.WriteFile(file, data, 0o600); err != nil {
		b.Fatal(err)
	}
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		b.Fatal(err)
	}

	b.Run("hoist", func(b *testing.B) {
		t := engine.DefaultTransport()
		if err := engine.AlsoTrust(t, ca); err != nil {
			b.Fatal(err)
		}
		c := &http.Client{Transport: (&proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromWindows, Mode: proxy.Manual, HTTP: px.Addr, HTTPS: px.Addr}}).Apply(t)}
		b.SetBytes(size)
		for b.Loop() {
			f, err := os.Open(file)
			if err != nil {
				b.Fatal(err)
			}
			req, _ := http.NewRequest(http.MethodPut, address, f)
			req.ContentLength = size
			resp, err := c.Do(req)
			f.Close()
			if err != nil {
				b.Fatal(err)
			}
			resp.Body.Close()
		}
	})
	b.Run("curl", func(b *testing.B) {
		curl, err := exec.LookPath("curl")
		if err != nil {
			b.Skip("curl is not installed")
		}
		b.SetBytes(size)
		for b.Loop() {
			out, err := exec.Command(curl, "-sS", "--fail", "-o", "/dev/null", "-x", "http://"+px.Addr, "--http1.1",
				"--cacert", ca, "-T", file, "-H", "Expect:", address).CombinedOutput()
			if err != nil {
				b.Fatalf("curl: %v: %s", err, out)
			}
		}
	})
}
