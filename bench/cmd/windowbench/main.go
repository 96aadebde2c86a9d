// Command windowbench measures the real Hoist window from outside, under a
// virtual display (Xvfb), beside the smallest Fyne program (one window, one
// label: ./smallest) under the same display, the floor of any Fyne window's
// cost there: it prepares an upload list of 10,000 jobs (queued,
// or all finished), starts the window on it and reports the time until the
// window is shown, its peak resident memory (/proc/PID/status VmHWM) and its
// CPU while idle (/proc/PID/stat over a span), and whose the memory is:
// Hoist's Go heap, other anonymous memory (the C side, the GL driver's
// allocations among it) and the GL driver's shared libraries
// (/proc/PID/smaps, mapping by mapping). Nothing here touches the
// user's own folders: HOME and the XDG folders point into a temporary one.
//
//	cd bench && go run ./cmd/windowbench [-hoist PATH] [-jobs 10000] [-idle 10s] [-runs 3] [-cases fyne,empty,finished,queued]
//
// The cases take turns run by run; at the end a table gives each one's range
// over its runs.
//
// Needs Xvfb and xwininfo (packages xvfb, x11-utils).
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"hoist/dirs"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/journal"
	"hoist/internal/syncbuf"
)

func main() {
	hoist := flag.String("hoist", "", "the hoist binary to measure (default: built from ..)")
	jobs := flag.Int("jobs", 10_000, "jobs in the upload list")
	idle := flag.Duration("idle", 10*time.Second, "span over which idle CPU is measured")
	settle := flag.Duration("settle", 5*time.Second, "wait after the window shows before idle CPU is measured")
	screen := flag.String("screen", "1366x768x24", "the virtual screen")
	logs := flag.String("log", "", "a folder to keep each window's log in")
	cases := flag.String("cases", "fyne,empty,finished,fyne-sized", "which windows to measure: fyne (the smallest Fyne program), empty, queued, finished, fyne-sized (the smallest Fyne program as large as the empty window)")
	flag.IntVar(&runs, "runs", 1, "windows opened on each list, one after the other")
	flag.BoolVar(&keep, "keep", false, "keep the work folder (the lists, the files) and say where it is")
	flag.Parse()
	logDir, only = *logs, *cases
	if err := run(*hoist, *jobs, *idle, *settle, *screen); err != nil {
		fmt.Fprintln(os.Stderr, "windowbench:", err)
		os.Exit(1)
	}
}

var (
	logDir string // keeps the windows' logs when set
	only   string // the cases measured, separated by commas
	runs   int    // measures of each case
	keep   bool   // the work folder is kept
)

func run(hoist string, jobs int, idle, settle time.Duration, screen string) error {
	work, err := os.MkdirTemp("", "hoist-windowbench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("work folder:", work)
	} else {
		defer os.RemoveAll(work)
	}
	if hoist == "" {
		hoist = filepath.Join(work, "hoist")
		if err := build(hoist, "..", "."); err != nil {
			return err
		}
	}
	smallest := filepath.Join(work, "smallest")
	if err := build(smallest, ".", "./cmd/windowbench/smallest"); err != nil {
		return err
	}
	files := filepath.Join(work, "files")
	paths, err := makeFiles(files, jobs)
	if err != nil {
		return err
	}
	display, stopX, err := startX(work, screen)
	if err != nil {
		return err
	}
	defer stopX()

	fmt.Printf("window with 0 or %d jobs, screen %s, load average %s\n", jobs, screen, loadAverage())
	var measured []*windowCase
	for _, c := range windowCases(hoist, smallest) {
		if slices.Contains(strings.Split(only, ","), c.name) {
			measured = append(measured, c)
		}
	}
	// The cases take turns, one window of each after the other, so that
	// other work on the machine falls on each of them alike.
	for run := range max(runs, 1) {
		for _, c := range measured {
			// A window on queued jobs sends them: each run starts from a list of its own.
			if c.home == "" || !c.finished {
				c.home = filepath.Join(work, fmt.Sprintf("%s-%d", c.name, run))
				var listed []string
				if c.jobs {
					listed = paths
				}
				if err := prepare(c.home, listed, c.finished); err != nil {
					return fmt.Errorf("%s: %w", c.name, err)
				}
			}
			var args []string
			if c.sizeOf != "" {
				of := byName(measured, c.sizeOf)
				if of == nil || len(of.measures) == 0 {
					return fmt.Errorf("%s: measure %s first, whose size it takes", c.name, c.sizeOf)
				}
				args = []string{of.measures[len(of.measures)-1].size}
			}
			m, err := measure(c.binary, args, c.home, display, idle, settle, c.name)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			m.load = loadAverage()
			c.measures = append(c.measures, m)
			fmt.Printf("%-9s %s shown after %4d ms  peak RSS %6.1f MiB  RSS now %6.1f MiB (anonymous %6.1f, files %6.1f)  CPU %5.2f %% of a core (over %s)  load %s\n",
				c.name, m.size, m.shown.Milliseconds(), float64(m.peakKiB)/1024, float64(m.rssKiB)/1024,
				float64(m.anonKiB)/1024, float64(m.fileKiB)/1024, m.idleCPU, idle, m.load)
			fmt.Printf("%-9s   CPU until shown: %d ms\n", "", m.startCPU.Milliseconds())
			fmt.Printf("%-9s   Go heap at its largest (at a collection's start): %d MB\n", "", m.goHeapMB)
			fmt.Printf("%-9s   at the largest sample (%6.1f MiB): %s\n", "", mib(m.atPeak.total()), m.atPeak)
			fmt.Printf("%-9s   now                     (%6.1f MiB): %s\n", "", mib(m.now.total()), m.now)
		}
	}
	fmt.Printf("load average after: %s\n\n", loadAverage())
	summary(os.Stdout, measured)
	return nil
}

// windowCase is one kind of window measured: which program, on which list.
type windowCase struct {
	name     string
	binary   string
	sizeOf   string // the case whose window's size this one opens at; "": its own
	jobs     bool   // the list holds the jobs, else it is empty
	finished bool   // the jobs are all uploaded already
	home     string
	measures []measures
}

func windowCases(hoist, smallest string) []*windowCase {
	return []*windowCase{
		{name: "fyne", binary: smallest, finished: true},
		{name: "empty", binary: hoist, finished: true},
		{name: "queued", binary: hoist, jobs: true},
		{name: "finished", binary: hoist, jobs: true, finished: true},
		// The smallest program at the size of Hoist's window: much of the
		// renderer's memory grows with the window's area.
		{name: "fyne-sized", binary: smallest, finished: true, sizeOf: "empty"},
	}
}

func byName(cases []*windowCase, name string) *windowCase {
	for _, c := range cases {
		if c.name == name {
			return c
		}
	}
	return nil
}

// build compiles the package pkg of the module in dir into out.
func build(out, dir, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %w\n%s", pkg, err, b)
	}
	return nil
}

// summary prints each case's figures as ranges over its runs (min–max), and
// the peaks against the smallest Fyne program's and the empty window's.
func summary(w io.Writer, cases []*windowCase) {
	fmt.Fprintln(w, "| Window | Runs | Shown after | CPU until shown | Peak RSS | Go heap arenas at the peak | Other anonymous | GL driver's libraries | Binary | Other files | CPU, idle |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range cases {
		col := func(f func(m measures) float64, format string) string {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, m := range c.measures {
				lo, hi = min(lo, f(m)), max(hi, f(m))
			}
			if fmt.Sprintf(format, lo) == fmt.Sprintf(format, hi) {
				return fmt.Sprintf(format, lo)
			}
			return fmt.Sprintf(format+"–"+format, lo, hi)
		}
		peak := func(m measures) float64 { return float64(m.peakKiB) / 1024 }
		fmt.Fprintf(w, "| %s | %d | %s ms | %s ms | %s MiB | %s | %s | %s | %s | %s | %s %% |\n", c.name, len(c.measures),
			col(func(m measures) float64 { return float64(m.shown.Milliseconds()) }, "%.0f"),
			col(func(m measures) float64 { return float64(m.startCPU.Milliseconds()) }, "%.0f"),
			col(peak, "%.1f"),
			col(func(m measures) float64 { return mib(m.atPeak.goHeap) }, "%.1f"),
			col(func(m measures) float64 { return mib(m.atPeak.otherAnon) }, "%.1f"),
			col(func(m measures) float64 { return mib(m.atPeak.glLibs) }, "%.1f"),
			col(func(m measures) float64 { return mib(m.atPeak.binary) }, "%.1f"),
			col(func(m measures) float64 { return mib(m.atPeak.otherLib) }, "%.1f"),
			col(func(m measures) float64 { return m.idleCPU }, "%.2f"))
	}
	// Each run's peak against the other case's in the same run, which
	// went just before or after it.
	above := func(name, base string) {
		a, b := byName(cases, name), byName(cases, base)
		if a == nil || b == nil {
			return
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := range min(len(a.measures), len(b.measures)) {
			d := float64(a.measures[i].peakKiB-b.measures[i].peakKiB) / 1024
			lo, hi = min(lo, d), max(hi, d)
		}
		fmt.Fprintf(w, "peak RSS, %s above %s in the same run: %+.1f to %+.1f MiB\n", name, base, lo, hi)
	}
	above("empty", "fyne")
	above("empty", "fyne-sized")
	above("finished", "empty")
	above("queued", "empty")
}

// makeFiles writes n small files, each its own.
func makeFiles(dir string, n int) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	data := make([]byte, 1024)
	paths := make([]string, n)
	for i := range paths {
		data[0], data[1] = byte(i), byte(i>>8)
		paths[i] = filepath.Join(dir, fmt.Sprintf("photo %05d.bin", i))
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// env is the environment of a Hoist whose folders are all under home. No
// window measured has a session bus: without an address the toolkit's D-Bus
// library starts a dbus-daemon that nobody stops (Hoist says there is none
// itself; the smallest Fyne program does not), "disabled:" answers at once.
func env(home, display string) []string {
	return append(os.Environ(), "HOME="+home, "DISPLAY="+display, "DBUS_SESSION_BUS_ADDRESS=disabled:",
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"), "XDG_CONFIG_DIRS="+filepath.Join(home, "system"),
		"HOIST_SANDBOX_ADDR=127.0.0.1:0", "LANG=C.UTF-8")
}

// prepare writes the upload list of a Hoist whose folders are under home:
// the files queued for the built-in sandbox, or all uploaded to it.
func prepare(home string, paths []string, finished bool) error {
	getenv := func(k string) string {
		for _, kv := range env(home, "") {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	f, err := dirs.Choose("linux", getenv, home)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.Journal, 0o700); err != nil {
		return err
	}
	j, err := journal.Open(filepath.Join(f.Journal, journal.FileName), journal.Options{})
	if err != nil {
		return err
	}
	defer j.Close()
	emu, err := emulator.New(emulator.Options{Store: emulator.NewHashStore()})
	if err != nil {
		return err
	}
	defer emu.Close()
	srv := httptest.NewServer(emu)
	defer srv.Close()
	q, err := engine.Open(context.Background(), engine.Options{Journal: j, SandboxURL: srv.URL, Idle: !finished})
	if err != nil {
		return err
	}
	defer q.Close(context.Background())
	to := dest.SandboxDestination()
	to.BuiltinSandbox = true
	res := q.Add(paths, to)
	if len(res.IDs) != len(paths) {
		return fmt.Errorf("%d of %d files queued: %v", len(res.IDs), len(paths), res.Problems)
	}
	for finished {
		s := q.Summary()
		if s.Done == len(paths) {
			break
		}
		if s.Failed > 0 {
			return fmt.Errorf("uploads failed: %+v", s)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

// startX starts Xvfb on a free display.
func startX(work, screen string) (string, func(), error) {
	for n := 140; n < 180; n++ {
		_, err1 := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n))
		_, err2 := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n))
		if err1 == nil || err2 == nil {
			continue // another one's display
		}
		display := fmt.Sprintf(":%d", n)
		// -noreset: the display stays up between one window and the next.
		x := exec.Command("Xvfb", display, "-screen", "0", screen, "-nolisten", "tcp", "-noreset")
		if err := x.Start(); err != nil {
			return "", nil, fmt.Errorf("starting Xvfb: %w", err)
		}
		ended := make(chan struct{})
		go func() { x.Wait(); close(ended) }()
		stop := func() {
			// Asked to end, Xvfb removes its socket and lock, leaving the display free.
			x.Process.Signal(syscall.SIGTERM)
			select {
			case <-ended:
			case <-time.After(5 * time.Second):
				x.Process.Kill()
				<-ended
			}
		}
		for range 50 {
			select {
			case <-ended: // the display was taken meanwhile: try the next
			default:
				if exec.Command("xwininfo", "-display", display, "-root").Run() == nil {
					return display, stop, nil
				}
				time.Sleep(100 * time.Millisecond)
				continue
			}
			break
		}
		stop()
	}
	return "", nil, errors.New("no display could be started")
}

type measures struct {
	shown            time.Duration
	peakKiB, rssKiB  int64
	anonKiB, fileKiB int64         // of rssKiB: the process's own memory, and mapped files (libraries)
	idleCPU          float64       // per cent of one core
	atPeak, now      split         // whose the resident memory is: at the largest sample, and at the end
	goHeapMB         int           // the Go heap at its largest, when a collection started (gctrace)
	startCPU         time.Duration // CPU time spent until the window was shown, less dependent on the load than the time
	load             string        // the load average after the measure
	size             string        // the window's, WIDTHxHEIGHT in pixels
}

var gcLine = regexp.MustCompile(`(\d+)->\d+->\d+ MB`)

// largestGoHeap is the largest heap the runtime reported at the start of a
// collection, in MB.
func largestGoHeap(log string) int {
	n := 0
	for _, m := range gcLine.FindAllStringSubmatch(log, -1) {
		v, _ := strconv.Atoi(m[1])
		n = max(n, v)
	}
	return n
}

// split divides a process's resident memory by whose it is, from
// /proc/PID/smaps, in KiB.
type split struct {
	goHeap    int64 // anonymous memory in the Go runtime's arenas: Hoist's own heap
	otherAnon int64 // the rest of the anonymous memory: C allocations (the GL driver's among them), stacks
	glLibs    int64 // the GL driver's shared libraries (Mesa, LLVM, libGL, libdrm)
	binary    int64 // the hoist executable's own pages
	otherLib  int64 // every other mapped file (libc, X libraries, fonts)
	// largest is the other mapped file with the most resident memory.
	largest     string
	largestSize int64
}

func (s split) total() int64 { return s.goHeap + s.otherAnon + s.glLibs + s.binary + s.otherLib }

func (s split) String() string {
	return fmt.Sprintf("Go heap %6.1f  other anonymous %6.1f  GL driver's libraries %6.1f  hoist binary %5.1f  other files %5.1f MiB (the largest %s, %.1f)",
		mib(s.goHeap), mib(s.otherAnon), mib(s.glLibs), mib(s.binary), mib(s.otherLib), filepath.Base(s.largest), mib(s.largestSize))
}

func mib(kib int64) float64 { return float64(kib) / 1024 }

// glLibrary tells the GL driver's libraries from the rest.
func glLibrary(path string) bool {
	base := filepath.Base(path)
	for _, p := range []string{"libLLVM", "libgallium", "_dri.so", "libGL", "libEGL", "libglapi", "libdrm", "libvulkan", "libxshmfence", "libelf", "libsensors", "libz3", "libedit"} {
		if strings.Contains(base, p) {
			return true
		}
	}
	return strings.Contains(path, "/dri/")
}

// goArena tells the Go runtime's heap from the C side's anonymous memory by
// its address: Go reserves its heap arenas at addresses it picks itself, from
// 0xc000000000 up to 0x7fc000000000 (randomized in newer versions), while the
// C library's allocations live in the program break ([heap]) or where the
// kernel places mappings, just under 0x7fffffffffff.
func goArena(start uint64) bool { return start >= 0x1000000000 && start < 0x7f0000000000 }

// memorySplit reads pid's mappings and sums their resident sizes by owner.
func memorySplit(pid int, binary string) (split, error) {
	var s split
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return s, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var path string
	var start uint64
	others := map[string]int64{}
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if !strings.HasSuffix(fields[0], ":") { // a mapping's header: range perms offset dev inode [path]
			from, _, _ := strings.Cut(fields[0], "-")
			start, _ = strconv.ParseUint(from, 16, 64)
			path = ""
			if len(fields) >= 6 {
				path = strings.Join(fields[5:], " ")
			}
			continue
		}
		if fields[0] != "Rss:" || len(fields) < 2 {
			continue
		}
		kib, _ := strconv.ParseInt(fields[1], 10, 64)
		switch {
		case path == "" && goArena(start):
			s.goHeap += kib
		case path == "" || strings.HasPrefix(path, "["):
			s.otherAnon += kib
		case glLibrary(path):
			s.glLibs += kib
		case filepath.Base(path) == filepath.Base(binary):
			s.binary += kib
		default:
			s.otherLib += kib
			others[path] += kib
		}
	}
	for p, kib := range others {
		if kib > s.largestSize {
			s.largest, s.largestSize = p, kib
		}
	}
	return s, sc.Err()
}

// measure starts the window and takes its figures, then quits it.
func measure(hoist string, args []string, home, display string, idle, settle time.Duration, name string) (measures, error) {
	var m measures
	var log syncbuf.Buffer
	cmd := exec.Command(hoist, args...)
	// The runtime's trace of each collection gives the Go heap's size.
	cmd.Env = append(env(home, display), "GODEBUG=gctrace=1")
	cmd.Stdout, cmd.Stderr = &log, &log
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return m, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		if logDir != "" {
			os.WriteFile(filepath.Join(logDir, name+".log"), log.Bytes(), 0o644)
		}
	}()
	pid := cmd.Process.Pid
	// The split at the largest resident size seen, sampled every 100 ms
	// until the idle span begins.
	var largest int64
	sample := func() {
		if s, err := memorySplit(pid, hoist); err == nil && s.total() > largest {
			largest, m.atPeak = s.total(), s
		}
	}
	lastSample := time.Now()
	for !windowShown(display) {
		if time.Since(t0) > time.Minute {
			return m, fmt.Errorf("no window after a minute; its log:\n%s", log.String())
		}
		if time.Since(lastSample) >= 100*time.Millisecond {
			sample()
			lastSample = time.Now()
		}
		time.Sleep(10 * time.Millisecond)
	}
	m.shown = time.Since(t0)
	m.size = windowSize(display)
	if ticks, err := cpuTicks(pid); err == nil {
		m.startCPU = time.Duration(ticks) * time.Second / ticksPerSecond
	}
	for end := time.Now().Add(settle); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		sample()
	}
	before, err := cpuTicks(pid)
	if err != nil {
		return m, err
	}
	t1 := time.Now()
	time.Sleep(idle)
	after, err := cpuTicks(pid)
	if err != nil {
		return m, err
	}
	m.idleCPU = 100 * float64(after-before) / ticksPerSecond / time.Since(t1).Seconds()
	m.peakKiB, m.rssKiB, m.anonKiB, m.fileKiB, err = memory(pid)
	if err != nil {
		return m, err
	}
	m.now, err = memorySplit(pid, hoist)
	m.goHeapMB = largestGoHeap(log.String())
	return m, err
}

// windowSize is the size of the window titled Hoist, WIDTHxHEIGHT.
func windowSize(display string) string {
	out, _ := exec.Command("xwininfo", "-display", display, "-name", "Hoist").Output()
	var w, h string
	for _, line := range strings.Split(string(out), "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		switch k {
		case "Width":
			w = strings.TrimSpace(v)
		case "Height":
			h = strings.TrimSpace(v)
		}
	}
	return w + "x" + h
}

// windowShown reports whether a window titled Hoist is mapped.
func windowShown(display string) bool {
	out, err := exec.Command("xwininfo", "-display", display, "-name", "Hoist").Output()
	return err == nil && bytes.Contains(out, []byte("IsViewable"))
}

const ticksPerSecond = 100 // USER_HZ on Linux

// cpuTicks is the user and system CPU time of pid, in clock ticks.
func cpuTicks(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name (which may hold spaces) in parentheses.
	rest := string(b[bytes.LastIndexByte(b, ')')+2:])
	f := strings.Fields(rest)
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	return utime + stime, errors.Join(err1, err2)
}

// memory is pid's peak and current resident size, and of the current its
// anonymous memory and mapped files, in KiB.
func memory(pid int) (peak, now, anon, file int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		k, v, _ := strings.Cut(s.Text(), ":")
		n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmHWM":
			peak = n
		case "VmRSS":
			now = n
		case "RssAnon":
			anon = n
		case "RssFile":
			file = n
		}
	}
	return peak, now, anon, file, s.Err()
}

func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
