package engine_test

import (
	"bytes"
	"crypto/rand"
	"net/http"
	"net/http/httptrace"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/proxy"
	"hoist/engine/upload"
	"hoist/internal/testproxy"
)

// TestDefaultTransportThroughConnectProxy: over HTTPS through an office
// proxy (CONNECT), to a server that speaks HTTP/2 as well as HTTP/1.1 (as
// Google's do), an upload with the default transport arrives (its TLS
// inside the tunnel must not offer HTTP/2, which it does not speak), and
// every chunk goes through one tunnel. The name the server is reached by is one only the
// proxy resolves.
func TestDefaultTransportThroughConnectProxy(t *testing.T) {
	const name = "uploads.office.example"
	ca, err := emulator.NewAuthority(name)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, ca.CertPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	emu, err := emulator.New(emulator.Options{Store: emulator.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := emu.StartTLS(t.Context(), "127.0.0.1:0", ca)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stop() }()
	addr := strings.TrimPrefix(base, "https://")
	_, port, _ := strings.Cut(addr, ":")
	px := testproxy.Start(t, testproxy.WithHost(name, addr))

	tr, err := engine.TrustingTransport(caFile, false)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.CloseIdleConnections()
	office := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromEnvironment, Mode: proxy.Manual, HTTP: px.Addr, HTTPS: px.Addr}}
	client := &http.Client{Transport: office.Apply(tr)}

	var mu sync.Mutex
	var conns, requests int
	ctx := httptrace.WithClientTrace(t.Context(), &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		mu.Lock()
		defer mu.Unlock()
		requests++
		if !info.Reused {
			conns++
		}
	}})
	data := make([]byte, 8*upload.ChunkAlign+123)
	_, _ = rand.Read(data)
	u := &upload.Uploader{Client: client, ChunkSize: 2 * upload.ChunkAlign}
	target := "https://" + name + ":" + port + dest.SandboxPath
	if _, err := u.Upload(ctx, upload.Target{URL: target}, memFile{bytes.NewReader(data)}, upload.Resumable, nil, nil); err != nil {
		t.Fatal(err)
	}
	objs := emu.Objects()
	if len(objs) != 1 || objs[0].Size != int64(len(data)) {
		t.Fatalf("the emulator holds %+v, want one object of %d bytes", objs, len(data))
	}
	mu.Lock()
	defer mu.Unlock()
	// The session, then 5 chunks, on one connection: one tunnel.
	if requests != 6 || conns != 1 || px.Requests() != 1 {
		t.Errorf("%d requests on %d connections through %d tunnels, want 6 on 1 through 1", requests, conns, px.Requests())
	}
}
