package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// usage is what the operating system says a finished process cost.
type usage struct {
	Wall   time.Duration
	User   time.Duration
	System time.Duration
	MaxRSS int64 // bytes, peak resident set of the largest process
}

// procTimeout bounds one client process; a run that takes longer has failed.
const procTimeout = 5 * time.Minute

// proc is one client process to measure.
type proc struct {
	path string
	args []string
	env  []string // added to the harness's environment
	dir  string
}

// timePath is GNU time, which reports a child's peak RSS. The peak that
// wait4 gives this process for its own children is no use: Linux keeps a
// process's peak across execve, so every child started from this (larger)
// process would show at least this process's peak.
const timePath = "/usr/bin/time"

// runProcs starts the processes together and waits for all of them. Wall is
// from the first start to the last exit; CPU times add up (getrusage of each
// child, from wait4); MaxRSS is the largest peak of any one of them, as GNU
// time measured it from a parent of its own size.
func runProcs(ctx context.Context, ps []proc) (usage, error) {
	if _, err := os.Stat(timePath); err != nil {
		return usage{}, fmt.Errorf("%s is needed to measure peak memory (Debian package \"time\"): %w", timePath, err)
	}
	ctx, cancel := context.WithTimeout(ctx, procTimeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "hoistbench-rss-")
	if err != nil {
		return usage{}, err
	}
	defer os.RemoveAll(dir)
	cmds := make([]*exec.Cmd, len(ps))
	outs := make([]*tailBuffer, len(ps))
	rssFiles := make([]string, len(ps))
	for i, p := range ps {
		rssFiles[i] = filepath.Join(dir, fmt.Sprintf("rss-%d", i))
		args := append([]string{"-f", "%M", "-o", rssFiles[i], "--", p.path}, p.args...)
		cmd := exec.CommandContext(ctx, timePath, args...)
		cmd.Dir = p.dir
		cmd.Env = append(os.Environ(), p.env...)
		outs[i] = &tailBuffer{max: 2048}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		// On timeout, end the client too, not only time.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = 5 * time.Second
		cmds[i] = cmd
	}
	start := time.Now()
	var u usage
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, cmd := range cmds {
		if err := cmd.Start(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ps[i].path, err))
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Wait()
			mu.Lock()
			defer mu.Unlock()
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				// wait4 counts the children time waited for: the client's CPU.
				u.User += time.Duration(ru.Utime.Nano())
				u.System += time.Duration(ru.Stime.Nano())
			}
			if rss, rerr := readRSS(rssFiles[i]); rerr == nil {
				u.MaxRSS = max(u.MaxRSS, rss)
			} else if err == nil {
				err = rerr
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w: %s", shortName(ps[i].path), err, strings.TrimSpace(outs[i].String())))
			}
		}()
	}
	wg.Wait()
	u.Wall = time.Since(start)
	return u, errors.Join(errs...)
}

// readRSS reads the peak RSS that GNU time wrote, in KiB, as bytes.
func readRSS(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	// On failure time writes "Command exited with non-zero status N" first.
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	kib, err := strconv.ParseInt(strings.TrimSpace(lines[len(lines)-1]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("reading the peak memory that time measured: %w", err)
	}
	return kib * 1024, nil
}

func shortName(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// tailBuffer keeps the last max bytes written to it: enough to explain a failure.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.ToValidUTF8(t.b, nil))
}

// goBuild builds a Go program in dir (package pkg) into out.
func goBuild(ctx context.Context, dir, pkg, out string, flags []string) error {
	args := append([]string{"build", "-o", out}, flags...)
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, goTool(), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s in %s: %w\n%s", pkg, dir, err, stderr.String())
	}
	return nil
}

// goTool is the go command that runs the harness, else the one on PATH.
func goTool() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	if root := os.Getenv("GOROOT"); root != "" {
		if _, err := os.Stat(root + "/bin/go"); err == nil {
			return root + "/bin/go"
		}
	}
	return "go"
}
