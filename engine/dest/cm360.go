package dest

import (
	"fmt"
	"net/url"
	"strings"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// CM360 is Campaign Manager 360's creativeAssets.insert.
const CM360 Kind = "cm360"

// CM360MaxSize is the largest creative asset Google takes.
const CM360MaxSize int64 = 1 << 30

// CM360Version is the Campaign Manager 360 API version Hoist uses unless a
// destination says otherwise. Google switched v4 off on 26 February 2026.
const CM360Version = "v5"

// CM360Host is Campaign Manager 360's API host.
const CM360Host = "https://dfareporting.googleapis.com"

type cm360Kind struct{ base }

var cm360Info = KindInfo{
	Kind:    CM360,
	Label:   "Campaign Manager 360 — creative assets",
	Short:   "Campaign Manager 360",
	IDLabel: "Asset ID",
	Accepts: "images, videos, audio, HTML5 zips and other creative files",
	MaxSize: CM360MaxSize,
	Fields: []Field{
		{
			Key: "profileId", Label: "User profile ID", Required: true, Kind: NumberField, Flag: "profile", List: ProfileList,
			Help: "The number of your Campaign Manager 360 user profile.",
		},
		{
			Key: "advertiserId", Label: "Advertiser ID", Required: true, Kind: NumberField, Flag: "advertiser", List: AdvertiserList,
			Help: "The number of the advertiser the assets belong to.",
		},
		{
			Key: "assetType", Label: "Asset type", Kind: ChoiceField,
			Choices: []string{"HTML_IMAGE", "VIDEO", "HTML", "AUDIO"},
			Words:   []string{"Image (HTML_IMAGE)", "Video (VIDEO)", "HTML page or zip (HTML)", "Audio (AUDIO)"},
			Help:    "Leave empty to choose from each file: videos as VIDEO, audio as AUDIO, HTML pages and zips as HTML, everything else as HTML_IMAGE.",
		},
		{
			Key: "apiVersion", Label: "API version", Default: CM360Version, Kind: TextField, Advanced: true,
			Help: "The Campaign Manager 360 API version. Leave " + CM360Version + " unless Google announces a newer one: Google switches old versions off (v4 on 26 February 2026).",
		},
	},
}

func (cm360Kind) info() KindInfo          { return cm360Info }
func (cm360Kind) host(Destination) string { return CM360Host }
func (cm360Kind) scopes(Destination) []string {
	return []string{"https://www.googleapis.com/auth/dfatrafficking"}
}

func (cm360Kind) facts() FactWords {
	return FactWords{
		Where: "dest.cm360", Who: "who.google", Version: CM360Version,
		Keys: map[fact.Code]string{
			fact.TooLarge:  "fact.refused.tooLarge.cm360",
			fact.Forbidden: "fact.google.forbidden.cm360",
			fact.NotFound:  "fact.google.notFound.cm360",
		},
	}
}

func (cm360Kind) check(_ Destination, file media.Info, name string) error {
	if file.Size == 0 {
		return refuse(RuleEmpty, "%s is empty (0 bytes); Campaign Manager 360 cannot take an empty file.", name)
	}
	return nil
}

func (cm360Kind) target(d Destination, file media.Info, t *upload.Target) error {
	route := fmt.Sprintf("/upload/dfareporting/%s/userprofiles/%s/creativeAssets/%s/creativeAssets",
		url.PathEscape(d.Param("apiVersion")), d.Param("profileId"), d.Param("advertiserId"))
	t.Metadata = marshal(map[string]any{"assetIdentifier": map[string]string{
		"name": AssetName(file.Name),
		"type": d.assetType(file.MIME),
	}})
	t.FallbackToMultipart = true
	var err error
	t.URL, err = d.join(CM360Host, route, nil)
	return err
}

// assetType is the CM360 asset type set, or the one the file's type calls for.
func (d Destination) assetType(mime string) string {
	if t := d.choice("assetType"); t != "" {
		return t
	}
	switch {
	case strings.HasPrefix(mime, "video/"):
		return "VIDEO"
	case strings.HasPrefix(mime, "audio/"):
		return "AUDIO"
	case mime == "text/html", mime == "application/zip", mime == "application/x-zip-compressed":
		return "HTML"
	}
	return "HTML_IMAGE"
}

func (cm360Kind) result(_ Destination, a answer, r *Result) {
	r.ID = string(a.ID)
	if a.AssetIdentifier != nil {
		r.Name = a.AssetIdentifier.Name
	}
	r.Fact = resultFact(fact.AddedToCM360, r, "warned", strings.Join(a.Warned, ", "))
}

// upgraded moves a version Google switched off to CM360Version.
func (cm360Kind) upgraded(d Destination) (Destination, bool) {
	v := strings.TrimSpace(d.Params["apiVersion"])
	if v == "" || !retiredCM360Version(v) {
		return d, false
	}
	d = d.clone()
	d.Params["apiVersion"] = CM360Version
	return d, true
}

// findable: Campaign Manager 360 cannot list assets by name, so an answer
// that names no asset is not taken as done, and nothing looks for it.
func (cm360Kind) findable(d Destination, _ media.Info, _ string, p *Plan) {
	p.Target.Identifies = identifies(d)
}
