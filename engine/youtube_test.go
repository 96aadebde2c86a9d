package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

// mp4File writes a file that starts like an MP4 video (its ftyp box) and
// fills it to size.
func mp4File(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	head := []byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom")
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, head, 0o600); err != nil {
		t.Fatal(err)
	}
	grow(t, p, size)
	return p
}

// TestYouTubeEveryMethod: a video goes to videos.insert with part=snippet,status,
// its title, description and privacy (private unless chosen), always in a
// resumable session, which can be asked where it stands: a video whose
// answer was lost cannot be looked for.
func TestYouTubeEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := mp4File(t, dir, "launch.mp4", 600*kib)
	const meta = `{"snippet":{"title":"Launch","description":"Our new product — in 90 seconds."},"status":{"privacyStatus":"private"}}`
	for _, m := range methods {
		if m.method == upload.Media {
			continue // the title cannot go without metadata
		}
		t.Run(m.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m.method, m.threshold)
			d := dest.Destination{Kind: dest.YouTube, BaseURL: l.url,
				Params: map[string]string{"title": "Launch", "description": "Our new product — in 90 seconds."}}
			v := l.one(d, file)
			r := done(t, v)
			obj := checkWire(t, l, upload.Resumable, wire{httpMethod: "POST", path: "/upload/youtube/v3/videos",
				query: map[string]string{"part": "snippet,status"}, contentType: "video/mp4", metadata: meta}, file)
			if r.ID != obj.ID || len(r.ID) != 11 || r.Name != "Launch" {
				t.Errorf("result video %q named %q, want %q named Launch", r.ID, r.Name, obj.ID)
			}
			if !resultSays(r, fact.Code("result.youtube"), "id", obj.ID, "title", "Launch", "privacy", "private") || r.Fact().Arg("url") != "" {
				t.Errorf("result %q (fact %+v), want video %s, private, with no YouTube link off YouTube", summaryOf(r), r.Fact(), obj.ID)
			}
		})
	}
}

// TestYouTubeRefusals: what is not a video is refused before a byte is
// sent; a title YouTube does not take is refused with YouTube's words.
func TestYouTubeRefusals(t *testing.T) {
	dir := t.TempDir()
	l := newLab(t, emulator.Options{}, upload.Resumable, 0)
	v := l.one(dest.Destination{Kind: dest.YouTube, BaseURL: l.url}, pngFile(t, dir, "poster.png", 10*kib))
	if v.State != "refused" || reasonOf(v) != "poster.png is not a video; YouTube accepts only videos." {
		t.Errorf("an image: %s, %q", v.State, reasonOf(v))
	}
	if n := len(l.srv.Requests()); n != 0 {
		t.Errorf("%d requests for a refused file", n)
	}
	// The title is made from the file's name, as YouTube takes it: never
	// empty, without < or >.
	size := int64(10 * kib)
	for name, title := range map[string]string{"   .mp4": "mp4", ".mp4": "mp4", "<>.mp4": "mp4", "<Launch> day.mp4": "Launch day"} {
		size++ // four videos, not one sent again
		v = l.one(dest.Destination{Kind: dest.YouTube, BaseURL: l.url}, mp4File(t, t.TempDir(), name, size))
		if v.State != "done" || v.Result == nil || v.Result.Name != title {
			t.Errorf("%q: %s, %q (%q), result %+v; want done titled %q", name, v.State, reasonOf(v), v.Details, v.Result, title)
		}
	}
}
