package emulator

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// KindDrive is Google Drive's files.create and files.update.
const KindDrive Kind = "drive" // /upload/drive/v3/files[/{fileId}]

func init() {
	serve(service{prefix: "drive", kind: KindDrive, resolve: resolveDrive, routes: func(s *Server, mux *http.ServeMux) {
		mux.HandleFunc("GET /drive/v3/files", s.serveDriveList) // finds a file by its appProperties
	}})
}

const driveLimit = 5 << 40 // 5 TiB

// driveFileFields are the File fields the sandbox knows; fields= may name them.
var driveFileFields = []string{"kind", "id", "name", "mimeType", "size", "md5Checksum", "webViewLink", "parents", "description", "createdTime", "modifiedTime"}

var driveIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

type driveEndpoint struct {
	fileID string // files.update: the file given a new version; "" for files.create
}

// resolveDrive maps POST /upload/drive/v3/files and PATCH /upload/drive/v3/files/{fileId}.
func resolveDrive(method string, seg []string) (endpoint, *apiError) {
	if len(seg) < 3 || seg[1] != "v3" || seg[2] != "files" {
		return nil, methodNotFound()
	}
	switch {
	case len(seg) == 3 && method == http.MethodPost:
		return &driveEndpoint{}, nil
	case len(seg) == 4 && seg[3] != "" && method == http.MethodPatch:
		return &driveEndpoint{fileID: seg[3]}, nil
	}
	return nil, methodNotFound()
}

func (e *driveEndpoint) kind() Kind { return KindDrive }

// answersMD5: a Drive file's md5Checksum is the bytes' MD5.
func (e *driveEndpoint) answersMD5() bool { return true }
func (e *driveEndpoint) action() string {
	if e.fileID != "" {
		return "drive.files.update"
	}
	return "drive.files.create"
}
func (e *driveEndpoint) limit() int64    { return driveLimit }
func (e *driveEndpoint) accepts() string { return "*/*" }
func (e *driveEndpoint) newID() string   { return "1" + randomHex(16) }

// driveFile is the part of a File resource a request may set.
type driveFile struct {
	Name     string   `json:"name"`
	MimeType string   `json:"mimeType"`
	Parents  []string `json:"parents"`
}

func (e *driveEndpoint) check(s *Server, u *uploadInfo) *apiError {
	if v := u.query.Get("supportsAllDrives"); v != "" {
		if _, err := strconv.ParseBool(v); err != nil {
			return invalid("Invalid value for boolean parameter supportsAllDrives: %q", v)
		}
	}
	if f := u.query.Get("fields"); f != "" && f != "*" {
		for _, name := range strings.Split(f, ",") {
			if !slices.Contains(driveFileFields, strings.TrimSpace(name)) {
				return invalid("Invalid field selection %s", strings.TrimSpace(name))
			}
		}
	}
	if e := checkFields(u.metadata, "", "name", "mimeType", "parents", "description", "appProperties", "properties"); e != nil {
		return e
	}
	meta, bad := e.file(u.metadata)
	if bad != nil {
		return bad
	}
	if e.fileID != "" {
		if meta.Parents != nil {
			return newError(http.StatusForbidden, "fieldNotWritable",
				"The resource body includes fields which are not directly writable.")
		}
		if _, ok := s.driveFile(e.fileID); !ok {
			return notFound("File not found: %s.", e.fileID)
		}
		return nil
	}
	if len(meta.Parents) > 1 {
		return newError(http.StatusForbidden, "cannotAddParent", "Increasing the number of parents is not allowed.")
	}
	for _, p := range meta.Parents {
		if !driveIDPattern.MatchString(p) {
			return notFound("File not found: %s.", p)
		}
	}
	return nil
}

func (e *driveEndpoint) file(meta json.RawMessage) (driveFile, *apiError) {
	var f driveFile
	if meta != nil && json.Unmarshal(meta, &f) != nil {
		return f, invalid("Invalid JSON payload received: a File resource has a string name and a list of parents.")
	}
	return f, nil
}

func (e *driveEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

// driveFile finds the file id names: the object made by files.create.
func (s *Server) driveFile(id string) (Object, bool) {
	o, ok := s.store.Object(id)
	return o, ok && o.Kind == KindDrive
}

func (e *driveEndpoint) resource(s *Server, f *finished) resourceResult {
	meta, _ := e.file(f.info.metadata)
	id, name := f.id, meta.Name
	if e.fileID != "" {
		id = e.fileID
		if o, ok := s.driveFile(e.fileID); ok && name == "" {
			name = o.Name
		}
	}
	if name == "" {
		name = "Untitled"
	}
	mimeType := meta.MimeType
	if mimeType == "" {
		mimeType = mediaType(f.info.contentType)
	}
	if mimeType == "" {
		mimeType = "application/octet-stream"
	}
	all := map[string]any{
		"kind": "drive#file", "id": id, "name": name, "mimeType": mimeType,
		"size":        strconv.FormatInt(f.content.Size, 10),
		"webViewLink": f.base + "/sandbox/objects/" + f.id,
		"createdTime": f.created.Format("2006-01-02T15:04:05.000Z"),
	}
	all["modifiedTime"] = all["createdTime"]
	if f.content.MD5 != "" {
		all["md5Checksum"] = f.content.MD5
	}
	if meta.Parents != nil {
		all["parents"] = meta.Parents
	}
	// Drive answers kind, id, name and mimeType unless fields= asks for others.
	want := []string{"kind", "id", "name", "mimeType"}
	switch q := f.info.query.Get("fields"); q {
	case "":
	case "*":
		want = driveFileFields
	default:
		want = strings.Split(q, ",")
	}
	body := map[string]any{}
	for _, k := range want {
		if v, ok := all[strings.TrimSpace(k)]; ok {
			body[strings.TrimSpace(k)] = v
		}
	}
	return resourceResult{name: name, body: body}
}

// driveQuery is the one query shape the sandbox's files.list understands:
// appProperties has { key='K' and value='V' }, optionally "and trashed=false".
var driveQuery = regexp.MustCompile(`^\s*appProperties\s+has\s*\{\s*key\s*=\s*'((?:[^'\\]|\\.)*)'\s+and\s+value\s*=\s*'((?:[^'\\]|\\.)*)'\s*\}(\s+and\s+trashed\s*=\s*false)?\s*$`)

func unquoteDrive(s string) string {
	return strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(s)
}

func (s *Server) serveDriveList(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	q := r.URL.Query()
	m := driveQuery.FindStringSubmatch(q.Get("q"))
	if m == nil {
		writeError(w, newError(http.StatusBadRequest, "invalid", "Invalid Value"))
		return
	}
	key, value := unquoteDrive(m[1]), unquoteDrive(m[2])
	fields, ok := driveListFields(q.Get("fields"))
	if !ok {
		writeError(w, invalid("Invalid field selection %s", q.Get("fields")))
		return
	}
	byID := map[string]map[string]any{} // the newest version of each file
	var order []string
	for _, o := range s.store.Objects() {
		if o.Kind != KindDrive {
			continue
		}
		var meta struct {
			AppProperties map[string]string `json:"appProperties"`
		}
		if json.Unmarshal(o.Metadata, &meta) != nil || meta.AppProperties[key] != value {
			continue
		}
		var file map[string]any
		if json.Unmarshal(o.Response, &file) != nil {
			continue
		}
		id, _ := file["id"].(string)
		if _, seen := byID[id]; !seen {
			order = append(order, id)
		}
		byID[id] = file
	}
	files := []map[string]any{}
	for _, id := range order {
		out := map[string]any{}
		for _, f := range fields {
			if v, ok := byID[id][f]; ok {
				out[f] = v
			}
		}
		files = append(files, out)
	}
	writeList(w, map[string]any{"kind": "drive#fileList", "incompleteSearch": false, "files": files})
}

// driveListFields reads fields=files(a,b) (or nothing: Drive's default).
func driveListFields(v string) ([]string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return []string{"kind", "id", "name", "mimeType"}, true
	}
	for _, part := range splitTop(v) {
		inner, ok := strings.CutPrefix(part, "files(")
		if !ok {
			if part == "nextPageToken" || part == "kind" || part == "incompleteSearch" {
				continue
			}
			return nil, false
		}
		var out []string
		for _, f := range strings.Split(strings.TrimSuffix(inner, ")"), ",") {
			f = strings.TrimSpace(f)
			if !slices.Contains(driveFileFields, f) && f != "appProperties" {
				return nil, false
			}
			out = append(out, f)
		}
		return out, true
	}
	return []string{"kind", "id", "name", "mimeType"}, true
}

// splitTop splits a fields selector at the commas outside parentheses.
func splitTop(v string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range v {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(v[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(v[start:]))
}
