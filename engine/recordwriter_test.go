package engine

import (
	"log/slog"
	"path/filepath"
	"testing"

	"hoist/engine/journal"
)

// A record the journal cannot take with the server's answer (not JSON) is
// written without it, and the records written with it in one batch are kept.
func TestRecordWriterKeepsADoneRecordWhoseAnswerIsNotJSON(t *testing.T) {
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var failures []error
	w := newRecordWriter(j, slog.New(slog.DiscardHandler), func(err error) { failures = append(failures, err) })
	failed := new(error)
	<-w.send(recordOp{recs: []journal.Record{
		{ID: "a", State: "done", Result: []byte("<html>"), ResultSummary: "Uploaded."},
		{ID: "b", State: "waiting"},
	}, failed: failed}, true)
	if err := w.close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if *failed != nil || len(failures) > 0 {
		t.Errorf("failures: %v %v", *failed, failures)
	}
	a, err := j.Get("a")
	if err != nil || a.State != "done" || a.ResultSummary != "Uploaded." {
		t.Errorf("a = %+v, %v", a, err)
	}
	if _, err := j.Get("b"); err != nil {
		t.Errorf("b: %v", err)
	}
}
