package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The power-cut test runs the journal in a child process traced with ptrace
// (no privileges needed: a process may trace its own child) and keeps, as a
// disk would, only what was synced: a file's bytes as they were when it was
// last fsync'd or fdatasync'd, and the folder's names as they were when the
// folder was last fsync'd. The child's power is cut at chosen moments; the
// journal is then opened from those kept bytes alone, and everything it had
// said was saved must be there.

// syscallInfo is the kernel's struct ptrace_syscall_info, as far as a
// syscall's entry fills it.
type syscallInfo struct {
	Op   uint8
	_    [3]uint8
	Arch uint32
	IP   uint64
	SP   uint64
	Nr   uint64
	Args [6]uint64
}

func getSyscallInfo(tid int) (syscallInfo, error) {
	var info syscallInfo
	_, _, errno := unix.Syscall6(unix.SYS_PTRACE, unix.PTRACE_GET_SYSCALL_INFO, uintptr(tid),
		unsafe.Sizeof(info), uintptr(unsafe.Pointer(&info)), 0, 0)
	if errno != 0 {
		return info, errno
	}
	return info, nil
}

// disk is what a disk holds of one folder after a power cut, and the
// record of what the child did to the folder's files, in order.
type disk struct {
	dir     string            // the folder, symbolic links resolved
	names   map[string]uint64 // the folder's names at its last sync
	content map[uint64][]byte // each file's bytes at its last sync, by inode
	events  []string          // "sync NAME", "sync folder", "rename OLD NEW", "write NAME"
	seen    int               // the syncs so far
	cutAt   int               // the power goes before this sync (1-based); 0: never
	cut     bool
}

// powerRun is one run of the child: the disk it leaves and what the child
// said it had saved before the power went.
type powerRun struct {
	disk *disk
	said []string
}

func runPowerCut(t *testing.T, cutAt int) powerRun {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := &disk{dir: dir, names: map[string]uint64{}, content: map[uint64][]byte{}, cutAt: cutAt}

	// ptrace requests must come from the thread that started the child.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	pid, err := syscall.ForkExec(os.Args[0], []string{os.Args[0], "-test.run=^$"}, &syscall.ProcAttr{
		Env:   append(os.Environ(), helperEnv+"=powercut", dirEnv+"="+dir),
		Files: []uintptr{null.Fd(), w.Fd(), os.Stderr.Fd()},
		Sys:   &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL},
	})
	w.Close()
	if err != nil {
		t.Fatalf("starting the traced child (ptrace must be allowed): %v", err)
	}
	saidc := make(chan []string, 1)
	go func() {
		var said []string
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			said = append(said, sc.Text())
		}
		saidc <- said
	}()
	if err := d.trace(pid); err != nil {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("tracing the child: %v", err)
	}
	said := <-saidc
	for _, s := range said {
		if strings.HasPrefix(s, "error") {
			t.Fatalf("the child failed: %s", s)
		}
	}
	if cutAt == 0 && (len(said) == 0 || said[len(said)-1] != "closed") {
		t.Fatalf("the child did not finish: %q", said)
	}
	return powerRun{disk: d, said: said}
}

// trace runs the child to its end (or its power cut), recording what it
// does to the folder's files.
func (d *disk) trace(pid int) error {
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, syscall.WALL, nil); err != nil {
		return err
	}
	if !ws.Stopped() {
		return fmt.Errorf("the child did not stop at its start: %v", ws)
	}
	opts := syscall.PTRACE_O_TRACESYSGOOD | syscall.PTRACE_O_TRACECLONE | unix.PTRACE_O_EXITKILL
	if err := syscall.PtraceSetOptions(pid, opts); err != nil {
		return fmt.Errorf("setting ptrace options: %w", err)
	}
	if err := syscall.PtraceSyscall(pid, 0); err != nil {
		return err
	}
	started := map[int]bool{pid: true}
	for {
		tid, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return err
		}
		if ws.Exited() || ws.Signaled() {
			if tid == pid {
				return nil
			}
			continue
		}
		if !ws.Stopped() {
			continue
		}
		sig, deliver := ws.StopSignal(), 0
		switch {
		case sig == syscall.SIGTRAP|0x80:
			if !d.cut {
				if err := d.syscallStop(tid); err != nil {
					return err
				}
				if d.cut {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}
		case sig == syscall.SIGTRAP:
			// a clone or exec event
		case sig == syscall.SIGSTOP && !started[tid]:
			// a new thread's first stop
		default:
			deliver = int(sig) // the child's own signal (the Go runtime's SIGURG)
		}
		started[tid] = true
		_ = syscall.PtraceSyscall(tid, deliver) // ESRCH: the thread has gone
	}
}

// syscallStop looks at a syscall the child is about to make.
func (d *disk) syscallStop(tid int) error {
	info, err := getSyscallInfo(tid)
	if err != nil {
		return fmt.Errorf("PTRACE_GET_SYSCALL_INFO: %w", err)
	}
	if info.Op != unix.PTRACE_SYSCALL_INFO_ENTRY {
		return nil
	}
	switch info.Nr {
	case unix.SYS_FSYNC, unix.SYS_FDATASYNC:
		fd := fmt.Sprintf("/proc/%d/fd/%d", tid, info.Args[0])
		name, isDir, ok := d.resolve(fd)
		if !ok || d.power() {
			return nil
		}
		if isDir {
			d.event("sync folder")
			return d.syncFolder()
		}
		d.event("sync " + name)
		info, err := os.Stat(fd)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(fd)
		if err != nil {
			return err
		}
		d.content[info.Sys().(*syscall.Stat_t).Ino] = b
	case unix.SYS_RENAMEAT, unix.SYS_RENAMEAT2:
		from, err := readString(tid, uintptr(info.Args[1]))
		if err != nil {
			return err
		}
		to, err := readString(tid, uintptr(info.Args[3]))
		if err != nil {
			return err
		}
		if filepath.Dir(from) != d.dir && filepath.Dir(to) != d.dir {
			return nil
		}
		d.event("rename " + filepath.Base(from) + " " + filepath.Base(to))
	case unix.SYS_WRITE, unix.SYS_PWRITE64, unix.SYS_PWRITEV, unix.SYS_PWRITEV2, unix.SYS_FTRUNCATE:
		name, isDir, ok := d.resolve(fmt.Sprintf("/proc/%d/fd/%d", tid, info.Args[0]))
		if !ok || isDir {
			return nil
		}
		d.event("write " + name)
	}
	return nil
}

// resolve names the file behind a descriptor: ok when it is the folder
// (isDir) or a file in it.
func (d *disk) resolve(fd string) (name string, isDir, ok bool) {
	link, err := os.Readlink(fd)
	switch {
	case err != nil:
		return "", false, false
	case link == d.dir:
		return "", true, true
	case filepath.Dir(link) == d.dir:
		return filepath.Base(link), false, true
	}
	return "", false, false
}

// power counts a sync and says whether the power went before it. (Only a
// sync changes what a disk keeps, so a cut anywhere else finds the disk as
// a cut before the next sync does.)
func (d *disk) power() bool {
	d.seen++
	d.cut = d.seen == d.cutAt
	return d.cut
}

// event records what happened, once for a run of writes to one file.
func (d *disk) event(e string) {
	if n := len(d.events); n > 0 && strings.HasPrefix(e, "write ") && d.events[n-1] == e {
		return
	}
	d.events = append(d.events, e)
}

func (d *disk) syncFolder() error {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return err
	}
	d.names = map[string]uint64{}
	for _, e := range entries {
		info, err := os.Lstat(filepath.Join(d.dir, e.Name()))
		if err != nil {
			continue // removed meanwhile
		}
		d.names[e.Name()] = info.Sys().(*syscall.Stat_t).Ino
	}
	return nil
}

// readString reads a C string from the child's memory.
func readString(tid int, addr uintptr) (string, error) {
	mem, err := os.Open(fmt.Sprintf("/proc/%d/mem", tid))
	if err != nil {
		return "", err
	}
	defer mem.Close()
	var out []byte
	buf := make([]byte, 256)
	for len(out) < 4096 {
		n, err := mem.ReadAt(buf, int64(addr)+int64(len(out)))
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			return string(append(out, buf[:i]...)), nil
		}
		out = append(out, buf[:n]...)
		if err != nil {
			return "", err
		}
	}
	return "", errors.New("no end to the string")
}

// restore writes what the disk kept into a new folder, as the folder would
// be found after the power came back.
func (d *disk) restore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, ino := range d.names {
		if err := os.WriteFile(filepath.Join(dir, name), d.content[ino], fileMode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestPowerCutKeepsWhatWasSaid cuts the power before every sync the journal
// makes, and after its end, and opens what the disk kept: the journal must
// be whole (nothing called damaged) and hold every change it had returned
// from. Then it checks the order of syncs where the journal makes them.
func TestPowerCutKeepsWhatWasSaid(t *testing.T) {
	full := runPowerCut(t, 0)
	t.Logf("%d syncs", full.disk.seen)
	checkPowerCut(t, full)
	checkSyncOrder(t, full.disk.events)
	for cut := 1; cut <= full.disk.seen; cut++ {
		run := runPowerCut(t, cut)
		checkPowerCut(t, run)
	}
}

// checkPowerCut opens what a run's disk kept and compares it with what the
// child said it had saved.
func checkPowerCut(t *testing.T, run powerRun) {
	t.Helper()
	last := run.disk.events[max(0, len(run.disk.events)-6):]
	where := fmt.Sprintf("power cut before sync %d (…%s) after %q", run.disk.cutAt, strings.Join(last, ", "), run.said)
	if run.disk.cutAt == 0 {
		where = fmt.Sprintf("power cut after the end (…%s)", strings.Join(last, ", "))
	}
	dir := run.disk.restore(t)
	j, err := Open(filepath.Join(dir, FileName), Options{})
	if err != nil {
		t.Fatalf("%s: Open: %v", where, err)
	}
	defer j.Close()
	if _, reason := j.Recovered(); reason != nil {
		t.Errorf("%s: the journal was called damaged: %v", where, reason)
	}
	recs, err := j.List()
	if err != nil {
		t.Fatalf("%s: List: %v", where, err)
	}
	have := map[string]bool{}
	for _, r := range recs {
		have[r.ID] = true
	}
	deleting, deleted := map[string]bool{}, map[string]bool{}
	for _, s := range run.said {
		if id, ok := strings.CutPrefix(s, "deleting "); ok {
			deleting[id] = true
		}
		if id, ok := strings.CutPrefix(s, "deleted "); ok {
			deleted[id] = true
		}
	}
	for _, s := range run.said {
		if id, ok := strings.CutPrefix(s, "put "); ok && !deleting[id] && !have[id] {
			t.Errorf("%s: %s was saved, and is lost", where, id)
		}
	}
	for id := range deleted {
		if have[id] {
			t.Errorf("%s: %s was removed, and is back", where, id)
		}
	}
}

// checkSyncOrder checks the order of a run's syncs where the journal makes
// them: each compaction syncs its copy after the copy's last write and before the
// rename that puts it in place, then the folder, before anything is written
// to the file it renamed.
func checkSyncOrder(t *testing.T, events []string) {
	t.Helper()
	const copyName = FileName + compactSuffix
	lastIndex := func(events []string, e string) int {
		for k := len(events) - 1; k >= 0; k-- {
			if events[k] == e {
				return k
			}
		}
		return -1
	}
	index := func(from int, e string) int {
		if i := slices.Index(events[from:], e); i >= 0 {
			return from + i
		}
		return -1
	}
	renames := 0
	for i, e := range events {
		if e != "rename "+copyName+" "+FileName {
			continue
		}
		renames++
		lastWrite, lastSync := lastIndex(events[:i], "write "+copyName), lastIndex(events[:i], "sync "+copyName)
		if lastWrite < 0 || lastSync < lastWrite {
			t.Errorf("compaction %d: the copy is not synced after its last write and before its rename: …%v", renames, events[max(0, i-8):i+1])
		}
		folder, write := index(i, "sync folder"), index(i, "write "+FileName)
		if folder < 0 || (write >= 0 && write < folder) {
			t.Errorf("compaction %d: the folder is not synced after the rename and before the next write: %v…", renames, events[i:min(len(events), i+8)])
		}
	}
	if renames < 2 {
		t.Errorf("%d compactions renamed their copy into place, want one at each removal and at Compact: %v", renames, events)
	}
}
