package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// hoistProcess is a real `hoist` process (this test binary in command-line mode).
type hoistProcess struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	done   chan struct{}
	status int
}

func startHoist(t *testing.T, home string, args ...string) *hoistProcess {
	t.Helper()
	p := &hoistProcess{done: make(chan struct{})}
	p.cmd = exec.Command(os.Args[0], args...)
	p.cmd.Env = append(os.Environ(),
		childEnv+"=1",
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
	)
	p.cmd.Stdout = &p.out
	p.cmd.Stderr = &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		p.status = p.cmd.ProcessState.ExitCode()
		close(p.done)
	}()
	return p
}

func (p *hoistProcess) wait(t *testing.T) int {
	t.Helper()
	return p.waitUpTo(t, 60*time.Second)
}

// waitUpTo is wait for a run that may take up to d.
func (p *hoistProcess) waitUpTo(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
		return p.status
	case <-time.After(d):
		p.kill() // its output is whole once it has ended
		t.Fatalf("hoist did not finish within %s; its output:\n%s", d, p.out.String())
		return -1
	}
}

// kill sends SIGKILL, as a crash or a pulled plug would.
func (p *hoistProcess) kill() (exited bool) {
	select {
	case <-p.done:
		return true
	default:
	}
	_ = p.cmd.Process.Signal(os.Kill)
	<-p.done
	return false
}

// chunkBytes sums the file bytes the server received, and reports any
// request it refused: a client that sends bytes out of order is refused.
func chunkBytes(t *testing.T, emu *emulator.Server) int64 {
	t.Helper()
	var n int64
	for _, r := range emu.Requests() {
		if r.Stage == emulator.StageChunk || r.Stage == emulator.StageUpload {
			n += r.BodyBytes
		}
		if r.Status == http.StatusBadRequest {
			t.Errorf("the server refused a request (%s %s): the client sent bytes it should not have", r.Stage, r.ContentRange)
		}
	}
	return n
}

// TestCrashAndResumeLosesNothing kills a real `hoist send` during start-up,
// mid-chunk (inside a chunk request the server holds, checked in its log)
// and just after the last byte, and restarts it with --resume until it finishes. The server must end
// with exactly one object, byte-identical, and every kill may cost at most the
// bytes the server had received but not yet persisted.
func TestCrashAndResumeLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real processes")
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))

	emu, base := serveEmulatorSmallBuffers(t, emulator.Options{Store: must(emulator.NewDiskStore(t.TempDir()))})

	home := t.TempDir()
	const size = 64<<20 + 12345
	file := filepath.Join(home, "archive.bin")
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	journalPath := filepath.Join(home, "journal.db")
	args := []string{"send", "--to", base + dest.SandboxPath, "--method", "resumable", "--chunk-size", "8MiB",
		"--no-auth", "--journal", journalPath, "--resume", file}

	// During start-up or the session start: wherever a few milliseconds land.
	kills := 0
	if p := startHoist(t, home, args...); !func() bool {
		time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
		return p.kill()
	}() {
		kills++
	}
	// Mid-chunk: the server holds the run's first or second chunk request,
	// body unread, while the process is killed.
	for i := range 4 {
		hold := make(chan struct{})
		var chunks atomic.Int64
		// At most the second: four runs then end far from the file's last
		// chunk, which could be smaller than the connection's buffers.
		nth := int64(1 + rng.IntN(2))
		held := emu.Inject(emulator.Fault{Name: "killed here", Match: emulator.Match{Stage: emulator.StageChunk,
			Func: func(*http.Request) bool { return chunks.Add(1) == nth }}, Action: emulator.Stall{Until: hold}})
		p := startHoist(t, home, args...)
		deadline := time.Now().Add(60 * time.Second)
		for held.Count() == 0 {
			select {
			case <-p.done:
				t.Fatalf("hoist ended before its chunk %d was held; output:\n%s", nth, p.out.String())
			case <-time.After(2 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				p.kill()
				t.Fatalf("chunk %d was never sent; output:\n%s", nth, p.out.String())
			}
		}
		if p.kill() {
			t.Fatalf("hoist ended while its chunk was held; output:\n%s", p.out.String())
		}
		kills++
		close(hold)
		held.Remove()
		// Where the kill landed, as the server saw it: inside a chunk request
		// that the process never got an answer to.
		var landed *emulator.Request
		for landed == nil && time.Now().Before(deadline) {
			n := 0
			for _, r := range emu.Requests() {
				if r.Fault == "killed here" {
					if n++; n == i+1 {
						landed = &r
					}
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
		if landed == nil || landed.Stage != emulator.StageChunk {
			t.Fatalf("the kill did not land in a chunk request: %+v", landed)
		}
		// An 8 MiB chunk is more than the connection's buffers hold while
		// nothing reads it (the server's receive buffer is kept small), so
		// the process died still sending.
		var first, last, total int64
		if _, err := fmt.Sscanf(landed.ContentRange, "bytes %d-%d/%d", &first, &last, &total); err != nil {
			t.Fatalf("chunk request with Content-Range %q: %v", landed.ContentRange, err)
		}
		if landed.BodyBytes >= last-first+1 {
			t.Errorf("the kill landed after chunk %s was sent whole (%d bytes), not mid-chunk", landed.ContentRange, landed.BodyBytes)
		}
		t.Logf("killed in chunk %d of a run (%s), the server had %d bytes of it", nth, landed.ContentRange, landed.BodyBytes)
	}

	// Just after the last byte: the server keeps the whole file but its answer
	// is lost, and the status query that would tell is held while we kill.
	holdQuery := make(chan struct{})
	lastChunk := func(r *http.Request) bool {
		return strings.HasSuffix(r.Header.Get("Content-Range"), "-"+itoa(size-1)+"/"+itoa(size))
	}
	drop := emu.Inject(emulator.Fault{Name: "drop final answer", Match: emulator.Match{Stage: emulator.StageChunk, Func: lastChunk}, Action: emulator.DropAnswer{}})
	afterDrop := func(*http.Request) bool { return drop.Count() > 0 }
	held := emu.Inject(emulator.Fault{Name: "hold query", Match: emulator.Match{Stage: emulator.StageQuery, Func: afterDrop}, Action: emulator.Stall{Until: holdQuery}})
	p := startHoist(t, home, args...)
	deadline := time.Now().Add(60 * time.Second)
	for drop.Count() == 0 || held.Count() == 0 {
		if time.Now().After(deadline) {
			p.kill()
			t.Fatalf("the final chunk was never sent; output:\n%s", p.out.String())
		}
		select {
		case <-p.done:
			t.Fatalf("hoist ended before the final answer was lost; output:\n%s", p.out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	if !p.kill() {
		kills++
	}
	close(holdQuery)
	drop.Remove()
	held.Remove()

	before := len(emu.Objects())
	if before != 1 {
		t.Fatalf("the server holds %d objects after the last byte, want 1", before)
	}
	sentBefore := chunkBytes(t, emu)

	p = startHoist(t, home, args...)
	if code := p.wait(t); code != 0 {
		t.Fatalf("hoist send --resume exited %d:\n%s", code, p.out.String())
	}
	if sent := chunkBytes(t, emu); sent != sentBefore {
		t.Errorf("the finished upload sent %d more bytes; it should only have asked", sent-sentBefore)
	}
	objs := emu.Objects()
	if len(objs) != 1 {
		t.Fatalf("the server holds %d objects, want exactly 1", len(objs))
	}
	if objs[0].SHA256 != hex.EncodeToString(sum[:]) || objs[0].Size != size {
		t.Fatalf("the object is not the file: %d bytes, %s", objs[0].Size, objs[0].SHA256)
	}
	// A kill mid-chunk costs what the server had received but not persisted:
	// it persists in 256 KiB units, so at most that much per kill.
	if extra := chunkBytes(t, emu) - size; extra > int64(kills)*upload.ChunkAlign {
		t.Errorf("%d bytes were sent twice over %d kills; at most %d could be", extra, kills, kills*upload.ChunkAlign)
	}
	t.Logf("%d kills, %d bytes sent twice", kills, chunkBytes(t, emu)-size)
}

// TestSecondProcessDoesNotRunTheSameJobs: while one `hoist send` holds the
// upload list, a second one says Hoist is already running and uploads nothing.
func TestSecondProcessDoesNotRunTheSameJobs(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	release := make(chan struct{})
	emu.Inject(emulator.Fault{Action: emulator.Stall{Until: release}})

	home := t.TempDir()
	file := filepath.Join(home, "a.bin")
	os.WriteFile(file, bytes.Repeat([]byte("x"), 1000), 0o644)
	journalPath := filepath.Join(home, "journal.db")
	args := []string{"send", "--to", base + dest.SandboxPath, "--no-auth", "--journal", journalPath, file}

	first := startHoist(t, home, args...)
	deadline := time.Now().Add(30 * time.Second)
	for len(emu.Requests()) == 0 && time.Now().Before(deadline) {
		if st, err := os.Stat(journalPath); err == nil && st.Size() > 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	second := startHoist(t, home, append(args[:len(args)-1:len(args)-1], "--resume")...)
	code := second.wait(t)
	close(release)
	if code != exitFailed || !strings.Contains(second.out.String(), "already running") {
		t.Errorf("second process: exit %d, output %q; want 1 and \"already running\"", code, second.out.String())
	}
	if c := first.wait(t); c != 0 {
		t.Fatalf("first process exited %d:\n%s", c, first.out.String())
	}
	if n := len(emu.Objects()); n != 1 {
		t.Errorf("%d objects, want 1", n)
	}
}

// serveEmulator runs an emulator on a loopback port for the test's life:
// a server outside the hoist processes, so it outlives their kills.
func serveEmulator(t *testing.T, opts emulator.Options) (*emulator.Server, string) {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	base, stop, err := emu.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(); emu.Close() })
	return emu, base
}

// serveEmulatorSmallBuffers is serveEmulator whose connections keep a
// small receive buffer: the system would otherwise grow it, on a connection
// that has carried a chunk at full speed, until a whole 8 MiB chunk fits in
// it and the connection's other buffers while the server reads nothing.
func serveEmulatorSmallBuffers(t *testing.T, opts emulator.Options) (*emulator.Server, string) {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: emu, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(smallBuffers{ln})
	t.Cleanup(func() { srv.Close(); emu.Close() })
	return emu, "http://" + ln.Addr().String()
}

// smallBuffers gives each accepted connection a fixed 256 KiB receive
// buffer, which also stops the system from growing it.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		if err := tc.SetReadBuffer(256 << 10); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, err
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestChangedFileStopsHeadlessAndRestartsOnRequest: a file that changed while
// Hoist was stopped is not mixed with the bytes already sent; the command line
// says so and how to send it again, and `hoist queue restart` does.
func TestChangedFileStopsHeadlessAndRestartsOnRequest(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	release := make(chan struct{})
	stall := emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 2, Action: emulator.Stall{Until: release}})

	home := t.TempDir()
	file := filepath.Join(home, "budget.xlsx")
	os.WriteFile(file, bytes.Repeat([]byte("old "), 400_000), 0o644)
	journalPath := filepath.Join(home, "journal.db")
	send := []string{"send", "--to", base + dest.SandboxPath, "--method", "resumable", "--chunk-size", "256KiB",
		"--no-auth", "--journal", journalPath, "--resume", file}

	p := startHoist(t, home, send...)
	deadline := time.Now().Add(30 * time.Second)
	for stall.Count() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the upload never reached the third chunk:\n%s", p.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.kill()
	close(release)

	newer := bytes.Repeat([]byte("new "), 300_000)
	if err := os.WriteFile(file, newer, 0o644); err != nil {
		t.Fatal(err)
	}
	p = startHoist(t, home, send...)
	if code := p.wait(t); code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s", code, p.out.String())
	}
	for _, want := range []string{"budget.xlsx changed since it was added", "hoist queue restart"} {
		if !strings.Contains(p.out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, p.out.String())
		}
	}
	if n := len(emu.Objects()); n != 0 {
		t.Fatalf("%d objects stored from a file that changed mid-upload", n)
	}

	p = startHoist(t, home, "queue", "restart", "--journal", journalPath, file)
	if code := p.wait(t); code != 0 {
		t.Fatalf("queue restart exited %d:\n%s", code, p.out.String())
	}
	p = startHoist(t, home, send...)
	if code := p.wait(t); code != 0 {
		t.Fatalf("send after restart exited %d:\n%s", code, p.out.String())
	}
	objs := emu.Objects()
	sum := sha256.Sum256(newer)
	if len(objs) != 1 || objs[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("objects %+v, want one holding the file as it is now", objs)
	}
}

// TestQueueBesideARunningSend: while a `hoist send` holds the upload list,
// `hoist queue` lists it as it stands, and a change to it is refused.
func TestQueueBesideARunningSend(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	release := make(chan struct{})
	var arrived atomic.Bool
	emu.Inject(emulator.Fault{Match: emulator.Match{Func: func(*http.Request) bool { arrived.Store(true); return true }},
		Action: emulator.Stall{Until: release}})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	home := t.TempDir()
	file := filepath.Join(home, "beside.bin")
	os.WriteFile(file, bytes.Repeat([]byte("x"), 1000), 0o644)
	journalPath := filepath.Join(home, "journal.db")
	sender := startHoist(t, home, "send", "--to", base+dest.SandboxPath, "--no-auth", "--journal", journalPath, file)
	deadline := time.Now().Add(30 * time.Second)
	for !arrived.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("the upload never reached the server:\n%s", sender.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}

	list := startHoist(t, home, "queue", "--journal", journalPath)
	if code := list.wait(t); code != 0 || !strings.Contains(list.out.String(), "beside.bin") {
		t.Errorf("hoist queue beside hoist send: exit %d, want 0 and the file listed:\n%s", code, list.out.String())
	}
	asJSON := startHoist(t, home, "queue", "--json", "--journal", journalPath)
	if code := asJSON.wait(t); code != 0 || !strings.Contains(asJSON.out.String(), `"file":"`+file+`"`) {
		t.Errorf("hoist queue --json beside hoist send: exit %d:\n%s", code, asJSON.out.String())
	}
	change := startHoist(t, home, "queue", "pause", "beside.bin", "--journal", journalPath)
	if code := change.wait(t); code != exitFailed || !strings.Contains(change.out.String(), "already running") {
		t.Errorf("hoist queue pause beside hoist send: exit %d, want 1 and \"already running\":\n%s", code, change.out.String())
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".view-") {
			t.Errorf("a copy of the list was left: %s", e.Name())
		}
	}
	close(release)
	if code := sender.wait(t); code != 0 {
		t.Fatalf("hoist send exited %d:\n%s", code, sender.out.String())
	}
}
