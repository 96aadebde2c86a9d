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

func init() { register(cm360Kind{}) }

// addedToCM360 is Campaign Manager 360's result: Args["warned"] are the
// validation rules Google warned of.
const addedToCM360 fact.Code = "result.cm360"

// retiredVersion is an API version Google switched off, set in a field:
// Args["version"] the one set, Args["current"] the one to set.
const retiredVersion fact.Code = "field.retiredVersion"

var cm360Info = KindInfo{
	Kind:       CM360,
	Rank:       30,
	Server:     GoogleServer,
	API:        true,
	MaxSize:    CM360MaxSize,
	VersionKey: "apiVersion",
	Fields: []Field{
		{Key: "profileId", Required: true, Kind: NumberField, Flag: "profile", List: cm360Profiles},
		{Key: "advertiserId", Required: true, Kind: NumberField, Flag: "advertiser", List: cm360Advertisers},
		{Key: "assetType", Kind: ChoiceField, Choices: []string{"HTML_IMAGE", "VIDEO", "HTML", "AUDIO"}},
		{Key: "apiVersion", Default: CM360Version, Kind: TextField, Advanced: true},
	},
}

// The lists Campaign Manager 360 keeps of the ids its settings take: the
// account's user profiles, and a profile's advertisers.
var (
	cm360Profiles = &List{
		Name: "cm360.profiles", Host: CM360Host, Scope: cm360Scope,
		Path:  func(Destination) (string, string) { return "/dfareporting/" + CM360Version + "/userprofiles", "" },
		Items: "items", ID: "profileId", Words: []string{"accountName", "userName"},
	}
	cm360Advertisers = &List{
		Name: "cm360.advertisers", Host: CM360Host, Scope: cm360Scope,
		Path: func(d Destination) (string, string) {
			profile := cm360Of(d).ProfileID
			if profile == "" {
				return "", "profileId"
			}
			return "/dfareporting/" + CM360Version + "/userprofiles/" + url.PathEscape(profile) + "/advertisers", ""
		},
		Query: url.Values{"maxResults": {"1000"}, "sortField": {"NAME"}},
		Items: "advertisers", ID: "id", Words: []string{"name"}, Pages: true,
	}
)

// cm360Scope is what Campaign Manager 360's uploads and lists need.
const cm360Scope = "https://www.googleapis.com/auth/dfatrafficking"

// cm360Settings are a Campaign Manager 360 destination's settings, typed.
type cm360Settings struct {
	ProfileID    string `key:"profileId"` // a number, its digits ASCII
	AdvertiserID string `key:"advertiserId"`
	AssetType    string `key:"assetType"` // "": chosen by each file's type
	APIVersion   string `key:"apiVersion"`
}

func (cm360Kind) settings() any { return &cm360Settings{} }

func cm360Of(d Destination) (s cm360Settings) { typed(d, &s); return s }

func (cm360Kind) info() KindInfo              { return cm360Info }
func (cm360Kind) host(Destination) string     { return CM360Host }
func (cm360Kind) scopes(Destination) []string { return []string{cm360Scope} }

// factArgs: the user profile and the advertiser.
func (cm360Kind) factArgs(d Destination) map[string]string {
	s := cm360Of(d)
	return map[string]string{"profile": s.ProfileID, "advertiser": s.AdvertiserID}
}

func (cm360Kind) check(d Destination, file media.Info) error {
	if file.Size == 0 {
		return emptyRefusal(d, file)
	}
	return nil
}

// validate refuses an API version Google switched off, in the words a saved
// destination moved off it is told in.
func (cm360Kind) validate(d Destination) FieldErrors {
	v := strings.TrimSpace(d.Params["apiVersion"])
	if v == "" || !retiredCM360Version(v) {
		return nil
	}
	e := fieldError(d, "apiVersion", retiredVersion)
	e.Fact.Args = map[string]string{"version": v, "current": CM360Version}
	return FieldErrors{e}
}

func (cm360Kind) target(d Destination, file media.Info, t *upload.Target) error {
	s := cm360Of(d)
	route := fmt.Sprintf("/upload/dfareporting/%s/userprofiles/%s/creativeAssets/%s/creativeAssets",
		url.PathEscape(s.APIVersion), s.ProfileID, s.AdvertiserID)
	t.Metadata = marshal(map[string]any{"assetIdentifier": map[string]string{
		"name": AssetName(file.Name),
		"type": s.assetType(file.MIME),
	}})
	t.FallbackToMultipart = true
	var err error
	t.URL, err = joinURL(d, CM360Host, route, nil)
	return err
}

// assetType is the CM360 asset type set, or the one the file's type calls for.
func (s cm360Settings) assetType(mime string) string {
	if s.AssetType != "" {
		return s.AssetType
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
	r.Fact = resultFact(addedToCM360, r, "warned", strings.Join(a.Warned, ", "))
}

// upgraded moves a version Google switched off to CM360Version.
func (cm360Kind) upgraded(d Destination) (Destination, bool) {
	v := strings.TrimSpace(d.Params["apiVersion"])
	if v == "" || !retiredCM360Version(v) {
		return d, false
	}
	d = cloned(d)
	d.Params["apiVersion"] = CM360Version
	return d, true
}

// findable: Campaign Manager 360 cannot list assets by name, so an answer
// that names no asset is not taken as done, and nothing looks for it.
func (cm360Kind) findable(d Destination, _ media.Info, _ string, p *Plan) {
	p.Target.Identifies = identifies(d)
}
