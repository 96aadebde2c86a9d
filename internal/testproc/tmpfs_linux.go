package testproc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// tmpfsEnv names, in the process InTmpfs starts, the folder to mount and its size.
const tmpfsEnv = "HOIST_TEST_TMPFS"

// InTmpfs runs the calling test again in a process of its own, in a user
// and mount namespace of its own (no privileges needed where the system
// allows unprivileged user namespaces, as Debian does; root always may),
// where a memory file system of size bytes is mounted on a new folder: a
// disk that really fills. In that process InTmpfs returns the folder and
// true, and the test does its work there; in the test that called it first,
// it returns false once that process passed, and fails the test with the
// process's output if it did not. A system that cannot make the namespace
// fails the test: it never skips.
func InTmpfs(t *testing.T, size int64) (dir string, inside bool) {
	t.Helper()
	if v := os.Getenv(tmpfsEnv); v != "" {
		dir, want, _ := strings.Cut(v, "|")
		if want != strconv.FormatInt(size, 10) {
			t.Fatalf("%s=%q, want the size %d", tmpfsEnv, v, size)
		}
		// Nothing mounted here reaches the system's own mounts.
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			t.Fatalf("making the mounts private: %v", err)
		}
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
			t.Fatalf("mounting a file system of %d bytes on %s: %v", size, dir, err)
		}
		return dir, true
	}
	dir = t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), tmpfsEnv+"="+dir+"|"+strconv.FormatInt(size, 10))
	uid, gid := os.Getuid(), os.Getgid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
	}
	out, err := cmd.CombinedOutput()
	if err != nil && cmd.ProcessState == nil {
		t.Fatalf("starting the test in a namespace of its own (the system must allow user namespaces): %v", err)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()+" ") {
		t.Fatalf("in a file system of %d bytes: %v\n%s", size, err, out)
	}
	return dir, false
}

// FillDisk writes a file into dir until its disk has no room left (every
// last block of it, down to 512 bytes), and returns a function that frees
// the room again. Meant for the folder InTmpfs gives.
func FillDisk(t *testing.T, dir string) (free func()) {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, block := range []int{64 << 10, 4 << 10, 512} {
		buf := make([]byte, block)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatalf("filling the disk: %v", err)
				}
				break
			}
		}
	}
	return func() {
		t.Helper()
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
	}
}
