package engine

import (
	"context"
	"errors"
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
	// onFail hears a write that failed even record by record; nil: only logged.
	onFail func(error)
}

// recordOp is records to put, ids to delete, or a job's progress.
type recordOp struct {
	recs      []journal.Record
	deletes   []string
	progress  string // job id whose Committed is updated
	committed int64
	written   chan struct{} // closed once written; nil when nobody waits
	failed    *error        // when set, holds the error of a record that could not be written
	// keepCopy asks for the list's last good copy (journal.KeepCopy) once
	// what came before is written: a batch ended, a quiet moment.
	keepCopy bool
}

func newRecordWriter(j *journal.Journal, log *slog.Logger, onFail func(error)) *recordWriter {
	w := &recordWriter{j: j, log: log, in: make(chan recordOp, 1024), done: make(chan struct{}), onFail: onFail}
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
	var owners []int // the op each record came from
	flush := func() {
		if len(recs) == 0 {
			return
		}
		if err := w.j.PutAll(recs...); err != nil {
			// One bad record must not keep the others from the disk.
			for i, rec := range recs {
				if err := w.putOne(rec); err != nil {
					w.fail(ops[owners[i]], err)
				}
			}
		}
		recs, owners = nil, nil
	}
	for i, op := range ops {
		recs = append(recs, op.recs...)
		for range op.recs {
			owners = append(owners, i)
		}
		switch {
		case len(op.deletes) > 0:
			flush()
			if err := w.j.Delete(op.deletes...); err != nil {
				w.log.Error("could not remove uploads from the saved list", "err", err)
			}
		case op.progress != "":
			flush()
			if err := w.j.UpdateProgress(op.progress, op.committed); err != nil {
				level := slog.LevelWarn
				if errors.Is(err, journal.ErrDiskFull) {
					// The server is the truth about progress; a full disk
					// is said once, by the write of a record.
					level = slog.LevelInfo
				}
				w.log.Log(context.Background(), level, "could not save progress", "job", op.progress, "err", err)
			}
		}
	}
	flush()
	for _, op := range ops {
		if op.keepCopy {
			if err := w.j.KeepCopy(); err != nil {
				w.log.Info("could not keep a copy of the upload list", "err", err)
			}
			break
		}
	}
	for _, op := range ops {
		if op.written != nil {
			close(op.written)
		}
	}
}

// putOne writes one record; when it cannot be written with the server's
// answer, it is written without it, so a finished upload is never left
// looking unfinished.
func (w *recordWriter) putOne(rec journal.Record) error {
	err := w.j.PutAll(rec)
	if err == nil || rec.Result == nil {
		return err
	}
	rec.Result = nil
	if err2 := w.j.PutAll(rec); err2 != nil {
		return err2
	}
	w.log.Warn("saved an upload without the server's answer", "job", rec.ID, "err", err)
	return nil
}

// fail says that op's records could not be written.
func (w *recordWriter) fail(op recordOp, err error) {
	level := slog.LevelError
	if errors.Is(err, journal.ErrDiskFull) {
		level = slog.LevelInfo // said once, as a fact, by onFail's hearer
	}
	w.log.Log(context.Background(), level, "could not save the upload list", "err", err)
	if op.failed != nil && *op.failed == nil {
		*op.failed = err
	}
	if w.onFail != nil {
		w.onFail(err)
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
