package engine_test

import (
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/journal"
	"hoist/engine/upload"
)

// builtinSandbox is a sandbox on real loopback keeping its files in dir, as
// the window's and the command line's do; each start gets a port of its own.
type builtinSandbox struct {
	srv  *emulator.Server
	url  string
	stop func() error
}

func startBuiltinSandbox(t *testing.T, dir string) *builtinSandbox {
	t.Helper()
	st, err := emulator.NewDiskStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := emulator.New(emulator.Options{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	u, stop, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	s := &builtinSandbox{srv: srv, url: u, stop: stop}
	t.Cleanup(s.close)
	return s
}

func (s *builtinSandbox) close() {
	if s.srv == nil {
		return
	}
	_ = s.stop()
	_ = s.srv.Close()
	s.srv = nil
}

// A job for the built-in sandbox keeps going after Hoist starts again with the
// sandbox on another port: it resumes its session there from where the
// sandbox stands, and its result's link names the sandbox's address of the day.
func TestSandboxOnAnotherPortAfterARestart(t *testing.T) {
	for _, earlier := range []bool{false, true} {
		name := "recorded by this Hoist"
		if earlier {
			name = "recorded by an earlier Hoist, with only the address"
		}
		t.Run(name, func(t *testing.T) {
			const chunk = upload.ChunkAlign
			dir := t.TempDir()
			store := filepath.Join(dir, "sandbox")
			r := &rig{t: t, dir: dir, journal: filepath.Join(dir, "journal.db"),
				opts: engine.Options{ChunkSize: chunk, Method: upload.Resumable, Backoff: noWait{}}}

			first := startBuiltinSandbox(t, store)
			r.emu, r.url, r.opts.SandboxURL = first.srv, first.url, first.url
			r.open()
			p, sum := r.file("film.bin", 12*chunk)
			release, fault := stallChunk(r, 4)
			defer release()
			id := r.add(p)[0]
			r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
			r.close() // quit
			release()
			r.settled()
			// The quit may cut the stalled chunk before all of it was handed
			// over; the sandbox keeps it only when it arrived whole.
			kept := int64(4 * chunk)
			for _, q := range first.srv.Requests() {
				if q.Fault != "" && q.BodyBytes == chunk {
					kept += chunk
				}
			}
			first.close()

			if earlier {
				forgetBuiltinMark(t, r.journal, id, first.url)
			}

			// The next start finds the port taken and listens on another one.
			second := startBuiltinSandbox(t, store)
			if second.url == first.url {
				t.Fatalf("both sandboxes listen at %s", first.url)
			}
			r.emu, r.url, r.opts.SandboxURL = second.srv, second.url, second.url
			r.open()
			v, ok := r.q.Job(id)
			if !ok || v.State != engine.Paused || v.Committed != 4*chunk {
				t.Fatalf("after the restart: %+v; want paused with %d bytes confirmed", v, 4*chunk)
			}
			if err := r.q.Do(id, engine.Resume); err != nil {
				t.Fatal(err)
			}
			v = r.state(id, engine.Done)

			reqs := r.emu.Requests()
			if len(reqs) == 0 || reqs[0].Stage != emulator.StageQuery {
				t.Fatalf("resuming began with %+v, want a status query to the sandbox", reqs)
			}
			for _, q := range reqs {
				if q.Stage == emulator.StageStart {
					t.Errorf("resuming started a new session instead of going on with the kept one")
				}
			}
			// Only what the sandbox did not have went to it again.
			if sent, want := r.bodyBytes(), 12*chunk-kept; sent != want {
				t.Errorf("%d bytes went to the second sandbox, want the %d it did not have", sent, want)
			}
			objs := r.objects()
			if got := objs["film.bin"].SHA256; got != sum {
				t.Fatalf("the sandbox holds %q, want %s", got, sum)
			}
			if len(objs) != 1 {
				t.Errorf("the sandbox holds %d files, want 1", len(objs))
			}
			if v.Result == nil || !sameServer(v.Result.URL, second.url) {
				t.Errorf("the result's link is %v, want one at %s", v.Result, second.url)
			}

			// The link follows the sandbox to its next address too.
			r.close()
			third := "http://127.0.0.1:9"
			r.opts.SandboxURL = third
			r.open()
			v, _ = r.q.Job(id)
			if v.Result == nil || !sameServer(v.Result.URL, third) {
				t.Errorf("after another restart the result's link is %v, want one at %s", v.Result, third)
			}
		})
	}
}

// A sandbox destination named by an address of its own is not the built-in
// sandbox: a restart does not send its files anywhere else.
func TestSandboxNamedByItsAddressStaysThere(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	own := r.url
	r.close()
	r.opts.SandboxURL = "http://127.0.0.1:9"
	r.open()
	p, sum := r.file("named.bin", 3*chunk)
	release, fault := stallChunk(r, 1)
	defer release()
	res := r.q.Add([]string{p}, dest.Destination{Kind: dest.Sandbox, BaseURL: own})
	if len(res.Problems) > 0 {
		t.Fatal(res.Problems)
	}
	id := res.IDs[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
	r.close()
	release()
	r.settled()
	r.opts.SandboxURL = "http://127.0.0.1:10"
	r.open()
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	if got := r.objects()["named.bin"].SHA256; got != sum {
		t.Errorf("the named sandbox holds %q, want %s", got, sum)
	}
}

// forgetBuiltinMark rewrites job id's record as Hoist wrote it before it kept
// the mark: a sandbox destination with the address it had then.
func forgetBuiltinMark(t *testing.T, path string, id engine.JobID, addr string) {
	t.Helper()
	j, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	rec, err := j.Get(string(id))
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	if err := json.Unmarshal(rec.Destination, &d); err != nil {
		t.Fatal(err)
	}
	if d["builtinSandbox"] != true || d["baseURL"] != addr {
		t.Fatalf("the destination was saved as %s; want the mark and the address %s", rec.Destination, addr)
	}
	if !sameServer(rec.SessionURI, addr) {
		t.Fatalf("the session %q is not at %s", rec.SessionURI, addr)
	}
	delete(d, "builtinSandbox")
	if rec.Destination, err = json.Marshal(d); err != nil {
		t.Fatal(err)
	}
	if err := j.Put(rec); err != nil {
		t.Fatal(err)
	}
}

func sameServer(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	return err1 == nil && err2 == nil && ua.Scheme == ub.Scheme && strings.EqualFold(ua.Host, ub.Host)
}
