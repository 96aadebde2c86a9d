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

// PlayGamesRemoved says, where a user picks Play Games, that Google removed
// the method behind it.
const PlayGamesRemoved = "Google has removed image uploads from the Play Games Services Publishing API: " +
	"uploads to Google fail, so set icons in Play Console. The sandbox still imitates the method."

// PlayGamesGone is what Google's refusal of a Play Games image means.
const PlayGamesGone = "Google no longer accepts Play Games images through its API; set the icon in Play Console."

type playGamesKind struct{ base }

var playGamesInfo = KindInfo{
	Kind:    PlayGames,
	Label:   "Play Games — achievement and leaderboard icons",
	Short:   "Play Games",
	Accepts: "images",
	Note:    PlayGamesRemoved,
	MaxSize: PlayGamesMaxSize,
	Fields: []Field{
		{
			Key: "resourceId", Label: "Achievement or leaderboard ID", Required: true, Kind: TextField, Flag: "resource",
			Help: "The ID of the achievement or leaderboard whose icon the image becomes.",
		},
		{
			Key: "imageType", Label: "Image type", Required: true, Kind: ChoiceField,
			Choices: []string{"ACHIEVEMENT_ICON", "LEADERBOARD_ICON"},
			Words:   []string{"Achievement icon", "Leaderboard icon"},
			Help:    "Whether the image is an achievement's icon or a leaderboard's.",
		},
	},
}

func (playGamesKind) info() KindInfo          { return playGamesInfo }
func (playGamesKind) host(Destination) string { return PlayGamesHost }
func (playGamesKind) scopes(Destination) []string {
	return []string{"https://www.googleapis.com/auth/androidpublisher"}
}

func (playGamesKind) facts() FactWords {
	return FactWords{
		Where: "dest.playgames", Who: "who.google", NotType: fact.NotImage,
		Keys: map[fact.Code]string{
			fact.Empty:     "fact.refused.empty.playgames",
			fact.TooLarge:  "fact.refused.tooLarge.playgames",
			fact.Forbidden: "fact.google.forbidden.playgames",
			fact.NotFound:  "fact.google.notFound.playgames",
		},
	}
}

func (playGamesKind) check(_ Destination, file media.Info, name string) error {
	if !matchType("image/*", file.MIME) {
		return refuse(RuleType, "%s is not an image; Play Games accepts only images.", name)
	}
	if file.Size == 0 {
		return refuse(RuleEmpty, "%s is empty (0 bytes); Play Games cannot take an empty image.", name)
	}
	return nil
}

func (playGamesKind) target(d Destination, _ media.Info, t *upload.Target) error {
	route := fmt.Sprintf("/upload/games/v1configuration/images/%s/imageType/%s",
		url.PathEscape(d.Param("resourceId")), d.choice("imageType"))
	t.FallbackToMultipart = true
	var err error
	t.URL, err = d.join(PlayGamesHost, route, nil)
	return err
}

func (playGamesKind) result(_ Destination, a answer, r *Result) {
	r.ID, r.URL = a.ResourceID, a.URL
	r.Fact = resultFact(fact.GameIcon, r)
	switch a.ImageType {
	case "ACHIEVEMENT_ICON":
		r.Fact.Code = fact.AchievementIcon
	case "LEADERBOARD_ICON":
		r.Fact.Code = fact.LeaderboardIcon
	}
}

// MethodGone reports whether e is Google saying that the method
// which set Play Games images is gone.
// refusalFact: Google removed the method.
func (playGamesKind) refusalFact(d Destination, e *upload.APIError) fact.Code {
	if MethodGone(d, e) {
		return fact.PlayGamesGone
	}
	return ""
}

func MethodGone(d Destination, e *upload.APIError) bool {
	if e.Class() == upload.ClassRetired {
		return false
	}
	return e.Status == http.StatusNotFound || e.Status == http.StatusGone ||
		(e.Status == http.StatusBadRequest && d.NeedsAuth())
}
