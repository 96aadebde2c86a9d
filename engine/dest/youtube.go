package dest

import (
	"encoding/json"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// YouTube is YouTube's videos.insert: a video with its title, description
// and privacy.
const YouTube Kind = "youtube"

// YouTubeMaxSize is the largest video YouTube takes: 256 GiB.
const YouTubeMaxSize int64 = 256 << 30

// YouTubeHost is YouTube's upload host.
const YouTubeHost = "https://www.googleapis.com"

type youTubeKind struct{ base }

func init() { register(youTubeKind{}) }

// YouTube's own facts.
const (
	notVideo          fact.Code = "refused.notVideo"  // File: YouTube takes only videos
	noChannel         fact.Code = "google.noChannel"  // the account has no YouTube channel yet
	dailyLimit        fact.Code = "google.dailyLimit" // the day's uploads are used up
	uploadedToYouTube fact.Code = "result.youtube"    // Args["privacy"]: who can watch
)

var youTubeInfo = KindInfo{
	Kind:     YouTube,
	Rank:     60,
	Server:   GoogleServer,
	API:      true,
	MaxSize:  YouTubeMaxSize,
	TypeFact: notVideo,
	Fields: []Field{
		{Key: "title", Kind: TextField},       // at most 100 characters, without < or >; empty: the file's name
		{Key: "description", Kind: TextField}, // at most 5000 bytes, without < or >
		{Key: "privacy", Default: "private", Kind: ChoiceField, Choices: []string{"private", "unlisted", "public"}},
	},
}

// youTubeSettings are a YouTube destination's settings, typed.
type youTubeSettings struct {
	Title       string `key:"title"`
	Description string `key:"description"`
	Privacy     string `key:"privacy"`
}

func (youTubeKind) settings() any { return &youTubeSettings{} }

func youTubeOf(d Destination) (s youTubeSettings) { typed(d, &s); return s }

func (youTubeKind) info() KindInfo          { return youTubeInfo }
func (youTubeKind) host(Destination) string { return YouTubeHost }
func (youTubeKind) scopes(Destination) []string {
	return []string{"https://www.googleapis.com/auth/youtube.upload"}
}

func (youTubeKind) validate(d Destination) FieldErrors {
	var errs FieldErrors
	s := youTubeOf(d)
	if t := s.Title; utf8.RuneCountInString(t) > 100 || strings.ContainsAny(t, "<>") {
		e := fieldError(d, "title", fact.TooLong)
		e.Fact.Count = 100
		errs = append(errs, e)
	}
	if s := s.Description; len(s) > 5000 || strings.ContainsAny(s, "<>") {
		e := fieldError(d, "description", fact.TooLongBytes)
		e.Fact.Count = 5000
		errs = append(errs, e)
	}
	return errs
}

func (youTubeKind) check(d Destination, file media.Info) error {
	if !matchType("video/*", file.MIME) && file.MIME != "application/octet-stream" {
		return typeRefusal(d, file)
	}
	if file.Size == 0 {
		return emptyRefusal(d, file)
	}
	return nil
}

// video is the part of YouTube's Video resource Hoist sets.
type video struct {
	Snippet struct {
		Title       string `json:"title"`
		Description string `json:"description,omitempty"`
	} `json:"snippet"`
	Status struct {
		PrivacyStatus string `json:"privacyStatus"`
	} `json:"status"`
}

func (youTubeKind) target(d Destination, file media.Info, t *upload.Target) error {
	s := youTubeOf(d)
	var v video
	v.Snippet.Title = s.Title
	if v.Snippet.Title == "" {
		v.Snippet.Title = VideoTitle(file.Name)
	}
	v.Snippet.Description = s.Description
	v.Status.PrivacyStatus = s.Privacy
	t.Metadata = marshal(v)
	var err error
	t.URL, err = joinURL(d, YouTubeHost, "/upload/youtube/v3/videos", url.Values{"part": {"snippet,status"}})
	return err
}

// WatchURL is where a YouTube video with the id is watched.
func WatchURL(id string) string {
	return "https://www.youtube.com/watch?v=" + url.QueryEscape(id)
}

// result links to the video's watch page; a video that went to another
// server (the sandbox) has no page on YouTube, so it gets no link there.
func (youTubeKind) result(d Destination, a answer, r *Result) {
	r.ID = string(a.ID)
	var v video
	_ = json.Unmarshal(r.Raw, &v) // the answer was read once already
	r.Name = v.Snippet.Title
	privacy := firstOf(v.Status.PrivacyStatus, "private")
	if r.ID != "" && d.NeedsAuth() {
		r.URL = WatchURL(r.ID)
	}
	r.Fact = resultFact(uploadedToYouTube, r, "privacy", privacy)
}

// refusalFact: no channel yet, or the day's uploads used up.
func (youTubeKind) refusalFact(_ Destination, e *upload.APIError) fact.Code {
	switch strings.ToLower(e.Reason) {
	case "youtubesignuprequired":
		return noChannel
	case "uploadlimitexceeded":
		return dailyLimit
	}
	return ""
}

// findable: a video always goes in a resumable session, which can be asked
// where it stands: nothing cheap finds a video whose answer was lost.
func (youTubeKind) findable(d Destination, _ media.Info, _ string, p *Plan) {
	p.Method = upload.Resumable
	p.Target.Identifies = identifies(d)
}

// VideoTitle makes a title YouTube takes from a file's name: without its
// extension, < and >, control characters and the spaces around it, at most
// 100 characters; a name that leaves nothing (".mp4", "<>.mp4") gives its
// extension's letters, and a name of nothing at all "video".
func VideoTitle(name string) string {
	clean := func(s string) string {
		s = strings.Map(func(r rune) rune {
			if r == '<' || r == '>' || unicode.IsControl(r) {
				return -1
			}
			return r
		}, s)
		return strings.TrimSpace(s)
	}
	title := clean(strings.TrimSuffix(name, path.Ext(name)))
	if title == "" {
		title = strings.Trim(clean(name), ". ")
	}
	if title == "" {
		title = "video"
	}
	if r := []rune(title); len(r) > 100 {
		title = strings.TrimSpace(string(r[:100]))
	}
	return title
}
