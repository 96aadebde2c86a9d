package dest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Drive is Google Drive: files.create into a folder, or files.update for a
// new version of a file.
const Drive Kind = "drive"

// DriveMaxSize is the largest file Google Drive takes: 5 TiB.
const DriveMaxSize int64 = 5 << 40

// DriveHost is Google Drive's upload host.
const DriveHost = "https://www.googleapis.com"

// driveFields are the File fields Hoist asks Drive to answer with: the
// link to show and the checksum that proves the file arrived whole.
const driveFields = "id,name,mimeType,size,md5Checksum,webViewLink"

type driveKind struct{ base }

func init() { register(driveKind{}) }

// Google Drive's own facts.
const (
	driveFolder     fact.Code = "field.driveFolder"  // not a Drive folder's link or ID
	driveFile       fact.Code = "field.driveFile"    // not a Drive file's link or ID
	folderOrFile    fact.Code = "field.folderOrFile" // both a folder and a file to replace
	savedInDrive    fact.Code = "result.drive"
	newDriveVersion fact.Code = "result.driveVersion"
)

var driveInfo = KindInfo{
	Kind:    Drive,
	Rank:    50,
	Server:  GoogleServer,
	API:     true,
	MaxSize: DriveMaxSize,
	Fields: []Field{
		{Key: "folder", Kind: TextField},
		{Key: "fileId", Kind: TextField, Advanced: true},
	},
}

// driveSettings are a Google Drive destination's settings, typed: each a
// link or an id, as typed.
type driveSettings struct {
	Folder string `key:"folder"`
	FileID string `key:"fileId"`
}

func (driveKind) settings() any { return &driveSettings{} }

func driveOf(d Destination) (s driveSettings) { typed(d, &s); return s }

func (driveKind) info() KindInfo          { return driveInfo }
func (driveKind) host(Destination) string { return DriveHost }
func (driveKind) scopes(Destination) []string {
	return []string{"https://www.googleapis.com/auth/drive.file"}
}

// factArgs: the folder, or the file to replace.
func (driveKind) factArgs(d Destination) map[string]string {
	s := driveOf(d)
	return map[string]string{"folder": s.Folder, "file": s.FileID}
}

// driveID is what Drive's IDs are made of.
var driveID = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// driveLink reads a Drive ID from a link (…/folders/ID, …/file/d/ID/…,
// …?id=ID) or takes the ID itself; "" when it holds none.
func driveLink(v string) string {
	v = strings.TrimSpace(v)
	if driveID.MatchString(v) {
		return v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return ""
	}
	if id := u.Query().Get("id"); driveID.MatchString(id) {
		return id
	}
	seg := strings.Split(strings.Trim(u.Path, "/"), "/")
	for i := 0; i+1 < len(seg); i++ {
		if (seg[i] == "folders" || seg[i] == "d") && driveID.MatchString(seg[i+1]) {
			return seg[i+1]
		}
	}
	return ""
}

func (driveKind) validate(d Destination) FieldErrors {
	var errs FieldErrors
	s := driveOf(d)
	if v := s.Folder; v != "" && driveLink(v) == "" {
		errs = append(errs, fieldError(d, "folder", driveFolder))
	}
	if v := s.FileID; v != "" && driveLink(v) == "" {
		errs = append(errs, fieldError(d, "fileId", driveFile))
	}
	if s.Folder != "" && s.FileID != "" {
		errs = append(errs, fieldError(d, "fileId", folderOrFile))
	}
	return errs
}

func (driveKind) target(d Destination, file media.Info, t *upload.Target) error {
	q := url.Values{"supportsAllDrives": {"true"}, "fields": {driveFields}}
	s := driveOf(d)
	if id := driveLink(s.FileID); id != "" {
		t.HTTPMethod = "PATCH" // files.update: the file keeps its name and place
		var err error
		t.URL, err = joinURL(d, DriveHost, "/upload/drive/v3/files/"+url.PathEscape(id), q)
		return err
	}
	meta := map[string]any{"name": file.Name}
	if id := driveLink(s.Folder); id != "" {
		meta["parents"] = []string{id}
	}
	t.Metadata = marshal(meta)
	var err error
	t.URL, err = joinURL(d, DriveHost, "/upload/drive/v3/files", q)
	return err
}

func (driveKind) result(d Destination, a answer, r *Result) {
	r.ID, r.Name = string(a.ID), a.Name
	r.URL = a.WebView
	if r.URL == "" && r.ID != "" {
		r.URL = "https://drive.google.com/file/d/" + url.PathEscape(r.ID) + "/view"
	}
	r.Fact = resultFact(savedInDrive, r)
	if driveOf(d).FileID != "" {
		r.Fact.Code = newDriveVersion
	}
}

// DriveMark is the appProperties key Hoist tags each file it makes with:
// the job's id, so that a file whose answer was lost can be found.
const DriveMark = "hoistJob"

// findable tags the file with the job's id and looks for it with files.list
// (drive.file sees the files the app made). Sending a new version again
// (files.update) makes no second file.
func (driveKind) findable(d Destination, _ media.Info, job string, p *Plan) {
	p.Target.Identifies = identifies(d)
	if driveOf(d).FileID != "" {
		p.Target.Repeatable = true
	}
	if job == "" {
		return
	}
	p.Target.Metadata = upload.AddField(p.Target.Metadata, "appProperties", map[string]string{DriveMark: job})
	q := url.Values{
		"q":                         {"appProperties has { key=" + quoteQuery(DriveMark) + " and value=" + quoteQuery(job) + " } and trashed=false"},
		"fields":                    {"files(" + driveFields + ")"},
		"supportsAllDrives":         {"true"},
		"includeItemsFromAllDrives": {"true"},
		"pageSize":                  {"10"},
	}
	list, err := joinURL(d, DriveHost, "/drive/v3/files", q)
	if err != nil {
		return
	}
	p.Find = []FindWay{{Find: func(ctx context.Context, c *http.Client) (upload.Found, error) {
		var answer struct {
			Files []json.RawMessage `json:"files"`
		}
		if _, err := getJSON(ctx, c, list, &answer); err != nil {
			return upload.Found{}, err
		}
		if len(answer.Files) == 0 {
			return upload.Found{}, nil
		}
		return upload.Found{Body: answer.Files[0]}, nil
	}}}
}
