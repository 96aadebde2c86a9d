package engine_test

import (
	"testing"

	"hoist/engine"
	"hoist/engine/emulator"
)

// A finished job is small: the window holds 10,000 of them. Its session,
// its waits and the way to stop it live apart, in a part a finished job
// lets go of, and what stays fits Go's 448-byte allocations (it took
// 640 when all of it stayed with every job), and its file's name is the
// end of its path, not a second string.
func TestAFinishedJobIsSmall(t *testing.T) {
	if engine.JobBytes > 448 {
		t.Errorf("a job holds %d bytes, want at most 448", engine.JobBytes)
	}
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: 256 << 10})
	small, _ := r.file("small.bin", 1<<10)
	large, _ := r.file("large.bin", 700<<10)
	ids := r.add(small, large)
	for _, id := range ids {
		r.state(id, engine.Done)
		if engine.KeepsRunPart(r.q, id) {
			t.Errorf("job %s keeps its run after it finished", id)
		}
	}
	r.close()
	r.open()
	for _, id := range ids {
		if engine.KeepsRunPart(r.q, id) {
			t.Errorf("job %s read from the list holds a run", id)
		}
		if !engine.NameInPath(r.q, id) {
			t.Errorf("job %s read from the list keeps its name apart from its path", id)
		}
	}
}
