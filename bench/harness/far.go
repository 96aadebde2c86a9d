package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// ChunkAuto is a case's chunk size when hoist sizes chunks by the link.
const ChunkAuto = -2

// Far-link groups: how the link between client and emulator behaves.
const (
	FarSweep = "sweep" // per-request latency from 0 up, by chunk policy
	FarTLS   = "tls"   // HTTPS straight to the emulator, HTTP/2 and HTTP/1.1
	FarWide  = "wide"  // HTTPS through a link delaying every packet (a far link)
	FarSlow  = "slow"  // one upload over a slow link
	FarFair  = "fair"  // parallel uploads sharing one link
	FarCut   = "cut"   // per-request latency and a cut every CutEvery bytes
	// FarConnect is HTTPS through an office proxy (CONNECT) on loopback, to
	// a host name only the proxy knows: the client's TLS runs inside the tunnel.
	FarConnect = "connect"
)

// officeHost is the HTTPS emulator's name that only the office proxy
// resolves: an upload that reaches it went through the proxy. (Hoist, like
// browsers, never sends loopback addresses through a proxy.)
const officeHost = "uploads.office-proxy.invalid"

// FarSizes are the far and slow links' dimensions.
type FarSizes struct {
	Sweep      int64           `json:"sweep"`     // file through per-request latency
	Latencies  []time.Duration `json:"latencies"` // per request
	TLSBig     int64           `json:"tlsBig"`    // file over HTTPS on loopback
	Wide       int64           `json:"wide"`      // file over the far HTTPS link
	WideDelay  time.Duration   `json:"wideDelay"` // one way, every packet
	Slow       int64           `json:"slow"`
	SlowBPS    int64           `json:"slowBPS"`
	FairCount  int             `json:"fairCount"`
	Fair       int64           `json:"fair"`
	FairBPS    int64           `json:"fairBPS"`
	SlowRuns   int             `json:"slowRuns"`
	SweepChunk []int64         `json:"sweepChunks"`
	CutEvery   int64           `json:"cutEvery"` // the cut cases: the sweep's file, its last latency
}

// FullFar is what make bench measures.
func FullFar() FarSizes {
	return FarSizes{
		Sweep: 256 << 20, Latencies: []time.Duration{0, 10 * time.Millisecond, 50 * time.Millisecond},
		TLSBig: 1 << 30, Wide: 128 << 20, WideDelay: 25 * time.Millisecond,
		Slow: 64 << 20, SlowBPS: 1 << 20, FairCount: 4, Fair: 64 << 20, FairBPS: 20 << 20, SlowRuns: 1,
		SweepChunk: []int64{8 << 20, ChunkAuto, 0}, CutEvery: 32 << 20,
	}
}

// TinyFar keeps the far cases working in tests.
func TinyFar() FarSizes {
	return FarSizes{
		Sweep: 4 << 20, Latencies: []time.Duration{0, 5 * time.Millisecond},
		TLSBig: 4 << 20, Wide: 2 << 20, WideDelay: 2 * time.Millisecond,
		Slow: 2 << 20, SlowBPS: 4 << 20, FairCount: 2, Fair: 1 << 20, FairBPS: 8 << 20, SlowRuns: 1,
		SweepChunk: []int64{1 << 20, ChunkAuto}, CutEvery: 3 << 20,
	}
}

// farSpec is one far-link case.
type farSpec struct {
	Group   string
	Client  string
	Proto   string // "h2", "h1.1", "" for plain HTTP
	Chunk   int64
	Latency time.Duration // per request (proxy)
	Delay   time.Duration // per packet, one way (proxy)
	BPS     int64         // link bandwidth from client to server; 0 = unlimited
	Cut     int64         // cut the connection every Cut bytes; 0 = never
	files   *fileSet
}

func (s farSpec) key() string {
	k := fmt.Sprintf("far/%s/%s", s.Group, s.Client)
	if s.Proto != "" {
		k += "/" + s.Proto
	}
	if s.Chunk != -1 {
		k += "/" + farChunk(s.Chunk)
	}
	if s.Latency > 0 {
		k += "/" + s.Latency.String()
	}
	return k
}

func farChunk(c int64) string {
	if c == ChunkAuto {
		return "auto"
	}
	return chunkLabel(c)
}

// FarRun is one run of a far case.
type FarRun struct {
	Seconds     float64   `json:"seconds"`
	FileSeconds []float64 `json:"fileSeconds,omitempty"` // each file: from start to the emulator holding it
	ETAAt10     float64   `json:"etaAt10,omitempty"`     // hoist: the time left shown once 10% was sent
	RestAt10    float64   `json:"restAt10,omitempty"`    // the time it really took from then on
	Requests    int       `json:"requests"`
	Cuts        int       `json:"cuts,omitempty"`
	Resent      int64     `json:"resentBytes,omitempty"`
	Unconfirmed int64     `json:"unconfirmedBytes,omitempty"`
	Waits       float64   `json:"waitSeconds,omitempty"` // from each cut to the client's next request
	Tunnels     int64     `json:"tunnels,omitempty"`     // CONNECTs the office proxy answered
	Error       string    `json:"error,omitempty"`
}

// FarResult is a far case with its runs.
type FarResult struct {
	Key     string        `json:"key"`
	Group   string        `json:"group"`
	Client  string        `json:"client"`
	Proto   string        `json:"proto,omitempty"`
	Chunk   int64         `json:"chunk"`
	Latency time.Duration `json:"latency,omitempty"`
	Delay   time.Duration `json:"delay,omitempty"`
	BPS     int64         `json:"bps,omitempty"`
	Files   int           `json:"files"`
	Bytes   int64         `json:"bytes"`
	Runs    []FarRun      `json:"runs"`
	Seconds Stat          `json:"seconds"`
	MiBps   Stat          `json:"mibPerSecond"`
}

func (f *FarResult) ok() bool { return f != nil && f.Seconds.N > 0 }

func (f *FarResult) summarise() {
	var secs, rates []float64
	for _, r := range f.Runs {
		if r.Error == "" {
			secs = append(secs, r.Seconds)
			rates = append(rates, float64(f.Bytes)/(1<<20)/r.Seconds)
		}
	}
	f.Seconds, f.MiBps = statOf(secs), statOf(rates)
}

// farSets are the far cases' files.
type farSets struct{ sweep, tls, wide, slow, fair *fileSet }

func (e *env) farGroups(fs farSets) []farSpec {
	z := e.cfg.Far
	var out []farSpec
	for _, lat := range z.Latencies {
		for _, c := range z.SweepChunk {
			out = append(out, farSpec{Group: FarSweep, Client: ClientHoist, Chunk: c, Latency: lat, files: fs.sweep})
		}
	}
	for _, proto := range []string{"h2", "h1.1"} {
		out = append(out, farSpec{Group: FarTLS, Client: ClientCurl, Proto: proto, Chunk: -1, files: fs.tls})
		for _, c := range []int64{8 << 20, ChunkAuto} {
			out = append(out, farSpec{Group: FarTLS, Client: ClientHoist, Proto: proto, Chunk: c, files: fs.tls})
		}
	}
	out = append(out, farSpec{Group: FarTLS, Client: ClientGoogle, Proto: "h2", Chunk: 8 << 20, files: fs.tls})
	for _, proto := range []string{"h1.1", "h2"} {
		out = append(out, farSpec{Group: FarConnect, Client: ClientCurl, Proto: proto, Chunk: -1, files: fs.tls})
		for _, c := range []int64{ChunkAuto, 8 << 20} {
			out = append(out, farSpec{Group: FarConnect, Client: ClientHoist, Proto: proto, Chunk: c, files: fs.tls})
		}
	}
	for _, proto := range []string{"h2", "h1.1"} {
		out = append(out,
			farSpec{Group: FarWide, Client: ClientCurl, Proto: proto, Chunk: -1, Delay: z.WideDelay, files: fs.wide},
			farSpec{Group: FarWide, Client: ClientHoist, Proto: proto, Chunk: ChunkAuto, Delay: z.WideDelay, files: fs.wide})
	}
	if z.CutEvery > 0 && len(z.Latencies) > 0 {
		out = append(out, farSpec{Group: FarCut, Client: ClientHoist, Chunk: ChunkAuto, Latency: z.Latencies[len(z.Latencies)-1], Cut: z.CutEvery, files: fs.sweep})
	}
	out = append(out,
		farSpec{Group: FarSlow, Client: ClientHoist, Chunk: ChunkAuto, BPS: z.SlowBPS, files: fs.slow},
		farSpec{Group: FarFair, Client: ClientHoist, Chunk: ChunkAuto, BPS: z.FairBPS, files: fs.fair})
	if e.cfg.Only != "" {
		out = slices.DeleteFunc(out, func(s farSpec) bool { return !strings.Contains(s.key(), e.cfg.Only) })
	}
	return out
}

// measureFar runs the far cases, interleaved run by run like the other groups.
func (e *env) measureFar(ctx context.Context) ([]*FarResult, error) {
	z := e.cfg.Far
	dir := filepath.Join(e.work, "files")
	var fs farSets
	fs.sweep, fs.tls, fs.wide = planFiles(dir, "far-sweep", 1, z.Sweep), planFiles(dir, "far-tls", 1, z.TLSBig), planFiles(dir, "far-wide", 1, z.Wide)
	fs.slow, fs.fair = planFiles(dir, "far-slow", 1, z.Slow), planFiles(dir, "far-fair", z.FairCount, z.Fair)
	specs := e.farGroups(fs)
	if len(specs) == 0 {
		return nil, nil
	}
	for _, s := range specs { // only the files of the cases that run
		if err := s.files.make(); err != nil {
			return nil, err
		}
	}
	e.logf("Measuring far and slow links: %d cases…", len(specs))
	results := make([]*FarResult, len(specs))
	for i, s := range specs {
		results[i] = &FarResult{Key: s.key(), Group: s.Group, Client: s.Client, Proto: s.Proto, Chunk: s.Chunk,
			Latency: s.Latency, Delay: s.Delay, BPS: s.BPS, Files: len(s.files.Files), Bytes: s.files.Bytes}
	}
	// At most 3 runs: the far cases wait on their links, and the whole of
	// make bench must stay within 15 minutes.
	for run := range min(e.cfg.Runs, 3) {
		for i, s := range specs {
			if (s.Group == FarSlow || s.Group == FarFair) && run >= max(z.SlowRuns, 1) {
				continue // a minute each: fewer runs
			}
			if ctx.Err() != nil {
				return results, ctx.Err()
			}
			r, err := e.runFar(ctx, s)
			if err != nil {
				return results, fmt.Errorf("%s: %w", s.key(), err)
			}
			results[i].Runs = append(results[i].Runs, r)
			e.logf("  run %d %-48s %7.2f s %8.1f MiB/s  %s", run+1, s.key(), r.Seconds, float64(s.files.Bytes)/(1<<20)/r.Seconds, status(r.Error))
		}
	}
	for _, r := range results {
		r.summarise()
	}
	return results, nil
}

// runFar runs one far case once.
func (e *env) runFar(ctx context.Context, s farSpec) (FarRun, error) {
	srv, proxy := e.servers["hash"], e.proxy
	if s.Proto != "" {
		srv, proxy = e.servers["tls"], e.tlsProxy
	}
	base := srv.URL
	if s.Group == FarConnect {
		_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "https://"), ":")
		base = "https://" + officeHost + ":" + port
		e.office.resetCounts()
	}
	if s.Latency > 0 || s.Delay > 0 || s.BPS > 0 || s.Group == FarSweep {
		proxy.set(s.Cut, s.Latency)
		proxy.setLink(s.BPS, s.Delay)
		defer func() {
			proxy.set(0, 0)
			proxy.setLink(0, 0)
		}()
		scheme, _, _ := strings.Cut(srv.URL, "://")
		base = scheme + "://" + strings.TrimPrefix(strings.TrimPrefix(proxy.URL, "http://"), "https://")
	}
	if err := srv.clear(ctx); err != nil {
		return FarRun{}, err
	}
	cmds, home, err := e.farCommands(ctx, s, base)
	if home != "" {
		defer os.RemoveAll(home)
	}
	if err != nil {
		return FarRun{}, err
	}
	r, start, err := runTimed(cmds, s)
	if err != nil {
		return r, err
	}
	reqs, err := srv.requests(ctx)
	if err != nil {
		return r, err
	}
	a := analyse(reqs, s.files.Bytes)
	r.Requests, r.Cuts, r.Resent, r.Unconfirmed = a.requests, a.cuts, a.resent, a.unconfirmed
	if s.Cut > 0 {
		r.Waits = proxy.stats().Waits.Seconds()
	}
	if s.Group == FarConnect {
		r.Tunnels = e.office.Connects()
	}
	objs, err := srv.newObjects(ctx)
	if err != nil {
		return r, err
	}
	for _, o := range objs {
		r.FileSeconds = append(r.FileSeconds, o.Created.Sub(start).Seconds())
	}
	if r.Error == "" {
		if err := verify(s.files, objs); err != nil {
			r.Error = err.Error()
		}
	}
	return r, srv.forgetBytes()
}

// farCommands are the processes of one far-link run: curl's (a shell a
// file), Google's client or hoist send, with the home hoist send keeps its
// list in.
func (e *env) farCommands(ctx context.Context, s farSpec, base string) (cmds []*exec.Cmd, home string, err error) {
	upload := base + "/upload/sandbox/v1/files"
	switch s.Client {
	case ClientCurl:
		// curl starts its own session inside the timed run, as hoist send
		// does: one request for the session, then one PUT with the file.
		for _, f := range s.files.Files {
			proto := "--http2"
			if s.Proto == "h1.1" {
				proto = "--http1.1"
			}
			opts := []string{proto, "--cacert", e.caFile}
			if s.Group == FarConnect {
				opts = append(opts, "--proxy", e.office.URL)
			}
			cmds = append(cmds, exec.CommandContext(ctx, "sh", curlArgs(f.Size, base, f.Path, opts...)...))
		}
	case ClientGoogle:
		cmds = append(cmds, exec.CommandContext(ctx, e.bins["googleupload"], "-endpoint", base, "-ca", e.caFile,
			"-chunk", fmt.Sprint(s.Chunk), "-parallel", "1", target(s.toSpec())))
	case ClientHoist:
		e.runSeq++
		home = filepath.Join(e.work, fmt.Sprintf("home-far-%d", e.runSeq))
		chunk := sizeArg(s.Chunk)
		if s.Chunk == ChunkAuto {
			chunk = "auto"
		}
		cmd := exec.CommandContext(ctx, e.bins["hoist"], "send", "--to", upload, "--method", "resumable", "--chunk-size", chunk,
			"--parallel", fmt.Sprint(len(s.files.Files)), "--no-auth", "--json", target(s.toSpec()))
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
		if s.Proto != "" {
			cmd.Env = append(cmd.Env, "HOIST_CA_FILE="+e.caFile)
		}
		if s.Group == FarConnect { // as an office sets it; nothing else names a proxy
			cmd.Env = append(cmd.Env, "HTTPS_PROXY="+e.office.URL, "https_proxy="+e.office.URL, "NO_PROXY=", "no_proxy=")
		}
		if s.Proto == "h2" {
			cmd.Args = append(cmd.Args[:2], append([]string{"--http2"}, cmd.Args[2:]...)...)
		}
		cmds = append(cmds, cmd)
	default:
		return nil, "", fmt.Errorf("unknown client %q", s.Client)
	}
	return cmds, home, nil
}

// runTimed runs the commands side by side and times them, with the time
// left hoist send showed when a tenth of the bytes had gone.
func runTimed(cmds []*exec.Cmd, s farSpec) (r FarRun, start time.Time, err error) {
	eta := make(chan [2]float64, 1) // time since start when 10% was sent, and the time left shown then
	start = time.Now()
	errs := make(chan error, len(cmds))
	for i, cmd := range cmds {
		var out io.Reader
		tail := &tailBuffer{max: 2048}
		cmd.Stderr = tail
		if i == 0 && s.Client == ClientHoist {
			pr, err := cmd.StdoutPipe()
			if err != nil {
				return r, start, err
			}
			out = pr
		} else {
			cmd.Stdout = tail
		}
		if err := cmd.Start(); err != nil {
			return r, start, err
		}
		if out != nil {
			go watchETA(out, s.files.Bytes, start, eta)
		}
		go func() {
			err := cmd.Wait()
			if err != nil {
				err = fmt.Errorf("%s: %w: %s", filepath.Base(cmd.Path), err, tail.String())
			}
			errs <- err
		}()
	}
	for range cmds {
		if err := <-errs; err != nil && r.Error == "" {
			r.Error = redact(err.Error())
		}
	}
	r.Seconds = time.Since(start).Seconds()
	select {
	case v := <-eta:
		r.ETAAt10, r.RestAt10 = v[1], r.Seconds-v[0]
	default:
	}
	return r, start, nil
}

func (s farSpec) toSpec() spec { return spec{files: s.files} }

// watchETA reads hoist send --json and reports, once the bytes sent pass
// 10% of total, when that was and the time left it showed.
func watchETA(r io.Reader, total int64, start time.Time, out chan<- [2]float64) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var sent int64
	seen := map[string]int64{}
	reported := false
	for sc.Scan() {
		var j struct {
			ID   string  `json:"id"`
			Sent int64   `json:"sent"`
			Left float64 `json:"secondsLeft"`
		}
		if json.Unmarshal(sc.Bytes(), &j) != nil {
			continue
		}
		sent += j.Sent - seen[j.ID]
		seen[j.ID] = j.Sent
		if !reported && sent*10 >= total && j.Left > 0 {
			reported = true
			out <- [2]float64{time.Since(start).Seconds(), j.Left}
		}
	}
}

// farFind returns the far case with this key, or nil.
func (r *Report) farFind(key string) *FarResult {
	for _, f := range r.Far {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// evaluateFar checks the far and slow links' targets.
func evaluateFar(r *Report) []Target {
	var ts []Target
	ts = append(ts, farLatencyTargets(r)...)
	ts = append(ts, farSpeedTargets(r)...)
	ts = append(ts, farConnectTargets(r)...)
	ts = append(ts, farSlowTargets(r)...)
	return append(ts, farFairTarget(r))
}

// missingTarget is t not measured.
func missingTarget(t Target) Target {
	t.Missing, t.Measured = true, "not measured (not run, or every run failed)"
	return t
}

// farLatencyTargets: automatic chunks against one request at the largest
// latency, and through cuts at that latency.
func farLatencyTargets(r *Report) []Target {
	z := r.FarSizes
	var ts []Target
	if len(z.Latencies) > 0 {
		lat := z.Latencies[len(z.Latencies)-1]
		auto := r.farFind(farSpec{Group: FarSweep, Client: ClientHoist, Chunk: ChunkAuto, Latency: lat}.key())
		whole := r.farFind(farSpec{Group: FarSweep, Client: ClientHoist, Chunk: 0, Latency: lat}.key())
		t := Target{Name: fmt.Sprintf("%s through %s per request: auto chunks ≤ 1.15 × the one-request time", size(z.Sweep), lat), Limit: 1.15}
		if auto.ok() && whole.ok() {
			t.Value = auto.Seconds.Median / whole.Seconds.Median
			t.Holds = t.Value <= t.Limit
			t.Measured = fmt.Sprintf("%.2f× (%.2f s vs %.2f s)", t.Value, auto.Seconds.Median, whole.Seconds.Median)
		} else {
			t = missingTarget(t)
		}
		ts = append(ts, t)
	}
	if len(z.Latencies) > 0 {
		lat := z.Latencies[len(z.Latencies)-1]
		cut := r.farFind(farSpec{Group: FarCut, Client: ClientHoist, Chunk: ChunkAuto, Latency: lat}.key())
		free := r.farFind(farSpec{Group: FarSweep, Client: ClientHoist, Chunk: ChunkAuto, Latency: lat}.key())
		what := fmt.Sprintf("%s through cuts every %s and %s per request, auto chunks", size(z.Sweep), size(z.CutEvery), lat)
		t := Target{Name: what + ": re-sends ≤ the bytes the server had not confirmed", Limit: 1}
		t2 := Target{Name: what + ": time beyond the waits ≤ 1.1 × (fault-free time + two round trips per cut)", Limit: 1.1}
		if cut.ok() && free.ok() {
			var rs resends
			var beyond []float64
			for _, run := range cut.Runs {
				if run.Error != "" {
					continue
				}
				rs.add(run.Resent, run.Unconfirmed)
				beyond = append(beyond, run.Seconds-run.Waits)
			}
			t = rs.target(t, cut.Runs[0].Cuts)
			b := statOf(beyond)
			// A cut costs at least a status query and one request more than
			// planned: two round trips (one per request at this latency).
			allowed := free.Seconds.Median + 2*lat.Seconds()*float64(cut.Runs[0].Cuts)
			t2.Value = b.Median / allowed
			t2.Holds = t2.Value <= t2.Limit
			t2.Measured = fmt.Sprintf("%.2f s beyond the waits = %.2f× (the fault-free %.2f s + 2 × %s × %d cuts = %.2f s; %d requests against %d)",
				b.Median, t2.Value, free.Seconds.Median, lat, cut.Runs[0].Cuts, allowed, cut.Runs[0].Requests, free.Runs[0].Requests)
		} else {
			t, t2 = missingTarget(t), missingTarget(t2)
		}
		ts = append(ts, t, t2)
	}
	return ts
}

// farSpeedTargets: hoist send against curl over a far link and over TLS.
func farSpeedTargets(r *Report) []Target {
	z := r.FarSizes
	var ts []Target
	for _, proto := range []string{"h1.1", "h2"} {
		curl := r.farFind(farSpec{Group: FarWide, Client: ClientCurl, Proto: proto, Chunk: -1}.key())
		h := r.farFind(farSpec{Group: FarWide, Client: ClientHoist, Proto: proto, Chunk: ChunkAuto}.key())
		t := Target{Name: fmt.Sprintf("%s over a far link (%s each way), %s: hoist send ≥ 0.9 × curl --%s, each starting its own session", size(z.Wide), z.WideDelay, protoName(proto), curlProto(proto)), Limit: 0.9}
		if h.ok() && curl.ok() {
			t.Value = h.MiBps.Median / curl.MiBps.Median
			t.Holds = t.Value >= t.Limit
			t.Measured = fmt.Sprintf("%.2f× (%.1f vs %.1f MiB/s)", t.Value, h.MiBps.Median, curl.MiBps.Median)
		} else {
			t = missingTarget(t)
		}
		ts = append(ts, t)
	}
	ts = append(ts, curlRatioTargets(r, FarTLS, []string{"h2", "h1.1"}, []int64{8 << 20, ChunkAuto}, func(proto string, c int64) string {
		return fmt.Sprintf("%s over TLS, %s, %s chunks: hoist send ≥ 0.9 × curl --%s", size(z.TLSBig), protoName(proto), farChunk(c), curlProto(proto))
	})...)
	return ts
}

// curlRatioTargets: hoist send at least 0.9 × curl in group, for each
// protocol and hoist's chunk size, curl's run of the same protocol the
// reference.
func curlRatioTargets(r *Report, group string, protos []string, chunks []int64, name func(proto string, chunk int64) string) []Target {
	var ts []Target
	for _, proto := range protos {
		curl := r.farFind(farSpec{Group: group, Client: ClientCurl, Proto: proto, Chunk: -1}.key())
		for _, c := range chunks {
			h := r.farFind(farSpec{Group: group, Client: ClientHoist, Proto: proto, Chunk: c}.key())
			t := Target{Name: name(proto, c), Limit: 0.9}
			if h.ok() && curl.ok() {
				t.Value = h.MiBps.Median / curl.MiBps.Median
				t.Holds = t.Value >= t.Limit
				t.Measured = fmt.Sprintf("%.2f× (%.0f vs %.0f MiB/s)", t.Value, h.MiBps.Median, curl.MiBps.Median)
			} else {
				t = missingTarget(t)
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// farConnectTargets: hoist send against curl through the same office proxy
// (CONNECT), each with its TLS inside the tunnel.
func farConnectTargets(r *Report) []Target {
	z := r.FarSizes
	return curlRatioTargets(r, FarConnect, []string{"h1.1", "h2"}, []int64{ChunkAuto, 8 << 20}, func(proto string, c int64) string {
		return fmt.Sprintf("%s over TLS through a CONNECT proxy, %s, %s chunks: hoist send ≥ 0.9 × curl --%s through the same proxy", size(z.TLSBig), protoName(proto), farChunk(c), curlProto(proto))
	})
}

// farSlowTargets: a slow link's time, and the time left shown after 10%.
func farSlowTargets(r *Report) []Target {
	z := r.FarSizes
	var ts []Target
	slow := r.farFind(farSpec{Group: FarSlow, Client: ClientHoist, Chunk: ChunkAuto}.key())
	ideal := float64(z.Slow) / float64(max(z.SlowBPS, 1))
	t := Target{Name: fmt.Sprintf("%s over a %s/s link: finishes ≤ 1.05 × %.1f s", size(z.Slow), size(z.SlowBPS), ideal), Limit: 1.05}
	if slow.ok() {
		t.Value = slow.Seconds.Median / ideal
		t.Holds = t.Value <= t.Limit
		t.Measured = fmt.Sprintf("%.2f× (%.1f s)", t.Value, slow.Seconds.Median)
	} else {
		t = missingTarget(t)
	}
	ts = append(ts, t)
	t = Target{Name: fmt.Sprintf("%s over a %s/s link: the time left shown after 10%% is within ±15%% of the truth", size(z.Slow), size(z.SlowBPS)), Limit: 0.15}
	if slow.ok() && slow.Runs[0].RestAt10 > 0 && slow.Runs[0].ETAAt10 > 0 {
		worst := 0.0
		var shown []string
		for _, run := range slow.Runs {
			if run.RestAt10 > 0 {
				worst = max(worst, abs(run.ETAAt10/run.RestAt10-1))
				shown = append(shown, fmt.Sprintf("%.1f s shown, %.1f s taken", run.ETAAt10, run.RestAt10))
			}
		}
		t.Value, t.Holds = worst, worst <= t.Limit
		t.Measured = fmt.Sprintf("%+.0f%% at worst (%s)", 100*worst, strings.Join(shown, "; "))
	} else {
		t = missingTarget(t)
	}
	ts = append(ts, t)
	return ts
}

// farFairTarget: uploads at once share one link fairly.
func farFairTarget(r *Report) Target {
	z := r.FarSizes
	fair := r.farFind(farSpec{Group: FarFair, Client: ClientHoist, Chunk: ChunkAuto}.key())
	t := Target{Name: fmt.Sprintf("%d uploads at once over one %s/s link: each within ±20%% of a fair share, together ≥ 90%%", z.FairCount, size(z.FairBPS)), Limit: 0.2}
	if fair.ok() {
		t.Holds = true
		var parts []string
		for _, run := range fair.Runs {
			if run.Error != "" || len(run.FileSeconds) == 0 {
				continue
			}
			share := float64(z.FairBPS) / float64(z.FairCount)
			worst := 0.0
			for _, secs := range run.FileSeconds {
				worst = max(worst, abs(float64(z.Fair)/secs/share-1))
			}
			use := float64(fair.Bytes) / run.Seconds / float64(z.FairBPS)
			t.Value = max(t.Value, worst)
			if worst > 0.2 || use < 0.9 {
				t.Holds = false
			}
			parts = append(parts, fmt.Sprintf("worst file %+.0f%% off its share, link used %.0f%%", 100*worst, 100*use))
		}
		t.Measured = strings.Join(parts, "; ")
	} else {
		t = missingTarget(t)
	}
	return t
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func protoName(p string) string {
	switch p {
	case "h2":
		return "HTTP/2"
	case "h1.1":
		return "HTTP/1.1"
	}
	return "HTTP/1.1, no TLS"
}

func curlProto(p string) string {
	if p == "h2" {
		return "http2"
	}
	return "http1.1"
}

// farMarkdown writes the far and slow links' table.
func (r *Report) farMarkdown(w io.Writer) {
	if len(r.Far) == 0 {
		return
	}
	z := r.FarSizes
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\n## Far and slow links\n\n")
	p("The same proxy, now also a link: *latency* holds every request before passing it on (a round trip per request), *delay* holds every write %s in each direction without holding the writes behind it (a far link: %s round trip, where flow-control windows matter), *bandwidth* paces the bytes from clients to the server, shared first come first served by every connection. ", z.WideDelay, 2*z.WideDelay)
	p("TLS cases run against the emulator serving HTTPS with a certificate made at its start (HTTP/2 and HTTP/1.1 offered; hoist send trusts it through HOIST_CA_FILE, curl through --cacert); hoist send speaks HTTP/2 there when given --http2, HTTP/1.1 otherwise (its default). Chunk *auto* is hoist send's default. ")
	p("The *connect* cases go through an office proxy on loopback that opens a tunnel (CONNECT) and copies bytes both ways, to a host name only the proxy resolves; hoist send is given it as HTTPS_PROXY, curl as --proxy, and each client's TLS runs inside the tunnel; *tunnels* is how many CONNECTs the proxy answered in a run (curl's session start and its PUT are two processes, so two).\n\n")
	p("![Throughput against latency by chunk policy](bench-latency.png)\n\n")
	p("| Case | Client | Protocol | Chunk | Link | Size | Time s | MiB/s | Requests |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range r.Far {
		link := []string{}
		if f.Latency > 0 {
			link = append(link, f.Latency.String()+" per request")
		}
		if f.Delay > 0 {
			link = append(link, f.Delay.String()+" per packet each way")
		}
		if f.BPS > 0 {
			link = append(link, size(f.BPS)+"/s")
		}
		if f.Group == FarCut {
			link = append(link, "cut every "+size(z.CutEvery))
		}
		if f.Group == FarConnect {
			link = append(link, "CONNECT proxy, tunnels: "+tunnels(f))
		}
		if len(link) == 0 {
			link = append(link, "loopback")
		}
		reqs := "—"
		if len(f.Runs) > 0 {
			reqs = fmt.Sprint(f.Runs[0].Requests)
		}
		name := map[string]string{ClientCurl: "curl, one PUT", ClientHoist: "hoist send", ClientGoogle: "Google's Go client"}[f.Client]
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f.Group, name, protoName(f.Proto), farChunk(f.Chunk), strings.Join(link, ", "),
			fmt.Sprintf("%d × %s", f.Files, size(f.Bytes/int64(max(f.Files, 1)))), st(f.Seconds, 2), st(f.MiBps, 0), reqs)
		for _, run := range f.Runs {
			if run.Error != "" {
				p("| ↳ failed: %s |||||||||\n", strings.ReplaceAll(firstLine(run.Error), "|", "/"))
				break
			}
		}
	}
}

// tunnels is the CONNECTs of a case's runs: one figure, or the range.
func tunnels(f *FarResult) string {
	var lo, hi int64 = -1, -1
	for _, r := range f.Runs {
		if r.Error != "" {
			continue
		}
		if lo < 0 || r.Tunnels < lo {
			lo = r.Tunnels
		}
		hi = max(hi, r.Tunnels)
	}
	switch {
	case lo < 0:
		return "—"
	case lo == hi:
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

// drawLatencyChart draws throughput against per-request latency, one line per chunk policy.
func (r *Report) drawLatencyChart(dir string) error {
	z := r.FarSizes
	if len(z.Latencies) == 0 || len(r.Far) == 0 {
		return nil
	}
	ticks := make([]plot.Tick, len(z.Latencies))
	for i, l := range z.Latencies {
		ticks[i] = plot.Tick{Value: float64(i), Label: l.String()}
	}
	p := newChart(fmt.Sprintf("hoist send, %s through per-request latency", size(z.Sweep)), "latency per request", "MiB/s", ticks)
	colors := []color.Color{color.RGBA{R: 0xdb, G: 0x44, B: 0x37, A: 0xff}, color.RGBA{R: 0x1a, G: 0x73, B: 0xe8, A: 0xff}, color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}}
	for ci, c := range z.SweepChunk {
		var pts errPoints
		for i, l := range z.Latencies {
			f := r.farFind(farSpec{Group: FarSweep, Client: ClientHoist, Chunk: c, Latency: l}.key())
			if !f.ok() {
				continue
			}
			pts.XYs = append(pts.XYs, struct{ X, Y float64 }{float64(i), f.MiBps.Median})
			pts.YErrors = append(pts.YErrors, struct{ Low, High float64 }{f.MiBps.Median - f.MiBps.Min, f.MiBps.Max - f.MiBps.Median})
		}
		if err := addSeries(p, "chunks: "+farChunk(c), colors[ci%len(colors)], pts); err != nil {
			return err
		}
	}
	return p.Save(16*vg.Centimeter, 10*vg.Centimeter, filepath.Join(dir, "bench-latency.png"))
}

// curlSession starts a resumable session with curl and sends the file in
// one PUT to the address it answers ($1 curl, $2 the file's size, $3 where
// sessions start, $4 the file, then curl's own options for both requests):
// both requests count in the time measured, as hoist send's do.
const curlSession = `set -e
curl=$1 size=$2 start=$3 file=$4
shift 4
loc=$("$curl" -sS --fail -o /dev/null -D - -X POST "$@" -H "Content-Length: 0" \
	-H "X-Upload-Content-Length: $size" -H "X-Upload-Content-Type: application/octet-stream" "$start" |
	tr -d '\r' | sed -n 's/^[Ll]ocation: *//p' | tail -n 1)
[ -n "$loc" ] || { echo "the session start gave no Location" >&2; exit 1; }
exec "$curl" -sS --fail -o /dev/null -X PUT -T "$file" "$@" -H "Expect:" \
	-H "Content-Type: application/octet-stream" "$loc"
`

// curlArgs are the arguments of sh that run curlSession for one file.
func curlArgs(size int64, base, file string, opts ...string) []string {
	return append([]string{"-c", curlSession, "curl-session", curlPath(), fmt.Sprint(size),
		base + "/upload/sandbox/v1/files?uploadType=resumable", file}, opts...)
}
