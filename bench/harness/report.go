package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Report is everything one benchmark run measured.
type Report struct {
	Started  time.Time     `json:"started"`
	Finished time.Time     `json:"finished"`
	Seconds  float64       `json:"seconds"`
	Runs     int           `json:"runs"`
	Sizes    Sizes         `json:"sizes"`
	Machine  Machine       `json:"machine"`
	Targets  []Target      `json:"targets"`
	Cases    []*CaseResult `json:"cases"`
	FarSizes FarSizes      `json:"farSizes"`
	Far      []*FarResult  `json:"far,omitempty"`
	// Previous is the run before this one, when its results were kept.
	Previous *Report `json:"-"`
}

// Target is one acceptance target, evaluated on this run's medians.
type Target struct {
	Name     string  `json:"name"`
	Measured string  `json:"measured"`
	Value    float64 `json:"value"`
	Limit    float64 `json:"limit"`
	Holds    bool    `json:"holds"`
	Missing  bool    `json:"missing,omitempty"` // a case it needs has no figures
}

// otherWork is the share of the CPUs other processes used, over every run.
func (r *Report) otherWork() Stat {
	var v []float64
	for _, c := range r.Cases {
		for _, run := range c.Runs {
			v = append(v, run.OtherCPUShare)
		}
	}
	return statOf(v)
}

// find returns the case with these properties, or nil.
func (r *Report) find(work, store, net, client string, chunk int64, parallel int) *CaseResult {
	for _, c := range r.Cases {
		if c.Workload == work && c.Store == store && c.Net == net && c.Client == client && c.Chunk == chunk && c.Parallel == parallel {
			return c
		}
	}
	return nil
}

func size(n int64) string {
	if n <= 0 {
		return "0"
	}
	return chunkLabel(n)
}

// evaluate checks the targets on the report's figures.
func evaluate(r *Report) []Target {
	ts := &targets{}
	ts.speed(r)
	ts.memory(r)
	ts.smallFiles(r)
	ts.faults(r)
	ts.cpu(r)
	if len(r.Far) > 0 {
		ts.list = append(ts.list, evaluateFar(r)...)
	}
	return ts.list
}

// targets are the targets evaluated so far, in the order the page lists them.
type targets struct{ list []Target }

func (ts *targets) add(t Target) { ts.list = append(ts.list, t) }

// ratio is the target "a ≥ limit × b" (or ≤, atMost) of what get reads.
func (ts *targets) ratio(name string, a, b *CaseResult, get func(*CaseResult) float64, limit float64, atMost bool) {
	t := Target{Name: name, Limit: limit}
	if !a.ok() || !b.ok() || get(b) == 0 {
		t.Missing = true
		t.Measured = "not measured (not run, or every run failed)"
		ts.add(t)
		return
	}
	t.Value = get(a) / get(b)
	if atMost {
		t.Holds = t.Value <= limit
	} else {
		t.Holds = t.Value >= limit
	}
	t.Measured = fmt.Sprintf("%.2f× (%s vs %s)", t.Value, num(get(a)), num(get(b)))
	ts.add(t)
}

// rssMax is the target "the largest peak over every run of the cases ≤ limit MiB".
func (ts *targets) rssMax(name string, cases []*CaseResult, limit float64) {
	t := Target{Name: name, Limit: limit}
	var worst float64
	var parts []string
	for _, c := range cases {
		if !c.ok() {
			t.Missing = true
			continue
		}
		worst = max(worst, c.RSSMiB.Max)
		parts = append(parts, fmt.Sprintf("%s: %.1f", chunkLabel(c.Chunk), c.RSSMiB.Max))
	}
	t.Value = worst
	t.Holds = !t.Missing && worst <= limit
	t.Measured = fmt.Sprintf("largest %.1f MiB (%s)", worst, strings.Join(parts, ", "))
	ts.add(t)
}

func mibps(c *CaseResult) float64     { return c.MiBps.Median }
func fps(c *CaseResult) float64       { return c.FilesPerSec.Median }
func cpuPerGiB(c *CaseResult) float64 { return c.CPUPerGiB.Median }

// speed: one big file, against curl and Google's client.
func (ts *targets) speed(r *Report) {
	z := r.Sizes
	big, ref := size(z.Big), chunkLabel(z.RefChunk)
	curl := r.find(WorkBig, "hash", NetDirect, ClientCurl, -1, 1)
	for _, client := range []string{ClientHoist, ClientEngine} {
		who := "hoist send"
		if client == ClientEngine {
			who = "engine in-process"
		}
		h := r.find(WorkBig, "hash", NetDirect, client, z.RefChunk, 1)
		ts.ratio(fmt.Sprintf("%s, %s chunks: %s throughput ≥ 0.9 × curl's single PUT", big, ref, who), h, curl, mibps, 0.9, false)
		ts.ratio(fmt.Sprintf("%s, %s chunks: %s throughput ≥ 1.0 × Google's client", big, ref, who), h,
			r.find(WorkBig, "hash", NetDirect, ClientGoogle, z.RefChunk, 1), mibps, 1.0, false)
		ts.ratio(fmt.Sprintf("%s, whole file in one request: %s ≥ 0.95 × curl", big, who),
			r.find(WorkBig, "hash", NetDirect, client, 0, 1), curl, mibps, 0.95, false)
	}
}

// memory: the largest peak over every run at every chunk size.
func (ts *targets) memory(r *Report) {
	z := r.Sizes
	big := size(z.Big)
	var bigHoist, parHoist []*CaseResult
	for _, c := range z.Chunks {
		bigHoist = append(bigHoist, r.find(WorkBig, "hash", NetDirect, ClientHoist, c, 1))
	}
	for _, c := range []int64{z.RefChunk, 0} {
		parHoist = append(parHoist, r.find(WorkParallel, "hash", NetDirect, ClientHoist, c, z.ParCount))
	}
	ts.rssMax(fmt.Sprintf("Peak RSS of hoist send, %s file, any chunk size ≤ 40 MiB", big), bigHoist, 40)
	ts.rssMax(fmt.Sprintf("Peak RSS of hoist send, %d × %s at once ≤ 64 MiB", z.ParCount, size(z.Par)), parHoist, 64)
}

// smallFiles: many small files, against Google's client one after another.
func (ts *targets) smallFiles(r *Report) {
	z := r.Sizes
	small := fmt.Sprintf("%d × %s", z.SmallCount, size(z.Small))
	gSmall := r.find(WorkSmall, "hash", NetDirect, ClientGoogle, z.RefChunk, 1)
	hSmall := r.find(WorkSmall, "hash", NetDirect, ClientHoist, z.RefChunk, 4)
	ts.ratio(fmt.Sprintf("%s files: hoist send files/s ≥ 3 × Google's client one after another", small), hSmall, gSmall, fps, 3, false)
	ts.ratio(fmt.Sprintf("%s files: engine in-process files/s ≥ 3 × Google's client one after another", small),
		r.find(WorkSmall, "hash", NetDirect, ClientEngine, z.RefChunk, 4), gSmall, fps, 3, false)
	{
		t := Target{Name: fmt.Sprintf("%s files: hoist send makes one request per file", small), Limit: 1}
		if hSmall.ok() {
			t.Value = hSmall.Requests.Max / float64(hSmall.Files)
			t.Holds = t.Value <= 1
			t.Measured = fmt.Sprintf("%.0f requests for %d files (most in a run)", hSmall.Requests.Max, hSmall.Files)
		} else {
			t.Missing, t.Measured = true, "not measured (not run, or every run failed)"
		}
		ts.add(t)
	}
}

// faults: one file through cuts, with and without latency.
func (ts *targets) faults(r *Report) {
	z := r.Sizes
	for _, pair := range [][2]string{{NetCut, NetProxy}, {NetCutLatency, NetLatency}} {
		cut := r.find(WorkFault, "hash", pair[0], ClientHoist, z.RefChunk, 1)
		free := r.find(WorkFault, "hash", pair[1], ClientHoist, z.RefChunk, 1)
		what := fmt.Sprintf("%s through cuts every %s", size(z.Fault), size(z.CutEvery))
		if pair[0] == NetCutLatency {
			what += fmt.Sprintf(" and %s per request", z.Latency)
		}
		t := Target{Name: what + ": hoist send re-sends ≤ the bytes the server had not confirmed", Limit: 1}
		if cut.ok() {
			var rs resends
			for _, run := range cut.Runs {
				if run.Error == "" {
					rs.add(run.ResentBytes, run.UnconfirmedBytes)
				}
			}
			t = rs.target(t, int(math.Round(cut.Cuts.Median)))
		} else {
			t.Missing, t.Measured = true, "not measured (not run, or every run failed)"
		}
		ts.add(t)

		t = Target{Name: what + ": hoist send finishes ≤ 1.2 × fault-free time + backoff waits", Limit: 1.2}
		if cut.ok() && free.ok() {
			t.Value = cut.BeyondWaits.Median / free.Seconds.Median
			t.Holds = t.Value <= 1.2
			t.Measured = fmt.Sprintf("%.2f s − %.2f s of waits = %.2f× the fault-free %.2f s", cut.Seconds.Median, cut.WaitSeconds.Median, t.Value, free.Seconds.Median)
		} else {
			t.Missing, t.Measured = true, "not measured (not run, or every run failed)"
		}
		ts.add(t)
	}
}

// cpu: CPU per GiB against curl's.
func (ts *targets) cpu(r *Report) {
	z := r.Sizes
	big, ref := size(z.Big), chunkLabel(z.RefChunk)
	curl := r.find(WorkBig, "hash", NetDirect, ClientCurl, -1, 1)
	ts.ratio(fmt.Sprintf("%s, %s chunks: hoist send CPU per GiB ≤ 1.5 × curl's", big, ref),
		r.find(WorkBig, "hash", NetDirect, ClientHoist, z.RefChunk, 1), curl, cpuPerGiB, 1.5, true)
	ts.ratio(fmt.Sprintf("%s, whole file: hoist send CPU per GiB ≤ 1.5 × curl's", big),
		r.find(WorkBig, "hash", NetDirect, ClientHoist, 0, 1), curl, cpuPerGiB, 1.5, true)
}

// resends totals, over the runs that succeeded, the bytes sent again and
// the bytes the server had not confirmed at the cuts.
type resends struct {
	resent, unconfirmed int64
	runs                int
	over                bool // some run re-sent more than it had not confirmed
}

func (s *resends) add(resent, unconfirmed int64) {
	s.resent += resent
	s.unconfirmed += unconfirmed
	s.runs++
	s.over = s.over || resent > unconfirmed
}

// target fills in "re-sends ≤ the bytes the server had not confirmed":
// it holds when it holds in every run.
func (s resends) target(t Target, cuts int) Target {
	t.Holds = !s.over
	t.Value = float64(s.resent) / float64(max(s.unconfirmed, 1))
	t.Measured = fmt.Sprintf("re-sent %s, not confirmed %s over %d runs, %d cuts a run", mib(s.resent), mib(s.unconfirmed), s.runs, cuts)
	return t
}

// num shows a figure with the digits that matter.
func num(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// ReadReport loads a report written by an earlier run, its targets evaluated again.
func ReadReport(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Targets = evaluate(&r)
	return &r, nil
}

// WriteDocs regenerates benchmarks.md (keeping the notes below Marker) and the charts in dir.
func (r *Report) WriteDocs(dir string) error {
	return errors.Join(os.MkdirAll(dir, 0o755), r.writeMarkdown(filepath.Join(dir, "benchmarks.md")), r.drawCharts(dir))
}

func mib(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }

// write saves the JSON, the Markdown and the charts where the config says.
func (r *Report) write(cfg Config, started time.Time) error {
	var errs []error
	if cfg.ResultsDir != "" {
		b, err := json.MarshalIndent(r, "", "  ")
		if err == nil {
			err = os.MkdirAll(cfg.ResultsDir, 0o755)
		}
		if err == nil {
			name := started.UTC().Format("20060102-150405") + ".json"
			err = os.WriteFile(filepath.Join(cfg.ResultsDir, name), b, 0o644)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(cfg.ResultsDir, "latest.json"), b, 0o644)
		}
		errs = append(errs, err)
	}
	if cfg.DocsDir != "" {
		errs = append(errs, r.WriteDocs(cfg.DocsDir))
	}
	return errors.Join(errs...)
}

// Marker divides the generated part of benchmarks.md from the notes written
// by hand below it, which a new run keeps.
const Marker = "<!-- Everything below this line is written by hand and kept when make bench runs again. -->"

const defaultNotes = `

## What we found

Nothing written yet.
`

func (r *Report) writeMarkdown(path string) error {
	notes := defaultNotes
	if old, err := os.ReadFile(path); err == nil {
		if _, after, ok := strings.Cut(string(old), Marker); ok {
			notes = after
		}
	}
	var b strings.Builder
	r.Markdown(&b)
	b.WriteString("\n" + Marker)
	b.WriteString(notes)
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// st formats a statistic as "median (min–max)".
func st(s Stat, prec int) string {
	if s.N == 0 {
		return "—"
	}
	if s.N == 1 || s.Min == s.Max {
		return fmt.Sprintf("%.*f", prec, s.Median)
	}
	return fmt.Sprintf("%.*f (%.*f–%.*f)", prec, s.Median, prec, s.Min, prec, s.Max)
}

func ratioText(a, b float64) string {
	if a == 0 || b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

var clientNames = map[string]string{
	ClientRead:   "read (file, page cache)",
	ClientCurl:   "curl, one PUT",
	ClientGoogle: "Google's Go client",
	ClientHoist:  "hoist send",
	ClientEngine: "Hoist engine in-process",
}

// Markdown writes the generated part of benchmarks.md: the targets and a table per workload.
func (r *Report) Markdown(w io.Writer) {
	r.introMarkdown(w)
	r.targetsMarkdown(w)
	r.againstPrevious(func(format string, args ...any) { fmt.Fprintf(w, format, args...) })
	r.bigFileMarkdown(w)
	r.manyFilesMarkdown(w)
	r.parallelMarkdown(w)
	r.faultMarkdown(w)
	r.farMarkdown(w)
}

// introMarkdown is the page's head: the machine, and how the cases ran.
func (r *Report) introMarkdown(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# Benchmarks\n\n")
	p("Generated by `make bench` (`cd bench && go run ./cmd/hoistbench`) on %s; the whole run took %.0f s.\n",
		r.Started.Format("2006-01-02 15:04 UTC"), r.Seconds)
	p("Machine: %s, %d CPUs, %d GiB RAM, Linux %s, %s, %s.\n\n", r.Machine.CPU, r.Machine.CPUs, r.Machine.MemoryGiB, r.Machine.Kernel, r.Machine.Go, r.Machine.Curl)
	p("Every client runs as a process of its own against the emulator (`hoist/engine/emulator`), which runs in a process of its own too, on loopback. ")
	runs := fmt.Sprintf("%d times", r.Runs)
	if r.Runs == 1 {
		runs = "once"
	}
	var more []string
	for _, store := range []string{"hash", "crc"} {
		if c := r.find(WorkBig, store, NetDirect, ClientCurl, -1, 1); c != nil && len(c.Runs) != r.Runs {
			more = append(more, fmt.Sprintf("%d for the one-file table on the %s store", len(c.Runs), storeName(store)))
		}
	}
	if len(more) > 0 {
		runs += " (" + strings.Join(more, ", ") + ")"
	}
	p("Each case ran %s, interleaved with the other cases of its table (in another order each run); figures are medians with the range (min–max) in brackets. ", runs)
	p("Time is the client process's wall-clock time from start to exit; peak RSS, user and system CPU come from the operating system (getrusage of the child). ")
	p("curl starts its own session inside the timed run, as hoist send does (a POST for the session, then one PUT with the file; a shell runs the two). ")
	p("Every upload is checked afterwards: the emulator must hold each file with the right length and SHA-256. ")
	o := r.otherWork()
	p("Other processes on the machine used %.0f%% of the CPUs during a run (median; %.0f–%.0f%%): the more, the more the figures vary.\n\n", 100*o.Median, 100*o.Min, 100*o.Max)
	p("![Throughput by chunk size](bench-throughput.png)\n![Peak memory by chunk size](bench-memory.png)\n\n")
}

// targetsMarkdown is the table of targets and whether each holds.
func (r *Report) targetsMarkdown(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("## Targets\n\n| Target | Measured | Holds |\n|---|---|---|\n")
	for _, t := range r.Targets {
		holds := "✅ yes"
		switch {
		case t.Missing:
			holds = "❔ not measured"
		case !t.Holds:
			holds = "❌ no"
		}
		p("| %s | %s | %s |\n", t.Name, t.Measured, holds)
	}
}

// bigFileMarkdown is a table of one big file for each store.
func (r *Report) bigFileMarkdown(w io.Writer) {
	z := r.Sizes
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	for _, store := range []string{"hash", "crc", "disk"} {
		curl := r.find(WorkBig, store, NetDirect, ClientCurl, -1, 1)
		if curl == nil {
			continue
		}
		p("\n## One %s file, %s store\n\n", size(z.Big), storeName(store))
		if store == "crc" {
			p("The emulator's hash-only store computes the SHA-256 of every byte, and on this machine that bounds every client (the emulator's CPU time equals the wall time). ")
			p("This store keeps only the length and CRC32C (checked against the files' own), so that the clients, not the emulator, are the limit.\n\n")
		}
		p("| Client | Chunk | Time s | MiB/s | × curl | × Google | Peak RSS MiB | CPU s/GiB | CPU × curl | Requests | Emulator CPU s |\n")
		p("|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, c := range r.Cases {
			if c.Workload != WorkBig || c.Store != store {
				continue
			}
			var xc, xg, cc string = "—", "—", "—"
			if curl.ok() && c.ok() && c.Client != ClientCurl {
				xc = ratioText(c.MiBps.Median, curl.MiBps.Median)
				if c.Client != ClientRead {
					cc = ratioText(c.CPUPerGiB.Median, curl.CPUPerGiB.Median)
				}
			}
			if g := r.find(WorkBig, store, NetDirect, ClientGoogle, c.Chunk, 1); g.ok() && c.ok() && c.Client != ClientGoogle && c.Chunk >= 0 {
				xg = ratioText(c.MiBps.Median, g.MiBps.Median)
			}
			p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", clientNames[c.Client], chunkLabel(c.Chunk),
				st(c.Seconds, 2), st(c.MiBps, 0), xc, xg, rssText(c), st(c.CPUPerGiB, 2), cc, reqText(c), srvText(c))
			failed(w, c)
		}
	}
}

// manyFilesMarkdown is a table each of many small and middle-sized files.
func (r *Report) manyFilesMarkdown(w io.Writer) {
	z := r.Sizes
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	for _, work := range []string{WorkSmall, WorkMid} {
		count, sz := z.SmallCount, z.Small
		if work == WorkMid {
			count, sz = z.MidCount, z.Mid
		}
		g := r.find(work, "hash", NetDirect, ClientGoogle, z.RefChunk, 1)
		p("\n## %d files of %s, hash store\n\n", count, size(sz))
		p("Google's client uploads them one after another; hoist send and the engine with as many at once as Parallel says (4 is hoist send's default). Chunk size %s.\n\n", chunkLabel(z.RefChunk))
		p("| Client | Parallel | Time s | Files/s | × Google | MiB/s | Peak RSS MiB | CPU s/GiB | Requests | Emulator CPU s |\n")
		p("|---|---|---|---|---|---|---|---|---|---|\n")
		for _, c := range r.Cases {
			if c.Workload != work {
				continue
			}
			xg := "—"
			if g.ok() && c.ok() && c != g {
				xg = ratioText(c.FilesPerSec.Median, g.FilesPerSec.Median)
			}
			p("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", clientNames[c.Client], c.Parallel, st(c.Seconds, 2),
				st(c.FilesPerSec, 0), xg, st(c.MiBps, 0), rssText(c), st(c.CPUPerGiB, 2), reqText(c), srvText(c))
			failed(w, c)
		}
	}
}

// parallelMarkdown is the table of files uploaded at once.
func (r *Report) parallelMarkdown(w io.Writer) {
	z := r.Sizes
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	curl := r.find(WorkParallel, "hash", NetDirect, ClientCurl, -1, z.ParCount)
	p("\n## %d files of %s at once, hash store\n\n", z.ParCount, size(z.Par))
	p("curl runs %d processes at once (peak RSS is the largest of them, CPU their sum); the others run one process with %d uploads at once.\n\n", z.ParCount, z.ParCount)
	p("| Client | Chunk | Time s | MiB/s | × curl | Peak RSS MiB | CPU s/GiB | CPU × curl | Requests | Emulator CPU s |\n")
	p("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range r.Cases {
		if c.Workload != WorkParallel {
			continue
		}
		xc, cc := "—", "—"
		if curl.ok() && c.ok() && c != curl {
			xc = ratioText(c.MiBps.Median, curl.MiBps.Median)
			cc = ratioText(c.CPUPerGiB.Median, curl.CPUPerGiB.Median)
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", clientNames[c.Client], chunkLabel(c.Chunk), st(c.Seconds, 2),
			st(c.MiBps, 0), xc, rssText(c), st(c.CPUPerGiB, 2), cc, reqText(c), srvText(c))
		failed(w, c)
	}
}

// faultMarkdown is the table of one file through the fault proxy.
func (r *Report) faultMarkdown(w io.Writer) {
	z := r.Sizes
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("\n## One %s file through the fault proxy\n\n", size(z.Fault))
	p("A TCP proxy between client and emulator: *proxy* passes everything (the fault-free reference), *cut* closes the client's connection every time another %s has gone through it (request heads included), *latency* holds every request %s before passing it on. ", size(z.CutEvery), z.Latency)
	p("Re-sent is what the emulator received beyond the file's size (from its request log); not confirmed is, summed over the cuts, what the emulator had received of the cut request but not persisted (it keeps whole 256 KiB units). ")
	p("Waits are, summed over the cuts, the time from the cut to the client's next request: the backoff before trying again.\n\n")
	p("| Client | Network | Chunk | Time s | Fault-free s | Waits s | (Time − waits) ÷ fault-free | Cuts | Re-sent MiB | Not confirmed MiB | Requests |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, c := range r.Cases {
		if c.Workload != WorkFault {
			continue
		}
		freeNet := ""
		switch c.Net {
		case NetCut:
			freeNet = NetProxy
		case NetCutLatency:
			freeNet = NetLatency
		}
		freeT, beyond := "—", "—"
		if freeNet != "" {
			if f := r.find(WorkFault, "hash", freeNet, c.Client, c.Chunk, 1); f.ok() {
				freeT = st(f.Seconds, 2)
				if c.ok() {
					beyond = fmt.Sprintf("%.2f×", c.BeyondWaits.Median/f.Seconds.Median)
				}
			}
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", clientNames[c.Client], c.Net, chunkLabel(c.Chunk), st(c.Seconds, 2),
			freeT, st(c.WaitSeconds, 2), beyond, st(c.Cuts, 0), st(c.ResentMiB, 2), st(c.UnconfMiB, 2), reqText(c))
		failed(w, c)
	}
}

// againstPrevious compares Hoist's throughput on one big file with the
// run before: every upload now has its CRC32C computed as it is read and
// checked against the server's, which must not cost more than 5%.
func (r *Report) againstPrevious(p func(string, ...any)) {
	if r.Previous == nil {
		return
	}
	var rows []string
	for _, c := range r.Cases {
		if c.Workload != WorkBig || c.Net != NetDirect || (c.Client != ClientHoist && c.Client != ClientEngine) || !c.ok() {
			continue
		}
		before := r.Previous.find(c.Workload, c.Store, c.Net, c.Client, c.Chunk, c.Parallel)
		if !before.ok() {
			continue
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %.0f | %.0f | %s |\n", clientNames[c.Client], storeName(c.Store), chunkLabel(c.Chunk),
			before.MiBps.Median, c.MiBps.Median, ratioText(c.MiBps.Median, before.MiBps.Median)))
	}
	if len(rows) == 0 {
		return
	}
	p("\n## One 1 GiB file against the previous run (%s)\n\n", r.Previous.Started.Format("2006-01-02 15:04 UTC"))
	p("Hoist checks the server's CRC32C of every upload whose answer gives one (the emulator's does), computed as the bytes are read for sending. Medians; other work on the machine moves them too.")
	if was, is := r.Previous.Machine, r.Machine; was.CPU != is.CPU || was.CPUs != is.CPUs || was.Kernel != is.Kernel {
		p(" The previous run was made on another machine (%s, %d CPUs, Linux %s), so these ratios compare machines as well as code.", was.CPU, was.CPUs, was.Kernel)
	}
	p("\n\n")
	p("| Client | Store | Chunk | MiB/s before | MiB/s now | Now × before |\n|---|---|---|---|---|---|\n")
	for _, row := range rows {
		p("%s", row)
	}
}

func storeName(s string) string {
	switch s {
	case "disk":
		return "on-disk"
	case "crc":
		return "CRC-only"
	}
	return "hash-only"
}

func rssText(c *CaseResult) string {
	if c.Client == ClientRead {
		return "—"
	}
	return st(c.RSSMiB, 1)
}

func reqText(c *CaseResult) string {
	if c.Client == ClientRead {
		return "—"
	}
	return st(c.Requests, 0)
}

func srvText(c *CaseResult) string {
	if c.Client == ClientRead {
		return "—"
	}
	return st(c.ServerCPU, 2)
}

// failed adds a row saying how a case's runs failed.
func failed(w io.Writer, c *CaseResult) {
	if c.Failures == 0 {
		return
	}
	fmt.Fprintf(w, "| ↳ %d of %d runs failed: %s |||||||||||\n", c.Failures, len(c.Runs), strings.ReplaceAll(c.Failure, "|", "/"))
}
