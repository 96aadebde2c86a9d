package harness

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"hoist/engine/emulator"
)

// server is the emulator running in a benchserver process of its own.
type server struct {
	Store string // "hash" or "disk"
	URL   string
	data  string // the disk store's folder
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{}
	seen  int // objects already accounted for
	http  *http.Client
}

// startServer runs bin with the given store and waits for its URL.
func startServer(ctx context.Context, bin, store, data string) (*server, error) {
	return startServerTLS(ctx, bin, store, data, "", "")
}

// startServerTLS is startServer serving HTTPS when caFile is set, where the
// server writes the authority its clients must trust; its certificate also
// names name when set.
func startServerTLS(ctx context.Context, bin, store, data, caFile, name string) (*server, error) {
	args := []string{"-store", store}
	if data != "" {
		args = append(args, "-data", data)
	}
	if caFile != "" {
		args = append(args, "-tls-ca", caFile)
	}
	if name != "" {
		args = append(args, "-tls-name", name)
	}
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{Store: store, data: data, cmd: cmd, stdin: stdin, done: make(chan struct{}),
		http: &http.Client{Timeout: time.Minute}}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	select {
	case line, ok := <-lines:
		if !ok || !(strings.HasPrefix(line, "http://") || strings.HasPrefix(line, "https://")) {
			s.stop()
			return nil, fmt.Errorf("the emulator (%s store) did not start", store)
		}
		s.URL = strings.TrimSpace(line)
		if caFile != "" {
			tr, err := trusting(caFile)
			if err != nil {
				s.stop()
				return nil, err
			}
			s.http.Transport = tr
		}
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	case <-time.After(30 * time.Second):
		s.stop()
		return nil, fmt.Errorf("the emulator (%s store) did not start within 30 s", store)
	}
	return s, nil
}

// stop ends the server: closing its standard input asks it to go.
func (s *server) stop() {
	_ = s.stdin.Close()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// uploadURL is the generic upload path every client but Google's uses.
func (s *server) uploadURL() string { return s.URL + "/upload/sandbox/v1/files" }

func (s *server) getJSON(ctx context.Context, path string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL+path, nil)
	if err != nil {
		return err
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// clear empties the request log before a run.
func (s *server) clear(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/bench/clear", nil)
	if err != nil {
		return err
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("clearing the request log: %s", resp.Status)
	}
	return nil
}

func (s *server) requests(ctx context.Context) ([]emulator.Request, error) {
	var out []emulator.Request
	return out, s.getJSON(ctx, "/bench/requests", &out)
}

// newObjects returns the objects completed since the last call.
func (s *server) newObjects(ctx context.Context) ([]emulator.Object, error) {
	var out []emulator.Object
	if err := s.getJSON(ctx, fmt.Sprintf("/bench/objects?since=%d", s.seen), &out); err != nil {
		return nil, err
	}
	s.seen += len(out)
	return out, nil
}

// cpu is the server's own CPU time so far.
func (s *server) cpu(ctx context.Context) (time.Duration, error) {
	var u struct {
		User   float64 `json:"userSeconds"`
		System float64 `json:"systemSeconds"`
	}
	if err := s.getJSON(ctx, "/bench/usage", &u); err != nil {
		return 0, err
	}
	return time.Duration((u.User + u.System) * float64(time.Second)), nil
}

// forgetBytes removes the bytes a disk store kept of finished uploads, so
// that a long benchmark does not fill the disk. The store never reads them again.
func (s *server) forgetBytes() error {
	if s.data == "" {
		return nil
	}
	var errs []error
	for _, sub := range []string{"sessions", "objects"} {
		matches, _ := filepath.Glob(filepath.Join(s.data, sub, "*.data"))
		for _, m := range matches {
			if err := os.Remove(m); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// trusting is a transport that trusts the certificates in caFile.
func trusting(caFile string) (*http.Transport, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("no certificate in %s", caFile)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = &tls.Config{RootCAs: pool}
	return t, nil
}
