package engine_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

// A success answer that is not JSON still makes the job done, in the list on
// disk too: Hoist started again (hoist send --resume) against a server that
// now answers 404 to everything must not send the file a second time.
func TestDoneWithAnAnswerThatIsNotJSON(t *testing.T) {
	for _, body := range []emulator.Success{emulator.SuccessHTML, emulator.SuccessCutJSON, emulator.SuccessHuge} {
		for _, size := range []int{300 << 10, 6 << 20} {
			t.Run(string(body)+"/"+map[bool]string{true: "one request", false: "resumable"}[size < 1<<20], func(t *testing.T) {
				r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: 1 << 20})
				r.emu.Inject(emulator.Fault{Times: -1, Action: emulator.BadSuccess{Body: body}})
				p, sum := r.file("report.bin", size)
				id := r.add(p)[0]
				v := r.state(id, engine.Done)
				if v.Result == nil || !json.Valid(v.Result.Raw) {
					t.Fatalf("result %+v: its answer must be kept as JSON", v.Result)
				}
				if v.Result.Verified != "" {
					t.Errorf("verified %q by an answer that says nothing", v.Result.Verified)
				}
				r.close()
				r.emu.ClearFaults()
				r.emu.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: http.StatusNotFound}})
				requests := len(r.emu.Requests())
				r.open()
				r.q.ResumeAll()
				r.wait()
				if v, _ := r.q.Job(id); v.State != engine.Done {
					t.Errorf("after a restart the job is %s (%s)", v.State, reasonOf(v))
				}
				if n := len(r.emu.Requests()); n != requests {
					t.Errorf("%d requests after the restart: the finished file was sent again", n-requests)
				}
				objs := r.objects()
				if len(objs) != 1 || objs["report.bin"].SHA256 != sum {
					t.Errorf("the emulator holds %d objects", len(objs))
				}
			})
		}
	}
}

// The row says the server's checksum matched, and still says so after a restart.
func TestDoneSaysVerified(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	p, _ := r.file("a.bin", 700<<10)
	id := r.add(p)[0]
	if v := r.state(id, engine.Done); v.Result == nil || v.Result.Verified != upload.VerifiedCRC32C {
		t.Fatalf("result %+v, want verified by crc32c", v.Result)
	}
	r.close()
	r.open()
	if v, _ := r.q.Job(id); v.Result == nil || v.Result.Verified != upload.VerifiedCRC32C {
		t.Errorf("after a restart, result %+v", v.Result)
	}
}

// A server that claims the whole file too early, and insists, leaves a
// job that says what it received, never a done one, and that waits for
// the user: sending it again would make a second copy.
func TestPrematureCompletionFails(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: 1 << 20})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Action: emulator.FinishEarly{}})
	p, _ := r.file("early.bin", 6<<20)
	id := r.add(p)[0]
	v := r.state(id, engine.Attention)
	if !v.InDoubt || v.Allows(engine.Retry) {
		t.Errorf("in doubt %v, actions %v", v.InDoubt, v.Actions)
	}
	if f := v.Fact; !isFact(f, fact.Incomplete) || f.Received != 1<<20 || f.Size != 6<<20 {
		t.Errorf("reason %q, fact %+v; want what the server received of the file", reasonOf(v), f)
	}
}
