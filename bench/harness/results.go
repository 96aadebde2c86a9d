package harness

import (
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"hoist/engine/emulator"
)

// persistUnit is how the emulator keeps the bytes of a cut request: rounded
// down to a multiple of 256 KiB from the start of the file, as Google does.
const persistUnit = 256 << 10

// Run is one measured run of a case.
type Run struct {
	Seconds          float64 `json:"seconds"`
	UserSeconds      float64 `json:"userSeconds"`
	SystemSeconds    float64 `json:"systemSeconds"`
	MaxRSSBytes      int64   `json:"maxRSSBytes"` // peak resident set of the (largest) client process
	ServerCPUSeconds float64 `json:"serverCPUSeconds"`
	Requests         int     `json:"requests"` // requests the emulator saw under /upload/
	Cuts             int     `json:"cuts,omitempty"`
	ProxyCuts        int     `json:"proxyCuts,omitempty"`
	ResentBytes      int64   `json:"resentBytes,omitempty"`      // body bytes the emulator received beyond the files' size
	UnconfirmedBytes int64   `json:"unconfirmedBytes,omitempty"` // at the cuts: bytes received but not persisted
	WireBytes        int64   `json:"wireBytes,omitempty"`        // bytes from the client through the proxy, headers included
	WaitSeconds      float64 `json:"waitSeconds,omitempty"`      // from each cut to the client's next request
	OtherCPUShare    float64 `json:"otherCPUShare"`              // share of the CPUs other processes used during the run
	Error            string  `json:"error,omitempty"`
}

// CaseResult is a case with its runs and their summaries.
type CaseResult struct {
	Key      string `json:"key"`
	Workload string `json:"workload"`
	Store    string `json:"store"`
	Net      string `json:"net"`
	Client   string `json:"client"`
	Chunk    int64  `json:"chunk"` // -1: not chunked; 0: whole file
	Parallel int    `json:"parallel"`
	Method   string `json:"method,omitempty"`
	Files    int    `json:"files"`
	Bytes    int64  `json:"bytes"`
	Runs     []Run  `json:"runs"`

	Failures    int    `json:"failures"`
	Failure     string `json:"failure,omitempty"`
	Seconds     Stat   `json:"seconds"`
	MiBps       Stat   `json:"mibPerSecond"`
	FilesPerSec Stat   `json:"filesPerSecond"`
	RSSMiB      Stat   `json:"peakRSSMiB"`
	CPUPerGiB   Stat   `json:"cpuSecondsPerGiB"`
	ServerCPU   Stat   `json:"serverCPUSeconds"`
	OtherCPU    Stat   `json:"otherCPUShare"`
	Requests    Stat   `json:"requests"`
	ResentMiB   Stat   `json:"resentMiB"`
	UnconfMiB   Stat   `json:"unconfirmedMiB"`
	WaitSeconds Stat   `json:"waitSeconds"`
	Cuts        Stat   `json:"cuts"`
	// BeyondWaits is the time to finish less the waits after cuts.
	BeyondWaits Stat `json:"secondsBeyondWaits"`
}

func newCaseResult(s spec) *CaseResult {
	return &CaseResult{
		Key: s.key(), Workload: s.Workload, Store: s.Store, Net: s.Net, Client: s.Client,
		Chunk: s.Chunk, Parallel: s.Parallel, Method: s.Method,
		Files: len(s.files.Files), Bytes: s.files.Bytes,
	}
}

// summarise computes the medians and ranges over the runs that succeeded.
func (c *CaseResult) summarise() {
	var secs, mibps, fps, rss, cpu, srv, reqs, resent, unconf, waits, cuts, beyond, load []float64
	gib := float64(c.Bytes) / (1 << 30)
	for _, r := range c.Runs {
		if r.Error != "" {
			c.Failures++
			if c.Failure == "" {
				c.Failure = firstLine(r.Error)
			}
			continue
		}
		secs = append(secs, r.Seconds)
		mibps = append(mibps, float64(c.Bytes)/(1<<20)/r.Seconds)
		fps = append(fps, float64(c.Files)/r.Seconds)
		if r.MaxRSSBytes > 0 {
			rss = append(rss, float64(r.MaxRSSBytes)/(1<<20))
		}
		cpu = append(cpu, (r.UserSeconds+r.SystemSeconds)/gib)
		srv = append(srv, r.ServerCPUSeconds)
		reqs = append(reqs, float64(r.Requests))
		resent = append(resent, float64(r.ResentBytes)/(1<<20))
		unconf = append(unconf, float64(r.UnconfirmedBytes)/(1<<20))
		waits = append(waits, r.WaitSeconds)
		cuts = append(cuts, float64(r.Cuts))
		beyond = append(beyond, r.Seconds-r.WaitSeconds)
		load = append(load, r.OtherCPUShare)
	}
	c.Seconds, c.MiBps, c.FilesPerSec, c.RSSMiB = statOf(secs), statOf(mibps), statOf(fps), statOf(rss)
	c.CPUPerGiB, c.ServerCPU, c.Requests, c.OtherCPU = statOf(cpu), statOf(srv), statOf(reqs), statOf(load)
	c.ResentMiB, c.UnconfMiB, c.WaitSeconds, c.Cuts, c.BeyondWaits = statOf(resent), statOf(unconf), statOf(waits), statOf(cuts), statOf(beyond)
}

// ok says whether the case has figures: at least one run succeeded.
func (c *CaseResult) ok() bool { return c != nil && c.Seconds.N > 0 }

// requestFacts is what the emulator's request log says about a run.
type requestFacts struct {
	requests    int
	cuts        int   // requests carrying file bytes that got no answer
	resent      int64 // file bytes received beyond the files' size
	unconfirmed int64 // at the cuts, bytes received that the server did not persist
}

// analyse reads a run's request log. Bytes re-sent are body bytes of the
// requests that carry the file, less the files' size; at every cut the
// server persisted what it received rounded down to 256 KiB, so the bytes
// it had received but not confirmed are the rest.
func analyse(reqs []emulator.Request, fileBytes int64) requestFacts {
	var f requestFacts
	var received int64
	for _, r := range reqs {
		f.requests++
		if r.Stage != emulator.StageChunk && r.Stage != emulator.StageUpload {
			continue
		}
		received += r.BodyBytes
		if r.Status != 0 {
			continue
		}
		f.cuts++
		if r.Stage == emulator.StageUpload {
			f.unconfirmed += r.BodyBytes // a one-request upload keeps nothing of a cut body
			continue
		}
		first, ok := rangeFirst(r.ContentRange)
		if !ok {
			continue
		}
		end := first + r.BodyBytes
		persisted := max(end-end%persistUnit, first)
		f.unconfirmed += end - persisted
	}
	f.resent = max(received-fileBytes, 0)
	return f
}

// rangeFirst reads the first byte of "bytes FIRST-LAST/TOTAL".
func rangeFirst(v string) (int64, bool) {
	v, ok := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !ok {
		return 0, false
	}
	first, _, ok := strings.Cut(v, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(first, 10, 64)
	return n, err == nil
}

// verify checks that the emulator holds exactly the files of a run, byte for
// byte as far as length and SHA-256 tell (CRC32C for a store that keeps no SHA-256).
func verify(set *fileSet, objs []emulator.Object) error {
	noSHA := len(objs) > 0 && objs[0].SHA256 == ""
	key := func(size int64, sha string, crc uint32) string {
		if noSHA {
			return fmt.Sprintf("%d:%08x", size, crc)
		}
		return fmt.Sprintf("%d:%s", size, sha)
	}
	want := make([]string, 0, len(set.Files))
	for _, f := range set.Files {
		want = append(want, key(f.Size, f.SHA256, f.CRC32C))
	}
	got := make([]string, 0, len(objs))
	for _, o := range objs {
		got = append(got, key(o.Size, o.SHA256, o.CRC32C))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		return fmt.Errorf("the emulator received %d objects that do not match the %d files sent (length or checksum differ)", len(got), len(want))
	}
	return nil
}

func curlVersion() string {
	out, err := exec.Command(curlPath(), "--version").Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}
