package engine_test

import (
	"errors"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// TestEachFileIsCheckedOnce: adding files checks the destination's
// settings once for the batch and each file against its rules once; sending
// it builds its request once, without checking again. A destination whose
// settings are wrong is refused as a whole, before any file is read.
func TestEachFileIsCheckedOnce(t *testing.T) {
	checks, restore := engine.CountChecks()
	defer restore()
	l := newLab(t, emulator.Options{}, upload.Multipart, 0)
	dir := t.TempDir()
	files := []string{pngFile(t, dir, "a.png", kib), pngFile(t, dir, "b.png", kib), pngFile(t, dir, "c.png", kib)}
	views := l.send(dest.Destination{Kind: dest.Sandbox, BaseURL: l.url}, files...)
	for _, v := range views {
		done(t, v)
	}
	if v, c, b := checks.Validate.Load(), checks.Check.Load(), checks.Build.Load(); v != 1 || c != 3 || b != 3 {
		t.Errorf("settings checked %d times, files %d, requests built %d; want 1, 3, 3", v, c, b)
	}

	checks.Validate.Store(0)
	checks.Check.Store(0)
	res := l.q.Add(files, dest.Destination{Kind: dest.CM360, BaseURL: l.url}) // no profile, no advertiser
	if len(res.IDs) != 0 || len(res.Problems) != 1 || !errors.Is(res.Problems[0], dest.ErrInvalid) {
		t.Fatalf("an incomplete destination: %+v", res)
	}
	if v, c := checks.Validate.Load(), checks.Check.Load(); v != 1 || c != 0 {
		t.Errorf("settings checked %d times, files %d; want 1, 0", v, c)
	}
}
