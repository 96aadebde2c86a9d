package engine_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/proxy"
	"hoist/engine/upload"
	"hoist/internal/testproxy"
)

// TestDefaultTransportThroughConnectProxy: over HTTPS through an office
// proxy (CONNECT), to a server that speaks HTTP/2 as well as HTTP/1.1 (as
// Google's do), an upload with the default transport arrives (its TLS
// inside the tunnel must not offer HTTP/2, which it does not speak), every
// chunk goes through one tunnel, and the connection inside it sends its TLS
// records in large writes as a direct one does. The name the server is
// reached by is one only the proxy resolves.
func TestDefaultTransportThroughConnectProxy(t *testing.T) {
	const name = "uploads.office.example"
	emu, base, caFile := startTLSEmulator(t, name)
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

	var seen connections
	ctx := seen.trace(t.Context())
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
	requests, conns, gathered := seen.counts()
	// The session, then 5 chunks, on one connection: one tunnel.
	if requests != 6 || conns != 1 || px.Requests() != 1 {
		t.Errorf("%d requests on %d connections through %d tunnels, want 6 on 1 through 1", requests, conns, px.Requests())
	}
	if gathered != requests {
		t.Errorf("%d of %d requests went over a connection whose records leave in large writes", gathered, requests)
	}
}

// TestDefaultTransportSignsInToConnectProxy: the default transport opens
// its tunnels itself, and a proxy that asks for a sign-in still gets the
// question asked once, the request going on with the name and password
// typed, and a wrong password is said as refused, not sent again and again.
func TestDefaultTransportSignsInToConnectProxy(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "kept")
	}))
	defer srv.Close()
	px := testproxy.Start(t, testproxy.WithLogin("ali", "s3cret"), testproxy.WithHost("example.com", srv.Listener.Addr().String()))
	_, port, _ := strings.Cut(srv.Listener.Addr().String(), ":")
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		password string
		works    bool
	}{{"s3cret", true}, {"guess", false}} {
		t.Run(c.password, func(t *testing.T) {
			tr, err := engine.TrustingTransport(ca, false)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.CloseIdleConnections()
			asked := 0
			p := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromGNOME, Mode: proxy.Manual, HTTP: px.Addr, HTTPS: px.Addr},
				Ask: func(context.Context, string, proxy.Origin) (string, string, bool) {
					asked++
					return "ali", c.password, true
				}}
			cl := &http.Client{Transport: p.Apply(tr)}
			put := func() (string, error) {
				req, _ := http.NewRequest(http.MethodPut, "https://example.com:"+port+"/upload", strings.NewReader("report"))
				resp, err := cl.Do(req)
				if err != nil {
					return "", err
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				return string(b), err
			}
			refused := px.Refused()
			got, err := put() // goes on after the proxy's question, with the login typed
			var e *proxy.SignInError
			switch {
			case c.works && (err != nil || got != "kept"):
				t.Errorf("signed in: %q, %v", got, err)
			case !c.works && (!errors.As(err, &e) || !e.Refused || e.Proxy != px.Addr || e.Origin != proxy.FromGNOME):
				t.Errorf("a wrong password: %v, want the proxy's refusal, named", err)
			case !c.works && strings.Contains(err.Error(), c.password):
				t.Errorf("the error shows the password: %v", err)
			}
			if asked != 1 || px.Refused()-refused != 1+btoi(!c.works) {
				t.Errorf("asked %d times, the proxy refused %d times", asked, px.Refused()-refused)
			}
		})
	}
}

func btoi(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// TestDefaultTransportNamesConnectProxyThatDoesNotAnswer: with the tunnel
// opened by the default transport's own dial, a proxy where nothing answers
// is still named, with where its setting came from.
func TestDefaultTransportNamesConnectProxyThatDoesNotAnswer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	tr := engine.DefaultTransport()
	defer tr.CloseIdleConnections()
	p := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromOrganisation, Mode: proxy.Manual, HTTP: dead, HTTPS: dead}}
	resp, err := (&http.Client{Transport: p.Apply(tr)}).Get("https://storage.googleapis.com/")
	if err == nil {
		resp.Body.Close()
	}
	var e *proxy.UnreachableError
	if !errors.As(err, &e) || e.Proxy != dead || e.Origin != proxy.FromOrganisation || !errors.Is(err, proxy.ErrOfficeProxy) {
		t.Fatalf("%v, want the proxy named as unreachable", err)
	}
}
