package emulator

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Cloud Storage's JSON API: objects.insert (/upload/storage/v1/b/{bucket}/o,
// the object's name in name= or the metadata), an object's metadata
// (objects.get), generation preconditions (ifGenerationMatch,
// ifGenerationNotMatch: 412 conditionNotMet when they do not hold) and the
// checksums a client names (crc32c and md5Hash in the metadata, X-Goog-Hash
// on the request with the last byte: 400 when the bytes do not match).
// Objects of a name keep their generations; the newest is the object.

// KindStorage is Cloud Storage's objects.insert.
const KindStorage Kind = "storage" // /upload/storage/v1/b/{bucket}/o

func init() {
	serve(service{prefix: "storage", kind: KindStorage, resolve: resolveStorage, routes: func(s *Server, mux *http.ServeMux) {
		mux.HandleFunc("GET /storage/v1/b/{bucket}/o/{object...}", s.serveStorageObject)
	}})
}

type storageEndpoint struct {
	bucket string
}

// resolveStorage maps POST /upload/storage/v1/b/{bucket}/o.
func resolveStorage(method string, seg []string) (endpoint, *apiError) {
	if len(seg) != 5 || seg[1] != "v1" || seg[2] != "b" || seg[3] == "" || seg[4] != "o" || method != http.MethodPost {
		return nil, methodNotFound()
	}
	return &storageEndpoint{bucket: seg[3]}, nil
}

func (e *storageEndpoint) kind() Kind      { return KindStorage }
func (e *storageEndpoint) action() string  { return "storage.objects.insert" }
func (e *storageEndpoint) limit() int64    { return 0 }
func (e *storageEndpoint) accepts() string { return "*/*" }
func (e *storageEndpoint) newID() string   { return randomHex(8) }

// answersMD5: Cloud Storage's md5Hash is the bytes' MD5.
func (e *storageEndpoint) answersMD5() bool { return true }

// check: an object has a name, in name= or the metadata.
func (e *storageEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	if objectName(u) == "" {
		return newError(http.StatusBadRequest, "required", "Required")
	}
	return nil
}

func (e *storageEndpoint) inspect(*uploadInfo, content) *apiError { return nil }

// commitCheck applies the preconditions and checks the checksums named.
func (e *storageEndpoint) commitCheck(s *Server, u *uploadInfo, c content) *apiError {
	if e := checkNamedSums(u, c); e != nil {
		return e
	}
	current := int64(0)
	if o, ok := s.storageObject(e.bucket, objectName(u)); ok {
		current = generationOf(o)
	}
	for _, p := range []struct {
		name  string
		holds func(n int64) bool
	}{
		{"ifGenerationMatch", func(n int64) bool { return n == current }},
		{"ifGenerationNotMatch", func(n int64) bool { return n != current }},
	} {
		v := u.query.Get(p.name)
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return invalid("Invalid value for %s: %q", p.name, v)
		}
		if !p.holds(n) {
			return newError(http.StatusPreconditionFailed, "conditionNotMet", "At least one of the pre-conditions you specified did not hold.")
		}
	}
	return nil
}

// resource is the Object: the metadata sent, echoed, with what Cloud
// Storage adds (bucket, size, checksums, generation, links).
func (e *storageEndpoint) resource(_ *Server, f *finished) resourceResult {
	o := objectResource(f)
	if raw, err := hex.DecodeString(f.content.MD5); err == nil && f.content.MD5 != "" {
		o.body["md5Hash"] = base64.StdEncoding.EncodeToString(raw)
	}
	o.body["bucket"] = e.bucket
	o.body["id"] = e.bucket + "/" + o.name + "/" + o.generation
	o.body["selfLink"] = f.base + "/storage/v1/b/" + url.PathEscape(e.bucket) + "/o/" + url.PathEscape(o.name)
	return resourceResult{name: o.name, body: o.body}
}

// checkNamedSums compares the CRC32C and MD5 the client named with the bytes'.
func checkNamedSums(u *uploadInfo, c content) *apiError {
	var crc [4]byte
	binary.BigEndian.PutUint32(crc[:], c.CRC32C)
	gotCRC := base64.StdEncoding.EncodeToString(crc[:])
	gotMD5 := ""
	if raw, err := hex.DecodeString(c.MD5); err == nil && c.MD5 != "" {
		gotMD5 = base64.StdEncoding.EncodeToString(raw)
	}
	named := map[string]string{
		"crc32c": metadataString(u.metadata, "crc32c"),
		"md5":    metadataString(u.metadata, "md5Hash"),
	}
	for _, part := range strings.Split(u.hash, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok && v != "" {
			named[strings.ToLower(k)] = v
		}
	}
	if v := named["crc32c"]; v != "" && v != gotCRC {
		return badRequest("Provided CRC32C %q doesn't match calculated CRC32C %q.", v, gotCRC)
	}
	if v := named["md5"]; v != "" && gotMD5 != "" && v != gotMD5 {
		return badRequest("Provided MD5 hash %q doesn't match calculated MD5 hash %q.", v, gotMD5)
	}
	return nil
}

// storageObject is the newest object of the name in the bucket.
func (s *Server) storageObject(bucket, name string) (Object, bool) {
	path := "/upload/storage/v1/b/" + bucket + "/o"
	var found Object
	ok := false
	for _, o := range s.store.Objects() {
		if o.Kind == KindStorage && o.Path == path && o.Name == name && (!ok || generationOf(o) >= generationOf(found)) {
			found, ok = o, true
		}
	}
	return found, ok
}

// generationOf is the generation an object's answer gave.
func generationOf(o Object) int64 {
	var r struct {
		Generation string `json:"generation"`
	}
	_ = json.Unmarshal(o.Response, &r)
	n, _ := strconv.ParseInt(r.Generation, 10, 64)
	return n
}

// serveStorageObject answers objects.get: the newest generation's metadata.
func (s *Server) serveStorageObject(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	bucket, name := r.PathValue("bucket"), r.PathValue("object")
	o, ok := s.storageObject(bucket, name)
	if !ok {
		writeError(w, notFound("No such object: %s/%s", bucket, name))
		return
	}
	writeJSON(w, http.StatusOK, o.Response)
}
