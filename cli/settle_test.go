package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine/emulator"
)

// A `hoist send` killed while the server has not yet read its one-request
// upload (the request is held, then read and stored late) is run again at
// once with --resume: the destination holds nothing yet, so Hoist says it
// waits and asks again rather than sending the file a second time, and
// there is exactly one object. The destinations run side by side, as each
// waits a minute.
func TestKilledWhileTheServerReadsLate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real processes")
	}
	type run struct {
		name    string
		email   bool
		to      []string
		emu     *emulator.Server
		lookups atomic.Int32
		looked  int32
		release chan struct{}
		journal string
		args    []string
		p       *hoistProcess
	}
	runs := []*run{
		{name: "sandbox media", to: []string{"--to", "sandbox", "--method", "media"}},
		{name: "drive multipart", to: []string{"--to", "drive", "--method", "multipart"}},
		{name: "gmail media", email: true, to: []string{"--to", "gmail-insert", "--method", "media"}},
	}
	for _, r := range runs {
		emu, err := emulator.New(emulator.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r.emu = emu
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.Method == http.MethodGet {
				r.lookups.Add(1)
			}
			emu.ServeHTTP(w, req)
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { emu.Close() }) // first: it ends the stall
		r.release = make(chan struct{})
		emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.Stall{Until: r.release}})

		home := t.TempDir()
		file := filepath.Join(home, "spring.bin")
		data := []byte(strings.Repeat("spring banner ", 1500))
		if r.email {
			file = filepath.Join(home, "spring.eml")
			data = []byte("From: Noa <noa@example.co.il>\r\nTo: office@example.org\r\nSubject: Spring\r\n" +
				"Message-ID: <spring-late@example.co.il>\r\n\r\n" + string(data))
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r.journal = filepath.Join(home, "journal.db")
		r.args = append([]string{"send", "--no-auth", "--journal", r.journal, "--base-url", srv.URL}, r.to...)
		r.p = startHoist(t, home, append(r.args, file)...)
	}
	for _, r := range runs {
		waitFor(t, r.p, r.name+": the upload going out", func() bool {
			_, err := os.Stat(r.journal + ".sending")
			return err == nil
		})
	}
	time.Sleep(300 * time.Millisecond) // each body, a few KB, lies in its server's socket
	for _, r := range runs {
		r.p.kill()
		if n := r.emu.Received(); n != 0 {
			t.Fatalf("%s: the server stored %d objects while it held the request", r.name, n)
		}
		r.looked = r.lookups.Load()
		r.p = startHoist(t, filepath.Dir(r.journal), append(r.args, "--resume")...)
	}
	for _, r := range runs {
		waitFor(t, r.p, r.name+": the destination being asked", func() bool { return r.lookups.Load() > r.looked })
	}
	time.Sleep(200 * time.Millisecond)
	for _, r := range runs {
		close(r.release) // the held request is read now, and stored
	}
	for _, r := range runs {
		code := r.p.waitUpTo(t, 3*time.Minute) // it asks again a minute after the file went out
		out := r.p.out.String()
		// A second copy, if one was sent, shows within a moment of the first.
		for deadline := time.Now().Add(3 * time.Second); len(r.emu.Objects()) < 2 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if n := len(r.emu.Objects()); n != 1 {
			t.Errorf("%s: %d objects on the server, want exactly 1; output:\n%s", r.name, n, out)
		}
		if code != 0 {
			t.Errorf("%s: hoist send --resume exited %d:\n%s", r.name, code, out)
		}
		if !strings.Contains(out, "does not show it yet") || !strings.Contains(out, "Hoist will ask ") {
			t.Errorf("%s: the wait before asking again is not said:\n%s", r.name, out)
		}
	}
}
