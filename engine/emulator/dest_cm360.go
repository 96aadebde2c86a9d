package emulator

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// KindCampaignManager is Campaign Manager 360's creativeAssets.insert.
const KindCampaignManager Kind = "cm360" // /upload/dfareporting/v5/userprofiles/.../creativeAssets (v4: 403, switched off)

func init() {
	serve(service{prefix: "dfareporting", kind: KindCampaignManager, resolve: resolveCampaignManager, fallsBack: true,
		routes: func(s *Server, mux *http.ServeMux) {
			mux.HandleFunc("GET /dfareporting/v5/userprofiles", s.serveProfiles)
			mux.HandleFunc("GET /dfareporting/v5/userprofiles/{profileId}/advertisers", s.serveAdvertisers)
		},
		lists: campaignManagerLists,
	})
}

// The lists behind Campaign Manager 360's pickers: userProfiles.list and
// advertisers.list (v5).
const (
	listProfiles    = "cm360.profiles"    // []ListedProfile
	listAdvertisers = "cm360.advertisers" // map[string][]ListedAdvertiser, by profile id
)

// ListedProfile is a CM360 user profile as userProfiles.list gives it.
type ListedProfile struct {
	ProfileID   string `json:"profileId"`
	UserName    string `json:"userName"`
	AccountID   string `json:"accountId"`
	AccountName string `json:"accountName"`
}

// ListedAdvertiser is a CM360 advertiser as advertisers.list gives it.
type ListedAdvertiser struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	AccountID string `json:"accountId"`
	Status    string `json:"status"`
}

// campaignManagerLists are what the sandbox offers unless told otherwise:
// two profiles, one of whose accounts has no advertiser.
func campaignManagerLists() Lists {
	adv := func(id, name string) ListedAdvertiser {
		return ListedAdvertiser{ID: id, Name: name, AccountID: "817771", Status: "APPROVED"}
	}
	return Lists{
		listProfiles: []ListedProfile{
			{ProfileID: "4180912", UserName: "trafficking@northwind.example", AccountID: "817771", AccountName: "Northwind Media"},
			{ProfileID: "5519020", UserName: "trafficking@northwind.example", AccountID: "902215", AccountName: "Northwind Labs (no advertisers yet)"},
		},
		listAdvertisers: map[string][]ListedAdvertiser{
			"4180912": {
				adv("64032117", "ACME Outdoor"),
				adv("64032118", "Blue Harbor Coffee"),
				adv("64032150", "Contoso Bikes"),
				adv("64032171", "Fabrikam Shoes — Spring"),
				adv("64032199", "Tailspin Toys"),
			},
		},
	}
}

func (s *Server) serveProfiles(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	items := listed[[]ListedProfile](s, listProfiles)
	type item struct {
		Kind string `json:"kind"`
		ListedProfile
	}
	out := make([]item, len(items))
	for i, p := range items {
		out[i] = item{"dfareporting#userProfile", p}
	}
	writeList(w, map[string]any{"kind": "dfareporting#userProfileList", "etag": `"sandbox"`, "items": out})
}

func (s *Server) serveAdvertisers(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	id := r.PathValue("profileId")
	if !slices.ContainsFunc(listed[[]ListedProfile](s, listProfiles), func(p ListedProfile) bool { return p.ProfileID == id }) {
		writeError(w, newError(http.StatusForbidden, "forbidden", "The current user does not have access to profile %s.", id))
		return
	}
	search := strings.ToLower(strings.Trim(r.URL.Query().Get("searchString"), "*"))
	type item struct {
		Kind string `json:"kind"`
		ListedAdvertiser
	}
	out := []item{}
	for _, a := range listed[map[string][]ListedAdvertiser](s, listAdvertisers)[id] {
		if search == "" || strings.Contains(strings.ToLower(a.Name), search) || a.ID == search {
			out = append(out, item{"dfareporting#advertiser", a})
		}
	}
	writeList(w, map[string]any{"kind": "dfareporting#advertisersListResponse", "advertisers": out})
}

const campaignManagerLimit = 1 << 30

type campaignManagerEndpoint struct {
	profile, advertiser string
}

// campaignManagerVersion is the API version Campaign Manager 360 serves;
// campaignManagerSunset the one Google switched off on 26 February 2026,
// which answers as Google's sunset versions do at first: 403 and why.
const (
	campaignManagerVersion = "v5"
	campaignManagerSunset  = "v4"
)

// resolveCampaignManager maps
// /upload/dfareporting/v5/userprofiles/{profileId}/creativeAssets/{advertiserId}/creativeAssets.
func resolveCampaignManager(method string, seg []string) (endpoint, *apiError) {
	if len(seg) != 7 || seg[2] != "userprofiles" ||
		seg[4] != "creativeAssets" || seg[6] != "creativeAssets" || method != http.MethodPost {
		return nil, methodNotFound()
	}
	switch seg[1] {
	case campaignManagerVersion:
	case campaignManagerSunset:
		return nil, versionSunset(seg[1])
	default:
		return nil, methodNotFound()
	}
	return &campaignManagerEndpoint{profile: seg[3], advertiser: seg[5]}, nil
}

// versionSunset is Google's answer to a request to an API version it has
// switched off.
func versionSunset(version string) *apiError {
	return newError(http.StatusForbidden, "forbidden",
		"3140 : Version %s of the DCM/DFA Reporting And Trafficking API is no longer supported. Please migrate to a supported version of the API.", version)
}

func (c *campaignManagerEndpoint) kind() Kind      { return KindCampaignManager }
func (c *campaignManagerEndpoint) action() string  { return "dfareporting.creativeAssets.insert" }
func (c *campaignManagerEndpoint) limit() int64    { return campaignManagerLimit }
func (c *campaignManagerEndpoint) accepts() string { return "*/*" }
func (c *campaignManagerEndpoint) newID() string {
	return strconv.FormatInt(randomInt(1e9, 1e11), 10)
}

var creativeAssetFields = []string{
	"kind", "id", "assetIdentifier", "clickTags", "counterCustomEvents", "detectedFeatures",
	"exitCustomEvents", "idDimensionValue", "richMedia", "timerCustomEvents", "warnedValidationRules",
}

var creativeAssetTypes = []string{"HTML_IMAGE", "VIDEO", "HTML", "AUDIO"}

type assetIdentifier struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

func (c *campaignManagerEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	for _, p := range []struct{ field, value string }{{"profile_id", c.profile}, {"advertiser_id", c.advertiser}} {
		if n, err := strconv.ParseInt(p.value, 10, 64); err != nil || n <= 0 {
			return invalidEnum(p.field, "TYPE_INT64", p.value)
		}
	}
	_, e := c.asset(u.metadata)
	return e
}

// asset reads and checks the CreativeAssetMetadata's assetIdentifier.
func (c *campaignManagerEndpoint) asset(meta json.RawMessage) (assetIdentifier, *apiError) {
	var a assetIdentifier
	if meta == nil {
		return a, invalid("Creative asset metadata is required: send {\"assetIdentifier\": {\"name\": ..., \"type\": ...}} with the file.")
	}
	if e := checkFields(meta, "", creativeAssetFields...); e != nil {
		return a, e
	}
	var m struct {
		AssetIdentifier json.RawMessage `json:"assetIdentifier"`
	}
	if err := json.Unmarshal(meta, &m); err != nil || m.AssetIdentifier == nil || string(m.AssetIdentifier) == "null" {
		return a, invalid("assetIdentifier is required.")
	}
	if e := checkFields(m.AssetIdentifier, "assetIdentifier.", "name", "type"); e != nil {
		return a, e
	}
	if err := json.Unmarshal(m.AssetIdentifier, &a); err != nil {
		return a, invalid("Invalid JSON payload received: assetIdentifier.name and assetIdentifier.type must be strings.")
	}
	if strings.TrimSpace(a.Name) == "" {
		return a, invalid("assetIdentifier.name is required.")
	}
	for _, r := range a.Name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(".-_ ", r) {
			return a, invalid("Invalid asset name %q: it may contain only letters, digits, spaces, '.', '-' and '_'.", a.Name)
		}
	}
	switch {
	case a.Type == "":
		return a, invalid("assetIdentifier.type is required.")
	case a.Type == "IMAGE" || a.Type == "FLASH":
		return a, invalid("Asset type %s is no longer accepted for new assets; upload images as HTML_IMAGE.", a.Type)
	case !slices.Contains(creativeAssetTypes, a.Type):
		return a, invalidEnum("asset_identifier.type", "type.googleapis.com/dfareporting.AssetIdentifier.Type", a.Type)
	}
	return a, nil
}

func (c *campaignManagerEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

func (c *campaignManagerEndpoint) resource(_ *Server, f *finished) resourceResult {
	a, _ := c.asset(f.info.metadata)
	return resourceResult{name: a.Name, body: struct {
		Kind            string          `json:"kind"`
		ID              string          `json:"id"`
		AssetIdentifier assetIdentifier `json:"assetIdentifier"`
	}{"dfareporting#creativeAssetMetadata", f.id, a}}
}
