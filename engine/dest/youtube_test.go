package dest

import (
	"errors"
	"testing"

	"hoist/engine/upload"
)

func TestYouTubePlan(t *testing.T) {
	d := Destination{Kind: YouTube, Params: map[string]string{"title": "Launch", "description": "In 90 seconds."}}
	p, err := d.Plan(file("launch.mp4", "video/mp4", 10))
	if err != nil {
		t.Fatal(err)
	}
	tg := p.Target
	if tg.HTTPMethod != "POST" || tg.URL != "https://www.googleapis.com/upload/youtube/v3/videos?part=snippet%2Cstatus" || tg.ContentType != "video/mp4" ||
		string(tg.Metadata) != `{"snippet":{"title":"Launch","description":"In 90 seconds."},"status":{"privacyStatus":"private"}}` {
		t.Errorf("plan %s %s (%s) %s", tg.HTTPMethod, tg.URL, tg.ContentType, tg.Metadata)
	}
	if len(p.Scopes) != 1 || p.Scopes[0] != "https://www.googleapis.com/auth/youtube.upload" || p.MaxSize != 256<<30 {
		t.Errorf("scopes %v, limit %d", p.Scopes, p.MaxSize)
	}
	// No title: the file's name; any privacy YouTube takes; what the content shows as octet-stream is taken.
	d = Destination{Kind: YouTube, Params: map[string]string{"privacy": "Unlisted"}}
	if p, err = d.Plan(file("Tom <3 Jerry.mov", "application/octet-stream", 10)); err != nil ||
		string(p.Target.Metadata) != `{"snippet":{"title":"Tom 3 Jerry"},"status":{"privacyStatus":"unlisted"}}` {
		t.Errorf("plan %s, %v", p.Target.Metadata, err)
	}
	var r *Refusal
	if _, err := d.Plan(file("poster.png", "image/png", 10)); !errors.As(err, &r) || r.Rule != RuleType {
		t.Errorf("an image: %v", err)
	}
	for _, bad := range []map[string]string{{"title": "a<b"}, {"privacy": "friends"}, {"description": "<script>"}} {
		if err := (Destination{Kind: YouTube, Params: bad}).Validate(); !errors.Is(err, ErrInvalid) {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

func TestYouTubeResultAndWords(t *testing.T) {
	d := Destination{Kind: YouTube}
	r, err := ParseResult(d, []byte(`{"kind":"youtube#video","id":"dQw4w9WgXcQ","snippet":{"title":"Launch"},"status":{"privacyStatus":"private"}}`))
	if err != nil || r.ID != "dQw4w9WgXcQ" || r.URL != "https://www.youtube.com/watch?v=dQw4w9WgXcQ" || r.Name != "Launch" ||
		r.Fact.Code != uploadedToYouTube || r.Fact.Arg("privacy") != "private" || r.Fact.Arg("url") != r.URL {
		t.Errorf("result %+v, %v", r, err)
	}
	if c := RefusalFact(d, &upload.APIError{Status: 401, Reason: "youtubeSignupRequired"}); c != noChannel {
		t.Errorf("no channel: %q", c)
	}
	if c := RefusalFact(d, &upload.APIError{Status: 403, Reason: "uploadLimitExceeded"}); c != dailyLimit {
		t.Errorf("daily limit: %q", c)
	}
}
