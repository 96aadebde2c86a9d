package engine

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// selfWritingBody is a request body that writes itself, counting how
// often net/http let it write to the connection.
type selfWritingBody struct {
	*bytes.Reader
	writes atomic.Int32
}

func (b *selfWritingBody) Len() int64 { return int64(b.Reader.Len()) }

func (b *selfWritingBody) WriteTo(w io.Writer) (int64, error) {
	if _, toConn := w.(net.Conn); toConn {
		b.writes.Add(1)
	}
	return b.Reader.WriteTo(w)
}

func (b *selfWritingBody) Close() error { return nil }

// TestBodiesWriteThemselves: over plain HTTP/1.1 the engine's transport
// hands a body that writes itself the connection, so an upload reads and
// sums its file beside the send, and the server gets every byte.
func TestBodiesWriteThemselves(t *testing.T) {
	want := make([]byte, 3<<20)
	if _, err := rand.Read(want); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Error(err)
		}
		got <- b
	}))
	defer srv.Close()
	client := &http.Client{Transport: DefaultTransport()}
	for range 2 { // a new connection, then a reused one
		body := &selfWritingBody{Reader: bytes.NewReader(want)}
		req, err := http.NewRequest(http.MethodPut, srv.URL, body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = int64(len(want))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if b := <-got; !bytes.Equal(b, want) {
			t.Fatalf("the server got %d bytes, not the %d sent", len(b), len(want))
		}
		if body.writes.Load() != 1 {
			t.Fatalf("the body wrote itself to the connection %d times, want once", body.writes.Load())
		}
	}
}
