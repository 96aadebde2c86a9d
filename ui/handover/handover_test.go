package handover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"hoist/internal/testproc"
)

// Tests that need a second process run this test binary again with
// helperEnv naming the part it plays and transportEnv the channel.
const (
	helperEnv    = "HOIST_HANDOVER_TEST_HELPER"
	dirEnv       = "HOIST_HANDOVER_TEST_DIR"
	transportEnv = "HOIST_HANDOVER_TEST_TRANSPORT"
)

func TestMain(m *testing.M) {
	if part := os.Getenv(helperEnv); part != "" {
		os.Exit(runHelper(part, os.Getenv(dirEnv), transportNamed(os.Getenv(transportEnv))))
	}
	os.Exit(m.Run())
}

func transportNamed(name string) transport {
	if name == "loopback" {
		return loopback{}
	}
	return unixSocket{}
}

// transports are the channels that can run on this system: both on Unix
// (Windows' loopback channel is plain TCP), the loopback one on Windows.
func transports() map[string]transport {
	if runtime.GOOS == "windows" {
		return map[string]transport{"loopback": loopback{}}
	}
	return map[string]transport{"unix": unixSocket{}, "loopback": loopback{}}
}

func TestEachSystemGetsItsChannel(t *testing.T) {
	for goos, want := range map[string]transport{
		"linux": unixSocket{}, "darwin": unixSocket{}, "freebsd": unixSocket{}, "windows": loopback{},
	} {
		if got := transportFor(goos); got != want {
			t.Errorf("transportFor(%s) = %T, want %T", goos, got, want)
		}
	}
}

// shortTempDir is a temporary folder with a path short enough for a socket.
func shortTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// serve runs c.Serve until the test ends and passes hand-overs to a channel.
func serve(t *testing.T, c *Claim) <-chan []string {
	t.Helper()
	got := make(chan []string, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Serve(ctx, func(paths []string) { got <- paths }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		_ = c.Close()
	})
	return got
}

func TestHandOverInProcess(t *testing.T) {
	for name, tr := range transports() {
		t.Run(name, func(t *testing.T) {
			dir := shortTempDir(t)
			ctx := context.Background()
			if err := hand(ctx, tr, dir, []string{"/a.png"}); !errors.Is(err, ErrNotRunning) {
				t.Fatalf("hand with no window = %v, want ErrNotRunning", err)
			}
			c, err := listen(tr, dir)
			if err != nil {
				t.Fatal(err)
			}
			got := serve(t, c)
			if _, err := listen(tr, dir); !errors.Is(err, ErrInUse) {
				t.Fatalf("second listen = %v, want ErrInUse", err)
			}
			wd, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			abs := func(p ...string) []string {
				out := make([]string, len(p))
				for i := range p {
					out[i] = filepath.Join(wd, p[i])
				}
				return out
			}
			tests := []struct {
				name  string
				paths []string
				want  []string
			}{
				{"absolute paths", abs("Facturas/a.eml", "b c.png"), abs("Facturas/a.eml", "b c.png")},
				{"relative paths are made absolute", []string{"x/y.png"}, abs("x/y.png")},
				{"no paths asks the window to come forward", nil, []string{}},
				{"many paths", abs(manyPaths(5000)...), abs(manyPaths(5000)...)},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					if err := hand(ctx, tr, dir, tt.paths); err != nil {
						t.Fatal(err)
					}
					// hand returns only once the window has taken the paths.
					select {
					case p := <-got:
						if !reflect.DeepEqual(p, tt.want) {
							t.Errorf("received %d paths %.80v, want %d %.80v", len(p), p, len(tt.want), tt.want)
						}
					default:
						t.Fatal("hand returned before the window received the paths")
					}
				})
			}
		})
	}
}

func manyPaths(n int) []string {
	p := make([]string, n)
	for i := range p {
		p[i] = filepath.Join("Pictures", strings.Repeat("x", 50), string(rune('a'+i%26))+".png")
	}
	return p
}

func TestHandOverEdges(t *testing.T) {
	for name, tr := range transports() {
		t.Run(name, func(t *testing.T) {
			t.Run("a closed window frees its place", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listen(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
				if err := hand(context.Background(), tr, dir, nil); !errors.Is(err, ErrNotRunning) {
					t.Errorf("hand after Close = %v, want ErrNotRunning", err)
				}
				c2, err := listen(tr, dir)
				if err != nil {
					t.Fatalf("listen after Close: %v", err)
				}
				_ = c2.Close()
			})
			t.Run("a window that does not answer", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listen(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close() // listening but never serving
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				if err := hand(ctx, tr, dir, []string{"/a"}); err == nil || errors.Is(err, ErrNotRunning) {
					t.Errorf("hand with a cancelled context = %v, want a cancellation error", err)
				}
				ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
				defer cancel()
				if err := hand(ctx, tr, dir, []string{"/a"}); !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("hand to a silent window = %v, want DeadlineExceeded", err)
				}
			})
			t.Run("Serve ends when its context does", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listen(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error)
				go func() { done <- c.Serve(ctx, func([]string) {}) }()
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Serve = %v, want nil", err)
				}
			})
		})
	}
}

func TestUnixSocketEdges(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Hoist uses no Unix socket on Windows")
	}
	t.Run("a stale socket file is replaced", func(t *testing.T) {
		dir := shortTempDir(t)
		if err := os.WriteFile(filepath.Join(dir, SocketName), []byte("left over"), 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := listen(unixSocket{}, dir)
		if err != nil {
			t.Fatal(err)
		}
		got := serve(t, c)
		if err := hand(context.Background(), unixSocket{}, dir, []string{"/a"}); err != nil {
			t.Fatal(err)
		}
		if p := <-got; len(p) != 1 || p[0] != "/a" {
			t.Errorf("received %v", p)
		}
	})
	t.Run("the socket and its folder are private", func(t *testing.T) {
		dir := filepath.Join(shortTempDir(t), "Hoist")
		c, err := listen(unixSocket{}, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		for p, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, SocketName): 0o600} {
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != want {
				t.Errorf("%s: mode %o, want %o", filepath.Base(p), got, want)
			}
		}
	})
	t.Run("a folder path too long for a socket", func(t *testing.T) {
		dir := filepath.Join(shortTempDir(t), strings.Repeat("d", 120))
		if _, err := listen(unixSocket{}, dir); err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("listen = %v, want a too-long error", err)
		}
		if err := hand(context.Background(), unixSocket{}, dir, nil); err == nil || errors.Is(err, ErrNotRunning) {
			t.Errorf("hand = %v, want a too-long error", err)
		}
	})
}

func TestLoopbackNeedsTheSecret(t *testing.T) {
	dir := shortTempDir(t)
	c, err := listen(loopback{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	got := serve(t, c)
	addrFile := filepath.Join(dir, AddressFile)
	if runtime.GOOS != "windows" {
		info, err := os.Stat(addrFile)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %o, want 600", AddressFile, info.Mode().Perm())
		}
	}
	data, err := os.ReadFile(addrFile)
	if err != nil {
		t.Fatal(err)
	}
	var a address
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Secret) < 64 {
		t.Errorf("secret %q is too short", a.Secret)
	}

	// Someone who can reach the port but cannot read the file.
	for _, secret := range []string{"", "guess", strings.Repeat("0", len(a.Secret))} {
		conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", a.Port))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.NewEncoder(conn).Encode(handOff{Secret: secret, Paths: []string{"/evil"}}); err != nil {
			t.Fatal(err)
		}
		var reply handReply
		if err := json.NewDecoder(conn).Decode(&reply); err != nil {
			t.Fatal(err)
		}
		_ = conn.Close()
		if reply.OK || !strings.Contains(reply.Error, "secret") {
			t.Errorf("hand-over with secret %q: reply %+v, want a refusal", secret, reply)
		}
	}
	select {
	case p := <-got:
		t.Fatalf("the window took %v from a hand-over without its secret", p)
	default:
	}

	// A damaged address file is an error, not "no window".
	if err := os.WriteFile(addrFile, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := hand(context.Background(), loopback{}, dir, nil); err == nil || errors.Is(err, ErrNotRunning) {
		t.Errorf("hand with a damaged address file = %v, want an error", err)
	}
}

// runHelper plays one part in the other process. It reports on stdout, one
// line per event, and holds what it opened until stdin closes.
func runHelper(part, dir string, tr transport) int {
	say := func(format string, args ...any) { fmt.Fprintf(os.Stdout, format+"\n", args...) }
	switch part {
	case "listen":
		c, err := listen(tr, dir)
		if err != nil {
			say("error %v", err)
			return 1
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- c.Serve(ctx, func(paths []string) {
				b, _ := json.Marshal(paths)
				say("got %s", b)
			})
		}()
		say("listening")
		_, _ = io.Copy(io.Discard, os.Stdin)
		cancel()
		if err := <-done; err != nil {
			say("error %v", err)
		}
		_ = c.Close()
		return 0
	case "hand":
		err := hand(context.Background(), tr, dir, []string{"relative.eml", "photo.png"})
		switch {
		case errors.Is(err, ErrNotRunning):
			say("not running")
		case err != nil:
			say("error %v", err)
		default:
			say("handed")
		}
		return 0
	case "quittable", "quittable-command":
		return runQuittable(dir, tr, part == "quittable-command", say)
	}
	say("error unknown part %q", part)
	return 2
}

// startHelper runs this test binary again to play part with dir over the transport.
func startHelper(t *testing.T, part, dir, transport string) *testproc.Helper {
	t.Helper()
	return testproc.Start(t, helperEnv+"="+part, dirEnv+"="+dir, transportEnv+"="+transport)
}

func TestHandOverBetweenProcesses(t *testing.T) {
	for name, tr := range transports() {
		t.Run(name, func(t *testing.T) {
			dir := shortTempDir(t)
			h := startHelper(t, "listen", dir, name)
			h.Expect(t, "listening")

			if _, err := listen(tr, dir); !errors.Is(err, ErrInUse) {
				t.Fatalf("listen while another process listens = %v, want ErrInUse", err)
			}
			wd, err := os.Getwd()
			if err != nil {
				t.Fatal(err)
			}
			paths := []string{filepath.Join(wd, "Facturas", "marzo.eml"), filepath.Join("fotos", "logo.png")}
			if err := hand(context.Background(), tr, dir, paths); err != nil {
				t.Fatal(err)
			}
			want, _ := json.Marshal([]string{paths[0], filepath.Join(wd, paths[1])})
			h.Expect(t, "got "+string(want))

			// A crashed window leaves its socket or address file; nobody answers it.
			h.Kill(t)
			if err := hand(context.Background(), tr, dir, paths); !errors.Is(err, ErrNotRunning) {
				t.Fatalf("hand to a killed window = %v, want ErrNotRunning", err)
			}

			// This process takes over, and the other hands its files to it.
			c, err := listen(tr, dir)
			if err != nil {
				t.Fatalf("listen after the other window was killed: %v", err)
			}
			got := serve(t, c)
			other := startHelper(t, "hand", dir, name)
			other.Expect(t, "handed")
			select {
			case p := <-got:
				if len(p) != 2 || filepath.Base(p[0]) != "relative.eml" || filepath.Base(p[1]) != "photo.png" || !filepath.IsAbs(p[0]) {
					t.Errorf("received %v", p)
				}
			default:
				t.Fatal("the other process was told its files were taken, but none arrived")
			}
		})
	}
}
