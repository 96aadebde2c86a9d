package upload

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// HTTP/2 frames, as much of them as a server that resets a stream needs.
const (
	h2Data         = 0x0
	h2Headers      = 0x1
	h2RSTStream    = 0x3
	h2Settings     = 0x4
	h2Ping         = 0x6
	h2EndStream    = 0x1
	h2Ack          = 0x1
	h2EndHeaders   = 0x4
	h2RefusedCode  = 0x7
	h2ProtocolCode = 0x1
	h2Preface      = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
)

// resettingServer is an HTTP/2 server on loopback (TLS, "h2") that reads
// each request's whole body, then resets the first stream with code and
// answers the others 200: a stream reset that Go's HTTP/2 client meets
// by sending the request again, unseen, when it can get the body again.
type resettingServer struct {
	code uint32

	mu     sync.Mutex
	bodies int // requests whose whole body arrived
}

func (s *resettingServer) received() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies
}

func writeFrame(w io.Writer, typ, flags byte, stream uint32, payload []byte) error {
	var h [9]byte
	h[0], h[1], h[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
	h[3], h[4] = typ, flags
	binary.BigEndian.PutUint32(h[5:], stream)
	_, err := w.Write(append(h[:], payload...))
	return err
}

func (s *resettingServer) serve(_ *http.Server, c *tls.Conn, _ http.Handler) {
	defer c.Close()
	r := bufio.NewReader(c)
	preface := make([]byte, len(h2Preface))
	if _, err := io.ReadFull(r, preface); err != nil || string(preface) != h2Preface {
		return
	}
	if writeFrame(c, h2Settings, 0, 0, nil) != nil {
		return
	}
	for {
		var h [9]byte
		if _, err := io.ReadFull(r, h[:]); err != nil {
			return
		}
		n := int(h[0])<<16 | int(h[1])<<8 | int(h[2])
		typ, flags, stream := h[3], h[4], binary.BigEndian.Uint32(h[5:])&0x7fffffff
		payload := make([]byte, n)
		if _, err := io.ReadFull(r, payload); err != nil {
			return
		}
		var err error
		switch {
		case typ == h2Settings && flags&h2Ack == 0:
			err = writeFrame(c, h2Settings, h2Ack, 0, nil)
		case typ == h2Ping && flags&h2Ack == 0:
			err = writeFrame(c, h2Ping, h2Ack, 0, payload)
		case (typ == h2Data || typ == h2Headers) && flags&h2EndStream != 0:
			s.mu.Lock()
			s.bodies++
			first := s.bodies == 1
			s.mu.Unlock()
			if first {
				var code [4]byte
				binary.BigEndian.PutUint32(code[:], s.code)
				err = writeFrame(c, h2RSTStream, 0, stream, code[:])
				break
			}
			// ":status: 200" is entry 8 of HPACK's static table.
			if err = writeFrame(c, h2Headers, h2EndHeaders, stream, []byte{0x88}); err == nil {
				err = writeFrame(c, h2Data, h2EndStream, stream, []byte(okJSON))
			}
		}
		if err != nil {
			return
		}
	}
}

// A one-request upload goes out once over HTTP/2 too: a stream reset after
// the server read the whole body is a lost answer, never a second copy the
// transport sends unseen.
func TestHTTP2DoesNotReplayTheBody(t *testing.T) {
	file := testFile(1000)
	for _, tc := range []struct {
		name string
		code uint32
	}{{"REFUSED_STREAM", h2RefusedCode}, {"PROTOCOL_ERROR", h2ProtocolCode}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &resettingServer{code: tc.code}
			ts := httptest.NewUnstartedServer(http.NotFoundHandler())
			ts.EnableHTTP2 = true
			ts.Config.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){"h2": srv.serve}
			ts.StartTLS()
			t.Cleanup(ts.Close)
			client := ts.Client()
			for _, m := range []Method{Media, Multipart} {
				before := srv.received()
				up := &Uploader{Client: client, Clock: newClock()}
				target := Target{URL: ts.URL + "/upload/v1/things?alt=json", ContentType: testType}
				if m == Multipart {
					target.Metadata = []byte(`{"name":"a.png"}`)
				}
				_, err := up.Upload(context.Background(), target, &memFile{data: file}, m, nil, nil)
				if got := srv.received() - before; got != 1 {
					t.Errorf("%s: the server received the body %d times", m, got)
				}
				if !errors.Is(err, ErrAnswerLost) {
					t.Errorf("%s: err = %v", m, err)
				}
				srv.mu.Lock()
				srv.bodies = 0 // the next upload's first stream is reset too
				srv.mu.Unlock()
			}
		})
	}
}
