package emulator

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// KindYouTube is YouTube's videos.insert.
const KindYouTube Kind = "youtube" // /upload/youtube/v3/videos?part=snippet,status

func init() {
	serve(service{prefix: "youtube", kind: KindYouTube, resolve: resolveYouTube})
}

const youTubeLimit = 256 << 30 // 256 GiB

// youTubeParts are the parts of a Video resource part= may name.
var youTubeParts = []string{"snippet", "status", "contentDetails", "fileDetails", "liveStreamingDetails",
	"localizations", "player", "processingDetails", "recordingDetails", "statistics", "suggestions", "topicDetails", "id"}

type youTubeEndpoint struct{}

// resolveYouTube maps POST /upload/youtube/v3/videos.
func resolveYouTube(method string, seg []string) (endpoint, *apiError) {
	if len(seg) != 3 || seg[1] != "v3" || seg[2] != "videos" || method != http.MethodPost {
		return nil, methodNotFound()
	}
	return &youTubeEndpoint{}, nil
}

func (e *youTubeEndpoint) kind() Kind      { return KindYouTube }
func (e *youTubeEndpoint) action() string  { return "youtube.videos.insert" }
func (e *youTubeEndpoint) limit() int64    { return youTubeLimit }
func (e *youTubeEndpoint) accepts() string { return "*/*" } // video/* and application/octet-stream: see check

// newID is eleven letters of URL-safe base64, like YouTube's video ids.
func (e *youTubeEndpoint) newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)[:11]
}

// youTubeVideo is the part of a Video resource an upload may set.
type youTubeVideo struct {
	Snippet *struct {
		Title       string   `json:"title"`
		Description string   `json:"description"`
		CategoryID  string   `json:"categoryId"`
		Tags        []string `json:"tags"`
	} `json:"snippet"`
	Status *struct {
		PrivacyStatus string `json:"privacyStatus"`
	} `json:"status"`
}

func (e *youTubeEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	part := u.query.Get("part")
	if part == "" {
		return newError(http.StatusBadRequest, "required", "Required parameter: part")
	}
	for _, p := range strings.Split(part, ",") {
		if !slices.Contains(youTubeParts, strings.TrimSpace(p)) {
			return newError(http.StatusBadRequest, "unknownPart", "'%s'", strings.TrimSpace(p))
		}
	}
	if mt := mediaType(u.contentType); mt != "" && !strings.HasPrefix(mt, "video/") && mt != "application/octet-stream" {
		return newError(http.StatusBadRequest, "badContent",
			"Media type '%s' is not supported. Valid media types: [video/*, application/octet-stream]", mt)
	}
	if e := checkFields(u.metadata, "", "snippet", "status"); e != nil {
		return e
	}
	v, bad := e.video(u.metadata)
	if bad != nil {
		return bad
	}
	if v.Snippet != nil {
		if e := checkFields(fieldOf(u.metadata, "snippet"), "snippet.", "title", "description", "categoryId", "tags"); e != nil {
			return e
		}
		t := v.Snippet.Title
		if strings.TrimSpace(t) == "" || utf8.RuneCountInString(t) > 100 || strings.ContainsAny(t, "<>") {
			return newError(http.StatusBadRequest, "invalidTitle", "The request metadata specifies an invalid or empty video title.")
		}
		if d := v.Snippet.Description; len(d) > 5000 || strings.ContainsAny(d, "<>") {
			return newError(http.StatusBadRequest, "invalidDescription", "The request metadata specifies an invalid video description.")
		}
	}
	if v.Status != nil {
		if e := checkFields(fieldOf(u.metadata, "status"), "status.", "privacyStatus", "embeddable", "license", "publicStatsViewable", "publishAt", "selfDeclaredMadeForKids"); e != nil {
			return e
		}
		if p := v.Status.PrivacyStatus; p != "" && !slices.Contains([]string{"private", "unlisted", "public"}, p) {
			return invalidEnum("status.privacy_status", "TYPE_ENUM", p)
		}
	}
	return nil
}

// fieldOf is a field of a JSON object, or nil.
func fieldOf(raw json.RawMessage, name string) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m[name]
}

func (e *youTubeEndpoint) video(meta json.RawMessage) (youTubeVideo, *apiError) {
	var v youTubeVideo
	if meta != nil && json.Unmarshal(meta, &v) != nil {
		return v, invalid("Invalid JSON payload received: a Video resource has a snippet and a status.")
	}
	return v, nil
}

func (e *youTubeEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

func (e *youTubeEndpoint) resource(_ *Server, f *finished) resourceResult {
	v, _ := e.video(f.info.metadata)
	title, description, category, privacy := "unknown", "", "22", "public" // YouTube's defaults
	if v.Snippet != nil {
		title, description = v.Snippet.Title, v.Snippet.Description
		if v.Snippet.CategoryID != "" {
			category = v.Snippet.CategoryID
		}
	}
	if v.Status != nil && v.Status.PrivacyStatus != "" {
		privacy = v.Status.PrivacyStatus
	}
	when := f.created.Format("2006-01-02T15:04:05Z")
	body := map[string]any{
		"kind": "youtube#video", "etag": randomHex(8), "id": f.id,
		"snippet": map[string]any{
			"publishedAt": when, "channelId": "UCsandbox000000000000000", "title": title,
			"description": description, "categoryId": category, "channelTitle": "Sandbox",
			"liveBroadcastContent": "none",
		},
		"status": map[string]any{
			"uploadStatus": "uploaded", "privacyStatus": privacy, "license": "youtube",
			"embeddable": true, "publicStatsViewable": true,
		},
	}
	return resourceResult{name: title, body: body}
}
