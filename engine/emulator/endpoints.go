package emulator

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io"
	"math/big"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gabriel-vasile/mimetype"
	"golang.org/x/text/encoding/htmlindex"
)

// uploadInfo is what is known of an upload before its bytes.
type uploadInfo struct {
	method      string
	path        string
	query       url.Values
	metadata    json.RawMessage // nil when none was sent
	contentType string          // of the bytes
	size        int64           // declared; -1 when unknown
	uploadType  string
}

// finished is a complete upload whose answer is being made.
type finished struct {
	id      string
	info    *uploadInfo
	content content
	base    string // scheme://host for links
	created time.Time
}

type resourceResult struct {
	name  string
	draft string
	body  any
}

// endpoint is one API method that accepts media, with Google's rules for it.
type endpoint interface {
	kind() Kind
	action() string // the API method's name, e.g. "gmail.users.messages.insert"
	limit() int64   // maximum upload size; 0: none
	accepts() string
	// check applies the rules on what is known before the bytes: path, query, metadata.
	check(s *Server, u *uploadInfo) *apiError
	// inspect applies the rules on the bytes themselves.
	inspect(u *uploadInfo, c content) *apiError
	newID() string
	resource(s *Server, f *finished) resourceResult
}

// resolve finds the method served at an upload path.
func resolve(method, path string) (endpoint, *apiError) {
	if method != http.MethodPost && method != http.MethodPut && method != http.MethodPatch {
		return nil, methodNotFound()
	}
	seg := strings.Split(strings.TrimPrefix(path, "/upload/"), "/")
	switch seg[0] {
	case "gmail":
		return resolveGmail(method, seg)
	case "dfareporting":
		return resolveCampaignManager(method, seg)
	case "games":
		return resolvePlayGames(method, seg)
	}
	return resolveGeneric(seg), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// randomInt returns a uniform number in [lo, hi).
func randomInt(lo, hi int64) int64 {
	n, err := rand.Int(rand.Reader, big.NewInt(hi-lo))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return lo + n.Int64()
}

func unknownField(name string) *apiError {
	return invalid("Invalid JSON payload received. Unknown name %q: Cannot find field.", name)
}

// checkFields refuses fields a resource does not have, as Google's front end does.
func checkFields(raw json.RawMessage, prefix string, allowed ...string) *apiError {
	if raw == nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return invalid("Invalid JSON payload received: %s must be a JSON object.", strings.TrimSuffix(prefix, "."))
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return unknownField(prefix + k)
		}
	}
	return nil
}

func invalidEnum(field, typ, value string) *apiError {
	return invalid("Invalid value at '%s' (%s), %q", field, typ, value)
}

// --- Gmail ---

const (
	gmailMailboxLimit = 150 << 20 // users.messages.insert and import
	gmailSendLimit    = 35 << 20  // users.messages.send, users.drafts.create and update
)

type gmailOp string

const (
	gmailInsert      gmailOp = "gmail.users.messages.insert"
	gmailImport      gmailOp = "gmail.users.messages.import"
	gmailSend        gmailOp = "gmail.users.messages.send"
	gmailDraftCreate gmailOp = "gmail.users.drafts.create"
	gmailDraftUpdate gmailOp = "gmail.users.drafts.update"
)

type gmailEndpoint struct {
	op    gmailOp
	user  string
	draft string // drafts.update: the draft replaced
}

// resolveGmail maps /upload/gmail/v1/users/{userId}/... to a method.
func resolveGmail(method string, seg []string) (endpoint, *apiError) {
	if len(seg) < 5 || seg[1] != "v1" || seg[2] != "users" || seg[3] == "" {
		return nil, methodNotFound()
	}
	ep := &gmailEndpoint{user: seg[3]}
	want := http.MethodPost
	switch rest := seg[4:]; {
	case len(rest) == 1 && rest[0] == "messages":
		ep.op = gmailInsert
	case len(rest) == 2 && rest[0] == "messages" && rest[1] == "import":
		ep.op = gmailImport
	case len(rest) == 2 && rest[0] == "messages" && rest[1] == "send":
		ep.op = gmailSend
	case len(rest) == 1 && rest[0] == "drafts":
		ep.op = gmailDraftCreate
	case len(rest) == 2 && rest[0] == "drafts" && rest[1] != "":
		ep.op, ep.draft, want = gmailDraftUpdate, rest[1], http.MethodPut
	default:
		return nil, methodNotFound()
	}
	if method != want {
		return nil, methodNotFound()
	}
	return ep, nil
}

func (g *gmailEndpoint) kind() Kind      { return KindGmail }
func (g *gmailEndpoint) action() string  { return string(g.op) }
func (g *gmailEndpoint) accepts() string { return "message/*" }
func (g *gmailEndpoint) newID() string   { return randomHex(8) }

func (g *gmailEndpoint) limit() int64 {
	if g.op == gmailInsert || g.op == gmailImport {
		return gmailMailboxLimit
	}
	return gmailSendLimit
}

func (g *gmailEndpoint) isDraft() bool { return g.op == gmailDraftCreate || g.op == gmailDraftUpdate }

var gmailMessageFields = []string{
	"id", "threadId", "labelIds", "snippet", "historyId", "internalDate",
	"payload", "sizeEstimate", "raw", "classificationLabelValues",
}

var gmailSystemLabels = []string{
	"INBOX", "SPAM", "TRASH", "UNREAD", "STARRED", "IMPORTANT", "SENT", "DRAFT", "CHAT",
	"CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES", "CATEGORY_FORUMS",
}

var gmailUserLabel = regexp.MustCompile(`^Label_[0-9]+$`)

type gmailMessageMeta struct {
	ThreadID string   `json:"threadId"`
	LabelIDs []string `json:"labelIds"`
}

type gmailDraftMeta struct {
	ID      string          `json:"id"`
	Message json.RawMessage `json:"message"`
}

func (g *gmailEndpoint) check(s *Server, u *uploadInfo) *apiError {
	if g.user != "me" && !strings.Contains(g.user, "@") {
		return badRequest("Invalid user id specified in request/Delegation denied")
	}
	if e := g.checkQuery(u.query); e != nil {
		return e
	}
	if _, e := g.message(u.metadata); e != nil {
		return e
	}
	if g.op == gmailDraftUpdate && !s.draftExists(g.draft) {
		return notFound("Requested entity was not found.")
	}
	return nil
}

func (g *gmailEndpoint) checkQuery(q url.Values) *apiError {
	var bools []string
	switch g.op {
	case gmailInsert:
		bools = []string{"deleted"}
	case gmailImport:
		bools = []string{"deleted", "neverMarkSpam", "processForCalendar"}
	default:
		return nil
	}
	if v := q.Get("internalDateSource"); v != "" && v != "receivedTime" && v != "dateHeader" {
		return invalidEnum("internal_date_source", "type.googleapis.com/gmail.InternalDateSource", v)
	}
	for _, name := range bools {
		if v := q.Get(name); v != "" && v != "true" && v != "false" {
			return invalid("Invalid value at '%s' (TYPE_BOOL), %q", name, v)
		}
	}
	return nil
}

// message reads the Message metadata, inside a Draft for the drafts methods.
func (g *gmailEndpoint) message(meta json.RawMessage) (gmailMessageMeta, *apiError) {
	var m gmailMessageMeta
	prefix := ""
	if g.isDraft() {
		if e := checkFields(meta, "", "id", "message"); e != nil {
			return m, e
		}
		var d gmailDraftMeta
		if meta != nil {
			if err := json.Unmarshal(meta, &d); err != nil {
				return m, invalid("Invalid JSON payload received: the Draft resource is malformed.")
			}
		}
		meta, prefix = d.Message, "message."
		if string(meta) == "null" {
			meta = nil
		}
	}
	if e := checkFields(meta, prefix, gmailMessageFields...); e != nil {
		return m, e
	}
	if meta != nil {
		if err := json.Unmarshal(meta, &m); err != nil {
			return m, invalid("Invalid JSON payload received: threadId must be a string and labelIds a list of strings.")
		}
	}
	for _, l := range m.LabelIDs {
		if !slices.Contains(gmailSystemLabels, l) && !gmailUserLabel.MatchString(l) {
			return m, invalid("Invalid label: %s", l)
		}
	}
	return m, nil
}

func (g *gmailEndpoint) inspect(u *uploadInfo, c content) *apiError {
	if c.Size == 0 {
		return invalid("The uploaded media is empty; it must be an RFC 822 email message.")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(c.Head))
	if err != nil {
		return invalid("The uploaded media is not an RFC 822 email message: %v.", err)
	}
	if g.op == gmailSend {
		h := msg.Header
		if h.Get("To") == "" && h.Get("Cc") == "" && h.Get("Bcc") == "" {
			return invalid("Recipient address required")
		}
	}
	return nil
}

func (g *gmailEndpoint) resource(s *Server, f *finished) resourceResult {
	meta, _ := g.message(f.info.metadata)
	thread := meta.ThreadID
	if thread == "" {
		thread = f.id
	}
	labels := meta.LabelIDs
	switch {
	case g.op == gmailSend:
		labels = []string{"SENT"}
	case g.isDraft():
		labels = []string{"DRAFT"}
	}
	msg := gmailMessage{ID: f.id, ThreadID: thread, LabelIDs: labels}
	res := resourceResult{name: subject(f.content.Head), body: msg}
	if g.isDraft() {
		res.draft = g.draft
		if res.draft == "" {
			res.draft = "r" + strconv.FormatInt(randomInt(1e18, 9e18), 10)
		}
		res.body = gmailDraft{ID: res.draft, Message: msg}
	}
	return res
}

type gmailMessage struct {
	ID       string   `json:"id"`
	ThreadID string   `json:"threadId"`
	LabelIDs []string `json:"labelIds,omitempty"`
}

type gmailDraft struct {
	ID      string       `json:"id"`
	Message gmailMessage `json:"message"`
}

// subjectDecoder reads encoded words in any charset mail programs use, such
// as windows-1256 for Arabic and ISO-8859-8 for Hebrew, not only UTF-8.
var subjectDecoder = &mime.WordDecoder{CharsetReader: func(charset string, input io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, err
	}
	return enc.NewDecoder().Reader(input), nil
}}

// subject is a message's decoded Subject, to name it in listings.
func subject(head []byte) string {
	msg, err := mail.ReadMessage(bytes.NewReader(head))
	if err != nil {
		return ""
	}
	sub := msg.Header.Get("Subject")
	if dec, err := subjectDecoder.DecodeHeader(sub); err == nil {
		return dec
	}
	return sub
}

// draftExists tells whether a Gmail draft was created here.
func (s *Server) draftExists(id string) bool {
	for _, o := range s.store.Objects() {
		if o.Kind == KindGmail && o.Draft == id {
			return true
		}
	}
	return false
}

// --- Campaign Manager 360 ---

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

// --- Play Games Services Publishing ---

const playGamesLimit = 15 << 20

var playGamesImageTypes = []string{"ACHIEVEMENT_ICON", "LEADERBOARD_ICON"}

type playGamesEndpoint struct {
	resourceID, imageType string
}

// resolvePlayGames maps /upload/games/v1configuration/images/{resourceId}/imageType/{imageType}.
func resolvePlayGames(method string, seg []string) (endpoint, *apiError) {
	if len(seg) != 6 || seg[1] != "v1configuration" || seg[2] != "images" || seg[3] == "" ||
		seg[4] != "imageType" || seg[5] == "" || method != http.MethodPost {
		return nil, methodNotFound()
	}
	return &playGamesEndpoint{resourceID: seg[3], imageType: seg[5]}, nil
}

func (p *playGamesEndpoint) kind() Kind { return KindPlayGames }
func (p *playGamesEndpoint) action() string {
	return "gamesConfiguration.imageConfigurations.upload"
}
func (p *playGamesEndpoint) limit() int64    { return playGamesLimit }
func (p *playGamesEndpoint) accepts() string { return "image/*" }
func (p *playGamesEndpoint) newID() string   { return randomHex(8) }

func (p *playGamesEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	if !slices.Contains(playGamesImageTypes, p.imageType) {
		return invalidEnum("image_type", "type.googleapis.com/gamesConfiguration.ImageConfiguration.ImageType", p.imageType)
	}
	// The method takes no request body: any field is unknown.
	return checkFields(u.metadata, "")
}

func (p *playGamesEndpoint) inspect(_ *uploadInfo, c content) *apiError {
	if c.Size == 0 {
		return invalid("The uploaded image is empty.")
	}
	if _, ok := sniffImage(c.Head); !ok {
		return invalid("The uploaded file is not an image.")
	}
	return nil
}

// imageExtensions names served images by their sniffed type.
var imageExtensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
	"image/bmp": ".bmp", "image/x-icon": ".ico",
}

// sniffImage tells whether content is an image by its first bytes, and the
// extension its URL gets: the web's sniffing rules first, then a detector
// that also knows TIFF, SVG, HEIF, AVIF and the other formats image/* covers.
func sniffImage(head []byte) (ext string, ok bool) {
	if t := http.DetectContentType(head); strings.HasPrefix(t, "image/") {
		if ext, ok := imageExtensions[t]; ok {
			return ext, true
		}
		if m := mimetype.Lookup(t); m != nil {
			return m.Extension(), true
		}
		return "", true
	}
	if t := mimetype.Detect(head); strings.HasPrefix(t.String(), "image/") {
		return t.Extension(), true
	}
	return "", false
}

func imageExtension(head []byte) string {
	if ext, ok := sniffImage(head); ok && ext != "" {
		return ext
	}
	return ".img"
}

func (p *playGamesEndpoint) resource(_ *Server, f *finished) resourceResult {
	return resourceResult{name: p.resourceID, body: struct {
		Kind       string `json:"kind"`
		URL        string `json:"url"`
		ResourceID string `json:"resourceId"`
		ImageType  string `json:"imageType"`
	}{
		"gamesConfiguration#imageConfiguration",
		f.base + "/games/images/" + f.id + imageExtension(f.content.Head),
		p.resourceID, p.imageType,
	}}
}

// --- any other /upload/ path, stored like a Cloud Storage object ---

type genericEndpoint struct {
	bucket  string
	storage bool // /upload/storage/v1/b/{bucket}/o: Cloud Storage's objects.insert
}

func resolveGeneric(seg []string) endpoint {
	if len(seg) == 5 && seg[0] == "storage" && seg[1] == "v1" && seg[2] == "b" && seg[3] != "" && seg[4] == "o" {
		return &genericEndpoint{bucket: seg[3], storage: true}
	}
	return &genericEndpoint{}
}

func (g *genericEndpoint) kind() Kind { return KindGeneric }
func (g *genericEndpoint) action() string {
	if g.storage {
		return "storage.objects.insert"
	}
	return "upload"
}
func (g *genericEndpoint) limit() int64    { return 0 }
func (g *genericEndpoint) accepts() string { return "*/*" }
func (g *genericEndpoint) newID() string   { return randomHex(8) }

func (g *genericEndpoint) name(u *uploadInfo) string {
	if n := metadataString(u.metadata, "name"); n != "" {
		return n
	}
	return u.query.Get("name")
}

func (g *genericEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	if g.storage && g.name(u) == "" {
		return newError(http.StatusBadRequest, "required", "Required")
	}
	return nil
}

func (g *genericEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

func (g *genericEndpoint) resource(_ *Server, f *finished) resourceResult {
	name := g.name(f.info)
	if name == "" {
		name = f.id
	}
	ct := f.info.contentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	body := map[string]any{}
	if f.info.metadata != nil {
		_ = json.Unmarshal(f.info.metadata, &body) // echoed like Cloud Storage echoes metadata
	}
	var crc [4]byte
	binary.BigEndian.PutUint32(crc[:], f.content.CRC32C)
	generation := strconv.FormatInt(f.created.UnixMicro(), 10)
	when := f.created.Format(time.RFC3339Nano)
	for k, v := range map[string]any{
		"kind": "storage#object", "id": f.id, "name": name,
		"size": strconv.FormatInt(f.content.Size, 10), "contentType": ct,
		"crc32c": base64.StdEncoding.EncodeToString(crc[:]), "sha256Hash": f.content.SHA256,
		"generation": generation, "metageneration": "1",
		"timeCreated": when, "updated": when,
		"mediaLink": f.base + "/sandbox/objects/" + f.id,
		"selfLink":  f.base + "/sandbox/objects/" + f.id + "/info",
	} {
		body[k] = v
	}
	if g.storage {
		body["bucket"] = g.bucket
		body["id"] = g.bucket + "/" + name + "/" + generation
		body["selfLink"] = f.base + "/storage/v1/b/" + url.PathEscape(g.bucket) + "/o/" + url.PathEscape(name)
	}
	return resourceResult{name: name, body: body}
}
