package journal

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// shortTempDir is a temporary folder with a path short enough for a socket.
func shortTempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hj")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// serve runs in.Serve until the test ends and passes hand-offs to a channel.
func serve(t *testing.T, in *Instance) <-chan []string {
	t.Helper()
	got := make(chan []string, 10)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Serve(ctx, func(paths []string) { got <- paths }) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		_ = in.Close()
	})
	return got
}

func TestHandOffInProcess(t *testing.T) {
	dir := shortTempDir(t)
	ctx := context.Background()

	if err := Hand(ctx, dir, []string{"/a.png"}); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Hand with no window = %v, want ErrNotRunning", err)
	}
	in, err := Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := serve(t, in)
	if _, err := Listen(dir); !errors.Is(err, ErrInUse) {
		t.Fatalf("second Listen = %v, want ErrInUse", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"absolute paths", []string{"/home/ana/Facturas/a.eml", "/home/ana/b c.png"}, []string{"/home/ana/Facturas/a.eml", "/home/ana/b c.png"}},
		{"relative paths are made absolute", []string{"x/y.png"}, []string{filepath.Join(wd, "x/y.png")}},
		{"no paths asks the window to come forward", nil, []string{}},
		{"many paths", manyPaths(5000), manyPaths(5000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Hand(ctx, dir, tt.paths); err != nil {
				t.Fatal(err)
			}
			// Hand returns only once the window has taken the paths.
			select {
			case p := <-got:
				if !reflect.DeepEqual(p, tt.want) {
					t.Errorf("received %d paths %.80v, want %d %.80v", len(p), p, len(tt.want), tt.want)
				}
			default:
				t.Fatal("Hand returned before the window received the paths")
			}
		})
	}
}

func manyPaths(n int) []string {
	p := make([]string, n)
	for i := range p {
		p[i] = "/home/ana/Pictures/" + strings.Repeat("x", 50) + "/" + string(rune('a'+i%26)) + ".png"
	}
	return p
}

func TestHandOffEdges(t *testing.T) {
	t.Run("a closed window frees its place", func(t *testing.T) {
		dir := shortTempDir(t)
		in, err := Listen(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := in.Close(); err != nil {
			t.Fatal(err)
		}
		if err := Hand(context.Background(), dir, nil); !errors.Is(err, ErrNotRunning) {
			t.Errorf("Hand after Close = %v, want ErrNotRunning", err)
		}
		in2, err := Listen(dir)
		if err != nil {
			t.Fatalf("Listen after Close: %v", err)
		}
		_ = in2.Close()
	})
	t.Run("a stale socket file is replaced", func(t *testing.T) {
		dir := shortTempDir(t)
		if err := os.WriteFile(filepath.Join(dir, SocketName), []byte("left over"), 0o600); err != nil {
			t.Fatal(err)
		}
		in, err := Listen(dir)
		if err != nil {
			t.Fatal(err)
		}
		got := serve(t, in)
		if err := Hand(context.Background(), dir, []string{"/a"}); err != nil {
			t.Fatal(err)
		}
		if p := <-got; len(p) != 1 || p[0] != "/a" {
			t.Errorf("received %v", p)
		}
	})
	t.Run("a window that does not answer", func(t *testing.T) {
		dir := shortTempDir(t)
		in, err := Listen(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close() // listening but never serving
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := Hand(ctx, dir, []string{"/a"}); err == nil || errors.Is(err, ErrNotRunning) {
			t.Errorf("Hand with a cancelled context = %v, want a cancellation error", err)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := Hand(ctx, dir, []string{"/a"}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Hand to a silent window = %v, want DeadlineExceeded", err)
		}
	})
	t.Run("a folder path too long for a socket", func(t *testing.T) {
		dir := filepath.Join(shortTempDir(t), strings.Repeat("d", 120))
		if _, err := Listen(dir); err == nil || !strings.Contains(err.Error(), "too long") {
			t.Errorf("Listen = %v, want a too-long error", err)
		}
		if err := Hand(context.Background(), dir, nil); err == nil || errors.Is(err, ErrNotRunning) {
			t.Errorf("Hand = %v, want a too-long error", err)
		}
	})
	t.Run("Serve ends when its context does", func(t *testing.T) {
		dir := shortTempDir(t)
		in, err := Listen(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- in.Serve(ctx, func([]string) {}) }()
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	})
}
