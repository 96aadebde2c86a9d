package harness

import (
	"strings"
	"testing"
)

// The report shows Hoist's big-file throughput against the run before.
func TestMarkdownAgainstThePreviousRun(t *testing.T) {
	bigCase := func(mibps float64) *CaseResult {
		return &CaseResult{Workload: WorkBig, Store: "crc", Net: NetDirect, Client: ClientHoist, Chunk: 8 << 20, Parallel: 1,
			Seconds: Stat{N: 1, Median: 1}, MiBps: Stat{N: 1, Median: mibps}}
	}
	r := &Report{Cases: []*CaseResult{bigCase(950)}, Previous: &Report{Cases: []*CaseResult{bigCase(1000)}}}
	var b strings.Builder
	r.Markdown(&b)
	if want := "| hoist send | CRC-only | 8 MiB | 1000 | 950 | 0.95× |"; !strings.Contains(b.String(), want) {
		t.Errorf("the report lacks %q:\n%s", want, b.String())
	}
	if strings.Contains(b.String(), "another machine") {
		t.Error("the same machine is called another")
	}
	r.Previous.Machine = Machine{CPU: "Elsewhere CPU", CPUs: 2, Kernel: "6.1"}
	b.Reset()
	r.Markdown(&b)
	if want := "The previous run was made on another machine (Elsewhere CPU, 2 CPUs, Linux 6.1)"; !strings.Contains(b.String(), want) {
		t.Errorf("the report lacks %q:\n%s", want, b.String())
	}
	r.Previous = nil
	b.Reset()
	r.Markdown(&b)
	if strings.Contains(b.String(), "against the previous run") {
		t.Error("a first run compares with nothing")
	}
}
