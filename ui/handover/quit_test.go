package handover

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// quitOnRequest makes c quit as the window does when asked: it closes its
// claim (so the process "ends"); ended reports that for askToQuit.
func quitOnRequest(t *testing.T, c *Claim) (asked *atomic.Bool, ended func(int) bool) {
	t.Helper()
	asked = new(atomic.Bool)
	c.OnQuit(func() {
		asked.Store(true)
		go func() { _ = c.Close() }()
	})
	ended = func(pid int) bool {
		if pid != os.Getpid() {
			t.Errorf("asked to wait for process %d, want this process %d", pid, os.Getpid())
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.closed
	}
	return asked, ended
}

func TestAskToQuitInProcess(t *testing.T) {
	for name, tr := range transports() {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()

			t.Run("nothing open", func(t *testing.T) {
				dir := shortTempDir(t)
				got, err := askToQuit(ctx, tr, dir, func(int) bool { t.Error("waited for a process"); return true })
				if err != nil || got != (Stopped{}) {
					t.Fatalf("askToQuit with nothing open = %+v, %v; want nothing stopped", got, err)
				}
			})

			t.Run("the window pauses and quits", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listen(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				paths := serve(t, c)
				asked, ended := quitOnRequest(t, c)
				got, err := askToQuit(ctx, tr, dir, ended)
				if err != nil || got != (Stopped{Window: true}) {
					t.Fatalf("askToQuit = %+v, %v; want the window stopped", got, err)
				}
				if !asked.Load() {
					t.Error("the window was not asked to quit")
				}
				select {
				case p := <-paths:
					t.Errorf("the request to quit reached the window as a hand-over of %v", p)
				default:
				}
				// Its place is free for the next window.
				next, err := listen(tr, dir)
				if err != nil {
					t.Fatalf("listen after the window quit: %v", err)
				}
				_ = next.Close()
			})

			t.Run("a command pauses and quits; a crashed one's folder is tidied", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listenCommand(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				own := filepath.Join(dir, commandsDir, strconv.Itoa(os.Getpid()))
				if _, err := os.Stat(own); err != nil {
					t.Fatalf("the command's folder: %v", err)
				}
				serve(t, c)
				asked, ended := quitOnRequest(t, c)
				stale := filepath.Join(dir, commandsDir, "999999999")
				if err := os.MkdirAll(stale, 0o700); err != nil {
					t.Fatal(err)
				}
				got, err := askToQuit(ctx, tr, dir, ended)
				if err != nil || got != (Stopped{Commands: 1}) {
					t.Fatalf("askToQuit = %+v, %v; want one command stopped", got, err)
				}
				if !asked.Load() {
					t.Error("the command was not asked to quit")
				}
				for _, d := range []string{own, stale} {
					if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
						t.Errorf("%s is left behind (%v)", d, err)
					}
				}
			})

			t.Run("a Hoist that cannot quit on request says so", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listen(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				serve(t, c) // no OnQuit
				if _, err := askToQuit(ctx, tr, dir, func(int) bool { return true }); err == nil || errors.Is(err, ErrTooOld) {
					t.Fatalf("askToQuit of a claim without OnQuit = %v, want a refusal", err)
				}
				_ = c.Close()
			})

			t.Run("an older window that brings itself forward instead", func(t *testing.T) {
				dir := shortTempDir(t)
				ln, secret, err := tr.listen(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer ln.Close()
				go func() {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					defer conn.Close()
					var req map[string]any
					_ = json.NewDecoder(io.LimitReader(conn, 1<<16)).Decode(&req)
					_ = secret
					_, _ = conn.Write([]byte(`{"ok":true}` + "\n"))
				}()
				if _, err := askToQuit(ctx, tr, dir, func(int) bool { return true }); !errors.Is(err, ErrTooOld) {
					t.Fatalf("askToQuit of an older window = %v, want ErrTooOld", err)
				}
			})

			t.Run("a window that does not end in time", func(t *testing.T) {
				dir := shortTempDir(t)
				c, err := listen(tr, dir)
				if err != nil {
					t.Fatal(err)
				}
				serve(t, c)
				c.OnQuit(func() {})
				short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
				defer cancel()
				if _, err := askToQuit(short, tr, dir, func(int) bool { return false }); !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("askToQuit of a window that stays = %v, want the deadline", err)
				}
				_ = c.Close()
			})
		})
	}
}

// TestAskToQuitBetweenProcesses asks a window and a command, each in a
// process of its own, to quit, and waits for both processes to end.
func TestAskToQuitBetweenProcesses(t *testing.T) {
	for name, tr := range transports() {
		t.Run(name, func(t *testing.T) {
			dir := shortTempDir(t)
			window := startHelper(t, "quittable", dir, name)
			window.Expect(t, "listening")
			command := startHelper(t, "quittable-command", dir, name)
			command.Expect(t, "listening")
			windowEnded, commandEnded := window.Ended(), command.Ended()

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			got, err := askToQuit(ctx, tr, dir, processEnded)
			if err != nil || got != (Stopped{Window: true, Commands: 1}) {
				t.Fatalf("askToQuit = %+v, %v; want the window and one command stopped", got, err)
			}
			for what, ended := range map[string]<-chan struct{}{"window": windowEnded, "command": commandEnded} {
				select {
				case <-ended:
				case <-time.After(10 * time.Second):
					t.Errorf("askToQuit returned, but the %s's process has not ended", what)
				}
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, commandsDir)); len(entries) != 0 {
				t.Errorf("the commands' folder still holds %v", entries)
			}
		})
	}
}

// runQuittable plays a window (or, as a command, a hoist command) that
// quits when asked: it closes its claim and ends its process.
func runQuittable(dir string, tr transport, asCommand bool, say func(string, ...any)) int {
	var c *Claim
	var err error
	if asCommand {
		c, err = listenCommand(tr, dir)
	} else {
		c, err = listen(tr, dir)
	}
	if err != nil {
		say("error %v", err)
		return 1
	}
	c.OnQuit(func() {
		go func() {
			time.Sleep(100 * time.Millisecond) // as a window saving its list
			_ = c.Close()
			os.Exit(0)
		}()
	})
	go func() { _ = c.Serve(context.Background(), func([]string) {}) }()
	say("listening")
	_, _ = io.Copy(io.Discard, os.Stdin)
	_ = c.Close()
	return 0
}

func TestReopenNote(t *testing.T) {
	dir := t.TempDir()
	if TakeReopen(dir) {
		t.Fatal("TakeReopen without a note = true")
	}
	if err := NoteReopen(dir); err != nil {
		t.Fatal(err)
	}
	if !TakeReopen(dir) || TakeReopen(dir) {
		t.Fatal("a note is taken once")
	}
	// An update that closed the window and failed must not open it days later.
	if err := NoteReopen(dir); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * reopenWithin)
	if err := os.Chtimes(filepath.Join(dir, reopenNote), old, old); err != nil {
		t.Fatal(err)
	}
	if TakeReopen(dir) {
		t.Error("a note from two hours ago opened the window")
	}
	if _, err := os.Stat(filepath.Join(dir, reopenNote)); !errors.Is(err, os.ErrNotExist) {
		t.Error("an old note is left behind")
	}
}
