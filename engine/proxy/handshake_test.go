package proxy

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
)

// scripted is a handshake that sends numbered messages, at most max.
type scripted struct {
	max        int
	sent       int
	challenges []string
}

func (s *scripted) Next(challenge []byte) ([]byte, error) {
	if s.sent == s.max {
		return nil, errHandshakeDone
	}
	s.sent++
	s.challenges = append(s.challenges, string(challenge))
	return fmt.Appendf(nil, "message %d", s.sent), nil
}

func (s *scripted) Close() {}

// scriptedProxy answers each CONNECT on one connection with the next of
// answers (a status and a Proxy-Authenticate value), and records the
// Proxy-Authorization values it was sent.
func scriptedProxy(t *testing.T, answers func(n int) (int, string)) (net.Conn, *[]string) {
	client, server := net.Pipe()
	sent := &[]string{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer server.Close()
		br := bufio.NewReader(server)
		for n := 1; ; n++ {
			req, err := http.ReadRequest(br)
			if err != nil {
				return
			}
			*sent = append(*sent, req.Header.Get("Proxy-Authorization"))
			status, ask := answers(n)
			head := fmt.Sprintf("HTTP/1.1 %d %s\r\n", status, http.StatusText(status))
			if ask != "" {
				head += "Proxy-Authenticate: " + ask + "\r\n"
			}
			if status == http.StatusOK {
				_, _ = io.WriteString(server, head+"\r\n")
				return
			}
			if _, err := io.WriteString(server, head+"Content-Length: 0\r\n\r\n"); err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { client.Close(); <-done })
	return client, sent
}

// TestExchangeRounds: the messages go back and forth on one connection
// until the proxy lets the tunnel through (Kerberos after one message,
// NTLM after two) or stops asking, and never more than maxRounds times
// against a proxy that keeps challenging.
func TestExchangeRounds(t *testing.T) {
	const token = "dG9rZW4=" // "token"
	for _, c := range []struct {
		name     string
		max      int
		answers  func(n int) (int, string)
		status   int
		messages int
		err      bool
	}{
		{"one message", 5, func(int) (int, string) { return 200, "" }, 200, 1, false},
		{"challenge then through", 5, func(n int) (int, string) {
			if n == 1 {
				return 407, "Negotiate " + token
			}
			return 200, ""
		}, 200, 2, false},
		{"refused after the last message", 2, func(int) (int, string) { return 407, "Negotiate " + token }, 407, 2, false},
		{"refused without a challenge", 5, func(int) (int, string) { return 407, "Negotiate" }, 407, 1, false},
		{"challenges without end", 100, func(int) (int, string) { return 407, "Negotiate " + token }, 407, maxRounds, false},
		{"another scheme's challenge", 5, func(int) (int, string) { return 407, "NTLM " + token }, 407, 1, false},
		{"no first message", 0, func(int) (int, string) { return 200, "" }, 0, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			conn, sent := scriptedProxy(t, c.answers)
			h := &scripted{max: c.max}
			res, err := exchange(conn, bufio.NewReader(conn), h, "Negotiate", "storage.googleapis.com:443")
			if c.err {
				var failed *handshakeError
				if !errors.As(err, &failed) {
					t.Fatalf("got %v, %v; want the handshake's failure", res, err)
				}
				return
			}
			if err != nil || res.StatusCode != c.status {
				t.Fatalf("got %v, %v; want %d", res, err, c.status)
			}
			conn.Close()
			if len(*sent) != c.messages || h.sent != c.messages {
				t.Fatalf("sent %d messages (%q), the handshake made %d; want %d", len(*sent), *sent, h.sent, c.messages)
			}
			for i, v := range *sent {
				if want := fmt.Sprintf("Negotiate %s", b64(fmt.Sprintf("message %d", i+1))); v != want {
					t.Errorf("message %d sent as %q, want %q", i+1, v, want)
				}
			}
			for i, ch := range h.challenges[1:] {
				if ch != "token" {
					t.Errorf("message %d answered %q, want the proxy's challenge", i+2, ch)
				}
			}
			if h.challenges[0] != "" {
				t.Errorf("the first message was given a challenge: %q", h.challenges[0])
			}
		})
	}
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
