// Package harness measures Hoist against curl and against Google's own Go
// client on the same loopback emulator: throughput, peak memory and CPU of
// each client process, files per second for small files, and bytes re-sent
// and time lost through a proxy that cuts connections. It writes the results
// as JSON, a Markdown table and PNG charts.
package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Clients measured.
const (
	ClientRead   = "read"   // the harness reading the file: the disk's limit
	ClientCurl   = "curl"   // curl, one PUT of the whole file to a resumable session
	ClientGoogle = "google" // Google's Go client, storage/v1 Objects.Insert with Media
	ClientHoist  = "hoist"  // the hoist send command
	ClientEngine = "engine" // Hoist's queue as a library in a minimal program
)

// Networks a client reaches the emulator through.
const (
	NetDirect     = "direct"      // straight to the emulator
	NetProxy      = "proxy"       // through the fault proxy, no faults: the reference for faults
	NetCut        = "cut"         // the proxy cuts the connection every CutEvery bytes
	NetLatency    = "latency"     // the proxy delays every request by Latency
	NetCutLatency = "cut+latency" // both
)

// Workloads.
const (
	WorkBig      = "big"      // one big file
	WorkSmall    = "small"    // many small files
	WorkMid      = "mid"      // medium files
	WorkParallel = "parallel" // big files at once
	WorkFault    = "fault"    // one file through the fault proxy
	WorkYouTube  = "youtube"  // one very big video to YouTube's sandbox: only when -only names it
)

// Sizes are the workloads' dimensions.
type Sizes struct {
	Name       string        `json:"name"`
	Big        int64         `json:"big"`
	SmallCount int           `json:"smallCount"`
	Small      int64         `json:"small"`
	MidCount   int           `json:"midCount"`
	Mid        int64         `json:"mid"`
	ParCount   int           `json:"parallelCount"`
	Par        int64         `json:"parallel"`
	Fault      int64         `json:"fault"`
	CutEvery   int64         `json:"cutEvery"`
	Latency    time.Duration `json:"latency"`
	Chunks     []int64       `json:"chunks"`     // chunk sizes of the big file; 0 = whole file
	RefChunk   int64         `json:"refChunk"`   // the chunk size targets compare at
	DiskChunks []int64       `json:"diskChunks"` // chunk sizes measured on the disk store too
	Video      int64         `json:"video"`      // the video sent to YouTube's sandbox, when asked for
}

// Full is the benchmark `make bench` runs.
func Full() Sizes {
	return Sizes{
		Name: "full",
		Big:  1 << 30, SmallCount: 1000, Small: 64 << 10, MidCount: 200, Mid: 5 << 20,
		ParCount: 8, Par: 256 << 20, Fault: 256 << 20, CutEvery: 32 << 20, Latency: 50 * time.Millisecond,
		Chunks: []int64{256 << 10, 8 << 20, 16 << 20, 0}, RefChunk: 8 << 20, DiskChunks: []int64{8 << 20, 0},
		Video: 6 << 30,
	}
}

// Tiny is the same benchmark in miniature, for tests that keep the harness working.
func Tiny() Sizes {
	return Sizes{
		Name: "tiny",
		Big:  8 << 20, SmallCount: 20, Small: 64 << 10, MidCount: 3, Mid: 5 << 20,
		ParCount: 8, Par: 1 << 20, Fault: 4 << 20, CutEvery: 3 << 20, Latency: 5 * time.Millisecond,
		Chunks: []int64{256 << 10, 1 << 20, 0}, RefChunk: 1 << 20, DiskChunks: []int64{1 << 20},
		Video: 4 << 20,
	}
}

// Config says what to measure and where to put the results.
type Config struct {
	Runs       int      // runs of every case; at least 1
	Sizes      Sizes    // workloads
	WorkDir    string   // files and builds; "" = a new temporary folder, removed at the end
	RepoDir    string   // the hoist module, to build hoist from
	BenchDir   string   // this module, to build the helper programs from
	ResultsDir string   // JSON results; "" = not written
	DocsDir    string   // benchmarks.md and the charts; "" = not written
	HoistBin   string   // a hoist binary to use instead of building one
	BuildFlags []string // extra flags for go build (e.g. -race in tests)
	Only       string   // when set, only cases whose key contains it
	Far        FarSizes // far and slow links; zero: not measured
	Log        io.Writer
}

// spec is one case: a client uploading a workload in a given way.
type spec struct {
	Workload string
	Store    string // "hash", "crc" or "disk"
	Net      string
	Client   string
	Chunk    int64 // -1: not chunked; 0: whole file in one request
	Parallel int
	Method   string // hoist and engine: auto or resumable
	files    *fileSet
}

func (s spec) key() string {
	return fmt.Sprintf("%s/%s/%s/%s/%s/p%d", s.Workload, s.Store, s.Net, s.Client, chunkLabel(s.Chunk), s.Parallel)
}

// chunkLabel names a chunk size the way tables show it.
func chunkLabel(c int64) string {
	switch {
	case c < 0:
		return "—"
	case c == 0:
		return "whole"
	case c%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", c>>30)
	case c%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", c>>20)
	case c%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", c>>10)
	}
	return fmt.Sprintf("%d B", c)
}

// sizeArg is a size as hoist send's --chunk-size takes it.
func sizeArg(c int64) string {
	switch {
	case c == 0:
		return "0"
	case c%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", c>>20)
	case c%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", c>>10)
	}
	return fmt.Sprint(c)
}

// env is what runs share.
type env struct {
	cfg      Config
	work     string
	bins     map[string]string
	servers  map[string]*server
	proxy    *faultProxy
	tlsProxy *faultProxy   // to the HTTPS emulator
	office   *connectProxy // an office proxy (CONNECT) that alone knows officeHost
	caFile   string        // the HTTPS emulator's authority
	runSeq   int
}

func (e *env) logf(format string, args ...any) {
	if e.cfg.Log != nil {
		fmt.Fprintf(e.cfg.Log, format+"\n", args...)
	}
}

// Measure measures every case and returns the report; with ResultsDir and
// DocsDir set it also writes the JSON, the Markdown and the charts.
func Measure(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Runs < 1 {
		cfg.Runs = 1
	}
	if cfg.RepoDir == "" || cfg.BenchDir == "" {
		return nil, errors.New("harness: RepoDir and BenchDir are needed")
	}
	started := time.Now()
	e := &env{cfg: cfg, bins: map[string]string{}, servers: map[string]*server{}}
	work := cfg.WorkDir
	if work == "" {
		dir, err := os.MkdirTemp("", "hoistbench-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		work = dir
	}
	e.work = work

	if err := e.build(ctx); err != nil {
		return nil, err
	}
	e.logf("Built in %.0f s.", time.Since(started).Seconds())
	e.logf("Making the files in %s…", work)
	groups := e.groups(e.planSets())
	if err := e.makeFilesOf(groups); err != nil {
		return nil, err
	}
	// Writing the files back to disk must not compete with the first runs.
	syscall.Sync()
	for _, store := range []string{"hash", "crc", "disk"} {
		data := ""
		if store == "disk" {
			data = filepath.Join(work, "disk-store")
		}
		s, err := startServer(ctx, e.bins["benchserver"], store, data)
		if err != nil {
			return nil, err
		}
		defer s.stop()
		e.servers[store] = s
	}
	hashHost := strings.TrimPrefix(e.servers["hash"].URL, "http://")
	var err error
	if e.proxy, err = startProxy(hashHost); err != nil {
		return nil, err
	}
	defer e.proxy.close()
	if cfg.Far.Sweep > 0 {
		e.caFile = filepath.Join(work, "emulator-ca.pem")
		s, err := startServerTLS(ctx, e.bins["benchserver"], "hash", "", e.caFile, officeHost)
		if err != nil {
			return nil, err
		}
		defer s.stop()
		e.servers["tls"] = s
		tlsAddr := strings.TrimPrefix(s.URL, "https://")
		if e.tlsProxy, err = startProxy(tlsAddr); err != nil {
			return nil, err
		}
		defer e.tlsProxy.close()
		if e.office, err = startConnectProxy(map[string]string{officeHost: tlsAddr}, "", ""); err != nil {
			return nil, err
		}
		defer e.office.close()
	}

	rep := &Report{Started: started.UTC(), Sizes: cfg.Sizes, Runs: cfg.Runs, Machine: machine()}
	if busy := otherWork(time.Second); busy > 0.1 {
		e.logf("Note: other work keeps %.0f%% of the CPUs busy; it makes the figures vary more.", 100*busy)
	}
	for _, g := range groups {
		results, err := e.runGroup(ctx, g)
		rep.Cases = append(rep.Cases, results...)
		if err != nil {
			return rep, err
		}
	}
	if cfg.Far.Sweep > 0 {
		rep.FarSizes = cfg.Far
		far, err := e.measureFar(ctx)
		rep.Far = far
		if err != nil {
			return rep, err
		}
	}
	rep.Finished = time.Now().UTC()
	rep.Seconds = time.Since(started).Seconds()
	rep.Targets = evaluate(rep)
	if cfg.ResultsDir != "" {
		// The run before, to show the throughput against it; none on a first run.
		rep.Previous, _ = ReadReport(filepath.Join(cfg.ResultsDir, "latest.json"))
	}
	if err := rep.write(cfg, started); err != nil {
		return rep, err
	}
	return rep, nil
}

// build compiles the helper programs and, unless given, hoist.
func (e *env) build(ctx context.Context) error {
	bin := filepath.Join(e.work, "bin")
	for _, name := range []string{"benchserver", "googleupload", "engineupload"} {
		e.logf("Building %s…", name)
		out := filepath.Join(bin, name)
		if err := goBuild(ctx, e.cfg.BenchDir, "./cmd/"+name, out, e.cfg.BuildFlags); err != nil {
			return err
		}
		e.bins[name] = out
	}
	if e.cfg.HoistBin != "" {
		e.bins["hoist"] = e.cfg.HoistBin
		return nil
	}
	e.logf("Building hoist (the first build compiles the window toolkit and takes a few minutes)…")
	out := filepath.Join(bin, "hoist")
	if err := goBuild(ctx, e.cfg.RepoDir, ".", out, e.cfg.BuildFlags); err != nil {
		return err
	}
	e.bins["hoist"] = out
	return nil
}

type sets struct {
	big, small, mid, par, fault *fileSet
	video                       *fileSet // nil unless the YouTube case is asked for
}

// wantsVideo reports whether the YouTube case is to run: only when -only
// names it, as its file alone takes minutes to write and gigabytes of disk.
func (e *env) wantsVideo() bool { return strings.Contains(e.cfg.Only, WorkYouTube) }

// planSets names the workloads' files; makeFilesOf writes those that the
// cases to run need, so that -only writes no file it does not use.
func (e *env) planSets() sets {
	z := e.cfg.Sizes
	dir := filepath.Join(e.work, "files")
	s := sets{
		big:   planFiles(dir, "big", 1, z.Big),
		small: planFiles(dir, "small", z.SmallCount, z.Small),
		mid:   planFiles(dir, "mid", z.MidCount, z.Mid),
		par:   planFiles(dir, "parallel", z.ParCount, z.Par),
		fault: planFiles(dir, "fault", 1, z.Fault),
	}
	if e.wantsVideo() {
		s.video = planFiles(dir, "video", 1, z.Video)
	}
	return s
}

// makeFilesOf writes the files of the groups' cases.
func (e *env) makeFilesOf(gs []group) error {
	for _, g := range gs {
		for _, c := range g.cases {
			if !c.files.made && c.files.Bytes >= 1<<30 {
				e.logf("Making %s (%s)…", c.files.Name, chunkLabel(c.files.Bytes))
			}
			if err := c.files.make(); err != nil {
				return err
			}
		}
	}
	return nil
}

// group is cases measured together: run 1 of each, then run 2 of each (in
// another order), and so on, so that a slow moment of the machine does not
// fall on one case.
type group struct {
	title     string
	cases     []spec
	extraRuns int          // more runs than the others when there are at least 5: the targets' ratios come from here
	cleanup   func() error // after its runs: deletes files too big to keep
}

func (e *env) groups(s sets) []group {
	z := e.cfg.Sizes
	var gs []group

	big := group{title: "one big file, hash store", extraRuns: 2}
	big.cases = append(big.cases,
		spec{Workload: WorkBig, Store: "hash", Net: NetDirect, Client: ClientRead, Chunk: -1, Parallel: 1, files: s.big},
		spec{Workload: WorkBig, Store: "hash", Net: NetDirect, Client: ClientCurl, Chunk: -1, Parallel: 1, files: s.big})
	for _, client := range []string{ClientGoogle, ClientHoist, ClientEngine} {
		for _, c := range z.Chunks {
			big.cases = append(big.cases, spec{Workload: WorkBig, Store: "hash", Net: NetDirect, Client: client, Chunk: c, Parallel: 1, Method: "resumable", files: s.big})
		}
	}
	gs = append(gs, big)

	crc := group{title: "one big file, CRC-only store", extraRuns: 2}
	crc.cases = append(crc.cases, spec{Workload: WorkBig, Store: "crc", Net: NetDirect, Client: ClientCurl, Chunk: -1, Parallel: 1, files: s.big})
	for _, client := range []string{ClientGoogle, ClientHoist, ClientEngine} {
		for _, c := range z.DiskChunks {
			crc.cases = append(crc.cases, spec{Workload: WorkBig, Store: "crc", Net: NetDirect, Client: client, Chunk: c, Parallel: 1, Method: "resumable", files: s.big})
		}
	}
	gs = append(gs, crc)

	disk := group{title: "one big file, disk store"}
	disk.cases = append(disk.cases, spec{Workload: WorkBig, Store: "disk", Net: NetDirect, Client: ClientCurl, Chunk: -1, Parallel: 1, files: s.big})
	for _, client := range []string{ClientGoogle, ClientHoist, ClientEngine} {
		for _, c := range z.DiskChunks {
			disk.cases = append(disk.cases, spec{Workload: WorkBig, Store: "disk", Net: NetDirect, Client: client, Chunk: c, Parallel: 1, Method: "resumable", files: s.big})
		}
	}
	gs = append(gs, disk)

	small := group{title: "many small files"}
	small.cases = append(small.cases,
		spec{Workload: WorkSmall, Store: "hash", Net: NetDirect, Client: ClientGoogle, Chunk: z.RefChunk, Parallel: 1, files: s.small},
		spec{Workload: WorkSmall, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: z.RefChunk, Parallel: 1, Method: "auto", files: s.small},
		spec{Workload: WorkSmall, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: z.RefChunk, Parallel: 4, Method: "auto", files: s.small},
		spec{Workload: WorkSmall, Store: "hash", Net: NetDirect, Client: ClientEngine, Chunk: z.RefChunk, Parallel: 4, Method: "auto", files: s.small})
	gs = append(gs, small)

	mid := group{title: "medium files"}
	mid.cases = append(mid.cases,
		spec{Workload: WorkMid, Store: "hash", Net: NetDirect, Client: ClientGoogle, Chunk: z.RefChunk, Parallel: 1, files: s.mid},
		spec{Workload: WorkMid, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: z.RefChunk, Parallel: 1, Method: "auto", files: s.mid},
		spec{Workload: WorkMid, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: z.RefChunk, Parallel: 4, Method: "auto", files: s.mid},
		spec{Workload: WorkMid, Store: "hash", Net: NetDirect, Client: ClientEngine, Chunk: z.RefChunk, Parallel: 4, Method: "auto", files: s.mid})
	gs = append(gs, mid)

	par := group{title: "big files at once"}
	n := z.ParCount
	par.cases = append(par.cases,
		spec{Workload: WorkParallel, Store: "hash", Net: NetDirect, Client: ClientCurl, Chunk: -1, Parallel: n, files: s.par},
		spec{Workload: WorkParallel, Store: "hash", Net: NetDirect, Client: ClientGoogle, Chunk: z.RefChunk, Parallel: n, files: s.par},
		spec{Workload: WorkParallel, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: z.RefChunk, Parallel: n, Method: "resumable", files: s.par},
		spec{Workload: WorkParallel, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: 0, Parallel: n, Method: "resumable", files: s.par},
		spec{Workload: WorkParallel, Store: "hash", Net: NetDirect, Client: ClientEngine, Chunk: z.RefChunk, Parallel: n, Method: "resumable", files: s.par})
	gs = append(gs, par)

	fault := group{title: "faults and latency"}
	for _, client := range []string{ClientHoist, ClientGoogle} {
		for _, net := range []string{NetProxy, NetCut, NetLatency, NetCutLatency} {
			fault.cases = append(fault.cases, spec{Workload: WorkFault, Store: "hash", Net: net, Client: client, Chunk: z.RefChunk, Parallel: 1, Method: "resumable", files: s.fault})
		}
		for _, c := range z.Chunks {
			if c == z.RefChunk || c == z.Chunks[0] {
				continue // the smallest chunks would spend a minute in delays alone
			}
			fault.cases = append(fault.cases, spec{Workload: WorkFault, Store: "hash", Net: NetLatency, Client: client, Chunk: c, Parallel: 1, Method: "resumable", files: s.fault})
		}
	}
	gs = append(gs, fault)

	if s.video != nil { // memory must stay flat however big the file
		gs = append(gs, group{title: "a very big video to YouTube's sandbox", cleanup: s.video.remove, cases: []spec{
			{Workload: WorkYouTube, Store: "hash", Net: NetDirect, Client: ClientHoist, Chunk: z.RefChunk, Parallel: 1, Method: "resumable", files: s.video},
		}})
	}

	if e.cfg.Only != "" {
		for i := range gs {
			var keep []spec
			for _, c := range gs[i].cases {
				if strings.Contains(c.key(), e.cfg.Only) {
					keep = append(keep, c)
				}
			}
			gs[i].cases = keep
		}
	}
	return gs
}

func (e *env) runGroup(ctx context.Context, g group) ([]*CaseResult, error) {
	if g.cleanup != nil {
		defer func() {
			if err := g.cleanup(); err != nil {
				e.logf("  could not delete the files of %s: %v", g.title, err)
			}
		}()
	}
	if len(g.cases) == 0 {
		return nil, nil
	}
	runs := e.cfg.Runs
	if runs >= 5 {
		runs += g.extraRuns
	}
	e.logf("Measuring %s: %d cases × %d runs…", g.title, len(g.cases), runs)
	start := time.Now()
	defer func() { e.logf("  (%s took %.0f s)", g.title, time.Since(start).Seconds()) }()
	results := make([]*CaseResult, len(g.cases))
	for i, s := range g.cases {
		results[i] = newCaseResult(s)
	}
	for run := range runs {
		// Each run takes the cases in an order of its own (the same on every
		// machine), so that no case always follows the same one and inherits
		// what it left behind: on the on-disk store the emulator's cost of
		// the same bytes varies by half with what ran before it.
		for _, i := range rand.New(rand.NewPCG(uint64(run), 0)).Perm(len(g.cases)) {
			s := g.cases[i]
			if ctx.Err() != nil {
				return results, ctx.Err()
			}
			r, err := e.runOnce(ctx, s)
			if err != nil {
				return results, fmt.Errorf("%s: %w", s.key(), err)
			}
			results[i].Runs = append(results[i].Runs, r)
			e.logf("  run %d %-48s %7.2f s %8.1f MiB/s %6.1f MiB RSS  %s", run+1, s.key(), r.Seconds,
				float64(s.files.Bytes)/(1<<20)/r.Seconds, float64(r.MaxRSSBytes)/(1<<20), status(r.Error))
		}
	}
	for _, r := range results {
		r.summarise()
	}
	return results, nil
}

// sessionID matches the upload_id of a session URI in a client's error
// message: a capability, never to be written down.
var sessionID = regexp.MustCompile(`upload_id=[^&"'\s]+`)

func redact(s string) string { return sessionID.ReplaceAllString(s, "upload_id=redacted") }

// status is how a run ended, in a word or the first line of its error.
func status(err string) string {
	if err != "" {
		return "FAILED: " + firstLine(err)
	}
	return "ok"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// runOnce runs one case once. An error is the harness's own failure; the
// client's failure is recorded in the Run.
func (e *env) runOnce(ctx context.Context, s spec) (Run, error) {
	srv := e.servers[s.Store]
	base := srv.URL
	if s.Net != NetDirect {
		base = e.proxy.URL
		var cut int64
		var latency time.Duration
		if s.Net == NetCut || s.Net == NetCutLatency {
			cut = e.cfg.Sizes.CutEvery
		}
		if s.Net == NetLatency || s.Net == NetCutLatency {
			latency = e.cfg.Sizes.Latency
		}
		e.proxy.set(cut, latency)
	}
	if err := srv.clear(ctx); err != nil {
		return Run{}, err
	}
	cpu0, err := srv.cpu(ctx)
	if err != nil {
		return Run{}, err
	}
	busy0, self0 := cpuBusy(), selfCPU()

	var u usage
	var runErr error
	if s.Client == ClientRead {
		u, runErr = readFiles(s.files)
	} else {
		ps, cleanup, err := e.procs(ctx, s, base)
		if err != nil {
			return Run{}, err
		}
		u, runErr = runProcs(ctx, ps)
		cleanup()
	}
	r := Run{
		Seconds:       u.Wall.Seconds(),
		UserSeconds:   u.User.Seconds(),
		SystemSeconds: u.System.Seconds(),
		MaxRSSBytes:   u.MaxRSS,
	}
	if runErr != nil {
		r.Error = redact(runErr.Error())
	}
	busy1, self1 := cpuBusy(), selfCPU()
	cpu1, err := srv.cpu(ctx)
	if err != nil {
		return r, err
	}
	r.ServerCPUSeconds = (cpu1 - cpu0).Seconds()
	if busy1 > 0 && u.Wall > 0 {
		// What the CPUs did besides this client, the emulator and the harness.
		other := (busy1 - busy0) - (self1 - self0) - u.User - u.System - (cpu1 - cpu0)
		r.OtherCPUShare = max(other.Seconds(), 0) / (u.Wall.Seconds() * float64(runtime.NumCPU()))
	}
	if s.Client == ClientRead {
		return r, nil
	}
	reqs, err := srv.requests(ctx)
	if err != nil {
		return r, err
	}
	a := analyse(reqs, s.files.Bytes)
	r.Requests, r.Cuts, r.ResentBytes, r.UnconfirmedBytes = a.requests, a.cuts, a.resent, a.unconfirmed
	if s.Net != NetDirect {
		ps := e.proxy.stats()
		r.WireBytes = ps.Forwarded
		r.ProxyCuts = ps.Cuts
		r.WaitSeconds = ps.Waits.Seconds()
		e.proxy.set(0, 0)
	}
	objs, err := srv.newObjects(ctx)
	if err != nil {
		return r, err
	}
	if r.Error == "" {
		if err := verify(s.files, objs); err != nil {
			r.Error = err.Error()
		}
	}
	if err := srv.forgetBytes(); err != nil {
		return r, err
	}
	return r, nil
}

// procs builds the client processes of one run of s against base.
func (e *env) procs(ctx context.Context, s spec, base string) ([]proc, func(), error) {
	upload := base + "/upload/sandbox/v1/files"
	noop := func() {}
	switch s.Client {
	case ClientCurl:
		var ps []proc
		for _, f := range s.files.Files {
			// Its session starts inside the timed run, as hoist send's does.
			ps = append(ps, proc{path: "sh", args: curlArgs(f.Size, base, f.Path)})
		}
		return ps, noop, nil
	case ClientGoogle:
		return []proc{{path: e.bins["googleupload"], args: []string{
			"-endpoint", base, "-chunk", fmt.Sprint(s.Chunk), "-parallel", fmt.Sprint(s.Parallel), target(s),
		}}}, noop, nil
	case ClientEngine:
		return []proc{{path: e.bins["engineupload"], args: []string{
			"-url", upload, "-chunk", fmt.Sprint(s.Chunk), "-parallel", fmt.Sprint(s.Parallel), "-method", s.Method, target(s),
		}}}, noop, nil
	case ClientHoist:
		e.runSeq++
		home := filepath.Join(e.work, fmt.Sprintf("home-%d", e.runSeq))
		cleanup := func() { _ = os.RemoveAll(home) }
		to := []string{"--to", upload}
		if s.Workload == WorkYouTube { // videos.insert on the emulator, as Google's own
			to = []string{"--to", "youtube", "--base-url", base, "--title", "Launch"}
		}
		return []proc{{
			path: e.bins["hoist"],
			args: append(append([]string{"send"}, to...), "--method", s.Method, "--chunk-size", sizeArg(s.Chunk),
				"--parallel", fmt.Sprint(s.Parallel), "--no-auth", target(s)),
			// A journal of its own for every run: each run starts from an empty upload list.
			env: []string{"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data")},
		}}, cleanup, nil
	}
	return nil, nil, fmt.Errorf("unknown client %q", s.Client)
}

// target is what a client is given: the file, or the folder of several.
func target(s spec) string {
	if len(s.files.Files) == 1 {
		return s.files.Files[0].Path
	}
	return s.files.Dir
}

func curlPath() string {
	if _, err := os.Stat("/usr/bin/curl"); err == nil {
		return "/usr/bin/curl"
	}
	return "curl"
}

// readFiles reads the files as fast as one reader can: the disk's (or the
// page cache's) limit, which no upload can beat.
func readFiles(set *fileSet) (usage, error) {
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	buf := make([]byte, 1<<20)
	start := time.Now()
	for _, f := range set.Files {
		fh, err := os.Open(f.Path)
		if err != nil {
			return usage{}, err
		}
		_, err = io.CopyBuffer(io.Discard, struct{ io.Reader }{fh}, buf)
		fh.Close()
		if err != nil {
			return usage{}, err
		}
	}
	wall := time.Since(start)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	return usage{
		Wall:   wall,
		User:   time.Duration(after.Utime.Nano() - before.Utime.Nano()),
		System: time.Duration(after.Stime.Nano() - before.Stime.Nano()),
	}, nil
}

// cpuBusy is the time every CPU of the machine has spent on anything but
// idling since boot (/proc/stat), or 0 where that cannot be read.
func cpuBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	var ticks int64
	for i, v := range f[1:9] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100) // USER_HZ is 100 on Linux
}

// selfCPU is the harness's own CPU time, its proxy included.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// otherWork is the share of the CPUs that other processes keep busy while
// the harness itself waits for d.
func otherWork(d time.Duration) float64 {
	busy0, self0 := cpuBusy(), selfCPU()
	time.Sleep(d)
	busy := cpuBusy() - busy0 - (selfCPU() - self0)
	return max(busy.Seconds(), 0) / (d.Seconds() * float64(runtime.NumCPU()))
}

// Machine describes where the benchmark ran.
type Machine struct {
	OS        string `json:"os"`
	Arch      string `json:"arch"`
	CPUs      int    `json:"cpus"`
	CPU       string `json:"cpu"`
	MemoryGiB int64  `json:"memoryGiB"`
	Kernel    string `json:"kernel"`
	Go        string `json:"go"`
	Curl      string `json:"curl"`
}

func machine() Machine {
	m := Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) == nil {
		m.MemoryGiB = int64(si.Totalram) * int64(si.Unit) >> 30
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	m.Curl = curlVersion()
	return m
}
