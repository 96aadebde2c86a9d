package harness

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hoist/engine/emulator"
)

// TestTinyBenchmark runs every case of the benchmark once on tiny files, so
// that the harness cannot rot: every client must upload every file intact
// (Google's client excepted where connections are cut: it re-sends bytes the
// emulator already holds, which the emulator refuses), and the JSON, the
// Markdown and both charts must be written.
func TestTinyBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs every client")
	}
	if _, err := os.Stat(timePath); err != nil {
		t.Skipf("%s is not installed (Debian package \"time\")", timePath)
	}
	if _, err := exec.LookPath(curlPath()); err != nil {
		t.Skip("curl is not installed")
	}
	bench, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	if raceBuild {
		flags = []string{"-race"}
	}
	results, docs := t.TempDir(), t.TempDir()
	notes := "\n## What we found\n\nWritten by hand.\n"
	if err := os.WriteFile(filepath.Join(docs, "benchmarks.md"), []byte("old table\n"+Marker+notes), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Minute)
	defer cancel()
	rep, err := Measure(ctx, Config{
		Runs: 1, Sizes: Tiny(), Far: TinyFar(), WorkDir: t.TempDir(), RepoDir: filepath.Dir(bench), BenchDir: bench,
		ResultsDir: results, DocsDir: docs, BuildFlags: flags, Log: testLog{t},
	})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("every case ran and every upload arrived intact", func(t *testing.T) {
		if len(rep.Cases) < 30 {
			t.Fatalf("%d cases, want every workload × client × chunk size", len(rep.Cases))
		}
		for _, c := range rep.Cases {
			googleCut := c.Client == ClientGoogle && (c.Net == NetCut || c.Net == NetCutLatency)
			if len(c.Runs) != 1 {
				t.Errorf("%s: %d runs", c.Key, len(c.Runs))
			}
			if c.Failures > 0 && !googleCut {
				t.Errorf("%s failed: %s", c.Key, c.Failure)
			}
			if !c.ok() {
				continue
			}
			if c.Seconds.Median <= 0 || (c.Client != ClientRead && (c.RSSMiB.Median <= 0 || c.Requests.Median < float64(c.Files))) {
				t.Errorf("%s: implausible figures %+v", c.Key, c)
			}
		}
	})

	t.Run("cuts cost at most the bytes the server had not confirmed", func(t *testing.T) {
		for _, net := range []string{NetCut, NetCutLatency} {
			c := rep.find(WorkFault, "hash", net, ClientHoist, Tiny().RefChunk, 1)
			if !c.ok() {
				t.Fatalf("%s: no figures", net)
			}
			r := c.Runs[0]
			if r.Cuts == 0 || r.ProxyCuts == 0 {
				t.Fatalf("%s: no cut reached the emulator: %+v", net, r)
			}
			if r.ResentBytes > r.UnconfirmedBytes {
				t.Fatalf("%s: re-sent %d bytes, more than the %d not confirmed", net, r.ResentBytes, r.UnconfirmedBytes)
			}
		}
	})

	t.Run("far, slow and TLS links: every upload arrived intact", func(t *testing.T) {
		if len(rep.Far) < 18 {
			t.Fatalf("%d far cases, want every link × client", len(rep.Far))
		}
		for _, f := range rep.Far {
			if !f.ok() || len(f.Runs) != 1 || f.Runs[0].Error != "" {
				t.Errorf("%s: %+v", f.Key, f.Runs)
				continue
			}
			if r := f.Runs[0]; len(r.FileSeconds) != f.Files || r.Requests < f.Files {
				t.Errorf("%s: implausible figures %+v", f.Key, r)
			}
		}
		for _, f := range rep.Far {
			// Through the office proxy: hoist send keeps one connection,
			// so one tunnel; curl's two processes open one each.
			if f.Group != FarConnect || !f.ok() {
				continue
			}
			if want := map[string]int64{ClientHoist: 1, ClientCurl: 2}[f.Client]; f.Runs[0].Tunnels != want {
				t.Errorf("%s: %d tunnels through the office proxy, want %d", f.Key, f.Runs[0].Tunnels, want)
			}
		}
		cut := rep.farFind(farSpec{Group: FarCut, Client: ClientHoist, Chunk: ChunkAuto, Latency: TinyFar().Latencies[1]}.key())
		if !cut.ok() || cut.Runs[0].Resent > cut.Runs[0].Unconfirmed {
			t.Errorf("auto chunks through cuts: %+v", cut)
		}
	})

	t.Run("small files cost one request each", func(t *testing.T) {
		c := rep.find(WorkSmall, "hash", NetDirect, ClientHoist, Tiny().RefChunk, 4)
		if !c.ok() || c.Requests.Max != float64(c.Files) {
			t.Fatalf("%+v", c)
		}
	})

	t.Run("JSON", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(results, "latest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var back Report
		if err := json.Unmarshal(b, &back); err != nil || len(back.Cases) != len(rep.Cases) || len(back.Targets) == 0 {
			t.Fatalf("latest.json: %v, %d cases, %d targets", err, len(back.Cases), len(back.Targets))
		}
		if strings.Contains(string(b), "upload_id=HU") {
			t.Fatal("latest.json shows a session URI")
		}
		stamped, _ := filepath.Glob(filepath.Join(results, "2*.json"))
		if len(stamped) != 1 {
			t.Fatalf("timestamped results: %v", stamped)
		}
	})

	t.Run("Markdown keeps the notes written by hand", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(docs, "benchmarks.md"))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if strings.Contains(s, "old table") || !strings.HasSuffix(s, Marker+notes) || !strings.Contains(s, "| Target | Measured | Holds |") {
			t.Fatalf("benchmarks.md:\n%s", s)
		}
	})

	t.Run("charts", func(t *testing.T) {
		for _, name := range []string{ThroughputChart, MemoryChart} {
			f, err := os.Open(filepath.Join(docs, name))
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil || img.Bounds().Dx() < 400 {
				t.Fatalf("%s: %v", name, err)
			}
		}
	})
}

func TestAnalyse(t *testing.T) {
	const mib = 1 << 20
	chunk := func(first, body int64, status int) emulator.Request {
		cr := "bytes " + strconv.FormatInt(first, 10) + "-" + strconv.FormatInt(first+body-1, 10) + "/*"
		return emulator.Request{Stage: emulator.StageChunk, ContentRange: cr, BodyBytes: body, Status: status}
	}
	for _, tc := range []struct {
		name string
		size int64
		reqs []emulator.Request
		want requestFacts
	}{
		{"no faults", 16 * mib,
			[]emulator.Request{{Stage: emulator.StageStart, Status: 200}, chunk(0, 8*mib, 308), chunk(8*mib, 8*mib, 200)},
			requestFacts{requests: 3}},
		{"a cut inside a 256 KiB unit, resumed where the server stands", 11 * mib,
			[]emulator.Request{chunk(0, 3*mib+1000, 0), {Stage: emulator.StageQuery, Status: 308}, chunk(3*mib, 8*mib, 200)},
			requestFacts{requests: 3, cuts: 1, resent: 1000, unconfirmed: 1000}},
		{"a chunk re-sent from its start after a cut", 8 * mib,
			[]emulator.Request{chunk(0, 5*mib, 0), chunk(0, 8*mib, 400), chunk(5*mib, 3*mib, 200)},
			requestFacts{requests: 3, cuts: 1, resent: 8 * mib, unconfirmed: 0}},
		{"a cut one-request upload keeps nothing", 16 * mib,
			[]emulator.Request{{Stage: emulator.StageUpload, BodyBytes: 5 * mib}, {Stage: emulator.StageUpload, BodyBytes: 16 * mib, Status: 200}},
			requestFacts{requests: 2, cuts: 1, resent: 5 * mib, unconfirmed: 5 * mib}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := analyse(tc.reqs, tc.size); got != tc.want {
				t.Fatalf("analyse = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestRedact(t *testing.T) {
	in := `Post "http://127.0.0.1:1/upload/x?alt=json&upload_id=HUabc_-9&x=1": EOF`
	want := `Post "http://127.0.0.1:1/upload/x?alt=json&upload_id=redacted&x=1": EOF`
	if got := redact(in); got != want {
		t.Fatalf("redact = %q", got)
	}
}

// testLog shows the harness's progress in the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
