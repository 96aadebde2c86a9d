package dest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"hoist/engine/fact"
	"hoist/engine/upload"
)

// Cloud Storage objects. An upload to Cloud Storage's JSON API
// (/upload/storage/v1/b/{bucket}/o, the object's name in name= or the
// metadata) is made exactly once with a generation precondition: before the
// first byte the object's current generation is read (none: 0), and the
// upload stores its object only while that generation holds. Sending it
// again after a lost answer is then safe: a copy that arrived makes Cloud
// Storage refuse the repeat with 412, and the object found under the name
// is the upload's when its size and checksum are the file's. The server is
// told the file's CRC32C, so it refuses bytes that do not match. Any
// destination whose uploads go to Cloud Storage uses this.

// damagedOnWay is Cloud Storage's refusal of bytes that do not match the
// checksum the upload named: they were damaged on the way, and sending the
// file again, in a new session, may bring them whole.
const damagedOnWay fact.Code = "google.checksum"

// checksumRefused reports Cloud Storage's refusal of bytes that do not
// match the CRC32C or MD5 the upload named.
func checksumRefused(e *upload.APIError) bool {
	m := strings.ToLower(e.Message)
	return e.Status == http.StatusBadRequest && (strings.Contains(m, "crc32c") || strings.Contains(m, "md5")) && strings.Contains(m, "match")
}

// storageObject is the object an upload address of Cloud Storage names.
type storageObject struct {
	get          string // the object's metadata (objects.get)
	bucket, name string
}

// storagePath reads the bucket of a Cloud Storage upload path, /upload/storage/v1/b/{bucket}/o.
func storagePath(p string) (bucket string, ok bool) {
	seg := strings.Split(strings.TrimPrefix(p, "/upload/storage/v1/b/"), "/")
	if !strings.HasPrefix(p, "/upload/storage/v1/b/") || len(seg) != 2 || seg[0] == "" || seg[1] != "o" {
		return "", false
	}
	return seg[0], true
}

// storageTarget reads the object an upload target of Cloud Storage names;
// ok false when the target is not one, or names no object.
func storageTarget(t *upload.Target) (storageObject, bool) {
	u, err := url.Parse(t.URL)
	if err != nil {
		return storageObject{}, false
	}
	bucket, ok := storagePath(u.Path)
	if !ok {
		return storageObject{}, false
	}
	name := u.Query().Get("name")
	if len(t.Metadata) > 0 {
		var meta struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t.Metadata, &meta) == nil && meta.Name != "" {
			name = meta.Name
		}
	}
	if name == "" {
		return storageObject{}, false
	}
	get := url.URL{Scheme: u.Scheme, Host: u.Host,
		Path:    "/storage/v1/b/" + bucket + "/o/" + name,
		RawPath: "/storage/v1/b/" + url.PathEscape(bucket) + "/o/" + url.PathEscape(name)}
	if up := u.Query().Get("userProject"); up != "" {
		get.RawQuery = url.Values{"userProject": {up}}.Encode()
	}
	return storageObject{get: get.String(), bucket: bucket, name: name}, true
}

// exactlyOnce makes an upload to Cloud Storage conditional, findable and
// checked by the server; false when t is not such an upload.
func exactlyOnce(t *upload.Target, p *Plan) bool {
	o, ok := storageTarget(t)
	if !ok {
		return false
	}
	t.Pin = storagePin{}
	t.SendCRC32C = true
	p.Find = []FindWay{{Find: o.find}}
	return true
}

// find reads the object's metadata: what the name holds now.
func (o storageObject) find(ctx context.Context, c *http.Client) (upload.Found, error) {
	var obj struct {
		Generation id `json:"generation"`
	}
	var raw json.RawMessage
	found, err := getJSON(ctx, c, o.get, &raw)
	if err != nil || !found {
		return upload.Found{}, err
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return upload.Found{}, err
	}
	return upload.Found{Body: raw, ByName: true, Generation: string(obj.Generation)}, nil
}

// freeNameAsked reports an upload address that sets its own precondition
// that the name hold nothing (ifGenerationMatch=0).
func freeNameAsked(target string) bool {
	u, err := url.Parse(target)
	return err == nil && u.Query().Get("ifGenerationMatch") == "0"
}

// storagePin is Cloud Storage's generation precondition.
type storagePin struct{}

// Pin adds ifGenerationMatch: the generation found, or 0 for a name that
// holds nothing. An address with a generation precondition of its own
// keeps it.
func (storagePin) Pin(target string, f upload.Found) (string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return target, nil
	}
	q := u.Query()
	if q.Has("ifGenerationMatch") || q.Has("ifGenerationNotMatch") {
		return target, nil
	}
	g := f.Generation
	if f.Body == nil || g == "" {
		g = "0"
	}
	if u.RawQuery != "" {
		u.RawQuery += "&"
	}
	u.RawQuery += "ifGenerationMatch=" + url.QueryEscape(g)
	return u.String(), nil
}
