// Command hoistbench measures Hoist against curl and Google's own Go client
// on a loopback emulator (`make bench`). Run it from the bench folder:
//
//	go run ./cmd/hoistbench [-runs 5] [-tiny] [-only KEY] [-hoist BINARY]
//	go run ./cmd/hoistbench -from results/latest.json   # tables and charts again, nothing measured
//
// It writes results/<time>.json and results/latest.json, regenerates the
// top of ../docs/benchmarks.md (keeping the notes below its marker), draws
// ../docs/bench-throughput.png and ../docs/bench-memory.png, and prints
// the tables with their ratios.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"hoist/bench/harness"
)

func main() {
	runs := flag.Int("runs", 5, "runs of every case")
	tiny := flag.Bool("tiny", false, "the same cases on tiny files (a quick check that everything works)")
	only := flag.String("only", "", "only the cases whose key contains this, e.g. big/hash")
	hoist := flag.String("hoist", "", "a hoist binary to measure instead of building one from ..")
	results := flag.String("results", "results", "folder of the JSON results")
	docs := flag.String("docs", "../docs", "folder of benchmarks.md and the charts; empty: do not write them")
	work := flag.String("work", "", "folder for the files and builds (default: a temporary folder, removed afterwards)")
	strict := flag.Bool("strict", false, "exit 1 when a target does not hold")
	from := flag.String("from", "", "measure nothing: draw the tables and charts again from this results file")
	flag.Parse()

	if *from != "" {
		rep, err := harness.ReadReport(*from)
		if err == nil && *docs != "" {
			err = rep.WriteDocs(*docs)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "hoistbench:", err)
			os.Exit(1)
		}
		rep.Markdown(os.Stdout)
		return
	}

	if _, err := os.Stat("cmd/hoistbench"); err != nil {
		fmt.Fprintln(os.Stderr, "hoistbench: run me from the bench folder (cd bench && go run ./cmd/hoistbench)")
		os.Exit(2)
	}
	benchDir, _ := filepath.Abs(".")
	repoDir := filepath.Dir(benchDir)
	sizes, far := harness.Full(), harness.FullFar()
	if *tiny {
		sizes, far = harness.Tiny(), harness.TinyFar()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := harness.Measure(ctx, harness.Config{
		Runs: *runs, Sizes: sizes, WorkDir: *work, RepoDir: repoDir, BenchDir: benchDir,
		ResultsDir: *results, DocsDir: *docs, HoistBin: *hoist, Only: *only, Far: far, Log: os.Stderr,
	})
	if rep != nil && len(rep.Cases) > 0 {
		fmt.Println()
		rep.Markdown(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "hoistbench:", err)
		os.Exit(1)
	}
	var missed []string
	for _, t := range rep.Targets {
		if !t.Holds {
			missed = append(missed, t.Name)
		}
	}
	fmt.Printf("\n%d of %d targets hold. Results: %s; tables and charts: %s\n", len(rep.Targets)-len(missed), len(rep.Targets),
		filepath.Join(*results, "latest.json"), filepath.Join(*docs, "benchmarks.md"))
	if len(missed) > 0 {
		fmt.Println("Not holding:\n  " + strings.Join(missed, "\n  "))
		if *strict {
			os.Exit(1)
		}
	}
}
