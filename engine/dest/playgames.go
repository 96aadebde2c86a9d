package dest

import (
	"fmt"
	"net/http"
	"net/url"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// PlayGames is Play Games Services Publishing's imageConfigurations.upload.
const PlayGames Kind = "playgames"

// PlayGamesMaxSize is the largest image Google took.
const PlayGamesMaxSize int64 = 15 << 20

// PlayGamesHost is Play Games Services Publishing's API host.
const PlayGamesHost = "https://www.googleapis.com"

type playGamesKind struct{ base }

func init() { register(playGamesKind{}) }

// Play Games' own facts.
const (
	notImage        fact.Code = "refused.notImage"     // File: Play Games takes only images
	playGamesGone   fact.Code = "google.playGamesGone" // Google removed the method; icons are set in Play Console
	achievementIcon fact.Code = "result.achievementIcon"
	leaderboardIcon fact.Code = "result.leaderboardIcon"
	gameIcon        fact.Code = "result.gameIcon"
)

// playGamesInfo: Google removed the method behind it, which the kind's note
// says where a user picks it; the sandbox still imitates it.
var playGamesInfo = KindInfo{
	Kind:     PlayGames,
	Rank:     40,
	Server:   GoogleServer,
	Note:     true,
	MaxSize:  PlayGamesMaxSize,
	TypeFact: notImage,
	Fields: []Field{
		{Key: "resourceId", Required: true, Kind: TextField, Flag: "resource"},
		{Key: "imageType", Required: true, Kind: ChoiceField, Choices: []string{"ACHIEVEMENT_ICON", "LEADERBOARD_ICON"}},
	},
}

// playGamesSettings are a Play Games destination's settings, typed.
type playGamesSettings struct {
	ResourceID string `key:"resourceId"` // the achievement's or leaderboard's
	ImageType  string `key:"imageType"`
}

func (playGamesKind) settings() any { return &playGamesSettings{} }

func playGamesOf(d Destination) (s playGamesSettings) { typed(d, &s); return s }

func (playGamesKind) info() KindInfo          { return playGamesInfo }
func (playGamesKind) host(Destination) string { return PlayGamesHost }
func (playGamesKind) scopes(Destination) []string {
	return []string{"https://www.googleapis.com/auth/androidpublisher"}
}

// factArgs: the achievement or leaderboard.
func (playGamesKind) factArgs(d Destination) map[string]string {
	return map[string]string{"resource": playGamesOf(d).ResourceID}
}

func (playGamesKind) check(d Destination, file media.Info) error {
	if !matchType("image/*", file.MIME) {
		return typeRefusal(d, file)
	}
	if file.Size == 0 {
		return emptyRefusal(d, file)
	}
	return nil
}

func (playGamesKind) target(d Destination, _ media.Info, t *upload.Target) error {
	route := fmt.Sprintf("/upload/games/v1configuration/images/%s/imageType/%s",
		url.PathEscape(playGamesOf(d).ResourceID), playGamesOf(d).ImageType)
	t.FallbackToMultipart = true
	var err error
	t.URL, err = joinURL(d, PlayGamesHost, route, nil)
	return err
}

func (playGamesKind) result(_ Destination, a answer, r *Result) {
	r.ID, r.URL = a.ResourceID, a.URL
	r.Fact = resultFact(gameIcon, r)
	switch a.ImageType {
	case "ACHIEVEMENT_ICON":
		r.Fact.Code = achievementIcon
	case "LEADERBOARD_ICON":
		r.Fact.Code = leaderboardIcon
	}
}

// refusalFact: Google removed the method.
func (playGamesKind) refusalFact(d Destination, e *upload.APIError) fact.Code {
	if MethodGone(d, e) {
		return playGamesGone
	}
	return ""
}

// MethodGone reports whether e is Google saying that the method which set
// Play Games images is gone.
func MethodGone(d Destination, e *upload.APIError) bool {
	if e.Class() == upload.ClassRetired {
		return false
	}
	return e.Status == http.StatusNotFound || e.Status == http.StatusGone ||
		(e.Status == http.StatusBadRequest && d.NeedsAuth())
}
