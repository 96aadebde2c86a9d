package engine_test

import (
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// TestDriveAndYouTubeResumeAfterACutAndARestart: a chunk cut short is sent
// again from where the sandbox stands, and after a quit in the middle the
// upload continues in the same session — for Drive and YouTube as for any.
func TestDriveAndYouTubeResumeAfterACutAndARestart(t *testing.T) {
	for _, tc := range []struct {
		d      dest.Destination
		stored string // the object's name in the sandbox
	}{
		{dest.Destination{Kind: dest.Drive, Params: map[string]string{"folder": "1FoLdEr"}}, "film.bin"},
		{dest.Destination{Kind: dest.YouTube, Params: map[string]string{"title": "Launch"}}, "Launch"},
	} {
		t.Run(string(tc.d.Kind), func(t *testing.T) {
			const chunk = upload.ChunkAlign
			r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
			tc.d.BaseURL = r.url
			p, sum := r.file("film.bin", 10*chunk+123)
			cut := r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 1, Action: emulator.CutBody{After: chunk / 2}})
			release, stalled := stallChunk(r, 4)
			defer release()
			res := r.q.Add([]string{p}, tc.d)
			if len(res.IDs) != 1 {
				t.Fatalf("add: %v", res.Problems)
			}
			id := res.IDs[0]
			r.until(id, "the stalled chunk", func(engine.JobView) bool { return stalled.Count() == 1 })
			if cut.Count() != 1 {
				t.Fatalf("the cut applied %d times, want 1", cut.Count())
			}

			r.close() // quit in the middle
			release()
			r.emu.ClearRequests()
			r.open()
			if err := r.q.Do(id, engine.Resume); err != nil {
				t.Fatal(err)
			}
			v := r.state(id, engine.Done)
			var reqs []emulator.Request // the stalled chunk may finish late: it is the quit's, not the resume's
			for _, q := range r.emu.Requests() {
				if q.Fault == "" {
					reqs = append(reqs, q)
				}
			}
			if len(reqs) == 0 || reqs[0].Stage != emulator.StageQuery {
				t.Fatalf("after the restart the upload began with %+v, want a status query", reqs)
			}
			for _, q := range reqs {
				if q.Stage == emulator.StageStart {
					t.Error("after the restart a new session was started")
				}
			}
			if got := r.objects()[tc.stored].SHA256; got != sum {
				t.Errorf("the sandbox holds %s, want %s", got, sum)
			}
			if v.Result == nil || v.Result.ID == "" {
				t.Errorf("no result: %+v", v.Result)
			}
		})
	}
}
