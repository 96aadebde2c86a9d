package engine

import (
	"context"
	"log/slog"

	"hoist/engine/journal"
)

// recordWriter writes job records to the journal from one goroutine, in the
// order they are handed over, several in one transaction when they queue up:
// uploads that finish together share one write to the disk.
type recordWriter struct {
	j    *journal.Journal
	log  *slog.Logger
	in   chan recordOp
	done chan struct{}
}

// recordOp is records to put, ids to delete, or a job's progress.
type recordOp struct {
	recs      []journal.Record
	deletes   []string
	progress  string // job id whose Committed is updated
	committed int64
	written   chan struct{} // closed once written; nil when nobody waits
}

func newRecordWriter(j *journal.Journal, log *slog.Logger) *recordWriter {
	w := &recordWriter{j: j, log: log, in: make(chan recordOp, 1024), done: make(chan struct{})}
	go w.loop()
	return w
}

func (w *recordWriter) loop() {
	defer close(w.done)
	for op := range w.in {
		ops := []recordOp{op}
	more:
		for len(ops) < 256 {
			select {
			case op, ok := <-w.in:
				if !ok {
					break more
				}
				ops = append(ops, op)
			default:
				break more
			}
		}
		w.write(ops)
	}
}

func (w *recordWriter) write(ops []recordOp) {
	var recs []journal.Record
	flush := func() {
		if len(recs) == 0 {
			return
		}
		if err := w.j.PutAll(recs...); err != nil {
			w.log.Error("could not save the upload list", "err", err)
		}
		recs = nil
	}
	for _, op := range ops {
		recs = append(recs, op.recs...)
		switch {
		case len(op.deletes) > 0:
			flush()
			if err := w.j.Delete(op.deletes...); err != nil {
				w.log.Error("could not remove uploads from the saved list", "err", err)
			}
		case op.progress != "":
			flush()
			if err := w.j.UpdateProgress(op.progress, op.committed); err != nil {
				w.log.Warn("could not save progress", "job", op.progress, "err", err)
			}
		}
	}
	flush()
	for _, op := range ops {
		if op.written != nil {
			close(op.written)
		}
	}
}

// send hands op over; with wait set it returns a channel closed once written.
func (w *recordWriter) send(op recordOp, wait bool) <-chan struct{} {
	if wait {
		op.written = make(chan struct{})
	}
	w.in <- op
	return op.written
}

// close writes what is left and stops, or gives up when ctx is done.
func (w *recordWriter) close(ctx context.Context) error {
	close(w.in)
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
